import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator
import Testing

/// An intent for mapping tests.
func mappingIntent(_ status: Stripe.PaymentIntentStatus, offline: Bool? = nil, failedCharge: Bool = false,
                   reference: String = "R1") -> Stripe.PaymentIntent {
    Stripe.PaymentIntent(
        sdkHandle: "h", stripeId: offline == true ? nil : "pi_1", status: status, amount: 100, currency: "usd",
        captureMethod: .manual, created: Date(timeIntervalSince1970: 0), metadata: ["tender_reference": reference],
        offlineDetails: offline.map { Stripe.OfflineDetails(storedAt: Date(timeIntervalSince1970: 0),
                                                            requiresUpload: $0, cardPresentDetails: nil) },
        charges: failedCharge ? [Stripe.Charge(stripeId: "ch", amount: 100, currency: "usd", status: .failed)] : [],
        lastPaymentError: failedCharge ? Stripe.ApiError(code: "card_declined", declineCode: "card_declined") : nil)
}

@Suite("Stripe enum mapping")
struct StripeEnumMappingTests {
    @Test("PaymentIntentStatus, online: unfinished states stay unfinished, never failed", arguments: Stripe.PaymentIntentStatus.allCases)
    func intentStatusOnline(_ status: Stripe.PaymentIntentStatus) {
        let expected: PaymentState = switch status {
        case .requiresPaymentMethod: .collecting
        case .requiresConfirmation, .requiresAction, .processing: .processing
        case .requiresCapture, .requiresReauthorization: .authorized
        case .canceled: .canceled
        case .succeeded: .succeeded
        }
        #expect(StripeMapping.paymentState(mappingIntent(status)) == expected)
    }

