import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator

// Decorators that make each simulator's processor-side state durable the moment the processor acts, as a real
// processor's servers are: every client call that can change Stripe's servers, Square's servers or a device's
// offline store persists the simulator (atomically: temp file + rename) before it returns to the adapter. So the
// ledger can never record something the processor-side file lacks, whenever the process is killed.
//
// Vendor callbacks fired from inside a simulator call (Stripe's forwarding delegate, Square's payment delegate)
// are held back and delivered only after the persist, for the same reason.

/// Persists a Stripe simulator to its file; a failure to persist ends the process (the harness counts it a crash).
struct StripeStore: Sendable {
    let simulator: StripeSimulator
    /// nil: nothing is persisted (the in-process flapping test).
    let file: SimulatorStateFile<StripeSimulator.PersistedState>?

    func persist() async {
        guard let file, !sabotageSkipsPersist else { return }
        do { try await simulator.persist(to: file) } catch {
            FileHandle.standardError.write(Data("tender-chaos: cannot persist Stripe state: \(error)\n".utf8))
            exit(70)
        }
    }
}

/// Persists a Square simulator to its file.
struct SquareStore: Sendable {
    let simulator: SquareSimulator
    /// nil: nothing is persisted (the in-process flapping test).
    let file: SimulatorStateFile<SquareSimulator.PersistedState>?

    func persist() async {
        guard let file, !sabotageSkipsPersist else { return }
        do { try await simulator.persist(to: file) } catch {
            FileHandle.standardError.write(Data("tender-chaos: cannot persist Square state: \(error)\n".utf8))
            exit(70)
        }
    }
}

/// Self-check of the harness: with `TENDER_CHAOS_SABOTAGE=skip-persist` in a child's environment, the child never
/// persists processor state, as if the processor's servers forgot what they did; the kill test must then report
/// lost payments (see `--sabotage`).
let sabotageSkipsPersist = ProcessInfo.processInfo.environment["TENDER_CHAOS_SABOTAGE"] == "skip-persist"

// MARK: - Stripe

/// Holds Stripe's forwarding callbacks until the simulator state they describe is on disk.
final class HeldOfflineDelegate: Stripe.OfflineDelegate, Sendable {
    private enum Held {
        case forwarded(Stripe.PaymentIntent, Stripe.ErrorCode?)
        case forwardingError(Stripe.ErrorCode)
    }
    private let target = Locked<(any Stripe.OfflineDelegate)?>(nil)
    private let held = Locked<[Held]>([])

    func setTarget(_ delegate: (any Stripe.OfflineDelegate)?) { target.withLock { $0 = delegate } }

    func didChangeOfflineStatus(_ offlineStatus: Stripe.OfflineStatus) {
        target.current?.didChangeOfflineStatus(offlineStatus)
    }

    func didForwardPaymentIntent(_ intent: Stripe.PaymentIntent, error: Stripe.ErrorCode?) {
        held.withLock { $0.append(.forwarded(intent, error)) }
    }

    func didReportForwardingError(_ error: Stripe.ErrorCode) {
        held.withLock { $0.append(.forwardingError(error)) }
    }

    /// Delivers the held callbacks, in order. Call after persisting.
    func release() {
        let items = held.withLock { items -> [Held] in
            defer { items.removeAll() }
            return items
        }
        guard let delegate = target.current else { return }
        for item in items {
            switch item {
            case .forwarded(let intent, let error): delegate.didForwardPaymentIntent(intent, error: error)
            case .forwardingError(let error): delegate.didReportForwardingError(error)
            }
        }
    }
}

/// `StripeClient` over a ``StripeSimulator`` that persists after every state-changing call.
struct PersistingStripeClient: StripeClient {
    let store: StripeStore
    let offline = HeldOfflineDelegate()
    /// Harness fault: the next N confirms time out (Stripe may have authorized; the answer is lost).
    let confirmTimeouts = Locked(0)
    var simulator: StripeSimulator { store.simulator }

    init(store: StripeStore) {
        self.store = store
        store.simulator.setOfflineDelegate(offline)
    }

    /// One forwarding step: the SDK forwards up to `maxCount` payments; the result is persisted, then reported.
    func forward(maxCount: Int?) async {
        await simulator.forwardPendingPayments(maxCount: maxCount)
        await store.persist()
        offline.release()
    }

