import Foundation
import TenderServer

/// How a merchant server runs: where it listens, the administrator token, the vendors' clients, the policy.
public struct MerchantConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Test mode: the vendors are the loopback peers (or none), and every page and the first log line say so.
    public var testMode: Bool
    /// SHA-256 (hex) of the administrator's token (`Authorization: Bearer …` on `/admin/…`): the server keeps
    /// only the hash and compares hashes in constant time.
    public var adminTokenHash: String
    /// The merchant an enrolment code is for when the administrator names none.
    public var merchantID: String
    public var stripe: StripeServerClient?
    public var stripeAccountID: String?
    public var square: SquareServerClient?
    public var squareMerchantID: String?
    /// The Square seller's OAuth access token handed to devices by the sign-in route (a fixed token; with
    /// ``squareOAuth`` the ``SquareTokenKeeper`` hands out the current one instead).
    public var squareAccessToken: Credential?
    /// How the seller's token is refreshed (Square's `ObtainToken`); nil: the fixed ``squareAccessToken``.
    public var squareOAuth: SquareOAuthSettings?
    /// The token the environment gave with ``squareOAuth``, used until it nears its expiry.
    public var squareInitialToken: SquareAccessToken?
    /// Seals the refreshed token in the store (`MERCHANT_TOKEN_KEY`).
    public var tokenSealer: TokenSealer
    public var policy: RefundPolicy
    /// How long an enrolment code stays usable.
    public var enrolmentCodeLifetime: TimeInterval
    /// Failures (bad code, bad token) a client address may make per `rateLimitWindow` seconds.
    public var rateLimit: Int
    public var rateLimitWindow: TimeInterval
    /// A device whose last fleet report is older than this is silent on the fleet page (its payments at risk).
    public var fleetSilentAfter: TimeInterval = 900
    /// The vendors' webhooks: their signing secrets, Square's notification URL, Stripe's tolerance (none: off).
    public var webhooks = WebhookSettings()

    public init(host: String = "127.0.0.1", port: Int = 8080, testMode: Bool, adminTokenHash: String,
                merchantID: String, stripe: StripeServerClient? = nil, stripeAccountID: String? = nil,
                square: SquareServerClient? = nil, squareMerchantID: String? = nil,
                squareAccessToken: Credential? = nil, squareOAuth: SquareOAuthSettings? = nil,
                squareInitialToken: SquareAccessToken? = nil, tokenSealer: TokenSealer = TokenSealer(),
                policy: RefundPolicy = .standard,
                enrolmentCodeLifetime: TimeInterval = 3_600, rateLimit: Int = 10, rateLimitWindow: TimeInterval = 60) {
        self.host = host
        self.port = port
        self.testMode = testMode
        self.adminTokenHash = adminTokenHash
        self.merchantID = merchantID
        self.stripe = stripe
        self.stripeAccountID = stripeAccountID
        self.square = square
        self.squareMerchantID = squareMerchantID
        self.squareAccessToken = squareAccessToken
        self.squareOAuth = squareOAuth
        self.squareInitialToken = squareInitialToken
        self.tokenSealer = tokenSealer
        self.policy = policy
        self.enrolmentCodeLifetime = enrolmentCodeLifetime
        self.rateLimit = rateLimit
        self.rateLimitWindow = rateLimitWindow
    }
}
