public import Foundation

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
    package init(reference: String, from: PaymentState, to: PaymentState, at: Date, error: PaymentError? = nil) {
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
    case transitionRejected(reference: String, from: PaymentState, to: PaymentState)
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

/// The facade's events: each access to ``PaymentTerminal/events`` is an independent subscription that sees the
/// events sent after it was made, and ends when the facade is gone.
///
/// **Buffering policy**: each subscription buffers the events its reader has not taken yet, up to a bound (1,024, or
/// the `bufferingNewest` given to ``PaymentTerminal/events(bufferingNewest:)``). A reader that falls further behind
/// loses the *oldest* events it has not read, keeping the newest: a slow or forgotten subscriber costs bounded memory
/// and never slows payments. Events report; they are not the record: the ledger is
/// (``PaymentTerminal/session(reference:)``, ``PaymentTerminal/sessions()``), so a reader that may have lost events
/// reads the state there.
public typealias TenderEvents = AsyncStream<TenderEvent>

/// How many unread events a subscription keeps by default (the newest).
package let defaultEventBufferLimit = 1_024

/// Fans events out to every subscriber.
final class EventHub: Sendable {
    private let logger: TenderLogger
    private let subscribers = Locked<[UInt64: AsyncStream<TenderEvent>.Continuation]>([:])
    private let nextID = Locked<UInt64>(0)

    /// A subscription keeping at most `limit` unread events (the newest; at least one).
    func subscribe(bufferingNewest limit: Int = defaultEventBufferLimit) -> TenderEvents {
        let (stream, continuation) = AsyncStream.makeStream(of: TenderEvent.self,
                                                            bufferingPolicy: .bufferingNewest(max(1, limit)))
        let id = nextID.withLock { value -> UInt64 in
            value += 1
            return value
        }
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { _ = $0.removeValue(forKey: id) } }
        return stream
    }

    init(logger: TenderLogger = TenderLogger()) { self.logger = logger }

    func send(_ event: TenderEvent) {
        logger.log(event)
        let continuations = subscribers.withLock { $0.isEmpty ? [] : Array($0.values) }
        for continuation in continuations { continuation.yield(event) }
    }

    func finish() {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() }
    }

    deinit { finish() }
}
