import Foundation
import TenderTesting

/// A fault on the network between the app and the processor.
public enum NetworkFault: Hashable, Sendable, CaseIterable {
    /// The request never leaves the device: the processor hears nothing, the app gets a timeout.
    case dropRequest
    /// The processor acts, then the answer is lost: the app gets a timeout, the processor holds the result.
    case loseAnswer
}

/// The fault-injecting network: wraps any ``PaymentProcessor`` and, by a seeded plan or a script, drops requests
/// before they reach it or loses its answers after it acted. Use it to prove that an integration never loses a
/// payment and never charges twice when the network misbehaves at the worst moment.
public final class FaultInjectingProcessor: PaymentProcessor, @unchecked Sendable {
    private struct Plan {
        var scripted: [NetworkFault?] = []
        var random: SeededGenerator
        var rate: Double
        var injected: [NetworkFault: Int] = [:]
    }

    /// The wrapped processor.
    public let inner: any PaymentProcessor
    private let plan: Locked<Plan>

    /// Wraps `inner`. Each `startPayment`, capture, void and lookup call draws a fault with probability
    /// `faultRate` (each kind equally likely), reproducibly under `seed`, unless a scripted fault is queued.
    public init(wrapping inner: any PaymentProcessor, faultRate: Double = 0, seed: UInt64 = 1) {
        self.inner = inner
        plan = Locked(Plan(random: SeededGenerator(seed: seed), rate: faultRate))
    }

    /// Queues faults for the next calls, in order (`nil` for a call that goes through).
    public func script(_ faults: NetworkFault?...) { plan.withLock { $0.scripted.append(contentsOf: faults) } }

    /// How many faults of each kind were injected.
    public var injected: [NetworkFault: Int] { plan.withLock { $0.injected } }

    private func nextFault() -> NetworkFault? {
        plan.withLock { p in
            let fault: NetworkFault?
            if !p.scripted.isEmpty {
                fault = p.scripted.removeFirst()
            } else if p.rate > 0, Double(p.random.next() % 1_000_000) / 1_000_000 < p.rate {
                fault = p.random.next() % 2 == 0 ? .dropRequest : .loseAnswer
            } else {
                fault = nil
            }
            if let fault { p.injected[fault, default: 0] += 1 }
            return fault
        }
    }

    private func timeout(_ phase: PaymentError.Phase) -> PaymentError {
        PaymentError(.timedOut, recovery: .retrySamePayment, phase: phase,
                     message: "The network dropped the request or its answer (injected fault).")
    }

    private func withFault<T>(_ phase: PaymentError.Phase, _ body: () async throws -> T) async throws -> T {
        switch nextFault() {
        case .dropRequest: throw timeout(phase)
        case .loseAnswer:
            _ = try? await body()
            throw timeout(phase)
        case nil: return try await body()
        }
    }

    /// The wrapped processor's name.
    public var name: String { inner.name }
    /// Passed through.
    public func capabilities() async -> ProcessorCapabilities { await inner.capabilities() }
    /// Passed through.
    public func readerDiscovery(_ kind: ReaderKind, timeout: Double) -> AsyncThrowingStream<Reader, any Error> {
        inner.readerDiscovery(kind, timeout: timeout)
    }
    /// Passed through.
    public func connectedReader() async -> Reader? { await inner.connectedReader() }
    /// Passed through.
    public func installReaderUpdate() async throws { try await inner.installReaderUpdate() }
    /// Passed through.
    public func rebootReader() async throws { try await inner.rebootReader() }
    /// Passed through.
    public func setReaderDisplay(_ cart: ReaderCart?) async throws { try await inner.setReaderDisplay(cart) }
    /// Passed through.
    public func connectReader(_ reader: Reader, locationID: String) async throws -> Reader {
        try await inner.connectReader(reader, locationID: locationID)
    }
    /// Passed through.
    public func disconnectReader() async throws { try await inner.disconnectReader() }

    /// May drop the request or lose the answer.
    public func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                             updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate {
        try await withFault(.processing) {
            try await inner.startPayment(request, routing: routing, attempt: attempt, updates: updates)
        }
    }

    /// Passed through.
    public func cancelPayment(reference: String) async throws { try await inner.cancelPayment(reference: reference) }

    /// May drop the request or lose the answer.
    public func capturePayment(_ request: CaptureRequest) async throws -> ProcessorPaymentUpdate {
        try await withFault(.capture) { try await inner.capturePayment(request) }
    }

    /// May drop the request or lose the answer.
    public func voidPayment(_ request: VoidRequest) async throws -> ProcessorPaymentUpdate {
        try await withFault(.capture) { try await inner.voidPayment(request) }
    }

    /// Passed through.
    public func queueSnapshot() async throws -> OfflineQueueSnapshot { try await inner.queueSnapshot() }

    /// May fail, which recovery must treat as "unknown", never as "not found".
    public func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup {
        try await withFault(.reconciliation) { try await inner.lookUpPayment(query) }
    }

    /// Passed through.
    public func events() -> AsyncStream<ProcessorEvent> { inner.events() }
}
