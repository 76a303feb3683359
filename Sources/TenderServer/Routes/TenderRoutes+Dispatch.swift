import Foundation
import TenderWire

extension TenderRoutes {
    /// Finds the route for the request and runs it.
    func dispatch(_ request: HTTPRequest, caller: LedgerScope) async throws -> HTTPResponse {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? request.url.path
        guard mountPath.isEmpty || path == mountPath || path.hasPrefix(mountPath + "/") else {
            throw RouteFailure.noRoute(request.method, path)
        }
        let parts = path.dropFirst(mountPath.count).split(separator: "/")
            .map { $0.removingPercentEncoding ?? String($0) }
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let method = request.method.uppercased()
        guard parts.first == "v1", let route = Route(parts.dropFirst()) else {
            throw RouteFailure.noRoute(request.method, path)
        }
        guard method == route.method else {
            throw RouteFailure(status: 405, error: PaymentError(
                .integrationError, recovery: .fixIntegration, phase: .unknown,
                message: "\(path) takes \(route.method), not \(request.method)."))
        }
        switch route {
        case .connectionToken: return try await connectionToken(caller)
        case .squareAuthorization: return try await squareAuthorization(caller)
        case .capture:
            try await capture(RouteJSON.decode(CaptureRequest.self, from: request, phase: .capture), caller: caller)
            return HTTPResponse(status: 204)
        case .void:
            try await void(RouteJSON.decode(VoidRequest.self, from: request, phase: .capture), caller: caller)
            return HTTPResponse(status: 204)
        case .refund:
            let result = try await refund(RouteJSON.decode(RefundRequest.self, from: request, phase: .refund),
                                          caller: caller)
            return RouteJSON.response(200, result)
        case .refundLookup:
            let result = try await lookUpRefund(
                RouteJSON.decode(RouteBodies.RefundLookup.self, from: request, phase: .refund), caller: caller)
            return RouteJSON.response(200, RouteBodies.RefundLookupAnswer(refund: result))
        case .stripeIntents:
            guard let key = query["metadataKey"], let value = query["value"], !key.isEmpty, !value.isEmpty else {
                throw RouteFailure.badRequest("A lookup needs metadataKey and value.", phase: .reconciliation)
            }
            return RouteJSON.response(200, try await stripeIntents(metadataKey: key, value: value, caller: caller))
        case .stripeIntent(let id):
            return RouteJSON.response(200, try await ownedStripeIntent(id, caller: caller, phase: .reconciliation))
        case .stripeAbandon(let id):
            return RouteJSON.response(200, try await abandonStripeIntent(id, caller: caller))
        case .squarePayments:
            guard let reference = query["referenceID"], !reference.isEmpty else {
                throw RouteFailure.badRequest("A lookup needs referenceID.", phase: .reconciliation)
            }
            let payments = try await squarePayments(referenceID: reference,
                                                    locationID: query["locationID"] ?? caller.locationID,
                                                    caller: caller)
            return RouteJSON.response(200, RouteBodies.SquarePayments(payments: payments))
        case .squarePayment(let id):
            let payment = try await ownedSquarePayment(id, caller: caller, phase: .reconciliation)
            return RouteJSON.response(200, RouteBodies.SquarePayment(payment: payment))
        case .squareCancelByKey:
            let body = try RouteJSON.decode(RouteBodies.CancelByKey.self, from: request, phase: .cancellation)
            try await cancelSquarePayment(idempotencyKey: body.idempotencyKey, caller: caller)
            return HTTPResponse(status: 204)
        }
    }
}

/// The routes, by path (after `/v1`).
enum Route: Equatable {
    case connectionToken, squareAuthorization, capture, void, refund, refundLookup
    case stripeIntents, stripeIntent(String), stripeAbandon(String)
    case squarePayments, squarePayment(String), squareCancelByKey

    init?(_ parts: ArraySlice<String>) {
        switch Array(parts) {
        case ["stripe", "connection-token"]: self = .connectionToken
        case ["square", "authorization"]: self = .squareAuthorization
        case ["payments", "capture"]: self = .capture
        case ["payments", "void"]: self = .void
        case ["refunds"]: self = .refund
        case ["refunds", "lookup"]: self = .refundLookup
        case ["stripe", "payment-intents"]: self = .stripeIntents
        case ["square", "payments"]: self = .squarePayments
        case ["square", "payments", "cancel-by-idempotency-key"]: self = .squareCancelByKey
        case let path where path.count == 3 && path[0] == "stripe" && path[1] == "payment-intents":
            self = .stripeIntent(path[2])
        case let path where path.count == 4 && path[0] == "stripe" && path[1] == "payment-intents" && path[3] == "abandon":
            self = .stripeAbandon(path[2])
        case let path where path.count == 3 && path[0] == "square" && path[1] == "payments":
            self = .squarePayment(path[2])
        default: return nil
        }
    }

    /// The method the route takes.
    var method: String {
        switch self {
        case .stripeIntents, .stripeIntent, .squarePayments, .squarePayment: "GET"
        default: "POST"
        }
    }
}
