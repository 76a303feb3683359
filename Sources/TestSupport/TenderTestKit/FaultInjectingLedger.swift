import Foundation

/// A ledger whose writes fail on cue, wrapping any ``PaymentLedger``: what a full disk, an I/O error or another
/// process holding the file's lock (`SQLITE_BUSY`) does to a real ledger, at the worst moment — after the vendor was
/// asked to charge. Reads always go through.
///
/// ```swift
/// let ledger = FaultInjectingLedger(wrapping: InMemoryPaymentLedger())
/// ledger.failWrites { $0.newState == .succeeded }   // the outcome of a charge cannot be recorded
/// ```
public final class FaultInjectingLedger: PaymentLedger, @unchecked Sendable {
    /// Which writes to fail.
    private struct Plan {
        var sessionRule: (@Sendable (SessionChange) -> Bool)?
        var refundRule: (@Sendable (RefundChange) -> Bool)?
        var remaining = Int.max
        var failed = 0
    }

    /// The wrapped ledger.
    package let inner: any PaymentLedger
    private let plan = Locked(Plan())

    /// Wraps `inner`; no write fails until told.
    package init(wrapping inner: any PaymentLedger) { self.inner = inner }

    /// Fails every session change (single or in a batch) matching `rule`, at most `times` times, with
    /// ``PaymentError/Code/ledgerUnavailable`` ("disk I/O error"), writing nothing.
    package func failWrites(times: Int = .max, where rule: @escaping @Sendable (SessionChange) -> Bool) {
        plan.withLock {
            $0.sessionRule = rule
            $0.remaining = times
        }
    }

    /// Fails every refund change matching `rule`, at most `times` times.
    package func failRefundWrites(times: Int = .max, where rule: @escaping @Sendable (RefundChange) -> Bool) {
        plan.withLock {
            $0.refundRule = rule
            $0.remaining = times
        }
    }

    /// Lets every write through again.
    public func heal() {
        plan.withLock {
            $0.sessionRule = nil
            $0.refundRule = nil
        }
    }

    /// How many writes were failed.
    public var failedWrites: Int { plan.current.failed }

    private var injected: PaymentError {
        PaymentError(.ledgerUnavailable, recovery: .fixIntegration, phase: .ledger,
                     message: "The ledger could not be written: disk I/O error (injected fault).")
    }

    private func check(_ changes: [SessionChange]) throws {
        let fail = plan.withLock { p -> Bool in
            guard p.remaining > 0, let rule = p.sessionRule, changes.contains(where: rule) else { return false }
            p.remaining -= 1
            p.failed += 1
            return true
        }
        if fail { throw injected }
    }

    private func check(_ change: RefundChange) throws {
        let fail = plan.withLock { p -> Bool in
            guard p.remaining > 0, let rule = p.refundRule, rule(change) else { return false }
            p.remaining -= 1
            p.failed += 1
            return true
        }
        if fail { throw injected }
    }

    /// Records a new session (never failed: the write-ahead record is what the checks build on).
    public func insert(_ session: PaymentSession) async throws { try await inner.insert(session) }

    /// Reads through.
    public func session(reference: String, scope: LedgerScope, includingHistory: Bool) async throws -> PaymentSession? {
        let session = try await inner.session(reference: reference, scope: scope, includingHistory: includingHistory)
        if let hold = heldSessionRead.withLock({ held in defer { held = nil }; return held }) { await hold() }
        return session
    }

    private let heldSessionRead = Locked<(@Sendable () async -> Void)?>(nil)
    private let heldStatesRead = Locked<(@Sendable () async -> Void)?>(nil)
    private let heldRecord = Locked<(rule: @Sendable (SessionChange) -> Bool, hold: @Sendable () async -> Void)?>(nil)

    /// Makes the next read of a session by reference wait in `hold` after it has read (its answer is from before
    /// whatever happens meanwhile): for tests that force a reader to act on what it read before another call wrote.
    package func holdNextSessionRead(_ hold: @escaping @Sendable () async -> Void) {
        heldSessionRead.withLock { $0 = hold }
    }

    /// Makes the next read of sessions by state wait in `hold` after it has read.
    package func holdNextSessionsInStates(_ hold: @escaping @Sendable () async -> Void) {
        heldStatesRead.withLock { $0 = hold }
    }

