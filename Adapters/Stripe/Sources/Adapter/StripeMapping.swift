package import Foundation
package import Tender

/// Stripe's states, enums and errors in Tender's terms (package API), and the metadata keys Tender writes on every
/// PaymentIntent, which the app's server reads too (public). Exhaustive `switch`es over cases, never the SDK's integer
/// raw values. The error table is ``Stripe/errorTable``.
public enum StripeMapping {
    /// The metadata key that carries the app's reference, so that an intent created offline (nil `stripeId`) is
    /// matched back when it is forwarded, and an intent is found by search after a relaunch.
    public static let referenceMetadataKey = "tender_reference"
    /// The metadata key that carries the vendor payment number (``Tender/PaymentAttempt/paymentAttempt``): each
    /// vendor payment of a reference is its own PaymentIntent.
    public static let attemptMetadataKey = "tender_attempt"
    /// Set on intents created `requireOnline`: the SDK never stores those offline, so Stripe's copy is the whole truth.
    package static let onlineOnlyMetadataKey = "tender_online_only"
    /// `"tender_location"`: the Stripe location id of the ledger scope the intent was created for, which
    /// `TenderServer`'s routes compare with the calling device's location before they act on the intent.
    package static let locationMetadataKey = "tender_location"
    /// The metadata key of an in-person refund's idempotency key (the SDK's refunds take none): the same key the
    /// server half records its refunds under, so that the app's server finds a refund made on the reader by its key.
    package static let refundMetadataKey = "tender_idempotency_key"

    /// An intent's total (amount plus any on-reader tip) as `Money`, or nil for a currency Tender does not know.
    package static func total(_ intent: Stripe.PaymentIntent) -> Money? {
        let (sum, overflow) = intent.amount.addingReportingOverflow(intent.amountTip ?? 0)
        guard !overflow, let minorUnits = Int64(exactly: sum), let currency = try? Currency(code: intent.currency) else {
            return nil
        }
        return Money(minorUnits: minorUnits, currency: currency)
    }

    /// The vendor payment number an intent's metadata names (1 when absent).
    package static func paymentAttempt(_ intent: Stripe.PaymentIntent) -> Int {
        intent.metadata[attemptMetadataKey].flatMap(Int.init) ?? 1
    }

    // MARK: Errors

    /// The ``PaymentError`` for a Stripe error, through the table (unknown codes get the documented fallback).
    /// - Parameter phase: the step the adapter was in, when it knows better than the table.
    package static func paymentError(_ error: Stripe.ErrorCode, phase: PaymentError.Phase? = nil) -> PaymentError {
        Stripe.errorTable.error(named: error.code.name, numericCode: error.code.numericCode,
                                vendorMessage: error.message,
                                declineCode: error.declineCode ?? error.offlineDeclineReason, phase: phase)
    }

    /// A definite failure's error, saying what a retry will do: nothing was charged, and taking the payment again
    /// under the same reference starts a new attempt (a new PaymentIntent), because the core starts a new vendor
    /// payment after a definite ending.
    package static func definiteFailure(_ error: PaymentError) -> PaymentError {
        var error = error
        guard error.recovery == .retrySamePayment || error.recovery == .waitAndRetry else { return error }
        error.message += " Nothing was charged; taking the payment again reads the card again as a new attempt."
        return error
    }

    /// Seed 002's "Handle processing failures" table, read from the intent a failed confirmation carries.
    package enum ConfirmFailure: Hashable, Sendable {
        /// The intent is nil: the request timed out and the status is unknown. Confirm the same intent again (once
        /// Stripe is known not to have processed it); never create a new one.
        case outcomeUnknown
        /// `requiresConfirmation` after a connectivity error: "temporary connectivity problem"; Stripe has not seen
        /// the request. Confirm the same intent again.
        case retryConfirm(Stripe.PaymentIntent)
        /// `requiresConfirmation` after any other error: the SDK refused to confirm (an offline limit, no reader)
        /// without sending anything; nothing was charged and the same confirmation would be refused again.
        case refused(Stripe.PaymentIntent)
        /// `requiresConfirmation` after the reader was busy: the SDK did not run this confirmation, which says
        /// nothing of one already on its way to Stripe for the same intent (a cancelled task's, or one sent before a
        /// relaunch). Not final: look it up at Stripe, then confirm the same intent again.
        case notRun(Stripe.PaymentIntent)
        /// `requiresPaymentMethod`: the card was declined (a failed charge) or refused by the SDK (offline rules);
        /// nothing was charged. Another card is collected, for a new attempt.
        case collectAgain(Stripe.PaymentIntent)
        /// `processing` or `requiresAction`: Stripe is still working on it. Not final; look it up later.
        case inFlight(Stripe.PaymentIntent)
        /// `requiresCapture`, `succeeded`, `requiresReauthorization` or `canceled`: Stripe already acted (for
        /// example an earlier confirmation whose answer was lost). Report what the intent says.
        case alreadyFinal(Stripe.PaymentIntent)
    }

