import Foundation
import Testing
import Tender
import TenderStripe
@testable import TenderServer

/// The PaymentIntent lifecycle through TenderServer against localstripe (a stateful fake Stripe server) on
/// loopback. localstripe has no confirm for card-present payments from a reader, so each test confirms with a test
/// card PaymentMethod through a raw call of its own; everything else goes through ``StripeServerClient``.
@Suite("TenderServer against localstripe", .enabled(if: Peers.localstripeRunning, Peers.localstripeReason), .serialized)
struct LocalstripeLifecycleTests {
    let key = "sk_test_tender_" + UUID().uuidString.prefix(8)

    var client: StripeServerClient {
        StripeServerClient(secretKey: Credential(key), configuration: .init(baseURL: Peers.localstripe!))
    }

    func reference() -> String { "order-" + UUID().uuidString.prefix(12).lowercased() }

    /// Creates a PaymentMethod for a Stripe test card and confirms the intent with it (raw calls).
    func confirm(_ intent: StripeAPI.PaymentIntent, card: String = "4242424242424242") async throws -> (Int, [String: Any]) {
        let base = Peers.localstripe!
        let auth = ["Authorization": "Bearer \(key)", "Content-Type": "application/x-www-form-urlencoded"]
        let (_, method) = try await Peers.raw("POST", base.appendingPathComponent("v1/payment_methods"), headers: auth,
                                              body: "type=card&card[number]=\(card)&card[exp_month]=12&card[exp_year]=2034&card[cvc]=123")
        let methodID = try #require(method["id"] as? String)
        _ = try await Peers.raw("POST", base.appendingPathComponent("v1/payment_intents/\(intent.id)"), headers: auth,
                                body: "payment_method=\(methodID)")
        return try await Peers.raw("POST", base.appendingPathComponent("v1/payment_intents/\(intent.id)/confirm"),
                                   headers: auth, body: "")
    }

    func authorized(_ amount: Int64, reference: String) async throws -> StripeAPI.PaymentIntent {
        let intent = try await client.createPaymentIntent(amount: Money(minorUnits: amount, currency: .usd),
                                                          reference: reference, scope: serverTestScope,
                                                          paymentMethodTypes: ["card"])
        #expect(intent.status == "requires_payment_method")
        #expect(intent.metadata[StripeMapping.referenceMetadataKey] == reference)
        let (status, _) = try await confirm(intent)
        #expect(status == 200)
        let confirmed = try #require(try await client.retrievePaymentIntent(id: intent.id))
        #expect(confirmed.status == "requires_capture")
        return confirmed
    }

    @Test("create, confirm, capture in full; the adapter's view says succeeded")
    func fullCapture() async throws {
        let ref = reference()
        let intent = try await authorized(1_250, reference: ref)
        try await client.capture(processor: "stripe", reference: ref, processorPaymentID: intent.id,
                                 amount: Money(minorUnits: 1_250, currency: .usd))
        let sdk = try #require(try await StripeRESTServerLookup(client).paymentIntent(id: intent.id))
        #expect(sdk.status == .succeeded)
        #expect(sdk.stripeId == intent.id && sdk.sdkHandle == nil, "a server copy has no SDK object")
        #expect(StripeMapping.paymentState(sdk) == .succeeded)
        #expect(sdk.charges.first?.status == .succeeded)
    }

    @Test("a partial capture captures amount_to_capture")
    func partialCapture() async throws {
        let ref = reference()
        let intent = try await authorized(2_000, reference: ref)
        let captured = try await client.capturePaymentIntent(
            id: intent.id, amount: Money(minorUnits: 1_500, currency: .usd),
            idempotencyKey: IdempotencyKey.capture(scope: serverTestScope, reference: ref, paymentAttempt: 1).rawValue)
        #expect(captured.status == "succeeded")
        let charge = try #require(captured.latestCharge?.object)
        #expect(charge.captured && charge.amount == 2_000)
        #expect(charge.amountRefunded == 500, "localstripe releases the uncaptured rest as a refund")
    }

