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

/// One refund of a payment as the ledger records it: append-only, linked to its session by the reference.
public struct RefundRecord: Hashable, Sendable, Codable, Identifiable {
    /// The refund's idempotency key, also its identity: derived from the payment's scope, reference, vendor payment
    /// attempt and the refund's number (``IdempotencyKey/refund(scope:reference:paymentAttempt:number:)``, e.g.
    /// `acct_1/tml_1/order-1042/1/refund-2`), so a retried refund is the same request at the processor and two
    /// locations' refunds of the same order number never share a key. Refunds recorded before keys were scoped keep
    /// their recorded id (`order-1042/refund-2`) and are still settled under it.
    public var id: String
    /// The payment's reference.
    public var reference: String
    /// 1 for the first refund of the payment, 2 for the second…
    public var number: Int
    /// The amount refunded (at most what is still refundable when it was recorded).
    public var amount: Money
    /// Why, if given.
    public var reason: RefundReason?
    /// Where it stands.
    public var status: RefundStatus
    /// The processor's refund id (Stripe `re_…`, Square refund id), once known.
    public var processorRefundID: String?
    /// Whether it goes through the reader (a Stripe Interac in-person refund) instead of the app's server.
    public var throughReader: Bool
    /// When it was recorded (before the processor was asked).
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date
    /// The error, for a failed refund or one whose outcome is not known yet.
    public var error: PaymentError?

    /// Creates a record.
    public init(id: String, reference: String, number: Int, amount: Money, reason: RefundReason? = nil,
                status: RefundStatus = .pending, processorRefundID: String? = nil, throughReader: Bool = false,
                createdAt: Date, updatedAt: Date? = nil, error: PaymentError? = nil) {
        self.id = id
        self.reference = reference
        self.number = number
        self.amount = amount
        self.reason = reason
        self.status = status
        self.processorRefundID = processorRefundID
        self.throughReader = throughReader
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.error = error
    }

    /// The reference-only key refunds were recorded with before keys were scoped: `"<reference>/refund-<number>"`.
    /// Such refunds keep it as their id; new refunds use ``IdempotencyKey/refund(scope:reference:paymentAttempt:number:)``.
    public static func idempotencyKey(reference: String, number: Int) -> String { "\(reference)/refund-\(number)" }

    /// Checks that `refund` may be added to `session` (whose ``PaymentSession/refunds`` must be complete): same
    /// currency, a positive amount, a captured payment, and pending plus succeeded refunds, this one included, at
    /// most the session's total. Shared by every ledger so the check runs inside the ledger's transaction.
    /// - Throws: ``PaymentError/Code/invalidState`` or ``PaymentError/Code/invalidAmount``.
    public static func checkRefundable(_ refund: RefundRecord, of session: PaymentSession) throws(PaymentError) {
        guard refund.amount.currency == session.total.currency else {
            throw PaymentError(.currencyMismatch, recovery: .fixRequest, phase: .refund,
                               message: "Payment \(session.reference) is in \(session.total.currency.code), not \(refund.amount.currency.code).")
        }
        guard refund.amount.minorUnits > 0 else {
            throw PaymentError(.invalidAmount, recovery: .fixRequest, phase: .refund,
                               message: "A refund must be of a positive amount.")
        }
        let refundable = session.refundableAmount
        guard session.state == .succeeded || (session.state == .forwarded && session.captureMode == .automatic) else {
            throw PaymentError(.invalidState, recovery: session.state == .storedOffline ? .goOnline : .none,
                               phase: .refund,
                               message: "Payment \(session.reference) is \(session.state): only a captured payment can be refunded.")
        }
        guard refund.amount.minorUnits <= refundable.minorUnits else {
            throw PaymentError(.invalidAmount, recovery: .fixRequest, phase: .refund,
                               message: "Refunding \(refund.amount) of payment \(session.reference) would exceed what is left to refund (\(refundable) of the \(session.captured) captured).")
        }
    }
}

/// A change to a recorded refund: its new status and what the processor said. Compare-and-set on the expected
/// status, like ``SessionChange``; only the moves ``RefundStatus/canChange(to:)`` allows (a pending refund settles;
/// a succeeded one may still fail; a failed one never changes again).
public struct RefundChange: Hashable, Sendable {
    /// The refund's id (its idempotency key).
    public var refundID: String
    /// The status it must have for the change to apply.
    public var expectedStatus: RefundStatus
    /// The new status (equal to ``expectedStatus`` to record the processor id or an error without a change).
    public var newStatus: RefundStatus
    /// When.
    public var at: Date
    /// The processor's refund id, if learned.
    public var processorRefundID: String?
    /// The error, if any.
    public var error: PaymentError?

    /// Creates a change.
    public init(refundID: String, expectedStatus: RefundStatus, newStatus: RefundStatus, at: Date,
                processorRefundID: String? = nil, error: PaymentError? = nil) {
        self.refundID = refundID
        self.expectedStatus = expectedStatus
        self.newStatus = newStatus
        self.at = at
        self.processorRefundID = processorRefundID
        self.error = error
    }

    /// Applies the change to a record (shared by every ledger).
    /// - Throws: ``PaymentError/Code/invalidState`` when the record is not in ``expectedStatus``, or when the move
    ///   is not one ``RefundStatus/canChange(to:)`` allows (a failed refund changing at all, a succeeded one becoming
    ///   pending).
    public func apply(to record: inout RefundRecord) throws(PaymentError) {
        guard record.status == expectedStatus else {
            throw PaymentError(.invalidState, recovery: .retrySamePayment, phase: .refund,
                               message: "Refund \(refundID) is \(record.status), not \(expectedStatus) as expected.")
        }
        if newStatus != expectedStatus, !expectedStatus.canChange(to: newStatus) {
            throw PaymentError(.invalidState, recovery: .none, phase: .refund,
                               message: "Refund \(refundID) is already \(expectedStatus); it cannot become \(newStatus).")
        }
        record.status = newStatus
        if let processorRefundID { record.processorRefundID = processorRefundID }
        if let error { record.error = error }
        record.updatedAt = at
    }
}

/// What an app's server is asked to refund.
public struct RefundRequest: Hashable, Sendable {
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
public struct RefundResult: Hashable, Sendable {
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
