import Foundation
import Testing
@testable import Tender

/// Refunds in the SQLite ledger: write-ahead, append-only history, never more than was captured.
@Suite("SQLite ledger: refunds")
struct SQLitePaymentLedgerRefundTests: SQLiteLedgerFixtures {
    private func refund(_ reference: String, _ number: Int, _ amount: Money, at time: Double = 1,
                        throughReader: Bool = false) -> RefundRecord {
        RefundRecord(id: RefundRecord.idempotencyKey(reference: reference, number: number), reference: reference,
                     number: number, amount: amount, reason: .duplicate, throughReader: throughReader,
                     createdAt: at(time))
    }

    @Test("two ledgers on one file refunding the same payment at once never exceed what was captured")
    func concurrentRefundsNeverExceedTheCapturedAmount() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let first = try await SQLitePaymentLedger.open(url: url)
            let second = try await SQLitePaymentLedger.open(url: url)  // another process on the same file
            try await first.insert(succeededSession("order-1", usd(1000)))
            // 40 refunds of 1.00 against 10.00, from both ledgers at once, each with its own id.
            let accepted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for number in 1...40 {
                    let ledger = number % 2 == 0 ? first : second
                    group.addTask {
                        do {
                            try await ledger.insertRefund(
                                RefundRecord(id: "order-1/refund-\(number)", reference: "order-1", number: number,
                                             amount: Money(minorUnits: 100, currency: .usd),
                                             createdAt: Date(timeIntervalSinceReferenceDate: 800_000_000)),
                                scope: LedgerScope(merchantID: "acct_A", locationID: "loc_1"))
                            return true
                        } catch let error as PaymentError where error.code == .invalidAmount {
                            return false
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(accepted == 10)
            let session = try #require(try await second.session(reference: "order-1", scope: shop))
            #expect(session.refunds.count == 10)
            #expect(session.refundedAmount == usd(1000))
            #expect(session.refundableAmount == usd(0))
        }
    }

    @Test("a refund is recorded before the processor is asked, and its whole history survives reopening")
    func refundHistoryIsKept() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let ledger = try await SQLitePaymentLedger.open(url: url)
            try await ledger.insert(succeededSession("A", usd(1000), tip: usd(150)))
            try await ledger.insertRefund(refund("A", 1, usd(1150), throughReader: true), scope: shop)
            let timeout = PaymentError(.outcomeUnknown, recovery: .retrySamePayment, phase: .refund,
                                       message: "The server did not answer.")
            _ = try await ledger.recordRefund(RefundChange(refundID: "A/refund-1", expectedStatus: .pending,
                                                           newStatus: .pending, at: at(2), error: timeout), scope: shop)
            _ = try await ledger.recordRefund(RefundChange(refundID: "A/refund-1", expectedStatus: .pending,
                                                           newStatus: .succeeded, at: at(3), processorRefundID: "re_9"),
                                              scope: shop)
            // Recovery reads what is still pending: nothing.
            #expect(try await ledger.refunds(in: [.pending], scope: shop).isEmpty)
            await ledger.close()

            let reopened = try await SQLitePaymentLedger.open(url: url)
            let stored = try #require(try await reopened.refunds(reference: "A", scope: shop).first)
            #expect(stored.status == .succeeded && stored.processorRefundID == "re_9" && stored.throughReader)
            #expect(stored.reason == .duplicate && stored.amount == usd(1150) && stored.number == 1)
            #expect(stored.createdAt == at(1) && stored.updatedAt == at(3) && stored.error == timeout)
            let history = try await reopened.refundHistory(id: "A/refund-1", scope: shop)
            #expect(history.map(\.from) == [nil, .pending, .pending])
            #expect(history.map(\.to) == [.pending, .pending, .succeeded])
            #expect(history.map(\.at) == [at(1), at(2), at(3)])
            #expect(history.map(\.processorRefundID) == [nil, nil, "re_9"])
            #expect(history.map(\.error) == [nil, timeout, nil])
        }
    }

    @Test("refunds are scoped: another seller neither sees nor changes them, and may reuse the same key")
    func refundsAreScoped() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("ledger.sqlite"))
            try await ledger.insert(succeededSession("A", usd(1000)))
            try await ledger.insert(succeededSession("A", usd(300), scope: otherShop))
            try await ledger.insertRefund(refund("A", 1, usd(900)), scope: shop)
            try await ledger.insertRefund(refund("A", 1, usd(300)), scope: otherShop)  // same key, other seller
            #expect(try await ledger.refunds(in: [.pending], scope: shop).map(\.amount) == [usd(900)])
            #expect(try await ledger.refunds(in: [.pending], scope: otherShop).map(\.amount) == [usd(300)])
            await #expect(throws: PaymentError.self) {
                try await ledger.insertRefund(refund("A", 2, usd(1)), scope: otherShop)  // 300 already refunded
            }
            _ = try await ledger.recordRefund(RefundChange(refundID: "A/refund-1", expectedStatus: .pending,
                                                           newStatus: .failed, at: at(5)), scope: otherShop)
            #expect(try await ledger.refunds(reference: "A", scope: shop).map(\.status) == [.pending])
            #expect(try await ledger.refunds(reference: "A", scope: otherShop).map(\.status) == [.failed])
        }
    }

    @Test("an offline payment is refundable once forwarded with automatic capture, not while stored")
    func offlinePaymentsAreRefundableOnlyOnceForwarded() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("ledger.sqlite"))
            try await ledger.insert(storedSession("S", usd(500), scope: shop, storedAt: at(1)))
            do {
                try await ledger.insertRefund(refund("S", 1, usd(100)), scope: shop)
                Issue.record("a stored payment was refunded")
            } catch let error as PaymentError {
                #expect(error.code == .invalidState && error.recovery == .goOnline)
            }
            _ = try await ledger.record(SessionChange(reference: "S", expectedState: .storedOffline,
                                                      newState: .forwarded, at: at(2), processorPaymentID: "pi_S"),
                                        scope: shop)
            try await ledger.insertRefund(refund("S", 1, usd(500)), scope: shop)
            #expect(try await ledger.session(reference: "S", scope: shop, includingHistory: false)?
                        .refundableAmount == usd(0))
            // Lookups by processor id carry the refunds too.
            #expect(try await ledger.session(localID: nil, processorPaymentID: "pi_S", scope: shop)?.refunds.count == 1)
        }
    }
}
