import Foundation

/// What an app's server is asked to capture: built by the core, passed through the adapter unchanged.
public struct CaptureRequest: Hashable, Sendable, Codable {
    /// The processor's name (`"stripe"`, `"square"`).
    public var processor: String
    /// The payment's reference.
    public var reference: String
    /// The processor's payment id (Stripe PaymentIntent id, Square payment id).
    public var processorPaymentID: String
    /// How much to capture.
    public var amount: Money
    /// The idempotency key, computed on the device (``IdempotencyKey/capture(scope:reference:paymentAttempt:)``)
    /// and sent to the vendor unchanged (fitted to its length limit): the same for every retry of this capture, and
    /// different for every merchant, location, reference and vendor payment attempt.
    public var idempotencyKey: String

    /// Creates a request.
    public init(processor: String, reference: String, processorPaymentID: String, amount: Money,
                idempotencyKey: String) {
        self.processor = processor
        self.reference = reference
        self.processorPaymentID = processorPaymentID
        self.amount = amount
        self.idempotencyKey = idempotencyKey
    }
}

/// What an app's server is asked to void: built by the core, passed through the adapter unchanged.
public struct VoidRequest: Hashable, Sendable, Codable {
    /// The processor's name (`"stripe"`, `"square"`).
    public var processor: String
    /// The payment's reference.
    public var reference: String
    /// The processor's payment id.
    public var processorPaymentID: String
    /// The idempotency key, computed on the device (``IdempotencyKey/void(scope:reference:paymentAttempt:)``) and
    /// sent to the vendor unchanged (fitted to its length limit).
    public var idempotencyKey: String

    /// Creates a request.
    public init(processor: String, reference: String, processorPaymentID: String, idempotencyKey: String) {
        self.processor = processor
        self.reference = reference
        self.processorPaymentID = processorPaymentID
        self.idempotencyKey = idempotencyKey
    }
}

/// The app's server-side capture and void: both vendors capture on the server on iOS (Stripe
/// `POST /v1/payment_intents/:id/capture`; Square `CompletePayment` / `CancelPayment`). Adapters take one at
/// initialization and call it from ``PaymentProcessor/capturePayment(_:)`` and ``PaymentProcessor/voidPayment(_:)``.
public protocol PaymentCaptureService: Sendable {
    /// Captures `request.amount` of the processor payment, idempotently under `request.idempotencyKey` (send it to
    /// the vendor as it is, fitted to the vendor's length limit; never derive another): a retried capture must be
    /// the same request, and a key the vendor holds for another request is an error, never a success.
    func capture(_ request: CaptureRequest) async throws
    /// Voids (cancels) the processor payment, idempotently under `request.idempotencyKey`.
    func void(_ request: VoidRequest) async throws
}

extension PaymentError {
    /// A capture service's failure: its own ``PaymentError`` if it threw one, otherwise
    /// ``PaymentError/Code/captureFailed`` with recovery ``PaymentError/Recovery/retrySamePayment``.
    public init(capturing error: any Error, phase: Phase = .capture) {
        self = (error as? PaymentError) ?? PaymentError(.captureFailed, recovery: .retrySamePayment, phase: phase,
                                                        message: "The app's capture service failed: \(error).")
    }
}
