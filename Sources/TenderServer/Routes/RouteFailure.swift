import Foundation
import TenderWire

/// A route's failure: the HTTP status and the ``TenderWire/PaymentError`` its body carries (`{"error": …}`).
struct RouteFailure: Error {
    var status: Int
    var error: PaymentError

    /// The answer: the error as JSON, never a credential (the clients scrub vendor messages; the routes' own messages
    /// name no secret).
    var response: HTTPResponse {
        RouteJSON.response(status, RouteBodies.ErrorBody(error: error))
    }

    /// `400`: the request cannot be read.
    static func badRequest(_ message: String, phase: PaymentError.Phase = .validation) -> RouteFailure {
        RouteFailure(status: 400, error: PaymentError(.invalidRequest, recovery: .fixIntegration, phase: phase,
                                                      message: message))
    }

    /// `403`: the caller may not act for what it asked about.
    static func forbidden(_ message: String, phase: PaymentError.Phase) -> RouteFailure {
        RouteFailure(status: 403, error: PaymentError(.notAuthorized, recovery: .fixIntegration, phase: phase,
                                                      message: message))
    }

    /// `404`: no such route, or no such payment.
    static func notFound(_ message: String, phase: PaymentError.Phase) -> RouteFailure {
        RouteFailure(status: 404, error: PaymentError(.unknownReference, recovery: .fixRequest, phase: phase,
                                                      message: message))
    }

    /// `404` for a path the routes do not have: an integration error (a wrong base URL or mount path), never "no such
    /// payment", so a device never reads it as the processor's proof of absence.
    static func noRoute(_ method: String, _ path: String) -> RouteFailure {
        RouteFailure(status: 404, error: PaymentError(.integrationError, recovery: .fixIntegration, phase: .unknown,
                                                      message: "No route for \(method) \(path)."))
    }

    /// `501`: the routes are not set up for this (no client for the processor, no Square sign-in).
    static func notConfigured(_ message: String, phase: PaymentError.Phase) -> RouteFailure {
        RouteFailure(status: 501, error: PaymentError(.configurationError, recovery: .fixIntegration, phase: phase,
                                                      message: message))
    }

    /// A vendor call's failure: `404` for an unknown reference, `502` for everything else the vendor (or the way to
    /// it) answered; the ``TenderWire/PaymentError`` keeps its code, recovery and vendor details.
    static func vendor(_ error: PaymentError) -> RouteFailure {
        RouteFailure(status: error.code == .unknownReference ? 404 : 502, error: error)
    }
}

extension Error {
    /// The answer for any error a route threw.
    var response: HTTPResponse {
        if let failure = self as? RouteFailure { return failure.response }
        if let error = self as? PaymentError { return RouteFailure.vendor(error).response }
        // Not a PaymentError: its text is not shown (it could carry anything).
        return RouteFailure(status: 500, error: PaymentError(
            .unexpected, recovery: .retrySamePayment, phase: .unknown,
            message: "The server failed (\(type(of: self))).")).response
    }
}

/// JSON in and out of the routes.
enum RouteJSON {
    static func response<T: Encodable>(_ status: Int, _ value: T, headers: [String: String] = [:]) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a },
                            body: body)
    }

    static func decode<T: Decodable>(_ type: T.Type, from request: HTTPRequest, phase: PaymentError.Phase)
        throws(RouteFailure) -> T {
        guard let body = request.body, !body.isEmpty else {
            throw .badRequest("The request has no JSON body.", phase: phase)
        }
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            throw .badRequest("The request body is not a valid \(String(describing: T.self).split(separator: ".").last ?? "body") (\(Self.describe(error))).",
                              phase: phase)
        }
    }

    /// Which field was wrong, never the value.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        switch error {
        case .keyNotFound(let key, _): return "missing \(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "bad \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        @unknown default: return "unreadable"
        }
    }
}

/// The routes' own bodies (the wire types of TenderWire travel as they encode).
enum RouteBodies {
    /// Every error answer.
    struct ErrorBody: Codable { var error: PaymentError }
    /// `POST /v1/stripe/connection-token`'s answer. Goes to the device only.
    struct ConnectionToken: Codable { var secret: String }
    /// `POST /v1/square/authorization`'s answer. Goes to the device only.
    struct SquareAuthorization: Codable { var accessToken: String; var locationID: String }
    /// `POST /v1/refunds/lookup`'s request.
    struct RefundLookup: Codable {
        var processor: String
        var processorPaymentID: String
        var idempotencyKey: String
        var processorRefundID: String?
    }
    /// `POST /v1/refunds/lookup`'s answer: no `refund` when the processor certainly holds none.
    struct RefundLookupAnswer: Codable { var refund: RefundResult? }
    /// `GET /v1/stripe/payment-intents`' answer.
    struct StripeLookup: Codable {
        /// `found`, `unknown` or `absent`.
        var result: String
        var complete: Bool
        var paymentIntents: [StripeAPI.PaymentIntent]
    }
    /// `GET /v1/square/payments`' answer.
    struct SquarePayments: Codable { var payments: [SquareAPI.Payment] }
    /// `GET /v1/square/payments/{id}`' answer.
    struct SquarePayment: Codable { var payment: SquareAPI.Payment }
    /// `POST /v1/square/payments/cancel-by-idempotency-key`'s request.
    struct CancelByKey: Codable { var idempotencyKey: String }
}
