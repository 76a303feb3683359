import Foundation
import Tender
import TenderStripe
import Testing

/// The reference's 159 `ErrorCode`s (`stripe-terminal-ios.md` §3), extracted from its tables by a script, in the
/// header's spelling. The table must contain each, by name, with the same numeric code.
let referenceErrorCodes: [(code: Int, name: String)] = [
    (1010, "CancelFailedAlreadyCompleted"),
    (1011, "CancelFailedUnavailable"),
    (1100, "NotConnectedToReader"),
    (1110, "AlreadyConnectedToReader"),
    (1510, "ConnectionTokenProviderCompletedWithNothing"),
    (1511, "ConnectionTokenProviderCompletedWithNothingWhileForwarding"),
    (1530, "ConfirmInvalidPaymentIntent"),
    (1531, "ConfirmInvalidSetupIntent"),
    (1540, "NilPaymentIntent"),
    (1542, "NilSetupIntent"),
    (1550, "NilRefundPaymentMethod"),
    (1555, "InvalidRefundParameters"),
    (1560, "InvalidClientSecret"),
    (1590, "InvalidDiscoveryConfiguration"),
    (1591, "InvalidConnectionConfiguration"),
    (1861, "InvalidReaderForUpdate"),
    (1870, "UnsupportedSDK"),
    (1880, "FeatureNotAvailableWithConnectedReader"),
    (1890, "FeatureNotAvailable"),
    (1900, "InvalidListLocationsLimitParameter"),
    (1910, "BluetoothConnectionInvalidLocationIdParameter"),
    (1920, "InvalidRequiredParameter"),
    (1921, "InvalidRequiredParameterOnBehalfOf"),
    (1930, "AccountIdMismatchWhileForwarding"),
    (1935, "UpdatePaymentIntentUnavailableWhileOffline"),
    (1936, "UpdatePaymentIntentUnavailableWhileOfflineModeEnabled"),
    (1937, "ForwardingTestModePaymentInLiveMode"),
    (1938, "ForwardingLiveModePaymentInTestMode"),
    (1940, "ReaderConnectionConfigurationInvalid"),
    (1941, "RequestDynamicCurrencyConversionRequiresUpdatePaymentIntent"),
    (1942, "DynamicCurrencyConversionNotAvailable"),
    (1943, "SurchargingNotAvailable"),
    (1944, "SurchargeConsentRequiresAmountSurcharge"),
    (1945, "SurchargeConsentNoticeRequiresAmountSurchargeAndCollectConsent"),
    (1946, "SurchargeConsentRequestedForUnsupportedReader"),
    (1947, "SurchargeConsentDeclined"),
    (1948, "SurchargeConsentTimeout"),
    (1950, "ReaderTippingParameterInvalid"),
    (1951, "SurchargeNoticeRequiresUpdatePaymentIntent"),
    (1952, "SurchargeUnavailableWithDynamicCurrencyConversion"),
    (1953, "SurchargeNoticeNotAvailable"),
    (1954, "AmountSurchargeRequiresUpdatePaymentIntent"),
    (1960, "InvalidLocationIdParameter"),
    (1961, "CanceledDueToIntegrationError"),
    (1997, "CollectInputsInvalidParameter"),
    (1998, "CollectInputsUnsupported"),
    (2020, "Canceled"),
    (2200, "LocationServicesDisabled"),
    (2320, "BluetoothDisabled"),
    (2321, "BluetoothAccessDenied"),
    (2330, "BluetoothScanTimedOut"),
    (2340, "BluetoothLowEnergyUnsupported"),
    (2650, "ReaderSoftwareUpdateFailedBatteryLow"),
    (2660, "ReaderSoftwareUpdateFailedInterrupted"),
    (2670, "ReaderSoftwareUpdateFailedExpiredUpdate"),
    (2680, "BluetoothConnectionFailedBatteryCriticallyLow"),
    (2810, "CardInsertNotRead"),
    (2820, "CardSwipeNotRead"),
    (2830, "CardReadTimedOut"),
    (2840, "CardRemoved"),
    (2850, "CardLeftInReader"),
    (2860, "OfflinePaymentsDatabaseTooLarge"),
    (2870, "ReaderConnectionNotAvailableOffline"),
    (2871, "ReaderConnectionOfflineLocationMismatch"),
    (2872, "ReaderConnectionOfflineNeedsUpdate"),
    (2873, "ReaderConnectionOfflinePairingUnseenDisabled"),
    (2880, "NoLastSeenAccount"),
    (2890, "AmountExceedsMaxOfflineAmount"),
    (2891, "InvalidOfflineCurrency"),
    (2892, "MissingEMVData"),
    (2900, "CommandNotAllowed"),
    (2910, "UnsupportedMobileDeviceConfiguration"),
    (2920, "PasscodeNotEnabled"),
    (2930, "CommandNotAllowedDuringCall"),
    (2940, "InvalidAmount"),
    (2950, "InvalidCurrency"),
    (2960, "TapToPayReaderTOSAcceptanceRequiresiCloudSignIn"),
    (2970, "TapToPayReaderTOSAcceptanceCanceled"),
    (2971, "CollectInputsTimedOut"),
    (2972, "UsbDiscoveryTimedOut"),
    (2973, "OfflineEncryptionKeysUnavailable"),
    (3010, "ReaderBusy"),
    (3030, "IncompatibleReader"),
    (3060, "ReaderCommunicationError"),
    (3100, "NFCDisabled"),
    (3200, "BluetoothError"),
    (3210, "BluetoothConnectTimedOut"),
    (3230, "BluetoothDisconnected"),
    (3240, "BluetoothPeerRemovedPairingInformation"),
    (3241, "BluetoothAlreadyPairedWithAnotherDevice"),
    (3800, "ReaderSoftwareUpdateFailed"),
    (3830, "ReaderSoftwareUpdateFailedReaderError"),
    (3840, "ReaderSoftwareUpdateFailedServerError"),
    (3850, "UnsupportedReaderVersion"),
    (3860, "UnknownReaderIpAddress"),
    (3870, "InternetConnectTimeOut"),
    (3880, "ConnectFailedReaderIsInUse"),
    (3890, "BluetoothReconnectStarted"),
    (3900, "ReaderNotAccessibleInBackground"),
    (3905, "TapToPayReaderRequestInterrupted"),
    (3910, "TapToPayReaderFailedToPrepare"),
    (3920, "TapToPayReaderDeviceBanned"),
    (3930, "TapToPayReaderTOSNotYetAccepted"),
    (3940, "TapToPayReaderTOSAcceptanceFailed"),
    (3950, "TapToPayReaderMerchantBlocked"),
    (3960, "TapToPayReaderInvalidMerchant"),
    (3970, "TapToPayReaderAccountDeactivated"),
    (3971, "TapToPayReaderOfflineModeNotAllowed"),
    (3972, "TapToPayReaderOfflineModeSessionExpired"),
    (3973, "TapToPayReaderOfflineModeSessionInvalidated"),
    (3974, "TapToPayReaderOfflineModeTokenIssuerChanged"),
    (3980, "ReaderMissingEncryptionKeys"),
    (3990, "UsbDisconnected"),
    (4000, "PrinterBusy"),
    (4001, "PrinterPaperJam"),
    (4002, "PrinterOutOfPaper"),
    (4003, "PrinterCoverOpen"),
    (4004, "PrinterAbsent"),
    (4005, "PrinterUnavailable"),
    (4006, "PrinterError"),
    (4020, "ReaderConnectedToAnotherDevice"),
    (4100, "ReaderTampered"),
    (5000, "UnexpectedSdkError"),
    (5001, "UnexpectedReaderError"),
    (5002, "EncryptionKeyFailure"),
    (5003, "EncryptionKeyStillInitializing"),
    (5004, "CollectInputsApplicationError"),
    (5005, "GenericReaderError"),
    (5006, "CollectDataApplicationError"),
    (5007, "DisplaySurchargeConsentApplicationError"),
    (5008, "UnexpectedOperationError"),
    (6000, "DeclinedByStripeAPI"),
    (6500, "DeclinedByReader"),
    (6510, "CardNotSupported"),
    (6700, "CommandRequiresCardholderConsent"),
    (6701, "CommandInvalidAllowRedisplay"),
    (6800, "RefundFailed"),
    (6900, "CardSwipeNotAvailable"),
    (6901, "InteracNotSupportedOffline"),
    (6902, "OfflineAndCardExpired"),
    (6903, "OfflineTransactionDeclined"),
    (6904, "OfflineCollectAndConfirmMismatch"),
    (6905, "OnlinePinNotSupportedOffline"),
    (6906, "OfflineTestCardInLivemode"),
    (6907, "AmountSurchargeNotSupportedOffline"),
    (6908, "SimulatedOfflineModeNotAvailableInLivemode"),
    (6909, "SimulatedOfflineModeNotAvailableForAccount"),
    (9000, "NotConnectedToInternet"),
    (9010, "RequestTimedOut"),
    (9020, "StripeAPIError"),
    (9030, "StripeAPIResponseDecodingError"),
    (9040, "InternalNetworkError"),
    (9041, "TapToPayInternalNetworkError"),
    (9050, "ConnectionTokenProviderCompletedWithError"),
    (9051, "ConnectionTokenProviderCompletedWithErrorWhileForwarding"),
    (9052, "ConnectionTokenProviderTimedOut"),
    (9060, "SessionExpired"),
    (10106, "NotConnectedToInternetAndOfflineBehaviorRequireOnline"),
    (10107, "OfflineBehaviorForceOfflineWithFeatureDisabled"),
]

