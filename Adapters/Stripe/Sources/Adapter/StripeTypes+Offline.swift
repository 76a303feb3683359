package import Foundation

extension Stripe {
    /// `SCPOfflineBehavior` (offline), set on a ``CreateConfiguration``.
    package enum OfflineBehavior: String, Hashable, Sendable, Codable, CaseIterable {
        /// Online if connectivity exists, otherwise offline. The SDK's default.
        case preferOnline
        /// Only with connectivity; since 3.6 always attempts online first.
        case requireOnline
        /// Always offline; forwarded in the background when the device is online.
        case forceOffline
    }

    /// `SCPNetworkStatus` (offline): the SDK's connection to stripe.com.
    package enum NetworkStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// The initial value.
        case unknown
        /// stripe.com cannot be reached.
        case offline
        /// stripe.com can be reached.
        case online
    }

    /// `SCPOfflineDetails` (offline) (`PaymentIntent.offlineDetails`).
    package struct OfflineDetails: Hashable, Sendable, Codable {
        /// `storedAt`: when the payment was collected (the SDK's clock, not the app's).
        package var storedAt: Date?
        /// `requiresUpload`: still needs forwarding. Such a payment is not ready to capture.
        package var requiresUpload: Bool
        /// `cardPresentDetails` (`SCPOfflineCardPresentDetails`).
        package var cardPresentDetails: CardPresentDetails?

        /// Creates offline details.
        package init(storedAt: Date?, requiresUpload: Bool, cardPresentDetails: CardPresentDetails?) {
            self.storedAt = storedAt
            self.requiresUpload = requiresUpload
            self.cardPresentDetails = cardPresentDetails
        }
    }

    /// `SCPOfflineStatusDetails` (offline). The SDK reports counts and amounts only: it offers no listing of the payments
    /// it stores (which is why the adapter never depends on one).
    package struct OfflineStatusDetails: Hashable, Sendable, Codable {
        /// `paymentsCount`: stored, unforwarded intents; nil after `clearCachedCredentials` (then unknown).
        package var paymentsCount: Int?
        /// `paymentAmountsByCurrency`: lowercase code → minor units (tips included).
        package var paymentAmountsByCurrency: [String: Int64]
        /// `networkStatus`; starts `unknown`.
        package var networkStatus: NetworkStatus

        /// Creates details.
        package init(paymentsCount: Int?, paymentAmountsByCurrency: [String: Int64], networkStatus: NetworkStatus) {
            self.paymentsCount = paymentsCount
            self.paymentAmountsByCurrency = paymentAmountsByCurrency
            self.networkStatus = networkStatus
        }
    }

    /// `SCPOfflineStatus` (offline).
    package struct OfflineStatus: Hashable, Sendable, Codable {
        /// `sdk`: the POS device, which stores and forwards for mobile readers.
        package var sdk: OfflineStatusDetails
        /// `reader`: the connected smart reader; nil for mobile readers or none.
        package var reader: OfflineStatusDetails?

        /// Creates a status.
        package init(sdk: OfflineStatusDetails, reader: OfflineStatusDetails? = nil) {
            self.sdk = sdk
            self.reader = reader
        }
    }

    /// `SCPOfflineDelegate` (offline) (all methods required). Set once on `Terminal.shared.offlineDelegate`; there is one
    /// delegate at a time (setting another replaces it).
    package protocol OfflineDelegate: Sendable {
        /// `terminal(_:didChange:)`: a field of `offlineStatus` changed.
        func didChangeOfflineStatus(_ offlineStatus: OfflineStatus)
        /// `terminal(_:didForwardPaymentIntent:error:)`: a stored intent was forwarded, or forwarding it failed. On
        /// success `stripeId` is set; on error the intent is the local copy, identified by its metadata. Whether the
        /// SDK keeps a failed payment stored depends on the error (``StripeMapping/forwardingDisposition(_:)``).
        func didForwardPaymentIntent(_ intent: PaymentIntent, error: ErrorCode?)
        /// `terminal(_:didReportForwardingError:)`: a forwarding error not tied to one intent (1511, 9051, 1930);
        /// the stored payments stay stored.
        func didReportForwardingError(_ error: ErrorCode)
    }
}
