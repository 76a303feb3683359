/// The one error type of Tender: what went wrong, what to do about it, when it happened, and what the vendor said.
///
/// Every failure, whether Tender found it (bad input, a risk limit) or a processor reported it (a Stripe
/// `ErrorCode`, a Square `PaymentError`), arrives as a `PaymentError`:
/// - ``code`` is an open set of static members (``Code/cardDeclined``, ``Code/offlineNotAllowed``…), so new codes
///   can be added without breaking anyone's `switch`;
/// - ``recovery`` is what the cashier or the app should do next;
/// - ``phase`` is the step that failed;
/// - ``vendor`` keeps the processor's own error intact (name, numeric code, message) for logs and support.
///
/// Its `description` is a sentence a cashier can act on, for example
/// `"Card declined: insufficient funds. Ask for another card. (stripe declinedByStripeAPI 6000, during confirmation)"`.
public struct PaymentError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// What went wrong. An open set: compare with the static members, e.g. `error.code == .cardDeclined`.
    public struct Code: Hashable, Sendable, Codable, RawRepresentable, CustomStringConvertible {
        /// The stable identifier of the code, e.g. `"card_declined"`. Safe to persist.
        public let rawValue: String
        /// Creates a code from its identifier. Adapters should prefer the static members.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }
    }

    /// What to do next. The recovery never suggests charging again under a new reference.
    public enum Recovery: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
        /// Try the same payment again, with the same reference: it is safe, it never charges twice.
        case retrySamePayment
        /// The card was refused or could not be used: ask the customer for another card or tender.
        case collectAnotherCard
        /// The device must get back online (or wait for forwarding) before this can succeed.
        case goOnline
        /// Reconnect the reader (it disconnected, timed out, or lost its pairing).
        case reconnectReader
        /// Update the reader's software (usually while online), then retry.
        case updateReader
        /// The request itself is wrong (amount, currency, reference, metadata): fix it before retrying.
        case fixRequest
        /// The integration or account is misconfigured (sign-in, permissions, offline not enabled, SDK too old):
        /// a developer or the merchant must act; retrying alone will not help.
        case fixIntegration
        /// Wait for the operation in progress, or for a background step such as forwarding, then retry.
        case waitAndRetry
        /// Nothing to do: the operation ended as the user asked (for example a cancellation), or the payment is
        /// already final.
        case none

        /// Advice a cashier can act on.
        public var description: String {
            switch self {
            case .retrySamePayment: "Try again; the same payment is retried, never charged twice."
            case .collectAnotherCard: "Ask for another card."
            case .goOnline: "Reconnect the device to the internet."
            case .reconnectReader: "Reconnect the card reader."
            case .updateReader: "Update the card reader's software."
            case .fixRequest: "Correct the sale and try again."
            case .fixIntegration: "Contact the app's support: the setup needs fixing."
            case .waitAndRetry: "Wait a moment, then try again."
            case .none: "No action needed."
            }
        }

        /// Whether retrying the same payment may succeed without any other change.
        public var isRetryable: Bool { self == .retrySamePayment || self == .waitAndRetry }
    }

    /// The step of a payment (or of the surrounding work) in which the error happened.
    public enum Phase: String, Hashable, Sendable, Codable, CaseIterable {
        /// Checking the request before anything else happens.
        case validation
        /// Deciding online or offline under the policy and risk limits.
        case routing
        /// Signing in to the processor account or location, or fetching credentials.
        case authorization
        /// Discovering, connecting, or keeping a reader connected.
        case readerConnection
        /// Installing reader software.
        case softwareUpdate
        /// Creating the payment with the processor.
        case creation
        /// Waiting for and reading the card.
        case collection
        /// Authorizing the payment (Stripe confirm, Square processing).
        case processing
        /// Capturing or voiding an authorized payment.
        case capture
        /// Canceling a payment in progress.
        case cancellation
        /// Refunding a captured payment.
        case refund
        /// Forwarding stored offline payments to the processor.
        case forwarding
        /// Matching the ledger with what the processor holds.
        case reconciliation
        /// Reading or writing the durable ledger.
        case ledger
        /// Not known (for example an unrecognized vendor error outside a payment).
        case unknown
    }

    /// The processor's own error, kept intact.
    public struct VendorError: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The processor, e.g. `"stripe"` or `"square"`.
        public var processor: String
        /// The vendor's case name, e.g. `"declinedByStripeAPI"` or `"offlineStoredAmountExceeded"`.
        public var name: String
        /// The vendor's numeric code when it publishes one (Stripe's `6000`); `nil` for Square, which publishes
        /// none.
        public var numericCode: Int?
        /// The vendor's message, if any.
        public var message: String?
        /// A decline code from the card network or issuer (`insufficient_funds`), when given.
        public var declineCode: String?
        /// The vendor's error class, from a server API: Stripe's `type` (`card_error`), Square's `category`
        /// (`PAYMENT_METHOD_ERROR`).
        public var category: String?
        /// The request field at fault, from a server API: Stripe's `param`, Square's `field`.
        public var field: String?
        /// The vendor's id of the failed request, for its support (Stripe's `Request-Id` header).
        public var requestID: String?

        /// Creates a vendor error record.
        public init(processor: String, name: String, numericCode: Int? = nil, message: String? = nil,
                    declineCode: String? = nil, category: String? = nil, field: String? = nil,
                    requestID: String? = nil) {
            self.processor = processor
            self.name = name
            self.numericCode = numericCode
            self.message = message
            self.declineCode = declineCode
            self.category = category
            self.field = field
            self.requestID = requestID
        }

        /// `stripe declinedByStripeAPI 6000`.
        public var description: String {
            var parts = [processor, name]
            if let numericCode { parts.append(String(numericCode)) }
            if let declineCode { parts.append("(\(declineCode))") }
            return parts.joined(separator: " ")
        }
    }

    /// What went wrong.
    public var code: Code
    /// What to do next.
    public var recovery: Recovery
    /// When it happened.
    public var phase: Phase
    /// A human sentence describing the problem (without the recovery advice, which ``description`` appends).
    public var message: String
    /// The processor's raw error, when a processor reported it.
    public var vendor: VendorError?
    /// The risk limit that refused an offline payment, when that is the cause.
    public var limit: OfflineLimitViolation?

    /// Creates an error.
    public init(_ code: Code, recovery: Recovery, phase: Phase, message: String, vendor: VendorError? = nil,
                limit: OfflineLimitViolation? = nil) {
        self.code = code
        self.recovery = recovery
        self.phase = phase
        self.message = message
        self.vendor = vendor
        self.limit = limit
    }

    /// Whether retrying the same payment (same reference) may succeed.
    public var isRetryable: Bool { recovery.isRetryable }

    /// The message, the advice, and the vendor's raw error.
    public var description: String {
        var text = message
        if recovery != .none { text += " " + recovery.description }
        var context: [String] = []
        if let vendor { context.append(vendor.description) }
        context.append("during \(phase.rawValue)")
        return text + " (" + context.joined(separator: ", ") + ")"
    }

    /// Returns a copy with a different phase (an adapter knows the phase better than a table does).
    public func inPhase(_ phase: Phase) -> PaymentError {
        var copy = self
        copy.phase = phase
        return copy
    }
}

