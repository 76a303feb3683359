import Foundation

// In-person refunds (Interac): 5.0's one call, `processRefund`, and the two calls it replaced (deprecated since 5.0,
// declared in SCPDeprecations.h, still in 5.5). All three return a `Cancelable?`, so Swift imports no `async` form; the
// overlay's `async` `processRefund` is below.
extension Terminal {
    /// `-processRefund:collectConfig:completion:` (5.0): collects the card to refund and refunds it. A failure is a
    /// ``ConfirmRefundError`` whose `refund` is nil when the outcome is unknown; cancellation completes with
    /// `ErrorCode.canceled`.
    @discardableResult
    public func processRefund(
        _ refundParams: RefundParameters, collectConfig: CollectRefundConfiguration?,
        completion: @escaping ConfirmRefundCompletionBlock
    ) -> Cancelable? {
        backend.processRefund(self, refundParams: refundParams, collectConfig: collectConfig, completion: completion)
    }

    /// The Swift overlay's `async` `processRefund` (uncertain in the reference: labels from the example app, return type
    /// from its use; cancel by canceling the task).
    public func processRefund(
        _ refundParams: RefundParameters, collectConfig: CollectRefundConfiguration?
    ) async throws -> Refund {
        try await surfaceCancelableAsync("processRefund(_:collectConfig:)") { completion in
            processRefund(refundParams, collectConfig: collectConfig, completion: completion)
        }
    }

    /// `-collectRefundPaymentMethod:completion:` (deprecated in 5.0: use `processRefund`).
    @available(*, deprecated, message: "Use processRefund(_:collectConfig:completion:).")
    @discardableResult
    public func collectRefundPaymentMethod(
        _ refundParams: RefundParameters, completion: @escaping ErrorCompletionBlock
    ) -> Cancelable? {
        backend.collectRefundPaymentMethod(self, refundParams: refundParams, refundConfig: nil, completion: completion)
    }

    /// `-collectRefundPaymentMethod:refundConfig:completion:` (deprecated in 5.0: use `processRefund`).
    @available(*, deprecated, message: "Use processRefund(_:collectConfig:completion:).")
    @discardableResult
    public func collectRefundPaymentMethod(
        _ refundParams: RefundParameters, refundConfig: CollectRefundConfiguration?,
        completion: @escaping ErrorCompletionBlock
    ) -> Cancelable? {
        backend.collectRefundPaymentMethod(
            self, refundParams: refundParams, refundConfig: refundConfig, completion: completion)
    }

    /// `-confirmRefund:` (deprecated in 5.0: use `processRefund`).
    @available(*, deprecated, message: "Use processRefund(_:collectConfig:completion:).")
    @discardableResult
    public func confirmRefund(completion: @escaping ConfirmRefundCompletionBlock) -> Cancelable? {
        backend.confirmRefund(self, completion: completion)
    }
}
