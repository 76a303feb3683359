/// What recovery did when the facade started: which sessions it examined, which it resolved, which it left to a
/// concurrent call or could not record, and which stay unknown.
public struct RecoveryReport: Hashable, Sendable {
    /// Sessions found in a non-final state (collecting, processing, outcome unknown, stored offline…).
    public var examined: Int
    /// The state changes recovery made from what the processor holds: each a payment it settled. A payment it
    /// could only mark ``PaymentState/outcomeUnknown`` is in ``unresolved``, not here.
    public var resolved: [PaymentStateChange]
    /// References whose outcome could not be established. They stay ``PaymentState/outcomeUnknown`` and are
    /// never charged again under a new reference; retrying the same reference continues the same payment.
    public var unresolved: [String]
    /// Stored offline payments still waiting to be forwarded after recovery.
    public var stillStored: Int
    /// References recovery left to a concurrent call: a payment in flight when recovery reached it, or a session
    /// another call (a retry, a capture, the queue poller) recorded after recovery read it. Each is as that call
    /// recorded it: current, not stale.
    public var skipped: [String]
    /// References whose changes the ledger could not record (it failed): they keep their recorded state and are
    /// reconciled by the queue poller or the next recovery.
    public var notRecorded: [String]

    /// Creates a report.
    package init(examined: Int = 0, resolved: [PaymentStateChange] = [], unresolved: [String] = [],
                stillStored: Int = 0, skipped: [String] = [], notRecorded: [String] = []) {
        self.examined = examined
        self.resolved = resolved
        self.unresolved = unresolved
        self.stillStored = stillStored
        self.skipped = skipped
        self.notRecorded = notRecorded
    }
}
