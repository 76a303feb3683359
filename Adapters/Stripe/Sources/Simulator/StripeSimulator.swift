import Foundation
package import Tender
public import TenderStripe
package import TenderTesting

/// A simulator of the Stripe Terminal iOS SDK with simulated Bluetooth readers, and of Stripe's servers behind it,
/// as Stripe documents them, including the unkind parts: test cards (every `chargeDeclined…` card, Interac, PIN
/// cards), a network that is online, offline, intermittent or timing out (``Stripe/SimulatedOfflineMode``),
/// confirmations that time out before or after Stripe received them, offline storage with nil `stripeId` and
/// `offlineDetails`, background forwarding with `didForwardPaymentIntent` per intent, forwarding errors that keep or
/// drop a payment, declines surfacing at forwarding, the 10,000 USD offline maximum in the operating currency,
/// swipe, Interac and online PIN refused offline, the connect-while-offline rules, reader disconnects and automatic
/// reconnection, required and optional updates, authorizations that expire after two days, a search that lags, and
/// relaunches that forget every object the SDK handed out.
///
/// It keeps the **processor-side truth**, what Stripe's servers hold (``serverIntents``, ``serverCharges``,
/// ``chargeCount(reference:)``), and the SDK's disk (its offline store), and persists both when asked
/// (``persist(to:)``, ``init(restoringFrom:configuration:clock:tokenProvider:)``). ``server`` is the app's server side
/// (``StripeSimulatorServer``: search, retrieve, cancel, capture, refunds).
///
/// Deterministic: ids come from the seed, time from the injected ``TenderClock``, and nothing runs on a timer: work
/// that falls due with time (background forwarding, expiring authorizations, failing refunds) runs on the next SDK or
/// server call after the clock passed it, or on ``runDueWork()``.
public actor StripeSimulator: StripeClient {
    struct Delegates {
        var terminal: (any Stripe.TerminalDelegate)?
        var offline: (any Stripe.OfflineDelegate)?
        var log: (@Sendable (String) -> Void)?
    }

    /// An SDK object the app holds, with what the SDK knows of it that Stripe does not (the card it collected).
    struct LocalIntent: Sendable {
        var intent: Stripe.PaymentIntent
        var behavior: Stripe.OfflineBehavior
        var card: Stripe.SimulatedCardType?
        var readMethod: Stripe.ReadMethod?
        /// The card was collected while the SDK was online (6904 if it is confirmed offline).
        var collectedOnline = false
        /// The tip the customer chose on the reader at collection, added to `amount` at confirmation (Stripe: "After
        /// confirmPaymentIntent the amount will have this tip amount added to it and the amountDetails will contain
        /// the breakdown").
        var tip: UInt?
    }

    struct PendingDiscovery {
        var cancelable: SimulatedCancelable
        var completion: OneShot<Stripe.ErrorCode?>
    }

    struct PendingCollection {
        var handle: String
        var cancelable: SimulatedCancelable
        var completion: OneShot<(Stripe.PaymentIntent?, Stripe.ErrorCode?)>
    }

    struct PendingConfirm {
        var local: LocalIntent
        var cancelable: SimulatedCancelable
        var completion: OneShot<(Stripe.PaymentIntent?, Stripe.ErrorCode?)>
    }

    struct PendingRefundCollection {
        var parameters: Stripe.RefundParameters
        var cancelable: SimulatedCancelable
        var completion: OneShot<Stripe.ErrorCode?>
    }

    struct CollectedRefund {
        var parameters: Stripe.RefundParameters
        var card: Stripe.SimulatedCardType
    }

    struct Connection {
        var reader: Stripe.Reader
        var autoReconnect: Bool
        var delegate: (any Stripe.MobileReaderDelegate)?
    }

    static let offlineWindow: Double = 30 * 24 * 3600
    static let optionalUpdateGrace: Double = 7 * 24 * 3600

    nonisolated let delegates = Locked(Delegates())
    let clock: any TenderClock
    let tokenProvider: any Stripe.ConnectionTokenProvider
    /// Stripe's servers and the SDK's disk.
    var state: PersistedState
    /// Lookup aids over `state.serverIntents`, never persisted: where each intent sits in the array (checked on
    /// use, rebuilt when stale) and the earliest capture deadline of an uncaptured authorization (`nil`: not known
    /// yet, scan once). They keep every call O(1) in the number of payments Stripe holds.
    var serverIntentIndex: [String: Int] = [:]
    var nextAuthorizationExpiry: Date?
    var authorizationExpiryKnown = false
    var configuration: Stripe.SimulatorConfiguration
    var offlineMode: Stripe.SimulatedOfflineMode = .disabled
    var random: SeededGenerator
    var faults: [Fault] = []
    /// Reader faults waiting for the operation they apply to, and the cart a smart reader shows.
    var readerKinds = ReaderKindState()

    // The SDK's memory: lost at a relaunch.
    var sdkNetworkStatus: Stripe.NetworkStatus = .unknown
    var currentConnectionStatus: Stripe.ConnectionStatus = .notConnected
    var currentPaymentStatus: Stripe.PaymentStatus = .notReady
    var connection: Connection?
    var localIntents: [String: LocalIntent] = [:]
    /// Handles of the stored payments' SDK objects handed out this launch.
    var liveStoredHandles: Set<String> = []
    var pendingDiscovery: PendingDiscovery?
    var pendingCollection: PendingCollection?
    var pendingConfirm: PendingConfirm?
    /// Confirmations on their way to Stripe when the app relaunched: they no longer occupy the SDK (a new process
    /// has no command in flight) but still reach Stripe when released, and nobody hears the answer.
    var orphanedConfirms: [LocalIntent] = []
    var pendingRefundCollection: PendingRefundCollection?
    var collectedRefund: CollectedRefund?
    var holdNextCard = false
    var hasSessionToken = false
    var paymentsCountCleared = false
    var nextCollectionFailure: Stripe.ErrorCode.Code?
    var optionalUpdateReportedAt: [String: Date] = [:]
    var nextForwardingAt: Date?
    var forwarding = false

    /// Creates a simulator.
    /// - Parameters:
    ///   - configuration: the simulated account, reader and card.
    ///   - seed: the seed for ids and the intermittent network.
    ///   - clock: the clock for `storedAt`, the 30-day rules, capture windows, search lag and schedules.
    ///   - tokenProvider: the app's connection-token provider (asked on connect and when forwarding).
    package init(configuration: Stripe.SimulatorConfiguration = .init(), seed: UInt64 = 1,
                clock: any TenderClock = ManualClock(),
                tokenProvider: any Stripe.ConnectionTokenProvider = StripeSimulator.TestTokenProvider()) {
        self.configuration = configuration
        self.clock = clock
        self.tokenProvider = tokenProvider
        self.random = SeededGenerator(seed: seed)
        self.state = PersistedState(seed: seed)
    }

    /// Re-creates a simulator from a file written by ``persist(to:)``: a simulated process restart. Stripe's servers
    /// and the SDK's offline store survive; the SDK's memory (connection, objects handed out) does not.
    /// - Throws: if the file is missing or unreadable.
    package init(restoringFrom file: SimulatorStateFile<PersistedState>,
                configuration: Stripe.SimulatorConfiguration = .init(), clock: any TenderClock = ManualClock(),
                tokenProvider: any Stripe.ConnectionTokenProvider = StripeSimulator.TestTokenProvider()) throws {
        guard let saved = try file.load() else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: file.url.path])
        }
        self.configuration = configuration
        self.clock = clock
        self.tokenProvider = tokenProvider
        self.random = SeededGenerator(seed: saved.seed &+ saved.issuedIdentifiers)
        self.state = saved
        self.nextForwardingAt = saved.storedPayments.isEmpty || configuration.backgroundForwardingDelay == nil
            ? nil : clock.now()
    }

    /// Writes Stripe's servers and the SDK's offline store to `file`.
    package func persist(to file: SimulatorStateFile<PersistedState>) throws { try file.save(state) }

    /// A connection-token provider that always answers with a test token.
    package struct TestTokenProvider: Stripe.ConnectionTokenProvider {
        /// Creates the provider.
        package init() {}
        /// A test token.
        package func fetchConnectionToken() async throws -> String { "pst_test_simulated" }
    }

    // MARK: - Test controls

    /// Changes the simulated configuration (card, read method, updates, limits).
    package func configure(_ change: @Sendable (inout Stripe.SimulatorConfiguration) -> Void) {
        change(&configuration)
    }

    /// The current configuration.
    package var currentConfiguration: Stripe.SimulatorConfiguration { configuration }

    /// The customer presents the card to a reader waiting for it (a payment or an in-person refund). Returns false
    /// if nothing is waiting.
    @discardableResult
    package func presentCard() -> Bool {
        normalize()
        if let pending = pendingCollection {
            pendingCollection = nil
            finishCollection(handle: pending.handle, completion: pending.completion, cancelable: pending.cancelable)
            return true
        }
        if let pending = pendingRefundCollection {
            pendingRefundCollection = nil
            finishRefundCollection(pending)
            return true
        }
        return false
    }

    /// Makes the next collection fail with `code` (a card read error).
    package func failNextCollection(with code: Stripe.ErrorCode.Code) { nextCollectionFailure = code }

    /// Runs the work that fell due with time: expiring authorizations and failing refunds on Stripe's side, and the
    /// SDK's background forwarding. Every SDK and server call does this first; tests call it after moving the clock.
    package func runDueWork() async {
        expireAuthorizations()
        settleRefunds()
        guard let due = nextForwardingAt, due <= clock.now(), !forwarding else { return }
        nextForwardingAt = nil
        guard !state.storedPayments.isEmpty else { return }
        await forwardPendingPayments()
    }

    // MARK: - Processor-side truth

    /// Every PaymentIntent Stripe's servers hold.
    package var serverIntents: [Stripe.PaymentIntent] { state.serverIntents }

    /// Every charge Stripe's servers hold (authorized and declined).
    package var serverCharges: [ServerCharge] { state.charges }

    /// Every refund Stripe's servers hold.
    package var serverRefunds: [ServerRefund] { state.refunds }

    /// The charges for one app reference (every vendor payment of it).
    package func charges(reference: String) -> [ServerCharge] { state.charges.filter { $0.reference == reference } }

    /// How many times the card was authorized for one reference: the figure that must never exceed one.
    package func chargeCount(reference: String) -> Int {
        charges(reference: reference).filter { $0.status == .succeeded }.count
    }

    /// The payments stored on the device, waiting to be forwarded.
    package var storedPayments: [StoredPayment] { state.storedPayments }

    /// The server's PaymentIntent with this id.
    package func serverIntent(stripeId: String) -> Stripe.PaymentIntent? {
        serverIntentPosition(stripeId).map { state.serverIntents[$0] }
    }


    // MARK: - Delegates and credentials

    /// `Terminal.shared.delegate`.
    package nonisolated func setTerminalDelegate(_ delegate: (any Stripe.TerminalDelegate)?) {
        delegates.withLock { $0.terminal = delegate }
    }

    /// `Terminal.shared.offlineDelegate`.
    package nonisolated func setOfflineDelegate(_ delegate: (any Stripe.OfflineDelegate)?) {
        delegates.withLock { $0.offline = delegate }
    }

    /// `Terminal.setLogListener(_:)`: one listener, never removed (a relaunch starts without one).
    package nonisolated func setLogListener(_ listener: @escaping @Sendable (String) -> Void) {
        delegates.withLock { $0.log = listener }
    }

    // MARK: - Internals shared by the extensions

    func nextID(_ prefix: String) -> String {
        var generator = SeededGenerator(seed: state.seed &+ 0x5354_5249_5045 &+ state.issuedIdentifiers)
        state.issuedIdentifiers += 1
        return generator.identifier(prefix: prefix, length: 14)
    }

    /// Clears commands canceled from outside the actor (a `Cancelable` fires the completion itself).
    func normalize() {
        if let pending = pendingDiscovery, pending.cancelable.isCanceled || pending.completion.hasFired {
            pendingDiscovery = nil
            pending.cancelable.markCompleted()
            if currentConnectionStatus == .discovering { setConnectionStatus(.notConnected) }
        }
        if let pending = pendingCollection, pending.cancelable.isCanceled || pending.completion.hasFired {
            pendingCollection = nil
            pending.cancelable.markCompleted()
            if currentPaymentStatus == .waitingForInput { setPaymentStatus(connection == nil ? .notReady : .ready) }
        }
        if let pending = pendingRefundCollection, pending.cancelable.isCanceled || pending.completion.hasFired {
            pendingRefundCollection = nil
            pending.cancelable.markCompleted()
            if currentPaymentStatus == .waitingForInput { setPaymentStatus(connection == nil ? .notReady : .ready) }
        }
    }

    func setConnectionStatus(_ status: Stripe.ConnectionStatus) {
        guard status != currentConnectionStatus else { return }
        currentConnectionStatus = status
        delegates.current.terminal?.didChangeConnectionStatus(status)
    }

    func setPaymentStatus(_ status: Stripe.PaymentStatus) {
        guard status != currentPaymentStatus else { return }
        currentPaymentStatus = status
        delegates.current.terminal?.didChangePaymentStatus(status)
    }

    func notifyOfflineStatus() {
        let status = currentOfflineStatus
        delegates.current.offline?.didChangeOfflineStatus(status)
    }

    func log(_ message: String) { delegates.current.log?("[stripe-sim] " + message) }
}

