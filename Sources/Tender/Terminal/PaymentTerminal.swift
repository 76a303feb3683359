import Foundation

/// The one type an app uses: takes payments through any ``PaymentProcessor``, applying the offline policy and the
/// risk limits before the processor is called, recording every step in a `PaymentLedger` before and after each
/// processor call, and reporting everything as ``TenderEvents``.
///
/// ```swift
/// let terminal = PaymentTerminal(processor: processor,          // StripeProcessor.terminal(…), SquareProcessor.mobilePayments(…)
///                                ledger: try await SQLitePaymentLedger.open(url: ledgerURL),
///                                scope: LedgerScope(merchantID: "acct_1", locationID: "tml_1"),
///                                limits: .single(perPayment: Money(minorUnits: 10_000, currency: .usd),
///                                                storedTotal: Money(minorUnits: 100_000, currency: .usd)))
/// let recovery = await terminal.recover()          // after every launch
/// Task { await terminal.run() }                    // forwarding results, reader events, queue polling
/// let sale = PaymentRequest(amount: Money(minorUnits: 1250, currency: .usd), reference: "order-1042",
///                           offlinePolicy: .preferOnline)
/// let session = try await terminal.takePayment(sale)
/// ```
///
/// `takePayment` throws only when the payment was refused before the processor was asked (validation, the
/// processor's amount limit, policy, risk limits, a reference reused for a different sale) or the ledger failed. A
/// ledger that fails once the processor was asked throws ``PaymentError/Code/outcomeUnknown`` with
/// ``PaymentError/Recovery/retrySamePayment``: the card may have been charged, and taking the same reference again is
/// the safe retry. Every outcome the processor reports, including declines, comes back as a ``PaymentSession`` whose
/// ``PaymentSession/state`` and ``PaymentSession/lastError`` say what happened.
///
/// A reference names one order's payment, and at most one vendor payment per reference is ever charged:
/// - retrying a reference whose outcome is not definite (a timeout, a crash, a lookup that cannot answer)
///   continues the same vendor payment;
/// - retrying after a definite decline, failure or cancellation starts a new vendor payment (another card for the
///   same order), recorded in the same session's history (``PaymentSession/paymentAttempt``);
/// - retrying a payment that was approved, stored or forwarded returns it.
public actor PaymentTerminal {
    /// The processor.
    package nonisolated let processor: any PaymentProcessor
    /// The ledger.
    package nonisolated let ledger: any PaymentLedger
    /// The merchant and location payments are recorded under.
    public internal(set) var scope: LedgerScope
    /// The app's offline risk limits; the processor's are merged in at each payment. Change them with
    /// ``setLimits(_:)``.
    public private(set) var limits: OfflineRiskLimits
    /// The network status as last learned from the processor (asked before each payment and at launch, and
    /// updated by its events).
    public internal(set) var networkStatus: NetworkStatus = .unknown
    /// How ``run()`` polls the processor's queue while payments are stored or awaiting a result.
    package private(set) var polling: QueuePolling

    let clock: any TenderClock
    /// Where log records go (``setLogHandler(_:minimumLevel:)``).
    nonisolated let logger: TenderLogger
    nonisolated let hub: EventHub
    /// The references whose payment call runs now: ``takePayment(_:)``, a capture or void, the cancellation of a
    /// leftover session. Each call claims its reference, and a second call on it is refused.
    var inFlight: Set<String> = []
    /// Calls running now that read the scope across suspension points without a reference of their own claimed
    /// (``recover()``, ``pollOnce()``): a scope switch is refused while any runs.
    var runningCalls = 0
    /// Queue snapshots asked for (`issued`) and the newest sent as ``TenderEvent/queueChanged(_:)`` (`sent`): a
    /// snapshot read before one already sent is dropped, so subscribers never see the queue go back in time.
    var queueSnapshots: (issued: UInt64, sent: UInt64) = (0, 0)
    /// How many refund calls of each reference are running now (several refunds of one payment may run at once:
    /// the ledger reserves each one's amount atomically).
    var refundCalls: [String: Int] = [:]
    /// The references with a refund call running: the queue poller leaves their pending refunds to those calls,
    /// and ``unfinishedWork()`` lists them.
    var refundsInFlight: Set<String> { Set(refundCalls.keys) }
    /// The refunds (by id) this terminal is sending or settling with the processor now.
    var refundsSending: Set<String> = []
    var live: [String: PaymentSession] = [:]
    var isRunning = false
    let mailbox = ProcessorEventMailbox()
    var relayStarted = false
    let pollSignal = WakeSignal()
    var lastAuthorizationCheck: [String: Date] = [:]
    /// When each succeeded refund still inside its processor's change window was last looked up (by scope and id).
    var lastRefundCheck: [String: Date] = [:]
    /// The reader side as last learned (``snapshot()``): the connected reader, its connection status, the update
    /// it offers or requires, and the phase of each payment in progress.
    var readerState = ReaderState()

    /// Creates the facade over the app's durable ledger. Does no work: call ``recover()`` after launch and ``run()``
    /// for background events.
    /// ```swift
    /// let ledger = try await SQLitePaymentLedger.open(url: applicationSupport.appending(path: "payments.sqlite"))
    /// let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: scope)
    /// ```
    /// - Parameters:
    ///   - processor: the adapter.
    ///   - ledger: where sessions are recorded, durably; the facade is its only writer.
    ///   - scope: the merchant and location.
    ///   - limits: the app's offline risk limits (default: no offline payments).
    ///   - polling: how ``run()`` polls the processor's queue (default ``QueuePolling/standard``).
    ///   - clock: the time source (inject `TenderTesting`'s `ManualClock` in tests).
    public init(processor: any PaymentProcessor, ledger: SQLitePaymentLedger, scope: LedgerScope,
                limits: OfflineRiskLimits = .none, polling: QueuePolling = .standard,
                clock: any TenderClock = SystemClock()) {
        self.init(processor: processor, anyLedger: ledger, scope: scope, limits: limits, polling: polling, clock: clock)
    }

    /// Creates the facade over any ledger (default: in memory, which is not durable): the package's tests, tools,
    /// previews and simulators.
    package init(processor: any PaymentProcessor, ledger: any PaymentLedger = InMemoryPaymentLedger(),
                 scope: LedgerScope, limits: OfflineRiskLimits = .none, polling: QueuePolling = .standard,
                 clock: any TenderClock = SystemClock()) {
        self.init(processor: processor, anyLedger: ledger, scope: scope, limits: limits, polling: polling, clock: clock)
    }

    private init(processor: any PaymentProcessor, anyLedger ledger: any PaymentLedger, scope: LedgerScope,
                 limits: OfflineRiskLimits, polling: QueuePolling, clock: any TenderClock) {
        let logger = TenderLogger()
        self.logger = logger
        hub = EventHub(logger: logger)
        // Every call to the processor goes through the logging wrapper.
        self.processor = LoggingProcessor(base: processor, logger: logger)
        self.ledger = ledger
        self.scope = scope
        self.limits = limits
        self.polling = polling
        self.clock = clock
    }

    /// A new subscription to the facade's events, keeping up to 1,024 unread events (the newest;
    /// see ``TenderEvents`` for the policy).
    public nonisolated var events: TenderEvents { hub.subscribe() }

    /// A new subscription to the facade's events that keeps up to `bufferingNewest` unread events (at least one):
    /// when its reader falls further behind, the oldest unread events are dropped.
    public nonisolated func events(bufferingNewest limit: Int) -> TenderEvents { hub.subscribe(bufferingNewest: limit) }

    /// Replaces the app's offline risk limits; the next payment is routed under them.
    public func setLimits(_ limits: OfflineRiskLimits) { self.limits = limits }

    /// Replaces the queue-polling settings; a running ``run()`` uses them from its next poll.
    public func setPolling(_ polling: QueuePolling) {
        self.polling = polling
        pollSignal.wake()
    }

    // MARK: Sessions

    /// The recorded session for a reference, with its history and refunds.
    public func session(reference: String) async throws -> PaymentSession? {
        try await ledger.session(reference: reference, scope: scope)
    }

    /// Every session of the current scope, oldest first.
    public func sessions() async throws -> [PaymentSession] { try await ledger.allSessions(scope: scope) }

    // MARK: Network status

    /// Asks the processor for its current network status and records it. Used before routing and at launch.
    @discardableResult
    public func refreshNetworkStatus() async -> NetworkStatus {
        let status = await processor.networkStatus()
        if status != .unknown { learnNetworkStatus(status) }
        return networkStatus
    }

    /// Records a network status learned from the processor; wakes the queue poller when the network returns
    /// (vendors forward, and Square reports results, once back online).
    func learnNetworkStatus(_ status: NetworkStatus) {
        let cameBack = status == .online && networkStatus != .online
        networkStatus = status
        if cameBack { pollSignal.wake() }
    }
}

