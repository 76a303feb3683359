import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator

// Square's SDK over the simulator, persisting the processor side after every call that can change Square's servers
// or the device's offline store, before the answer reaches the adapter (see ProcessorStores.swift). Payment callbacks
// fired inside `startPayment` are held back and delivered after a persist that began after them; callbacks that fire
// later (a held card or authorization released, a cancellation) are delivered after a persist of their own.

/// Holds Square's payment callbacks fired inside `startPayment` until a persist that started after them has ended;
/// delivers them, in order, before `startPayment` returns (the SDK's order: a `nil` handle comes after its `didFail`).
/// Callbacks that fire once it stopped holding go through ``SquareStore/deliverPersisted(_:)``.
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
    private let store: SquareStore
    private let inner = Locked(Inner())

    init(target: any Square.PaymentManagerDelegate, manager: any Square.PaymentManager, store: SquareStore) {
        self.target = target
        self.manager = manager
        self.store = store
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
        if passThrough { store.deliverPersisted { self.deliver(item) } }
    }

    /// Persists until no callback arrived during the persist, then delivers what was held and stops holding. The
    /// held callbacks are delivered under the lock, so a later one queues behind them.
    func persistAndRelease() async {
        while true {
            let count = inner.withLock { $0.held.count }
            await store.persist()
            let released = inner.withLock { inner -> Bool in
                guard inner.held.count == count else { return false }
                inner.holding = false
                for item in inner.held { deliver(item) }
                inner.held.removeAll()
                return true
            }
            if released { return }
        }
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
        _ = await store.act { await simulator.syncOfflinePayments(maxCount: maxCount) }
        await processor.refreshOfflineQueue()
    }

    // AuthorizationManager
    func authorize(withAccessToken accessToken: String, locationID: String) async throws(Square.AuthorizationError) {
        let result: Result<Void, Square.AuthorizationError> = await store.act {
            do throws(Square.AuthorizationError) {
                try await simulator.authorize(withAccessToken: accessToken, locationID: locationID)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
    func deauthorize() async {
        await store.act { await simulator.deauthorize() }
    }
    var state: Square.AuthorizationState { get async { await simulator.state } }
    var location: Square.Location? { get async { await simulator.location } }
    func add(_ observer: any Square.AuthorizationStateObserver) async { await simulator.add(observer) }
    func remove(_ observer: any Square.AuthorizationStateObserver) async { await simulator.remove(observer) }

    // PaymentManager
    func startPayment(_ paymentParameters: Square.PaymentParameters, promptParameters: Square.PromptParameters,
                      from presentation: Square.PresentationContext,
                      delegate: any Square.PaymentManagerDelegate) async -> (any Square.PaymentHandle)? {
        let held = HeldPaymentDelegate(target: delegate, manager: self, store: store)
        // The write covers the call and the persists until its callbacks are on disk (a held card or authorization
        // answers later, through a write of its own).
        return await store.act {
            let handle = await simulator.startPayment(paymentParameters, promptParameters: promptParameters,
                                                      from: presentation, delegate: held)
            await held.persistAndRelease()
            return handle
        }
    }
    var currentPaymentHandle: (any Square.PaymentHandle)? {
        get async { await store.gate.read { await simulator.currentPaymentHandle } }
    }
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
        await store.act { await simulator.startPairing(with: delegate) }
    }
    func retryConnection(_ readerInfo: Square.ReaderInfo) async -> Square.RetryConnectionResult {
        await store.act { await simulator.retryConnection(readerInfo) }
    }
    func forget(_ readerInfo: Square.ReaderInfo) async {
        await store.act { await simulator.forget(readerInfo) }
    }

    // OfflinePaymentQueue (reads only; the SDK's timed deletions are persisted at the next change)
    func getPayments() async throws(Square.OfflinePaymentQueueError) -> [Square.OfflinePayment] {
        let simulator = self.simulator
        let result: Result<[Square.OfflinePayment], Square.OfflinePaymentQueueError> = await store.gate.read {
            do throws(Square.OfflinePaymentQueueError) {
                return .success(try await simulator.getPayments())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
    func getTotalStoredPaymentsAmount() async throws(Square.OfflinePaymentQueueError) -> any Square.MoneyAmount {
        try await simulator.getTotalStoredPaymentsAmount()
    }
}
