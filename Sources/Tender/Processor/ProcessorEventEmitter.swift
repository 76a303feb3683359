/// The one place an adapter sends its ``ProcessorEvent``s: a buffered `AsyncStream` handed to the core by
/// ``PaymentProcessor/events()``. Both in-repo adapters and the in-memory processor use it.
///
/// The stream is made when it is first asked for. Until then, emitting costs a short lock and at most the newest
/// `earlyEventLimit` events are kept (and delivered first when the stream is made), so an adapter nobody listens to
/// neither grows without bound nor pays for a stream no one reads.
public final class ProcessorEventEmitter: Sendable {
    /// How many events emitted before anyone asked for ``stream`` are kept for it (the newest).
    package static let earlyEventLimit = 256

    private struct State {
        var stream: AsyncStream<ProcessorEvent>?
        var continuation: AsyncStream<ProcessorEvent>.Continuation?
        var early: [ProcessorEvent] = []
        var finished = false
    }

    private let state = Locked(State())
    private let history: Locked<[ProcessorEvent]>
    private let keepsHistory: Bool

    /// Creates an emitter.
    public convenience init() { self.init(keepingHistory: false) }

    /// Creates an emitter. With `keepingHistory`, every event is also kept for tests to inspect (``emitted``).
    package init(keepingHistory: Bool) {
        history = Locked([])
        keepsHistory = keepingHistory
    }

    /// The stream the core consumes: the same stream on every access, made on the first.
    public var stream: AsyncStream<ProcessorEvent> {
        state.withLock { s in
            if let stream = s.stream { return stream }
            let (stream, continuation) = AsyncStream.makeStream(of: ProcessorEvent.self, bufferingPolicy: .unbounded)
            for event in s.early.suffix(Self.earlyEventLimit) { continuation.yield(event) }
            s.early = []
            if s.finished { continuation.finish() }
            s.stream = stream
            s.continuation = continuation
            return stream
        }
    }

    /// Sends an event.
    public func emit(_ event: ProcessorEvent) {
        if keepsHistory { history.withLock { $0.append(event) } }
        let continuation = state.withLock { s -> AsyncStream<ProcessorEvent>.Continuation? in
            if let continuation = s.continuation { return continuation }
            s.early.append(event)
            // Trimmed in halves, so keeping the newest events costs O(1) per event on average.
            if s.early.count >= 2 * Self.earlyEventLimit { s.early.removeFirst(s.early.count - Self.earlyEventLimit) }
            return nil
        }
        continuation?.yield(event)
    }

    /// Every event sent so far (only with `keepingHistory`).
    package var emitted: [ProcessorEvent] { history.current }

    /// Ends the stream.
    public func finish() {
        let continuation = state.withLock { s -> AsyncStream<ProcessorEvent>.Continuation? in
            s.finished = true
            return s.continuation
        }
        continuation?.finish()
    }
}
