/// How an authorized payment is captured.
public enum CaptureMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// Captured as soon as it is authorized (Stripe `automatic`, Square `autocomplete = true`).
    case automatic
    /// Held as authorized until the app captures or voids it (Stripe `manual`, Square `autocomplete = false`).
    case manual
}

/// What the app asks Tender to charge.
///
/// The ``reference`` is the app's stable identifier of the sale (an order number). It is what makes retries safe:
/// Tender records it before calling the processor, passes it to Stripe in `metadata` and to Square as the
/// `paymentAttemptID` and `referenceID`, and a retry with the same reference returns the existing payment instead
/// of charging again. Never generate a fresh reference for a retry.
///
/// Call ``validate()`` (the facade does) to reject bad input with a specific ``PaymentError``.
public struct PaymentRequest: Hashable, Sendable, Codable {
    /// The amount to charge, excluding ``tip``.
    public var amount: Money
    /// The app's stable reference for this sale. 1...`PaymentRequest/maximumReferenceLength` characters, no
    /// control characters.
    public var reference: String
    /// Automatic or manual capture.
    public var captureMode: CaptureMode
    /// Whether the payment may be taken offline.
    public var offlinePolicy: OfflinePolicy
    /// Key-value pairs passed to the processor. Limited to what Stripe accepts: 50 keys, keys of at most 40
    /// characters, values of at most 500 characters. Keys starting with `tender_` are reserved.
    public var metadata: [String: String]
    /// An optional tip in the same currency, on top of ``amount``.
    public var tip: Money?
    /// An optional free-text note (at most `PaymentRequest/maximumNoteLength` characters).
    public var note: String?
    /// On-reader tipping: when set, the reader asks the customer for a tip suggested on this amount (Stripe's
    /// `tippingConfiguration.eligibleAmount`, e.g. the amount before tax), and the tip chosen is recorded as the
    /// session's ``PaymentSession/tip``. At most ``amount``, in its currency, and not with an app-entered ``tip``.
    /// Needs a reader with ``ReaderFeature/onReaderTipping``. `nil` (the default): the reader asks for no tip.
    public var tipEligibleAmount: Money?

    /// Creates a request. Nothing is checked until ``validate()``.
    public init(amount: Money, reference: String, captureMode: CaptureMode = .automatic,
                offlinePolicy: OfflinePolicy = .default, metadata: [String: String] = [:], tip: Money? = nil,
                note: String? = nil) {
        self.amount = amount
        self.reference = reference
        self.captureMode = captureMode
        self.offlinePolicy = offlinePolicy
        self.metadata = metadata
        self.tip = tip
        self.note = note
    }

    /// Stripe's metadata limit on the number of keys.
    package static let maximumMetadataKeys = 50
    /// Stripe's metadata limit on a key's length.
    package static let maximumMetadataKeyLength = 40
    /// Stripe's metadata limit on a value's length.
    package static let maximumMetadataValueLength = 500
    /// The longest reference accepted (Square's `referenceID` limit is 40 characters).
    package static let maximumReferenceLength = 40
    /// The longest note accepted (Square's `note` limit is 500 characters).
    package static let maximumNoteLength = 500
    /// Tender's sanity ceiling, in major units of any currency: 99,999,999. Anything larger is taken as a mistake,
    /// not a sale. It is not a processor's limit: each processor declares its own maximum per currency
    /// (``ProcessorCapabilities/amountLimits``; Stripe's is eight digits of *minor* units, 999,999.99 USD), which
    /// ``PaymentTerminal`` applies before the processor is called.
    package static let maximumMajorUnits: Int64 = 99_999_999
    /// The metadata key prefix Tender reserves for itself (`tender_reference`).
    package static let reservedMetadataPrefix = "tender_"

    /// The amount plus the tip.
    /// - Throws: ``PaymentError/Code/currencyMismatch`` or ``PaymentError/Code/amountOverflow``.
    public func total() throws(PaymentError) -> Money {
        guard let tip else { return amount }
        return try amount.adding(tip)
    }

