/// What recovery did when the facade started: which sessions it examined, which it resolved, and which stay
/// unknown.
public struct RecoveryReport: Hashable, Sendable {
    /// Sessions found in a non-final state (collecting, processing, outcome unknown, stored offline…).
    public var examined: Int
    /// The state changes recovery made, from what the processor holds.
    public var resolved: [PaymentStateChange]
    /// References whose outcome could not be established. They stay ``PaymentState/outcomeUnknown`` and are
    /// never charged again under a new reference; retrying the same reference continues the same payment.
    public var unresolved: [String]
    /// Stored offline payments still waiting to be forwarded after recovery.
    public var stillStored: Int

    /// Creates a report.
    public init(examined: Int = 0, resolved: [PaymentStateChange] = [], unresolved: [String] = [],
                stillStored: Int = 0) {
        self.examined = examined
        self.resolved = resolved
        self.unresolved = unresolved
        self.stillStored = stillStored
    }
}
