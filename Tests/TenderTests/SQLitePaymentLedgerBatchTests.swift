import Foundation
import Testing
@testable import Tender
import TenderTesting

/// Batches: all or nothing, chains on one payment, and forwarding results applied with set-based statements.
@Suite("SQLite ledger: batches")
struct SQLitePaymentLedgerBatchTests: SQLiteLedgerFixtures {
    @Test func batchIsAllOrNothingAndChainsChangesToOneReference() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("l.sqlite"))
            let scope = LedgerScope(merchantID: "m", locationID: "l")
            let clock = ManualClock()
            for reference in ["a", "b"] {
                var session = PaymentSession(request: PaymentRequest(amount: Money(minorUnits: 500, currency: .usd), reference: reference),
                                             scope: scope, processor: "p", route: .offline, at: clock.now())
                try SessionChange(reference: reference, expectedState: .created, newState: .processing, at: clock.now()).apply(to: &session)
                try SessionChange(reference: reference, expectedState: .processing, newState: .storedOffline, at: clock.now()).apply(to: &session)
                try await ledger.insert(session)
            }
            #expect(try await ledger.storedSummary(scope: scope).count == 2)
            // The second change is illegal: nothing of the batch is kept.
            await #expect(throws: PaymentError.self) {
                _ = try await ledger.record([
                    SessionChange(reference: "a", expectedState: .storedOffline, newState: .forwarded, at: clock.now()),
                    SessionChange(reference: "b", expectedState: .storedOffline, newState: .succeeded, at: clock.now()),
                ], scope: scope)
            }
            #expect(try await ledger.session(reference: "a", scope: scope)?.state == .storedOffline)
            #expect(try await ledger.storedSummary(scope: scope).count == 2)
            // A legal batch, with a chain on one reference, is committed whole.
            let results = try await ledger.record([
                SessionChange(reference: "a", expectedState: .storedOffline, newState: .failedToForward, at: clock.now()),
                SessionChange(reference: "a", expectedState: .failedToForward, newState: .forwarded, at: clock.now(), processorPaymentID: "pi_a"),
                SessionChange(reference: "b", expectedState: .storedOffline, newState: .declinedAfterForwarding, at: clock.now()),
            ], scope: scope)
            #expect(results.map(\.state) == [.failedToForward, .forwarded, .declinedAfterForwarding])
            let a = try #require(try await ledger.session(reference: "a", scope: scope))
            #expect(a.transitions.map(\.to) == [.created, .processing, .storedOffline, .failedToForward, .forwarded])
            #expect(a.processorPaymentID == "pi_a")
            #expect(try await ledger.storedSummary(scope: scope) == StoredPaymentSummary())
        }
    }

    /// Stored payments in two currencies, some with a tip, some already failed to forward.
    private func forwardingFixture(_ count: Int) -> [PaymentSession] {
        (0..<count).map { index in
            let amount = index % 3 == 0 ? jpy(Int64(100 + index)) : usd(Int64(1_000 + index))
            var session = storedSession("fwd-\(index)", amount, scope: shop, storedAt: at(Double(index)))
            if index % 4 == 1 { session.tip = usd(50) }
            return session
        }
    }

    /// Forwarding results as the facade builds them: one change per payment.
    private func forwardingResults(_ count: Int) -> [SessionChange] {
        (0..<count).map { index in
            let reference = "fwd-\(index)"
            switch index % 5 {
            case 0: return SessionChange(reference: reference, expectedState: .storedOffline, newState: .failedToForward,
                                         at: at(500), error: declineAfterForwarding)
            case 1: return SessionChange(reference: reference, expectedState: .storedOffline,
                                         newState: .declinedAfterForwarding, at: at(501), route: .offline,
                                         processorPaymentID: "pi_\(index)", card: visa, error: declineAfterForwarding)
            default: return SessionChange(reference: reference, expectedState: .storedOffline, newState: .forwarded,
                                          at: at(502), processorPaymentID: "pi_\(index)", localID: "local-new-\(index)",
                                          card: index % 2 == 0 ? visa : nil, captureBefore: index % 7 == 0 ? at(9_000) : nil,
                                          note: index % 11 == 0 ? "forwarded after 3 tries" : nil)
            }
        }
    }

    @Test("forwarding results applied set-based leave exactly what the in-memory reference leaves")
    func setBasedBatchMatchesTheReference() async throws {
        try await withTemporaryDirectory { directory in
            let sqlite = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("ledger.sqlite"))
            let memory = InMemoryPaymentLedger()
            let fixture = forwardingFixture(300)
            try await sqlite.insertBatch(fixture)
            for session in fixture { try memory.insert(session) }
            let changes = forwardingResults(300)
            #expect(SetBasedBatch(changes) != nil, "the facade's forwarding batch takes the set-based path")

            await sqlite.startStatementLog()
            let recorded = try await sqlite.record(changes, scope: shop)
            let statements = await sqlite.stopStatementLog()
            // Batches return the sessions without their history.
            #expect(recorded == (try memory.record(changes, scope: shop)).map { var s = $0; s.transitions = []; return s })
            #expect(try await everything(in: sqlite, scope: shop) == (try await everything(in: memory, scope: shop)))
            #expect(try await sqlite.storedSummary(scope: shop) == memory.storedSummary(scope: shop))
            #expect(try await sqlite.storedSummary(scope: shop) == StoredPaymentSummary())

            // The cost: a fixed number of statements whatever the batch size: one SELECT reading the payments, one
            // UPDATE writing them, one INSERT appending their history, and the aggregates of each currency (two
            // here: an UPDATE and a DELETE of the emptied row each).
            let onLedgerTables = statements.filter { sql in !["BEGIN", "COMMIT", "PRAGMA"].contains { sql.hasPrefix($0) } }
            print("set-based batch of \(changes.count): \(statements.count) statements, "
                  + "\(onLedgerTables.count) on the ledger's tables")
            #expect(onLedgerTables.filter { $0.hasPrefix("SELECT") && $0.contains("FROM tender_batch") }.count == 1)
            #expect(onLedgerTables.filter { $0.hasPrefix("UPDATE sessions") }.count == 1)
            #expect(onLedgerTables.filter { $0.contains("INSERT INTO transitions") }.count == 1)
            #expect(onLedgerTables.filter { $0.contains("stored_aggregates") }.count == 2 * 2)
            #expect(onLedgerTables.count == 3 + 2 * 2)
            #expect(statements.filter { !$0.hasPrefix("PRAGMA") }.count == onLedgerTables.count + 2,
                    "and BEGIN and COMMIT (besides a PRAGMA when the durability of commits changes)")
        }
    }

    @Test("a batch of 2 and a batch of 1,000 run the same statements")
    func statementCountDoesNotGrow() async throws {
        try await withTemporaryDirectory { directory in
            let sqlite = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("ledger.sqlite"))
            try await sqlite.insertBatch((0..<1_002).map {
                storedSession("fwd-\($0)", usd(Int64(1_000 + $0)), scope: shop, storedAt: at(Double($0)))
            })
            var counts: [Int] = []
            for range in [0..<2, 2..<1_002] {
                let changes = range.map {
                    SessionChange(reference: "fwd-\($0)", expectedState: .storedOffline, newState: .forwarded,
                                  at: at(600), processorPaymentID: "pi_\($0)")
                }
                await sqlite.startStatementLog()
                #expect(try await sqlite.record(changes, scope: shop).count == changes.count)
                counts.append(await sqlite.stopStatementLog().filter { !$0.hasPrefix("PRAGMA") }.count)
            }
            print("statements per forwarding batch (BEGIN and COMMIT included, PRAGMA synchronous not): \(counts)")
            #expect(counts == [7, 7])
        }
    }

    @Test("the set-based statements search the batch's payments by index and never scan the sessions")
    func setBasedBatchPlan() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("ledger.sqlite"))
            try await ledger.insertBatch(forwardingFixture(2_000))
            let plan = try await ledger.explainSetBasedBatch(scope: shop, columns: [.processorPaymentID, .storedSince])
            print("set-based batch plan: \(plan)")
            #expect(!plan.isEmpty)
            #expect(!plan.contains { $0.hasPrefix("SCAN sessions") || $0 == "SCAN s" || $0.hasPrefix("SCAN s ") })
            // The read finds each payment by the unique index, then by row id; the update by row id; the history
            // insert reads only the batch.
            #expect(plan.filter { $0.hasPrefix("SEARCH sessions USING COVERING INDEX sqlite_autoindex_sessions_1") }.count == 1)
            #expect(plan.filter { $0.hasPrefix("SCAN b VIRTUAL TABLE") }.count == 2)
            #expect(plan.filter { $0.hasPrefix("SCAN tender_batch VIRTUAL TABLE") }.count == 1)
            #expect(plan.filter { $0.contains("USING INTEGER PRIMARY KEY (rowid=?)") }.count == 2)
            #expect(plan.count == 7)
        }
    }

    @Test("a set-based batch with one payment in another state, missing or illegal fails whole, with the row path's error")
    func setBasedBatchIsAllOrNothing() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("ledger.sqlite"))
            try await ledger.insertBatch(forwardingFixture(50))
            _ = try await ledger.record(SessionChange(reference: "fwd-17", expectedState: .storedOffline,
                                                      newState: .forwarded, at: at(400)), scope: shop)
            let before = try await everything(in: ledger, scope: shop)
            let summary = try await ledger.storedSummary(scope: shop)
            var moved = forwardingResults(50)       // fwd-17 is already forwarded
            var missing = forwardingResults(50).filter { $0.reference != "fwd-17" }
            missing.append(SessionChange(reference: "nope", expectedState: .storedOffline, newState: .forwarded, at: at(600)))
            var illegal = forwardingResults(50).filter { $0.reference != "fwd-17" }
            illegal[3].newState = .succeeded
            moved[0].note = "changes nothing"
            for (batch, code) in [(moved, PaymentError.Code.invalidState), (missing, .unknownReference),
                                  (illegal, .illegalTransition)] {
                do {
                    _ = try await ledger.record(batch, scope: shop)
                    Issue.record("a batch expected to fail with \(code) was recorded")
                } catch let error as PaymentError {
                    #expect(error.code == code)
                }
                #expect(try await everything(in: ledger, scope: shop) == before)
                #expect(try await ledger.storedSummary(scope: shop) == summary)
            }
        }
    }
}
