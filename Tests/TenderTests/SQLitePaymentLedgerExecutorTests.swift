import Foundation
import Testing
@testable import Tender

/// The name of the thread running the caller (synchronous: `Thread.current` is not for async code).
private func currentThreadName() -> String? { Thread.current.name }

/// Runs on the ledger's executor (an `isolated` parameter): what the thread running a ledger call looks like.
private func threadName(inside ledger: isolated SQLitePaymentLedger) -> String? {
    currentThreadName()
}

/// Blocks the ledger's executor for `seconds`, as a slow `fsync` or a lock held by another process would.
private func block(_ ledger: isolated SQLitePaymentLedger, seconds: Double) -> Bool {
    Thread.sleep(forTimeInterval: seconds)
    return ledger.executor.isCurrent
}

/// The ledger runs SQLite on a thread of its own, not on Swift's cooperative pool (whose threads are as many as the
/// cores) nor on the main actor.
@Suite("SQLite ledger: its own thread")
struct SQLitePaymentLedgerExecutorTests: SQLiteLedgerFixtures {
    @Test("a ledger call runs on the ledger's own thread, never on a cooperative thread")
    func callsRunOnTheLedgersThread() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("ledger.sqlite"))
            let name = await threadName(inside: ledger)
            #expect(name == LedgerExecutor.threadName, "\(String(describing: name))")
            let outside = await Task.detached { currentThreadName() }.value
            #expect(outside != LedgerExecutor.threadName, "a cooperative thread is not the ledger's")
            #expect(!ledger.executor.isCurrent)
            try await ledger.insert(newSession("A", usd(100)))
            #expect(try await ledger.session(reference: "A", scope: shop)?.state == .created)
        }
    }

    @Test("two ledgers have two threads: one blocked ledger does not hold the other")
    func ledgersDoNotShareAThread() async throws {
        try await withTemporaryDirectory { directory in
            let slow = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("slow.sqlite"))
            let fast = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("fast.sqlite"))
            let blocked = Task { await block(slow, seconds: 1) }
            try await Task.sleep(nanoseconds: 50_000_000)
            let start = Date()
            try await fast.insert(newSession("A", usd(100)))
            #expect(Date().timeIntervalSince(start) < 0.5, "the fast ledger waited for the slow one")
            #expect(await blocked.value, "the blocking ran on the slow ledger's thread")
        }
    }

    @Test("ledgers blocked in SQLite, more of them than cores, leave the cooperative pool free")
    func blockedLedgersDoNotStarveThePool() async throws {
        try await withTemporaryDirectory { directory in
            // More blocked ledgers than the pool has threads: on the default actor executor each would hold one
            // cooperative thread for the whole second, and nothing else could run until they finish.
            let count = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
            var ledgers: [SQLitePaymentLedger] = []
            for index in 0..<count {
                ledgers.append(try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("\(index).sqlite")))
            }
            let start = Date()
            let blocking = ledgers.map { ledger in Task { await block(ledger, seconds: 1.5) } }
            try await Task.sleep(nanoseconds: 100_000_000)
            // Work for the cooperative pool while every ledger is blocked.
            let answer = await Task.detached { (1...1_000).reduce(0, +) }.value
            let elapsed = Date().timeIntervalSince(start)
            #expect(answer == 500_500)
            #expect(elapsed < 1.0, "the pool was starved for \(elapsed) s")
            for task in blocking { #expect(await task.value) }
        }
    }

    @Test("opening's work runs on the ledger's thread, not on the main actor that asks for it")
    @MainActor
    func openingsWorkRunsOnTheLedgersThread() async throws {
        let executor = LedgerExecutor()
        defer { executor.stop() }
        let ran = try await executor.perform { (currentThreadName(), Thread.isMainThread) }.value
        #expect(ran.0 == LedgerExecutor.threadName)
        #expect(!ran.1, "the main thread ran the ledger's work")
    }

    @Test("the main actor keeps running while a ledger opens from it")
    func openingLeavesTheMainActorFree() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            try await makeLedgerFile(url, count: 5_000)
            let ticks = Locked(0)
            let ticker = Task { @MainActor in
                while !Task.isCancelled {
                    ticks.withLock { $0 += 1 }
                    await Task.yield()
                }
            }
            defer { ticker.cancel() }
            // A synchronous open would hold the main actor from its start to its return: no tick in between, in any
            // attempt. (Several attempts: under load the main actor may have other work to do while one opens.)
            var during: [Int] = []
            for _ in 0..<5 {
                let ticked = try await Task { @MainActor in
                    while ticks.current == 0 { await Task.yield() }
                    let before = ticks.current
                    let ledger = try await SQLitePaymentLedger.open(url: url)
                    let ticked = ticks.current - before
                    await ledger.close()
                    return ticked
                }.value
                during.append(ticked)
                if ticked > 0 { break }
            }
            #expect(during.contains { $0 > 0 }, "the main actor never ran while the ledger opened: \(during)")
        }
    }
}
