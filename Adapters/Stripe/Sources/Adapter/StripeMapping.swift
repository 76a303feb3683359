import Foundation
import Tender

/// Stripe's states, enums and errors in Tender's terms: exhaustive `switch`es over cases, never the SDK's integer
/// raw values. The error table is ``Stripe/errorTable``.
public enum StripeMapping {
    /// The metadata key that carries the app's reference, so that an offline intent (nil `stripeId`) is matched back
    /// when it is forwarded.
    public static let referenceMetadataKey = "tender_reference"

    // MARK: Errors

    /// The ``PaymentError`` for a Stripe error, through the table (unknown codes get the documented fallback).
    /// - Parameter phase: the step the adapter was in, when it knows better than the table.
    public static func paymentError(_ error: Stripe.ErrorCode, phase: PaymentError.Phase? = nil) -> PaymentError {
        Stripe.errorTable.error(named: error.code.name, numericCode: error.code.numericCode,
                                vendorMessage: error.message,
                                declineCode: error.declineCode ?? error.offlineDeclineReason, phase: phase)
    }

    /// What to do after `confirmPaymentIntent` failed, from the intent the error carries (seed 002 and 003).
    public enum ProcessingFailure: Hashable, Sendable {
        /// The intent is still `requiresConfirmation` (for example no internet): confirm the same intent again.
        case retryConfirm
        /// The intent went back to `requiresPaymentMethod` (for example a decline): collect another card on the
        /// same intent.
        case collectAnotherCard
        /// The intent is nil: the request timed out and the status is unknown. Confirm the same intent again; never
        /// create a new one, and never capture the original if abandoned.
        case outcomeUnknown
        /// Any other status: nothing to retry; report the mapped error.
        case other(Stripe.PaymentIntentStatus)
    }

    /// The processing-failure rule for a confirm error.
    public static func processingFailure(_ error: Stripe.ErrorCode) -> ProcessingFailure {
        guard let intent = error.paymentIntent else { return .outcomeUnknown }
        switch intent.status {
        case .requiresConfirmation: return .retryConfirm
        case .requiresPaymentMethod: return .collectAnotherCard
        case .requiresAction, .requiresCapture, .processing, .canceled, .succeeded, .requiresReauthorization:
            return .other(intent.status)
        }
    }

    /// The ``PaymentError`` for a confirm failure, with the processing-failure rule's recovery applied.
    public static func confirmError(_ error: Stripe.ErrorCode) -> PaymentError {
        var mapped = paymentError(error, phase: .processing)
        switch processingFailure(error) {
        case .outcomeUnknown:
            mapped.code = .outcomeUnknown
            mapped.recovery = .retrySamePayment
            mapped.message = "Stripe did not answer in time; whether the card was charged is not known yet. "
                + "The same PaymentIntent will be confirmed again, never a new one."
        case .retryConfirm:
            if mapped.recovery != .goOnline { mapped.recovery = .retrySamePayment }
        case .collectAnotherCard:
            mapped.recovery = .collectAnotherCard
        case .other:
            break
        }
        return mapped
    }

    // MARK: Payment intents

    /// The Tender state of an intent, as the adapter reports it after confirmation or a lookup.
    ///
    /// | Stripe | Tender |
    /// |---|---|
    /// | `requiresCapture` / `succeeded`, `offlineDetails.requiresUpload` | ``PaymentState/storedOffline`` |
    /// | `requiresCapture` / `succeeded`, forwarded (offline details, no upload needed) | ``PaymentState/forwarded`` |
    /// | `requiresCapture` (online) | ``PaymentState/authorized`` |
    /// | `succeeded` (online) | ``PaymentState/succeeded`` |
    /// | `requiresPaymentMethod` with a failed charge | ``PaymentState/declined`` (``PaymentState/declinedAfterForwarding`` if forwarded) |
    /// | `requiresPaymentMethod` (no charge), `requiresConfirmation` | ``PaymentState/failed``: nothing was charged |
    /// | `requiresAction`, `processing` | ``PaymentState/outcomeUnknown`` |
    /// | `canceled` | ``PaymentState/canceled`` |
    /// | `requiresReauthorization` | ``PaymentState/authorized`` (``PaymentState/forwarded`` when collected offline): the authorization expired and must be renewed before capture |
    public static func paymentState(_ intent: Stripe.PaymentIntent) -> PaymentState {
        let collectedOffline = intent.offlineDetails != nil
        let awaitingUpload = intent.offlineDetails?.requiresUpload ?? false
        switch intent.status {
        case .requiresCapture, .succeeded:
            if awaitingUpload { return .storedOffline }
            if collectedOffline { return .forwarded }
            return intent.status == .succeeded ? .succeeded : .authorized
        case .requiresPaymentMethod:
            let declined = intent.charges.contains { $0.status == .failed }
            if declined { return collectedOffline ? .declinedAfterForwarding : .declined }
            return .failed
        case .requiresConfirmation: return .failed
        case .requiresAction, .processing: return .outcomeUnknown
        case .canceled: return .canceled
        case .requiresReauthorization:
            // The authorization expired and must be renewed before capture: still awaiting capture. An offline
            // intent stays in the offline branch of the lifecycle (forwarded → authorized is not a transition).
            if awaitingUpload { return .storedOffline }
            return collectedOffline ? .forwarded : .authorized
        }
    }

