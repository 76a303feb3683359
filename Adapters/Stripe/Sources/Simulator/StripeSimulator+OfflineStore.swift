import Foundation
import Tender
package import TenderStripe

extension StripeSimulator {
    /// A payment the SDK stores on the device, waiting to be forwarded (offline). Holds the simulated card *type* (to decide
    /// the outcome at forwarding), never card data.
    package struct StoredPayment: Hashable, Sendable, Codable {
        /// The local intent, `offlineDetails.requiresUpload == true`.
        package var intent: Stripe.PaymentIntent
        /// The simulated card that was read.
        package var card: Stripe.SimulatedCardType
        /// How it was read.
        package var readMethod: Stripe.ReadMethod = .contactEMV
    }

    /// `offlineStatus`: the SDK's network status and the count and amounts of what it stores (nothing more: the
    /// SDK lists no stored payment).
    package var offlineStatus: Stripe.OfflineStatus {
        get async {
            await runDueWork()
            return currentOfflineStatus
        }
    }

    var currentOfflineStatus: Stripe.OfflineStatus {
        var amounts: [String: Int64] = [:]
        if !paymentsCountCleared {
            for stored in state.storedPayments {
                amounts[stored.intent.currency, default: 0] += Int64(stored.intent.amount)
            }
        }
        let count: Int? = paymentsCountCleared ? nil : state.storedPayments.count
        return Stripe.OfflineStatus(sdk: Stripe.OfflineStatusDetails(
            paymentsCount: count, paymentAmountsByCurrency: amounts, networkStatus: sdkNetworkStatus))
    }

    /// The configuration's `offlineEnabled`.
    package var offlineModeEnabled: Bool { configuration.offlineEnabled }

    /// `clearCachedCredentials()`: refused while a reader is connected; afterwards `paymentsCount` is nil and the
    /// amounts empty until the SDK stores again.
    package func clearCachedCredentials() async throws(Stripe.ErrorCode) {
        guard connection == nil else {
            throw Stripe.ErrorCode(.unexpectedOperationError,
                                   message: "clearCachedCredentials is not allowed while a reader is connected.")
        }
        hasSessionToken = false
        paymentsCountCleared = true
        if configuration.clearCachedCredentialsDropsStoredPayments { state.storedPayments.removeAll() }
        log("cleared cached credentials")
        notifyOfflineStatus()
    }

    /// Stores a confirmation offline after the SDK's offline checks (Stripe's offline errors).
    func confirmOffline(_ local: inout LocalIntent, card: Stripe.SimulatedCardType)
        -> (Stripe.PaymentIntent?, Stripe.ErrorCode?) {
        let readMethod = local.readMethod ?? .contactEMV
        if readMethod.isSwipe {
            return recollect(&local, .cardSwipeNotAvailable, "Swipe is not allowed offline; retry collectPaymentMethod.")
        }
        if card == .interac {
            return recollect(&local, .interacNotSupportedOffline,
                             "Interac is not supported offline; retry collectPaymentMethod.")
        }
        if card.requiresOnlinePin {
            return recollect(&local, .onlinePinNotSupportedOffline, "Online PIN is not supported offline; use another card.")
        }
        if card.isExpired(at: clock.now()) {
            return recollect(&local, .offlineAndCardExpired, "The card was identified as expired offline.")
        }
        if let reason = configuration.offlineCardDeclineReason {
            return recollect(&local, .offlineTransactionDeclined, "The card declined offline verification.",
                             offlineDeclineReason: reason)
        }
        let base = local.intent.amount - min(local.intent.amount, local.intent.amountDetailsTip ?? 0)
        let total = base + (local.tip ?? 0)
        guard local.intent.currency == configuration.operatingCurrency else {
            return (nil, Stripe.ErrorCode(.invalidOfflineCurrency,
                                          message: "\(local.intent.currency) is not valid for offline payments.",
                                          paymentIntent: local.intent))
        }
        guard total <= configuration.offlineMaximum else {
            return (nil, Stripe.ErrorCode(.amountExceedsMaxOfflineAmount,
                                          message: "The amount exceeds the maximum offline amount (\(configuration.offlineMaximum)).",
                                          paymentIntent: local.intent))
        }
        if let limit = configuration.offlineStoredPaymentsMaximum, state.storedPayments.count >= limit {
            return (nil, Stripe.ErrorCode(.offlinePaymentsDatabaseTooLarge,
                                          message: "Too many offline payments are stored; go online to forward them.",
                                          paymentIntent: local.intent))
        }
        // Confirmed: the amount includes the on-reader tip, and the breakdown names it.
        local.intent.amount = total
        local.intent.amountTip = nil
        local.intent.amountDetailsTip = local.tip
        local.intent.offlineDetails = Stripe.OfflineDetails(
            storedAt: clock.now(), requiresUpload: true,
            cardPresentDetails: cardPresentDetails(card, readMethod: readMethod, online: false))
        local.intent.status = local.intent.captureMethod == .automatic ? .succeeded : .requiresCapture
        guard let handle = local.intent.sdkHandle, localIntents.removeValue(forKey: handle) != nil else {
            return (nil, Self.offlineError())  // the app that sent it is gone: nothing was stored
        }
        liveStoredHandles.insert(handle)
        state.storedPayments.append(StoredPayment(intent: local.intent, card: card, readMethod: readMethod))
        paymentsCountCleared = false
        log("stored a payment offline")
        notifyOfflineStatus()
        if sdkNetworkStatus == .online, let delay = configuration.backgroundForwardingDelay {
            scheduleForwarding(after: delay)
        }
        return (local.intent, nil)
    }