    /// Checks the request and throws the first problem found, with a specific code:
    /// ``PaymentError/Code/invalidAmount`` (zero, negative, absurdly large),
    /// ``PaymentError/Code/currencyMismatch`` (tip in another currency),
    /// ``PaymentError/Code/invalidReference``, ``PaymentError/Code/invalidMetadata`` or
    /// ``PaymentError/Code/invalidRequest`` (tip or note).
    public func validate() throws(PaymentError) {
        func fail(_ code: PaymentError.Code, _ message: String) -> PaymentError {
            PaymentError(code, recovery: .fixRequest, phase: .validation, message: message)
        }
        guard amount.minorUnits > 0 else {
            throw fail(.invalidAmount, "The amount must be greater than zero; got \(amount).")
        }
        let maximum = PaymentRequest.maximumMajorUnits * amount.currency.minorUnitsPerMajorUnit
        guard amount.minorUnits <= maximum else {
            throw fail(.invalidAmount, "\(amount) is larger than any card-present sale Tender accepts.")
        }
        if let tip {
            guard tip.currency == amount.currency else {
                throw fail(.currencyMismatch, "The tip is in \(tip.currency.code) but the sale in \(amount.currency.code).")
            }
            guard tip.minorUnits >= 0 else { throw fail(.invalidRequest, "The tip cannot be negative; got \(tip).") }
            let total = try self.total()
            guard total.minorUnits <= maximum else {
                throw fail(.invalidAmount, "The total \(total) is larger than any card-present sale Tender accepts.")
            }
        }
        if let tipEligibleAmount {
            guard tipEligibleAmount.currency == amount.currency else {
                throw fail(.currencyMismatch, "The tip-eligible amount is in \(tipEligibleAmount.currency.code) but the sale in \(amount.currency.code).")
            }
            guard tipEligibleAmount.minorUnits > 0, tipEligibleAmount.minorUnits <= amount.minorUnits else {
                throw fail(.invalidRequest, "The tip-eligible amount must be more than zero and at most the amount; got \(tipEligibleAmount).")
            }
            guard tip == nil else {
                throw fail(.invalidRequest, "A sale takes either an app-entered tip or an on-reader tip, not both.")
            }
        }
        let trimmedReference = reference.trimmingWhitespace()
        guard !trimmedReference.isEmpty else { throw fail(.invalidReference, "The reference is empty.") }
        guard trimmedReference.count == reference.count else {
            throw fail(.invalidReference, "The reference \"\(reference)\" has leading or trailing spaces.")
        }
        guard reference.count <= PaymentRequest.maximumReferenceLength else {
            throw fail(.invalidReference,
                       "The reference is \(reference.count) characters; at most \(PaymentRequest.maximumReferenceLength).")
        }
        guard !reference.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw fail(.invalidReference, "The reference contains control characters.")
        }
        guard metadata.count <= PaymentRequest.maximumMetadataKeys else {
            throw fail(.invalidMetadata,
                       "Metadata has \(metadata.count) keys; processors accept at most \(PaymentRequest.maximumMetadataKeys).")
        }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            guard !key.isEmpty else { throw fail(.invalidMetadata, "A metadata key is empty.") }
            guard key.count <= PaymentRequest.maximumMetadataKeyLength else {
                throw fail(.invalidMetadata,
                           "Metadata key \"\(key.prefix(20))…\" is \(key.count) characters; at most \(PaymentRequest.maximumMetadataKeyLength).")
            }
            guard value.count <= PaymentRequest.maximumMetadataValueLength else {
                throw fail(.invalidMetadata,
                           "Metadata value for \"\(key)\" is \(value.count) characters; at most \(PaymentRequest.maximumMetadataValueLength).")
            }
            guard !key.hasPrefix(PaymentRequest.reservedMetadataPrefix) else {
                throw fail(.invalidMetadata, "Metadata key \"\(key)\" uses the reserved prefix \"tender_\".")
            }
        }
        if let note {
            guard note.count <= PaymentRequest.maximumNoteLength else {
                throw fail(.invalidRequest, "The note is \(note.count) characters; at most \(PaymentRequest.maximumNoteLength).")
            }
        }
    }
}
