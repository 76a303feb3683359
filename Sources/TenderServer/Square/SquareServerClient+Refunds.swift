import Foundation
package import TenderWire

extension SquareServerClient {
    /// `POST /v2/refunds` (RefundPayment) for `amount` of the payment, under `idempotencyKey` (the device's
    /// ``TenderWire/IdempotencyKey``) fitted to Square's 45 characters: a retry with the same key, payment and amount is
    /// the same refund; the key reused for another refund is Square's `IDEMPOTENCY_KEY_REUSED`
    /// (``TenderWire/PaymentError/Code/duplicateReference``), never a success.
    package func refundPayment(id: String, amount: Money, idempotencyKey: String, reason: RefundReason? = nil)
        async throws(PaymentError) -> SquareAPI.PaymentRefund {
        struct Body: Encodable, Sendable {
            var idempotency_key: String
            var amount_money: SquareAPI.Money
            var payment_id: String
            var reason: String?
        }
        let body = Body(idempotency_key: IdempotencyKey.fitted(idempotencyKey, maximumLength: Self.maximumIdempotencyKeyLength),
                        amount_money: SquareAPI.Money(amount: amount.minorUnits, currency: amount.currency.code),
                        payment_id: id, reason: reason.map { String($0.rawValue.prefix(192)) })
        let response = try await request("POST", "v2/refunds", json: body, as: SquareAPI.RefundResponse.self,
                                         operation: "Refunding \(amount) of \(id)", phase: .refund)
        guard let refund = response.refund else { throw missing("refund", operation: "Refunding \(id)", phase: .refund) }
        return refund
    }

    /// `GET /v2/refunds/{refund_id}` (GetPaymentRefund), or nil when Square answers `NOT_FOUND`.
    package func getRefund(id: String) async throws(PaymentError) -> SquareAPI.PaymentRefund? {
        switch await perform("GET", "v2/refunds/\(FormEncoding.escape(id))", as: SquareAPI.RefundResponse.self) {
        case .success(let response):
            guard let refund = response.refund else {
                throw missing("refund", operation: "Getting refund \(id)", phase: .refund)
            }
            return refund
        case .failure(let failure):
            if failure.status == 404, failure.vendorCode == "NOT_FOUND" { return nil }
            throw SquareRESTErrorTable.paymentError(failure, operation: "Getting refund \(id)", phase: .refund)
        }
    }

    /// Tender's status of a Square refund status: `COMPLETED` → succeeded; `REJECTED`, `FAILED` → failed; anything
    /// else (`PENDING`, a status Square adds later) → pending, never a guess.
    package static func refundStatus(_ status: String?) -> RefundStatus {
        switch status {
        case "COMPLETED": .succeeded
        case "REJECTED", "FAILED": .failed
        default: .pending
        }
    }

    /// The ``TenderWire/RefundResult`` of a Square refund.
    package static func refundResult(_ refund: SquareAPI.PaymentRefund) -> RefundResult {
        let status = refundStatus(refund.status)
        var error: PaymentError?
        if status == .failed {
            error = PaymentError(.refundFailed, recovery: .none, phase: .refund,
                                 message: "Square did not refund \(refund.id) (\(refund.status ?? "failed")).",
                                 vendor: .init(processor: processor, name: "PaymentRefund.\(refund.status ?? "FAILED")"))
        }
        return RefundResult(processorRefundID: refund.id, status: status, error: error)
    }
}
