import Foundation
public import TenderWire

extension SquareServerClient: PaymentCaptureService {
    /// Completes an approved payment for exactly `amount` (its `total_money`: Square completes the approved total;
    /// a different amount is refused before any change). The payment is read first: one already `COMPLETED` for
    /// `amount` is the same capture (idempotent); `CompletePayment` carries the read `version_token`. When
    /// `CompletePayment` fails, the payment is read again, and a completed one is success. Square's
    /// `CompletePayment` takes no idempotency key (it is idempotent by the payment's state and `version_token`), so
    /// `request.idempotencyKey` is not sent.
    public func capture(_ request: CaptureRequest) async throws {
        try Self.checkProcessor(request.processor, phase: .capture)
        let id = request.processorPaymentID
        let amount = request.amount
        guard let payment = try await getPayment(id: id) else {
            throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .capture,
                               message: "Square has no payment \(id) to complete.",
                               vendor: .init(processor: Self.processor, name: "NOT_FOUND"))
        }
        let total = payment.totalMoney ?? payment.amountMoney
        guard total?.amount == amount.minorUnits, total?.currency == amount.currency.code else {
            throw PaymentError(.invalidAmount, recovery: .fixRequest, phase: .capture,
                               message: "Square payment \(id) is for \(total?.amount ?? 0) \(total?.currency ?? "?"), not \(amount): Square completes the approved total only.",
                               vendor: .init(processor: Self.processor, name: "PAYMENT_AMOUNT_MISMATCH"))
        }
        switch payment.status {
        case "COMPLETED": return
        case "APPROVED": break
        default:
            throw Self.notApproved(payment, operation: "completed")
        }
        do {
            _ = try await completePayment(id: id, versionToken: payment.versionToken)
        } catch {
            if let again = try? await getPayment(id: id), again.status == "COMPLETED" { return }
            throw error
        }
    }

    /// Cancels an approved payment. One already `CANCELED` is the same void; a completed one cannot be voided
    /// (refund it). `CancelPayment` takes no idempotency key: `request.idempotencyKey` is not sent.
    public func void(_ request: VoidRequest) async throws {
        try Self.checkProcessor(request.processor, phase: .capture)
        let id = request.processorPaymentID
        guard let payment = try await getPayment(id: id) else {
            throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .capture,
                               message: "Square has no payment \(id) to cancel.",
                               vendor: .init(processor: Self.processor, name: "NOT_FOUND"))
        }
        switch payment.status {
        case "CANCELED": return
        case "APPROVED": break
        default: throw Self.notApproved(payment, operation: "canceled")
        }
        do {
            _ = try await cancelPayment(id: id)
        } catch {
            if let again = try? await getPayment(id: id), again.status == "CANCELED" { return }
            throw error
        }
    }

    static func notApproved(_ payment: SquareAPI.Payment, operation: String) -> PaymentError {
        PaymentError(.invalidState, recovery: .none, phase: .capture,
                     message: "Square payment \(payment.id) is \(payment.status ?? "in an unknown state"); only an approved payment can be \(operation).",
                     vendor: .init(processor: processor, name: "Payment.\(payment.status ?? "UNKNOWN")"))
    }
}

extension SquareServerClient: PaymentRefundService {
    /// Refunds through ``refundPayment(id:amount:idempotencyKey:reason:)``.
    public func refund(_ request: RefundRequest) async throws -> RefundResult {
        try Self.checkProcessor(request.processor, phase: .refund)
        let refund = try await refundPayment(id: request.processorPaymentID, amount: request.amount,
                                             idempotencyKey: request.idempotencyKey, reason: request.reason)
        return Self.refundResult(refund)
    }

    /// What Square holds of a refund.
    ///
    /// What it can prove: a `PaymentRefund` does not carry its idempotency key and Square cannot search refunds by
    /// it, so a refund is identified only by its id. With `processorRefundID`, `GetPaymentRefund` answers. Without
    /// it, the payment is read (`GetPayment`, consistent): a payment with no `refund_ids` has no refund at all, so
    /// none under this key: `nil`. A payment that has refunds which cannot be attributed to the key makes the answer
    /// unknowable here: it throws ``TenderWire/PaymentError/Code/outcomeUnknown`` with recovery
    /// ``TenderWire/PaymentError/Recovery/retrySamePayment`` (retrying `RefundPayment` with the same key returns the
    /// same refund rather than a second one). It never answers `nil` when it cannot tell.
    public func lookUpRefund(processor: String, processorPaymentID: String, idempotencyKey: String,
                             processorRefundID: String?) async throws -> RefundResult? {
        try Self.checkProcessor(processor, phase: .refund)
        if let processorRefundID, let refund = try await getRefund(id: processorRefundID) {
            return Self.refundResult(refund)
        }
        guard let payment = try await getPayment(id: processorPaymentID) else {
            throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .refund,
                               message: "Square has no payment \(processorPaymentID); whether refund \(idempotencyKey) exists cannot be told.",
                               vendor: .init(processor: Self.processor, name: "NOT_FOUND"))
        }
        if (payment.refundIDs ?? []).isEmpty, (payment.refundedMoney?.amount ?? 0) == 0 { return nil }
        throw PaymentError(.outcomeUnknown, recovery: .retrySamePayment, phase: .refund,
                           message: "Payment \(processorPaymentID) has refunds, and Square does not record which idempotency key made each; retry the refund with the same key to get its result.",
                           vendor: .init(processor: Self.processor, name: "refund_not_attributable"))
    }
}

/// `payments(referenceID:locationID:)`, `getPayment(id:)` and `cancelPayment(idempotencyKey:)` answer the device's
/// lookups; the Square adapter's `SquareRESTServerLookup` turns them into its server lookup.
extension SquareServerClient: SquareRESTLookup {}
