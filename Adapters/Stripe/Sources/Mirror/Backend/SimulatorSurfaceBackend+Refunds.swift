import Foundation
package import StripeTerminalSurface
import TenderStripe
import TenderStripeSimulator

extension SimulatorSurfaceBackend {
    /// `processRefund`: the simulator's refund collection, then its confirmation (the simulator plays the two steps
    /// 5.0 folded into this call); a failure is a `ConfirmRefundError`. The `Cancelable` cancels the collection.
    package func processRefund(_ terminal: Terminal, refundParams: RefundParameters,
                               collectConfig: CollectRefundConfiguration?,
                               completion: @escaping ConfirmRefundCompletionBlock) -> Cancelable? {
        arrive("processRefund")
        let value = simulatorRefundParameters(refundParams)
        let done = UncheckedSendableBox(completion)
        let cancelable = waitForSimulator { [self] simulator in
            await simulator.collectRefundPaymentMethod(value, refundConfig: nil) { [self] error in
                if let error { return deliver { done.value(nil, confirmRefundError(error)) } }
                onSimulator { [self] simulator in
                    _ = await simulator.confirmRefund { [self] refund, error in
                        deliver { done.value(refund.map(sdkRefund), error.map(confirmRefundError)) }
                    }
                }
            }
        }
        return cancelable.map(sdkCancelable)
    }

    /// The deprecated `collectRefundPaymentMethod`: the simulator's.
    package func collectRefundPaymentMethod(_ terminal: Terminal, refundParams: RefundParameters,
                                            refundConfig: CollectRefundConfiguration?,
                                            completion: @escaping ErrorCompletionBlock) -> Cancelable? {
        arrive("collectRefundPaymentMethod")
        let value = simulatorRefundParameters(refundParams)
        let done = UncheckedSendableBox(completion)
        let cancelable = waitForSimulator { [self] simulator in
            await simulator.collectRefundPaymentMethod(value, refundConfig: nil) { [self] error in
                deliver { done.value(error.map(sdkError)) }
            }
        }
        return cancelable.map(sdkCancelable)
    }

    /// The deprecated `confirmRefund`: the simulator's.
    package func confirmRefund(_ terminal: Terminal, completion: @escaping ConfirmRefundCompletionBlock) -> Cancelable? {
        arrive("confirmRefund")
        let done = UncheckedSendableBox(completion)
        let cancelable = waitForSimulator { [self] simulator in
            await simulator.confirmRefund { [self] refund, error in
                deliver { done.value(refund.map(sdkRefund), error.map(confirmRefundError)) }
            }
        }
        return cancelable.map(sdkCancelable)
    }

    /// Not simulated: the SDK's `featureNotAvailable` (1890), as for a reader that lacks the feature.
    package func unsupportedCall(_ terminal: Terminal, _ call: String) -> any Error {
        arrive(String(call.prefix { $0 != "(" }))
        return ErrorCode(.featureNotAvailable, userInfo: [
            ErrorKey.message.rawValue: "\(call) is not simulated by the Stripe simulator's surface backend.",
        ])
    }

    private func simulatorRefundParameters(_ parameters: RefundParameters) -> Stripe.RefundParameters {
        Stripe.RefundParameters(paymentIntentId: parameters.paymentIntentId, clientSecret: parameters.clientSecret,
                                chargeId: parameters.chargeId, amount: parameters.amount,
                                currency: parameters.currency, metadata: parameters.metadata ?? [:])
    }

    /// The SDK's `SCPRefund` for the simulator's refund.
    func sdkRefund(_ refund: Stripe.Refund) -> Refund {
        Refund(surface: .backend, stripeId: refund.stripeId, amount: refund.amount,
               chargeId: refund.charge.isEmpty ? nil : refund.charge, created: Date(), currency: refund.currency,
               metadata: refund.metadata, status: surfaceCase(refund.status), failureReason: refund.failureReason)
    }

    /// The SDK's `ConfirmRefundError` for a simulator refund error: its `refund` is the error's (nil: outcome unknown).
    func confirmRefundError(_ error: Stripe.ErrorCode) -> ConfirmRefundError {
        let plain = sdkError(error)
        return ConfirmRefundError(surface: .backend, code: plain.code, userInfo: plain.userInfo,
                                  refund: error.refund.map(sdkRefund), apiError: error.apiError.map(sdkApiError))
    }
}
