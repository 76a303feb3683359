import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator

// Stripe's SDK over the simulator, persisting the processor side after every call that can change Stripe's servers or
// the SDK's offline store, before the answer reaches the adapter (see ProcessorStores.swift). Vendor callbacks fired
// from inside a simulator call (the forwarding delegate) are held back and delivered after the persist; answers that
// fire later (a held confirmation released) are delivered after a persist of their own.

/// Holds Stripe's forwarding callbacks until the simulator state they describe is on disk.
final class HeldOfflineDelegate: Stripe.OfflineDelegate, Sendable {
    enum Held {
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

    /// Takes the callbacks held so far (call it before persisting; deliver them after).
    func take() -> [Held] {
        held.withLock { items -> [Held] in
            defer { items.removeAll() }
            return items
        }
    }

    /// Delivers callbacks taken with ``take()``, in order, once a persist begun after taking them has ended.
    func deliver(_ items: [Held]) {
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
    var simulator: StripeSimulator { store.simulator }

    init(store: StripeStore) {
        self.store = store
        store.simulator.setOfflineDelegate(offline)
    }

    /// One forwarding step: the SDK forwards up to `maxCount` payments; the result is persisted, then reported.
    func forward(maxCount: Int?) async {
        let results = await store.act {
            await simulator.forwardPendingPayments(maxCount: maxCount)
            return offline.take()
        }
        offline.deliver(results)
    }

    private func persisting<T>(_ body: () async throws(Stripe.ErrorCode) -> T) async throws(Stripe.ErrorCode) -> T {
        let result: Result<T, Stripe.ErrorCode> = await store.act {
            do throws(Stripe.ErrorCode) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Runs a command that answers through a completion, persists, then delivers the answer. An answer that comes
    /// after the command returned (a confirmation held by ``StripeSimulator/Fault/holdNextAuthorization`` and
    /// released later) is delivered after a persist of its own.
    private func persistingAnswer<A: Sendable, B: Sendable>(
        _ completion: @escaping @Sendable (A?, B?) -> Void,
        _ body: (@escaping @Sendable (A?, B?) -> Void) async -> (any Stripe.Cancelable)?
    ) async -> (any Stripe.Cancelable)? {
        let answer = LateAnswer<(A?, B?)>()
        let store = self.store
        // Closed before the persist: an answer kept fired before it, so the persist covers it. The command returns
        // once started (a held one answers later, through a write of its own), so the write never waits for it.
        let (cancelable, early) = await store.act { () -> ((any Stripe.Cancelable)?, (A?, B?)?) in
            let cancelable = await body { first, second in
                if !answer.keep((first, second)) {
                    store.deliverPersisted { completion(first, second) }
                }
            }
            return (cancelable, answer.close())
        }
        if let (first, second) = early { completion(first, second) }
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
    var offlineStatus: Stripe.OfflineStatus { get async { await store.gate.read { await simulator.offlineStatus } } }
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
        let simulator = self.simulator
        let result: Result<Stripe.PaymentIntent, Stripe.ErrorCode> = await store.gate.read {
            do throws(Stripe.ErrorCode) {
                return .success(try await simulator.retrievePaymentIntent(clientSecret: clientSecret))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
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

/// An answer caught during the call that started it, or let through once the call has returned.
final class LateAnswer<Value: Sendable>: Sendable {
    private struct State {
        var open = true
        var value: Value?
    }
    private let state = Locked(State())

    /// Keeps `value` while the call runs (true); false once it returned (the caller delivers it itself).
    func keep(_ value: Value) -> Bool {
        state.withLock { state in
            guard state.open else { return false }
            state.value = value
            return true
        }
    }

    /// Ends the call: the answer kept during it, if any.
    func close() -> Value? {
        state.withLock { state in
            state.open = false
            return state.value
        }
    }
}
