import Foundation
import Testing
@testable import Tender
import TenderTesting

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
            let ledger = try await SQLitePaymentLedger.openCountingSyncs(url: directory.appendingPathComponent("ledger.sqlite"))
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

    @Test("a batch is durable if any of its changes is; a refund is durable until the processor's id of it is")
    func batchesAndRefunds() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try await SQLitePaymentLedger.openCountingSyncs(url: directory.appendingPathComponent("ledger.sqlite"))
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
            } == walSyncs(1), "an answer without the processor's id: durable")
            // Square's way: the first answer is pending with the refund's id (durable: recovery looks it up by it),
            // the settlement comes later (committed, synced with the next durable commit).
            try await ledger.insertRefund(RefundRecord(id: "c/refund-2", reference: "c", number: 2, amount: usd(100),
                                                       createdAt: at(5)), scope: shop)
            let refund = { (from: RefundStatus, to: RefundStatus, id: String?) in
                RefundChange(refundID: "c/refund-2", expectedStatus: from, newStatus: to, at: at(6), processorRefundID: id)
            }
            #expect(try await syncs(of: ledger) {
                _ = try await ledger.recordRefund(refund(.pending, .pending, "re_2"), scope: shop)
            } == walSyncs(1), "the processor's id, first learned: durable")
            #expect(try await syncs(of: ledger) {
                _ = try await ledger.recordRefund(refund(.pending, .pending, "re_2"), scope: shop)
                _ = try await ledger.recordRefund(refund(.pending, .succeeded, nil), scope: shop)
            } == walSyncs(0), "what happens to a refund whose id is on disk is asked of the processor again")
            #expect(try await ledger.refunds(reference: "c", scope: shop).map(\.status) == [.succeeded, .succeeded])
            #expect(await syncs(of: ledger) { await ledger.close() } == walSyncs(1), "closing syncs the settlement")
        }
    }

    @Test("closing keeps the WAL and syncs nothing after a durable commit; opening syncs it once; commits append")
    func closingKeepsTheWAL() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let first = try await SQLitePaymentLedger.openCountingSyncs(url: url)
            try await first.insert(newSession("A", usd(1)))
            #expect(await syncs(of: first) { await first.close() } == SQLiteSyncCounts(), "no checkpoint on close")
            let wal = try fileBytes(url.path + "-wal")
            #expect(wal.count > 32, "the WAL stays beside the file, with A's frames")

            let second = try await SQLitePaymentLedger.openCountingSyncs(url: url)
            #expect(second.syncCounts == walSyncs(1), "opening syncs the WAL it opened (and its directory)")
            #expect(try fileBytes(url.path + "-wal") == wal, "opening writes nothing")
            #expect(try await second.session(reference: "A", scope: shop)?.state == .created)
            #expect(try await syncs(of: second) { try await second.insert(newSession("B", usd(1))) } == walSyncs(1),
                    "appended to the kept WAL: no new header to sync")
            _ = try await second.record(change("B", .created, .collecting, 1), scope: shop)
            #expect(await syncs(of: second) { await second.close() } == walSyncs(1),
                    "closing syncs the commit not yet synced, and nothing else")

            let third = try await SQLitePaymentLedger.openCountingSyncs(url: url)
            #expect(try await third.session(reference: "B", scope: shop)?.transitions.map(\.to) == [.created, .collecting])
            #expect(try await third.allSessions(scope: shop).count == 2)
        }
    }

    @Test("a checkpoint costs two syncs (the WAL, the file) and the new log's header one more, at the next commit")
    func checkpointsAreCounted() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let ledger = try await SQLitePaymentLedger.openCountingSyncs(url: url)
            try await ledger.insert(newSession("A", usd(1)))
            var checkpointing = walSyncs(1)
            checkpointing.database = 1
            #expect(try await syncs(of: ledger) { try await ledger.checkpoint() } == checkpointing)
            #expect(LedgerFile.size(url.path + "-wal") == 0, "the file alone holds the ledger")
            #expect(try await syncs(of: ledger) { try await ledger.insert(newSession("B", usd(1))) } == walSyncs(2))
            #expect(try await syncs(of: ledger) { try await ledger.insert(newSession("C", usd(1))) } == walSyncs(1))
        }
    }

    @Test("opening a ledger whose WAL grew past 4 MiB checkpoints it there: three syncs, none left for the next payment")
    func openingCheckpointsALargeWAL() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let first = try await SQLitePaymentLedger.openCountingSyncs(url: url)
            try await first.insertBatch((0..<300).map { newSession("s-\($0)", usd(Int64(100 + $0))) })
            for index in 0..<300 {
                _ = try await first.record(change("s-\(index)", .created, .collecting, 1), scope: shop)
                _ = try await first.record(change("s-\(index)", .collecting, .processing, 2), scope: shop)
            }
            let expected = try await everything(in: first, scope: shop)
            await first.close()
            let grown = try #require(LedgerFile.size(url.path + "-wal"))
            try #require(grown > SQLitePaymentLedger.walBytesCheckpointedAtOpening)

            let second = try await SQLitePaymentLedger.openCountingSyncs(url: url)
            var opening = walSyncs(2)  // the checkpoint's sync of the WAL, then the new log's header
            opening.database = 1
            #expect(second.syncCounts == opening)
            #expect(try await syncs(of: second) { try await second.insert(newSession("next", usd(1))) } == walSyncs(1))
            #expect(try #require(LedgerFile.walFrames(url.path + "-wal")) <= 16, "the log restarted: the next payment's frames")
            let capacity = WALSpace(checkpointPages: SQLitePaymentLedger.checkpointPages, pageSize: 4_096, frames: nil).capacity
            #expect(try #require(LedgerFile.size(url.path + "-wal")) <= capacity,
                    "the restarted log reuses the file in place, never past the space of a checkpoint's worth of log")
            var after = try await everything(in: second, scope: shop)
            after["next"] = nil
            #expect(after == expected)
            #expect(expected.count == 300)
        }
    }

    @Test("a commit that is not synced survives a process kill")
    func unsyncedCommitsSurviveAKill() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let ledger = try await SQLitePaymentLedger.openCountingSyncs(url: url)
            try await ledger.insert(newSession("A", usd(100)))
            let before = ledger.syncCounts
            _ = try await ledger.record(change("A", .created, .collecting, 1), scope: shop)
            _ = try await ledger.record(change("A", .collecting, .processing, 2), scope: shop)
            #expect(ledger.syncCounts == before, "neither change was synced")
            // What a killed process leaves: the files as the operating system holds them, the WAL not checkpointed.
            let killed = directory.appendingPathComponent("killed.sqlite")
            try FileManager.default.copyItem(at: url, to: killed)
            try FileManager.default.copyItem(atPath: url.path + "-wal", toPath: killed.path + "-wal")
            let reopened = try await SQLitePaymentLedger.openCountingSyncs(url: killed)
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

    @Test("after a power loss every durable commit is there, with every unsynced commit before it, across a close")
    func powerLossKeepsDurableCommitsAndWhatPrecedesThem() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            try await makeLedgerFile(url, count: 2)  // closed and checkpointed: synced, its WAL empty
            let initial = try fileBytes(url)
            let counter = try SyncCountingVFS(recordingOperations: true)
            let forwarded = { (reference: String) in
                SessionChange(reference: reference, expectedState: .storedOffline, newState: .forwarded, at: at(9),
                              processorPaymentID: "pi_\(reference)")
            }
            // The first life of the ledger, closed without a checkpoint.
            let ledger = try await counter.openLedger(at: url)
            try await ledger.insert(newSession("A", usd(100)))                                    // synced
            _ = try await ledger.record(change("A", .created, .collecting, 1), scope: shop)       // not synced
            _ = try await ledger.record(change("A", .collecting, .processing, 2), scope: shop)    // not synced
            try await ledger.insert(newSession("B", usd(200)))                                    // synced: A's too
            _ = try await ledger.record(change("B", .created, .collecting, 3), scope: shop)       // not synced
            try await ledger.insert(storedSession("S1", usd(300), scope: shop, storedAt: at(4)))   // synced
            #expect(!forwarded("S1").requiresDurableSync, "the vendor keeps a forwarded payment")
            _ = try await ledger.record(forwarded("S1"), scope: shop)                             // not synced
            await ledger.close()                                                                  // syncs B's, S1's
            // The second life: the WAL replayed, appended to.
            let reopened = try await counter.openLedger(at: url)
            try await reopened.insert(newSession("C", usd(400)))                                  // synced
            try await reopened.insert(storedSession("S2", usd(500), scope: shop, storedAt: at(5))) // synced
            _ = try await reopened.record(forwarded("S2"), scope: shop)                           // not synced: lost
            _ = try await reopened.record(change("C", .created, .collecting, 6), scope: shop)     // not synced: lost

            let operations = counter.counter.recordedOperations
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
            #expect(try #require(LedgerFile.walFrames(lost.path + "-wal")) < (try #require(LedgerFile.walFrames(url.path + "-wal"))),
                    "the last commits' frames are lost")

            let recovered = try await SQLitePaymentLedger.openCountingSyncs(url: lost)
            let a = try #require(try await recovered.session(reference: "A", scope: shop))
            #expect(a.transitions.map(\.to) == [.created, .collecting, .processing])
            let b = try #require(try await recovered.session(reference: "B", scope: shop))
            #expect(b.state == .collecting, "closing synced B's change")
            #expect(try await recovered.session(reference: "S1", scope: shop)?.state == .forwarded)
            #expect(try await recovered.session(reference: "C", scope: shop)?.state == .created,
                    "C's unsynced change after the last durable commit is lost")
            // The forwarding result lost to the power loss: the payment is still stored, and counted as stored, so
            // the next reconciliation finds it and records the vendor's result again.
            let s2 = try #require(try await recovered.session(reference: "S2", scope: shop))
            #expect(s2.state == .storedOffline && s2.processorPaymentID == nil)
            #expect(try await recovered.storedSummary(scope: shop).count == 1)
            #expect(try await recovered.sessions(in: [.storedOffline], scope: shop).map(\.reference) == ["S2"])
            let again = try await recovered.record([forwarded("S2")], scope: shop)
            #expect(again.map(\.state) == [.forwarded] && again.first?.processorPaymentID == "pi_S2")
            #expect(try await recovered.storedSummary(scope: shop) == StoredPaymentSummary())
            #expect(try await recovered.allSessions(scope: shop).count == 7)
        }
    }
}
