/// The app's limits on the risk it takes with offline payments, enforced by Tender before the processor is called,
/// identically for every processor.
///
/// A payment is stored offline only when all four hold after it: its amount is at most the per-payment maximum for
/// its currency; the stored total in its currency stays at most the stored-total maximum; the stored count stays at
/// most the count maximum; and the oldest stored payment is younger than the age maximum. A currency with no
/// per-payment or stored-total entry cannot be taken offline at all: offline is opt-in per currency.
///
/// The processor's own limits (``ProcessorCapabilities/offlineLimits``) are merged in with `merged(with:source:)`;
/// the tighter limit wins and the error names which one refused the payment.
public struct OfflineRiskLimits: Hashable, Sendable, Codable {
    /// The largest single offline payment (amount plus tip), per currency, in minor units.
    public var perPaymentMaximum: [Currency: Int64]
    /// The largest total stored offline, per currency, in minor units.
    public var storedTotalMaximum: [Currency: Int64]
    /// The largest number of stored offline payments, all currencies together. `nil`: no count limit.
    public var storedCountMaximum: Int?
    /// The oldest a stored payment may be, in seconds, before Tender stops taking new offline payments. `nil`: no
    /// age limit.
    public var oldestStoredAgeMaximum: Double?

    /// Creates limits. The defaults allow nothing offline.
    public init(perPaymentMaximum: [Currency: Int64] = [:], storedTotalMaximum: [Currency: Int64] = [:],
                storedCountMaximum: Int? = nil, oldestStoredAgeMaximum: Double? = nil) {
        self.perPaymentMaximum = perPaymentMaximum
        self.storedTotalMaximum = storedTotalMaximum
        self.storedCountMaximum = storedCountMaximum
        self.oldestStoredAgeMaximum = oldestStoredAgeMaximum
    }

    /// No offline payments in any currency.
    public static let none = OfflineRiskLimits()

    /// Convenience: the same limits for one currency, in `Money`.
    public static func single(perPayment: Money, storedTotal: Money, storedCount: Int? = nil,
                              oldestStoredAge: Double? = nil) -> OfflineRiskLimits {
        OfflineRiskLimits(perPaymentMaximum: [perPayment.currency: perPayment.minorUnits],
                          storedTotalMaximum: [storedTotal.currency: storedTotal.minorUnits],
                          storedCountMaximum: storedCount, oldestStoredAgeMaximum: oldestStoredAge)
    }
}

/// One limit with the source it came from.
package struct SourcedLimit<Value: Hashable & Sendable & Comparable>: Hashable, Sendable {
    /// The limit.
    package var value: Value
    /// Whose limit it is.
    package var source: LimitSource

    /// Creates a sourced limit.
    package init(_ value: Value, source: LimitSource) {
        self.value = value
        self.source = source
    }

    /// The tighter of two optional limits; ties keep the first (Tender's, by convention).
    static func tighter(_ a: SourcedLimit?, _ b: SourcedLimit?) -> SourcedLimit? {
        switch (a, b) {
        case (nil, nil): nil
        case (let x?, nil): x
        case (nil, let y?): y
        case (let x?, let y?): y.value < x.value ? y : x
        }
    }
}

/// Tender's limits merged with a processor's: for each limit, the tighter value and its source.
package struct EffectiveOfflineLimits: Hashable, Sendable {
    /// Per-payment maxima per currency.
    package var perPaymentMaximum: [Currency: SourcedLimit<Int64>]
    /// Stored-total maxima per currency.
    package var storedTotalMaximum: [Currency: SourcedLimit<Int64>]
    /// Stored-count maximum.
    package var storedCountMaximum: SourcedLimit<Int>?
    /// Oldest-stored-age maximum in seconds.
    package var oldestStoredAgeMaximum: SourcedLimit<Double>?
    /// The processor's device-wide stored-count maximum.
    package var deviceStoredCountMaximum: SourcedLimit<Int>?
    /// The processor's offline window in seconds since the device was last online.
    package var offlineWindowMaximum: SourcedLimit<Double>?

    /// Creates effective limits.
    package init(perPaymentMaximum: [Currency: SourcedLimit<Int64>] = [:],
                storedTotalMaximum: [Currency: SourcedLimit<Int64>] = [:],
                storedCountMaximum: SourcedLimit<Int>? = nil, oldestStoredAgeMaximum: SourcedLimit<Double>? = nil,
                deviceStoredCountMaximum: SourcedLimit<Int>? = nil, offlineWindowMaximum: SourcedLimit<Double>? = nil) {
        self.perPaymentMaximum = perPaymentMaximum
        self.storedTotalMaximum = storedTotalMaximum
        self.storedCountMaximum = storedCountMaximum
        self.oldestStoredAgeMaximum = oldestStoredAgeMaximum
        self.deviceStoredCountMaximum = deviceStoredCountMaximum
        self.offlineWindowMaximum = offlineWindowMaximum
    }
}

extension OfflineRiskLimits {
    /// Merges these (Tender's) limits with a processor's. A currency is allowed offline only if Tender allows it;
    /// the processor can only tighten. Where both set a limit, the smaller wins and keeps its source.
    package func merged(with processor: ProcessorOfflineLimits?, source: LimitSource) -> EffectiveOfflineLimits {
        var perPayment: [Currency: SourcedLimit<Int64>] = [:]
        var storedTotal: [Currency: SourcedLimit<Int64>] = [:]
        for (currency, value) in perPaymentMaximum {
            perPayment[currency] = SourcedLimit.tighter(
                SourcedLimit(value, source: .tender),
                processor?.perPaymentMaximum[currency].map { SourcedLimit($0, source: source) })
        }
        for (currency, value) in storedTotalMaximum {
            storedTotal[currency] = SourcedLimit.tighter(
                SourcedLimit(value, source: .tender),
                processor?.storedTotalMaximum[currency].map { SourcedLimit($0, source: source) })
        }
        return EffectiveOfflineLimits(
            perPaymentMaximum: perPayment,
            storedTotalMaximum: storedTotal,
            storedCountMaximum: SourcedLimit.tighter(
                storedCountMaximum.map { SourcedLimit($0, source: .tender) },
                processor?.storedCountMaximum.map { SourcedLimit($0, source: source) }),
            oldestStoredAgeMaximum: SourcedLimit.tighter(
                oldestStoredAgeMaximum.map { SourcedLimit($0, source: .tender) },
                processor?.storedAgeMaximum.map { SourcedLimit($0, source: source) }),
            deviceStoredCountMaximum: processor?.deviceStoredCountMaximum.map { SourcedLimit($0, source: source) },
            offlineWindowMaximum: processor?.offlineWindowMaximum.map { SourcedLimit($0, source: source) })
    }
}