/// The ⚑ offline codes of the reference, with the Tender code each must map to.
let offlineErrorExpectations: [(name: String, code: PaymentError.Code)] = [
    ("connectionTokenProviderCompletedWithNothingWhileForwarding", .notAuthorized),
    ("accountIdMismatchWhileForwarding", .accountMismatch),
    ("updatePaymentIntentUnavailableWhileOffline", .integrationError),
    ("updatePaymentIntentUnavailableWhileOfflineModeEnabled", .integrationError),
    ("forwardingTestModePaymentInLiveMode", .accountMismatch),
    ("forwardingLiveModePaymentInTestMode", .accountMismatch),
    ("offlinePaymentsDatabaseTooLarge", .offlineStoredCountExceeded),
    ("readerConnectionNotAvailableOffline", .readerOfflineConnectionRefused),
    ("readerConnectionOfflineLocationMismatch", .readerOfflineConnectionRefused),
    ("readerConnectionOfflineNeedsUpdate", .readerOfflineConnectionRefused),
    ("readerConnectionOfflinePairingUnseenDisabled", .readerOfflineConnectionRefused),
    ("noLastSeenAccount", .offlineUnavailable),
    ("amountExceedsMaxOfflineAmount", .offlinePaymentLimitExceeded),
    ("invalidOfflineCurrency", .offlineUnavailable),
    ("offlineEncryptionKeysUnavailable", .offlineStorageUnavailable),
    ("tapToPayReaderOfflineModeNotAllowed", .offlineUnavailable),
    ("tapToPayReaderOfflineModeSessionExpired", .offlineUnavailable),
    ("tapToPayReaderOfflineModeSessionInvalidated", .offlineUnavailable),
    ("tapToPayReaderOfflineModeTokenIssuerChanged", .offlineUnavailable),
    ("encryptionKeyFailure", .offlineStorageUnavailable),
    ("encryptionKeyStillInitializing", .offlineStorageUnavailable),
    ("cardSwipeNotAvailable", .cardNotSupportedOffline),
    ("interacNotSupportedOffline", .cardNotSupportedOffline),
    ("offlineAndCardExpired", .cardExpired),
    ("offlineTransactionDeclined", .cardDeclined),
    ("offlineCollectAndConfirmMismatch", .invalidState),
    ("onlinePinNotSupportedOffline", .cardNotSupportedOffline),
    ("offlineTestCardInLivemode", .accountMismatch),
    ("amountSurchargeNotSupportedOffline", .invalidRequest),
    ("simulatedOfflineModeNotAvailableInLivemode", .integrationError),
    ("simulatedOfflineModeNotAvailableForAccount", .featureUnavailable),
    ("connectionTokenProviderCompletedWithErrorWhileForwarding", .notAuthorized),
    ("notConnectedToInternetAndOfflineBehaviorRequireOnline", .offlineNotAllowed),
    ("offlineBehaviorForceOfflineWithFeatureDisabled", .offlineUnavailable),
]

