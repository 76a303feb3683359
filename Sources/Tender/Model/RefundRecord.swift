public import Foundation

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
    /// Whether it goes through the reader (a Stripe Interac in-person refund) instead of the app's server: the
    /// core's routing, decided from the payment's card and the processor's capabilities.
    package var throughReader: Bool
    /// When it was recorded (before the processor was asked).
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date
    /// The error, for a failed refund or one whose outcome is not known yet.
    public var error: PaymentError?

    /// Creates a record.
    package init(id: String, reference: String, number: Int, amount: Money, reason: RefundReason? = nil,
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
    package static func idempotencyKey(reference: String, number: Int) -> String { "\(reference)/refund-\(number)" }

    /// Checks that `refund` may be added to `session` (whose ``PaymentSession/refunds`` must be complete): same
    /// currency, a positive amount, a captured payment, and pending plus succeeded refunds, this one included, at
    /// most the session's total. Shared by every ledger so the check runs inside the ledger's transaction; each
    /// refusal says what the ledger holds (``holdings(of:)``).
    /// - Throws: ``PaymentError/Code/invalidState`` or ``PaymentError/Code/invalidAmount``.
    package static func checkRefundable(_ refund: RefundRecord, of session: PaymentSession) throws(PaymentError) {
        guard refund.amount.currency == session.total.currency else {
            throw PaymentError(.currencyMismatch, recovery: .fixRequest, phase: .refund,
                               message: "Payment \(session.reference) is in \(session.total.currency.code), not \(refund.amount.currency.code).")
        }
        guard session.state == .succeeded || (session.state == .forwarded && session.captureMode == .automatic) else {
            throw PaymentError(.invalidState, recovery: session.state == .storedOffline ? .goOnline : .none,
                               phase: .refund,
                               message: "Payment \(session.reference) is \(session.state): only a captured payment can be refunded.")
        }
        let refundable = session.refundableAmount
        guard refund.amount.minorUnits > 0 else {
            throw PaymentError(.invalidAmount, recovery: .fixRequest, phase: .refund,
                               message: refundable.minorUnits == 0
                                   ? "Nothing is left to refund of payment \(session.reference): \(holdings(of: session))."
                                   : "A refund must be of a positive amount (\(holdings(of: session))).")
        }
        guard refund.amount.minorUnits <= refundable.minorUnits else {
            throw PaymentError(.invalidAmount, recovery: .fixRequest, phase: .refund,
                               message: "Refunding \(refund.amount) of payment \(session.reference) would exceed what is left to refund: \(holdings(of: session)).")
        }
    }

    /// What the ledger holds of a payment's refunds, for messages: "4.00 USD left of the 20.00 USD captured; 16.00 USD
    /// refunded or pending (refund 1: 8.00 USD succeeded, refund 2: 8.00 USD pending)".
    package static func holdings(of session: PaymentSession) -> String {
        let used = session.refundedAmount
        let list = session.refunds.map { "refund \($0.number): \($0.amount) \($0.status)" }.joined(separator: ", ")
        return "\(session.refundableAmount) left of the \(session.captured) captured; \(used) refunded or pending"
            + (list.isEmpty ? "" : " (\(list))")
    }
}

/// A change to a recorded refund: its new status and what the processor said. Compare-and-set on the expected
/// status, like ``SessionChange``; only the moves ``RefundStatus/canChange(to:)`` allows (a pending refund settles;
/// a succeeded one may still fail; a failed one never changes again).
package struct RefundChange: Hashable, Sendable {
    /// The refund's id (its idempotency key).
    package var refundID: String
    /// The status it must have for the change to apply.
    package var expectedStatus: RefundStatus
    /// The new status (equal to ``expectedStatus`` to record the processor id or an error without a change).
    package var newStatus: RefundStatus
    /// When.
    package var at: Date
    /// The processor's refund id, if learned.
    package var processorRefundID: String?
    /// The error, if any.
    package var error: PaymentError?

    /// Creates a change.
    package init(refundID: String, expectedStatus: RefundStatus, newStatus: RefundStatus, at: Date,
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
    package func apply(to record: inout RefundRecord) throws(PaymentError) {
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
