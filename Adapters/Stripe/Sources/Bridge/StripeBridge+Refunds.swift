#if TENDER_SURFACE_MIRROR
import StripeTerminalSurface
#elseif StripeTerminalSDK
import StripeTerminal
#endif

#if StripeTerminalSDK || TENDER_SURFACE_MIRROR
import Foundation
package import TenderStripe

// In-person refunds (Interac). The SDK's calls for them (`collectRefundPaymentMethod`, `confirmRefund`, and 5.0's
// `processRefund`), `RefundParameters` and `Refund`'s properties are not in the surface reference ("left out on purpose:
// refunds"), so the surface mirror declares none of them: the real calls are compiled with the SDK only, and over the
// mirror the bridge refuses in-person refunds with the SDK's `featureNotAvailable` before anything is refunded.
extension StripeTerminalBridge {
    /// `collectRefundPaymentMethod(_:refundConfig:completion:)` (deprecated in 5.0 for `processRefund`, still in 5.5):
    /// parameters from `RefundParametersBuilder` (by charge, or by intent and client secret) with the metadata, on the
    /// main actor. A builder's error completes at once.
    package func collectRefundPaymentMethod(_ refundParams: Stripe.RefundParameters,
                                           refundConfig: Stripe.CollectRefundConfiguration?,
                                           completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await startRefundCollection(refundParams, completion: completion)
    }

    /// `confirmRefund(completion:)` (deprecated like the above): the error is the SDK's `ConfirmRefundError`, whose
    /// `refund` (nil: the request timed out, outcome unknown) becomes the error's refund.
    package func confirmRefund(completion: @escaping @Sendable (Stripe.Refund?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await startRefundConfirmation(completion: completion)
    }

    #if TENDER_SURFACE_MIRROR
    @MainActor private func startRefundCollection(_ refundParams: Stripe.RefundParameters,
                                                  completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void)
        -> (any Stripe.Cancelable)? {
        completion(Self.refundsUnavailable(registry))
        return StripeBridgeRefusal()
    }

    @MainActor private func startRefundConfirmation(
        completion: @escaping @Sendable (Stripe.Refund?, Stripe.ErrorCode?) -> Void
    ) -> (any Stripe.Cancelable)? {
        completion(nil, Self.refundsUnavailable(registry))
        return StripeBridgeRefusal()
    }

    /// The refusal over the surface mirror: nothing was refunded (a definite answer, not an unknown outcome).
    static func refundsUnavailable(_ registry: StripeObjectRegistry) -> Stripe.ErrorCode {
        StripeBridgeErrors.translate(StripeBridgeErrors.sdkError(
            .featureNotAvailable,
            "In-person refunds are not part of the SDK surface this build is checked against; nothing was refunded."),
                                     registry: registry)
    }
    #else
    @MainActor private func startRefundCollection(_ refundParams: Stripe.RefundParameters,
                                                  completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void)
        -> (any Stripe.Cancelable)? {
        let registry = registry
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
            completion(StripeBridgeErrors.translate(error, registry: registry))
            return StripeBridgeRefusal()
        }
        let cancelable = terminal.collectRefundPaymentMethod(parameters, refundConfig: nil) { @Sendable error in
            completion(error.map { StripeBridgeErrors.translate($0, registry: registry) })
        }
        return cancelable.map { StripeBridgeCancelable($0, registry: registry) }
    }

    @MainActor private func startRefundConfirmation(
        completion: @escaping @Sendable (Stripe.Refund?, Stripe.ErrorCode?) -> Void
    ) -> (any Stripe.Cancelable)? {
        let registry = registry
        let cancelable = terminal.confirmRefund { @Sendable refund, error in
            let value = refund.map(Self.value(of:))
            if let error {
                let failed = error.refund.map(Self.value(of:))
                return completion(value, StripeBridgeErrors.translate(error, registry: registry, refund: failed))
            }
            completion(value, nil)
        }
        return cancelable.map { StripeBridgeCancelable($0, registry: registry) }
    }

    /// `SCPRefund` as the adapter's value (its `metadata` is an untyped dictionary in the SDK; string pairs are kept).
    static func value(of refund: Refund) -> Stripe.Refund {
        let status: Stripe.RefundStatus = switch refund.status {
        case .succeeded: .succeeded
        case .pending: .pending
        case .failed: .failed
        case .unknown: .unknown
        @unknown default: .unknown
        }
        var metadata: [String: String] = [:]
        for (key, value) in refund.metadata {
            if let key = key as? String, let value = value as? String { metadata[key] = value }
        }
        return Stripe.Refund(stripeId: refund.stripeId, amount: refund.amount, currency: refund.currency,
                             charge: refund.charge, status: status, metadata: metadata,
                             failureReason: refund.failureReason)
    }
    #endif
}
#endif
