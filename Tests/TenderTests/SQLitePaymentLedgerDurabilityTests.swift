import Foundation
import Testing
@testable import Tender

/// Only what recovery needs is synced one by one (two syncs per payment); the rest is committed, survives a process
/// kill, and becomes durable with the next durable commit. Syncs are counted in SQLite's VFS, not timed.
@Suite("SQLite ledger: durable syncs")
struct SQLitePaymentLedgerDurabilityTests: SQLiteLedgerFixtures {
    private func change(_ reference: String, _ from: PaymentState, _ to: PaymentState, _ time: Double) -> SessionChange {
        SessionChange(reference: reference, expectedState: from, newState: to, at: at(time))
    }

    /// The syncs `body` costs.
    private func syncs(of ledger: SQLitePaymentLedger, _ body: () async throws -> Void) async rethrows -> SQLiteSyncCounts {
        let before = ledger.syncCounts
        try await body()
        return ledger.syncCounts.since(before)
    }

    private func walSyncs(_ count: Int) -> SQLiteSyncCounts {
        var counts = SQLiteSyncCounts()
        counts.wal = count
        return counts
    }

    @Test("a payment costs two syncs of the WAL: its write-ahead record and its outcome")
    func twoSyncsPerPayment() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try SQLitePaymentLedger(url: directory.appendingPathComponent("ledger.sqlite"))
            for (index, outcome) in [PaymentState.succeeded, .declined, .storedOffline, .outcomeUnknown].enumerated() {
                let reference = "sale-\(index)"
                #expect(try await syncs(of: ledger) { try await ledger.insert(newSession(reference, usd(100))) } == walSyncs(1))
                #expect(try await syncs(of: ledger) {
                    _ = try await ledger.record(change(reference, .created, .collecting, 1), scope: shop)
                    _ = try await ledger.record(change(reference, .collecting, .processing, 2), scope: shop)
                } == walSyncs(0))
                #expect(try await syncs(of: ledger) {
                    _ = try await ledger.record(change(reference, .processing, outcome, 3), scope: shop)
                } == walSyncs(1))
            }
            // A retry of the same reference is a write-ahead record too.
            let retry = SessionChange(reference: "sale-3", expectedState: .outcomeUnknown, newState: .outcomeUnknown,
                                      at: at(4), incrementsAttempts: true)
            #expect(retry.requiresDurableSync)
            #expect(try await syncs(of: ledger) { _ = try await ledger.record(retry, scope: shop) } == walSyncs(1))
            #expect(ledger.durableSyncCount == ledger.syncCounts.total)
        }
    }

    @Test("a batch is durable if any of its changes is; every refund insert and change is durable")
    func batchesAndRefunds() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try SQLitePaymentLedger(url: directory.appendingPathComponent("ledger.sqlite"))
            try await ledger.insertBatch([newSession("a", usd(100)), newSession("b", usd(100)), succeededSession("c", usd(900))])
            #expect(try await syncs(of: ledger) {
                _ = try await ledger.record([change("a", .created, .collecting, 1), change("b", .created, .collecting, 1)],
                                            scope: shop)
            } == walSyncs(0))
            #expect(try await syncs(of: ledger) {
                _ = try await ledger.record([change("a", .collecting, .processing, 2), change("b", .collecting, .canceled, 2)],
                                            scope: shop)
            } == walSyncs(1))
            #expect(try await syncs(of: ledger) {
                try await ledger.insertRefund(RefundRecord(id: "c/refund-1", reference: "c", number: 1, amount: usd(100),
                                                           createdAt: at(3)), scope: shop)
            } == walSyncs(1))
            #expect(try await syncs(of: ledger) {
                _ = try await ledger.recordRefund(RefundChange(refundID: "c/refund-1", expectedStatus: .pending,
                                                               newStatus: .succeeded, at: at(4)), scope: shop)
            } == walSyncs(1))
        }
    }

    @Test("checkpoints are counted: the first commit into a new WAL syncs its header, closing syncs the WAL and the file")
    func checkpointsAreCounted() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            try await makeLedgerFile(url, count: 3)
            let ledger = try SQLitePaymentLedger(url: url)
            #expect(ledger.syncCounts == SQLiteSyncCounts(), "opening an existing ledger writes nothing")
            #expect(try await syncs(of: ledger) { try await ledger.insert(newSession("A", usd(1))) } == walSyncs(2))
            #expect(try await syncs(of: ledger) { try await ledger.insert(newSession("B", usd(1))) } == walSyncs(1))
            var closing = SQLiteSyncCounts()
            closing.wal = 1
            closing.database = 1
            #expect(await syncs(of: ledger) { await ledger.close() } == closing)
        }
    }

    @Test("a commit that is not synced survives a process kill")
    func unsyncedCommitsSurviveAKill() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let ledger = try SQLitePaymentLedger(url: url)
            try await ledger.insert(newSession("A", usd(100)))
            let before = ledger.syncCounts
            _ = try await ledger.record(change("A", .created, .collecting, 1), scope: shop)
            _ = try await ledger.record(change("A", .collecting, .processing, 2), scope: shop)
            #expect(ledger.syncCounts == before, "neither change was synced")
            // What a killed process leaves: the files as the operating system holds them, the WAL not checkpointed.
            let killed = directory.appendingPathComponent("killed.sqlite")
            try FileManager.default.copyItem(at: url, to: killed)
            try FileManager.default.copyItem(atPath: url.path + "-wal", toPath: killed.path + "-wal")
            let reopened = try SQLitePaymentLedger(url: killed)
            let session = try #require(try await reopened.session(reference: "A", scope: shop))
            #expect(session.state == .processing)
            #expect(session.transitions.map(\.to) == [.created, .collecting, .processing])
        }
    }

    /// The files as a power loss would leave them if every write not followed by a sync of its file were lost:
    /// `initial` (the synced state before recording), then each file's writes up to its last sync.
    private func powerLossImage(_ operations: [SQLiteFileOperation], initial: [String: Data]) -> [String: Data] {
        var written = initial
        var synced = initial
        for operation in operations {
            switch operation {
            case .write(let path, let offset, let bytes):
                var data = written[path] ?? Data()
                let end = Int(offset) + bytes.count
                if data.count < end { data.append(Data(count: end - data.count)) }
                data.replaceSubrange(Int(offset)..<end, with: bytes)
                written[path] = data
            case .truncate(let path, let size):
                written[path] = (written[path] ?? Data()).prefix(Int(size))
            case .sync(let path):
                synced[path] = written[path] ?? Data()
            }
        }
        return synced
    }

    @Test("after a power loss every durable commit is there, with every unsynced commit before it")
    func powerLossKeepsDurableCommitsAndWhatPrecedesThem() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            try await makeLedgerFile(url, count: 2)  // closed: synced, no WAL
            let initial = try fileBytes(url)
            let counter = SQLiteSyncCounter(recordingOperations: true)
            let ledger = try SQLitePaymentLedger(url: url, counter: counter)
            try await ledger.insert(newSession("A", usd(100)))                                    // synced
            _ = try await ledger.record(change("A", .created, .collecting, 1), scope: shop)       // not synced
            _ = try await ledger.record(change("A", .collecting, .processing, 2), scope: shop)    // not synced
            try await ledger.insert(newSession("B", usd(200)))                                    // synced: A's too
            _ = try await ledger.record(change("B", .created, .collecting, 3), scope: shop)       // not synced
            let operations = counter.recordedOperations
            #expect(operations.contains { if case .sync = $0 { true } else { false } })
            let paths = Set(operations.map { operation -> String in
                switch operation {
                case .write(let path, _, _), .truncate(let path, _), .sync(let path): path
                }
            })
            let walPath = try #require(paths.first { $0.hasSuffix("-wal") })
            let databasePath = String(walPath.dropLast("-wal".count))
            #expect(paths.isSubset(of: [databasePath, walPath]), "only the file and its WAL are written")

            let image = powerLossImage(operations, initial: [databasePath: initial])
            let lost = directory.appendingPathComponent("after-power-loss.sqlite")
            try #require(image[databasePath]).write(to: lost)
            try #require(image[databasePath + "-wal"]).write(to: URL(fileURLWithPath: lost.path + "-wal"))
            #expect(try fileBytes(lost.path + "-wal").count < (try fileBytes(url.path + "-wal")).count,
                    "the last commit's frames are lost")

            let recovered = try SQLitePaymentLedger(url: lost)
            let a = try #require(try await recovered.session(reference: "A", scope: shop))
            #expect(a.transitions.map(\.to) == [.created, .collecting, .processing])
            let b = try #require(try await recovered.session(reference: "B", scope: shop))
            #expect(b.state == .created, "B's unsynced change after the last durable commit is lost")
            #expect(try await recovered.allSessions(scope: shop).count == 4)
        }
    }
}