    private func persisting<T>(_ body: () async throws(Stripe.ErrorCode) -> T) async throws(Stripe.ErrorCode) -> T {
        let result: Result<T, Stripe.ErrorCode>
        do throws(Stripe.ErrorCode) {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        await store.persist()
        return try result.get()
    }

    /// Runs a command that answers through a completion, persists, then delivers the answer (the simulator answers
    /// within the call unless a fault holds it; the harness injects none that do).
    private func persistingAnswer<A: Sendable, B: Sendable>(
        _ completion: @escaping @Sendable (A?, B?) -> Void,
        _ body: (@escaping @Sendable (A?, B?) -> Void) async -> (any Stripe.Cancelable)?
    ) async -> (any Stripe.Cancelable)? {
        let answer = Locked<(A?, B?)?>(nil)
        let cancelable = await body { first, second in answer.withLock { $0 = (first, second) } }
        await store.persist()
        if let (first, second) = answer.current { completion(first, second) }
        return cancelable
    }

    func setTerminalDelegate(_ delegate: (any Stripe.TerminalDelegate)?) { simulator.setTerminalDelegate(delegate) }
    func setOfflineDelegate(_ delegate: (any Stripe.OfflineDelegate)?) { offline.setTarget(delegate) }
    func setLogListener(_ listener: @escaping @Sendable (String) -> Void) { simulator.setLogListener(listener) }
    func clearCachedCredentials() async throws(Stripe.ErrorCode) {
        try await persisting { () async throws(Stripe.ErrorCode) in try await simulator.clearCachedCredentials() }
    }

    var connectionStatus: Stripe.ConnectionStatus { get async { await simulator.connectionStatus } }
    var paymentStatus: Stripe.PaymentStatus { get async { await simulator.paymentStatus } }
    var offlineStatus: Stripe.OfflineStatus { get async { await simulator.offlineStatus } }
    var connectedReader: Stripe.Reader? { get async { await simulator.connectedReader } }
    var offlineModeEnabled: Bool { get async { await simulator.offlineModeEnabled } }

    func discoverReaders(_ configuration: Stripe.DiscoveryConfiguration, delegate: any Stripe.DiscoveryDelegate,
                         completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void) async -> any Stripe.Cancelable {
        await simulator.discoverReaders(configuration, delegate: delegate, completion: completion)
    }

    func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.BluetoothConnectionConfiguration) async
        throws(Stripe.ErrorCode) -> Stripe.Reader {
        try await persisting { () async throws(Stripe.ErrorCode) in
            try await simulator.connectReader(reader, connectionConfig: connectionConfig)
        }
    }

    func disconnectReader() async throws(Stripe.ErrorCode) { try await simulator.disconnectReader() }
    func rebootReader() async throws(Stripe.ErrorCode) { try await simulator.rebootReader() }
    func installAvailableUpdate() async {
        await simulator.installAvailableUpdate()
        await store.persist()
    }

    func createPaymentIntent(_ parameters: Stripe.PaymentIntentParameters, createConfig: Stripe.CreateConfiguration?)
        async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        try await persisting { () async throws(Stripe.ErrorCode) in
            try await simulator.createPaymentIntent(parameters, createConfig: createConfig)
        }
    }

    func retrievePaymentIntent(clientSecret: String) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        try await simulator.retrievePaymentIntent(clientSecret: clientSecret)
    }

    func collectPaymentMethod(_ paymentIntent: Stripe.PaymentIntent,
                              collectConfig: Stripe.CollectPaymentIntentConfiguration?,
                              completion: @escaping @Sendable (Stripe.PaymentIntent?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        // Collection changes only the SDK's in-memory intent, which a restart loses anyway.
        await simulator.collectPaymentMethod(paymentIntent, collectConfig: collectConfig, completion: completion)
    }

    func confirmPaymentIntent(_ paymentIntent: Stripe.PaymentIntent,
                              confirmConfig: Stripe.ConfirmPaymentIntentConfiguration?,
                              completion: @escaping @Sendable (Stripe.PaymentIntent?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        let timesOut = confirmTimeouts.withLock { count -> Bool in
            guard count > 0 else { return false }
            count -= 1
            return true
        }
        if timesOut { await simulator.inject(.answerLostAfterCharge) }
        return await persistingAnswer(completion) { done in
            await simulator.confirmPaymentIntent(paymentIntent, confirmConfig: confirmConfig, completion: done)
        }
    }

    func cancelPaymentIntent(_ paymentIntent: Stripe.PaymentIntent) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        try await persisting { () async throws(Stripe.ErrorCode) in try await simulator.cancelPaymentIntent(paymentIntent) }
    }

    func collectRefundPaymentMethod(_ refundParams: Stripe.RefundParameters, refundConfig: Stripe.CollectRefundConfiguration?,
                                    completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void) async -> (any Stripe.Cancelable)? {
        await simulator.collectRefundPaymentMethod(refundParams, refundConfig: refundConfig, completion: completion)
    }

    func confirmRefund(completion: @escaping @Sendable (Stripe.Refund?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await persistingAnswer(completion) { done in await simulator.confirmRefund(completion: done) }
    }
}

/// The app's server for Stripe: capture, void, cancel and lookups on the simulated servers, persisted before
/// answering.
struct PersistingStripeServer: PaymentCaptureService, StripeServerLookup {
    let store: StripeStore
    private var server: StripeSimulatorServer { store.simulator.server }

    private func persisting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            let value = try await body()
            await store.persist()
            return value
        } catch {
            await store.persist()
            throw error
        }
    }

    func capture(processor: String, reference: String, processorPaymentID: String, amount: Money) async throws {
        try await persisting { try await server.capture(processor: processor, reference: reference,
                                                        processorPaymentID: processorPaymentID, amount: amount) }
    }
    func void(processor: String, reference: String, processorPaymentID: String) async throws {
        try await persisting { try await server.void(processor: processor, reference: reference,
                                                     processorPaymentID: processorPaymentID) }
    }
    func paymentIntents(metadataKey key: String, value: String) async throws -> [Stripe.PaymentIntent] {
        try await server.paymentIntents(metadataKey: key, value: value)
    }
    func paymentIntent(id: String) async throws -> Stripe.PaymentIntent? { try await server.paymentIntent(id: id) }
    func cancelPaymentIntent(id: String) async throws -> Stripe.PaymentIntent {
        try await persisting { try await server.cancelPaymentIntent(id: id) }
    }
}

