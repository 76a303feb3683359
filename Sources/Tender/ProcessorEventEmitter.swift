/// The one place an adapter sends its ``ProcessorEvent``s: a buffered `AsyncStream` handed to the core by
/// ``PaymentProcessor/events()``. Both in-repo adapters and the in-memory processor use it.
public final class ProcessorEventEmitter: Sendable {
    /// The stream the core consumes.
    public let stream: AsyncStream<ProcessorEvent>
    private let continuation: AsyncStream<ProcessorEvent>.Continuation
    private let history: Locked<[ProcessorEvent]>
    private let keepsHistory: Bool

    /// Creates an emitter. With `keepingHistory`, every event is also kept for tests to inspect.
    public init(keepingHistory: Bool = false) {
        (stream, continuation) = AsyncStream.makeStream(of: ProcessorEvent.self, bufferingPolicy: .unbounded)
        history = Locked([])
        keepsHistory = keepingHistory
    }

    /// Sends an event.
    public func emit(_ event: ProcessorEvent) {
        if keepsHistory { history.withLock { $0.append(event) } }
        continuation.yield(event)
    }

    /// Every event sent so far (only with `keepingHistory`).
    public var emitted: [ProcessorEvent] { history.current }

    /// Ends the stream.
    public func finish() { continuation.finish() }
}
