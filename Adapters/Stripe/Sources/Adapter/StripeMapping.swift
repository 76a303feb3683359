import Foundation
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

    /// An intent's total, on-reader tip included, as `Money`, or nil for a currency Tender does not know.
    ///
    /// Stripe documents that after `confirmPaymentIntent` "the amount will have this tip amount added to it and the
    /// amountDetails will contain the breakdown": `amount` is then the total, and `amountDetails.tip` a portion of
    /// it. Only before confirmation does a tip the collection reported (`amountTip`, with `updatePaymentIntent`)
    /// still come on top of `amount`.
    package static func total(_ intent: Stripe.PaymentIntent) -> Money? {
        let pendingTip = intent.amountDetailsTip == nil && !confirmed(intent) ? intent.amountTip ?? 0 : 0
        let (sum, overflow) = intent.amount.addingReportingOverflow(pendingTip)
        guard !overflow, let minorUnits = Int64(exactly: sum), let currency = try? Currency(code: intent.currency) else {
            return nil
        }
        return Money(minorUnits: minorUnits, currency: currency)
    }

    /// The on-reader tip an intent reports: `amountDetails.tip` after confirmation (a portion of `amount`), else
    /// the collection's `amountTip`; nil when none was collected or the currency is unknown.
    package static func tip(_ intent: Stripe.PaymentIntent) -> Money? {
        guard let tip = intent.amountDetailsTip ?? intent.amountTip, let minorUnits = Int64(exactly: tip),
              let currency = try? Currency(code: intent.currency) else { return nil }
        return Money(minorUnits: minorUnits, currency: currency)
    }

    /// Whether an intent is the payment of a sale whose total is `total`: its own total, or, when it carries an
    /// on-reader tip, its total less that tip (the ledger learns the tip only from the vendor, so a sale whose
    /// outcome was lost is looked up by its amount alone).
    package static func isPayment(_ intent: Stripe.PaymentIntent, ofTotal total: Money) -> Bool {
        guard let own = self.total(intent) else { return false }
        if own == total { return true }
        guard let tip = tip(intent), tip.currency == total.currency else { return false }
        return own.currency == total.currency && own.minorUnits - tip.minorUnits == total.minorUnits
    }

    /// A decline after forwarding: the issuer declined when the stored payment was forwarded, hours after the
    /// customer left, so nothing is to be done at the counter (recovery ``PaymentError/Recovery/none``, never
    /// "collect another card"). Seed 000: "there's no way to recover the funds"; the merchant bears the loss.
    package static func forwardedDecline(_ error: PaymentError?) -> PaymentError? {
        guard var error else { return nil }
        error.recovery = .none
        error.phase = .forwarding
        error.message += " The payment was declined when it was forwarded, after the customer left: the merchant "
            + "bears the loss."
        return error
    }

    /// Whether the intent is past confirmation (online or offline), so that its `amount` includes any on-reader
    /// tip: `amountTip` is then never added again, even if an SDK object still carried it.
    static func confirmed(_ intent: Stripe.PaymentIntent) -> Bool {
        switch intent.status {
        case .requiresPaymentMethod, .requiresConfirmation: false
        case .processing, .requiresAction, .requiresCapture, .succeeded, .requiresReauthorization, .canceled: true
        }
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
    /// 9041 (`tapToPayInternalNetworkError`, "Tap to Pay network error") is 9040's counterpart for Tap to Pay: the
    /// request may have reached Stripe, so it is confirmed again on the same intent, never refused as not charged.
    package static let connectivityErrors: Set<String> = [
        "notConnectedToInternet", "notConnectedToInternetAndOfflineBehaviorRequireOnline", "requestTimedOut",
        "internalNetworkError", "tapToPayInternalNetworkError", "stripeAPIResponseDecodingError", "connectionTokenProviderCompletedWithError",
        "connectionTokenProviderTimedOut",
    ]

    /// The connectivity errors of a request that never left the device (the SDK knew it was offline): Stripe is known
    /// not to have it. After any other, the request may have reached Stripe.
    package static let neverSentErrors: Set<String> = [
        "notConnectedToInternet", "notConnectedToInternetAndOfflineBehaviorRequireOnline",
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
        case .retryConfirm where neverSentErrors.contains(error.code.name):
            mapped.message += " Stripe has not received the payment; nothing was charged. Retrying confirms the "
                + "same PaymentIntent with the card already read."
        case .retryConfirm:
            mapped.message += " The request may have reached Stripe; retrying looks the PaymentIntent up at Stripe "
                + "first and confirms the same one with the card already read, never a new one."
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
        // The tip the customer chose on the reader (an app-entered tip is in `amount` and in no tip field).
        update.tip = tip(intent)
        if state == .authorized || state == .forwarded {
            update.captureBefore = intent.authorizedCharge?.cardPresentDetails?.captureBefore
        }
        update.capturedAmount = capturedAmount(intent, state: state)
        switch intent.status {
        case .requiresPaymentMethod where state == .declined || state == .declinedAfterForwarding:
            update.error = Stripe.errorTable.error(named: Stripe.ErrorCode.Code.declinedByStripeAPI.name,
                                                   numericCode: 6000, vendorMessage: intent.lastPaymentError?.message,
                                                   declineCode: intent.lastPaymentError?.declineCode,
                                                   phase: state == .declined ? .processing : .forwarding)
            if state == .declinedAfterForwarding { update.error = forwardedDecline(update.error) }
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

    /// What Stripe captured of a manual-capture intent it reports captured (`amount_received`): a partial capture's
    /// amount, so that reconciliation after a lost capture answer records what was taken, not the authorization.
    /// `nil` for automatic capture (the whole is captured), before the capture, or when Stripe does not say.
    static func capturedAmount(_ intent: Stripe.PaymentIntent, state: PaymentState) -> Money? {
        guard intent.captureMethod == .manual, state == .succeeded, let received = intent.amountReceived,
              received > 0, received <= intent.amount, let total = total(intent) else { return nil }
        return Money(minorUnits: Int64(received), currency: total.currency)
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