    /// Schedules the SDK's next background forwarding pass, `delay` from now (the earlier of two wins).
    func scheduleForwarding(after delay: Double) {
        let due = clock.now().addingTimeInterval(delay)
        nextForwardingAt = min(nextForwardingAt ?? due, due)
    }

    /// Forwards up to `maxCount` stored payments (all if nil), oldest first, while the network lets requests
    /// through: what the SDK does in the background, on demand. Asks the token provider first (even offline, as the
    /// SDK does) and reports its failure through `didReportForwardingError`. Each payment is reported through
    /// `didForwardPaymentIntent`: forwarded, declined (an error), or not forwarded (an error; the SDK keeps it or
    /// drops it by the error, ``Stripe/SimulatorConfiguration/forwardingErrorsKeepingPayment``).
    package func forwardPendingPayments(maxCount: Int? = nil) async {
        guard !state.storedPayments.isEmpty, !forwarding else { return }
        forwarding = true
        defer { forwarding = false }
        let token: String
        do {
            token = try await tokenProvider.fetchConnectionToken()
        } catch {
            reportForwardingError(Stripe.ErrorCode(.connectionTokenProviderCompletedWithErrorWhileForwarding,
                                                   message: "Connection token provider failed: \(error)"))
            rescheduleIfStored()
            return
        }
        guard !token.isEmpty else {
            reportForwardingError(Stripe.ErrorCode(.connectionTokenProviderCompletedWithNothingWhileForwarding,
                                                   message: "Connection token provider returned nothing."))
            rescheduleIfStored()
            return
        }
        if let failure = configuration.forwardingFailure, failure == .accountIdMismatchWhileForwarding {
            reportForwardingError(Stripe.ErrorCode(failure, message: "The connection token is for another account."))
            rescheduleIfStored()
            return
        }
        var attempted = 0
        for stored in state.storedPayments {
            guard attempted < (maxCount ?? Int.max) else { break }
            guard attemptRequest() == .reached else { break }
            attempted += 1
            let (intent, error, kept) = forward(stored)
            if !kept { state.storedPayments.removeAll { $0.intent == stored.intent } }
            log("forwarded \(intent.stripeId ?? "(local)") \(error.map { "with \($0)" } ?? "")")
            if configuration.forwardedDeclineFirstReportsRequiresPaymentMethod, error?.code == .declinedByStripeAPI {
                // RN#1061's iOS sequence: a first callback with no charge, no error, `requiresPaymentMethod`.
                var first = intent
                first.status = .requiresPaymentMethod
                first.charges = []
                first.lastPaymentError = nil
                delegates.current.offline?.didForwardPaymentIntent(handOut(first, behavior: .preferOnline), error: nil)
            }
            delegates.current.offline?.didForwardPaymentIntent(handOut(intent, behavior: .preferOnline), error: error)
            notifyOfflineStatus()
        }
        rescheduleIfStored()
    }

    private func rescheduleIfStored() {
        if !state.storedPayments.isEmpty, let delay = configuration.backgroundForwardingDelay {
            scheduleForwarding(after: delay)
        }
    }

    /// Forwards one stored payment to Stripe: returns the intent to report, the error, and whether the SDK keeps it.
    private func forward(_ stored: StoredPayment) -> (Stripe.PaymentIntent, Stripe.ErrorCode?, Bool) {
        if let failure = configuration.forwardingFailure {
            let kept = configuration.forwardingErrorsKeepingPayment.contains(failure.name)
            return (stored.intent, Stripe.ErrorCode(failure, message: "The payment could not be forwarded."), kept)
        }
        var forwarded = stored.intent.withHandle(nil)
        forwarded.offlineDetails?.requiresUpload = false
        if let existing = forwarded.stripeId, let server = serverIntent(stripeId: existing) {
            // Created online, confirmed offline. Stripe confirms an intent once: if it was confirmed online meanwhile
            // (a retry after a lost answer), the forwarded confirmation is refused and nothing is charged again.
            // Unverified: what the SDK reports then; modelled as the API's `payment_intent_unexpected_state`.
            guard server.status == .requiresPaymentMethod || server.status == .requiresConfirmation else {
                return (stored.intent, Stripe.ErrorCode(.stripeAPIError,
                                                        message: "This PaymentIntent was already confirmed.",
                                                        paymentIntent: stored.intent,
                                                        apiError: Stripe.ApiError(code: "payment_intent_unexpected_state")),
                        false)
            }
            forwarded.clientSecret = server.clientSecret
        } else {
            forwarded.stripeId = nextID("pi_")
            forwarded.clientSecret = forwarded.stripeId! + "_secret_" + nextID("")
        }
        let outcome = chargeForwarded(forwarded, card: stored.card, readMethod: stored.readMethod)
        return (outcome.intent, outcome.error, false)
    }

    func reportForwardingError(_ error: Stripe.ErrorCode) {
        log("forwarding error: \(error)")
        delegates.current.offline?.didReportForwardingError(error)
    }
}