    @Test("a retried capture is the same capture: one capture, the key replayed, and a late retry still succeeds")
    func idempotentCapture() async throws {
        let ref = reference()
        let intent = try await authorized(800, reference: ref)
        let amount = Money(minorUnits: 800, currency: .usd)
        try await client.capture(processor: "stripe", reference: ref, processorPaymentID: intent.id, amount: amount)
        try await client.capture(processor: "stripe", reference: ref, processorPaymentID: intent.id, amount: amount)
        let (_, report) = try await Peers.raw("GET", Peers.localstripe!.appendingPathComponent("_config/tender/report"))
        let posts = (report["posts"] as? [[String: Any]] ?? []).filter { ($0["path"] as? String)?.hasSuffix("\(intent.id)/capture") == true }
        #expect(posts.count == 2)
        #expect(posts.allSatisfy {
            $0["key"] as? String == IdempotencyKey.capture(scope: serverTestScope, reference: ref, paymentAttempt: 1).rawValue
        })
        #expect(posts.last?["replayed"] as? Bool == true)
        #expect((report["stripe_versions"] as? [Any])?.contains { $0 as? String == "2023-08-16" } == true)
        // Past Stripe's key window (simulated: another key), the intent is read and the capture recognized as done.
        let other = StripeServerClient(secretKey: Credential(key + "x"), configuration: .init(baseURL: Peers.localstripe!))
        try await other.capture(processor: "stripe", reference: ref, processorPaymentID: intent.id, amount: amount)
        // A different amount is not the same capture.
        await #expect(throws: PaymentError.self) {
            try await other.capture(processor: "stripe", reference: ref + "-b", processorPaymentID: intent.id,
                                    amount: Money(minorUnits: 700, currency: .usd))
        }
        let refunds = try await client.refunds(paymentIntent: intent.id)
        #expect(refunds.isEmpty, "no partial-capture refund: it was captured once, in full")
    }

    @Test("cancel (void) an authorized intent; a second void is the same void")
    func cancel() async throws {
        let ref = reference()
        let intent = try await authorized(600, reference: ref)
        try await client.void(processor: "stripe", reference: ref, processorPaymentID: intent.id)
        try await client.void(processor: "stripe", reference: ref, processorPaymentID: intent.id)
        let canceled = try #require(try await StripeRESTServerLookup(client).paymentIntent(id: intent.id))
        #expect(canceled.status == .canceled && StripeMapping.paymentState(canceled) == .canceled)
    }

    @Test("a declined card: the confirm fails with card_declined; the intent maps to declined")
    func decline() async throws {
        let ref = reference()
        let intent = try await client.createPaymentIntent(amount: Money(minorUnits: 900, currency: .usd), reference: ref,
                                                          scope: serverTestScope, paymentMethodTypes: ["card"])
        let (status, body) = try await confirm(intent, card: "4000000000000341")
        #expect(status == 402)
        #expect((body["error"] as? [String: Any])?["code"] as? String == "card_declined")
        let sdk = try #require(try await StripeRESTServerLookup(client).paymentIntent(id: intent.id))
        #expect(sdk.status == .requiresPaymentMethod)
        #expect(sdk.charges.first?.status == .failed)
        #expect(StripeMapping.paymentState(sdk) == .declined)
        // Capturing it is refused, mapped, never success.
        let error = await #expect(throws: PaymentError.self) {
            try await client.capture(processor: "stripe", reference: ref, processorPaymentID: intent.id,
                                     amount: Money(minorUnits: 900, currency: .usd))
        }
        #expect(error?.vendor?.processor == "stripe" && error?.vendor?.requestID?.hasPrefix("req_") == true)
    }

    @Test("refunds: full, partial, several partials, idempotent retries, lookups by key")
    func refunds() async throws {
        let ref = reference()
        let intent = try await authorized(3_000, reference: ref)
        try await client.capture(processor: "stripe", reference: ref, processorPaymentID: intent.id,
                                 amount: Money(minorUnits: 3_000, currency: .usd))
        func request(_ number: Int, _ amount: Int64) -> RefundRequest {
            RefundRequest(processor: "stripe", reference: ref, processorPaymentID: intent.id,
                          amount: Money(minorUnits: amount, currency: .usd),
                          idempotencyKey: refundKey(ref, number))
        }
        // Before any refund, the lookup proves there is none.
        #expect(try await client.lookUpRefund(processor: "stripe", processorPaymentID: intent.id,
                                              idempotencyKey: request(1, 1).idempotencyKey, processorRefundID: nil) == nil)
        let first = try await client.refund(request(1, 1_000))
        let again = try await client.refund(request(1, 1_000))
        #expect(first.status == .succeeded && again.processorRefundID == first.processorRefundID)
        let second = try await client.refund(request(2, 500))
        let third = try await client.refund(request(3, 1_500))
        #expect(Set([first, second, third].compactMap(\.processorRefundID)).count == 3)
        let listed = try await client.refunds(paymentIntent: intent.id)
        #expect(listed.map(\.amount).sorted() == [500, 1_000, 1_500])
        #expect(listed.allSatisfy { $0.metadata[StripeMapping.referenceMetadataKey] == ref })
        let found = try await client.lookUpRefund(processor: "stripe", processorPaymentID: intent.id,
                                                  idempotencyKey: request(2, 500).idempotencyKey, processorRefundID: nil)
        #expect(found?.processorRefundID == second.processorRefundID)
        #expect(try await client.lookUpRefund(processor: "stripe", processorPaymentID: intent.id,
                                              idempotencyKey: request(4, 1).idempotencyKey, processorRefundID: nil) == nil)
        // Two concurrent first tries of one refund: both may pass the listing; the Idempotency-Key makes them one.
        let ref2 = reference()
        let intent2 = try await authorized(400, reference: ref2)
        try await client.capture(processor: "stripe", reference: ref2, processorPaymentID: intent2.id,
                                 amount: Money(minorUnits: 400, currency: .usd))
        let full = RefundRequest(processor: "stripe", reference: ref2, processorPaymentID: intent2.id,
                                 amount: Money(minorUnits: 400, currency: .usd),
                                 idempotencyKey: refundKey(ref2, 1))
        async let a = client.refund(full)
        async let b = client.refund(full)
        let (ra, rb) = try await (a, b)
        #expect(ra.processorRefundID == rb.processorRefundID)
        #expect(try await client.refunds(paymentIntent: intent2.id).count == 1)
    }

    @Test("lookup by reference: localstripe has no Search (404), so the client lists; a complete list proves absence")
    func findByReference() async throws {
        let ref = reference()
        let intent = try await client.createPaymentIntent(amount: Money(minorUnits: 300, currency: .usd), reference: ref,
                                                          scope: serverTestScope, paymentMethodTypes: ["card"])
        let lookup = try await client.findPaymentIntents(reference: ref)
        #expect(lookup == .found([try #require(try await client.retrievePaymentIntent(id: intent.id))], complete: true))
        #expect(try await client.findPaymentIntents(reference: ref + "-none") == .absent)
        let sdk = try await StripeRESTServerLookup(client).paymentIntents(metadataKey: StripeMapping.referenceMetadataKey, value: ref)
        #expect(sdk.map(\.stripeId) == [intent.id])
        #expect(try await StripeRESTServerLookup(client).paymentIntent(id: "pi_doesnotexist") == nil)
        let canceled = try await StripeRESTServerLookup(client).cancelPaymentIntent(id: intent.id)
        #expect(canceled.status == .canceled)
    }

    @Test("a wrong key is refused as not authorized, and the key appears nowhere")
    func unauthorized() async throws {
        let bad = StripeServerClient(secretKey: Credential("not-a-key-\(UUID())"), configuration: .init(baseURL: Peers.localstripe!))
        let error = await #expect(throws: PaymentError.self) { _ = try await bad.retrievePaymentIntent(id: "pi_x") }
        #expect(error?.code == .notAuthorized && error?.recovery == .fixIntegration)
    }
}
