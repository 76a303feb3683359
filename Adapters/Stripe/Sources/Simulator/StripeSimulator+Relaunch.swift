import Foundation
import Tender
import TenderStripe

extension StripeSimulator {
    /// Simulates an app relaunch (the process was killed and started again) without a file: the SDK forgets
    /// everything it held in memory — every object handle it handed out (``Stripe/PaymentIntent/sdkHandle``), the
    /// reader connection, the session token, the delegates, commands waiting for a card — and keeps what it persists:
    /// its offline store (forwarded again on its own once online) and the locations it connected online at. Stripe's
    /// servers are untouched.
    ///
    /// Later use of an old handle fails as the real SDK would fail with an object it does not know
    /// (`confirmInvalidPaymentIntent`). Completions of commands in flight are never called (their process is gone);
    /// a confirmation held on its way to Stripe (``Fault/holdNextAuthorization``) still reaches Stripe when released,
    /// but no longer keeps the new process's reader busy (the request is in the network, not in the SDK).
    /// Stripe Terminal does not reconnect a reader at launch: the app connects again.
    public func relaunch() {
        normalize()
        if let pending = pendingDiscovery { pending.completion.discard() }
        if let pending = pendingCollection { pending.completion.discard() }
        if let pending = pendingRefundCollection { pending.completion.discard() }
        if let pending = pendingConfirm {
            pending.completion.discard()
            // Only a request to Stripe outlives the process; an offline confirmation dies with it (never stored).
            if pending.local.intent.stripeId != nil { orphanedConfirms.append(pending.local) }
        }
        pendingConfirm = nil
        pendingDiscovery = nil
        pendingCollection = nil
        pendingRefundCollection = nil
        collectedRefund = nil
        localIntents = [:]
        liveStoredHandles = []
        connection = nil
        currentConnectionStatus = .notConnected
        currentPaymentStatus = .notReady
        sdkNetworkStatus = .unknown
        hasSessionToken = false
        paymentsCountCleared = false
        nextCollectionFailure = nil
        optionalUpdateReportedAt = [:]
        holdNextCard = false
        delegates.withLock { $0 = Delegates() }
        // At launch the SDK starts forwarding what it stored as soon as it can.
        nextForwardingAt = state.storedPayments.isEmpty || configuration.backgroundForwardingDelay == nil
            ? nil : clock.now()
        log("relaunched: every object handle forgotten; \(state.storedPayments.count) payment(s) still stored")
    }
}
