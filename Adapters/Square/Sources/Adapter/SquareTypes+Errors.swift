import Foundation

// MARK: - Errors

extension Square {
    /// Square's `PaymentError`: the 16 cases of 2.5 and the 3 historical ones (19 codes across 2.0–2.5).
    package enum PaymentError: String, Error, Hashable, Sendable, Codable, CaseIterable {
        /// The device clock is out of sync with the server.
        case deviceTimeDoesNotMatchServerTime
        /// The `PaymentParameters` were invalid.
        case invalidPaymentParameters
        /// The payment source did not match the given payment method.
        case invalidPaymentSource
        /// The app lacks location permission.
        case locationPermissionNeeded
        /// The seller is not opted in to offline payments.
        case merchantNotOptedIntoOfflineProcessing
        /// No network.
        case noNetwork
        /// The SDK is not authorized.
        case notAuthorized
        /// The device's stored offline total would be exceeded.
        case offlineStoredAmountExceeded
        /// The payment is over the per-transaction offline limit.
        case offlineTransactionAmountExceeded
        /// Another payment is in progress.
        case paymentAlreadyInProgress
        /// The payment attempt ID was used before.
        case paymentAttemptIdReused
        /// An offline payment while authorized with a Sandbox account.
        case sandboxUnsupportedForOfflineProcessing
        /// The SDK timed out awaiting a payment.
        case timedOut
        /// Tracking consent is pending.
        case trackingConsentIsPending
        /// `startPayment` was used in an unexpected way.
        case unexpected
        /// The user entered an unsupported mode (split screen) mid-payment.
        case unsupportedMode
        /// Historical (≤ 2.3.1): the idempotency key was already used.
        case idempotencyKeyReused
        /// Historical (2.2.0–2.3.0): no network and not opted in to offline.
        case noNetworkAndMerchantNotOptedIntoOfflineProcessing
        /// Historical (2.3.0–2.3.1): a paymentAttemptId is required in this market.
        case paymentAttemptIdRequiredForSCA
    }

    /// Square's `AuthorizationError` (15 cases).
    package enum AuthorizationError: String, Error, Hashable, Sendable, Codable, CaseIterable {
        /// Already authorized.
        case alreadyAuthorized
        /// An authorization is running.
        case alreadyInProgress
        /// The authorization code was already used.
        case authorizationCodeAlreadyRedeemed
        /// A deauthorization is running.
        case deauthorizationInProgress
        /// The device clock is out of sync.
        case deviceTimeDoesNotMatchServerTime
        /// No access token.
        case emptyAccessToken
        /// No location ID.
        case emptyLocationID
        /// The authorization code expired.
        case expiredAuthorizationCode
        /// The access token is invalid.
        case invalidAccessToken
        /// The authorization code is invalid.
        case invalidAuthorizationCode
        /// The location ID is invalid.
        case invalidLocationID
        /// The location cannot process cards.
        case locationNotActivatedForCardProcessing
        /// No network.
        case noNetwork
        /// Unexpected.
        case unexpected
        /// The seller's country is not supported.
        case unsupportedCountry
    }

    /// Square's `OfflinePaymentQueueError` (3 cases).
    package enum OfflinePaymentQueueError: String, Error, Hashable, Sendable, Codable, CaseIterable {
        /// Not authorized.
        case notAuthorized
        /// Unexpected.
        case unexpected
        /// Offline used while authorized with Sandbox.
        case unsupportedSandboxEnvironment
    }

    /// Square's `ReaderPairingError` (17 cases), delivered by `readerPairingDidFail(with:)`.
    package enum ReaderPairingError: String, Error, Hashable, Sendable, Codable, CaseIterable {
        /// Bluetooth is off.
        case bluetoothDisabled
        /// Bluetooth is not ready.
        case bluetoothNotReady
        /// Bluetooth is not supported.
        case bluetoothNotSupported
        /// Bluetooth permission denied.
        case bluetoothPermissionDenied
        /// Bluetooth permission not determined.
        case bluetoothPermissionNotDetermined
        /// Bluetooth permission restricted.
        case bluetoothPermissionRestricted
        /// An unknown Bluetooth permission case.
        case bluetoothPermissionUnknownCase
        /// Bluetooth is resetting.
        case bluetoothResetting
        /// An unknown Bluetooth error.
        case bluetoothUnknownError
        /// The bond was removed; forget the reader in iOS settings.
        case bondingRemoved
        /// The reader failed to connect.
        case failedToConnect
        /// Not authorized.
        case notAuthorized
        /// Pairing is already running.
        case readerAlreadyPairing
        /// Bluetooth pairing is not possible in Sandbox.
        case sandboxNotSupported
        /// Pairing is not possible in the iOS simulator.
        case simulatorNotSupported
        /// Pairing timed out (after one minute).
        case timedOut
        /// The SDK is too old for this reader.
        case updateRequired
    }
}
