package import Tender

/// Square's error enums mapped to Tender's ``PaymentError``, by case name: Square publishes no raw values, so every
/// row's numeric code is `nil`. A case a future SDK adds is not in a table and maps to the documented fallback
/// (``PaymentError/Code/unrecognizedVendorError``, retry the same payment), never to a success or a decline.
package enum SquareErrorTable {
    /// The processor name used in every ``PaymentError/VendorError``.
    package static let processor = "square"

    /// `PaymentError`: the 16 cases of 2.5 and the 3 historical ones.
    package static let paymentError = VendorErrorTable(processor: processor, vendorType: "PaymentError", rows: [
        VendorErrorMapping("deviceTimeDoesNotMatchServerTime", nil, .configurationError, .fixIntegration, .creation,
                           "The device clock does not match Square's; set the time automatically and retry."),
        VendorErrorMapping("invalidPaymentParameters", nil, .invalidRequest, .fixRequest, .creation,
                           "Square refused the payment parameters."),
        VendorErrorMapping("invalidPaymentSource", nil, .invalidRequest, .fixRequest, .creation,
                           "The payment source does not match the payment method offered."),
        VendorErrorMapping("locationPermissionNeeded", nil, .devicePermissionDenied, .fixIntegration, .creation,
                           "Square needs location permission to take payments."),
        VendorErrorMapping("merchantNotOptedIntoOfflineProcessing", nil, .offlineUnavailable, .goOnline, .routing,
                           "This Square seller is not opted in to offline payments."),
        VendorErrorMapping("noNetwork", nil, .networkUnavailable, .goOnline, .creation,
                           "The device cannot reach Square."),
        VendorErrorMapping("notAuthorized", nil, .notAuthorized, .fixIntegration, .authorization,
                           "The Square SDK is not signed in to a seller."),
        VendorErrorMapping("offlineStoredAmountExceeded", nil, .offlineStoredTotalExceeded, .goOnline, .routing,
                           "The seller's limit on offline payments stored on this device is reached."),
        VendorErrorMapping("offlineTransactionAmountExceeded", nil, .offlinePaymentLimitExceeded, .goOnline,
                           .routing, "This payment is over the seller's offline limit per payment."),
        VendorErrorMapping("paymentAlreadyInProgress", nil, .paymentInProgress, .waitAndRetry, .creation,
                           "Another Square payment is in progress."),
        VendorErrorMapping("paymentAttemptIdReused", nil, .duplicateReference, .none, .creation,
                           "Square already has a payment under this payment attempt; it is looked up, never charged again."),
        VendorErrorMapping("sandboxUnsupportedForOfflineProcessing", nil, .offlineUnavailable, .fixIntegration,
                           .routing, "Square's Sandbox cannot take offline payments."),
        VendorErrorMapping("timedOut", nil, .timedOut, .retrySamePayment, .processing,
                           "Square timed out waiting for the payment; whether it went through is not known yet."),
        VendorErrorMapping("trackingConsentIsPending", nil, .configurationError, .fixIntegration, .creation,
                           "Square needs the user's tracking-consent choice first."),
        VendorErrorMapping("unexpected", nil, .unexpected, .retrySamePayment, .unknown,
                           "Square reported an unexpected error."),
        VendorErrorMapping("unsupportedMode", nil, .featureUnavailable, .retrySamePayment, .collection,
                           "The app entered split screen or another mode Square does not support mid-payment."),
        VendorErrorMapping("idempotencyKeyReused", nil, .duplicateReference, .none, .creation,
                           "Square already has a payment for this idempotency key (SDK 2.3 and older)."),
        VendorErrorMapping("noNetworkAndMerchantNotOptedIntoOfflineProcessing", nil, .networkUnavailable, .goOnline,
                           .creation, "The device is offline and the seller is not opted in to offline payments."),
        VendorErrorMapping("paymentAttemptIdRequiredForSCA", nil, .integrationError, .fixIntegration, .creation,
                           "Square requires a payment attempt ID in this market (SDK 2.3)."),
    ])

    /// `AuthorizationError`: 15 cases.
    package static let authorizationError = VendorErrorTable(
        processor: processor, vendorType: "AuthorizationError", rows: [
            VendorErrorMapping("alreadyAuthorized", nil, .invalidState, .none, .authorization,
                               "The device is already signed in to Square."),
            VendorErrorMapping("alreadyInProgress", nil, .invalidState, .waitAndRetry, .authorization,
                               "A Square sign-in is already running."),
            VendorErrorMapping("authorizationCodeAlreadyRedeemed", nil, .notAuthorized, .fixIntegration,
                               .authorization, "The Square authorization code was already used."),
            VendorErrorMapping("deauthorizationInProgress", nil, .invalidState, .waitAndRetry, .authorization,
                               "A Square sign-out is still running."),
            VendorErrorMapping("deviceTimeDoesNotMatchServerTime", nil, .configurationError, .fixIntegration,
                               .authorization, "The device clock does not match Square's."),
            VendorErrorMapping("emptyAccessToken", nil, .notAuthorized, .fixIntegration, .authorization,
                               "No Square access token was given."),
            VendorErrorMapping("emptyLocationID", nil, .configurationError, .fixIntegration, .authorization,
                               "No Square location was given."),
            VendorErrorMapping("expiredAuthorizationCode", nil, .notAuthorized, .fixIntegration, .authorization,
                               "The Square authorization code has expired."),
            VendorErrorMapping("invalidAccessToken", nil, .notAuthorized, .fixIntegration, .authorization,
                               "The Square access token is invalid."),
            VendorErrorMapping("invalidAuthorizationCode", nil, .notAuthorized, .fixIntegration, .authorization,
                               "The Square authorization code is invalid."),
            VendorErrorMapping("invalidLocationID", nil, .configurationError, .fixIntegration, .authorization,
                               "The Square location is invalid."),
            VendorErrorMapping("locationNotActivatedForCardProcessing", nil, .configurationError, .fixIntegration,
                               .authorization, "This Square location cannot take cards; use another location."),
            VendorErrorMapping("noNetwork", nil, .networkUnavailable, .goOnline, .authorization,
                               "Signing in to Square needs the network."),
            VendorErrorMapping("unexpected", nil, .unexpected, .retrySamePayment, .authorization,
                               "Square reported an unexpected sign-in error."),
            VendorErrorMapping("unsupportedCountry", nil, .featureUnavailable, .fixIntegration, .authorization,
                               "The seller's country is not supported by Square's SDK."),
        ])

    /// `OfflinePaymentQueueError`: 3 cases.
    package static let offlinePaymentQueueError = VendorErrorTable(
        processor: processor, vendorType: "OfflinePaymentQueueError", rows: [
            VendorErrorMapping("notAuthorized", nil, .notAuthorized, .fixIntegration, .reconciliation,
                               "The Square SDK is not signed in, so its offline queue cannot be read."),
            VendorErrorMapping("unexpected", nil, .unexpected, .retrySamePayment, .reconciliation,
                               "Square could not read its offline queue."),
            VendorErrorMapping("unsupportedSandboxEnvironment", nil, .offlineUnavailable, .fixIntegration,
                               .reconciliation, "Square's Sandbox has no offline queue."),
        ])

    /// `ReaderUnavailableReason`: 12 cases.
    package static let readerUnavailableReason = VendorErrorTable(
        processor: processor, vendorType: "ReaderUnavailableReason", rows: [
            VendorErrorMapping("blockingFirmwareUpdate", nil, .readerUpdateRequired, .waitAndRetry, .softwareUpdate,
                               "The reader is installing a required update."),
            VendorErrorMapping("bluetoothDisabled", nil, .devicePermissionDenied, .reconnectReader,
                               .readerConnection, "Bluetooth is off on this device."),
            VendorErrorMapping("bluetoothFailure", nil, .readerConnectionFailed, .reconnectReader,
                               .readerConnection, "A Bluetooth error interrupted the reader connection."),
            VendorErrorMapping("internalError", nil, .readerFault, .reconnectReader, .readerConnection,
                               "The reader or the SDK reported an internal error."),
            VendorErrorMapping("maxReadersConnected", nil, .readerConnectionFailed, .reconnectReader,
                               .readerConnection, "Too many readers are connected; disconnect one."),
            VendorErrorMapping("notConnectedToInternet", nil, .readerOfflineConnectionRefused, .goOnline,
                               .readerConnection, "The device must be online to connect this reader."),
            VendorErrorMapping("readerTimeout", nil, .readerConnectionFailed, .reconnectReader, .readerConnection,
                               "The reader did not connect in time."),
            VendorErrorMapping("revokedByDevice", nil, .readerConnectionFailed, .reconnectReader,
                               .readerConnection, "The device revoked the reader's access."),
            VendorErrorMapping("secureConnectionNetworkFailure", nil, .readerConnectionFailed, .goOnline,
                               .readerConnection, "The reader's secure session failed because of the network."),
            VendorErrorMapping("secureConnectionToSquareFailure", nil, .readerConnectionFailed, .reconnectReader,
                               .readerConnection, "The reader could not open a secure session with Square."),
            VendorErrorMapping("tapToPayError", nil, .readerFault, .reconnectReader, .readerConnection,
                               "Tap to Pay failed."),
            VendorErrorMapping("tapToPayIsNotLinked", nil, .featureUnavailable, .fixIntegration, .readerConnection,
                               "Tap to Pay is not linked to this seller."),
        ])

    /// `ReaderPairingError`: 17 cases.
    package static let readerPairingError = VendorErrorTable(
        processor: processor, vendorType: "ReaderPairingError", rows: [
            VendorErrorMapping("bluetoothDisabled", nil, .devicePermissionDenied, .fixIntegration, .readerConnection,
                               "Bluetooth is off on this device."),
            VendorErrorMapping("bluetoothNotReady", nil, .readerConnectionFailed, .reconnectReader,
                               .readerConnection, "Bluetooth is not ready yet."),
            VendorErrorMapping("bluetoothNotSupported", nil, .featureUnavailable, .fixIntegration, .readerConnection,
                               "This device has no Bluetooth."),
            VendorErrorMapping("bluetoothPermissionDenied", nil, .devicePermissionDenied, .fixIntegration,
                               .readerConnection, "Bluetooth permission was denied."),
            VendorErrorMapping("bluetoothPermissionNotDetermined", nil, .devicePermissionDenied, .fixIntegration,
                               .readerConnection, "Bluetooth permission has not been asked for."),
            VendorErrorMapping("bluetoothPermissionRestricted", nil, .devicePermissionDenied, .fixIntegration,
                               .readerConnection, "Bluetooth is restricted on this device."),
            VendorErrorMapping("bluetoothPermissionUnknownCase", nil, .devicePermissionDenied, .fixIntegration,
                               .readerConnection, "Bluetooth permission is in an unknown state."),
            VendorErrorMapping("bluetoothResetting", nil, .readerConnectionFailed, .reconnectReader,
                               .readerConnection, "Bluetooth is resetting."),
            VendorErrorMapping("bluetoothUnknownError", nil, .readerConnectionFailed, .reconnectReader,
                               .readerConnection, "An unknown Bluetooth error occurred."),
            VendorErrorMapping("bondingRemoved", nil, .readerConnectionFailed, .reconnectReader, .readerConnection,
                               "The reader's pairing was removed; forget it in the iOS Bluetooth settings."),
            VendorErrorMapping("failedToConnect", nil, .readerConnectionFailed, .reconnectReader, .readerConnection,
                               "The reader failed to connect."),
            VendorErrorMapping("notAuthorized", nil, .notAuthorized, .fixIntegration, .authorization,
                               "Pairing a reader needs a signed-in Square seller."),
            VendorErrorMapping("readerAlreadyPairing", nil, .readerBusy, .waitAndRetry, .readerConnection,
                               "A reader is already pairing."),
            VendorErrorMapping("sandboxNotSupported", nil, .featureUnavailable, .fixIntegration, .readerConnection,
                               "Bluetooth readers cannot pair in Square's Sandbox."),
            VendorErrorMapping("simulatorNotSupported", nil, .featureUnavailable, .fixIntegration,
                               .readerConnection, "Readers cannot pair in the iOS simulator; use a mock reader."),
            VendorErrorMapping("timedOut", nil, .readerConnectionFailed, .reconnectReader, .readerConnection,
                               "No reader paired within a minute."),
            VendorErrorMapping("updateRequired", nil, .readerUpdateRequired, .fixIntegration, .readerConnection,
                               "This reader needs a newer version of Square's SDK."),
        ])
}

extension Square.PaymentError {
    /// Tender's error for this case.
    package var tenderError: PaymentError { SquareErrorTable.paymentError.error(named: caseName) }
}

extension Square.AuthorizationError {
    /// Tender's error for this case.
    package var tenderError: PaymentError { SquareErrorTable.authorizationError.error(named: caseName) }
}

extension Square.OfflinePaymentQueueError {
    /// Tender's error for this case.
    package var tenderError: PaymentError { SquareErrorTable.offlinePaymentQueueError.error(named: caseName) }
}

extension Square.ReaderUnavailableReason {
    /// Tender's error for this reason.
    package var tenderError: PaymentError { SquareErrorTable.readerUnavailableReason.error(named: caseName) }
}

extension Square.ReaderPairingError {
    /// Tender's error for this case.
    package var tenderError: PaymentError { SquareErrorTable.readerPairingError.error(named: caseName) }
}
