import Foundation

/// A webhook signing secret (Stripe's `whsec_…`, Square's signature key): its text never appears in a description,
/// a debug description or a mirror, so a logged configuration cannot reveal it.
public struct WebhookSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable {
    /// The secret itself; only the signature checks read it.
    let value: String

    /// Wraps a secret (leading and trailing white space removed: a newline from a secrets file).
    public init(_ value: String) { self.value = value.trimmingCharacters(in: .whitespacesAndNewlines) }

    public var description: String { "WebhookSecret(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// How the vendors' webhooks are checked (``MerchantConfiguration/webhooks``). A vendor without its secret has no
/// webhook: its route answers 501 (``MerchantApp/addWebhookRoutes(to:)``).
public struct WebhookSettings: Sendable, Equatable {
    /// The signing secrets of the Stripe endpoint(s) (`whsec_…`); an event signed with any of them is accepted
    /// (while a secret is rolled, Stripe signs with the old and the new one). Empty: Stripe webhooks are off.
    public var stripeSecrets: [WebhookSecret]
    /// How far (seconds) a Stripe signature's timestamp may be from the server's clock, either way (Stripe's
    /// libraries default to 300).
    public var stripeTolerance: TimeInterval
    /// The signature key of the Square webhook subscription; nil: Square webhooks are off.
    public var squareSignatureKey: WebhookSecret?
    /// The subscription's notification URL exactly as registered with Square (`https://shop.example/webhooks/square`):
    /// Square signs it with the body, and a server cannot know its own public URL.
    public var squareNotificationURL: String?

    public init(stripeSecrets: [WebhookSecret] = [], stripeTolerance: TimeInterval = 300,
                squareSignatureKey: WebhookSecret? = nil, squareNotificationURL: String? = nil) {
        self.stripeSecrets = stripeSecrets
        self.stripeTolerance = stripeTolerance
        self.squareSignatureKey = squareSignatureKey
        self.squareNotificationURL = squareNotificationURL
    }

    /// Whether `POST /webhooks/stripe` takes events.
    public var stripeEnabled: Bool { !stripeSecrets.isEmpty }
    /// Whether `POST /webhooks/square` takes events (a key and the notification URL).
    public var squareEnabled: Bool { squareSignatureKey != nil && squareNotificationURL != nil }
}

extension Launch {
    /// The webhook settings the environment describes (test mode and production alike):
    /// - `STRIPE_WEBHOOK_SECRET`: the endpoint's signing secret, several separated by commas while one is rolled;
    /// - `STRIPE_WEBHOOK_TOLERANCE`: seconds a signature's timestamp may be off (default 300);
    /// - `SQUARE_WEBHOOK_SIGNATURE_KEY` with `SQUARE_WEBHOOK_URL` (both or neither): the subscription's signature
    ///   key and its notification URL exactly as registered.
    static func webhookSettings(environment: [String: String]) throws(OptionsError) -> WebhookSettings {
        func value(_ name: String) -> String? {
            let text = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return text.isEmpty ? nil : text
        }
        var settings = WebhookSettings()
        if let secrets = value("STRIPE_WEBHOOK_SECRET") {
            settings.stripeSecrets = secrets.split(separator: ",").map { WebhookSecret(String($0)) }
                .filter { !$0.value.isEmpty }
        }
        if let text = value("STRIPE_WEBHOOK_TOLERANCE") {
            guard let seconds = Int(text), seconds >= 1 else {
                throw OptionsError("STRIPE_WEBHOOK_TOLERANCE takes a number of seconds (1 or more), not \(text)")
            }
            settings.stripeTolerance = TimeInterval(seconds)
        }
        let key = value("SQUARE_WEBHOOK_SIGNATURE_KEY"), url = value("SQUARE_WEBHOOK_URL")
        switch (key, url) {
        case (nil, nil): break
        case (let key?, let url?):
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""),
                  parsed.host != nil else {
                throw OptionsError("SQUARE_WEBHOOK_URL must be the notification URL as registered with Square "
                    + "(https://…/webhooks/square), not \(url)")
            }
            settings.squareSignatureKey = WebhookSecret(key)
            settings.squareNotificationURL = url
        case (nil, _):
            throw OptionsError("SQUARE_WEBHOOK_URL needs SQUARE_WEBHOOK_SIGNATURE_KEY (the subscription's signature "
                + "key)")
        case (_, nil):
            throw OptionsError("SQUARE_WEBHOOK_SIGNATURE_KEY needs SQUARE_WEBHOOK_URL (the notification URL exactly as "
                + "registered with Square: it is signed with the body)")
        }
        return settings
    }
}
