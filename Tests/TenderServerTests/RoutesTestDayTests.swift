import Foundation
import Testing
import Tender
import TenderBackend
import TenderStripe
@testable import TenderServer

/// The hop to the merchant's server, both halves, in process: `TenderBackendClient` (URLSession) → `TenderRoutes`
/// (behind a `URLProtocol`) → the vendor (an in-process Stripe, a scripted Square). Every exchange is checked
/// against `Documentation/tender-server.openapi.yaml` with openapi-core.
@Suite("Routes and the device client: a test day, in process")
struct RoutesTestDayTests {
    static let storeA = LedgerScope(merchantID: "acct_tender", locationID: "tml_A")

    @Test("token, capture, cancel, refund, lookups: device client → routes → Stripe, keys unchanged")
    func stripeDay() async throws {
        let stripe = FakeStripe()
        let server = InProcessServer(routes: TenderRoutes(stripe: stripe.client, stripeAccountID: "acct_tender"),
                                     devices: ["device-a": Self.storeA])
        let device = server.client(token: "device-a")

        // Sign-in: a connection token scoped to the device's location.
        #expect(try await device.connectionToken() == FakeStripe.tokenSecret)
        #expect(stripe.requests.last?.form["location"] == "tml_A")

        // Capture under the device's key: the same key reaches Stripe.
        let sale = stripe.addIntent(reference: "order-1", location: "tml_A", amount: 1_250)
        let captureKey = IdempotencyKey.capture(scope: Self.storeA, reference: "order-1", paymentAttempt: 1).rawValue
        try await device.capture(CaptureRequest(processor: "stripe", reference: "order-1", processorPaymentID: sale,
                                                amount: Money(minorUnits: 1_250, currency: .usd),
                                                idempotencyKey: captureKey))
        let capture = try #require(stripe.requests.last { $0.url.path.hasSuffix("/capture") })
        #expect(capture.headers["Idempotency-Key"] == captureKey, "the device's key, unchanged at the vendor")
        #expect(capture.form["amount_to_capture"] == "1250" && stripe.status(sale) == "succeeded")

        // Cancel another sale.
        let walkout = stripe.addIntent(reference: "order-2", location: "tml_A")
        let voidKey = IdempotencyKey.void(scope: Self.storeA, reference: "order-2", paymentAttempt: 1).rawValue
        try await device.void(VoidRequest(processor: "stripe", reference: "order-2", processorPaymentID: walkout,
                                          idempotencyKey: voidKey))
        #expect(stripe.requests.last?.headers["Idempotency-Key"] == voidKey && stripe.status(walkout) == "canceled")

        // Refund part of the first, then look the refund up by its key.
        let refundKey = IdempotencyKey.refund(scope: Self.storeA, reference: "order-1", paymentAttempt: 1, number: 1).rawValue
        let refund = try await device.refund(RefundRequest(processor: "stripe", reference: "order-1",
                                                           processorPaymentID: sale,
                                                           amount: Money(minorUnits: 250, currency: .usd),
                                                           reason: .requestedByCustomer, idempotencyKey: refundKey))
        #expect(refund.status == .succeeded && refund.processorRefundID != nil)
        #expect(stripe.requests.last { $0.url.path == "/v1/refunds" && $0.method == "POST" }?.headers["Idempotency-Key"]
                == refundKey)
        let found = try await device.lookUpRefund(processor: "stripe", processorPaymentID: sale,
                                                  idempotencyKey: refundKey, processorRefundID: nil)
        #expect(found?.processorRefundID == refund.processorRefundID)
        let never = try await device.lookUpRefund(processor: "stripe", processorPaymentID: walkout,
                                                  idempotencyKey: refundKey + "x", processorRefundID: nil)
        #expect(never == nil, "a complete list without the key: the processor holds none")

        // Lookups by reference and by id; abandoning an attempt.
        let byReference = try await device.findPaymentIntents(metadataKey: "tender_reference", value: "order-1")
        #expect(byReference.intents.map(\.id) == [sale])
        #expect(try await device.retrievePaymentIntent(id: sale)?.status == "succeeded")
        #expect(try await device.retrievePaymentIntent(id: "pi_nothing") == nil, "Stripe has no such intent")
        let abandoned = stripe.addIntent(reference: "order-3", location: "tml_A", status: "requires_payment_method")
        #expect(try await device.cancelAbandonedPaymentIntent(id: abandoned).status == "canceled")

