import Foundation
import Testing
import Tender
import TenderBackend
@testable import TenderServer

/// The authorization hook: a device of location A cannot capture, void, refund or look up location B's payments,
/// nor sign in for another merchant. Each refusal is `403` with a `not_authorized` PaymentError, and no vendor call
/// that would act was made. Every exchange is checked against the OpenAPI document.
@Suite("Routes: a caller acts only for its own merchant and location")
struct RouteAuthorizationTests {
    static let storeA = LedgerScope(merchantID: "acct_tender", locationID: "tml_A")
    static let storeB = LedgerScope(merchantID: "acct_tender", locationID: "tml_B")
    static let otherMerchant = LedgerScope(merchantID: "acct_other", locationID: "tml_A")

    /// Routes over the fakes, and a recorder of every exchange.
    final class Harness: @unchecked Sendable {
        let stripe = FakeStripe()
        let square = FakeSquare()
        let routes: TenderRoutes
        private let lock = NSLock()
        private var recorded: [Exchange] = []

        init(authorizer: (any TenderRouteAuthorizer)? = nil) {
            routes = TenderRoutes(stripe: stripe.client, stripeAccountID: "acct_tender", square: square.client,
                                  squareMerchantID: "acct_tender",
                                  squareSignIn: { _ in Credential(FakeSquare.sellerToken) }, authorizer: authorizer)
        }

        func call(_ method: String, _ path: String, _ body: (any Encodable)? = nil, as caller: LedgerScope) async
            -> HTTPResponse {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let data = body.flatMap { try? encoder.encode($0) }
            var headers = ["Authorization": "Bearer device"]
            if data != nil { headers["Content-Type"] = "application/json" }
            let request = HTTPRequest(method: method, url: URL(string: path)!, headers: headers, body: data)
            let response = await routes.respond(to: request, caller: caller)
            lock.withLock { recorded.append(Exchange(request: request, response: response)) }
            return response
        }

        var exchanges: [Exchange] { lock.withLock { recorded } }
    }

    /// The response is the refusal: 403 and a `not_authorized` error body that names no credential.
    func expectRefused(_ response: HTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(response.status == 403, sourceLocation: sourceLocation)
        let body = try JSONDecoder().decode(RouteBodies.ErrorBody.self, from: response.body)
        #expect(body.error.code == .notAuthorized && body.error.recovery == .fixIntegration, sourceLocation: sourceLocation)
        let text = String(decoding: response.body, as: UTF8.self)
        for secret in [FakeStripe.secretKey, FakeSquare.accessToken, FakeSquare.sellerToken, FakeStripe.tokenSecret] {
            #expect(!text.contains(secret), sourceLocation: sourceLocation)
        }
    }