@Suite("Stripe error table")
struct StripeErrorTableTests {
    @Test("every ErrorCode of the reference is in the table with the same numeric code")
    func everyReferenceCodeIsMapped() {
        let table = Stripe.errorTable
        var unmapped: [String] = []
        for (code, name) in referenceErrorCodes {
            let row = table.rows.first { $0.name.lowercased() == name.lowercased() }
            if row?.numericCode != code { unmapped.append("\(code) \(name)") }
        }
        #expect(unmapped.isEmpty, "unmapped: \(unmapped)")
        #expect(referenceErrorCodes.count == 159)
    }

    @Test("exactly 159 rows, no duplicate names or numbers, Swift lower-camel names")
    func tableShape() {
        let rows = Stripe.errorTable.rows
        #expect(rows.count == 159)
        #expect(Stripe.errorTable.duplicateNames.isEmpty)
        #expect(Set(rows.compactMap(\.numericCode)).count == 159)
        #expect(rows.allSatisfy { $0.name.first?.isLowercase == true })
        #expect(rows.allSatisfy { !$0.message.isEmpty && $0.message.hasSuffix(".") })
    }

    @Test("offline codes map with care", arguments: offlineErrorExpectations.map { [$0.name, $0.code.rawValue] })
    func offlineCodes(_ pair: [String]) throws {
        let row = try #require(Stripe.errorTable.mapping(named: pair[0]))
        #expect(row.code.rawValue == pair[1])
        #expect(row.recovery != .none || row.code == .accountMismatch)
    }

