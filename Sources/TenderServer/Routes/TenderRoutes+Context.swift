import Foundation
import TenderWire

/// What one request asks, known before any route runs: the operation, the amount it moves, the device and its role
/// (as the host's authentication resolved them). Carried in a task local so the authorization hook sees it wherever a
/// route asks whether the caller may act (``TenderRoutes/allows(_:owner:processor:)``), and so the hook's own refusal
/// (which names the rule that refused) is the answer the device gets.
struct RouteContext: Sendable {
    @TaskLocal static var current: RouteContext?

    var operation: TenderRouteOperation
    var amount: Money?
    var device: String?
    var role: String?
    /// The first refusal the authorizer gave for this request (its message names the rule).
    let refusal = RefusalBox()

    /// The context of a request to `path` (already stripped of the mount path) with `body`.
    init(method: String, parts: [String], body: Data?, device: String?, role: String?) {
        self.device = device
        self.role = role
        let route = parts.first == "v1" ? Route(parts.dropFirst()) : nil
        let decoder = JSONDecoder()
        switch route {
        case .connectionToken?: operation = .connectionToken
        case .squareAuthorization?: operation = .signIn
        case .capture?:
            operation = .capture
            amount = body.flatMap { try? decoder.decode(CaptureRequest.self, from: $0) }?.amount
        case .void?, .stripeAbandon?, .squareCancelByKey?: operation = .void
        case .refund?:
            operation = .refund
            amount = body.flatMap { try? decoder.decode(RefundRequest.self, from: $0) }?.amount
        default: operation = .lookup
        }
    }
}

/// Holds the authorizer's first refusal of a request (set from whichever route helper asked).
final class RefusalBox: @unchecked Sendable {
    private let lock = NSLock()
    private var error: PaymentError?

    func record(_ refusal: PaymentError) { lock.withLock { if error == nil { error = refusal } } }
    var value: PaymentError? { lock.withLock { error } }
}

extension TenderRoutes {
    /// Answers the request inside its ``RouteContext``; a `403` the authorizer caused carries the authorizer's own
    /// refusal (which says which rule refused) instead of the route's general one.
    func respondInContext(to request: HTTPRequest, caller: LedgerScope, device: String?, role: String?) async
        -> HTTPResponse {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? request.url.path
        let parts = path.dropFirst(mountPath.count).split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        let context = RouteContext(method: request.method, parts: parts, body: request.body, device: device, role: role)
        return await RouteContext.$current.withValue(context) {
            var failure: (any Error)?
            var response: HTTPResponse
            do {
                try checkBodySize(request)
                response = try await dispatch(request, caller: caller)
            } catch {
                failure = error
                response = error.response
            }
            if response.status == 403, let refusal = context.refusal.value {
                let routeFailure = RouteFailure(status: 403, error: refusal)
                failure = routeFailure
                response = routeFailure.response
            }
            log(request, caller: caller, status: response.status, failure: failure)
            return response
        }
    }
}
