public import Foundation

/// A source of the current time. Inject `TenderTesting`'s `ManualClock` in tests and simulators so that 24-hour and 30-day rules
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
