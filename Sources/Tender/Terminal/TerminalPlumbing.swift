import Foundation

/// Holds the processor's events between ``PaymentTerminal/run()`` calls.
///
/// A processor's `AsyncStream` ends for good when the task iterating it is cancelled, so ``PaymentTerminal/run()``
/// could not be started again after its task was cancelled. Instead, a relay task (started by the first `run()`)
/// copies the processor's events into this mailbox, and every `run()` consumes the mailbox: cancelling a `run()`
/// stops that consumer only; nothing is lost, and the next `run()` picks up where it left off.
final class ProcessorEventMailbox: Sendable {
    private struct State {
        var queue: [ProcessorEvent] = []
        var waiter: (id: UInt64, continuation: CheckedContinuation<ProcessorEvent?, Never>)?
        var finished = false
        var nextWaiterID: UInt64 = 0
    }

    private let state = Locked(State())

    /// Adds an event, waking the consumer if it waits.
    func post(_ event: ProcessorEvent) {
        let waiter = state.withLock { s -> CheckedContinuation<ProcessorEvent?, Never>? in
            if let waiter = s.waiter {
                s.waiter = nil
                return waiter.continuation
            }
            s.queue.append(event)
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// The processor's stream ended: consumers get `nil` once the queue is drained.
    func finish() {
        let waiter = state.withLock { s -> CheckedContinuation<ProcessorEvent?, Never>? in
            s.finished = true
            defer { s.waiter = nil }
            return s.waiter?.continuation
        }
        waiter?.resume(returning: nil)
    }

    /// The next event, or `nil` when the processor's stream ended or the calling task was cancelled (the mailbox
    /// itself stays open for the next consumer).
    func next() async -> ProcessorEvent? {
        let id = state.withLock { s -> UInt64 in
            s.nextWaiterID += 1
            return s.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ProcessorEvent?, Never>) in
                let immediate: ProcessorEvent?? = state.withLock { s in
                    if !s.queue.isEmpty { return .some(s.queue.removeFirst()) }
                    if s.finished || Task.isCancelled { return .some(nil) }
                    s.waiter = (id, continuation)
                    return .none
                }
                if case .some(let value) = immediate { continuation.resume(returning: value) }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<ProcessorEvent?, Never>? in
                guard let waiter = s.waiter, waiter.id == id else { return nil }
                s.waiter = nil
                return waiter.continuation
            }
            waiter?.resume(returning: nil)
        }
    }
}

/// Wakes a sleeping loop early (the queue poller when the network returns). A wake with nobody waiting is kept
/// for the next wait.
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    /// Wakes the waiter, or makes the next wait return at once.
    func wake() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard let waiter = s.waiter else {
                s.pending = true
                return nil
            }
            s.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Waits until woken, or returns at once when a wake is pending or the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { s -> Bool in
                    if s.pending || Task.isCancelled {
                        s.pending = false
                        return true
                    }
                    s.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume()
        }
    }

    /// Forgets a pending wake.
    func reset() { state.withLock { $0.pending = false } }
}