extension PaymentError.Code {
    // MARK: Request validation
    /// The amount is zero, negative, not finite, or beyond what a processor accepts.
    public static let invalidAmount = Self(rawValue: "invalid_amount")
    /// Arithmetic on amounts overflowed 64-bit minor units.
    public static let amountOverflow = Self(rawValue: "amount_overflow")
    /// The currency code is malformed, unknown, or not supported by the processor.
    public static let invalidCurrency = Self(rawValue: "invalid_currency")
    /// Two amounts in different currencies were combined.
    public static let currencyMismatch = Self(rawValue: "currency_mismatch")
    /// The app's reference is empty, too long, or contains control characters.
    public static let invalidReference = Self(rawValue: "invalid_reference")
    /// The metadata has too many keys, or a key or value that is too long or empty.
    public static let invalidMetadata = Self(rawValue: "invalid_metadata")
    /// Another field of the request is invalid (tip, note, parameters the processor refused).
    public static let invalidRequest = Self(rawValue: "invalid_request")

    // MARK: Routing and offline
    /// The policy requires online processing and the device is offline.
    public static let offlineNotAllowed = Self(rawValue: "offline_not_allowed")
    /// Offline payments are not enabled for this processor, account, location, reader or environment.
    public static let offlineUnavailable = Self(rawValue: "offline_unavailable")
    /// A per-payment offline maximum (Tender's or the processor's) would be exceeded.
    public static let offlinePaymentLimitExceeded = Self(rawValue: "offline_payment_limit_exceeded")
    /// The stored offline total for the currency would exceed a limit.
    public static let offlineStoredTotalExceeded = Self(rawValue: "offline_stored_total_exceeded")
    /// The number of stored offline payments would exceed a limit.
    public static let offlineStoredCountExceeded = Self(rawValue: "offline_stored_count_exceeded")
    /// The oldest stored offline payment is older than allowed; forward before taking more offline.
    public static let offlineStoredAgeExceeded = Self(rawValue: "offline_stored_age_exceeded")
    /// The card or read method cannot be used offline (Interac, swipe, online PIN).
    public static let cardNotSupportedOffline = Self(rawValue: "card_not_supported_offline")
    /// Offline storage on the device is unavailable (locked device, encryption keys missing).
    public static let offlineStorageUnavailable = Self(rawValue: "offline_storage_unavailable")