/// How ``PaymentTerminal/run()`` polls the processor's queue while any payment is stored offline or awaiting a
/// result: vendors report forwarding results when their queue is read (Square) and delete what they processed, so
/// the queue is read until nothing is pending — at once at launch and when the network returns, then every
/// ``interval`` seconds, doubling while nothing changes up to ``maximumInterval``.
public struct QueuePolling: Hashable, Sendable {
    /// Seconds between polls while something changes.
    public var interval: Double
    /// The longest pause between polls after repeated polls found nothing new.
    public var maximumInterval: Double
    /// How often an authorized, uncaptured payment without a known capture deadline is checked for expiry.
    public var authorizationCheckInterval: Double
    /// How often a succeeded refund still inside its processor's ``ProcessorCapabilities/refundChangeWindow`` is
    /// looked up again (a Stripe refund can fail after it succeeded). ``PaymentTerminal/recover()`` looks every such
    /// refund up once after a launch.
    public var refundCheckInterval: Double

    /// Creates polling settings.
    public init(interval: Double = 30, maximumInterval: Double = 300, authorizationCheckInterval: Double = 3600,
                refundCheckInterval: Double = 6 * 3600) {
        self.interval = max(0.001, interval)
        self.maximumInterval = max(self.interval, maximumInterval)
        self.authorizationCheckInterval = authorizationCheckInterval
        self.refundCheckInterval = max(0, refundCheckInterval)
    }

    /// 30 seconds, backing off to 5 minutes; authorizations checked hourly; succeeded refunds that may still fail
    /// every 6 hours.
    public static let standard = QueuePolling()
}
