import Foundation
import Testing
import Tender
import TenderStripe
@testable import TenderServer

/// Issue 18 against localstripe (with Stripe's idempotency semantics): keys are unique per merchant, location,
/// reference, attempt and operation, and a key Stripe holds for another request is an error, never a success.
@Suite("TenderServer keys against localstripe", .enabled(if: Peers.localstripeRunning, Peers.localstripeReason),
       .serialized)
struct LocalstripeKeyTests {
    let key = "sk_test_tender_" + UUID().uuidString.prefix(8)
    let main = LedgerScope(merchantID: "acct_keys", locationID: "tml_main")
    let harbor = LedgerScope(merchantID: "acct_keys", locationID: "tml_harbor")

    var client: StripeServerClient {
        StripeServerClient(secretKey: Credential(key), configuration: .init(baseURL: Peers.localstripe!))
    }

    /// An intent for `reference` in `scope`, confirmed with a test card (raw calls: localstripe has no reader).
    func authorized(_ cents: Int64, reference: String, scope: LedgerScope) async throws -> StripeAPI.PaymentIntent {
        let intent = try await client.createPaymentIntent(amount: Money(minorUnits: cents, currency: .usd),
                                                          reference: reference, scope: scope,
                                                          paymentMethodTypes: ["card"])
        let base = Peers.localstripe!
        let auth = ["Authorization": "Bearer \(key)", "Content-Type": "application/x-www-form-urlencoded"]
        let (_, method) = try await Peers.raw(
            "POST", base.appendingPathComponent("v1/payment_methods"), headers: auth,
            body: "type=card&card[number]=4242424242424242&card[exp_month]=12&card[exp_year]=2034&card[cvc]=123")
        let methodID = try #require(method["id"] as? String)
        _ = try await Peers.raw("POST", base.appendingPathComponent("v1/payment_intents/\(intent.id)"), headers: auth,
                                body: "payment_method=\(methodID)")
        let (status, _) = try await Peers.raw("POST", base.appendingPathComponent("v1/payment_intents/\(intent.id)/confirm"),
                                              headers: auth, body: "")
        #expect(status == 200)
        return intent
    }

    @Test("two locations, the same order number: each creates, captures, voids and refunds its own intent; the old shared key is refused")
    func twoLocations() async throws {
        let reference = "order-" + UUID().uuidString.prefix(8).lowercased()
        let first = try await authorized(1_000, reference: reference, scope: main)
        let second = try await authorized(2_000, reference: reference, scope: harbor)
        #expect(first.id != second.id, "the create keys differ: two intents")
        let usd = { (cents: Int64) in Money(minorUnits: cents, currency: .usd) }
        try await client.capture(CaptureRequest(
            processor: "stripe", reference: reference, processorPaymentID: first.id, amount: usd(1_000),
            idempotencyKey: IdempotencyKey.capture(scope: main, reference: reference, paymentAttempt: 1).rawValue))
        try await client.capture(CaptureRequest(
            processor: "stripe", reference: reference, processorPaymentID: second.id, amount: usd(2_000),
            idempotencyKey: IdempotencyKey.capture(scope: harbor, reference: reference, paymentAttempt: 1).rawValue))
        #expect(try await client.retrievePaymentIntent(id: second.id)?.status == "succeeded")
        // One key for both locations (what a reference-only key was) is Stripe's idempotency_error, never success.
        let third = try await authorized(3_000, reference: reference + "-b", scope: harbor)
        let reused = await #expect(throws: PaymentError.self) {
            try await client.capture(CaptureRequest(
                processor: "stripe", reference: reference, processorPaymentID: third.id, amount: usd(3_000),
                idempotencyKey: IdempotencyKey.capture(scope: main, reference: reference, paymentAttempt: 1).rawValue))
        }
        #expect(reused?.code == .duplicateReference)
        #expect(try await client.retrievePaymentIntent(id: third.id)?.status == "requires_capture")
        try await client.void(VoidRequest(
            processor: "stripe", reference: reference, processorPaymentID: third.id,
            idempotencyKey: IdempotencyKey.void(scope: harbor, reference: reference + "-b", paymentAttempt: 1).rawValue))
        // Refund 1 of each location's payment.
        for (scope, intent) in [(main, first), (harbor, second)] {
            let refund = try await client.refund(RefundRequest(
                processor: "stripe", reference: reference, processorPaymentID: intent.id, amount: usd(400),
                idempotencyKey: IdempotencyKey.refund(scope: scope, reference: reference, paymentAttempt: 1,
                                                      number: 1).rawValue))
            #expect(refund.status == .succeeded)
        }
        #expect(try await client.refunds(paymentIntent: first.id).map(\.amount) == [400])
        #expect(try await client.refunds(paymentIntent: second.id).map(\.amount) == [400])
    }

    @Test("a restored ledger re-using refund number 1 for another amount: idempotency_error, nothing refunded")
    func refundNumberReused() async throws {
        let reference = "order-" + UUID().uuidString.prefix(8).lowercased()
        let intent = try await authorized(1_000, reference: reference, scope: main)
        let usd = { (cents: Int64) in Money(minorUnits: cents, currency: .usd) }
        try await client.capture(processor: "stripe", reference: reference, processorPaymentID: intent.id,
                                 amount: usd(1_000), scope: main)
        let refundKey = IdempotencyKey.refund(scope: main, reference: reference, paymentAttempt: 1, number: 1).rawValue
        func request(_ cents: Int64) -> RefundRequest {
            RefundRequest(processor: "stripe", reference: reference, processorPaymentID: intent.id, amount: usd(cents),
                          idempotencyKey: refundKey)
        }
        let first = try await client.refund(request(300))
        #expect(try await client.refund(request(300)).processorRefundID == first.processorRefundID)
        let reused = await #expect(throws: PaymentError.self) { _ = try await client.refund(request(500)) }
        #expect(reused?.code == .duplicateReference && reused?.vendor?.name == "idempotency_error")
        #expect(try await client.refunds(paymentIntent: intent.id).map(\.amount) == [300])
    }
}
