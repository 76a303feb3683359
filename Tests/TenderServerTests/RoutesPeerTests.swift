import Foundation
import Testing
import Tender
import TenderBackend
@testable import TenderServer

/// The device client and the routes against the loopback peers: `TenderBackendClient` → `TenderRoutes` (in process)
/// → `StripeServerClient` → localstripe, and → `SquareServerClient` → the Square OpenAPI peer, over real HTTP. The
/// routes' exchanges are checked against the repository's OpenAPI document; the peers check the vendor side.
@Suite("Routes against localstripe", .enabled(if: Peers.localstripeRunning, Peers.localstripeReason), .serialized)
struct RoutesLocalstripeTests {
    let key = "sk_test_routes_" + UUID().uuidString.prefix(8)
    let store = LedgerScope(merchantID: "acct_routes", locationID: "tml_routes")

    var stripe: StripeServerClient {
        StripeServerClient(secretKey: Credential(key), configuration: .init(baseURL: Peers.localstripe!))
    }

    /// An intent of `scope`'s location, confirmed with a test card (localstripe has no reader).
    func authorized(_ amount: Int64, reference: String, scope: LedgerScope) async throws -> String {
        let intent = try await stripe.createPaymentIntent(amount: Money(minorUnits: amount, currency: .usd),
                                                          reference: reference, scope: scope,
                                                          paymentMethodTypes: ["card"])
        #expect(intent.metadata["tender_location"] == scope.locationID, "the intent records its location")
        let auth = ["Authorization": "Bearer \(key)", "Content-Type": "application/x-www-form-urlencoded"]
        let base = Peers.localstripe!
        let (_, method) = try await Peers.raw("POST", base.appendingPathComponent("v1/payment_methods"), headers: auth,
                                              body: "type=card&card[number]=4242424242424242&card[exp_month]=12&card[exp_year]=2034&card[cvc]=123")
        let methodID = try #require(method["id"] as? String)
        _ = try await Peers.raw("POST", base.appendingPathComponent("v1/payment_intents/\(intent.id)"), headers: auth,
                                body: "payment_method=\(methodID)")
        let (status, _) = try await Peers.raw("POST", base.appendingPathComponent("v1/payment_intents/\(intent.id)/confirm"),
                                              headers: auth, body: "")
        #expect(status == 200)
        return intent.id
    }

    @Test("capture, void, refund, lookups through the routes; the device's keys reach localstripe unchanged")
    func day() async throws {
        let server = InProcessServer(routes: TenderRoutes(stripe: stripe, stripeAccountID: "acct_routes"),
                                     devices: ["till": store, "other-till": LedgerScope(merchantID: "acct_routes", locationID: "tml_elsewhere")])
        let device = server.client(token: "till")
        let ref = "order-" + UUID().uuidString.prefix(8).lowercased()
        let sale = try await authorized(1_500, reference: ref, scope: store)
        let captureKey = IdempotencyKey.capture(scope: store, reference: ref, paymentAttempt: 1).rawValue
        let capture = CaptureRequest(processor: "stripe", reference: ref, processorPaymentID: sale,
                                     amount: Money(minorUnits: 1_500, currency: .usd), idempotencyKey: captureKey)
        // Another location's device is refused, and nothing reaches localstripe's capture.
        let refused = await #expect(throws: PaymentError.self) {
            try await server.client(token: "other-till").capture(capture)
        }
        #expect(refused?.code == .notAuthorized)
        try await device.capture(capture)
        try await device.capture(capture)  // a retry: the same request at Stripe
        #expect(try await device.retrievePaymentIntent(id: sale)?.status == "succeeded")

        let refundKey = IdempotencyKey.refund(scope: store, reference: ref, paymentAttempt: 1, number: 1).rawValue
        let refund = try await device.refund(RefundRequest(processor: "stripe", reference: ref, processorPaymentID: sale,
                                                           amount: Money(minorUnits: 500, currency: .usd),
                                                           idempotencyKey: refundKey))
        #expect(refund.status == .succeeded)
        let again = try await device.lookUpRefund(processor: "stripe", processorPaymentID: sale,
                                                  idempotencyKey: refundKey, processorRefundID: nil)
        #expect(again?.processorRefundID == refund.processorRefundID)

        let walkoutRef = ref + "-w"
        let walkout = try await authorized(700, reference: walkoutRef, scope: store)
        let voidKey = IdempotencyKey.void(scope: store, reference: walkoutRef, paymentAttempt: 1).rawValue
        try await device.void(VoidRequest(processor: "stripe", reference: walkoutRef, processorPaymentID: walkout,
                                          idempotencyKey: voidKey))
        #expect(try await device.retrievePaymentIntent(id: walkout)?.status == "canceled")
        // localstripe has no Search: the routes' client lists, a complete (consistent) answer.
        let found = try await device.findPaymentIntents(metadataKey: "tender_reference", value: ref)
        #expect(found.intents.map(\.id) == [sale])