// MARK: - Square

/// Holds Square's payment callbacks fired inside `startPayment` until the simulator state is on disk.
final class HeldPaymentDelegate: Square.PaymentManagerDelegate, Sendable {
    private enum Held {
        case start(any Square.Payment)
        case finish(any Square.Payment)
        case fail(any Square.Payment, any Error)
        case cancel(any Square.Payment)
    }
    private struct Inner {
        var holding = true
        var held: [Held] = []
    }
    private let target: any Square.PaymentManagerDelegate
    private let manager: any Square.PaymentManager
    private let inner = Locked(Inner())

    init(target: any Square.PaymentManagerDelegate, manager: any Square.PaymentManager) {
        self.target = target
        self.manager = manager
    }

    private func deliver(_ item: Held) {
        switch item {
        case .start(let payment): target.paymentManager(manager, didStart: payment)
        case .finish(let payment): target.paymentManager(manager, didFinish: payment)
        case .fail(let payment, let error): target.paymentManager(manager, didFail: payment, withError: error)
        case .cancel(let payment): target.paymentManager(manager, didCancel: payment)
        }
    }

    private func hold(_ item: Held) {
        let passThrough = inner.withLock { inner -> Bool in
            if inner.holding { inner.held.append(item) }
            return !inner.holding
        }
        if passThrough { deliver(item) }
    }

    /// Delivers what was held and stops holding.
    func release() {
        let items = inner.withLock { inner -> [Held] in
            inner.holding = false
            defer { inner.held.removeAll() }
            return inner.held
        }
        for item in items { deliver(item) }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didStart payment: any Square.Payment) {
        hold(.start(payment))
    }
    func paymentManager(_ paymentManager: any Square.PaymentManager, didFinish payment: any Square.Payment) {
        hold(.finish(payment))
    }
    func paymentManager(_ paymentManager: any Square.PaymentManager, didFail payment: any Square.Payment,
                        withError error: any Error) {
        hold(.fail(payment, error))
    }
    func paymentManager(_ paymentManager: any Square.PaymentManager, didCancel payment: any Square.Payment) {
        hold(.cancel(payment))
    }
}

