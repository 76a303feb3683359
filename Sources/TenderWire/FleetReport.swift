public import Foundation

/// What one device holds of money not yet safe with a processor, for the merchant's fleet view: a device's ledger
/// knows every payment it stored offline before the processor does, and neither vendor's dashboard shows a payment
/// until it arrives. The device sends one (`FleetReporter` in TenderBackend) and the merchant's server keeps the
/// latest per device.
///
/// References, amounts, states and times travel; card data never does: no card number, expiry, track data or
/// cardholder name (the type has no field for them).
public struct FleetReport: Codable, Sendable, Hashable {
    /// The app's id for this device (an install id; never a hardware identifier).
    public var deviceID: String
    /// The account and location the device's terminal works for.
    public var scope: LedgerScope
    /// When the device made the report.
    public var generatedAt: Date
    /// The app's version, when it gives one.
    public var appVersion: String?
    /// Tender's version on the device.
    public var tenderVersion: String
    /// Per currency, what is not yet safe (sorted by currency code).
    public var totals: [Totals]
    /// The payments not yet safe, oldest first (at most ``maximumPayments``; ``paymentsLeftOut`` says how many more).
    public var payments: [Payment]
    /// How many payments ``payments`` left out.
    public var paymentsLeftOut: Int
    /// The last error a payment failed to forward with, if any.
    public var lastForwardingError: PaymentError?
    /// Why the ledger could not be read in full, when it could not (`nil`: healthy).
    public var ledgerProblem: String?

    /// The most payments a report lists.
    public static let maximumPayments = 500

    /// Creates a report.
    public init(deviceID: String, scope: LedgerScope, generatedAt: Date, appVersion: String?, tenderVersion: String,
                totals: [Totals], payments: [Payment], paymentsLeftOut: Int = 0,
                lastForwardingError: PaymentError? = nil, ledgerProblem: String? = nil) {
        self.deviceID = deviceID
        self.scope = scope
        self.generatedAt = generatedAt
        self.appVersion = appVersion
        self.tenderVersion = tenderVersion
        self.totals = totals
        self.payments = payments
        self.paymentsLeftOut = paymentsLeftOut
        self.lastForwardingError = lastForwardingError
        self.ledgerProblem = ledgerProblem
    }

    /// The same report but for when it was made: what tells whether anything changed.
    public func sameContent(as other: FleetReport) -> Bool {
        var mine = self, theirs = other
        mine.generatedAt = .distantPast
        theirs.generatedAt = .distantPast
        return mine == theirs
    }

    /// Where a payment stands, as the fleet view counts it.
    public enum Standing: String, Codable, Sendable, Hashable, CaseIterable {
        /// Taken offline, on the device, not yet with the processor (stored, or its forwarding failed and will be
        /// tried again). Lost with the device.
        case storedOffline
        /// With the processor, authorized, waiting for a capture (manual capture): not money until captured.
        case forwardedUnconfirmed
        /// Whether the customer was charged is not known yet (reconciliation will tell).
        case outcomeUnknown
        /// Forwarded, then declined by the issuer: the merchant bears it; follow up with the customer.
        case declinedAfterForwarding
    }

    /// A count and a total, in minor units.
    public struct Amount: Codable, Sendable, Hashable {
        public var count: Int
        public var minorUnits: Int64

        public init(count: Int = 0, minorUnits: Int64 = 0) {
            self.count = count
            self.minorUnits = minorUnits
        }
    }

    /// One currency's totals.
    public struct Totals: Codable, Sendable, Hashable {
        /// The ISO 4217 code.
        public var currency: String
        public var storedOffline: Amount
        public var forwardedUnconfirmed: Amount
        public var outcomeUnknown: Amount
        public var declinedAfterForwarding: Amount
        /// Refunds asked for and not yet confirmed by the processor.
        public var refundsPending: Amount

        public init(currency: String, storedOffline: Amount = Amount(), forwardedUnconfirmed: Amount = Amount(),
                    outcomeUnknown: Amount = Amount(), declinedAfterForwarding: Amount = Amount(),
                    refundsPending: Amount = Amount()) {
            self.currency = currency
            self.storedOffline = storedOffline
            self.forwardedUnconfirmed = forwardedUnconfirmed
            self.outcomeUnknown = outcomeUnknown
            self.declinedAfterForwarding = declinedAfterForwarding
            self.refundsPending = refundsPending
        }
    }

    /// One payment not yet safe.
    public struct Payment: Codable, Sendable, Hashable {
        /// The app's reference (the order).
        public var reference: String
        /// `stripe`, `square`…
        public var processor: String
        /// The processor's id, once it has one (after forwarding).
        public var processorPaymentID: String?
        /// The total (amount and tip).
        public var amount: Money
        public var standing: Standing
        /// When the card was taken.
        public var takenAt: Date
        /// When the processor stops accepting it, where the processor documents a deadline (Square: 24 hours
        /// after it was taken offline); `nil` otherwise.
        public var deadline: Date?

        public init(reference: String, processor: String, processorPaymentID: String?, amount: Money,
                    standing: Standing, takenAt: Date, deadline: Date?) {
            self.reference = reference
            self.processor = processor
            self.processorPaymentID = processorPaymentID
            self.amount = amount
            self.standing = standing
            self.takenAt = takenAt
            self.deadline = deadline
        }
    }
}

/// What can make a fleet report: `PaymentTerminal` (Tender), or a test's stand-in.
public protocol FleetReportSource: Sendable {
    /// The report now, for the device `deviceID`.
    func fleetReport(deviceID: String, appVersion: String?) async -> FleetReport
}
