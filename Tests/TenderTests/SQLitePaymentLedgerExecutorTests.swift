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
/// Holds `ledger`'s thread until `gate` opens (signalling `entered` once it holds it): a ledger blocked in SQLite.
private func block(_ ledger: isolated SQLitePaymentLedger, until gate: DispatchSemaphore, entered: DispatchSemaphore)
    -> Bool {
    entered.signal()
    gate.wait()
    return ledger.executor.isCurrent
}

/// Waits for `semaphore` off the cooperative pool.
private func wait(for semaphore: DispatchSemaphore) async {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            semaphore.wait()
            continuation.resume()
        }
    }
}

/// `work`'s result, or `nil` if it has not finished after `seconds` — a deadlock guard, not a performance bound.
private func finishes<T: Sendable>(within seconds: Double, _ work: @escaping @Sendable () async throws -> T) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { try? await work() }
        group.addTask {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
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
            let gate = DispatchSemaphore(value: 0)
            let entered = DispatchSemaphore(value: 0)
            let blocked = Task { await block(slow, until: gate, entered: entered) }
            await wait(for: entered)
            // The slow ledger's thread is held until the gate opens: were the threads shared, this would never end.
            let inserted = await finishes(within: 30) { try await fast.insert(newSession("A", usd(100))); return true }
            gate.signal()
            #expect(inserted == true, "the fast ledger waited for the slow one")
            #expect(await blocked.value, "the blocking ran on the slow ledger's thread")
        }
    }

    @Test("ledgers blocked in SQLite, more of them than cores, leave the cooperative pool free")
    func blockedLedgersDoNotStarveThePool() async throws {
        try await withTemporaryDirectory { directory in
            // More blocked ledgers than the pool has threads: on the default actor executor each would hold one
            // cooperative thread until released, and nothing else could run.
            let count = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
            var ledgers: [SQLitePaymentLedger] = []
            for index in 0..<count {
                ledgers.append(try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("\(index).sqlite")))
            }
            let gate = DispatchSemaphore(value: 0)
            let entered = DispatchSemaphore(value: 0)
            let blocking = ledgers.map { ledger in Task { await block(ledger, until: gate, entered: entered) } }
            for _ in ledgers { await wait(for: entered) }
            // A watchdog on a thread of its own: if the pool is starved (nothing below can run), it opens the gates
            // after 30 s and says so, so the test fails instead of hanging.
            let finished = DispatchSemaphore(value: 0)
            let watchdogOpened = Locked(false)
            let ledgerCount = ledgers.count
            Thread.detachNewThread {
                if finished.wait(timeout: .now() + 30) == .timedOut {
                    watchdogOpened.withLock { $0 = true }
                    for _ in 0..<ledgerCount { gate.signal() }
                }
            }
            // Work for the cooperative pool while every ledger is blocked.
            let answer = await Task.detached { (1...1_000).reduce(0, +) }.value
            let starved = watchdogOpened.withLock { $0 }
            finished.signal()
            if !starved { for _ in ledgers { gate.signal() } }
            #expect(answer == 500_500)
            #expect(!starved, "the pool was starved while the ledgers were blocked")
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
