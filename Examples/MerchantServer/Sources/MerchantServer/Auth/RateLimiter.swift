import Foundation

/// Counts failures (a wrong enrolment code, an unknown or revoked token) per client address in a fixed window: past
/// `limit` failures in `window` seconds the address is refused (`429`) until the window ends, whether its next
/// attempt would be right or not. Per instance: several instances each allow `limit`, which still bounds guessing.
public actor RateLimiter {
    let limit: Int
    let window: TimeInterval
    let now: @Sendable () -> Date
    private var failures: [String: (start: Date, count: Int)] = [:]

    public init(limit: Int, window: TimeInterval, now: @escaping @Sendable () -> Date = { Date() }) {
        self.limit = limit
        self.window = window
        self.now = now
    }

    /// Whether `client` may try now.
    public func allows(_ client: String) -> Bool {
        guard let entry = failures[client] else { return true }
        if now().timeIntervalSince(entry.start) >= window {
            failures[client] = nil
            return true
        }
        return entry.count < limit
    }

    /// Records one failure of `client`.
    public func fail(_ client: String) {
        let time = now()
        if failures.count > 100_000 { failures = failures.filter { time.timeIntervalSince($0.value.start) < window } }
        if let entry = failures[client], time.timeIntervalSince(entry.start) < window {
            failures[client] = (entry.start, entry.count + 1)
        } else {
            failures[client] = (time, 1)
        }
    }
}
