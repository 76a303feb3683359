import Foundation
import Testing
@testable import Tender
import TenderTesting

/// The set-based path against the in-memory reference on random batches: every kind of change it covers (legal
/// transitions into and out of storedOffline, changes that keep the state with ids, times and notes, retries),
/// with cards, errors, tips in another currency and times with any fraction of a second. Whatever the batch, both
/// ledgers must hold exactly the same sessions, histories and aggregates afterwards, and refuse the same batches.
@Suite("SQLite ledger: set-based batches against the reference")
struct SQLitePaymentLedgerBatchParityTests: SQLiteLedgerFixtures {
    /// A random session in a random state (as a fixture inserts it).
    private func randomSession(_ index: Int, using random: inout SeededGenerator) -> PaymentSession {
        let amount = Bool.random(using: &random) ? usd(Int64.random(in: 1...90_000, using: &random))
            : jpy(Int64.random(in: 1...9_000, using: &random))
        let tip: Money? = switch Int.random(in: 0..<4, using: &random) {
        case 0: usd(Int64.random(in: 1...500, using: &random))  // another currency than the amount's, at times
        case 1: amount.currency == .usd ? usd(100) : jpy(10)
        default: nil
        }
        var session = newSession("p-\(index)", amount, tip: tip, at: at(Double.random(in: 0..<1_000, using: &random)))
        let state = PaymentState.allCases.randomElement(using: &random)!
        if state != .created {
            session.transitions.append(PaymentTransition(from: .created, to: state, at: session.createdAt))
            session.state = state
        }
        if state == .storedOffline { session.storedAt = Bool.random(using: &random) ? at(7.25) : nil }
        if Bool.random(using: &random) { session.card = visa }
        if Bool.random(using: &random) { session.localID = "local-\(index)" }
        return session
    }

    /// A random change of `session`: usually legal, sometimes not (another state expected, an illegal target).
    private func randomChange(of session: PaymentSession, using random: inout SeededGenerator) -> SessionChange {
        let legal = PaymentState.allCases.filter { PaymentStateMachine.canTransition(from: session.state, to: $0) }
        var target = session.state
        if !legal.isEmpty, Int.random(in: 0..<4, using: &random) > 0 { target = legal.randomElement(using: &random)! }
        if Int.random(in: 0..<150, using: &random) == 0 { target = PaymentState.allCases.randomElement(using: &random)! }
        var expected = session.state
        if Int.random(in: 0..<150, using: &random) == 0 { expected = PaymentState.allCases.randomElement(using: &random)! }
        let maybe = { (random: inout SeededGenerator) in Int.random(in: 0..<3, using: &random) == 0 }
        return SessionChange(
            reference: session.reference, expectedState: expected, newState: target,
            at: at(2_000 + Double.random(in: 0..<1, using: &random)),
            route: maybe(&random) ? .offline : nil, processorPaymentID: maybe(&random) ? "pi_\(UUID().uuidString)" : nil,
            localID: maybe(&random) ? "local-\"new\"\n\(Int.random(in: 0..<9, using: &random))" : nil,
            card: maybe(&random) ? visa : nil, error: maybe(&random) ? declineAfterForwarding : nil,
            incrementsAttempts: Int.random(in: 0..<10, using: &random) == 0,
            storedAt: maybe(&random) ? at(Double.random(in: 0..<100, using: &random)) : nil,
            captureBefore: maybe(&random) ? at(9_000.125) : nil,
            note: maybe(&random) ? "note ☕️ \(Int.random(in: 0..<9, using: &random))" : nil)
    }

    @Test("random batches leave exactly what the in-memory ledger leaves, or are refused by both")
    func randomBatches() async throws {
        try await withTemporaryDirectory { directory in
            var random = SeededGenerator(seed: 2_024)
            let sqlite = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("ledger.sqlite"))
            let memory = InMemoryPaymentLedger()
            let fixture = (0..<400).map { randomSession($0, using: &random) }
            try await sqlite.insertBatch(fixture)
            for session in fixture { try memory.insert(session) }
            var setBased = 0, refused = 0, setBasedAccepted = 0
            for _ in 0..<60 {
                let current = try await sqlite.allSessions(scope: shop).shuffled(using: &random)
                let changes = current.prefix(Int.random(in: 2...40, using: &random)).map { randomChange(of: $0, using: &random) }
                if SetBasedBatch(changes) != nil { setBased += 1 }
                let fromSQLite = await answer {
                    .sessions(try await sqlite.record(changes, scope: shop).map { var s = $0; s.transitions = []; return s })
                }
                let fromMemory = await answer {
                    .sessions(try memory.record(changes, scope: shop).map { var s = $0; s.transitions = []; return s })
                }
                if case .refused = fromMemory { refused += 1 } else if SetBasedBatch(changes) != nil { setBasedAccepted += 1 }
                #expect(fromSQLite == fromMemory)
                #expect(try await sqlite.storedSummary(scope: shop) == memory.storedSummary(scope: shop))
            }
            #expect(try await everything(in: sqlite, scope: shop) == (try await everything(in: memory, scope: shop)))
            print("random batches: \(setBased) of 60 set-based (\(setBasedAccepted) recorded), \(refused) refused")
            #expect(setBasedAccepted >= 20 && refused >= 5, "both paths and refusals are exercised")
        }
    }

    @Test("payments entering, staying in and leaving storedOffline in one batch move the aggregates like the reference")
    func storedAggregatesInOneBatch() async throws {
        try await withTemporaryDirectory { directory in
            let sqlite = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("ledger.sqlite"))
            let memory = InMemoryPaymentLedger()
            var processing = newSession("in", usd(700), tip: jpy(30))
            processing.state = .processing
            var fixture = [processing, storedSession("stays", jpy(500), scope: shop, storedAt: at(3)),
                           storedSession("leaves", usd(900), scope: shop, storedAt: at(1))]
            fixture[1].storedAt = nil
            for session in fixture {
                try await sqlite.insert(session)
                try memory.insert(session)
            }
            let changes = [
                SessionChange(reference: "in", expectedState: .processing, newState: .storedOffline, at: at(10.5)),
                SessionChange(reference: "stays", expectedState: .storedOffline, newState: .storedOffline,
                              at: at(11.75), storedAt: at(0.5), note: "the vendor's time of storage"),
                SessionChange(reference: "leaves", expectedState: .storedOffline, newState: .forwarded, at: at(12),
                              processorPaymentID: "pi_leaves"),
            ]
            #expect(SetBasedBatch(changes) != nil)
            let recorded = try await sqlite.record(changes, scope: shop)
            #expect(recorded == (try memory.record(changes, scope: shop)).map { var s = $0; s.transitions = []; return s })
            #expect(try await sqlite.storedSummary(scope: shop) == memory.storedSummary(scope: shop))
            #expect(try await sqlite.storedSummary(scope: shop)
                    == StoredPaymentSummary(count: 2, amounts: [.usd: 700, .jpy: 500], oldestStoredAt: at(0.5)))
            #expect(try await everything(in: sqlite, scope: shop) == (try await everything(in: memory, scope: shop)))
        }
    }
}
