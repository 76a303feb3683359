import Foundation

// The package's one way of turning completion handlers and delegate callbacks into `async` results. The adapters, the
// bridges, the simulators and the mirrors' backends use it instead of hand-rolled continuation mailboxes.
//
// Waiting ignores task cancellation on purpose: the vendor's own answer is what counts (a cancelled Swift task does
// not stop the vendor), so a caller that must react to cancellation wraps the wait in `withTaskCancellationHandler`
// and asks the vendor to cancel (see `PaymentProcessor`'s cancellation rules).

/// One answer from a completion handler or a delegate, awaited by any number of tasks: the first answer wins and
/// later ones are ignored (an SDK that calls a completion twice cannot resume a continuation twice).
package final class CallbackResult<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var answer: Value?
    private var waiters: [CheckedContinuation<Value, Never>] = []

    /// A result nobody has answered yet.
    package init() {}

    /// The callback: delivers `value` unless an answer came already.
    package func resume(_ value: Value) {
        lock.lock()
        guard answer == nil else {
            lock.unlock()
            return
        }
        answer = value
        let resumed = waiters
        waiters = []
        lock.unlock()
        for waiter in resumed { waiter.resume(returning: value) }
    }

    /// Whether an answer arrived.
    package var isResolved: Bool {
        lock.lock()
        defer { lock.unlock() }
        return answer != nil
    }

    /// The answer, once it arrives (at once if it already did). Ignores task cancellation.
    package var value: Value {
        get async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
                lock.lock()
                if let answer {
                    lock.unlock()
                    continuation.resume(returning: answer)
                } else {
                    waiters.append(continuation)
                    lock.unlock()
                }
            }
        }
    }
}

/// A sequence of delegate callbacks read in order by one task: events are buffered until read, and after
/// ``finish(with:)`` later events are ignored and ``next()`` answers `nil` once the buffer is drained.
package final class CallbackMailbox<Event: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer: [Event] = []
    private var waiter: CheckedContinuation<Event?, Never>?
    private var finished = false

    /// An empty, open mailbox.
    package init() {}

    /// Delivers `event` (ignored once finished).
    package func send(_ event: Event) { deliver(event, finishing: false) }

    /// Delivers `last` (if any) as the final event: nothing after it is delivered.
    package func finish(with last: Event? = nil) { deliver(last, finishing: true) }

    /// The next event, or `nil` once finished and drained. One reader at a time; ignores task cancellation.
    package func next() async -> Event? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Event?, Never>) in
            lock.lock()
            if !buffer.isEmpty {
                let event = buffer.removeFirst()
                lock.unlock()
                continuation.resume(returning: event)
            } else if finished {
                lock.unlock()
                continuation.resume(returning: nil)
            } else {
                precondition(waiter == nil, "CallbackMailbox: one reader at a time")
                waiter = continuation
                lock.unlock()
            }
        }
    }

    private func deliver(_ event: Event?, finishing: Bool) {
        lock.lock()
        guard !finished else {
            lock.unlock()
            return
        }
        if finishing { finished = true }
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume(returning: event)
            return
        }
        if let event { buffer.append(event) }
        lock.unlock()
    }
}

/// Calls `start` (on the caller's actor, like `withCheckedContinuation`) with a completion handler and returns the
/// first value it is called with (later calls are ignored). Ignores task cancellation, like ``CallbackResult/value``.
package func awaitCallback<Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    _ start: (@escaping @Sendable (Value) -> Void) -> Void
) async -> Value {
    let result = CallbackResult<Value>()
    start { result.resume($0) }
    return await result.value
}
