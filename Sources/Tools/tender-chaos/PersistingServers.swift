import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator

// The app's own server for each processor, over the simulators' servers: capture, void, cancel, lookups and refunds,
// persisted before answering whenever the processor may have acted. Refunds pass through the link faults the kill
// test injects (``ServerLinkFault``).

/// Runs a server call that may change the processor's side, persisting before the answer (or the error) returns,
/// with no read of the processor's state in between.
private func persisting<S: PersistableSimulator, T>(_ store: SimulatorStore<S>, _ body: () async throws -> T)
    async throws -> T {
    let result: Result<T, any Error> = await store.act {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
    return try result.get()
}

/// A refund through a link that may fail: the request lost before the processor sees it, or the processor refunds
/// and the answer is lost (persisted first: the processor did refund).
private func refundOverLink<S: PersistableSimulator>(_ faults: ServerLinkFaults, processor: String,
                                                     store: SimulatorStore<S>,
                                                     _ refund: () async throws -> RefundResult) async throws -> RefundResult {
    switch faults.take() {
    case .requestLost?:
        throw ServerLinkFaults.timeout(processor)
    case .answerLost?:
        _ = try? await persisting(store, refund)
        throw ServerLinkFaults.timeout(processor)
    case nil:
        return try await persisting(store, refund)
    }
}

/// The app's server over one simulator's servers: capture, void and refunds persisted before they answer, refund
/// lookups read as they are.
protocol PersistingServer: PaymentCaptureService, PaymentRefundService {
    associatedtype Inner: PaymentCaptureService & PaymentRefundService
    associatedtype Simulator: PersistableSimulator
    var store: SimulatorStore<Simulator> { get }
    var linkFaults: ServerLinkFaults { get }
    /// The simulator's own server.
    var inner: Inner { get }
}

extension PersistingServer {
    func capture(_ request: CaptureRequest) async throws {
        try await persisting(store) { try await inner.capture(request) }
    }
    func void(_ request: VoidRequest) async throws {
        try await persisting(store) { try await inner.void(request) }
    }
    func refund(_ request: RefundRequest) async throws -> RefundResult {
        try await refundOverLink(linkFaults, processor: store.simulator.vendorName, store: store) {
            try await inner.refund(request)
        }
    }
    func lookUpRefund(processor: String, processorPaymentID: String, idempotencyKey: String,
                      processorRefundID: String?) async throws -> RefundResult? {
        try await store.gate.read {
            try await inner.lookUpRefund(processor: processor, processorPaymentID: processorPaymentID,
                                         idempotencyKey: idempotencyKey, processorRefundID: processorRefundID)
        }
    }
}

/// The app's server for Stripe, with the lookups and cancellation the adapter takes.
struct PersistingStripeServer: PersistingServer, StripeServerLookup {
    let store: StripeStore
    let linkFaults = ServerLinkFaults()
    var inner: StripeSimulatorServer { store.simulator.server }

    init(store: StripeStore) { self.store = store }

    func paymentIntents(metadataKey key: String, value: String) async throws -> [Stripe.PaymentIntent] {
        try await store.gate.read { try await inner.paymentIntents(metadataKey: key, value: value) }
    }
    func paymentIntent(id: String) async throws -> Stripe.PaymentIntent? {
        try await store.gate.read { try await inner.paymentIntent(id: id) }
    }
    func cancelPaymentIntent(id: String) async throws -> Stripe.PaymentIntent {
        try await persisting(store) { try await inner.cancelPaymentIntent(id: id) }
    }
}

/// Square's servers as the app's backend reaches them, with the lookups and cancel-by-key the adapter takes.
struct PersistingSquareServer: PersistingServer, SquareServerLookup {
    let store: SquareStore
    let linkFaults = ServerLinkFaults()
    var inner: SquareSimulator.Server { store.simulator.server }

    init(store: SquareStore) { self.store = store }

    func payments(referenceID: String, locationID: String) async throws -> [Square.APIPayment] {
        try await store.gate.read { try await inner.payments(referenceID: referenceID, locationID: locationID) }
    }
    func payment(id: String) async throws -> Square.APIPayment? {
        try await store.gate.read { try await inner.payment(id: id) }
    }
    func cancelPayment(byIdempotencyKey key: String) async throws {
        try await persisting(store) { try await inner.cancelPayment(byIdempotencyKey: key) }
    }
}
