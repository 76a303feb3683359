import Foundation

/// A source of the current time. Inject ``ManualClock`` in tests and simulators so that 24-hour and 30-day rules
/// run in milliseconds.
public protocol TenderClock: Sendable {
    /// The current time.
    func now() -> Date
    /// Suspends for `seconds` of this clock's time (background polling and schedules use it).
    /// - Throws: `CancellationError` when the task is cancelled while it waits.
    func sleep(seconds: Double) async throws
}

extension TenderClock {
    /// Sleeps on the system's clock: the default for clocks that do not model time themselves.
    public func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }
}

/// The system's wall clock.
public struct SystemClock: TenderClock {
    /// Creates the wall clock.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
}

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

/// A deterministic pseudo-random generator (SplitMix64). The same seed gives the same sequence on every platform,
/// so simulators and the chaos harness are reproducible.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A random identifier with a prefix, e.g. `pi_3f9a…`, reproducible under the seed.
    public mutating func identifier(prefix: String, length: Int = 16) -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        return prefix + String((0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
    }

    /// A UUID-shaped string, reproducible under the seed.
    public mutating func uuidString() -> String {
        let a = next(), b = next()
        let hex = String(format: "%016llX%016llX", a, b)
        let c = Array(hex)
        return "\(String(c[0..<8]))-\(String(c[8..<12]))-\(String(c[12..<16]))-\(String(c[16..<20]))-\(String(c[20..<32]))"
    }
}

/// The simulated network between the device and the processor, shared by both simulators.
public enum SimulatedNetwork: Hashable, Sendable {
    /// Every request reaches the processor.
    case online
    /// Every request fails at once with "not connected".
    case offline
    /// Each request fails with the given probability (0...1), drawn from the simulator's seeded generator.
    case flaky(failureRate: Double)
    /// Requests hang until the vendor's timeout, then fail with a timeout whose outcome the SDK cannot know.
    case timingOut

    /// Whether a request succeeds now, drawing from `random` for flaky networks.
    public func requestSucceeds(using random: inout SeededGenerator) -> Bool {
        switch self {
        case .online: true
        case .offline, .timingOut: false
        case .flaky(let rate): Double(random.next() % 1_000_000) / 1_000_000 >= rate
        }
    }

    /// The status an SDK would report: flaky counts as online (the SDK sees a connection that sometimes fails).
    public var reportedStatus: NetworkStatus {
        switch self {
        case .online, .flaky: .online
        case .offline, .timingOut: .offline
        }
    }
}

/// A value protected by a lock, for the few places where an actor does not fit (synchronous callbacks).
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Wraps `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value.
    public var current: Value { withLock { $0 } }
}

/// When a simulated customer presents the card, shared by every simulator.
public enum SimulatedCardPresentation: String, Hashable, Sendable, Codable, CaseIterable {
    /// As soon as the reader asks for a card.
    case immediate
    /// Only when the test or demo presents it (the simulator's `presentCard`), so a payment can be canceled while
    /// it waits, or the reader can be lost mid-payment.
    case waitForPresentCard
}
