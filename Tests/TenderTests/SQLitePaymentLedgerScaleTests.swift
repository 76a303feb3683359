import Foundation
import Testing
@testable import Tender

/// The ledger at size: thousands of sessions read back whole, queue status without scanning 100,000 stored payments.
@Suite("SQLite ledger: at scale")
struct SQLitePaymentLedgerScaleTests: SQLiteLedgerFixtures {
    @Test("a ledger of 5,000 sessions is reopened and read back whole")
    func reopensALargeLedger() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            var sessions: [PaymentSession] = []
            for index in 0..<5_000 {
                let reference = "order-\(index)"
                let time = at(Double(index))
                if index % 3 == 0 {
                    sessions.append(storedSession(reference, usd(Int64(index + 1)), scope: shop, storedAt: time))
                } else {
                    sessions.append(newSession(reference, jpy(Int64(index + 1)), at: time))
                }
            }
            let first = try await SQLitePaymentLedger.open(url: url)
            try await first.insertBatch(sessions)
            await first.close()

            let ledger = try await SQLitePaymentLedger.open(url: url)
            let all = try await ledger.allSessions(scope: shop)
            #expect(all.count == 5_000)
            #expect(all == sessions.map { var s = $0; s.transitions = []; return s })
            let stored = sessions.filter { $0.state == .storedOffline }
            #expect(try await ledger.storedSummary(scope: shop) == StoredPaymentSummary(
                count: stored.count, amounts: [.usd: stored.reduce(0) { $0 + $1.amount.minorUnits }],
                oldestStoredAt: at(0)))
            #expect(try await ledger.sessions(in: [.storedOffline], scope: shop).count == stored.count)
            #expect(try await ledger.session(reference: "order-4998", scope: shop) == sessions[4998])
        }
    }

    @Test("queue status with 100,000 stored payments is read without scanning them")
    func storedSummaryDoesNotScan() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("ledger.sqlite"))
            let big = LedgerScope(merchantID: "acct_big", locationID: "loc_big")
            try await ledger.insertBatch((0..<100_000).map {
                storedSession("order-\($0)", usd(100), scope: big, storedAt: at(Double(100_000 - $0)))
            })
            try await ledger.insert(storedSession("only", usd(100), scope: shop, storedAt: at(1)))

            let plan = try await ledger.explainStoredSummaryQuery(scope: big)
            print("stored summary query plan: \(plan)")
            #expect(!plan.isEmpty)
            #expect(!plan.contains { $0.contains("SCAN") })
            #expect(plan.contains { $0.hasPrefix("SEARCH stored_aggregates") })
            #expect(plan.contains { $0.hasPrefix("SEARCH sessions USING COVERING INDEX sessions_by_stored_since") })

            let large = try await ledger.storedSummaryReadCost(scope: big)
            let small = try await ledger.storedSummaryReadCost(scope: shop)
            print("stored summary cost: 100,000 stored → \(large.virtualMachineSteps) VM steps, "
                  + "1 stored → \(small.virtualMachineSteps) VM steps")
            #expect(large.summary == StoredPaymentSummary(count: 100_000, amounts: [.usd: 10_000_000],
                                                          oldestStoredAt: at(1)))
            #expect(small.summary.count == 1)
            #expect(large.fullScanSteps == 0)
            // The same work for 100,000 stored payments as for one: nothing grows with the rows.
            #expect(large.virtualMachineSteps <= small.virtualMachineSteps + 2)
            #expect(large.virtualMachineSteps < 100)
        }
    }
}
