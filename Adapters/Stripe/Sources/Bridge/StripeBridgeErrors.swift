#if TENDER_SURFACE_MIRROR
import StripeTerminalSurface
#elseif StripeTerminalSDK
import StripeTerminal
#endif

#if StripeTerminalSDK || TENDER_SURFACE_MIRROR
import Foundation
import TenderStripe

/// The SDK's errors as the adapter's ``Stripe/ErrorCode``.
///
/// Every error the SDK reports is an `NSError` in `ErrorDomain` (a `ConfirmPaymentIntentError` for a confirmation). It
/// is read through `(error as NSError)`, which works for both kinds on iOS and on Linux (where an `NSError` never
/// bridges to `ErrorCode` with `as?`): its `code` goes through the SDK's own `ErrorCode.Code` and then, by an exhaustive
/// `switch`, to the case's *name*, which is what the adapter's error table is keyed by. The integer is never mapped
/// (raw values drift between SDK releases); a case a newer SDK adds, or an error from another domain, keeps a name the
/// table does not know and so gets the table's documented fallback.
///
/// From `userInfo` (keys from the SDK's `ErrorKey`): the text keys the adapter reads, the intent
/// (`ConfirmPaymentIntentError.paymentIntent` for a confirmation, where nil means the outcome is unknown; otherwise
/// `ErrorKey.stripeAPIPaymentIntent`), registered so that it can be passed back, and the API error
/// (`ConfirmPaymentIntentError.apiError` or `ErrorKey.stripeAPIError`) with its decline code.
enum StripeBridgeErrors {
    /// The `userInfo` text keys the adapter keeps, SDK key → adapter key (the same names on both sides).
    static let textKeys: [(sdk: ErrorKey, adapter: Stripe.ErrorKey)] = [
        (.message, .message), (.stripeAPIDeclineCode, .stripeAPIDeclineCode),
        (.stripeAPIErrorCode, .stripeAPIErrorCode), (.stripeAPIFailureReason, .stripeAPIFailureReason),
        (.stripeAPIRequestId, .stripeAPIRequestId), (.offlineDeclineReason, .offlineDeclineReason),
        (.readerMessage, .readerMessage),
    ]

    /// The adapter's error for an error the SDK reported (or the bridge built with ``sdkError(_:_:)``).
    /// - Parameters:
    ///   - registry: where the error's intent is registered, so the adapter can pass it back.
    ///   - refund: `ConfirmRefundError.refund`, for an in-person refund.
    static func translate(_ error: any Error, registry: StripeObjectRegistry,
                          refund: Stripe.Refund? = nil) -> Stripe.ErrorCode {
        let nsError = error as NSError
        var info: [Stripe.ErrorKey: String] = [:]
        for key in textKeys {
            if let text = nsError.userInfo[key.sdk.rawValue] as? String { info[key.adapter] = text }
        }
        var intent = nsError.userInfo[ErrorKey.stripeAPIPaymentIntent.rawValue] as? PaymentIntent
        var apiError = nsError.userInfo[ErrorKey.stripeAPIError.rawValue] as? ApiError
        if let confirm = nsError as? ConfirmPaymentIntentError {
            // Seed 002's table reads this property: nil means the request timed out and the outcome is unknown.
            intent = confirm.paymentIntent
            apiError = confirm.apiError ?? apiError
            if info[.stripeAPIDeclineCode] == nil, let declineCode = confirm.declineCode {
                info[.stripeAPIDeclineCode] = declineCode
            }
        }
        return Stripe.ErrorCode(
            code(of: nsError), message: info[.message] ?? nsError.localizedDescription,
            paymentIntent: intent.map { StripeTerminalBridge.value(of: $0, registry: registry) },
            apiError: apiError.map(value(of:)), refund: refund, userInfo: info)
    }

    /// The adapter's code for an `NSError`: the SDK case's name, or a name the error table does not know.
    static func code(of error: NSError) -> Stripe.ErrorCode.Code {
        guard error.domain == ErrorDomain else {
            return Stripe.ErrorCode.Code(name: "\(error.domain)#\(error.code)", numericCode: error.code)
        }
        guard let sdkCode = ErrorCode.Code(rawValue: error.code), let name = name(of: sdkCode) else {
            return Stripe.ErrorCode.Code(name: "unknownSDKErrorCode\(error.code)", numericCode: error.code)
        }
        return Stripe.ErrorCode.Code(name: name, numericCode: error.code)
    }

    /// An error in the SDK's domain for a refusal the bridge makes without calling the SDK (an unknown handle, a
    /// discovery method the bridge cannot build), so that it is translated like the SDK's own.
    static func sdkError(_ code: ErrorCode.Code, _ message: String) -> any Error {
        ErrorCode(code, userInfo: [ErrorKey.message.rawValue: message])
    }

