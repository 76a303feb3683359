import Foundation
import Testing
import Tender
@testable import TenderServer

/// How the routes answer what they cannot serve: an unreadable body, a path they do not have, a wrong method, a
/// processor they have no client for. Each answer is a JSON PaymentError, and none reaches the vendor.
@Suite("Routes: requests they cannot serve")
struct RouteRequestTests {
    static let store = LedgerScope(merchantID: "acct_tender", locationID: "tml_A")

    func call(_ routes: TenderRoutes, _ method: String, _ path: String, body: String? = nil) async throws
        -> (HTTPResponse, PaymentError) {
        let response = await routes.respond(to: HTTPRequest(method: method, url: URL(string: path)!,
                                                            body: body.map { Data($0.utf8) }), caller: Self.store)
        #expect(response.headers["content-type"] == "application/json")
        return (response, try JSONDecoder().decode(RouteBodies.ErrorBody.self, from: response.body).error)
    }

    @Test("400 unreadable body, 404 unknown route (an integration error), 405 wrong method, 501 no client")
    func refusals() async throws {
        let stripe = FakeStripe()
        let routes = TenderRoutes(stripe: stripe.client, mountPath: "/tender/")
        let (bad, badError) = try await call(routes, "POST", "/tender/v1/payments/capture", body: #"{"processor":"stripe"}"#)
        #expect(bad.status == 400 && badError.code == .invalidRequest && badError.message.contains("reference"))
        let (empty, _) = try await call(routes, "POST", "/tender/v1/refunds")
        #expect(empty.status == 400)
        let (unknown, unknownError) = try await call(routes, "GET", "/tender/v1/payments/everything")
        #expect(unknown.status == 404 && unknownError.code == .integrationError, "never read as no such payment")
        let (outside, _) = try await call(routes, "GET", "/elsewhere/v1/stripe/payment-intents/pi_1")
        #expect(outside.status == 404)
        let (wrong, wrongError) = try await call(routes, "GET", "/tender/v1/payments/capture")
        #expect(wrong.status == 405 && wrongError.code == .integrationError)
        let (noSquare, noSquareError) = try await call(routes, "GET", "/tender/v1/square/payments/SQ1")
        #expect(noSquare.status == 501 && noSquareError.code == .configurationError)
        let (noSignIn, _) = try await call(routes, "POST", "/tender/v1/square/authorization")
        #expect(noSignIn.status == 501)
        let (other, otherError) = try await call(routes, "POST", "/tender/v1/payments/void",
            body: #"{"processor":"adyen","reference":"r","processorPaymentID":"p","idempotencyKey":"k"}"#)
        #expect(other.status == 400 && otherError.code == .invalidRequest)
        #expect(stripe.requests.isEmpty, "nothing reached Stripe")
    }
}