        // The adapter's lookup over the device client (StripeRESTServerLookup over StripeRESTLookup).
        let lookup = StripeRESTServerLookup(device)
        #expect(try await lookup.paymentIntent(id: sale)?.stripeId == sale)
        try server.expectValidExchanges()
    }

    @Test("Square: authorization hand-off, capture, void by key, refund, lookups, through the routes")
    func squareDay() async throws {
        let square = FakeSquare()
        let storeL = LedgerScope(merchantID: "MERCHANT_1", locationID: "LOC_1")
        let server = InProcessServer(
            routes: TenderRoutes(square: square.client, squareMerchantID: "MERCHANT_1",
                                 squareSignIn: { _ in Credential(FakeSquare.sellerToken) }),
            devices: ["device-l": storeL])
        let device = server.client(token: "device-l")

        let authorization = try await device.squareAuthorization()
        #expect(authorization.accessToken == FakeSquare.sellerToken && authorization.locationID == "LOC_1")
        #expect(!String(describing: authorization).contains(FakeSquare.sellerToken))
        #expect(!String(reflecting: authorization).contains(FakeSquare.sellerToken))

        let payment = square.addPayment(reference: "sq-1", location: "LOC_1", amount: 900)
        try await device.capture(CaptureRequest(processor: "square", reference: "sq-1", processorPaymentID: payment,
                                                amount: Money(minorUnits: 900, currency: .usd),
                                                idempotencyKey: IdempotencyKey.capture(scope: storeL, reference: "sq-1", paymentAttempt: 1).rawValue))
        #expect(square.status(payment) == "COMPLETED")
        let refundKey = IdempotencyKey.refund(scope: storeL, reference: "sq-1", paymentAttempt: 1, number: 1).rawValue
        let refund = try await device.refund(RefundRequest(processor: "square", reference: "sq-1",
                                                           processorPaymentID: payment,
                                                           amount: Money(minorUnits: 400, currency: .usd),
                                                           idempotencyKey: refundKey))
        #expect(refund.processorRefundID != nil)
        #expect(square.lastBody(path: "/v2/refunds")?["idempotency_key"] as? String
                == IdempotencyKey.fitted(refundKey, maximumLength: 45), "the device's key, fitted to Square's 45")
        #expect(try await device.payments(referenceID: "sq-1", locationID: "LOC_1").map(\.id) == [payment])
        #expect(try await device.getPayment(id: payment)?.status == "COMPLETED")
        #expect(try await device.getPayment(id: "nothing") == nil)

        let createKey = IdempotencyKey.vendorAttemptID(reference: "sq-2", paymentAttempt: 1, scope: storeL)
        try await device.cancelPayment(idempotencyKey: createKey)
        #expect(square.lastBody(path: "/v2/payments/cancel")?["idempotency_key"] as? String
                == IdempotencyKey.fitted(createKey, maximumLength: 45))
        try server.expectValidExchanges()
    }

    @Test("the client's failures: the server's PaymentError as sent, an unreachable server, a wrong mount path")
    func clientFailures() async throws {
        let stripe = FakeStripe()
        let server = InProcessServer(routes: TenderRoutes(stripe: stripe.client, mountPath: "/tender"),
                                     devices: ["device-a": Self.storeA])
        // A payment the vendor refuses: the vendor's code travels to the device.
        let done = stripe.addIntent(reference: "order-9", location: "tml_A", status: "canceled")
        let refused = await #expect(throws: PaymentError.self) {
            try await server.client(token: "device-a", mountPath: "/tender").capture(CaptureRequest(
                processor: "stripe", reference: "order-9", processorPaymentID: done,
                amount: Money(minorUnits: 1_000, currency: .usd), idempotencyKey: "acct_tender/tml_A/order-9/1/capture"))
        }
        #expect(refused?.code == .invalidState && refused?.vendor?.name == "payment_intent_unexpected_state")
        // A wrong mount path is an integration error, never "no such payment".
        let wrong = await #expect(throws: PaymentError.self) {
            _ = try await server.client(token: "device-a").retrievePaymentIntent(id: done)
        }
        #expect(wrong?.code == .integrationError)
        // The app's own authentication refused the device.
        let stranger = await #expect(throws: PaymentError.self) {
            _ = try await server.client(token: "stolen", mountPath: "/tender").connectionToken()
        }
        #expect(stranger?.code == .notAuthorized)
        // No server at all: nothing was sent.
        let offline = TenderBackendClient(baseURL: URL(string: "http://127.0.0.1:9")!)
        let unreachable = await #expect(throws: PaymentError.self) { _ = try await offline.connectionToken() }
        #expect(unreachable?.code == .networkUnavailable && unreachable?.recovery == .waitAndRetry)
        try OpenAPICheck.expectValid(server.exchanges.filter { $0.response.status != 401 }.map { exchange in
            var exchange = exchange
            exchange.request.url = URL(string: exchange.request.url.absoluteString.replacingOccurrences(of: "/tender/", with: "/"))!
            return exchange
        })
    }
}