    // MARK: Network
    /// The device is not connected to the internet.
    public static let networkUnavailable = Self(rawValue: "network_unavailable")
    /// A request timed out; whether it took effect may be unknown.
    public static let timedOut = Self(rawValue: "timed_out")

    // MARK: Reader
    /// No reader is connected.
    public static let readerNotConnected = Self(rawValue: "reader_not_connected")
    /// The reader could not be found, connected or reached.
    public static let readerConnectionFailed = Self(rawValue: "reader_connection_failed")
    /// The reader disconnected.
    public static let readerDisconnected = Self(rawValue: "reader_disconnected")
    /// The reader is busy with another operation.
    public static let readerBusy = Self(rawValue: "reader_busy")
    /// Connecting while offline was refused by the processor's rules (for example Stripe's 30-day rules).
    public static let readerOfflineConnectionRefused = Self(rawValue: "reader_offline_connection_refused")
    /// The reader needs a software update before it can take payments.
    public static let readerUpdateRequired = Self(rawValue: "reader_update_required")
    /// A reader software update failed.
    public static let readerUpdateFailed = Self(rawValue: "reader_update_failed")
    /// The reader's battery is too low for the operation.
    public static let readerBatteryLow = Self(rawValue: "reader_battery_low")
    /// The reader reported a hardware or internal fault.
    public static let readerFault = Self(rawValue: "reader_fault")
    /// Bluetooth, NFC or location access is disabled or denied on the device.
    public static let devicePermissionDenied = Self(rawValue: "device_permission_denied")