    @Test("Stripe: capture, void, refund, refund lookup, lookup by id, abandon of location A's intent are refused to B")
    func stripeRefusals() async throws {
        let harness = Harness()
        let sale = harness.stripe.addIntent(reference: "order-1", location: "tml_A")
        let usd = Money(minorUnits: 1_000, currency: .usd)
        let keyB = IdempotencyKey.capture(scope: Self.storeB, reference: "order-1", paymentAttempt: 1).rawValue
        try expectRefused(await harness.call("POST", "/v1/payments/capture", CaptureRequest(
            processor: "stripe", reference: "order-1", processorPaymentID: sale, amount: usd, idempotencyKey: keyB),
            as: Self.storeB))
        try expectRefused(await harness.call("POST", "/v1/payments/void", VoidRequest(
            processor: "stripe", reference: "order-1", processorPaymentID: sale, idempotencyKey: keyB), as: Self.storeB))
        try expectRefused(await harness.call("POST", "/v1/refunds", RefundRequest(
            processor: "stripe", reference: "order-1", processorPaymentID: sale, amount: usd, idempotencyKey: keyB),
            as: Self.storeB))
        try expectRefused(await harness.call("POST", "/v1/refunds/lookup", RouteBodies.RefundLookup(
            processor: "stripe", processorPaymentID: sale, idempotencyKey: keyB), as: Self.storeB))
        try expectRefused(await harness.call("GET", "/v1/stripe/payment-intents/\(sale)", as: Self.storeB))
        try expectRefused(await harness.call("POST", "/v1/stripe/payment-intents/\(sale)/abandon", as: Self.storeB))
        // An intent that records no location belongs to no caller.
        let untagged = harness.stripe.addIntent(reference: "order-2", location: nil)
        try expectRefused(await harness.call("GET", "/v1/stripe/payment-intents/\(untagged)", as: Self.storeA))

        // Stripe only ever saw reads: nothing was captured, canceled or refunded.
        #expect(harness.stripe.requests.allSatisfy { $0.method == "GET" })
        #expect(harness.stripe.status(sale) == "requires_capture")

        // A lookup by reference leaves A's intent out for B (a complete answer without it), and finds it for A.
        let forB = await harness.call("GET", "/v1/stripe/payment-intents?metadataKey=tender_reference&value=order-1",
                                      as: Self.storeB)
        let lookupB = try JSONDecoder().decode(RouteBodies.StripeLookup.self, from: forB.body)
        #expect(forB.status == 200 && lookupB.paymentIntents.isEmpty && lookupB.result == "unknown")
        let forA = await harness.call("GET", "/v1/stripe/payment-intents?metadataKey=tender_reference&value=order-1",
                                      as: Self.storeA)
        #expect(try JSONDecoder().decode(RouteBodies.StripeLookup.self, from: forA.body).paymentIntents.map(\.id) == [sale])
        // The owner itself is allowed.
        #expect(await harness.call("GET", "/v1/stripe/payment-intents/\(sale)", as: Self.storeA).status == 200)
        try OpenAPICheck.expectValid(harness.exchanges)
    }

    @Test("Square: capture, void, refund, lookups by id and by reference, void by key of location A are refused to B")
    func squareRefusals() async throws {
        let harness = Harness()
        let payment = harness.square.addPayment(reference: "sq-1", location: "tml_A")
        let usd = Money(minorUnits: 1_000, currency: .usd)
        let key = IdempotencyKey.capture(scope: Self.storeB, reference: "sq-1", paymentAttempt: 1).rawValue
        try expectRefused(await harness.call("POST", "/v1/payments/capture", CaptureRequest(
            processor: "square", reference: "sq-1", processorPaymentID: payment, amount: usd, idempotencyKey: key),
            as: Self.storeB))
        try expectRefused(await harness.call("POST", "/v1/payments/void", VoidRequest(
            processor: "square", reference: "sq-1", processorPaymentID: payment, idempotencyKey: key), as: Self.storeB))
        try expectRefused(await harness.call("POST", "/v1/refunds", RefundRequest(
            processor: "square", reference: "sq-1", processorPaymentID: payment, amount: usd, idempotencyKey: key),
            as: Self.storeB))
        try expectRefused(await harness.call("POST", "/v1/refunds/lookup", RouteBodies.RefundLookup(
            processor: "square", processorPaymentID: payment, idempotencyKey: key), as: Self.storeB))
        try expectRefused(await harness.call("GET", "/v1/square/payments/\(payment)", as: Self.storeB))
        try expectRefused(await harness.call("GET", "/v1/square/payments?referenceID=sq-1&locationID=tml_A",
                                             as: Self.storeB))
        let keyA = IdempotencyKey.vendorAttemptID(reference: "sq-1", paymentAttempt: 1, scope: Self.storeA)
        try expectRefused(await harness.call("POST", "/v1/square/payments/cancel-by-idempotency-key",
                                             RouteBodies.CancelByKey(idempotencyKey: keyA), as: Self.storeB))
        // A key of another form (Square's SDK's own) is accepted only from a caller of the seller's own merchant
        // acting for its own location (RouteOwnershipTests); another merchant's device is refused.
        try expectRefused(await harness.call("POST", "/v1/square/payments/cancel-by-idempotency-key",
                                             RouteBodies.CancelByKey(idempotencyKey: "not-a-scoped-key"),
                                             as: Self.otherMerchant))
        #expect(harness.square.requests.allSatisfy { $0.method == "GET" }, "Square only ever saw reads")
        #expect(harness.square.status(payment) == "APPROVED")
        // B's own lookup by reference is its own location's: A's payment is not in it.
        let own = await harness.call("GET", "/v1/square/payments?referenceID=sq-1", as: Self.storeB)
        let ownPayments = try JSONDecoder().decode(RouteBodies.SquarePayments.self, from: own.body)
        #expect(own.status == 200 && ownPayments.payments.isEmpty)
        try OpenAPICheck.expectValid(harness.exchanges)
    }

