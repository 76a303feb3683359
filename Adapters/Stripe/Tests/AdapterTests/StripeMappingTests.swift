import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator
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

@Suite("Stripe enum mapping")
struct StripeEnumMappingTests {
    private func intent(_ status: Stripe.PaymentIntentStatus, offline: Bool? = nil,
                        failedCharge: Bool = false) -> Stripe.PaymentIntent {
        Stripe.PaymentIntent(
            sdkHandle: "h", stripeId: offline == true ? nil : "pi_1", status: status, amount: 100, currency: "usd",
            captureMethod: .manual, created: Date(timeIntervalSince1970: 0), metadata: ["tender_reference": "R1"],
            offlineDetails: offline.map { Stripe.OfflineDetails(storedAt: Date(timeIntervalSince1970: 0),
                                                                requiresUpload: $0, cardPresentDetails: nil) },
            charges: failedCharge ? [Stripe.Charge(stripeId: "ch", amount: 100, currency: "usd", status: .failed,
                                                   declineCode: "card_declined")] : [])
    }

    @Test("PaymentIntentStatus, online", arguments: Stripe.PaymentIntentStatus.allCases)
    func intentStatusOnline(_ status: Stripe.PaymentIntentStatus) {
        let expected: PaymentState = switch status {
        case .requiresPaymentMethod, .requiresConfirmation: .failed
        case .requiresAction, .processing: .outcomeUnknown
        case .requiresCapture, .requiresReauthorization: .authorized
        case .canceled: .canceled
        case .succeeded: .succeeded
        }
        #expect(StripeMapping.paymentState(intent(status)) == expected)
    }

