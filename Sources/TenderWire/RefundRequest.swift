import Foundation

/// Where a refund stands. An open set, like ``PaymentError/Code``: compare with the static members; a `switch`
/// needs a `default`, so statuses can be added without breaking anyone.
///
/// | Tender | Stripe `refund.status` | Square `PaymentRefund.status` |
/// |---|---|---|
/// | ``pending`` | `pending`, `requires_action` | `PENDING` |
/// | ``succeeded`` | `succeeded` | `COMPLETED` |
/// | ``failed`` | `failed`, `canceled` | `REJECTED`, `FAILED` |
public struct RefundStatus: Hashable, Sendable, Codable, RawRepresentable, CustomStringConvertible {
    /// The stable identifier, e.g. `"pending"`. Safe to persist.
    public let rawValue: String
    /// Creates a status from its identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The identifier.
    public var description: String { rawValue }

    /// Recorded before the processor was asked, or asked and not yet settled. Counts against the refundable
    /// amount.
    public static let pending = RefundStatus(rawValue: "pending")
    /// The processor refunded it. Counts against the refundable amount. Not quite final: a processor may still
    /// report it ``failed`` for a while (Stripe documents refunds that fail after succeeding, e.g. to an expired or
    /// canceled card), so the core looks it up again until the processor's
    /// ``ProcessorCapabilities/refundChangeWindow`` has passed.
    public static let succeeded = RefundStatus(rawValue: "succeeded")
    /// The processor refused it or it failed; nothing was refunded (or what was refunded came back). Final; the
    /// amount is refundable again.
    public static let failed = RefundStatus(rawValue: "failed")

    /// No further change is possible: only ``failed``. A ``succeeded`` refund can still fail (see
    /// ``canChange(to:)``).
    public var isFinal: Bool { self == .failed }

    /// Whether a refund may move from this status to `next`: a ``pending`` refund to any other status; a
    /// ``succeeded`` one only to ``failed`` (the one later change a processor documents); a ``failed`` one never.
    /// A status the core does not know (added later) may become any known one, never the reverse.
    public func canChange(to next: RefundStatus) -> Bool {
        guard next != self else { return false }
        switch self {
        case .failed: return false
        case .succeeded: return next == .failed
        default: return next == .pending || next == .succeeded || next == .failed
        }
    }
}

/// Why a refund is made, passed to the processor where it takes one. An open set.
///
/// Stripe's `reason` takes `duplicate`, `fraudulent` and `requested_by_customer`; Square's `reason` is free text.
public struct RefundReason: Hashable, Sendable, Codable, RawRepresentable, CustomStringConvertible {
    /// The identifier sent to the processor, e.g. `"requested_by_customer"`.
    public let rawValue: String
    /// Creates a reason (free text is passed as is to Square; Stripe receives only its own three values).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The identifier.
    public var description: String { rawValue }

    /// The customer asked for it.
    public static let requestedByCustomer = RefundReason(rawValue: "requested_by_customer")
    /// The payment was taken twice.
    public static let duplicate = RefundReason(rawValue: "duplicate")
    /// The payment was fraudulent.
    public static let fraudulent = RefundReason(rawValue: "fraudulent")
}

/// What an app's server is asked to refund.
public struct RefundRequest: Hashable, Sendable, Codable {
    /// The processor's name (`"stripe"`, `"square"`).
    public var processor: String
    /// The payment's reference.
    public var reference: String
    /// The processor's payment id (Stripe PaymentIntent id, Square payment id).
    public var processorPaymentID: String
    /// How much.
    public var amount: Money
    /// Why, if given.
    public var reason: RefundReason?
    /// The idempotency key, computed on the device and sent unchanged: the same for every retry of this refund
    /// (``RefundRecord/id``). The server fits it to its vendor's length limit
    /// (``IdempotencyKey/fitted(_:maximumLength:)``).
    public var idempotencyKey: String

    /// Creates a request.
    public init(processor: String, reference: String, processorPaymentID: String, amount: Money,
                reason: RefundReason? = nil, idempotencyKey: String) {
        self.processor = processor
        self.reference = reference
        self.processorPaymentID = processorPaymentID
        self.amount = amount
        self.reason = reason
        self.idempotencyKey = idempotencyKey
    }
}

/// What a processor said of a refund.
public struct RefundResult: Hashable, Sendable, Codable {
    /// The processor's refund id.
    public var processorRefundID: String?
    /// Where it stands.
    public var status: RefundStatus
    /// Why it failed, for a failed refund.
    public var error: PaymentError?

    /// Creates a result.
    public init(processorRefundID: String?, status: RefundStatus, error: PaymentError? = nil) {
        self.processorRefundID = processorRefundID
        self.status = status
        self.error = error
    }
}

/// The app's server-side refunds: both vendors refund on the server (Stripe `POST /v1/refunds`; Square
/// `RefundPayment`). `TenderServer` implements it for both; a test double can too.
public protocol PaymentRefundService: Sendable {
    /// Refunds `request.amount` of the payment, idempotently under `request.idempotencyKey`: a retry with the same
    /// key, payment and amount returns the same refund, never a second one. A refund the processor already holds
    /// under the key for another payment or amount (a ledger restored from a backup re-using refund number *n*) is
    /// never returned as this one's result: throw ``PaymentError/Code/duplicateReference`` with the vendor's own
    /// idempotency error (Stripe `idempotency_error`, Square `IDEMPOTENCY_KEY_REUSED`).
    /// - Throws: a ``PaymentError`` when the processor refused it (then nothing was refunded) or when the server
    ///   could not be reached (the outcome is then unknown and ``lookUpRefund(processor:processorPaymentID:idempotencyKey:processorRefundID:)``
    ///   settles it).
    func refund(_ request: RefundRequest) async throws -> RefundResult

    /// What the processor holds of a refund made under `idempotencyKey` (or with this refund id): `nil` only when
    /// the processor certainly has none (it was never created); throw when it cannot tell. Recovery calls it for
    /// refunds left pending by a crash or a lost answer.
    func lookUpRefund(processor: String, processorPaymentID: String, idempotencyKey: String,
                      processorRefundID: String?) async throws -> RefundResult?
}
