import Foundation

/// The app's server-side capture and void: both vendors capture on the server on iOS (Stripe
/// `POST /v1/payment_intents/:id/capture`; Square `CompletePayment` / `CancelPayment`). Adapters take one at
/// initialization and call it from ``PaymentProcessor/capturePayment(reference:processorPaymentID:amount:)``.
public protocol PaymentCaptureService: Sendable {
    /// Captures `amount` of the processor payment `processorPaymentID`, whose app reference is `reference`. Make
    /// it idempotent (derive the vendor's idempotency key from the reference and the operation): a retried capture
    /// must be the same request.
    func capture(processor: String, reference: String, processorPaymentID: String, amount: Money) async throws
    /// Voids (cancels) the processor payment `processorPaymentID`, idempotently.
    func void(processor: String, reference: String, processorPaymentID: String) async throws
}

extension PaymentCaptureService {
    /// Captures through the service and returns the update an adapter reports (``PaymentState/succeeded``). A
    /// failure becomes a ``PaymentError`` (``PaymentError/init(capturing:phase:)``): capture is idempotent on both
    /// vendors' servers, so it is retryable. Adapters call this rather than
    /// ``capture(processor:reference:processorPaymentID:amount:)`` directly.
    public func captured(reference: String, processor: String, processorPaymentID: String, amount: Money)
        async throws(PaymentError) -> ProcessorPaymentUpdate {
        do { try await capture(processor: processor, reference: reference, processorPaymentID: processorPaymentID, amount: amount) }
        catch { throw PaymentError(capturing: error) }
        return ProcessorPaymentUpdate(reference: reference, state: .succeeded, processorPaymentID: processorPaymentID)
    }

    /// Voids through the service and returns the update an adapter reports (``PaymentState/canceled``), converting
    /// a failure as ``captured(reference:processor:processorPaymentID:amount:)`` does.
    public func voided(reference: String, processor: String, processorPaymentID: String)
        async throws(PaymentError) -> ProcessorPaymentUpdate {
        do { try await void(processor: processor, reference: reference, processorPaymentID: processorPaymentID) }
        catch { throw PaymentError(capturing: error) }
        return ProcessorPaymentUpdate(reference: reference, state: .canceled, processorPaymentID: processorPaymentID)
    }
}

extension PaymentError {
    /// A capture service's failure: its own ``PaymentError`` if it threw one, otherwise
    /// ``PaymentError/Code/captureFailed`` with recovery ``PaymentError/Recovery/retrySamePayment``.
    public init(capturing error: any Error, phase: Phase = .capture) {
        self = (error as? PaymentError) ?? PaymentError(.captureFailed, recovery: .retrySamePayment, phase: phase,
                                                        message: "The app's capture service failed: \(error).")
    }
}