    @Test("an unknown future code gets the documented fallback, never success or decline")
    func unknownCodeFallback() {
        let error = StripeMapping.paymentError(Stripe.ErrorCode(
            Stripe.ErrorCode.Code(name: "someFutureError", numericCode: 7777), message: "new"))
        #expect(error.code == .unrecognizedVendorError)
        #expect(error.recovery == .retrySamePayment)
        #expect(error.vendor?.name == "someFutureError")
        #expect(error.vendor?.numericCode == 7777)
    }

    @Test("a decline keeps the vendor error and decline code")
    func declineKeepsVendorError() {
        let error = StripeMapping.paymentError(Stripe.ErrorCode(.declinedByStripeAPI, message: "declined",
                                                                declineCode: "insufficient_funds"))
        #expect(error.code == .cardDeclined)
        #expect(error.recovery == .collectAnotherCard)
        #expect(error.vendor?.numericCode == 6000)
        #expect(error.vendor?.declineCode == "insufficient_funds")
        #expect(error.description.contains("insufficient funds"))
    }

    @Test("static codes take their numbers from the table")
    func staticCodes() {
        #expect(Stripe.ErrorCode.Code.declinedByStripeAPI.numericCode == 6000)
        #expect(Stripe.ErrorCode.Code.notConnectedToInternetAndOfflineBehaviorRequireOnline.numericCode == 10106)
        #expect(Stripe.ErrorCode.Code.readerConnectionOfflineNeedsUpdate.numericCode == 2872)
        #expect(Stripe.ErrorCode.Code("nfcDisabled").numericCode == 3100)
    }
}

@Suite("Stripe error table: advice")
struct StripeErrorAdviceTests {
    @Test("a swipe refused offline advises the same card, inserted or tapped, not another card (6900)")
    func swipeOffline() throws {
        let row = try #require(Stripe.errorTable.mapping(named: "cardSwipeNotAvailable"))
        #expect(row.recovery == .retrySamePayment)
        #expect(row.message.contains("insert or tap the same card"))
    }

    @Test("a definite failure's error says nothing was charged and that a retry is a new attempt")
    func definiteFailureMessage() {
        let timedOut = StripeMapping.definiteFailure(StripeMapping.paymentError(
            Stripe.ErrorCode(.cardReadTimedOut, message: "timed out"), phase: .collection))
        #expect(timedOut.message.contains("Nothing was charged"))
        #expect(timedOut.message.contains("new attempt"))
        let declined = StripeMapping.definiteFailure(StripeMapping.paymentError(
            Stripe.ErrorCode(.declinedByStripeAPI, message: "declined")))
        #expect(!declined.message.contains("new attempt"))
    }

    @Test("refund errors belong to the refund phase")
    func refundPhase() {
        for name in ["refundFailed", "nilRefundPaymentMethod", "invalidRefundParameters"] {
            #expect(Stripe.errorTable.mapping(named: name)?.phase == .refund, "\(name)")
        }
    }
}
