package import Foundation
import Tender
package import TenderStripe

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

extension StripeSimulator {
    /// What ``StripeSimulator/persist(to:)`` writes: Stripe's servers and the SDK's disk, enough to re-create the
    /// simulator after a simulated process restart.
    package struct PersistedState: Hashable, Sendable, Codable {
        /// The seed.
        package var seed: UInt64
        /// How many ids were issued (ids are derived from the seed and this counter).
        package var issuedIdentifiers: UInt64 = 0
        /// Every PaymentIntent on Stripe's servers (server copies: no SDK handle).
        package var serverIntents: [Stripe.PaymentIntent] = []
        /// Every charge on Stripe's servers.
        package var charges: [ServerCharge] = []
        /// Every refund on Stripe's servers.
        package var refunds: [ServerRefund] = []
        /// Stripe's search index: each intent version with the time it was written (search shows it `searchLag` later).
        package var searchIndex: [IndexedIntent] = []
        /// The SDK's offline store.
        package var storedPayments: [StoredPayment] = []
        /// The online connections the SDK remembers (for the connect-while-offline rules).
        package var onlineConnections: [OnlineConnection] = []
        /// When each reader (by serial) last ran the latest software.
        package var softwareCurrentAt: [String: Date] = [:]
        /// Readers (by serial) that installed the simulated test update.
        package var updatedReaders: Set<String> = []
        /// The idempotency keys of captures and cancels Stripe remembers (absent in files written before).
        package var idempotentRequests: [String: IdempotentRequest]?

        /// An empty state.
        package init(seed: UInt64) { self.seed = seed }
    }

    /// An online connection the SDK remembers, for the connect-while-offline rules.
    package struct OnlineConnection: Hashable, Sendable, Codable {
        /// The reader's serial number.
        package var serialNumber: String
        /// Its type.
        package var deviceType: Stripe.DeviceType
        /// The location.
        package var locationId: String
        /// When.
        package var at: Date
    }
}