    /// The processing-failure rule for a confirmation error.
    package static func confirmFailure(_ error: Stripe.ErrorCode) -> ConfirmFailure {
        guard let intent = error.paymentIntent else { return .outcomeUnknown }
        switch intent.status {
        case .requiresConfirmation:
            if connectivityErrors.contains(error.code.name) { return .retryConfirm(intent) }
            return paymentError(error, phase: .processing).code == .readerBusy ? .notRun(intent) : .refused(intent)
        case .requiresPaymentMethod: return .collectAgain(intent)
        case .processing, .requiresAction: return .inFlight(intent)
        case .requiresCapture, .succeeded, .requiresReauthorization, .canceled: return .alreadyFinal(intent)
        }
    }

    /// The errors Stripe calls a "temporary connectivity problem": confirming the same intent again may succeed.
    package static let connectivityErrors: Set<String> = [
        "notConnectedToInternet", "notConnectedToInternetAndOfflineBehaviorRequireOnline", "requestTimedOut",
        "internalNetworkError", "stripeAPIResponseDecodingError", "connectionTokenProviderCompletedWithError",
        "connectionTokenProviderTimedOut",
    ]

    /// The ``PaymentError`` for a confirmation failure whose outcome is not final (nil intent, `requiresConfirmation`,
    /// or in flight): the same PaymentIntent is confirmed again, never a new one.
    package static func pendingConfirmError(_ error: Stripe.ErrorCode) -> PaymentError {
        var mapped = paymentError(error, phase: .processing)
        switch confirmFailure(error) {
        case .outcomeUnknown:
            mapped.code = .outcomeUnknown
            mapped.message = "Stripe did not answer in time; whether the card was charged is not known yet. "
                + "The same PaymentIntent will be confirmed again, never a new one."
        case .retryConfirm:
            mapped.message += " Stripe has not received the payment; nothing was charged. Retrying confirms the "
                + "same PaymentIntent with the card already read."
        case .inFlight:
            mapped.code = .outcomeUnknown
            mapped.message = "Stripe is still processing the payment; its outcome is looked up, never charged again."
        case .notRun:
            mapped.message += " The confirmation was not sent; an earlier one for the same PaymentIntent may still be "
                + "on its way, so retrying looks it up at Stripe first and never starts a new one."
        case .collectAgain, .alreadyFinal, .refused:
            break
        }
        if mapped.recovery != .goOnline { mapped.recovery = .retrySamePayment }
        return mapped
    }

    // MARK: Payment intents

    /// The Tender state of an intent as Stripe (or the SDK) holds it now.
    ///
    /// | Stripe | Tender |
    /// |---|---|
    /// | `requiresCapture` / `succeeded` / `requiresReauthorization`, `offlineDetails.requiresUpload` | ``PaymentState/storedOffline`` |
    /// | the same, forwarded (offline details, no upload needed) | ``PaymentState/forwarded`` |
    /// | `requiresCapture` / `requiresReauthorization` (online) | ``PaymentState/authorized`` |
    /// | `succeeded` (online) | ``PaymentState/succeeded`` |
    /// | `requiresPaymentMethod` with a failed charge or payment error | ``PaymentState/declined`` (``PaymentState/declinedAfterForwarding`` if collected offline) |
    /// | `requiresPaymentMethod` (nothing tried) | ``PaymentState/collecting``: exists, waiting for a card |
    /// | `requiresConfirmation`, `processing`, `requiresAction` | ``PaymentState/processing``: exists, not finished |
    /// | `canceled` | ``PaymentState/canceled`` |
    package static func paymentState(_ intent: Stripe.PaymentIntent) -> PaymentState {
        let collectedOffline = intent.offlineDetails != nil
        switch intent.status {
        case .requiresCapture, .succeeded, .requiresReauthorization:
            if intent.offlineDetails?.requiresUpload == true { return .storedOffline }
            if collectedOffline { return .forwarded }
            return intent.status == .succeeded ? .succeeded : .authorized
        case .requiresPaymentMethod:
            let declined = intent.charges.contains { $0.status == .failed } || intent.lastPaymentError != nil
            if declined { return collectedOffline ? .declinedAfterForwarding : .declined }
            return .collecting
        case .requiresConfirmation, .processing, .requiresAction: return .processing
        case .canceled: return .canceled
        }
    }

