import Foundation
import Testing
@testable import Tender
import TenderTesting

/// What one payment through the facade costs the SQLite ledger, counted (not timed) so that a regression fails: its
/// commits, its durable commits, and the statements it runs. `payment_floor_ratio` (tender-bench) times the same path
/// against two raw durable commits.
@Suite struct PaymentLedgerCostTests: SQLiteLedgerFixtures {
    /// The statements the ledger ran for one approved online payment.
    private func statementsOfOnePayment(reference: String, in directory: URL) async throws
        -> (statements: [String], session: PaymentSession) {
        let ledger = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("cost.sqlite"))
        let terminal = PaymentTerminal(processor: InMemoryPaymentProcessor(), ledger: ledger, scope: shop)
        await terminal.handle(.networkStatusChanged(.online))
        // A first payment warms the statement cache and the scope's row.
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(900), reference: "warm-up"))
        await ledger.startStatementLog()
        let session = try await terminal.takePayment(PaymentRequest(amount: usd(1_250), reference: reference))
        let statements = await ledger.stopStatementLog()
        await ledger.close()
        return (statements, session)
    }

    @Test("an approved payment is two commits, both durable: the write-ahead record and the outcome")
    func onePaymentIsTwoCommits() async throws {
        try await withTemporaryDirectory { directory in
            let (statements, session) = try await statementsOfOnePayment(reference: "order-1", in: directory)
            print("statements of one payment (\(statements.count)):\n  " + statements.map {
                $0.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                    .joined(separator: " ").prefix(110)
            }.joined(separator: "\n  "))
            #expect(session.state == .succeeded)
            // Every state the payment went through is in its history, as recorded in the ledger.
            #expect(session.transitions.map(\.to) == [.created, .collecting, .processing, .succeeded])

            let writes = statements.filter { $0 == "BEGIN IMMEDIATE" }
            #expect(statements.filter { $0 == "BEGIN" }.isEmpty,
                    "no read transaction of its own: the reference and the stored aggregates are read in the write-ahead commit")
            #expect(writes.count == 2, "one write-ahead commit and one outcome commit")
            #expect(statements.filter { $0 == "PRAGMA synchronous = NORMAL" }.isEmpty,
                    "no commit of a payment is left unsynced")
            #expect(statements.filter { $0.hasPrefix("UPDATE sessions") }.count == 1,
                    "the session row is written once after its creation")
            #expect(statements.filter { $0.hasPrefix("INSERT INTO sessions") }.count == 1)
            #expect(statements.filter { $0.contains("INSERT INTO transitions") }.count == 4,
                    "one history row per state")
            #expect(statements.filter { $0.hasPrefix("SELECT from_state") }.isEmpty,
                    "the history is never read back while the payment is recorded")
            // All of it: the write-ahead commit (the reference looked up, the stored totals read for routing, the
            // session, its history row, its scope) and the outcome commit (one read and one write of the row, three
            // history rows), BEGIN and COMMIT included. Four commits took 31; two commits after two reads took 18.
            #expect(statements.count == 14)
        }
    }

    @Test("a new reference is looked up, routed and recorded write-ahead in one ledger call; a recorded one is returned untouched")
    func openingIsOneTransaction() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("open.sqlite"))
            let seen = Locked<[StoredPaymentSummary]>([])
            let fresh = newSession("order-1", usd(500))
            await ledger.startStatementLog()
            let opened = try await ledger.openPayment(reference: "order-1", scope: shop) { stored in
                seen.withLock { $0.append(stored) }
                return fresh
            }
            let statements = await ledger.stopStatementLog()
            guard case .created(let created) = opened else { Issue.record("expected a new session"); return }
            #expect(created == fresh)
            #expect(seen.current == [StoredPaymentSummary()], "routing saw the stored aggregates, read in the same call")
            #expect(statements.filter { $0 == "BEGIN IMMEDIATE" }.count == 1)
            #expect(statements.filter { $0 == "BEGIN" }.isEmpty)
            #expect(try await ledger.session(reference: "order-1", scope: shop, includingHistory: true)?.transitions
                        .map(\.to) == [.created])

            // The reference again: its session comes back, nothing is created or written.
            let again = try await ledger.openPayment(reference: "order-1", scope: shop) { _ in
                Issue.record("a recorded reference must not be routed again")
                return newSession("order-1", usd(500))
            }
            guard case .existing(let existing) = again else { Issue.record("expected the recorded session"); return }
            #expect(existing.reference == "order-1" && existing.state == .created)

            // A refusal (routing throws) records nothing.
            await #expect(throws: PaymentError.self) {
                _ = try await ledger.openPayment(reference: "order-2", scope: shop) { _ in
                    throw PaymentError(.offlineNotAllowed, recovery: .goOnline, phase: .routing, message: "refused")
                }
            }
            #expect(try await ledger.session(reference: "order-2", scope: shop, includingHistory: false) == nil)
            await ledger.close()
        }
    }

    @Test("a change sets only the columns it moves: the outcome does not rewrite the vendor id learned before it")
    func updateSetsOnlyChangedColumns() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("update.sqlite"))
            try await ledger.insert(newSession("order-1", usd(700)))
            _ = try await ledger.record(SessionChange(reference: "order-1", expectedState: .created,
                                                      newState: .collecting, at: at(1),
                                                      processorPaymentID: "pi_123"), scope: shop)
            _ = try await ledger.record(SessionChange(reference: "order-1", expectedState: .collecting,
                                                      newState: .processing, at: at(1.5)), scope: shop)
            await ledger.startStatementLog()
            let card = CardDetails(brand: .visa, last4: "4242", entryMethod: .contactless)
            let after = try await ledger.record(SessionChange(reference: "order-1", expectedState: .processing,
                                                              newState: .succeeded, at: at(2), card: card),
                                                scope: shop)
            let statements = await ledger.stopStatementLog()
            let updates = statements.filter { $0.hasPrefix("UPDATE sessions") }
            #expect(updates.count == 1)
            #expect(updates.allSatisfy { !$0.contains("processor_payment_id") && !$0.contains("local_id")
                                         && !$0.contains("stored_since") && !$0.contains("last_error") },
                    "\(updates)")
            #expect(updates.allSatisfy { $0.contains("state = ?") && $0.contains("card = ?") })
            let read = try await ledger.session(reference: "order-1", scope: shop, includingHistory: true)
            #expect(read?.processorPaymentID == "pi_123" && read?.state == .succeeded && read?.card == card)
            #expect(read?.updatedAt == at(2) && after.processorPaymentID == "pi_123")
            #expect(read?.transitions.map(\.to) == [.created, .collecting, .processing, .succeeded])
            await ledger.close()
        }
    }
}