/// Delivers a completion exactly once, whoever comes first (the operation or a cancel).
final class OneShot<Value: Sendable>: Sendable {
    private let handler: Locked<(@Sendable (Value) -> Void)?>

    init(_ handler: @escaping @Sendable (Value) -> Void) { self.handler = Locked(handler) }

    /// Calls the handler if it has not been called; returns whether it did.
    @discardableResult
    func fire(_ value: Value) -> Bool {
        let taken = handler.withLock { h -> (@Sendable (Value) -> Void)? in
            let current = h
            h = nil
            return current
        }
        taken?(value)
        return taken != nil
    }

    /// Whether the handler was already called.
    var hasFired: Bool { handler.withLock { $0 == nil } }

    /// Drops the handler without calling it (the process that would receive it is gone).
    func discard() { handler.withLock { $0 = nil } }
}

/// The simulator's `SCPCancelable`. Cancel actions run on the caller's thread; the command's own completion fires
/// from there (a `OneShot`), and the actor tidies up on its next call.
final class SimulatedCancelable: Stripe.Cancelable {
    private struct State {
        var completed = false
        var canceled = false
        var action: (@Sendable () -> Stripe.ErrorCode?)?
    }
    private let state = Locked(State())

    /// `completed`.
    var completed: Bool { state.current.completed }
    /// Whether a cancel was accepted.
    var isCanceled: Bool { state.current.canceled }

    /// `cancel(_:)`: refused once completed; otherwise runs the command's cancel action (nil: canceled; an error: it
    /// cannot be canceled now).
    func cancel(_ completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void) {
        let (refusal, action) = state.withLock { s -> (Stripe.ErrorCode?, (@Sendable () -> Stripe.ErrorCode?)?) in
            if s.completed {
                return (Stripe.ErrorCode(.cancelFailedAlreadyCompleted, message: "The command already completed."), nil)
            }
            return (nil, s.action)
        }
        if let refusal { return completion(refusal) }
        let result = action?() ?? nil
        if result == nil { state.withLock { $0.canceled = true } }
        completion(result)
    }

    /// Marks the command finished.
    func markCompleted() { state.withLock { $0.completed = true; $0.action = nil } }

    /// Sets what canceling does.
    func setCancelAction(_ action: @escaping @Sendable () -> Stripe.ErrorCode?) {
        state.withLock { $0.action = action }
    }
}