/// `SquareClient` over a ``SquareSimulator`` that persists after every state-changing call.
final class PersistingSquareClient: SquareClient, Square.AuthorizationManager, Square.PaymentManager,
    Square.ReaderManager, Square.OfflinePaymentQueue, Sendable {
    let store: SquareStore
    var simulator: SquareSimulator { store.simulator }

    init(store: SquareStore) { self.store = store }

    var authorizationManager: any Square.AuthorizationManager { self }
    var paymentManager: any Square.PaymentManager { self }
    var readerManager: any Square.ReaderManager { self }
    var settingsManager: any Square.SettingsManager { simulator }
    var networkMonitor: any Square.NetworkMonitor { simulator }

    /// One sync step of the SDK, persisted, then the queue is read so the adapter reports the changes.
    func sync(maxCount: Int, processor: SquareProcessor) async {
        _ = await simulator.syncOfflinePayments(maxCount: maxCount)
        await store.persist()
        await processor.refreshOfflineQueue()
    }

    // AuthorizationManager
    func authorize(withAccessToken accessToken: String, locationID: String) async throws(Square.AuthorizationError) {
        let result: Result<Void, Square.AuthorizationError>
        do throws(Square.AuthorizationError) {
            try await simulator.authorize(withAccessToken: accessToken, locationID: locationID)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        await store.persist()
        try result.get()
    }
    func deauthorize() async {
        await simulator.deauthorize()
        await store.persist()
    }
    var state: Square.AuthorizationState { get async { await simulator.state } }
    var location: Square.Location? { get async { await simulator.location } }
    func add(_ observer: any Square.AuthorizationStateObserver) async { await simulator.add(observer) }
    func remove(_ observer: any Square.AuthorizationStateObserver) async { await simulator.remove(observer) }

    // PaymentManager
    func startPayment(_ paymentParameters: Square.PaymentParameters, promptParameters: Square.PromptParameters,
                      from presentation: Square.PresentationContext,
                      delegate: any Square.PaymentManagerDelegate) async -> (any Square.PaymentHandle)? {
        let held = HeldPaymentDelegate(target: delegate, manager: self)
        let handle = await simulator.startPayment(paymentParameters, promptParameters: promptParameters,
                                                  from: presentation, delegate: held)
        await store.persist()
        held.release()
        return handle
    }
    var currentPaymentHandle: (any Square.PaymentHandle)? { get async { await simulator.currentPaymentHandle } }
    var offlinePaymentQueue: any Square.OfflinePaymentQueue { self }
    func getIdempotencyKey(withPaymentAttemptId paymentAttemptId: String) async -> String? {
        await simulator.getIdempotencyKey(withPaymentAttemptId: paymentAttemptId)
    }
    var availableCardInputMethods: Square.CardInputMethods { get async { await simulator.availableCardInputMethods } }
    func add(_ observer: any Square.AvailableCardInputMethodsObserver) async { await simulator.add(observer) }
    func remove(_ observer: any Square.AvailableCardInputMethodsObserver) async { await simulator.remove(observer) }

    // ReaderManager
    var readers: [Square.ReaderInfo] { get async { await simulator.readers } }
    var isPairingInProgress: Bool { get async { await simulator.isPairingInProgress } }
    func add(_ observer: any Square.ReaderObserver) async { await simulator.add(observer) }
    func remove(_ observer: any Square.ReaderObserver) async { await simulator.remove(observer) }
    func startPairing(with delegate: any Square.ReaderPairingDelegate) async -> (any Square.PairingHandle)? {
        let handle = await simulator.startPairing(with: delegate)
        await store.persist()
        return handle
    }
    func retryConnection(_ readerInfo: Square.ReaderInfo) async -> Square.RetryConnectionResult {
        let result = await simulator.retryConnection(readerInfo)
        await store.persist()
        return result
    }
    func forget(_ readerInfo: Square.ReaderInfo) async {
        await simulator.forget(readerInfo)
        await store.persist()
    }

    // OfflinePaymentQueue (reads only; the SDK's timed deletions are persisted at the next change)
    func getPayments() async throws(Square.OfflinePaymentQueueError) -> [Square.OfflinePayment] {
        try await simulator.getPayments()
    }
    func getTotalStoredPaymentsAmount() async throws(Square.OfflinePaymentQueueError) -> any Square.MoneyAmount {
        try await simulator.getTotalStoredPaymentsAmount()
    }
}

/// Square's servers as the app's backend reaches them, persisted after capture, void and cancel-by-key.
struct PersistingSquareServer: PaymentCaptureService, SquareServerLookup {
    let store: SquareStore
    private var server: SquareSimulator.Server { store.simulator.server }

    init(store: SquareStore) { self.store = store }

    private func persisting(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            await store.persist()
            throw error
        }
        await store.persist()
    }

    func capture(processor: String, reference: String, processorPaymentID: String, amount: Money) async throws {
        try await persisting { try await server.capture(processor: processor, reference: reference, processorPaymentID: processorPaymentID, amount: amount) }
    }
    func void(processor: String, reference: String, processorPaymentID: String) async throws {
        try await persisting { try await server.void(processor: processor, reference: reference, processorPaymentID: processorPaymentID) }
    }
    func payments(referenceID: String, locationID: String) async throws -> [Square.APIPayment] {
        try await server.payments(referenceID: referenceID, locationID: locationID)
    }
    func payment(id: String) async throws -> Square.APIPayment? { try await server.payment(id: id) }
    func cancelPayment(byIdempotencyKey key: String) async throws {
        try await persisting { try await server.cancelPayment(byIdempotencyKey: key) }
    }
}