    /// Whether Stripe released the authorization itself (`cancellationReason == "automatic"` on an intent that was
    /// authorized): the capture window passed.
    package static func authorizationExpired(_ intent: Stripe.PaymentIntent) -> Bool {
        intent.status == .canceled && intent.cancellationReason == "automatic" && intent.authorizedCharge != nil
    }

    /// What an intent says, as an update for `reference`: the state, the route, the ids, the card, the vendor's
    /// `storedAt` and `captureBefore`, the error a decline, an expired or a to-be-renewed authorization carries, and
    /// what attributes it (the intent's total and the vendor payment its `tender_attempt` metadata names), so that
    /// the core never records another sale's intent on a session.
    package static func update(for intent: Stripe.PaymentIntent, reference: String) -> ProcessorPaymentUpdate {
        let state = paymentState(intent)
        var update = ProcessorPaymentUpdate(reference: reference, state: state, route: route(intent),
                                            processorPaymentID: intent.stripeId, card: cardDetails(intent),
                                            storedAt: intent.offlineDetails?.storedAt, amount: total(intent),
                                            paymentAttempt: intent.metadata[attemptMetadataKey].flatMap(Int.init))
        // The tip the customer chose on the reader (an app-entered tip is in `amount`, never in `amountTip`).
        if let tip = intent.amountTip, let currency = try? Currency(code: intent.currency) {
            update.tip = Money(minorUnits: Int64(tip), currency: currency)
        }
        if state == .authorized || state == .forwarded {
            update.captureBefore = intent.authorizedCharge?.cardPresentDetails?.captureBefore
        }
        switch intent.status {
        case .requiresPaymentMethod where state == .declined || state == .declinedAfterForwarding:
            update.error = Stripe.errorTable.error(named: Stripe.ErrorCode.Code.declinedByStripeAPI.name,
                                                   numericCode: 6000, vendorMessage: intent.lastPaymentError?.message,
                                                   declineCode: intent.lastPaymentError?.declineCode,
                                                   phase: state == .declined ? .processing : .forwarding)
        case .requiresReauthorization:
            update.error = PaymentError(.reauthorizationRequired, recovery: .none, phase: .capture,
                                        message: "The authorization must be renewed before it can be captured; "
                                            + "capturing now fails. Renew it on the server or take a new payment.")
        case .canceled where authorizationExpired(intent):
            update.error = PaymentError(.authorizationExpired, recovery: .none, phase: .capture,
                                        message: "The authorization expired before it was captured; Stripe released "
                                            + "the funds. Take a new payment if it is still owed.")
        default:
            break
        }
        return update
    }

    /// The route of an intent: offline when it was confirmed offline.
    package static func route(_ intent: Stripe.PaymentIntent) -> PaymentRoute {
        intent.offlineDetails == nil ? .online : .offline
    }

    /// Tender's routing decision as Stripe's offline behaviour, or nil when refused (the SDK is not called).
    package static func offlineBehavior(_ decision: RoutingDecision) -> Stripe.OfflineBehavior? {
        switch decision {
        case .online: .requireOnline
        case .onlineWithOfflineFallback: .preferOnline
        case .offline: .forceOffline
        case .refused: nil
        }
    }

    /// Stripe's offline behaviour as the Tender policy of the same meaning.
    package static func offlinePolicy(_ behavior: Stripe.OfflineBehavior) -> OfflinePolicy {
        switch behavior {
        case .preferOnline: .preferOnline
        case .requireOnline: .requireOnline
        case .forceOffline: .forceOffline
        }
    }

    /// Tender's capture mode as Stripe's capture method.
    package static func captureMethod(_ mode: CaptureMode) -> Stripe.CaptureMethod {
        switch mode {
        case .automatic: .automatic
        case .manual: .manual
        }
    }

    // MARK: Status enums

    /// `NetworkStatus`.
    package static func networkStatus(_ status: Stripe.NetworkStatus) -> NetworkStatus {
        switch status {
        case .unknown: .unknown
        case .offline: .offline
        case .online: .online
        }
    }

    /// `ConnectionStatus`.
    package static func connectionStatus(_ status: Stripe.ConnectionStatus) -> ReaderConnectionStatus {
        switch status {
        case .notConnected: .notConnected
        case .discovering: .discovering
        case .connecting: .connecting
        case .connected: .connected
        case .reconnecting: .reconnecting
        }
    }

