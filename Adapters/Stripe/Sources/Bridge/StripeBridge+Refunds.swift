#if TENDER_SURFACE_MIRROR
import StripeTerminalSurface
#elseif StripeTerminalSDK
import StripeTerminal
#endif

#if StripeTerminalSDK || TENDER_SURFACE_MIRROR
import Foundation
package import TenderStripe

// In-person refunds (Interac) through 5.x's documented call, `processRefund(_:collectConfig:completion:)`, which
// collects the card and refunds it in one command (the two calls it replaced, `collectRefundPaymentMethod` and
// `confirmRefund`, are deprecated since 5.0). The adapter's client protocol still speaks in the two steps it reports
// (`collecting`, then `processing`): the first builds and checks the `RefundParameters` and keeps them, the second
// runs `processRefund` with them. So the card is presented during the second step, and cancelling that step cancels
// the collection.
extension StripeTerminalBridge {
    /// The first step: `RefundParametersBuilder` (by charge, or by intent and client secret) with the metadata, on the
    /// main actor; a builder's error completes at once. Nothing reaches the reader yet: the parameters are kept for
    /// ``confirmRefund(completion:)``, which runs `processRefund`. `refundConfig` is not used (the adapter passes nil).
    package func collectRefundPaymentMethod(_ refundParams: Stripe.RefundParameters,
                                           refundConfig: Stripe.CollectRefundConfiguration?,
                                           completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await prepareRefund(refundParams, completion: completion)
    }

    /// The second step: `processRefund(_:collectConfig:completion:)` with the kept parameters. A failure is the SDK's
    /// `ConfirmRefundError`, whose `refund` (nil: the request timed out, outcome unknown) becomes the error's refund.
    /// Without kept parameters it refuses with `nilRefundPaymentMethod` (1550), as the SDK's `confirmRefund` did.
    package func confirmRefund(completion: @escaping @Sendable (Stripe.Refund?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await startRefund(completion: completion)
    }

    @MainActor private func prepareRefund(_ refundParams: Stripe.RefundParameters,
                                          completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void)
        -> (any Stripe.Cancelable)? {
        let parameters: RefundParameters
        do {
            let builder: RefundParametersBuilder
            if let chargeId = refundParams.chargeId {
                builder = RefundParametersBuilder(chargeId: chargeId, amount: refundParams.amount,
                                                  currency: refundParams.currency)
            } else {
                builder = RefundParametersBuilder(paymentIntentId: refundParams.paymentIntentId ?? "",
                                                  clientSecret: refundParams.clientSecret ?? "",
                                                  amount: refundParams.amount, currency: refundParams.currency)
            }
            parameters = try builder.setMetadata(refundParams.metadata).build()
        } catch {
            pendingRefund.withLock { $0 = nil }
            completion(StripeBridgeErrors.translate(error, registry: registry))
            return StripeBridgeRefusal()
        }
        pendingRefund.withLock { $0 = UncheckedSendableRefund(parameters: parameters) }
        completion(nil)
        return StripeBridgeRefusal()
    }

    @MainActor private func startRefund(
        completion: @escaping @Sendable (Stripe.Refund?, Stripe.ErrorCode?) -> Void
    ) -> (any Stripe.Cancelable)? {
        let registry = registry
        guard let pending = pendingRefund.withLock({ kept in defer { kept = nil }; return kept }) else {
            let error = StripeBridgeErrors.sdkError(
                .nilRefundPaymentMethod, "The refund was confirmed before its parameters were prepared.")
            completion(nil, StripeBridgeErrors.translate(error, registry: registry))
            return StripeBridgeRefusal()
        }
        let requestedCharge = pending.parameters.chargeId
        let cancelable = terminal.processRefund(pending.parameters, collectConfig: nil) { @Sendable refund, error in
            let value = refund.map { Self.value(of: $0, requestedCharge: requestedCharge) }
            if let error {
                let failed = error.refund.map { Self.value(of: $0, requestedCharge: requestedCharge) }
                return completion(value, StripeBridgeErrors.translate(error, registry: registry, refund: failed))
            }
            completion(value, nil)
        }
        return cancelable.map { StripeBridgeCancelable($0, registry: registry) }
    }

    /// `SCPRefund` as the adapter's value. `chargeId` is nullable in the SDK (`SCPRefund.h`); when it is nil the charge
    /// the refund was asked for stands in (the adapter refunds by charge).
    static func value(of refund: Refund, requestedCharge: String?) -> Stripe.Refund {
        let status: Stripe.RefundStatus = switch refund.status {
        case .succeeded: .succeeded
        case .pending: .pending
        case .failed: .failed
        case .unknown: .unknown
        @unknown default: .unknown
        }
        return Stripe.Refund(stripeId: refund.stripeId, amount: refund.amount, currency: refund.currency,
                             charge: refund.chargeId ?? requestedCharge ?? "", status: status,
                             metadata: refund.metadata, failureReason: refund.failureReason)
    }
}

/// The kept `RefundParameters` between the two steps. The SDK's object is immutable once built; it is only read on the
/// main actor.
struct UncheckedSendableRefund: @unchecked Sendable {
    let parameters: RefundParameters
}
#endif
