import Foundation
public import Tender

extension SquareProcessor {
    /// Refunds a captured payment through the app's ``PaymentRefundService`` (Square's `RefundPayment` on the app's
    /// server): the Mobile Payments SDK has no refunds, in person or otherwise.
    /// - Throws: ``PaymentError/Code/featureUnavailable`` for `throughReader` (Square has no in-person refund) or
    ///   without a refund service; the service's error when Square refused it or could not be reached.
    public func refundPayment(_ request: RefundRequest, throughReader: Bool) async throws -> RefundResult {
        guard !throughReader else {
            throw PaymentError(.featureUnavailable, recovery: .fixIntegration, phase: .refund,
                               message: "Square's Mobile Payments SDK cannot refund through the reader: Square refunds with RefundPayment on the app's server (throughReader: false).")
        }
        let service = try refunds()
        do {
            return try await service.refund(request)
        } catch let error as PaymentError {
            throw error
        } catch {
            throw PaymentError(.refundFailed, recovery: .retrySamePayment, phase: .refund,
                               message: "The app's refund service failed (\(error)); whether Square refunded is looked up before anything is retried.")
        }
    }

    /// What Square holds of a refund, by its id or its idempotency key, through the app's ``PaymentRefundService``.
    public func lookUpRefund(_ refund: RefundRecord, processorPaymentID: String) async throws -> RefundResult? {
        try await refunds().lookUpRefund(processor: name, processorPaymentID: processorPaymentID,
                                         idempotencyKey: refund.id, processorRefundID: refund.processorRefundID)
    }

    private func refunds() throws(PaymentError) -> any PaymentRefundService {
        guard let refundService else {
            throw PaymentError(.featureUnavailable, recovery: .fixIntegration, phase: .refund,
                               message: "Square refunds only through RefundPayment on the app's server, and no PaymentRefundService was given to SquareProcessor.")
        }
        return refundService
    }
}