    /// `PaymentStatus` as the payment step it indicates, or nil when no payment is in progress.
    package static func paymentState(_ status: Stripe.PaymentStatus) -> PaymentState? {
        switch status {
        case .notReady, .ready: nil
        case .waitingForInput: .collecting
        case .processing: .processing
        }
    }
}

// MARK: - Readers and cards

extension StripeMapping {
    /// `ReaderDisplayMessage`.
    package static func displayMessage(_ message: Stripe.ReaderDisplayMessage) -> ReaderDisplayMessage {
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
    package static func displayMessage(_ event: Stripe.ReaderEvent) -> ReaderDisplayMessage {
        switch event {
        case .cardInserted: .cardInserted
        case .cardRemoved: .cardRemoved
        }
    }

    /// `ReaderInputOptions`, option by option.
    package static func inputOptions(_ options: Stripe.ReaderInputOptions) -> ReaderInputOptions {
        var result: ReaderInputOptions = []
        if options.contains(.swipeCard) { result.insert(.swipe) }
        if options.contains(.insertCard) { result.insert(.insert) }
        if options.contains(.tapCard) { result.insert(.tap) }
        return result
    }

    /// `DisconnectReason`.
    package static func disconnectReason(_ reason: Stripe.DisconnectReason) -> ReaderDisconnectReason {
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

    /// `CardBrand`.
    package static func cardBrand(_ brand: Stripe.CardBrand) -> CardBrand {
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
    package static func entryMethod(_ method: Stripe.ReadMethod) -> CardEntryMethod {
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
    package static func cardDetails(_ details: Stripe.CardPresentDetails) -> CardDetails {
        CardDetails(brand: cardBrand(details.brand), last4: details.last4, entryMethod: entryMethod(details.readMethod),
                    applicationName: details.receiptDetails?.applicationPreferredName,
                    applicationIdentifier: details.receiptDetails?.dedicatedFileName,
                    authorizationCode: details.receiptDetails?.authorizationCode,
                    expiryMonth: details.expMonth, expiryYear: details.expYear)
    }

    /// The receipt details of an intent: the authorizing charge's card-present details when Stripe has them, else
    /// the offline card-present details.
    package static func cardDetails(_ intent: Stripe.PaymentIntent) -> CardDetails? {
        (intent.authorizedCharge?.cardPresentDetails ?? intent.offlineDetails?.cardPresentDetails
            ?? intent.charges.last?.cardPresentDetails).map(cardDetails)
    }

    /// A Stripe reader as Tender's ``Reader`` (the serial number is the id), with its kind and features by model and,
    /// given `now`, the update it reports.
    package static func reader(_ reader: Stripe.Reader, now: Date? = nil) -> Reader {
        var mapped = Reader(id: reader.serialNumber, serialNumber: reader.serialNumber, model: reader.deviceType.rawValue,
               kind: reader.deviceType.kind, features: reader.deviceType.features, softwareVersion: reader.deviceSoftwareVersion, batteryLevel: reader.batteryLevel.map(Double.init),
               isCharging: reader.isCharging, locationID: reader.locationId, isSimulated: reader.simulated)
        mapped.availableUpdate = now.flatMap { now in reader.availableUpdate.map { softwareUpdate($0, now: now) } }
        return mapped
    }

    /// A Stripe cart from Tender's (Stripe's cart carries its own total).
    package static func cart(_ cart: ReaderCart) throws(PaymentError) -> Stripe.Cart {
        let total = try cart.total()
        return Stripe.Cart(currency: cart.tax.currency.code.lowercased(), tax: Int(cart.tax.minorUnits),
                           total: Int(total.minorUnits),
                           lineItems: cart.lineItems.map {
                               Stripe.CartLineItem(displayName: $0.description, quantity: $0.quantity,
                                                   amount: Int($0.amount.minorUnits))
                           })
    }

    /// A Stripe software update as Tender's, required when `requiredAt` is not after `now`.
    package static func softwareUpdate(_ update: Stripe.ReaderSoftwareUpdate, now: Date) -> ReaderSoftwareUpdate {
        ReaderSoftwareUpdate(version: update.deviceSoftwareVersion, isRequired: update.requiredAt <= now,
                             requiredAt: update.requiredAt.timeIntervalSince1970,
                             estimatedSeconds: estimatedSeconds(update.durationEstimate))
    }

    /// The upper bound of an update's duration estimate, in seconds.
    package static func estimatedSeconds(_ estimate: Stripe.UpdateTimeEstimate) -> Double {
        switch estimate {
        case .estimateLessThan1Minute: 60
        case .estimate1To2Minutes: 120
        case .estimate2To5Minutes: 300
        case .estimate5To15Minutes: 900
        }
    }
}
