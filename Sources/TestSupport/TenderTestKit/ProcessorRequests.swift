import Foundation

/// The scope test calls derive their idempotency keys from when they call an adapter or a server directly, outside a
/// ``PaymentTerminal`` (which derives them from its own scope).
public let testKeyScope = LedgerScope(merchantID: "test-merchant", locationID: "test-location")

extension PaymentProcessor {
    /// Captures through ``PaymentProcessor/capturePayment(_:)`` with the key a ``PaymentTerminal`` in `scope` would
    /// send (``IdempotencyKey/capture(scope:reference:paymentAttempt:)``). For tests that call an adapter directly.
    public func capturePayment(reference: String, processorPaymentID: String, amount: Money,
                               scope: LedgerScope = testKeyScope, paymentAttempt: Int = 1) async throws
        -> ProcessorPaymentUpdate {
        try await capturePayment(CaptureRequest(
            processor: name, reference: reference, processorPaymentID: processorPaymentID, amount: amount,
            idempotencyKey: IdempotencyKey.capture(scope: scope, reference: reference,
                                                   paymentAttempt: paymentAttempt).rawValue))
    }

    /// Voids through ``PaymentProcessor/voidPayment(_:)`` with the key a ``PaymentTerminal`` in `scope` would send.
    public func voidPayment(reference: String, processorPaymentID: String, scope: LedgerScope = testKeyScope,
                            paymentAttempt: Int = 1) async throws -> ProcessorPaymentUpdate {
        try await voidPayment(VoidRequest(
            processor: name, reference: reference, processorPaymentID: processorPaymentID,
            idempotencyKey: IdempotencyKey.void(scope: scope, reference: reference,
                                                paymentAttempt: paymentAttempt).rawValue))
    }
}

extension PaymentCaptureService {
    /// Captures through ``PaymentCaptureService/capture(_:)`` with the key a ``PaymentTerminal`` in `scope` would
    /// send. For tests that call a capture service directly.
    public func capture(processor: String, reference: String, processorPaymentID: String, amount: Money,
                        scope: LedgerScope = testKeyScope, paymentAttempt: Int = 1) async throws {
        try await capture(CaptureRequest(
            processor: processor, reference: reference, processorPaymentID: processorPaymentID, amount: amount,
            idempotencyKey: IdempotencyKey.capture(scope: scope, reference: reference,
                                                   paymentAttempt: paymentAttempt).rawValue))
    }

    /// Voids through ``PaymentCaptureService/void(_:)`` with the key a ``PaymentTerminal`` in `scope` would send.
    public func void(processor: String, reference: String, processorPaymentID: String,
                     scope: LedgerScope = testKeyScope, paymentAttempt: Int = 1) async throws {
        try await void(VoidRequest(
            processor: processor, reference: reference, processorPaymentID: processorPaymentID,
            idempotencyKey: IdempotencyKey.void(scope: scope, reference: reference,
                                                paymentAttempt: paymentAttempt).rawValue))
    }
}