    /// Makes the next write (single or batch) with a change matching `rule` wait in `hold` before it reaches the
    /// ledger: what it was decided from is then older than what other calls record meanwhile.
    package func holdNextRecord(where rule: @escaping @Sendable (SessionChange) -> Bool,
                               _ hold: @escaping @Sendable () async -> Void) {
        heldRecord.withLock { $0 = (rule, hold) }
    }

    private func holdIfCued(_ changes: [SessionChange]) async {
        let hold = heldRecord.withLock { held -> (@Sendable () async -> Void)? in
            guard let cue = held, changes.contains(where: cue.rule) else { return nil }
            held = nil
            return cue.hold
        }
        if let hold { await hold() }
    }

    /// Reads through.
    public func session(localID: String?, processorPaymentID: String?, scope: LedgerScope) async throws
        -> PaymentSession? {
        try await inner.session(localID: localID, processorPaymentID: processorPaymentID, scope: scope)
    }

    /// Fails on cue, else writes through.
    package func record(_ change: SessionChange, scope: LedgerScope) async throws -> PaymentSession {
        await holdIfCued([change])
        try check([change])
        return try await inner.record(change, scope: scope)
    }

    /// Fails on cue (the whole batch), else writes through.
    package func record(_ changes: [SessionChange], scope: LedgerScope) async throws -> [PaymentSession] {
        await holdIfCued(changes)
        try check(changes)
        return try await inner.record(changes, scope: scope)
    }

    /// Reads through.
    public func sessions(references: [String], scope: LedgerScope) async throws -> [String: PaymentSession] {
        try await inner.sessions(references: references, scope: scope)
    }

    /// Reads through.
    public func sessions(in states: Set<PaymentState>, scope: LedgerScope) async throws -> [PaymentSession] {
        let sessions = try await inner.sessions(in: states, scope: scope)
        if let hold = heldStatesRead.withLock({ held in defer { held = nil }; return held }) { await hold() }
        return sessions
    }

    /// Reads through.
    public func allSessions(scope: LedgerScope) async throws -> [PaymentSession] {
        try await inner.allSessions(scope: scope)
    }

    /// Reads through.
    package func storedSummary(scope: LedgerScope) async throws -> StoredPaymentSummary {
        let summary = try await inner.storedSummary(scope: scope)
        if let hold = heldSummary.withLock({ held in defer { held = nil }; return held }) { await hold() }
        return summary
    }

    private let heldSummary = Locked<(@Sendable () async -> Void)?>(nil)

    /// Makes the next stored-summary read wait in `hold` after it has read (so its answer is from before whatever
    /// happens meanwhile): for tests of overlapping reads.
    package func holdNextStoredSummary(_ hold: @escaping @Sendable () async -> Void) {
        heldSummary.withLock { $0 = hold }
    }

    /// Reads through.
    public func scopes() async throws -> [LedgerScope] { try await inner.scopes() }

    /// Records a new refund (never failed: the write-ahead record).
    package func insertRefund(reference: String, scope: LedgerScope,
                              make: @Sendable (PaymentSession) throws -> RefundRecord) async throws -> RefundRecord {
        try await inner.insertRefund(reference: reference, scope: scope, make: make)
    }

    /// Fails on cue, else writes through (after the held wait, if one is set: ``holdRefundWrites(_:)``).
    package func recordRefund(_ change: RefundChange, scope: LedgerScope) async throws -> RefundRecord {
        if let hold = heldRefundWrites.current { await hold(change) }
        try check(change)
        return try await inner.recordRefund(change, scope: scope)
    }

    private let heldRefundWrites = Locked<(@Sendable (RefundChange) async -> Void)?>(nil)

    /// Makes every refund change wait in `hold` before it is written (until ``releaseRefundWrites()``): for tests
    /// that keep a refund's answer unrecorded while something else happens (another terminal settles it, more
    /// refunds of the payment are asked for).
    package func holdRefundWrites(_ hold: @escaping @Sendable (RefundChange) async -> Void) {
        heldRefundWrites.withLock { $0 = hold }
    }

    /// Lets refund changes through without waiting again.
    package func releaseRefundWrites() { heldRefundWrites.withLock { $0 = nil } }

    /// Reads through.
    public func refunds(reference: String, scope: LedgerScope) async throws -> [RefundRecord] {
        try await inner.refunds(reference: reference, scope: scope)
    }

    /// Reads through.
    public func refunds(in statuses: Set<RefundStatus>, scope: LedgerScope) async throws -> [RefundRecord] {
        try await inner.refunds(in: statuses, scope: scope)
    }
}
