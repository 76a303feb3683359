import Foundation
import Testing
import Tender
@testable import TenderSquare
@testable import TenderSquareSimulator

/// Issue 18 through Square: the SDK keeps its idempotency key under `paymentAttemptID` on the device, whatever
/// location it is signed in to, and `RefundPayment` keys belong to the seller: a reference unique only per location
/// must not make two locations' attempt ids or refund keys collide.
@Suite("Square keys across locations")
struct SquareKeyTests {
    @Test("one device, two locations of seller MA, the same order numbers: each location charges and refunds its own sale")
    func twoLocationsOneDevice() async throws {
        let world = try await SquareWorld()
        let ledger = InMemoryPaymentLedger()
        func facade(_ location: String) -> PaymentTerminal {
            PaymentTerminal(processor: world.processor, ledger: ledger,
                            scope: LedgerScope(merchantID: "MA", locationID: location), clock: world.clock)
        }
        let main = facade("LA1")
        let first = try await main.takePayment(SquareWorld.sale("1001", cents: 12_00))
        #expect(first.state == .succeeded)
        #expect(try await main.refund(reference: "1001", amount: Money(minorUnits: 2_00, currency: .usd)).status
                == .pending)

        await world.simulator.deauthorize()
        try await world.simulator.authorize(withAccessToken: "tok-A", locationID: "LA2")
        let harbor = facade("LA2")
        let second = try await harbor.takePayment(SquareWorld.sale("1001", cents: 15_00))
        #expect(second.state == .succeeded, "\(String(describing: second.lastError))")
        #expect(second.processorPaymentID != nil && second.processorPaymentID != first.processorPaymentID)
        #expect(await world.simulator.chargeCount(referenceID: "1001") == 2)
        let attemptIDs = await world.simulator.serverPayments.filter { $0.referenceID == "1001" }.map(\.paymentAttemptID)
        #expect(attemptIDs == ["MA/LA1/1001/1/payment", "MA/LA2/1001/1/payment"])
        let refund = try await harbor.refund(reference: "1001", amount: Money(minorUnits: 3_00, currency: .usd))
        #expect(refund.status == .pending, "\(String(describing: refund.error))")
        #expect(await world.simulator.serverRefunds.map(\.amountMoney.amount) == [2_00, 3_00])
    }

    @Test("a refund key Square holds for another refund is IDEMPOTENCY_KEY_REUSED (duplicateReference), never that refund")
    func refundKeyReused() async throws {
        let world = try await SquareWorld()
        let (paid, _) = try await world.pay("order-9", cents: 10_00)
        let id = try #require(paid.processorPaymentID)
        let key = IdempotencyKey.refund(scope: LedgerScope(merchantID: "MA", locationID: "LA1"), reference: "order-9",
                                        paymentAttempt: 1, number: 1).rawValue
        func request(_ cents: Int64) -> RefundRequest {
            RefundRequest(processor: "square", reference: "order-9", processorPaymentID: id,
                          amount: Money(minorUnits: cents, currency: .usd), idempotencyKey: key)
        }
        let first = try await world.processor.refundPayment(request(3_00), throughReader: false)
        #expect(try await world.processor.refundPayment(request(3_00), throughReader: false).processorRefundID
                == first.processorRefundID)
        do {
            _ = try await world.processor.refundPayment(request(5_00), throughReader: false)
            Issue.record("a key reused for another amount returned a refund")
        } catch let error as PaymentError {
            #expect(error.code == .duplicateReference && error.vendor?.name == "IDEMPOTENCY_KEY_REUSED")
        }
        #expect(await world.simulator.serverRefunds.count == 1)
    }
}