    /// What `didForwardPaymentIntent(intent, error)` means for the payment with the reference in the intent's
    /// metadata, or nil when the intent carries no reference (it was not created by Tender).
    ///
    /// No error: ``PaymentState/forwarded`` (with the new `stripeId`). A decline (`declinedByStripeAPI`, or any error
    /// the table maps to a declined or expired card): ``PaymentState/declinedAfterForwarding``. Anything else:
    /// ``PaymentState/failedToForward``.
    public static func forwardingUpdate(_ intent: Stripe.PaymentIntent, error: Stripe.ErrorCode?)
        -> ProcessorPaymentUpdate? {
        guard let reference = intent.metadata[referenceMetadataKey] else { return nil }
        var state = PaymentState.forwarded
        var mapped: PaymentError?
        if let error {
            let paymentError = paymentError(error, phase: .forwarding)
            mapped = paymentError
            state = paymentError.code == .cardDeclined || paymentError.code == .cardExpired
                ? .declinedAfterForwarding : .failedToForward
        }
        return ProcessorPaymentUpdate(reference: reference, state: state, route: .offline,
                                      processorPaymentID: intent.stripeId, card: cardDetails(intent), error: mapped)
    }

    /// The route of an intent: offline when it was confirmed offline.
    public static func route(_ intent: Stripe.PaymentIntent) -> PaymentRoute {
        intent.offlineDetails == nil ? .online : .offline
    }

    /// Tender's routing decision as Stripe's offline behaviour, or nil when refused (the SDK is not called).
    public static func offlineBehavior(_ decision: RoutingDecision) -> Stripe.OfflineBehavior? {
        switch decision {
        case .online: .requireOnline
        case .onlineWithOfflineFallback: .preferOnline
        case .offline: .forceOffline
        case .refused: nil
        }
    }

    /// Stripe's offline behaviour as the Tender policy of the same meaning.
    public static func offlinePolicy(_ behavior: Stripe.OfflineBehavior) -> OfflinePolicy {
        switch behavior {
        case .preferOnline: .preferOnline
        case .requireOnline: .requireOnline
        case .forceOffline: .forceOffline
        }
    }

    /// Tender's capture mode as Stripe's capture method.
    public static func captureMethod(_ mode: CaptureMode) -> Stripe.CaptureMethod {
        switch mode {
        case .automatic: .automatic
        case .manual: .manual
        }
    }

    // MARK: Status enums

    /// `NetworkStatus`.
    public static func networkStatus(_ status: Stripe.NetworkStatus) -> NetworkStatus {
        switch status {
        case .unknown: .unknown
        case .offline: .offline
        case .online: .online
        }
    }

    /// `ConnectionStatus`.
    public static func connectionStatus(_ status: Stripe.ConnectionStatus) -> ReaderConnectionStatus {
        switch status {
        case .notConnected: .notConnected
        case .discovering: .discovering
        case .connecting: .connecting
        case .connected: .connected
        case .reconnecting: .reconnecting
        }
    }

    /// `PaymentStatus` as the payment step it indicates, or nil when no payment is in progress.
    public static func paymentState(_ status: Stripe.PaymentStatus) -> PaymentState? {
        switch status {
        case .notReady, .ready: nil
        case .waitingForInput: .collecting
        case .processing: .processing
        }
    }

    // MARK: Reader prompts and events

    /// `ReaderDisplayMessage`.
    public static func displayMessage(_ message: Stripe.ReaderDisplayMessage) -> ReaderDisplayMessage {
        switch message {
        case .retryCard: .retryCard
        case .insertCard: .insertCard
        case .insertOrSwipeCard: .insertOrSwipeCard
        case .swipeCard: .swipeCard
        case .removeCard: .removeCard
        case .multipleContactlessCardsDetected: .multipleContactlessCardsDetected
        case .tryAnotherReadMethod: .tryAnotherReadMethod
        case .tryAnotherCard: .tryAnotherCard
        case .cardRemovedTooEarly: .cardRemovedTooEarly
        }
    }

