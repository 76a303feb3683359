public import Foundation
public import Tender

/// A clock that moves only when told. Thread-safe. A task sleeping on it wakes when ``advance(by:)`` or ``set(_:)``
/// moves the time past its deadline (or when it is cancelled).
public final class ManualClock: TenderClock, @unchecked Sendable {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current: Date
    private var sleepers: [Sleeper] = []
    private var cancelledBeforeSleeping: Set<UInt64> = []
    private var nextSleeperID: UInt64 = 0

    /// Starts at `start` (default: 2026-01-01T00:00:00Z, so runs are reproducible).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) { current = start }

    /// The clock's time.
    public func now() -> Date { lock.withLock { current } }

    /// Moves the clock forward by `seconds`, waking every sleeper whose deadline has passed.
    public func advance(by seconds: Double) {
        let woken = lock.withLock { () -> [Sleeper] in
            current = current.addingTimeInterval(seconds)
            return takeDueSleepers()
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Sets the clock, waking every sleeper whose deadline has passed.
    public func set(_ date: Date) {
        let woken = lock.withLock { () -> [Sleeper] in
            current = date
            return takeDueSleepers()
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// How many tasks are sleeping on this clock now (tests wait for a background loop to go to sleep).
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// Suspends until the clock has been moved `seconds` past now.
    public func sleep(seconds: Double) async throws {
        let id = lock.withLock { () -> UInt64 in
            nextSleeperID += 1
            return nextSleeperID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: (any Error)?? = lock.withLock {
                    if cancelledBeforeSleeping.remove(id) != nil { return .some(CancellationError()) }
                    let deadline = current.addingTimeInterval(seconds)
                    if seconds <= 0 || deadline <= current { return .some(nil) }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .none
                }
                switch resumeNow {
                case .some(.some(let error)): continuation.resume(throwing: error)
                case .some(.none): continuation.resume()
                case .none: break
                }
            }
        } onCancel: {
            let sleeper = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else {
                    cancelledBeforeSleeping.insert(id)
                    return nil
                }
                return sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Removes and returns the sleepers whose deadline is at or before the current time. Call with the lock held.
    private func takeDueSleepers() -> [Sleeper] {
        let due = sleepers.filter { $0.deadline <= current }
        sleepers.removeAll { $0.deadline <= current }
        return due
    }
}
