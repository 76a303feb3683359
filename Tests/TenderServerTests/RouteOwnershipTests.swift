import Foundation
import Testing
import Tender
import TenderBackend
@testable import TenderServer

/// Issue 28, items 4–8: the ownership rules cover every request the adapters really send. Each refusal is `403`
/// `not_authorized` with no vendor call that acts; each acceptance reaches the vendor. Exchanges are checked against
/// the OpenAPI document.
@Suite("Routes: ownership of what the adapters really send")
struct RouteOwnershipTests {
    static let storeA = RouteAuthorizationTests.storeA
    static let storeB = RouteAuthorizationTests.storeB
    typealias Harness = RouteAuthorizationTests.Harness
    let checks = RouteAuthorizationTests()

    static func call(_ routes: TenderRoutes, _ method: String, _ path: String, _ body: (any Encodable)? = nil,
                     as caller: LedgerScope, into exchanges: inout [Exchange]) async -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = body.flatMap { try? encoder.encode($0) }
        var headers = ["Authorization": "Bearer device"]
        if data != nil { headers["Content-Type"] = "application/json" }
        let request = HTTPRequest(method: method, url: URL(string: path)!, headers: headers, body: data)
        let response = await routes.respond(to: request, caller: caller)
        exchanges.append(Exchange(request: request, response: response))
        return response
    }

    static func errorCode(_ response: HTTPResponse) -> PaymentError.Code? {
        (try? JSONDecoder().decode(RouteBodies.ErrorBody.self, from: response.body))?.error.code
    }

    // MARK: 4

    @Test("Square: a void by the key Square's SDK generated for the caller's own attempt reaches Square")
    func squareCancelBySDKKey() async throws {
        let harness = Harness()
        // What the Square adapter sends: `getIdempotencyKey(withPaymentAttemptId:)`, the SDK's own key.
        let sdkKey = "idem-4F9C2A7B1D0E3C5A8B6F"
        let answer = await harness.call("POST", "/v1/square/payments/cancel-by-idempotency-key",
                                        RouteBodies.CancelByKey(idempotencyKey: sdkKey), as: Self.storeA)
        #expect(answer.status == 204, "\(String(decoding: answer.body, as: UTF8.self))")
        #expect(harness.square.lastBody(path: "/v2/payments/cancel")?["idempotency_key"] as? String == sdkKey)
        // A device of another merchant may not spend a key here; nor may anything shaped like a scoped key that names
        // another location (or does not parse).
        let before = harness.square.requests.count
        try checks.expectRefused(await harness.call("POST", "/v1/square/payments/cancel-by-idempotency-key",
                                                    RouteBodies.CancelByKey(idempotencyKey: sdkKey),
                                                    as: RouteAuthorizationTests.otherMerchant))
        let keyA = IdempotencyKey.vendorAttemptID(reference: "sq-1", paymentAttempt: 1, scope: Self.storeA)
        try checks.expectRefused(await harness.call("POST", "/v1/square/payments/cancel-by-idempotency-key",
                                                    RouteBodies.CancelByKey(idempotencyKey: keyA), as: Self.storeB))
        try checks.expectRefused(await harness.call("POST", "/v1/square/payments/cancel-by-idempotency-key",
                                                    RouteBodies.CancelByKey(idempotencyKey: "x/y"), as: Self.storeB))
        #expect(harness.square.requests.count == before, "no refused void reached Square")
        try OpenAPICheck.expectValid(harness.exchanges)
        // An empty key (outside the document: minLength 1) is the device's mistake, answered 400 without a call to
        // Square (which refuses it): found by schemathesis against merchant-server.
        let empty = await harness.call("POST", "/v1/square/payments/cancel-by-idempotency-key",
                                       RouteBodies.CancelByKey(idempotencyKey: ""), as: Self.storeA)
        #expect(empty.status == 400 && Self.errorCode(empty) == .invalidRequest)
        #expect(harness.square.requests.count == before, "the empty key did not reach Square")
        // Nor an empty payment id (it would name the vendor's list route, not a payment; schemathesis found a 502).
        let noPayment = await harness.call("POST", "/v1/refunds/lookup", RouteBodies.RefundLookup(
            processor: "square", processorPaymentID: "", idempotencyKey: "0", processorRefundID: nil), as: Self.storeA)
        #expect(noPayment.status == 400 && Self.errorCode(noPayment) == .invalidRequest)
        #expect(harness.square.requests.count == before, "the empty payment id did not reach Square")
    }

    // MARK: 5

    @Test("Stripe: intents without tender_location belong to the location the server names, and to no other")
    func stripeUntaggedIntents() async throws {
        let stripe = FakeStripe()
        let routes = TenderRoutes(stripe: stripe.client, stripeAccountID: "acct_tender")
            .assigningUntaggedStripeIntents(to: "tml_A")
        var exchanges: [Exchange] = []
        let legacy = stripe.addIntent(reference: "old-1", location: nil, amount: 2_000)
        let usd = Money(minorUnits: 2_000, currency: .usd)
        // Another location: refused everywhere.
        for (method, path) in [("GET", "/v1/stripe/payment-intents/\(legacy)"),
                               ("POST", "/v1/stripe/payment-intents/\(legacy)/abandon")] {
            try checks.expectRefused(await Self.call(routes, method, path, as: Self.storeB, into: &exchanges))
        }
        let keyB = IdempotencyKey.capture(scope: Self.storeB, reference: "old-1", paymentAttempt: 1).rawValue
        try checks.expectRefused(await Self.call(routes, "POST", "/v1/payments/capture", CaptureRequest(
            processor: "stripe", reference: "old-1", processorPaymentID: legacy, amount: usd, idempotencyKey: keyB),
            as: Self.storeB, into: &exchanges))
        let forB = await Self.call(routes, "GET", "/v1/stripe/payment-intents?metadataKey=tender_reference&value=old-1",
                                   as: Self.storeB, into: &exchanges)
        #expect(try JSONDecoder().decode(RouteBodies.StripeLookup.self, from: forB.body).paymentIntents.isEmpty)
        #expect(stripe.status(legacy) == "requires_capture")
        // The owning location: found by reference and by id, captured.
        let forA = await Self.call(routes, "GET", "/v1/stripe/payment-intents?metadataKey=tender_reference&value=old-1",
                                   as: Self.storeA, into: &exchanges)
        #expect(try JSONDecoder().decode(RouteBodies.StripeLookup.self, from: forA.body).paymentIntents.map(\.id)
                == [legacy])
        #expect(await Self.call(routes, "GET", "/v1/stripe/payment-intents/\(legacy)", as: Self.storeA,
                                into: &exchanges).status == 200)
        let keyA = IdempotencyKey.capture(scope: Self.storeA, reference: "old-1", paymentAttempt: 1).rawValue
        let capture = await Self.call(routes, "POST", "/v1/payments/capture", CaptureRequest(
            processor: "stripe", reference: "old-1", processorPaymentID: legacy, amount: usd, idempotencyKey: keyA),
            as: Self.storeA, into: &exchanges)
        #expect(capture.status == 204 && stripe.status(legacy) == "succeeded")
        try OpenAPICheck.expectValid(exchanges)
    }

    // MARK: 6

    @Test("Square without squareMerchantID: the location's own payments are captured and read; others refused")
    func squareWithoutMerchantID() async throws {
        let square = FakeSquare()
        let routes = TenderRoutes(square: square.client)
        var exchanges: [Exchange] = []
        let payment = square.addPayment(reference: "sq-6", location: "tml_A")
        #expect(await Self.call(routes, "GET", "/v1/square/payments/\(payment)", as: Self.storeA,
                                into: &exchanges).status == 200)
        let key = IdempotencyKey.capture(scope: Self.storeA, reference: "sq-6", paymentAttempt: 1).rawValue
        let capture = await Self.call(routes, "POST", "/v1/payments/capture", CaptureRequest(
            processor: "square", reference: "sq-6", processorPaymentID: payment,
            amount: Money(minorUnits: 1_000, currency: .usd), idempotencyKey: key), as: Self.storeA, into: &exchanges)
        #expect(capture.status == 204, "\(String(decoding: capture.body, as: UTF8.self))")
        #expect(square.status(payment) == "COMPLETED")
        try checks.expectRefused(await Self.call(routes, "GET", "/v1/square/payments/\(payment)", as: Self.storeB,
                                                 into: &exchanges))
        try OpenAPICheck.expectValid(exchanges)
    }

    // MARK: 7

    @Test("refund lookup: a refund id of another location's payment is refused, both vendors")
    func refundLookupBound() async throws {
        let harness = Harness()
        let usd = Money(minorUnits: 500, currency: .usd)
        // Stripe: B's captured sale and its refund; A's own sale.
        let saleB = harness.stripe.addIntent(reference: "b-1", location: "tml_B", status: "succeeded")
        let keyB = IdempotencyKey.refund(scope: Self.storeB, reference: "b-1", paymentAttempt: 1, number: 1).rawValue
        let refundB = try JSONDecoder().decode(RefundResult.self, from: await harness.call("POST", "/v1/refunds",
            RefundRequest(processor: "stripe", reference: "b-1", processorPaymentID: saleB, amount: usd,
                          idempotencyKey: keyB), as: Self.storeB).body)
        let saleA = harness.stripe.addIntent(reference: "a-1", location: "tml_A", status: "succeeded")
        let keyA = IdempotencyKey.refund(scope: Self.storeA, reference: "a-1", paymentAttempt: 1, number: 1).rawValue
        try checks.expectRefused(await harness.call("POST", "/v1/refunds/lookup", RouteBodies.RefundLookup(
            processor: "stripe", processorPaymentID: saleA, idempotencyKey: keyA,
            processorRefundID: refundB.processorRefundID), as: Self.storeA))
        // Square: the same.
        let paymentB = harness.square.addPayment(reference: "b-2", location: "tml_B")
        let sqKeyB = IdempotencyKey.refund(scope: Self.storeB, reference: "b-2", paymentAttempt: 1, number: 1).rawValue
        let sqRefundB = try JSONDecoder().decode(RefundResult.self, from: await harness.call("POST", "/v1/refunds",
            RefundRequest(processor: "square", reference: "b-2", processorPaymentID: paymentB, amount: usd,
                          idempotencyKey: sqKeyB), as: Self.storeB).body)
        let paymentA = harness.square.addPayment(reference: "a-2", location: "tml_A")
        let sqKeyA = IdempotencyKey.refund(scope: Self.storeA, reference: "a-2", paymentAttempt: 1, number: 1).rawValue
        try checks.expectRefused(await harness.call("POST", "/v1/refunds/lookup", RouteBodies.RefundLookup(
            processor: "square", processorPaymentID: paymentA, idempotencyKey: sqKeyA,
            processorRefundID: sqRefundB.processorRefundID), as: Self.storeA))
        // The owner's own lookup by id still answers.
        let own = await harness.call("POST", "/v1/refunds/lookup", RouteBodies.RefundLookup(
            processor: "stripe", processorPaymentID: saleB, idempotencyKey: keyB,
            processorRefundID: refundB.processorRefundID), as: Self.storeB)
        #expect(own.status == 200)
        try OpenAPICheck.expectValid(harness.exchanges)
    }

    // MARK: 8

    @Test("capture, void, refund: a key derived in another scope or for another reference is refused")
    func keysBoundToScope() async throws {
        let harness = Harness()
        let sale = harness.stripe.addIntent(reference: "order-8", location: "tml_A")
        let usd = Money(minorUnits: 1_000, currency: .usd)
        let keyOfB = IdempotencyKey.capture(scope: Self.storeB, reference: "order-8", paymentAttempt: 1).rawValue
        let otherReference = IdempotencyKey.capture(scope: Self.storeA, reference: "order-9", paymentAttempt: 1).rawValue
        for key in [keyOfB, otherReference, "random-key"] {
            try checks.expectRefused(await harness.call("POST", "/v1/payments/capture", CaptureRequest(
                processor: "stripe", reference: "order-8", processorPaymentID: sale, amount: usd, idempotencyKey: key),
                as: Self.storeA))
            try checks.expectRefused(await harness.call("POST", "/v1/payments/void", VoidRequest(
                processor: "stripe", reference: "order-8", processorPaymentID: sale, idempotencyKey: key),
                as: Self.storeA))
            try checks.expectRefused(await harness.call("POST", "/v1/refunds", RefundRequest(
                processor: "stripe", reference: "order-8", processorPaymentID: sale, amount: usd, idempotencyKey: key),
                as: Self.storeA))
        }
        #expect(harness.stripe.requests.allSatisfy { $0.method == "GET" }, "nothing reached Stripe but reads")
        #expect(harness.stripe.status(sale) == "requires_capture")
        // A refund key a ledger recorded before keys were scoped (`<reference>/refund-<n>`) is still accepted.
        let captured = harness.stripe.addIntent(reference: "old-8", location: "tml_A", status: "succeeded")
        let legacy = await harness.call("POST", "/v1/refunds", RefundRequest(
            processor: "stripe", reference: "old-8", processorPaymentID: captured,
            amount: Money(minorUnits: 100, currency: .usd), idempotencyKey: "old-8/refund-1"), as: Self.storeA)
        #expect(legacy.status == 200)
        try OpenAPICheck.expectValid(harness.exchanges)
    }

    @Test("capture and refund in another currency than the payment's are refused (400 currency_mismatch)")
    func currencyChecked() async throws {
        let harness = Harness()
        let sale = harness.stripe.addIntent(reference: "order-c", location: "tml_A")
        let eur = Money(minorUnits: 1_000, currency: .eur)
        let key = IdempotencyKey.capture(scope: Self.storeA, reference: "order-c", paymentAttempt: 1).rawValue
        let capture = await harness.call("POST", "/v1/payments/capture", CaptureRequest(
            processor: "stripe", reference: "order-c", processorPaymentID: sale, amount: eur, idempotencyKey: key),
            as: Self.storeA)
        #expect(capture.status == 400 && Self.errorCode(capture) == .currencyMismatch)
        #expect(harness.stripe.status(sale) == "requires_capture")
        let payment = harness.square.addPayment(reference: "sq-c", location: "tml_A")
        let refundKey = IdempotencyKey.refund(scope: Self.storeA, reference: "sq-c", paymentAttempt: 1, number: 1).rawValue
        let refund = await harness.call("POST", "/v1/refunds", RefundRequest(
            processor: "square", reference: "sq-c", processorPaymentID: payment, amount: eur, idempotencyKey: refundKey),
            as: Self.storeA)
        #expect(refund.status == 400 && Self.errorCode(refund) == .currencyMismatch)
        #expect(harness.square.requests.allSatisfy { $0.method == "GET" }, "no refund reached Square")
        try OpenAPICheck.expectValid(harness.exchanges)
    }

    @Test("a body over the routes' limit is answered 413 before it is read")
    func bodyLimit() async throws {
        let harness = Harness()
        let big = Data(repeating: UInt8(ascii: " "), count: 70 * 1024) + Data(#"{"idempotencyKey":"k"}"#.utf8)
        let request = HTTPRequest(method: "POST", url: URL(string: "/v1/square/payments/cancel-by-idempotency-key")!,
                                  headers: ["Authorization": "Bearer device", "Content-Type": "application/json"],
                                  body: big)
        let response = await harness.routes.respond(to: request, caller: Self.storeA)
        #expect(response.status == 413 && Self.errorCode(response) == .invalidRequest)
        #expect(harness.square.requests.isEmpty)
        try OpenAPICheck.expectValid([Exchange(request: request, response: response)])
    }
}
