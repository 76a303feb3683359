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

    /// Decides one request knowing what it asks: the operation, the amount it moves (a capture's or a refund's; nil
    /// for the others), the device and its role as your authentication resolved them (nil when
    /// ``TenderRoutes/respond(to:caller:device:role:)`` was not given them), and the scope that owns what it touches.
    /// Return nil to allow it, or the refusal the device receives (code `not_authorized`, with a message that says
    /// which rule refused). The default asks ``allows(_:toActFor:processor:)``.
    func authorize(_ operation: TenderRouteOperation, amount: Money?, caller: LedgerScope, device: String?,
                   role: String?, owner: LedgerScope, processor: String) async -> PaymentError?
}

/// What a device asks the routes for, as a ``TenderRouteAuthorizer`` sees it.
public enum TenderRouteOperation: String, Sendable, CaseIterable {
    /// `POST /v1/stripe/connection-token`.
    case connectionToken
    /// `POST /v1/square/authorization`: the seller's token handed to the device.
    case signIn
    /// `POST /v1/payments/capture` (the amount is the capture's).
    case capture
    /// `POST /v1/payments/void`, abandoning a Stripe attempt, voiding a Square payment by idempotency key.
    case void
    /// `POST /v1/refunds` (the amount is the refund's).
    case refund
    /// Every lookup: payments by reference or id, and `POST /v1/refunds/lookup`.
    case lookup
}

extension TenderRouteAuthorizer {
    /// Allows what ``allows(_:toActFor:processor:)`` allows, whatever the operation and amount.
    public func authorize(_ operation: TenderRouteOperation, amount: Money?, caller: LedgerScope, device: String?,
                          role: String?, owner: LedgerScope, processor: String) async -> PaymentError? {
        guard await !allows(caller, toActFor: owner, processor: processor) else { return nil }
        return PaymentError(.notAuthorized, recovery: .fixIntegration, phase: .authorization,
                            message: "This device may not act for location \(owner.locationID).")
    }
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
    /// says the device belongs to), and, when your authentication knows them, the device's id and its role, which the
    /// ``TenderRouteAuthorizer`` receives with the operation and its amount. Never throws: every failure is an answer
    /// with a JSON error body (`{"error": PaymentError}`), never a credential.
    public func respond(to request: TenderHTTPRequest, caller: LedgerScope, device: String? = nil,
                        role: String? = nil) async -> TenderHTTPResponse {
        await respondInContext(to: request, caller: caller, device: device, role: role)
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
