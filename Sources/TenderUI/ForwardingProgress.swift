import Tender

extension PaymentError {
    /// Every error Tender throws is a ``Tender/PaymentError``; anything else (a cancellation of the calling task)
    /// becomes one with code ``Tender/PaymentError/Code/canceled`` or ``Tender/PaymentError/Code/integrationError``.
    static func from(_ error: any Error) -> PaymentError {
        if let error = error as? PaymentError { return error }
        if error is CancellationError {
            return PaymentError(.canceled, recovery: .none, phase: .unknown, message: "The operation was canceled.")
        }
        return PaymentError(.integrationError, recovery: .fixIntegration, phase: .unknown,
                            message: "Unexpected error: \(error)")
    }
}

/// How far forwarding of the stored payments has come since they started to go out.
public struct ForwardingProgress: Hashable, Sendable {
    /// How many have left the device.
    public var forwarded: Int
    /// How many were stored when forwarding started (or since).
    public var total: Int
    /// Whether every one has left the device.
    public var isFinished: Bool { forwarded >= total }
    /// 0...1, for a progress bar.
    public var fraction: Double { total == 0 ? 1 : Double(forwarded) / Double(total) }
}