        let (_, report) = try await Peers.raw("GET", Peers.localstripe!.appendingPathComponent("_config/tender/report"))
        let posts = report["posts"] as? [[String: Any]] ?? []
        let captures = posts.filter { ($0["path"] as? String) == "/v1/payment_intents/\(sale)/capture" }
        #expect(captures.count == 2 && captures.allSatisfy { $0["key"] as? String == captureKey })
        #expect(captures.last?["replayed"] as? Bool == true, "the retry was replayed, not captured twice")
        #expect(posts.contains { $0["path"] as? String == "/v1/refunds" && $0["key"] as? String == refundKey })
        #expect(posts.contains { ($0["path"] as? String)?.hasSuffix("\(walkout)/cancel") == true
                                 && $0["key"] as? String == voidKey })
        try server.expectValidExchanges()
    }
}

@Suite("Routes against the Square OpenAPI peer", .enabled(if: Peers.squareRunning, Peers.squareReason), .serialized)
struct RoutesSquarePeerTests {
    let location = "L" + UUID().uuidString.prefix(8)

    var square: SquareServerClient {
        SquareServerClient(accessToken: Credential(Peers.squareToken!),
                           configuration: .init(baseURL: Peers.square!, maximumPages: 10))
    }

    func seed(_ fields: [String: Any]) async throws -> String {
        let body = String(data: try JSONSerialization.data(withJSONObject: fields), encoding: .utf8)!
        let (status, payment) = try await Peers.raw("POST", Peers.square!.appendingPathComponent("_tender/payments"),
                                                   headers: ["Content-Type": "application/json"], body: body)
        #expect(status == 200)
        return try #require(payment["id"] as? String)
    }

    @Test("capture, refund, lookups, void by key through the routes; another location is refused")
    func day() async throws {
        let store = LedgerScope(merchantID: "MLROUTES", locationID: location)
        let server = InProcessServer(
            routes: TenderRoutes(square: square, squareMerchantID: "MLROUTES",
                                 squareSignIn: { _ in Credential("EAAA_peer_seller_token") }),
            devices: ["till": store, "other": LedgerScope(merchantID: "MLROUTES", locationID: "L_OTHER")])
        let device = server.client(token: "till")
        #expect(try await device.squareAuthorization().locationID == location)
        let ref = "sq-" + UUID().uuidString.prefix(8)
        let id = try await seed(["amount": 1_000, "reference_id": ref, "location_id": location])
        let capture = CaptureRequest(processor: "square", reference: ref, processorPaymentID: id,
                                     amount: Money(minorUnits: 1_000, currency: .usd),
                                     idempotencyKey: IdempotencyKey.capture(scope: store, reference: ref, paymentAttempt: 1).rawValue)
        let refused = await #expect(throws: PaymentError.self) { try await server.client(token: "other").capture(capture) }
        #expect(refused?.code == .notAuthorized)
        try await device.capture(capture)
        #expect(try await device.getPayment(id: id)?.status == "COMPLETED")
        let refundKey = IdempotencyKey.refund(scope: store, reference: ref, paymentAttempt: 1, number: 1).rawValue
        let refund = try await device.refund(RefundRequest(processor: "square", reference: ref, processorPaymentID: id,
                                                           amount: Money(minorUnits: 300, currency: .usd),
                                                           idempotencyKey: refundKey))
        let retried = try await device.refund(RefundRequest(processor: "square", reference: ref, processorPaymentID: id,
                                                            amount: Money(minorUnits: 300, currency: .usd),
                                                            idempotencyKey: refundKey))
        #expect(refund.processorRefundID != nil && retried.processorRefundID == refund.processorRefundID,
                "the same key at Square: the same refund")
        #expect(try await device.payments(referenceID: ref, locationID: location).map(\.id) == [id])

        let createKey = IdempotencyKey.vendorAttemptID(reference: ref + "-2", paymentAttempt: 1, scope: store)
        let pending = try await seed(["amount": 400, "reference_id": ref + "-2", "location_id": location,
                                      "idempotency_key": IdempotencyKey.fitted(createKey, maximumLength: 45)])
        try await device.cancelPayment(idempotencyKey: createKey)
        #expect(try await device.getPayment(id: pending)?.status == "CANCELED")

        let (_, report) = try await Peers.raw("GET", Peers.square!.appendingPathComponent("_tender/report"))
        #expect((report["violations"] as? [String])?.isEmpty == true, "Square spec violations: \(report["violations"] ?? "none")")
        try server.expectValidExchanges()
    }
}