    /// `SCPApiError` as the adapter's value.
    static func value(of error: ApiError) -> Stripe.ApiError {
        Stripe.ApiError(type: error.type, code: error.code, message: error.message, declineCode: error.declineCode,
                        charge: error.charge)
    }

    /// The Swift name of each of the SDK's 159 error codes (5.5.0); nil for a case a newer SDK adds.
    static func name(of code: ErrorCode.Code) -> String? {
        switch code {
        case .cancelFailedAlreadyCompleted: "cancelFailedAlreadyCompleted"
        case .cancelFailedUnavailable: "cancelFailedUnavailable"
        case .notConnectedToReader: "notConnectedToReader"
        case .alreadyConnectedToReader: "alreadyConnectedToReader"
        case .connectionTokenProviderCompletedWithNothing: "connectionTokenProviderCompletedWithNothing"
        case .connectionTokenProviderCompletedWithNothingWhileForwarding: "connectionTokenProviderCompletedWithNothingWhileForwarding"
        case .confirmInvalidPaymentIntent: "confirmInvalidPaymentIntent"
        case .confirmInvalidSetupIntent: "confirmInvalidSetupIntent"
        case .nilPaymentIntent: "nilPaymentIntent"
        case .nilSetupIntent: "nilSetupIntent"
        case .nilRefundPaymentMethod: "nilRefundPaymentMethod"
        case .invalidRefundParameters: "invalidRefundParameters"
        case .invalidClientSecret: "invalidClientSecret"
        case .invalidDiscoveryConfiguration: "invalidDiscoveryConfiguration"
        case .invalidConnectionConfiguration: "invalidConnectionConfiguration"
        case .invalidReaderForUpdate: "invalidReaderForUpdate"
        case .unsupportedSDK: "unsupportedSDK"
        case .featureNotAvailableWithConnectedReader: "featureNotAvailableWithConnectedReader"
        case .featureNotAvailable: "featureNotAvailable"
        case .invalidListLocationsLimitParameter: "invalidListLocationsLimitParameter"
        case .bluetoothConnectionInvalidLocationIdParameter: "bluetoothConnectionInvalidLocationIdParameter"
        case .invalidRequiredParameter: "invalidRequiredParameter"
        case .invalidRequiredParameterOnBehalfOf: "invalidRequiredParameterOnBehalfOf"
        case .accountIdMismatchWhileForwarding: "accountIdMismatchWhileForwarding"
        case .updatePaymentIntentUnavailableWhileOffline: "updatePaymentIntentUnavailableWhileOffline"
        case .updatePaymentIntentUnavailableWhileOfflineModeEnabled: "updatePaymentIntentUnavailableWhileOfflineModeEnabled"
        case .forwardingTestModePaymentInLiveMode: "forwardingTestModePaymentInLiveMode"
        case .forwardingLiveModePaymentInTestMode: "forwardingLiveModePaymentInTestMode"
        case .readerConnectionConfigurationInvalid: "readerConnectionConfigurationInvalid"
        case .requestDynamicCurrencyConversionRequiresUpdatePaymentIntent: "requestDynamicCurrencyConversionRequiresUpdatePaymentIntent"
        case .dynamicCurrencyConversionNotAvailable: "dynamicCurrencyConversionNotAvailable"
        case .surchargingNotAvailable: "surchargingNotAvailable"
        case .surchargeConsentRequiresAmountSurcharge: "surchargeConsentRequiresAmountSurcharge"
        case .surchargeConsentNoticeRequiresAmountSurchargeAndCollectConsent: "surchargeConsentNoticeRequiresAmountSurchargeAndCollectConsent"
        case .surchargeConsentRequestedForUnsupportedReader: "surchargeConsentRequestedForUnsupportedReader"
        case .surchargeConsentDeclined: "surchargeConsentDeclined"
        case .surchargeConsentTimeout: "surchargeConsentTimeout"
        case .readerTippingParameterInvalid: "readerTippingParameterInvalid"
        case .surchargeNoticeRequiresUpdatePaymentIntent: "surchargeNoticeRequiresUpdatePaymentIntent"
        case .surchargeUnavailableWithDynamicCurrencyConversion: "surchargeUnavailableWithDynamicCurrencyConversion"
        case .surchargeNoticeNotAvailable: "surchargeNoticeNotAvailable"
        case .amountSurchargeRequiresUpdatePaymentIntent: "amountSurchargeRequiresUpdatePaymentIntent"
        case .invalidLocationIdParameter: "invalidLocationIdParameter"
        case .canceledDueToIntegrationError: "canceledDueToIntegrationError"
        case .collectInputsInvalidParameter: "collectInputsInvalidParameter"
        case .collectInputsUnsupported: "collectInputsUnsupported"
        case .canceled: "canceled"
        case .locationServicesDisabled: "locationServicesDisabled"
        case .bluetoothDisabled: "bluetoothDisabled"
        case .bluetoothAccessDenied: "bluetoothAccessDenied"
        case .bluetoothScanTimedOut: "bluetoothScanTimedOut"
        case .bluetoothLowEnergyUnsupported: "bluetoothLowEnergyUnsupported"
        case .readerSoftwareUpdateFailedBatteryLow: "readerSoftwareUpdateFailedBatteryLow"
        case .readerSoftwareUpdateFailedInterrupted: "readerSoftwareUpdateFailedInterrupted"
        case .readerSoftwareUpdateFailedExpiredUpdate: "readerSoftwareUpdateFailedExpiredUpdate"
        case .bluetoothConnectionFailedBatteryCriticallyLow: "bluetoothConnectionFailedBatteryCriticallyLow"
        case .cardInsertNotRead: "cardInsertNotRead"
        case .cardSwipeNotRead: "cardSwipeNotRead"
        case .cardReadTimedOut: "cardReadTimedOut"
        case .cardRemoved: "cardRemoved"
        case .cardLeftInReader: "cardLeftInReader"
        case .offlinePaymentsDatabaseTooLarge: "offlinePaymentsDatabaseTooLarge"
        case .readerConnectionNotAvailableOffline: "readerConnectionNotAvailableOffline"
        case .readerConnectionOfflineLocationMismatch: "readerConnectionOfflineLocationMismatch"
        case .readerConnectionOfflineNeedsUpdate: "readerConnectionOfflineNeedsUpdate"
        case .readerConnectionOfflinePairingUnseenDisabled: "readerConnectionOfflinePairingUnseenDisabled"
        case .noLastSeenAccount: "noLastSeenAccount"
        case .amountExceedsMaxOfflineAmount: "amountExceedsMaxOfflineAmount"
        case .invalidOfflineCurrency: "invalidOfflineCurrency"
        case .missingEMVData: "missingEMVData"
        case .commandNotAllowed: "commandNotAllowed"
        case .unsupportedMobileDeviceConfiguration: "unsupportedMobileDeviceConfiguration"
        case .passcodeNotEnabled: "passcodeNotEnabled"
        case .commandNotAllowedDuringCall: "commandNotAllowedDuringCall"
        case .invalidAmount: "invalidAmount"
        case .invalidCurrency: "invalidCurrency"
        case .tapToPayReaderTOSAcceptanceRequiresiCloudSignIn: "tapToPayReaderTOSAcceptanceRequiresiCloudSignIn"
        case .tapToPayReaderTOSAcceptanceCanceled: "tapToPayReaderTOSAcceptanceCanceled"
        case .collectInputsTimedOut: "collectInputsTimedOut"
        case .usbDiscoveryTimedOut: "usbDiscoveryTimedOut"
        case .offlineEncryptionKeysUnavailable: "offlineEncryptionKeysUnavailable"
        case .readerBusy: "readerBusy"
        case .incompatibleReader: "incompatibleReader"
        case .readerCommunicationError: "readerCommunicationError"
        case .nfcDisabled: "nfcDisabled"
        case .bluetoothError: "bluetoothError"
        case .bluetoothConnectTimedOut: "bluetoothConnectTimedOut"
        case .bluetoothDisconnected: "bluetoothDisconnected"
        case .bluetoothPeerRemovedPairingInformation: "bluetoothPeerRemovedPairingInformation"
        case .bluetoothAlreadyPairedWithAnotherDevice: "bluetoothAlreadyPairedWithAnotherDevice"
        case .readerSoftwareUpdateFailed: "readerSoftwareUpdateFailed"
        case .readerSoftwareUpdateFailedReaderError: "readerSoftwareUpdateFailedReaderError"
        case .readerSoftwareUpdateFailedServerError: "readerSoftwareUpdateFailedServerError"
        case .unsupportedReaderVersion: "unsupportedReaderVersion"
        case .unknownReaderIpAddress: "unknownReaderIpAddress"
        case .internetConnectTimeOut: "internetConnectTimeOut"
        case .connectFailedReaderIsInUse: "connectFailedReaderIsInUse"
        case .bluetoothReconnectStarted: "bluetoothReconnectStarted"
        case .readerNotAccessibleInBackground: "readerNotAccessibleInBackground"
        case .tapToPayReaderRequestInterrupted: "tapToPayReaderRequestInterrupted"
        case .tapToPayReaderFailedToPrepare: "tapToPayReaderFailedToPrepare"
        case .tapToPayReaderDeviceBanned: "tapToPayReaderDeviceBanned"
        case .tapToPayReaderTOSNotYetAccepted: "tapToPayReaderTOSNotYetAccepted"
        case .tapToPayReaderTOSAcceptanceFailed: "tapToPayReaderTOSAcceptanceFailed"
        case .tapToPayReaderMerchantBlocked: "tapToPayReaderMerchantBlocked"
        case .tapToPayReaderInvalidMerchant: "tapToPayReaderInvalidMerchant"
        case .tapToPayReaderAccountDeactivated: "tapToPayReaderAccountDeactivated"
        case .tapToPayReaderOfflineModeNotAllowed: "tapToPayReaderOfflineModeNotAllowed"
        case .tapToPayReaderOfflineModeSessionExpired: "tapToPayReaderOfflineModeSessionExpired"
        case .tapToPayReaderOfflineModeSessionInvalidated: "tapToPayReaderOfflineModeSessionInvalidated"
        case .tapToPayReaderOfflineModeTokenIssuerChanged: "tapToPayReaderOfflineModeTokenIssuerChanged"
        case .readerMissingEncryptionKeys: "readerMissingEncryptionKeys"
        case .usbDisconnected: "usbDisconnected"
        case .printerBusy: "printerBusy"
        case .printerPaperJam: "printerPaperJam"
        case .printerOutOfPaper: "printerOutOfPaper"
        case .printerCoverOpen: "printerCoverOpen"
        case .printerAbsent: "printerAbsent"
        case .printerUnavailable: "printerUnavailable"
        case .printerError: "printerError"
        case .readerConnectedToAnotherDevice: "readerConnectedToAnotherDevice"
        case .readerTampered: "readerTampered"
        case .unexpectedSdkError: "unexpectedSdkError"
        case .unexpectedReaderError: "unexpectedReaderError"
        case .encryptionKeyFailure: "encryptionKeyFailure"
        case .encryptionKeyStillInitializing: "encryptionKeyStillInitializing"
        case .collectInputsApplicationError: "collectInputsApplicationError"
        case .genericReaderError: "genericReaderError"
        case .collectDataApplicationError: "collectDataApplicationError"
        case .displaySurchargeConsentApplicationError: "displaySurchargeConsentApplicationError"
        case .unexpectedOperationError: "unexpectedOperationError"
        case .declinedByStripeAPI: "declinedByStripeAPI"
        case .declinedByReader: "declinedByReader"
        case .cardNotSupported: "cardNotSupported"
        case .commandRequiresCardholderConsent: "commandRequiresCardholderConsent"
        case .commandInvalidAllowRedisplay: "commandInvalidAllowRedisplay"
        case .refundFailed: "refundFailed"
        case .cardSwipeNotAvailable: "cardSwipeNotAvailable"
        case .interacNotSupportedOffline: "interacNotSupportedOffline"
        case .offlineAndCardExpired: "offlineAndCardExpired"
        case .offlineTransactionDeclined: "offlineTransactionDeclined"
        case .offlineCollectAndConfirmMismatch: "offlineCollectAndConfirmMismatch"
        case .onlinePinNotSupportedOffline: "onlinePinNotSupportedOffline"
        case .offlineTestCardInLivemode: "offlineTestCardInLivemode"
        case .amountSurchargeNotSupportedOffline: "amountSurchargeNotSupportedOffline"
        case .simulatedOfflineModeNotAvailableInLivemode: "simulatedOfflineModeNotAvailableInLivemode"
        case .simulatedOfflineModeNotAvailableForAccount: "simulatedOfflineModeNotAvailableForAccount"
        case .notConnectedToInternet: "notConnectedToInternet"
        case .requestTimedOut: "requestTimedOut"
        case .stripeAPIError: "stripeAPIError"
        case .stripeAPIResponseDecodingError: "stripeAPIResponseDecodingError"
        case .internalNetworkError: "internalNetworkError"
        case .tapToPayInternalNetworkError: "tapToPayInternalNetworkError"
        case .connectionTokenProviderCompletedWithError: "connectionTokenProviderCompletedWithError"
        case .connectionTokenProviderCompletedWithErrorWhileForwarding: "connectionTokenProviderCompletedWithErrorWhileForwarding"
        case .connectionTokenProviderTimedOut: "connectionTokenProviderTimedOut"
        case .sessionExpired: "sessionExpired"
        case .notConnectedToInternetAndOfflineBehaviorRequireOnline: "notConnectedToInternetAndOfflineBehaviorRequireOnline"
        case .offlineBehaviorForceOfflineWithFeatureDisabled: "offlineBehaviorForceOfflineWithFeatureDisabled"
        @unknown default: nil
        }
    }
}
#endif
