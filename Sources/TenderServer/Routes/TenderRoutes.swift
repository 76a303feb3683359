import Foundation
public import TenderWire

/// Decides whether a caller may act for a merchant's location: the routes' authorization hook.
///
/// The routes ask it before every vendor call, with the scope that owns what the call touches: the payment's
/// location (Stripe: the intent's `tender_location` metadata; Square: the payment's `location_id`), the location a
/// connection token or a Square sign-in is for, or the scope an idempotency key was derived in. Without one, the
/// routes allow a caller to act for its own merchant and location only. A caller whose merchant is not the account
/// the routes serve is refused before this is asked.
public protocol TenderRouteAuthorizer: Sendable {
    /// Whether `caller` may act for `owner` on `processor` (`"stripe"`, `"square"`).
    func allows(_ caller: LedgerScope, toActFor owner: LedgerScope, processor: String) async -> Bool
}

/// The routes between the device and your server, framework-neutral: a function from a request and the caller's
/// identity to a response. Mount it in any HTTP server (see "Your server" in the documentation): authenticate the
/// device your way, turn its session into the ``TenderWire/LedgerScope`` (merchant account and location) it belongs
/// to, and hand the request over.
///
/// | route | what it does |
/// |---|---|
/// | `POST /v1/stripe/connection-token` | a Terminal connection token for the caller's location |
/// | `POST /v1/square/authorization` | the seller's OAuth access token and the caller's location id, for Square's `authorize(withAccessToken:locationID:)` |
/// | `POST /v1/payments/capture`, `POST /v1/payments/void` | capture or void (a ``TenderWire/CaptureRequest``, ``TenderWire/VoidRequest``) |
/// | `POST /v1/refunds`, `POST /v1/refunds/lookup` | refund, and what the processor holds of a refund |
/// | `GET /v1/stripe/payment-intents`, `GET /v1/stripe/payment-intents/{id}`, `POST /v1/stripe/payment-intents/{id}/abandon` | Stripe lookups by reference and by id, and abandoning an attempt |
/// | `GET /v1/square/payments`, `GET /v1/square/payments/{id}`, `POST /v1/square/payments/cancel-by-idempotency-key` | Square lookups by reference and by id, and voiding by idempotency key |
///
/// The OpenAPI document `Documentation/tender-server.openapi.yaml` describes every request and answer. Idempotency
/// keys travel from the device to the vendor unchanged. A caller acts only for the merchant and location it belongs
/// to (``TenderRouteAuthorizer``): anything else is answered `403` with a ``TenderWire/PaymentError`` of code
/// `not_authorized` — including an idempotency key derived in another scope, a refund id of another payment, and a
/// Stripe intent without `tender_location` (unless ``assigningUntaggedStripeIntents(to:)`` names its location). An
/// amount in another currency than the payment's is `400` `currency_mismatch`; a body over 64 KiB is `413`. Tokens appear only in the answers of the two sign-in routes (marked `Cache-Control: no-store`);
/// error bodies never carry a credential.
public struct TenderRoutes: Sendable {
    /// The Stripe client and the account it acts for (`acct_…`; nil: the caller's merchant is not checked).
    package let stripe: StripeServerClient?
    package let stripeAccountID: String?
    /// The Square client and the seller it acts for (nil: the caller's merchant is not checked).
    package let square: SquareServerClient?
    package let squareMerchantID: String?
    /// The Square seller's OAuth access token for a caller, when the routes hand Square's authorization over.
    let squareSignIn: (@Sendable (LedgerScope) async throws -> Credential)?
    /// The authorization hook; nil: a caller acts for its own scope only.
    let authorizer: (any TenderRouteAuthorizer)?
    /// Where the routes are mounted (`""`, or e.g. `"/tender"`): stripped from each request's path.
    let mountPath: String
    /// Where each answered request is logged (nil: nowhere).
    let logHandler: (any TenderLogHandler)?
    /// The Stripe location that owns intents without `tender_location` (nil: they belong to no caller).
    var untaggedStripeLocation: String?

    /// Creates the routes.
    /// - Parameters:
    ///   - stripe: the Stripe client, if you serve Stripe locations.
    ///   - stripeAccountID: the Stripe account the client's key belongs to: callers of another merchant are refused.
    ///   - square: the Square client, if you serve Square locations.
    ///   - squareMerchantID: the Square seller the client's token belongs to: callers of another merchant are refused.
    ///   - squareSignIn: the seller's OAuth access token for a caller (from your secret store), answered by
    ///     `POST /v1/square/authorization`; nil: that route answers 501.
    ///   - authorizer: who may act for whom; nil: a caller acts for its own merchant and location only.
    ///   - mountPath: the path prefix the routes are mounted under.
    ///   - logHandler: receives one record per answered request (route, caller's location, status; a failure's
    ///     code and the vendor's error name), redacted like every ``TenderWire/TenderLogRecord``: never a token.
    public init(stripe: StripeServerClient? = nil, stripeAccountID: String? = nil, square: SquareServerClient? = nil,
                squareMerchantID: String? = nil,
                squareSignIn: (@Sendable (LedgerScope) async throws -> Credential)? = nil,
                authorizer: (any TenderRouteAuthorizer)? = nil, mountPath: String = "",
                logHandler: (any TenderLogHandler)? = nil) {
        self.stripe = stripe
        self.stripeAccountID = stripeAccountID
        self.square = square
        self.squareMerchantID = squareMerchantID
        self.squareSignIn = squareSignIn
        self.authorizer = authorizer
        self.mountPath = mountPath.hasSuffix("/") ? String(mountPath.dropLast()) : mountPath
        self.logHandler = logHandler
    }

    /// Answers one request from a device acting as `caller` (the merchant account and location your authentication
    /// says the device belongs to). Never throws: every failure is an answer with a JSON error body
    /// (`{"error": PaymentError}`), never a credential.
    public func respond(to request: HTTPRequest, caller: LedgerScope) async -> HTTPResponse {
        do {
            try checkBodySize(request)
            let response = try await dispatch(request, caller: caller)
            log(request, caller: caller, status: response.status, failure: nil)
            return response
        } catch {
            let response = error.response
            log(request, caller: caller, status: response.status, failure: error)
            return response
        }
    }

    /// These routes, with every Stripe PaymentIntent that records no `tender_location` (intents made by Tender
    /// before the Stripe adapter tagged every attempt, or by another integration) owned by Stripe location
    /// `location`: its devices (and whoever ``TenderRouteAuthorizer`` lets act for it) may look them up, capture,
    /// void, refund and abandon them; every other location is still refused. Without it such an intent belongs to no
    /// caller. Name the one location that took payments before the upgrade; see "Your server".
    public func assigningUntaggedStripeIntents(to location: String) -> TenderRoutes {
        var routes = self
        routes.untaggedStripeLocation = location.isEmpty ? nil : location
        return routes
    }
}
