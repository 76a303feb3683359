import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator

// The app's own server for each processor, over the simulators' servers: capture, void, cancel, lookups and refunds,
// persisted before answering whenever the processor may have acted. Refunds pass through the link faults the kill
// test injects (``ServerLinkFault``).

/// Runs a server call that may change the processor's side, persisting before the answer (or the error) returns.
private func persisting<T>(_ persist: () async -> Void, _ body: () async throws -> T) async throws -> T {
    do {
        let value = try await body()
        await persist()
        return value
    } catch {
        await persist()
        throw error
    }
}

/// A refund through a link that may fail: the request lost before the processor sees it, or the processor refunds
/// and the answer is lost (persisted first: the processor did refund).
private func refundOverLink(_ faults: ServerLinkFaults, processor: String, persist: () async -> Void,
                            _ refund: () async throws -> RefundResult) async throws -> RefundResult {
    switch faults.take() {
    case .requestLost?:
        throw ServerLinkFaults.timeout(processor)
    case .answerLost?:
        _ = try? await persisting(persist, refund)
        throw ServerLinkFaults.timeout(processor)
    case nil:
        return try await persisting(persist, refund)
    }
}

/// The app's server for Stripe: capture, void, cancel, lookups and refunds on the simulated servers.
struct PersistingStripeServer: PaymentCaptureService, StripeServerLookup, PaymentRefundService {
    let store: StripeStore
    let linkFaults = ServerLinkFaults()
    private var server: StripeSimulatorServer { store.simulator.server }

    init(store: StripeStore) { self.store = store }

    func capture(processor: String, reference: String, processorPaymentID: String, amount: Money) async throws {
        try await persisting(store.persist) {
            try await server.capture(processor: processor, reference: reference, processorPaymentID: processorPaymentID,
                                     amount: amount)
        }
    }
    func void(processor: String, reference: String, processorPaymentID: String) async throws {
        try await persisting(store.persist) {
            try await server.void(processor: processor, reference: reference, processorPaymentID: processorPaymentID)
        }
    }
    func paymentIntents(metadataKey key: String, value: String) async throws -> [Stripe.PaymentIntent] {
        try await server.paymentIntents(metadataKey: key, value: value)
    }
    func paymentIntent(id: String) async throws -> Stripe.PaymentIntent? { try await server.paymentIntent(id: id) }
    func cancelPaymentIntent(id: String) async throws -> Stripe.PaymentIntent {
        try await persisting(store.persist) { try await server.cancelPaymentIntent(id: id) }
    }
    func refund(_ request: RefundRequest) async throws -> RefundResult {
        try await refundOverLink(linkFaults, processor: "Stripe", persist: store.persist) {
            try await server.refund(request)
        }
    }
    func lookUpRefund(processor: String, processorPaymentID: String, idempotencyKey: String,
                      processorRefundID: String?) async throws -> RefundResult? {
        try await server.lookUpRefund(processor: processor, processorPaymentID: processorPaymentID,
                                      idempotencyKey: idempotencyKey, processorRefundID: processorRefundID)
    }
}

/// Square's servers as the app's backend reaches them: capture, void, cancel-by-key, lookups and refunds.
struct PersistingSquareServer: PaymentCaptureService, SquareServerLookup, PaymentRefundService {
    let store: SquareStore
    let linkFaults = ServerLinkFaults()
    private var server: SquareSimulator.Server { store.simulator.server }

    init(store: SquareStore) { self.store = store }

    func capture(processor: String, reference: String, processorPaymentID: String, amount: Money) async throws {
        try await persisting(store.persist) {
            try await server.capture(processor: processor, reference: reference, processorPaymentID: processorPaymentID,
                                     amount: amount)
        }
    }
    func void(processor: String, reference: String, processorPaymentID: String) async throws {
        try await persisting(store.persist) {
            try await server.void(processor: processor, reference: reference, processorPaymentID: processorPaymentID)
        }
    }
    func payments(referenceID: String, locationID: String) async throws -> [Square.APIPayment] {
        try await server.payments(referenceID: referenceID, locationID: locationID)
    }
    func payment(id: String) async throws -> Square.APIPayment? { try await server.payment(id: id) }
    func cancelPayment(byIdempotencyKey key: String) async throws {
        try await persisting(store.persist) { try await server.cancelPayment(byIdempotencyKey: key) }
    }
    func refund(_ request: RefundRequest) async throws -> RefundResult {
        try await refundOverLink(linkFaults, processor: "Square", persist: store.persist) {
            try await server.refund(request)
        }
    }
    func lookUpRefund(processor: String, processorPaymentID: String, idempotencyKey: String,
                      processorRefundID: String?) async throws -> RefundResult? {
        try await server.lookUpRefund(processor: processor, processorPaymentID: processorPaymentID,
                                      idempotencyKey: idempotencyKey, processorRefundID: processorRefundID)
    }
}