    @Test("sign-in for another merchant is refused; each device's token is scoped to its own location")
    func signInRefusals() async throws {
        let harness = Harness()
        try expectRefused(await harness.call("POST", "/v1/stripe/connection-token", as: Self.otherMerchant))
        try expectRefused(await harness.call("POST", "/v1/square/authorization", as: Self.otherMerchant))
        #expect(harness.stripe.requests.isEmpty, "no token was asked of Stripe")
        let mine = await harness.call("POST", "/v1/stripe/connection-token", as: Self.storeB)
        #expect(mine.status == 200 && harness.stripe.requests.last?.form["location"] == "tml_B")
        #expect(mine.headers["cache-control"] == "no-store")
        let square = await harness.call("POST", "/v1/square/authorization", as: Self.storeB)
        let answer = try JSONDecoder().decode(RouteBodies.SquareAuthorization.self, from: square.body)
        #expect(answer.locationID == "tml_B" && square.headers["cache-control"] == "no-store")
        try OpenAPICheck.expectValid(harness.exchanges)
    }

    /// A back-office device may act for every location of its merchant.
    struct ManagerAuthorizer: TenderRouteAuthorizer {
        func allows(_ caller: LedgerScope, toActFor owner: LedgerScope, processor: String) async -> Bool {
            caller.merchantID == owner.merchantID && (caller.locationID == "office" || caller == owner)
        }
    }

    @Test("the hook widens access: a manager acts for every location of its merchant, never another merchant's")
    func customAuthorizer() async throws {
        let harness = Harness(authorizer: ManagerAuthorizer())
        let office = LedgerScope(merchantID: "acct_tender", locationID: "office")
        let sale = harness.stripe.addIntent(reference: "order-1", location: "tml_A")
        #expect(await harness.call("GET", "/v1/stripe/payment-intents/\(sale)", as: office).status == 200)
        try expectRefused(await harness.call("GET", "/v1/stripe/payment-intents/\(sale)", as: Self.storeB))
        try expectRefused(await harness.call("GET", "/v1/stripe/payment-intents/\(sale)",
                                             as: LedgerScope(merchantID: "acct_other", locationID: "office")))
        try OpenAPICheck.expectValid(harness.exchanges)
    }

    @Test("errors never carry a credential: a vendor echoing the key, a failing Square sign-in")
    func noCredentialInErrors() async throws {
        let echo = ScriptedTransport(otherwise: ScriptedTransport.json(401,
            #"{"error":{"type":"invalid_request_error","message":"Invalid API Key provided: \#(FakeStripe.secretKey)"}}"#))
        struct Leaky: Error, CustomStringConvertible { var description: String { FakeSquare.sellerToken } }
        let routes = TenderRoutes(
            stripe: StripeServerClient(secretKey: Credential(FakeStripe.secretKey),
                                       configuration: .init(baseURL: URL(string: "http://127.0.0.1:9")!), transport: echo),
            squareSignIn: { _ in throw Leaky() })
        var exchanges: [Exchange] = []
        for path in ["/v1/stripe/connection-token", "/v1/square/authorization", "/v1/stripe/payment-intents/pi_1"] {
            let request = HTTPRequest(method: path.hasSuffix("pi_1") ? "GET" : "POST", url: URL(string: path)!,
                                      headers: ["Authorization": "Bearer device"])
            let response = await routes.respond(to: request, caller: Self.storeA)
            exchanges.append(Exchange(request: request, response: response))
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == 502, "\(path): \(text)")
            #expect(!text.contains(FakeStripe.secretKey) && !text.contains(FakeSquare.sellerToken), "\(path): \(text)")
            #expect(response.headers["cache-control"] == nil)
        }
        try OpenAPICheck.expectValid(exchanges)
    }
}
