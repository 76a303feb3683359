import Foundation
public import TenderWire

extension StripeServerClient: PaymentCaptureService {
    /// Captures `request.amount` of the intent under the request's idempotency key
    /// (``capturePaymentIntent(id:amount:idempotencyKey:)``). Succeeds only when Stripe reports the intent `succeeded`.
    public func capture(_ request: CaptureRequest) async throws {
        try Self.checkProcessor(request.processor, phase: .capture)
        let processorPaymentID = request.processorPaymentID
        let intent = try await capturePaymentIntent(id: processorPaymentID, amount: request.amount,
                                                    idempotencyKey: request.idempotencyKey)
        guard intent.status == "succeeded" else {
            throw PaymentError(.outcomeUnknown, recovery: .retrySamePayment, phase: .capture,
                               message: "Stripe accepted the capture of \(processorPaymentID) but reports it \(intent.status); look it up again.",
                               vendor: .init(processor: Self.processor, name: "payment_intent.status.\(intent.status)"))
        }
    }

    /// Cancels the intent under the request's idempotency key (``cancelPaymentIntent(id:idempotencyKey:reason:)``).
    public func void(_ request: VoidRequest) async throws {
        try Self.checkProcessor(request.processor, phase: .capture)
        _ = try await cancelPaymentIntent(id: request.processorPaymentID, idempotencyKey: request.idempotencyKey)
    }

    /// Refuses a payment of another processor (a wiring mistake), before any request.
    static func checkProcessor(_ name: String, phase: PaymentError.Phase) throws(PaymentError) {
        guard name == processor else {
            throw PaymentError(.integrationError, recovery: .fixIntegration, phase: phase,
                               message: "The Stripe server client was asked to act on a \(name) payment.")
        }
    }
}

extension StripeServerClient: PaymentRefundService {
    /// Refunds through ``createRefund(paymentIntent:amount:reference:idempotencyKey:reason:)``.
    public func refund(_ request: RefundRequest) async throws -> RefundResult {
        try Self.checkProcessor(request.processor, phase: .refund)
        let refund = try await createRefund(paymentIntent: request.processorPaymentID, amount: request.amount,
                                            reference: request.reference, idempotencyKey: request.idempotencyKey,
                                            reason: request.reason)
        return Self.refundResult(refund)
    }

    /// What Stripe holds of the refund made under `idempotencyKey`.
    ///
    /// What it can prove: every refund TenderServer creates carries its idempotency key in its metadata, in the
    /// same request that creates it, and Stripe's list of an intent's refunds is consistent. So when the intent's
    /// complete list has no refund with the key, Stripe holds no refund made under it: the answer is `nil`. (A
    /// request still in flight from a crashed process could land later; the retry that follows a `nil` uses the
    /// same key, which Stripe deduplicates.) With `processorRefundID` the refund is first retrieved by id.
    ///
    /// It throws, rather than answering `nil`, whenever it cannot read the complete list: the server cannot be
    /// reached, the intent is not found (another account or mode), or the list exceeds its page limit.
    public func lookUpRefund(processor: String, processorPaymentID: String, idempotencyKey: String,
                             processorRefundID: String?) async throws -> RefundResult? {
        try Self.checkProcessor(processor, phase: .refund)
        if let processorRefundID, let refund = try await retrieveRefund(id: processorRefundID) {
            return Self.refundResult(refund)
        }
        let refunds = try await refunds(paymentIntent: processorPaymentID)
        let key = IdempotencyKey.fitted(idempotencyKey, maximumLength: Self.maximumIdempotencyKeyLength)
        return refunds.first { $0.metadata[Self.refundKeyMetadataKey] == key }.map(Self.refundResult)
    }
}

extension StripeServerClient: StripeRESTLookup {
    /// Cancels an abandoned attempt's intent under the idempotency key `<intent id>/abandon`; an intent already
    /// canceled is returned as it is.
    public func cancelAbandonedPaymentIntent(id: String) async throws -> StripeAPI.PaymentIntent {
        try await cancel(id: id, idempotencyKey: "\(id)/abandon", reason: nil)
    }
}
