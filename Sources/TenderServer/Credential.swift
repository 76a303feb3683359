import Foundation

/// A secret a TenderServer client authenticates with: a Stripe secret key (`sk_…`, `rk_…`) or a Square access
/// token. It is passed in by the app (from its own secret store) and only ever written into the `Authorization`
/// header of a request.
///
/// It never appears in a `description`, a `debugDescription`, a `dump`/`Mirror`, an encoded value, an error
/// message or an event: every one of those shows `Credential(redacted)`. Vendor messages that echo it back are
/// scrubbed before they reach a ``TenderWire/PaymentError``.
public struct Credential: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable {
    /// The secret itself. Internal: only the clients read it, to build the `Authorization` header.
    let secret: String

    /// Wraps a secret. Leading and trailing white space (a newline from a secrets file) is removed.
    public init(_ secret: String) {
        self.secret = secret.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether the secret is empty (a missing configuration value).
    package var isEmpty: Bool { secret.isEmpty }

    /// `Credential(redacted)`.
    public var description: String { "Credential(redacted)" }
    /// `Credential(redacted)`.
    public var debugDescription: String { description }
    /// Reflection shows no children, so `dump` and `Mirror` cannot reveal the secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// `text` with every occurrence of the secret replaced by `[redacted]`: applied to every string a vendor sends
    /// back before it is kept in an error.
    func scrub(_ text: String) -> String {
        guard secret.count >= 4 else { return text }
        return text.replacingOccurrences(of: secret, with: "[redacted]")
    }

    /// ``scrub(_:)`` for an optional string.
    func scrubbed(_ text: String?) -> String? { text.map { scrub($0) } }
}
