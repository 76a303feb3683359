import Foundation

extension PaymentCaptureService {
    /// Captures through the service and returns the update an adapter reports (``PaymentState/succeeded``). A
    /// failure becomes a ``PaymentError`` (``PaymentError/init(capturing:phase:)``): capture is idempotent on both
    /// vendors' servers, so it is retryable. Adapters call this rather than ``capture(_:)`` directly.
    package func captured(_ request: CaptureRequest) async throws(PaymentError) -> ProcessorPaymentUpdate {
        do { try await capture(request) } catch { throw PaymentError(capturing: error) }
        return ProcessorPaymentUpdate(reference: request.reference, state: .succeeded,
                                      processorPaymentID: request.processorPaymentID)
    }

    /// Voids through the service and returns the update an adapter reports (``PaymentState/canceled``), converting
    /// a failure as ``captured(_:)`` does.
    package func voided(_ request: VoidRequest) async throws(PaymentError) -> ProcessorPaymentUpdate {
        do { try await void(request) } catch { throw PaymentError(capturing: error) }
        return ProcessorPaymentUpdate(reference: request.reference, state: .canceled,
                                      processorPaymentID: request.processorPaymentID)
    }
}
