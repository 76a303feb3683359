// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
import Foundation

// Swift imports every code of an `NS_ERROR_ENUM` a second time as a static member of the error struct, so that
// `catch ErrorCode.canceled` and `ErrorCode.canceled.rawValue` read naturally. The reference's note on `ErrorCode.Code`
// records this; the mirror-vs-surface test expects one member here per case of `ErrorCode.Code`.
extension ErrorCode {
    /// `SCPErrorCancelFailedAlreadyCompleted` (``ErrorCode/Code/cancelFailedAlreadyCompleted``).
    public static var cancelFailedAlreadyCompleted: ErrorCode.Code { .cancelFailedAlreadyCompleted }
    /// `SCPErrorCancelFailedUnavailable` (``ErrorCode/Code/cancelFailedUnavailable``).
    public static var cancelFailedUnavailable: ErrorCode.Code { .cancelFailedUnavailable }
    /// `SCPErrorNotConnectedToReader` (``ErrorCode/Code/notConnectedToReader``).
    public static var notConnectedToReader: ErrorCode.Code { .notConnectedToReader }
    /// `SCPErrorAlreadyConnectedToReader` (``ErrorCode/Code/alreadyConnectedToReader``).
    public static var alreadyConnectedToReader: ErrorCode.Code { .alreadyConnectedToReader }
    /// `SCPErrorConnectionTokenProviderCompletedWithNothing` (``ErrorCode/Code/connectionTokenProviderCompletedWithNothing``).
    public static var connectionTokenProviderCompletedWithNothing: ErrorCode.Code { .connectionTokenProviderCompletedWithNothing }
    /// `SCPErrorConnectionTokenProviderCompletedWithNothingWhileForwarding` (``ErrorCode/Code/connectionTokenProviderCompletedWithNothingWhileForwarding``).
    public static var connectionTokenProviderCompletedWithNothingWhileForwarding: ErrorCode.Code { .connectionTokenProviderCompletedWithNothingWhileForwarding }
    /// `SCPErrorConfirmInvalidPaymentIntent` (``ErrorCode/Code/confirmInvalidPaymentIntent``).
    public static var confirmInvalidPaymentIntent: ErrorCode.Code { .confirmInvalidPaymentIntent }
    /// `SCPErrorConfirmInvalidSetupIntent` (``ErrorCode/Code/confirmInvalidSetupIntent``).
    public static var confirmInvalidSetupIntent: ErrorCode.Code { .confirmInvalidSetupIntent }
    /// `SCPErrorNilPaymentIntent` (``ErrorCode/Code/nilPaymentIntent``).
    public static var nilPaymentIntent: ErrorCode.Code { .nilPaymentIntent }
    /// `SCPErrorNilSetupIntent` (``ErrorCode/Code/nilSetupIntent``).
    public static var nilSetupIntent: ErrorCode.Code { .nilSetupIntent }
    /// `SCPErrorNilRefundPaymentMethod` (``ErrorCode/Code/nilRefundPaymentMethod``).
    public static var nilRefundPaymentMethod: ErrorCode.Code { .nilRefundPaymentMethod }
    /// `SCPErrorInvalidRefundParameters` (``ErrorCode/Code/invalidRefundParameters``).
    public static var invalidRefundParameters: ErrorCode.Code { .invalidRefundParameters }
    /// `SCPErrorInvalidClientSecret` (``ErrorCode/Code/invalidClientSecret``).
    public static var invalidClientSecret: ErrorCode.Code { .invalidClientSecret }
    /// `SCPErrorInvalidDiscoveryConfiguration` (``ErrorCode/Code/invalidDiscoveryConfiguration``).
    public static var invalidDiscoveryConfiguration: ErrorCode.Code { .invalidDiscoveryConfiguration }
    /// `SCPErrorInvalidConnectionConfiguration` (``ErrorCode/Code/invalidConnectionConfiguration``).
    public static var invalidConnectionConfiguration: ErrorCode.Code { .invalidConnectionConfiguration }
    /// `SCPErrorInvalidReaderForUpdate` (``ErrorCode/Code/invalidReaderForUpdate``).
    public static var invalidReaderForUpdate: ErrorCode.Code { .invalidReaderForUpdate }
    /// `SCPErrorUnsupportedSDK` (``ErrorCode/Code/unsupportedSDK``).
    public static var unsupportedSDK: ErrorCode.Code { .unsupportedSDK }
    /// `SCPErrorFeatureNotAvailableWithConnectedReader` (``ErrorCode/Code/featureNotAvailableWithConnectedReader``).
    public static var featureNotAvailableWithConnectedReader: ErrorCode.Code { .featureNotAvailableWithConnectedReader }
    /// `SCPErrorFeatureNotAvailable` (``ErrorCode/Code/featureNotAvailable``).
    public static var featureNotAvailable: ErrorCode.Code { .featureNotAvailable }
    /// `SCPErrorInvalidListLocationsLimitParameter` (``ErrorCode/Code/invalidListLocationsLimitParameter``).
    public static var invalidListLocationsLimitParameter: ErrorCode.Code { .invalidListLocationsLimitParameter }
    /// `SCPErrorBluetoothConnectionInvalidLocationIdParameter` (``ErrorCode/Code/bluetoothConnectionInvalidLocationIdParameter``).
    public static var bluetoothConnectionInvalidLocationIdParameter: ErrorCode.Code { .bluetoothConnectionInvalidLocationIdParameter }
    /// `SCPErrorInvalidRequiredParameter` (``ErrorCode/Code/invalidRequiredParameter``).
    public static var invalidRequiredParameter: ErrorCode.Code { .invalidRequiredParameter }
    /// `SCPErrorInvalidRequiredParameterOnBehalfOf` (``ErrorCode/Code/invalidRequiredParameterOnBehalfOf``).
    public static var invalidRequiredParameterOnBehalfOf: ErrorCode.Code { .invalidRequiredParameterOnBehalfOf }
    /// `SCPErrorAccountIdMismatchWhileForwarding` (``ErrorCode/Code/accountIdMismatchWhileForwarding``).
    public static var accountIdMismatchWhileForwarding: ErrorCode.Code { .accountIdMismatchWhileForwarding }
    /// `SCPErrorUpdatePaymentIntentUnavailableWhileOffline` (``ErrorCode/Code/updatePaymentIntentUnavailableWhileOffline``).
    public static var updatePaymentIntentUnavailableWhileOffline: ErrorCode.Code { .updatePaymentIntentUnavailableWhileOffline }
    /// `SCPErrorUpdatePaymentIntentUnavailableWhileOfflineModeEnabled` (``ErrorCode/Code/updatePaymentIntentUnavailableWhileOfflineModeEnabled``).
    public static var updatePaymentIntentUnavailableWhileOfflineModeEnabled: ErrorCode.Code { .updatePaymentIntentUnavailableWhileOfflineModeEnabled }
    /// `SCPErrorForwardingTestModePaymentInLiveMode` (``ErrorCode/Code/forwardingTestModePaymentInLiveMode``).
    public static var forwardingTestModePaymentInLiveMode: ErrorCode.Code { .forwardingTestModePaymentInLiveMode }
    /// `SCPErrorForwardingLiveModePaymentInTestMode` (``ErrorCode/Code/forwardingLiveModePaymentInTestMode``).
    public static var forwardingLiveModePaymentInTestMode: ErrorCode.Code { .forwardingLiveModePaymentInTestMode }
    /// `SCPErrorReaderConnectionConfigurationInvalid` (``ErrorCode/Code/readerConnectionConfigurationInvalid``).
    public static var readerConnectionConfigurationInvalid: ErrorCode.Code { .readerConnectionConfigurationInvalid }
    /// `SCPErrorRequestDynamicCurrencyConversionRequiresUpdatePaymentIntent` (``ErrorCode/Code/requestDynamicCurrencyConversionRequiresUpdatePaymentIntent``).
    public static var requestDynamicCurrencyConversionRequiresUpdatePaymentIntent: ErrorCode.Code { .requestDynamicCurrencyConversionRequiresUpdatePaymentIntent }
    /// `SCPErrorDynamicCurrencyConversionNotAvailable` (``ErrorCode/Code/dynamicCurrencyConversionNotAvailable``).
    public static var dynamicCurrencyConversionNotAvailable: ErrorCode.Code { .dynamicCurrencyConversionNotAvailable }
    /// `SCPErrorSurchargingNotAvailable` (``ErrorCode/Code/surchargingNotAvailable``).
    public static var surchargingNotAvailable: ErrorCode.Code { .surchargingNotAvailable }
    /// `SCPErrorSurchargeConsentRequiresAmountSurcharge` (``ErrorCode/Code/surchargeConsentRequiresAmountSurcharge``).
    public static var surchargeConsentRequiresAmountSurcharge: ErrorCode.Code { .surchargeConsentRequiresAmountSurcharge }
    /// `SCPErrorSurchargeConsentNoticeRequiresAmountSurchargeAndCollectConsent` (``ErrorCode/Code/surchargeConsentNoticeRequiresAmountSurchargeAndCollectConsent``).
    public static var surchargeConsentNoticeRequiresAmountSurchargeAndCollectConsent: ErrorCode.Code { .surchargeConsentNoticeRequiresAmountSurchargeAndCollectConsent }
    /// `SCPErrorSurchargeConsentRequestedForUnsupportedReader` (``ErrorCode/Code/surchargeConsentRequestedForUnsupportedReader``).
    public static var surchargeConsentRequestedForUnsupportedReader: ErrorCode.Code { .surchargeConsentRequestedForUnsupportedReader }
    /// `SCPErrorSurchargeConsentDeclined` (``ErrorCode/Code/surchargeConsentDeclined``).
    public static var surchargeConsentDeclined: ErrorCode.Code { .surchargeConsentDeclined }
    /// `SCPErrorSurchargeConsentTimeout` (``ErrorCode/Code/surchargeConsentTimeout``).
    public static var surchargeConsentTimeout: ErrorCode.Code { .surchargeConsentTimeout }
    /// `SCPErrorReaderTippingParameterInvalid` (``ErrorCode/Code/readerTippingParameterInvalid``).
    public static var readerTippingParameterInvalid: ErrorCode.Code { .readerTippingParameterInvalid }
    /// `SCPErrorSurchargeNoticeRequiresUpdatePaymentIntent` (``ErrorCode/Code/surchargeNoticeRequiresUpdatePaymentIntent``).
    public static var surchargeNoticeRequiresUpdatePaymentIntent: ErrorCode.Code { .surchargeNoticeRequiresUpdatePaymentIntent }
    /// `SCPErrorSurchargeUnavailableWithDynamicCurrencyConversion` (``ErrorCode/Code/surchargeUnavailableWithDynamicCurrencyConversion``).
    public static var surchargeUnavailableWithDynamicCurrencyConversion: ErrorCode.Code { .surchargeUnavailableWithDynamicCurrencyConversion }
    /// `SCPErrorSurchargeNoticeNotAvailable` (``ErrorCode/Code/surchargeNoticeNotAvailable``).
    public static var surchargeNoticeNotAvailable: ErrorCode.Code { .surchargeNoticeNotAvailable }
    /// `SCPErrorAmountSurchargeRequiresUpdatePaymentIntent` (``ErrorCode/Code/amountSurchargeRequiresUpdatePaymentIntent``).
    public static var amountSurchargeRequiresUpdatePaymentIntent: ErrorCode.Code { .amountSurchargeRequiresUpdatePaymentIntent }
    /// `SCPErrorInvalidLocationIdParameter` (``ErrorCode/Code/invalidLocationIdParameter``).
    public static var invalidLocationIdParameter: ErrorCode.Code { .invalidLocationIdParameter }
    /// `SCPErrorCanceledDueToIntegrationError` (``ErrorCode/Code/canceledDueToIntegrationError``).
    public static var canceledDueToIntegrationError: ErrorCode.Code { .canceledDueToIntegrationError }
    /// `SCPErrorCollectInputsInvalidParameter` (``ErrorCode/Code/collectInputsInvalidParameter``).
    public static var collectInputsInvalidParameter: ErrorCode.Code { .collectInputsInvalidParameter }
    /// `SCPErrorCollectInputsUnsupported` (``ErrorCode/Code/collectInputsUnsupported``).
    public static var collectInputsUnsupported: ErrorCode.Code { .collectInputsUnsupported }
    /// `SCPErrorCanceled` (``ErrorCode/Code/canceled``).
    public static var canceled: ErrorCode.Code { .canceled }
    /// `SCPErrorLocationServicesDisabled` (``ErrorCode/Code/locationServicesDisabled``).
    public static var locationServicesDisabled: ErrorCode.Code { .locationServicesDisabled }
    /// `SCPErrorBluetoothDisabled` (``ErrorCode/Code/bluetoothDisabled``).
    public static var bluetoothDisabled: ErrorCode.Code { .bluetoothDisabled }
    /// `SCPErrorBluetoothAccessDenied` (``ErrorCode/Code/bluetoothAccessDenied``).
    public static var bluetoothAccessDenied: ErrorCode.Code { .bluetoothAccessDenied }
    /// `SCPErrorBluetoothScanTimedOut` (``ErrorCode/Code/bluetoothScanTimedOut``).
    public static var bluetoothScanTimedOut: ErrorCode.Code { .bluetoothScanTimedOut }
    /// `SCPErrorBluetoothLowEnergyUnsupported` (``ErrorCode/Code/bluetoothLowEnergyUnsupported``).
    public static var bluetoothLowEnergyUnsupported: ErrorCode.Code { .bluetoothLowEnergyUnsupported }
    /// `SCPErrorReaderSoftwareUpdateFailedBatteryLow` (``ErrorCode/Code/readerSoftwareUpdateFailedBatteryLow``).
    public static var readerSoftwareUpdateFailedBatteryLow: ErrorCode.Code { .readerSoftwareUpdateFailedBatteryLow }
    /// `SCPErrorReaderSoftwareUpdateFailedInterrupted` (``ErrorCode/Code/readerSoftwareUpdateFailedInterrupted``).
    public static var readerSoftwareUpdateFailedInterrupted: ErrorCode.Code { .readerSoftwareUpdateFailedInterrupted }
    /// `SCPErrorReaderSoftwareUpdateFailedExpiredUpdate` (``ErrorCode/Code/readerSoftwareUpdateFailedExpiredUpdate``).
    public static var readerSoftwareUpdateFailedExpiredUpdate: ErrorCode.Code { .readerSoftwareUpdateFailedExpiredUpdate }
    /// `SCPErrorBluetoothConnectionFailedBatteryCriticallyLow` (``ErrorCode/Code/bluetoothConnectionFailedBatteryCriticallyLow``).
    public static var bluetoothConnectionFailedBatteryCriticallyLow: ErrorCode.Code { .bluetoothConnectionFailedBatteryCriticallyLow }
    /// `SCPErrorCardInsertNotRead` (``ErrorCode/Code/cardInsertNotRead``).
    public static var cardInsertNotRead: ErrorCode.Code { .cardInsertNotRead }
    /// `SCPErrorCardSwipeNotRead` (``ErrorCode/Code/cardSwipeNotRead``).
    public static var cardSwipeNotRead: ErrorCode.Code { .cardSwipeNotRead }
    /// `SCPErrorCardReadTimedOut` (``ErrorCode/Code/cardReadTimedOut``).
    public static var cardReadTimedOut: ErrorCode.Code { .cardReadTimedOut }
    /// `SCPErrorCardRemoved` (``ErrorCode/Code/cardRemoved``).
    public static var cardRemoved: ErrorCode.Code { .cardRemoved }
    /// `SCPErrorCardLeftInReader` (``ErrorCode/Code/cardLeftInReader``).
    public static var cardLeftInReader: ErrorCode.Code { .cardLeftInReader }
    /// `SCPErrorOfflinePaymentsDatabaseTooLarge` (``ErrorCode/Code/offlinePaymentsDatabaseTooLarge``).
    public static var offlinePaymentsDatabaseTooLarge: ErrorCode.Code { .offlinePaymentsDatabaseTooLarge }
    /// `SCPErrorReaderConnectionNotAvailableOffline` (``ErrorCode/Code/readerConnectionNotAvailableOffline``).
    public static var readerConnectionNotAvailableOffline: ErrorCode.Code { .readerConnectionNotAvailableOffline }
    /// `SCPErrorReaderConnectionOfflineLocationMismatch` (``ErrorCode/Code/readerConnectionOfflineLocationMismatch``).
    public static var readerConnectionOfflineLocationMismatch: ErrorCode.Code { .readerConnectionOfflineLocationMismatch }
    /// `SCPErrorReaderConnectionOfflineNeedsUpdate` (``ErrorCode/Code/readerConnectionOfflineNeedsUpdate``).
    public static var readerConnectionOfflineNeedsUpdate: ErrorCode.Code { .readerConnectionOfflineNeedsUpdate }
    /// `SCPErrorReaderConnectionOfflinePairingUnseenDisabled` (``ErrorCode/Code/readerConnectionOfflinePairingUnseenDisabled``).
    public static var readerConnectionOfflinePairingUnseenDisabled: ErrorCode.Code { .readerConnectionOfflinePairingUnseenDisabled }
    /// `SCPErrorNoLastSeenAccount` (``ErrorCode/Code/noLastSeenAccount``).
    public static var noLastSeenAccount: ErrorCode.Code { .noLastSeenAccount }
    /// `SCPErrorAmountExceedsMaxOfflineAmount` (``ErrorCode/Code/amountExceedsMaxOfflineAmount``).
    public static var amountExceedsMaxOfflineAmount: ErrorCode.Code { .amountExceedsMaxOfflineAmount }
    /// `SCPErrorInvalidOfflineCurrency` (``ErrorCode/Code/invalidOfflineCurrency``).
    public static var invalidOfflineCurrency: ErrorCode.Code { .invalidOfflineCurrency }
    /// `SCPErrorMissingEMVData` (``ErrorCode/Code/missingEMVData``).
    public static var missingEMVData: ErrorCode.Code { .missingEMVData }
    /// `SCPErrorCommandNotAllowed` (``ErrorCode/Code/commandNotAllowed``).
    public static var commandNotAllowed: ErrorCode.Code { .commandNotAllowed }
    /// `SCPErrorUnsupportedMobileDeviceConfiguration` (``ErrorCode/Code/unsupportedMobileDeviceConfiguration``).
    public static var unsupportedMobileDeviceConfiguration: ErrorCode.Code { .unsupportedMobileDeviceConfiguration }
    /// `SCPErrorPasscodeNotEnabled` (``ErrorCode/Code/passcodeNotEnabled``).
    public static var passcodeNotEnabled: ErrorCode.Code { .passcodeNotEnabled }
    /// `SCPErrorCommandNotAllowedDuringCall` (``ErrorCode/Code/commandNotAllowedDuringCall``).
    public static var commandNotAllowedDuringCall: ErrorCode.Code { .commandNotAllowedDuringCall }
    /// `SCPErrorInvalidAmount` (``ErrorCode/Code/invalidAmount``).
    public static var invalidAmount: ErrorCode.Code { .invalidAmount }
    /// `SCPErrorInvalidCurrency` (``ErrorCode/Code/invalidCurrency``).
    public static var invalidCurrency: ErrorCode.Code { .invalidCurrency }
    /// `SCPErrorTapToPayReaderTOSAcceptanceRequiresiCloudSignIn` (``ErrorCode/Code/tapToPayReaderTOSAcceptanceRequiresiCloudSignIn``).
    public static var tapToPayReaderTOSAcceptanceRequiresiCloudSignIn: ErrorCode.Code { .tapToPayReaderTOSAcceptanceRequiresiCloudSignIn }
    /// `SCPErrorTapToPayReaderTOSAcceptanceCanceled` (``ErrorCode/Code/tapToPayReaderTOSAcceptanceCanceled``).
    public static var tapToPayReaderTOSAcceptanceCanceled: ErrorCode.Code { .tapToPayReaderTOSAcceptanceCanceled }
    /// `SCPErrorCollectInputsTimedOut` (``ErrorCode/Code/collectInputsTimedOut``).
    public static var collectInputsTimedOut: ErrorCode.Code { .collectInputsTimedOut }
    /// `SCPErrorUsbDiscoveryTimedOut` (``ErrorCode/Code/usbDiscoveryTimedOut``).
    public static var usbDiscoveryTimedOut: ErrorCode.Code { .usbDiscoveryTimedOut }
    /// `SCPErrorOfflineEncryptionKeysUnavailable` (``ErrorCode/Code/offlineEncryptionKeysUnavailable``).
    public static var offlineEncryptionKeysUnavailable: ErrorCode.Code { .offlineEncryptionKeysUnavailable }
    /// `SCPErrorReaderBusy` (``ErrorCode/Code/readerBusy``).
    public static var readerBusy: ErrorCode.Code { .readerBusy }
    /// `SCPErrorIncompatibleReader` (``ErrorCode/Code/incompatibleReader``).
    public static var incompatibleReader: ErrorCode.Code { .incompatibleReader }
    /// `SCPErrorReaderCommunicationError` (``ErrorCode/Code/readerCommunicationError``).
    public static var readerCommunicationError: ErrorCode.Code { .readerCommunicationError }
    /// `SCPErrorNFCDisabled` (``ErrorCode/Code/nfcDisabled``).
    public static var nfcDisabled: ErrorCode.Code { .nfcDisabled }
    /// `SCPErrorBluetoothError` (``ErrorCode/Code/bluetoothError``).
    public static var bluetoothError: ErrorCode.Code { .bluetoothError }
    /// `SCPErrorBluetoothConnectTimedOut` (``ErrorCode/Code/bluetoothConnectTimedOut``).
    public static var bluetoothConnectTimedOut: ErrorCode.Code { .bluetoothConnectTimedOut }
    /// `SCPErrorBluetoothDisconnected` (``ErrorCode/Code/bluetoothDisconnected``).
    public static var bluetoothDisconnected: ErrorCode.Code { .bluetoothDisconnected }
    /// `SCPErrorBluetoothPeerRemovedPairingInformation` (``ErrorCode/Code/bluetoothPeerRemovedPairingInformation``).
    public static var bluetoothPeerRemovedPairingInformation: ErrorCode.Code { .bluetoothPeerRemovedPairingInformation }
    /// `SCPErrorBluetoothAlreadyPairedWithAnotherDevice` (``ErrorCode/Code/bluetoothAlreadyPairedWithAnotherDevice``).
    public static var bluetoothAlreadyPairedWithAnotherDevice: ErrorCode.Code { .bluetoothAlreadyPairedWithAnotherDevice }
    /// `SCPErrorReaderSoftwareUpdateFailed` (``ErrorCode/Code/readerSoftwareUpdateFailed``).
    public static var readerSoftwareUpdateFailed: ErrorCode.Code { .readerSoftwareUpdateFailed }
    /// `SCPErrorReaderSoftwareUpdateFailedReaderError` (``ErrorCode/Code/readerSoftwareUpdateFailedReaderError``).
    public static var readerSoftwareUpdateFailedReaderError: ErrorCode.Code { .readerSoftwareUpdateFailedReaderError }
    /// `SCPErrorReaderSoftwareUpdateFailedServerError` (``ErrorCode/Code/readerSoftwareUpdateFailedServerError``).
    public static var readerSoftwareUpdateFailedServerError: ErrorCode.Code { .readerSoftwareUpdateFailedServerError }
    /// `SCPErrorUnsupportedReaderVersion` (``ErrorCode/Code/unsupportedReaderVersion``).
    public static var unsupportedReaderVersion: ErrorCode.Code { .unsupportedReaderVersion }
    /// `SCPErrorUnknownReaderIpAddress` (``ErrorCode/Code/unknownReaderIpAddress``).
    public static var unknownReaderIpAddress: ErrorCode.Code { .unknownReaderIpAddress }
    /// `SCPErrorInternetConnectTimeOut` (``ErrorCode/Code/internetConnectTimeOut``).
    public static var internetConnectTimeOut: ErrorCode.Code { .internetConnectTimeOut }
    /// `SCPErrorConnectFailedReaderIsInUse` (``ErrorCode/Code/connectFailedReaderIsInUse``).
    public static var connectFailedReaderIsInUse: ErrorCode.Code { .connectFailedReaderIsInUse }
    /// `SCPErrorBluetoothReconnectStarted` (``ErrorCode/Code/bluetoothReconnectStarted``).
    public static var bluetoothReconnectStarted: ErrorCode.Code { .bluetoothReconnectStarted }
    /// `SCPErrorReaderNotAccessibleInBackground` (``ErrorCode/Code/readerNotAccessibleInBackground``).
    public static var readerNotAccessibleInBackground: ErrorCode.Code { .readerNotAccessibleInBackground }
    /// `SCPErrorTapToPayReaderRequestInterrupted` (``ErrorCode/Code/tapToPayReaderRequestInterrupted``).
    public static var tapToPayReaderRequestInterrupted: ErrorCode.Code { .tapToPayReaderRequestInterrupted }
    /// `SCPErrorTapToPayReaderFailedToPrepare` (``ErrorCode/Code/tapToPayReaderFailedToPrepare``).
    public static var tapToPayReaderFailedToPrepare: ErrorCode.Code { .tapToPayReaderFailedToPrepare }
    /// `SCPErrorTapToPayReaderDeviceBanned` (``ErrorCode/Code/tapToPayReaderDeviceBanned``).
    public static var tapToPayReaderDeviceBanned: ErrorCode.Code { .tapToPayReaderDeviceBanned }
    /// `SCPErrorTapToPayReaderTOSNotYetAccepted` (``ErrorCode/Code/tapToPayReaderTOSNotYetAccepted``).
    public static var tapToPayReaderTOSNotYetAccepted: ErrorCode.Code { .tapToPayReaderTOSNotYetAccepted }
    /// `SCPErrorTapToPayReaderTOSAcceptanceFailed` (``ErrorCode/Code/tapToPayReaderTOSAcceptanceFailed``).
    public static var tapToPayReaderTOSAcceptanceFailed: ErrorCode.Code { .tapToPayReaderTOSAcceptanceFailed }
    /// `SCPErrorTapToPayReaderMerchantBlocked` (``ErrorCode/Code/tapToPayReaderMerchantBlocked``).
    public static var tapToPayReaderMerchantBlocked: ErrorCode.Code { .tapToPayReaderMerchantBlocked }
    /// `SCPErrorTapToPayReaderInvalidMerchant` (``ErrorCode/Code/tapToPayReaderInvalidMerchant``).
    public static var tapToPayReaderInvalidMerchant: ErrorCode.Code { .tapToPayReaderInvalidMerchant }
    /// `SCPErrorTapToPayReaderAccountDeactivated` (``ErrorCode/Code/tapToPayReaderAccountDeactivated``).
    public static var tapToPayReaderAccountDeactivated: ErrorCode.Code { .tapToPayReaderAccountDeactivated }
    /// `SCPErrorTapToPayReaderOfflineModeNotAllowed` (``ErrorCode/Code/tapToPayReaderOfflineModeNotAllowed``).
    public static var tapToPayReaderOfflineModeNotAllowed: ErrorCode.Code { .tapToPayReaderOfflineModeNotAllowed }
    /// `SCPErrorTapToPayReaderOfflineModeSessionExpired` (``ErrorCode/Code/tapToPayReaderOfflineModeSessionExpired``).
    public static var tapToPayReaderOfflineModeSessionExpired: ErrorCode.Code { .tapToPayReaderOfflineModeSessionExpired }
    /// `SCPErrorTapToPayReaderOfflineModeSessionInvalidated` (``ErrorCode/Code/tapToPayReaderOfflineModeSessionInvalidated``).
    public static var tapToPayReaderOfflineModeSessionInvalidated: ErrorCode.Code { .tapToPayReaderOfflineModeSessionInvalidated }
    /// `SCPErrorTapToPayReaderOfflineModeTokenIssuerChanged` (``ErrorCode/Code/tapToPayReaderOfflineModeTokenIssuerChanged``).
    public static var tapToPayReaderOfflineModeTokenIssuerChanged: ErrorCode.Code { .tapToPayReaderOfflineModeTokenIssuerChanged }
    /// `SCPErrorReaderMissingEncryptionKeys` (``ErrorCode/Code/readerMissingEncryptionKeys``).
    public static var readerMissingEncryptionKeys: ErrorCode.Code { .readerMissingEncryptionKeys }
    /// `SCPErrorUsbDisconnected` (``ErrorCode/Code/usbDisconnected``).
    public static var usbDisconnected: ErrorCode.Code { .usbDisconnected }
    /// `SCPErrorPrinterBusy` (``ErrorCode/Code/printerBusy``).
    public static var printerBusy: ErrorCode.Code { .printerBusy }
    /// `SCPErrorPrinterPaperJam` (``ErrorCode/Code/printerPaperJam``).
    public static var printerPaperJam: ErrorCode.Code { .printerPaperJam }
    /// `SCPErrorPrinterOutOfPaper` (``ErrorCode/Code/printerOutOfPaper``).
    public static var printerOutOfPaper: ErrorCode.Code { .printerOutOfPaper }
    /// `SCPErrorPrinterCoverOpen` (``ErrorCode/Code/printerCoverOpen``).
    public static var printerCoverOpen: ErrorCode.Code { .printerCoverOpen }
    /// `SCPErrorPrinterAbsent` (``ErrorCode/Code/printerAbsent``).
    public static var printerAbsent: ErrorCode.Code { .printerAbsent }
    /// `SCPErrorPrinterUnavailable` (``ErrorCode/Code/printerUnavailable``).
    public static var printerUnavailable: ErrorCode.Code { .printerUnavailable }
    /// `SCPErrorPrinterError` (``ErrorCode/Code/printerError``).
    public static var printerError: ErrorCode.Code { .printerError }
    /// `SCPErrorReaderConnectedToAnotherDevice` (``ErrorCode/Code/readerConnectedToAnotherDevice``).
    public static var readerConnectedToAnotherDevice: ErrorCode.Code { .readerConnectedToAnotherDevice }
    /// `SCPErrorReaderTampered` (``ErrorCode/Code/readerTampered``).
    public static var readerTampered: ErrorCode.Code { .readerTampered }
    /// `SCPErrorUnexpectedSdkError` (``ErrorCode/Code/unexpectedSdkError``).
    public static var unexpectedSdkError: ErrorCode.Code { .unexpectedSdkError }
    /// `SCPErrorUnexpectedReaderError` (``ErrorCode/Code/unexpectedReaderError``).
    public static var unexpectedReaderError: ErrorCode.Code { .unexpectedReaderError }
    /// `SCPErrorEncryptionKeyFailure` (``ErrorCode/Code/encryptionKeyFailure``).
    public static var encryptionKeyFailure: ErrorCode.Code { .encryptionKeyFailure }
    /// `SCPErrorEncryptionKeyStillInitializing` (``ErrorCode/Code/encryptionKeyStillInitializing``).
    public static var encryptionKeyStillInitializing: ErrorCode.Code { .encryptionKeyStillInitializing }
    /// `SCPErrorCollectInputsApplicationError` (``ErrorCode/Code/collectInputsApplicationError``).
    public static var collectInputsApplicationError: ErrorCode.Code { .collectInputsApplicationError }
    /// `SCPErrorGenericReaderError` (``ErrorCode/Code/genericReaderError``).
    public static var genericReaderError: ErrorCode.Code { .genericReaderError }
    /// `SCPErrorCollectDataApplicationError` (``ErrorCode/Code/collectDataApplicationError``).
    public static var collectDataApplicationError: ErrorCode.Code { .collectDataApplicationError }
    /// `SCPErrorDisplaySurchargeConsentApplicationError` (``ErrorCode/Code/displaySurchargeConsentApplicationError``).
    public static var displaySurchargeConsentApplicationError: ErrorCode.Code { .displaySurchargeConsentApplicationError }
    /// `SCPErrorUnexpectedOperationError` (``ErrorCode/Code/unexpectedOperationError``).
    public static var unexpectedOperationError: ErrorCode.Code { .unexpectedOperationError }
    /// `SCPErrorDeclinedByStripeAPI` (``ErrorCode/Code/declinedByStripeAPI``).
    public static var declinedByStripeAPI: ErrorCode.Code { .declinedByStripeAPI }
    /// `SCPErrorDeclinedByReader` (``ErrorCode/Code/declinedByReader``).
    public static var declinedByReader: ErrorCode.Code { .declinedByReader }
    /// `SCPErrorCardNotSupported` (``ErrorCode/Code/cardNotSupported``).
    public static var cardNotSupported: ErrorCode.Code { .cardNotSupported }
    /// `SCPErrorCommandRequiresCardholderConsent` (``ErrorCode/Code/commandRequiresCardholderConsent``).
    public static var commandRequiresCardholderConsent: ErrorCode.Code { .commandRequiresCardholderConsent }
    /// `SCPErrorCommandInvalidAllowRedisplay` (``ErrorCode/Code/commandInvalidAllowRedisplay``).
    public static var commandInvalidAllowRedisplay: ErrorCode.Code { .commandInvalidAllowRedisplay }
    /// `SCPErrorRefundFailed` (``ErrorCode/Code/refundFailed``).
    public static var refundFailed: ErrorCode.Code { .refundFailed }
    /// `SCPErrorCardSwipeNotAvailable` (``ErrorCode/Code/cardSwipeNotAvailable``).
    public static var cardSwipeNotAvailable: ErrorCode.Code { .cardSwipeNotAvailable }
    /// `SCPErrorInteracNotSupportedOffline` (``ErrorCode/Code/interacNotSupportedOffline``).
    public static var interacNotSupportedOffline: ErrorCode.Code { .interacNotSupportedOffline }
    /// `SCPErrorOfflineAndCardExpired` (``ErrorCode/Code/offlineAndCardExpired``).
    public static var offlineAndCardExpired: ErrorCode.Code { .offlineAndCardExpired }
    /// `SCPErrorOfflineTransactionDeclined` (``ErrorCode/Code/offlineTransactionDeclined``).
    public static var offlineTransactionDeclined: ErrorCode.Code { .offlineTransactionDeclined }
    /// `SCPErrorOfflineCollectAndConfirmMismatch` (``ErrorCode/Code/offlineCollectAndConfirmMismatch``).
    public static var offlineCollectAndConfirmMismatch: ErrorCode.Code { .offlineCollectAndConfirmMismatch }
    /// `SCPErrorOnlinePinNotSupportedOffline` (``ErrorCode/Code/onlinePinNotSupportedOffline``).
    public static var onlinePinNotSupportedOffline: ErrorCode.Code { .onlinePinNotSupportedOffline }
    /// `SCPErrorOfflineTestCardInLivemode` (``ErrorCode/Code/offlineTestCardInLivemode``).
    public static var offlineTestCardInLivemode: ErrorCode.Code { .offlineTestCardInLivemode }
    /// `SCPErrorAmountSurchargeNotSupportedOffline` (``ErrorCode/Code/amountSurchargeNotSupportedOffline``).
    public static var amountSurchargeNotSupportedOffline: ErrorCode.Code { .amountSurchargeNotSupportedOffline }
    /// `SCPErrorSimulatedOfflineModeNotAvailableInLivemode` (``ErrorCode/Code/simulatedOfflineModeNotAvailableInLivemode``).
    public static var simulatedOfflineModeNotAvailableInLivemode: ErrorCode.Code { .simulatedOfflineModeNotAvailableInLivemode }
    /// `SCPErrorSimulatedOfflineModeNotAvailableForAccount` (``ErrorCode/Code/simulatedOfflineModeNotAvailableForAccount``).
    public static var simulatedOfflineModeNotAvailableForAccount: ErrorCode.Code { .simulatedOfflineModeNotAvailableForAccount }
    /// `SCPErrorNotConnectedToInternet` (``ErrorCode/Code/notConnectedToInternet``).
    public static var notConnectedToInternet: ErrorCode.Code { .notConnectedToInternet }
    /// `SCPErrorRequestTimedOut` (``ErrorCode/Code/requestTimedOut``).
    public static var requestTimedOut: ErrorCode.Code { .requestTimedOut }
    /// `SCPErrorStripeAPIError` (``ErrorCode/Code/stripeAPIError``).
    public static var stripeAPIError: ErrorCode.Code { .stripeAPIError }
    /// `SCPErrorStripeAPIResponseDecodingError` (``ErrorCode/Code/stripeAPIResponseDecodingError``).
    public static var stripeAPIResponseDecodingError: ErrorCode.Code { .stripeAPIResponseDecodingError }
    /// `SCPErrorInternalNetworkError` (``ErrorCode/Code/internalNetworkError``).
    public static var internalNetworkError: ErrorCode.Code { .internalNetworkError }
    /// `SCPErrorTapToPayInternalNetworkError` (``ErrorCode/Code/tapToPayInternalNetworkError``).
    public static var tapToPayInternalNetworkError: ErrorCode.Code { .tapToPayInternalNetworkError }
    /// `SCPErrorConnectionTokenProviderCompletedWithError` (``ErrorCode/Code/connectionTokenProviderCompletedWithError``).
    public static var connectionTokenProviderCompletedWithError: ErrorCode.Code { .connectionTokenProviderCompletedWithError }
    /// `SCPErrorConnectionTokenProviderCompletedWithErrorWhileForwarding` (``ErrorCode/Code/connectionTokenProviderCompletedWithErrorWhileForwarding``).
    public static var connectionTokenProviderCompletedWithErrorWhileForwarding: ErrorCode.Code { .connectionTokenProviderCompletedWithErrorWhileForwarding }
    /// `SCPErrorConnectionTokenProviderTimedOut` (``ErrorCode/Code/connectionTokenProviderTimedOut``).
    public static var connectionTokenProviderTimedOut: ErrorCode.Code { .connectionTokenProviderTimedOut }
    /// `SCPErrorSessionExpired` (``ErrorCode/Code/sessionExpired``).
    public static var sessionExpired: ErrorCode.Code { .sessionExpired }
    /// `SCPErrorNotConnectedToInternetAndOfflineBehaviorRequireOnline` (``ErrorCode/Code/notConnectedToInternetAndOfflineBehaviorRequireOnline``).
    public static var notConnectedToInternetAndOfflineBehaviorRequireOnline: ErrorCode.Code { .notConnectedToInternetAndOfflineBehaviorRequireOnline }
    /// `SCPErrorOfflineBehaviorForceOfflineWithFeatureDisabled` (``ErrorCode/Code/offlineBehaviorForceOfflineWithFeatureDisabled``).
    public static var offlineBehaviorForceOfflineWithFeatureDisabled: ErrorCode.Code { .offlineBehaviorForceOfflineWithFeatureDisabled }
}
