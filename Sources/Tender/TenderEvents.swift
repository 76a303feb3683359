import Foundation

/// A payment's state changed.
public struct PaymentStateChange: Hashable, Sendable {
    /// The reference.
    public var reference: String
    /// The state before.
    public var from: PaymentState
    /// The state after.
    public var to: PaymentState
    /// When.
    public var at: Date
    /// The error that caused it, if any.
    public var error: PaymentError?

    /// Creates a change record.
    public init(reference: String, from: PaymentState, to: PaymentState, at: Date, error: PaymentError? = nil) {
        self.reference = reference
        self.from = from
        self.to = to
        self.at = at
        self.error = error
    }
}

/// Everything the facade reports as it happens.
///
/// The set of events grows as Tender does (refunds added ``refundChanged(_:)``): switch over it with a `default`
/// branch. The payment lifecycle itself (``PaymentState``) is closed; see "Source stability" in the lifecycle
/// article.
public enum TenderEvent: Hashable, Sendable {
    /// Something the processor reported: network status, reader prompts, reader connection and reconnection,
    /// software-update progress, battery, forwarding errors.
    case processor(ProcessorEvent)
    /// A payment moved to a new state (including forwarded, declined after forwarding, failed to forward).
    case paymentStateChanged(PaymentStateChange)
    /// A payment was refused before the processor was called (validation, policy or a risk limit).
    case paymentRefused(reference: String, error: PaymentError)
    /// A processor reported a state change the state machine does not allow; the session kept its state.
    case transitionRejected(reference: String, transition: IllegalTransition)
    /// A forwarding result named a payment the ledger does not hold in this scope, or one that is not the session's
    /// current vendor payment (another attempt of the reference, another device payment, or another total: a
    /// reused reference); the session kept its state.
    case unmatchedForwardingResult(ProcessorPaymentUpdate)
    /// The offline queue changed.
    case queueChanged(OfflineQueueSnapshot)
    /// Recovery finished.
    case recoveryFinished(RecoveryReport)
    /// A refund was recorded or changed status (pending → succeeded or failed).
    case refundChanged(RefundRecord)
}

/// The facade's events as a named `AsyncSequence`. Each access to ``PaymentTerminal/events`` is an independent
/// subscription that sees every event sent after it was made; events are buffered, never dropped.
public struct TenderEvents: AsyncSequence, Sendable {
    /// The element type.
    public typealias Element = TenderEvent
    /// The failure type: the sequence never throws.
    public typealias Failure = Never

    let stream: AsyncStream<TenderEvent>

    /// Iterates the events.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<TenderEvent>.AsyncIterator
        /// The next event, or `nil` when the facade is gone.
        public mutating func next() async -> TenderEvent? { await base.next() }
    }

    /// Creates an iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }
}

/// Fans events out to every subscriber.
final class EventHub: Sendable {
    private let subscribers = Locked<[UInt64: AsyncStream<TenderEvent>.Continuation]>([:])
    private let nextID = Locked<UInt64>(0)

    func subscribe() -> TenderEvents {
        let (stream, continuation) = AsyncStream.makeStream(of: TenderEvent.self, bufferingPolicy: .unbounded)
        let id = nextID.withLock { value -> UInt64 in
            value += 1
            return value
        }
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { _ = $0.removeValue(forKey: id) } }
        return TenderEvents(stream: stream)
    }

    func send(_ event: TenderEvent) {
        let continuations = subscribers.withLock { $0.isEmpty ? [] : Array($0.values) }
        for continuation in continuations { continuation.yield(event) }
    }

    func finish() {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() }
    }

    deinit { finish() }
}