    @Test("PaymentIntentStatus with offline details, declines")
    func intentStatusOffline() {
        #expect(StripeMapping.paymentState(mappingIntent(.requiresCapture, offline: true)) == .storedOffline)
        #expect(StripeMapping.paymentState(mappingIntent(.succeeded, offline: true)) == .storedOffline)
        #expect(StripeMapping.paymentState(mappingIntent(.requiresCapture, offline: false)) == .forwarded)
        // Found by tender-chaos: an authorization to renew of a forwarded offline intent stays forwarded.
        #expect(StripeMapping.paymentState(mappingIntent(.requiresReauthorization, offline: false)) == .forwarded)
        #expect(StripeMapping.paymentState(mappingIntent(.requiresReauthorization, offline: true)) == .storedOffline)
        #expect(StripeMapping.paymentState(mappingIntent(.requiresPaymentMethod, offline: false, failedCharge: true))
            == .declinedAfterForwarding)
        #expect(StripeMapping.paymentState(mappingIntent(.requiresPaymentMethod, failedCharge: true)) == .declined)
        #expect(StripeMapping.route(mappingIntent(.requiresCapture, offline: true)) == .offline)
        #expect(StripeMapping.route(mappingIntent(.requiresCapture)) == .online)
    }

    @Test("requiresReauthorization: still authorized, with reauthorizationRequired; expiry: canceled, authorizationExpired")
    func authorizationsToRenewOrExpired() {
        let renew = StripeMapping.update(for: mappingIntent(.requiresReauthorization), reference: "R1")
        #expect(renew.state == .authorized)
        #expect(renew.error?.code == .reauthorizationRequired)
        #expect(renew.error?.recovery == PaymentError.Recovery.none)
        var expired = mappingIntent(.canceled)
        expired.cancellationReason = "automatic"
        expired.charges = [Stripe.Charge(stripeId: "ch", amount: 100, currency: "usd", status: .succeeded)]
        let update = StripeMapping.update(for: expired, reference: "R1")
        #expect(update.state == .canceled)
        #expect(update.error?.code == .authorizationExpired)
        #expect(update.error?.recovery == PaymentError.Recovery.none)
        var voided = expired
        voided.cancellationReason = "requested_by_customer"
        #expect(StripeMapping.update(for: voided, reference: "R1").error == nil)
    }

    @Test("updates carry the SDK's storedAt and Stripe's captureBefore")
    func storedAtAndCaptureBefore() {
        let stored = StripeMapping.update(for: mappingIntent(.requiresCapture, offline: true), reference: "R1")
        #expect(stored.storedAt == Date(timeIntervalSince1970: 0))
        var authorized = mappingIntent(.requiresCapture)
        let deadline = Date(timeIntervalSince1970: 172_800)
        authorized.charges = [Stripe.Charge(stripeId: "ch", amount: 100, currency: "usd", status: .succeeded,
                                            cardPresentDetails: Stripe.CardPresentDetails(
                                                brand: .visa, last4: "4242", readMethod: .contactEMV,
                                                captureBefore: deadline))]
        #expect(StripeMapping.update(for: authorized, reference: "R1").captureBefore == deadline)
    }

    @Test("ready to capture: requiresCapture and not waiting for upload")
    func readyToCapture() {
        #expect(mappingIntent(.requiresCapture).isReadyToCapture)
        #expect(mappingIntent(.requiresCapture, offline: false).isReadyToCapture)
        #expect(!mappingIntent(.requiresCapture, offline: true).isReadyToCapture)
        #expect(!mappingIntent(.succeeded).isReadyToCapture)
    }

    @Test("seed 002's processing-failure table, every status")
    func processingFailureRules() {
        func failure(_ status: Stripe.PaymentIntentStatus?,
                     _ code: Stripe.ErrorCode.Code = .notConnectedToInternet) -> StripeMapping.ConfirmFailure {
            StripeMapping.confirmFailure(Stripe.ErrorCode(code, message: "", paymentIntent: status.map { mappingIntent($0) }))
        }
        // The SDK refusing to confirm (an offline limit) is not a connectivity problem: nothing to retry.
        #expect(failure(.requiresConfirmation, .amountExceedsMaxOfflineAmount)
            == .refused(mappingIntent(.requiresConfirmation)))
        // A busy reader did not run the confirmation: an earlier one may still be on its way.
        #expect(failure(.requiresConfirmation, .readerBusy) == .notRun(mappingIntent(.requiresConfirmation)))
        #expect(failure(nil) == .outcomeUnknown)
        for status in Stripe.PaymentIntentStatus.allCases {
            let intent = mappingIntent(status)
            let expected: StripeMapping.ConfirmFailure = switch status {
            case .requiresConfirmation: .retryConfirm(intent)
            case .requiresPaymentMethod: .collectAgain(intent)
            case .processing, .requiresAction: .inFlight(intent)
            case .requiresCapture, .succeeded, .requiresReauthorization, .canceled: .alreadyFinal(intent)
            }
            #expect(failure(status) == expected)
        }
        let unknown = StripeMapping.pendingConfirmError(Stripe.ErrorCode(.requestTimedOut, message: ""))
        #expect(unknown.code == .outcomeUnknown)
        #expect(unknown.recovery == .retrySamePayment)
        let retry = StripeMapping.pendingConfirmError(Stripe.ErrorCode(
            .notConnectedToInternet, message: "", paymentIntent: mappingIntent(.requiresConfirmation)))
        #expect(retry.recovery == .goOnline)
        #expect(retry.message.contains("nothing was charged"))
    }

    @Test("forwarding dispositions: kept, declined, dropped")
    func forwardingDispositions() {
        func disposition(_ name: String) -> StripeMapping.ForwardingDisposition {
            StripeMapping.forwardingDisposition(Stripe.ErrorCode(Stripe.ErrorCode.Code(name), message: ""))
        }
        #expect(disposition("forwardingLiveModePaymentInTestMode") == .keptStored)
        #expect(disposition("notConnectedToInternet") == .keptStored)
        #expect(disposition("forwardingTestModePaymentInLiveMode") == .dropped)
        #expect(disposition("stripeAPIError") == .dropped)
        #expect(disposition("declinedByStripeAPI") == .declined)
        #expect(disposition("offlineAndCardExpired") == .declined)
    }

    @Test("forwarding callbacks become forwarded, declined after forwarding, still stored, or failed to forward")
    func forwardingUpdates() throws {
        let forwarded = try #require(StripeMapping.forwardingUpdate(mappingIntent(.requiresCapture, offline: false),
                                                                    error: nil))
        #expect(forwarded.state == .forwarded)
        #expect(forwarded.reference == "R1")
        #expect(forwarded.processorPaymentID == "pi_1")
        #expect(forwarded.storedAt == Date(timeIntervalSince1970: 0))
        let declined = try #require(StripeMapping.forwardingUpdate(
            mappingIntent(.requiresPaymentMethod, offline: false, failedCharge: true),
            error: Stripe.ErrorCode(.declinedByStripeAPI, message: "", declineCode: "card_declined")))
        #expect(declined.state == .declinedAfterForwarding)
        #expect(declined.error?.phase == .forwarding)
        let kept = try #require(StripeMapping.forwardingUpdate(
            mappingIntent(.requiresCapture, offline: true),
            error: Stripe.ErrorCode(.forwardingLiveModePaymentInTestMode, message: "")))
        #expect(kept.state == .storedOffline)
        let dropped = try #require(StripeMapping.forwardingUpdate(
            mappingIntent(.requiresCapture, offline: true),
            error: Stripe.ErrorCode(.forwardingTestModePaymentInLiveMode, message: "")))
        #expect(dropped.state == .failedToForward)
        var anonymous = mappingIntent(.requiresCapture)
        anonymous.metadata = [:]
        #expect(StripeMapping.forwardingUpdate(anonymous, error: nil) == nil)
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

    @Test("card brands are distinct and complete; read methods")
    func cardBrandsAndReadMethods() {
        let mapped = Stripe.CardBrand.allCases.map(StripeMapping.cardBrand)
        #expect(Set(mapped).count == Stripe.CardBrand.allCases.count)
        #expect(StripeMapping.cardBrand(.masterCard) == .mastercard)
        #expect(StripeMapping.cardBrand(.eftposAu) == .eftpos)
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
        var offline = mappingIntent(.requiresCapture, offline: true)
        offline.offlineDetails?.cardPresentDetails = details
        let card = try #require(StripeMapping.cardDetails(offline))
        #expect(card.brand == .visa)
        #expect(card.last4 == "4242")
        #expect(card.entryMethod == .chip)
        #expect(card.applicationName == "VISA CREDIT")
        #expect(card.applicationIdentifier == "A0000000031010")
        #expect(card.authorizationCode == nil)
    }

    @Test("the SDK's defaults: discovery looks for real readers; collection tips; Float battery and progress")
    func sdkDefaults() {
        #expect(Stripe.DiscoveryConfiguration().simulated == false)
        #expect(Stripe.DiscoveryConfiguration().timeout == 0)
        #expect(Stripe.CollectPaymentIntentConfiguration().skipTipping == false)
        #expect(Stripe.CreateConfiguration().offlineBehavior == .preferOnline)
        #expect(Stripe.PaymentIntentParameters(amount: 1, currency: "usd").captureMethod == .manual)
        #expect(Stripe.PaymentIntentParameters(amount: 1, currency: "usd").paymentMethodTypes == [.cardPresent])
        let reader = Stripe.Reader(serialNumber: "S", deviceType: .stripeM2, batteryLevel: Float(0.5))
        #expect(StripeMapping.reader(reader).batteryLevel == 0.5)
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
