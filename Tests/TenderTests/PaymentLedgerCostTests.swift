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
            // All of it: two reads before the payment is recorded (the reference, the stored totals for routing),
            // the write-ahead commit (session, history row, scope) and the outcome commit (one read and one write of
            // the row, three history rows), BEGIN and COMMIT included. Four commits took 31.
            #expect(statements.count == 18)
        }
    }
}
