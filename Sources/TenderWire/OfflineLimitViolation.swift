/// Where a limit comes from: the app's own ``OfflineRiskLimits`` or the processor's (reported through
/// ``ProcessorCapabilities``).
public enum LimitSource: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The limit the app configured in Tender.
    case tender
    /// A limit the processor or the merchant's processor settings impose, named by the processor.
    case processor(String)

    /// `Tender's limit` or `stripe's limit`.
    public var description: String {
        switch self {
        case .tender: "Tender's risk limit"
        case .processor(let name): "\(name)'s limit"
        }
    }
}

/// The four kinds of offline risk limit.
public enum OfflineLimitKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// The largest single offline payment.
    case perPaymentMaximum
    /// The largest total of stored, unforwarded payments in one currency.
    case storedTotalMaximum
    /// The largest number of stored, unforwarded payments.
    case storedCountMaximum
    /// The oldest a stored payment may be before no more offline payments are taken.
    case oldestStoredAge
    /// The largest number of payments stored on the device for every account together (Square's 1,000).
    case deviceStoredCountMaximum
    /// How long the device may take offline payments since it was last online (Square's 24 hours).
    case offlineWindow
}

/// The details of the limit that refused an offline payment, carried by ``PaymentError/limit``.
public struct OfflineLimitViolation: Hashable, Sendable, Codable {
    /// Which kind of limit.
    public var kind: OfflineLimitKind
    /// Whose limit: Tender's or the processor's.
    public var source: LimitSource
    /// The limit, in the unit of its kind: minor units of ``currency`` for amounts, a count, or seconds.
    public var limit: Int64
    /// What the payment would have made it, in the same unit.
    public var attempted: Int64
    /// The currency for amount limits.
    public var currency: Currency?

    /// Creates a violation record.
    public init(kind: OfflineLimitKind, source: LimitSource, limit: Int64, attempted: Int64, currency: Currency?) {
        self.kind = kind
        self.source = source
        self.limit = limit
        self.attempted = attempted
        self.currency = currency
    }
}