    @Test("PaymentIntentStatus with offline details")
    func intentStatusOffline() {
        #expect(StripeMapping.paymentState(intent(.requiresCapture, offline: true)) == .storedOffline)
        #expect(StripeMapping.paymentState(intent(.succeeded, offline: true)) == .storedOffline)
        #expect(StripeMapping.paymentState(intent(.requiresCapture, offline: false)) == .forwarded)
        // Found by tender-chaos: an expired authorization of a forwarded offline intent stays forwarded (awaiting
        // capture); `authorized` would be the illegal forwarded → authorized.
        #expect(StripeMapping.paymentState(intent(.requiresReauthorization, offline: false)) == .forwarded)
        #expect(StripeMapping.paymentState(intent(.requiresReauthorization, offline: true)) == .storedOffline)
        #expect(PaymentStateMachine.canTransition(
            from: StripeMapping.paymentState(intent(.requiresCapture, offline: false)),
            to: StripeMapping.paymentState(intent(.requiresReauthorization, offline: false)))
            || StripeMapping.paymentState(intent(.requiresCapture, offline: false))
                == StripeMapping.paymentState(intent(.requiresReauthorization, offline: false)))
        #expect(StripeMapping.paymentState(intent(.requiresPaymentMethod, offline: false, failedCharge: true))
            == .declinedAfterForwarding)
        #expect(StripeMapping.paymentState(intent(.requiresPaymentMethod, failedCharge: true)) == .declined)
        #expect(StripeMapping.route(intent(.requiresCapture, offline: true)) == .offline)
        #expect(StripeMapping.route(intent(.requiresCapture)) == .online)
    }

    @Test("ready to capture: requiresCapture and not waiting for upload")
    func readyToCapture() {
        #expect(intent(.requiresCapture).isReadyToCapture)
        #expect(intent(.requiresCapture, offline: false).isReadyToCapture)
        #expect(!intent(.requiresCapture, offline: true).isReadyToCapture)
        #expect(!intent(.succeeded).isReadyToCapture)
    }

    @Test("processing-failure rules")
    func processingFailureRules() {
        let retry = Stripe.ErrorCode(.notConnectedToInternet, message: "", paymentIntent: intent(.requiresConfirmation))
        let recollect = Stripe.ErrorCode(.declinedByStripeAPI, message: "", paymentIntent: intent(.requiresPaymentMethod))
        let unknown = Stripe.ErrorCode(.requestTimedOut, message: "", paymentIntent: nil)
        #expect(StripeMapping.processingFailure(retry) == .retryConfirm)
        #expect(StripeMapping.processingFailure(recollect) == .collectAnotherCard)
        #expect(StripeMapping.processingFailure(unknown) == .outcomeUnknown)
        #expect(StripeMapping.confirmError(unknown).code == .outcomeUnknown)
        #expect(StripeMapping.confirmError(unknown).recovery == .retrySamePayment)
        #expect(StripeMapping.confirmError(retry).recovery == .goOnline)
        #expect(StripeMapping.confirmError(recollect).recovery == .collectAnotherCard)
        let other = Stripe.ErrorCode(.canceled, message: "", paymentIntent: intent(.canceled))
        #expect(StripeMapping.processingFailure(other) == .other(.canceled))
    }

    @Test("routing decisions become offline behaviours")
    func offlineBehaviors() {
        #expect(StripeMapping.offlineBehavior(.online) == .requireOnline)
        #expect(StripeMapping.offlineBehavior(.onlineWithOfflineFallback) == .preferOnline)
        #expect(StripeMapping.offlineBehavior(.offline) == .forceOffline)
        #expect(StripeMapping.offlineBehavior(.refused(PaymentError(.offlineNotAllowed, recovery: .goOnline,
                                                                    phase: .routing, message: "no"))) == nil)
        #expect(Stripe.OfflineBehavior.allCases.map(StripeMapping.offlinePolicy)
            == [.preferOnline, .requireOnline, .forceOffline])
        #expect(StripeMapping.captureMethod(.manual) == .manual)
        #expect(StripeMapping.captureMethod(.automatic) == .automatic)
    }

    @Test("network, connection and payment status")
    func statuses() {
        #expect(Stripe.NetworkStatus.allCases.map(StripeMapping.networkStatus) == [.unknown, .offline, .online])
        #expect(Stripe.ConnectionStatus.allCases.map(StripeMapping.connectionStatus)
            == [.notConnected, .discovering, .connecting, .connected, .reconnecting])
        #expect(Stripe.PaymentStatus.allCases.map(StripeMapping.paymentState) == [nil, nil, .collecting, .processing])
    }

    @Test("every display message maps to the message of the same name", arguments: Stripe.ReaderDisplayMessage.allCases)
    func displayMessages(_ message: Stripe.ReaderDisplayMessage) {
        #expect(StripeMapping.displayMessage(message).rawValue == message.rawValue)
    }

    @Test("reader events and input options")
    func readerEventsAndInputs() {
        #expect(StripeMapping.displayMessage(Stripe.ReaderEvent.cardInserted) == .cardInserted)
        #expect(StripeMapping.displayMessage(Stripe.ReaderEvent.cardRemoved) == .cardRemoved)
        #expect(StripeMapping.inputOptions([.insertCard, .tapCard]) == [.insert, .tap])
        #expect(StripeMapping.inputOptions([.swipeCard]) == [.swipe])
        #expect(StripeMapping.inputOptions([]) == [])
    }

    @Test("disconnect reasons", arguments: Stripe.DisconnectReason.allCases)
    func disconnectReasons(_ reason: Stripe.DisconnectReason) {
        let expected: ReaderDisconnectReason = switch reason {
        case .unknown: .unknown
        case .disconnectRequested: .requested
        case .rebootRequested, .securityReboot: .rebooted
        case .criticallyLowBattery: .batteryLow
        case .poweredOff, .idlePowerDown: .poweredOff
        case .bluetoothDisabled, .usbDisconnected, .bluetoothSignalLost: .linkLost
        case .peerRemovedPairingInformation: .pairingRemoved
        }
        #expect(StripeMapping.disconnectReason(reason) == expected)
    }

    @Test("card brands are distinct and complete")
    func cardBrands() {
        let mapped = Stripe.CardBrand.allCases.map(StripeMapping.cardBrand)
        #expect(Set(mapped).count == Stripe.CardBrand.allCases.count)
        #expect(StripeMapping.cardBrand(.masterCard) == .mastercard)
        #expect(StripeMapping.cardBrand(.eftposAu) == .eftpos)
        #expect(StripeMapping.cardBrand(.unknown) == .unknown)
    }

    @Test("read methods")
    func readMethods() {
        #expect(Stripe.ReadMethod.allCases.map(StripeMapping.entryMethod)
            == [.unknown, .chip, .contactless, .swipedFallback, .swiped, .contactlessMagstripe])
        #expect(Stripe.ReadMethod.allCases.filter(\.isSwipe) == [.magneticStripeFallback, .magneticStripeTrack2])
    }

    @Test("receipt details from offline card-present details leave offline-unavailable fields absent")
    func receipts() throws {
        let details = Stripe.CardPresentDetails(
            brand: .visa, last4: "4242", expMonth: 12, expYear: 2030, readMethod: .contactEMV,
            receiptDetails: Stripe.ReceiptDetails(applicationPreferredName: "VISA CREDIT",
                                                  dedicatedFileName: "A0000000031010"))
        var offline = intent(.requiresCapture, offline: true)
        offline.offlineDetails?.cardPresentDetails = details
        let card = try #require(StripeMapping.cardDetails(offline))
        #expect(card.brand == .visa)
        #expect(card.last4 == "4242")
        #expect(card.entryMethod == .chip)
        #expect(card.applicationName == "VISA CREDIT")
        #expect(card.applicationIdentifier == "A0000000031010")
        #expect(card.authorizationCode == nil)
    }

    @Test("forwarding callbacks become forwarded, declined after forwarding, or failed to forward")
    func forwardingUpdates() throws {
        let forwarded = try #require(StripeMapping.forwardingUpdate(intent(.requiresCapture, offline: false), error: nil))
        #expect(forwarded.state == .forwarded)
        #expect(forwarded.reference == "R1")
        #expect(forwarded.processorPaymentID == "pi_1")
        let declined = try #require(StripeMapping.forwardingUpdate(
            intent(.requiresPaymentMethod, offline: false, failedCharge: true),
            error: Stripe.ErrorCode(.declinedByStripeAPI, message: "", declineCode: "card_declined")))
        #expect(declined.state == .declinedAfterForwarding)
        #expect(declined.error?.phase == .forwarding)
        let failed = try #require(StripeMapping.forwardingUpdate(
            intent(.requiresCapture, offline: true),
            error: Stripe.ErrorCode(Stripe.ErrorCode.Code("forwardingLiveModePaymentInTestMode"), message: "")))
        #expect(failed.state == .failedToForward)
        var anonymous = intent(.requiresCapture)
        anonymous.metadata = [:]
        #expect(StripeMapping.forwardingUpdate(anonymous, error: nil) == nil)
    }

    @Test("test card numbers pick a card type without being kept")
    func testCardNumbers() {
        #expect(Stripe.SimulatedCardType(testCardNumber: "4242 4242 4242 4242") == .visa)
        #expect(Stripe.SimulatedCardType(testCardNumber: "4506445006931933") == .interac)
        #expect(Stripe.SimulatedCardType(testCardNumber: "4000000000009995") == .chargeDeclinedInsufficientFunds)
        #expect(Stripe.SimulatedCardType(testCardNumber: "1234") == nil)
        #expect(Stripe.SimulatedCardType(testCardNumber: "4111111111111111") == nil)
        #expect(Stripe.SimulatedCardType.declineCards.count == 6)
        #expect(Stripe.SimulatedCardType.interac.brand == .interac)
    }
}