    /// `ReaderEvent`, shown as a message.
    public static func displayMessage(_ event: Stripe.ReaderEvent) -> ReaderDisplayMessage {
        switch event {
        case .cardInserted: .cardInserted
        case .cardRemoved: .cardRemoved
        }
    }

    /// `ReaderInputOptions`, option by option.
    public static func inputOptions(_ options: Stripe.ReaderInputOptions) -> ReaderInputOptions {
        var result: ReaderInputOptions = []
        if options.contains(.swipeCard) { result.insert(.swipe) }
        if options.contains(.insertCard) { result.insert(.insert) }
        if options.contains(.tapCard) { result.insert(.tap) }
        return result
    }

    /// `DisconnectReason`.
    public static func disconnectReason(_ reason: Stripe.DisconnectReason) -> ReaderDisconnectReason {
        switch reason {
        case .unknown: .unknown
        case .disconnectRequested: .requested
        case .rebootRequested, .securityReboot: .rebooted
        case .criticallyLowBattery: .batteryLow
        case .poweredOff, .idlePowerDown: .poweredOff
        case .bluetoothDisabled, .usbDisconnected, .bluetoothSignalLost: .linkLost
        case .peerRemovedPairingInformation: .pairingRemoved
        }
    }

    // MARK: Cards

    /// `CardBrand`.
    public static func cardBrand(_ brand: Stripe.CardBrand) -> CardBrand {
        switch brand {
        case .visa: .visa
        case .amex: .amex
        case .masterCard: .mastercard
        case .discover: .discover
        case .JCB: .jcb
        case .dinersClub: .dinersClub
        case .interac: .interac
        case .unionPay: .unionPay
        case .eftposAu: .eftpos
        case .cartesBancaires: .cartesBancaires
        case .girocard: .girocard
        case .unknown: .unknown
        }
    }

    /// `ReadMethod`.
    public static func entryMethod(_ method: Stripe.ReadMethod) -> CardEntryMethod {
        switch method {
        case .unknown: .unknown
        case .contactEMV: .chip
        case .contactlessEMV: .contactless
        case .magneticStripeFallback: .swipedFallback
        case .magneticStripeTrack2: .swiped
        case .contactlessMagstripeMode: .contactlessMagstripe
        }
    }

    /// Receipt details from card-present details (online) or offline card-present details. Fields Stripe cannot
    /// supply offline (`accountType`, `authorizationResponseCode`) stay absent.
    public static func cardDetails(_ details: Stripe.CardPresentDetails) -> CardDetails {
        CardDetails(brand: cardBrand(details.brand), last4: details.last4, entryMethod: entryMethod(details.readMethod),
                    applicationName: details.receiptDetails?.applicationPreferredName,
                    applicationIdentifier: details.receiptDetails?.dedicatedFileName,
                    authorizationCode: details.receiptDetails?.authorizationCode,
                    expiryMonth: details.expMonth, expiryYear: details.expYear)
    }

    /// The receipt details of an intent: offline card-present details when confirmed offline, else online ones.
    public static func cardDetails(_ intent: Stripe.PaymentIntent) -> CardDetails? {
        (intent.offlineDetails?.cardPresentDetails ?? intent.cardPresentDetails).map(cardDetails)
    }

    // MARK: Readers

    /// A Stripe reader as Tender's ``Reader`` (the serial number is the id).
    public static func reader(_ reader: Stripe.Reader) -> Reader {
        Reader(id: reader.serialNumber, serialNumber: reader.serialNumber, model: reader.deviceType.rawValue,
               softwareVersion: reader.deviceSoftwareVersion, batteryLevel: reader.batteryLevel,
               isCharging: reader.isCharging, locationID: reader.locationId, isSimulated: reader.simulated)
    }

    /// A Stripe software update as Tender's, required when `requiredAt` is not after `now`.
    public static func softwareUpdate(_ update: Stripe.ReaderSoftwareUpdate, now: Date) -> ReaderSoftwareUpdate {
        ReaderSoftwareUpdate(version: update.deviceSoftwareVersion, isRequired: update.requiredAt <= now,
                             requiredAt: update.requiredAt.timeIntervalSince1970,
                             estimatedSeconds: estimatedSeconds(update.durationEstimate))
    }

    /// The upper bound of an update's duration estimate, in seconds.
    public static func estimatedSeconds(_ estimate: Stripe.UpdateTimeEstimate) -> Double {
        switch estimate {
        case .lessThan1Minute: 60
        case .estimate1To2Minutes: 120
        case .estimate2To5Minutes: 300
        case .estimate5To15Minutes: 900
        }
    }
}
