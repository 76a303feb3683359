/// How a session's vendor identifiers are derived (``PaymentSession/keyScheme``): kept per session so that a payment
/// recorded before keys were scoped is continued, looked up and abandoned under the ids it was started with.
package struct IdempotencyKeyScheme: Hashable, Sendable, Codable, RawRepresentable, CustomStringConvertible {
    /// The stored number.
    package let rawValue: Int
    /// Creates a scheme from its stored number.
    package init(rawValue: Int) { self.rawValue = rawValue }
    /// `reference-only` or `scoped`.
    package var description: String { self == .referenceOnly ? "reference-only" : "scoped" }

    /// Sessions recorded before ledger schema 6: the vendor attempt id is the reference (`"<reference>#<n>"` after
    /// the first vendor payment).
    package static let referenceOnly = IdempotencyKeyScheme(rawValue: 1)
    /// Sessions recorded since: the vendor attempt id is an ``IdempotencyKey`` with the scope.
    package static let scoped = IdempotencyKeyScheme(rawValue: 2)

    /// The scope a vendor attempt id is qualified with under this scheme (`nil` for ``referenceOnly``).
    package func attemptIDScope(_ scope: LedgerScope) -> LedgerScope? { self == .referenceOnly ? nil : scope }
}
