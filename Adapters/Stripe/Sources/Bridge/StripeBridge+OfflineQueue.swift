#if TENDER_SURFACE_MIRROR
import StripeTerminalSurface
#elseif StripeTerminalSDK
import StripeTerminal
#endif

#if StripeTerminalSDK || TENDER_SURFACE_MIRROR
import Foundation
package import TenderStripe

extension StripeTerminalBridge {
    /// `Terminal.shared.offlineStatus`, read on the main actor: the SDK's network status and the count and amounts of
    /// what it stores (`paymentsCount` and the amounts are `NSNumber`s in the SDK, unboxed here; a nil count stays
    /// nil: unknown after `clearCachedCredentials`).
    package var offlineStatus: Stripe.OfflineStatus {
        get async { await readOfflineStatus() }
    }

    @MainActor private func readOfflineStatus() -> Stripe.OfflineStatus {
        Self.value(of: terminal.offlineStatus)
    }

    // MARK: Offline values

    /// `SCPOfflineStatus`.
    static func value(of status: OfflineStatus) -> Stripe.OfflineStatus {
        Stripe.OfflineStatus(sdk: value(of: status.sdk), reader: status.reader.map(value(of:)))
    }

    /// `SCPOfflineStatusDetails`, unboxed.
    static func value(of details: OfflineStatusDetails) -> Stripe.OfflineStatusDetails {
        Stripe.OfflineStatusDetails(paymentsCount: details.paymentsCount?.intValue,
                                    paymentAmountsByCurrency: details.paymentAmountsByCurrency.mapValues(\.int64Value),
                                    networkStatus: value(of: details.networkStatus))
    }

    /// `SCPOfflineDetails` (`PaymentIntent.offlineDetails`).
    static func value(of details: OfflineDetails) -> Stripe.OfflineDetails {
        Stripe.OfflineDetails(storedAt: details.storedAt, requiresUpload: details.requiresUpload,
                              cardPresentDetails: details.cardPresentDetails.map(value(of:)))
    }

    /// `SCPOfflineCardPresentDetails`: `brand` may be unknown until forwarded; `expMonth` / `expYear` are 0 if missing.
    static func value(of details: OfflineCardPresentDetails) -> Stripe.CardPresentDetails {
        Stripe.CardPresentDetails(brand: value(of: details.brand), last4: details.last4, expMonth: details.expMonth,
                                  expYear: details.expYear, readMethod: value(of: details.readMethod),
                                  cardholderName: details.cardholderName,
                                  receiptDetails: details.receiptDetails.map(value(of:)))
    }

    /// `NetworkStatus` by case (a newer SDK's status is unknown).
    static func value(of status: NetworkStatus) -> Stripe.NetworkStatus {
        switch status {
        case .unknown: .unknown
        case .offline: .offline
        case .online: .online
        @unknown default: .unknown
        }
    }

    /// The SDK's `OfflineBehavior` for the adapter's (for `CreateConfigurationBuilder.setOfflineBehavior(_:)`).
    static func sdkOfflineBehavior(_ behavior: Stripe.OfflineBehavior) -> OfflineBehavior {
        switch behavior {
        case .preferOnline: .preferOnline
        case .requireOnline: .requireOnline
        case .forceOffline: .forceOffline
        }
    }
}
#endif