    // MARK: Card and payment
    /// The card was declined (by the issuer, the network, the processor or the reader).
    public static let cardDeclined = Self(rawValue: "card_declined")
    /// The card could not be read, was removed, or timed out.
    public static let cardReadFailed = Self(rawValue: "card_read_failed")
    /// The card has expired.
    public static let cardExpired = Self(rawValue: "card_expired")
    /// The card or payment method is not supported.
    public static let cardNotSupported = Self(rawValue: "card_not_supported")
    /// The payment was canceled (by the app, the cashier or the customer).
    public static let canceled = Self(rawValue: "canceled")
    /// Another payment is already in progress.
    public static let paymentInProgress = Self(rawValue: "payment_in_progress")
    /// The reference was already used by a different request, or the processor refused a reused attempt id.
    public static let duplicateReference = Self(rawValue: "duplicate_reference")
    /// Whether the payment (or refund) went through is not known (a timeout, a nil intent, a crash, or a ledger
    /// that could not record the processor's answer: the card may have been charged). It is resolved by
    /// reconciliation, never by charging again: retry the same reference.
    public static let outcomeUnknown = Self(rawValue: "outcome_unknown")
    /// The payment is not in a state that allows the operation (e.g. capture before forwarding).
    public static let invalidState = Self(rawValue: "invalid_state")
    /// A processor reported a state change that the session state machine does not allow.
    public static let illegalTransition = Self(rawValue: "illegal_transition")
    /// No session has this reference.
    public static let unknownReference = Self(rawValue: "unknown_reference")
    /// Capturing or voiding failed.
    public static let captureFailed = Self(rawValue: "capture_failed")
    /// The authorization expired before it was captured (Stripe releases uncaptured card-present authorizations
    /// after two days; Square applies the payment's delay action when its `delay_duration` ends): the funds went
    /// back to the customer and the payment cannot be captured. Take a new payment if it is still owed.
    public static let authorizationExpired = Self(rawValue: "authorization_expired")
    /// The authorization must be renewed before it can be captured (Stripe `requires_reauthorization`); capturing
    /// now fails. Renew it on the server or take a new payment.
    public static let reauthorizationRequired = Self(rawValue: "reauthorization_required")
    /// A refund failed at the issuer (Stripe `refundFailed`). Tender has no refund flow yet; the code keeps the
    /// vendor's meaning when a refund is reported.
    public static let refundFailed = Self(rawValue: "refund_failed")
    /// A stored offline payment could not be forwarded.
    public static let forwardingFailed = Self(rawValue: "forwarding_failed")
    /// The processor's server is rate-limiting the app's requests (HTTP 429, Stripe `rate_limit`, Square
    /// `RATE_LIMITED`): wait, then retry the same request.
    public static let rateLimited = Self(rawValue: "rate_limited")

    // MARK: Integration and account
    /// The app is not signed in to the processor, or its credentials are invalid or expired.
    public static let notAuthorized = Self(rawValue: "not_authorized")
    /// The processor account, location or configuration does not allow the operation.
    public static let configurationError = Self(rawValue: "configuration_error")
    /// The feature is not available for this account, reader or SDK.
    public static let featureUnavailable = Self(rawValue: "feature_unavailable")
    /// The app used the processor SDK incorrectly (a bug in the integration).
    public static let integrationError = Self(rawValue: "integration_error")
    /// Test and live data were mixed, or an operation targeted another account.
    public static let accountMismatch = Self(rawValue: "account_mismatch")
    /// Stored, unforwarded payments would be lost by the requested action (sign out, switch, upgrade).
    public static let unforwardedPaymentsAtRisk = Self(rawValue: "unforwarded_payments_at_risk")

    // MARK: Ledger
    /// The ledger file is corrupt, truncated, foreign, of a newer schema, or cannot be written. A payment or refund
    /// refused with it was not sent to the processor; once the processor was asked, a ledger failure is reported as
    /// ``outcomeUnknown`` instead (the card may have been charged).
    public static let ledgerUnavailable = Self(rawValue: "ledger_unavailable")

    // MARK: Fallback
    /// The processor reported an error Tender does not recognize (a future SDK's code). The recovery is
    /// ``PaymentError/Recovery/retrySamePayment``: retrying the same payment is always safe, and a payment in
    /// flight is treated as ``outcomeUnknown`` until reconciled. It is never taken as a success or a decline.
    public static let unrecognizedVendorError = Self(rawValue: "unrecognized_vendor_error")
    /// An internal error in Tender or the processor SDK.
    public static let unexpected = Self(rawValue: "unexpected")
}
