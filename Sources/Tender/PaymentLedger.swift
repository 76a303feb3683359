import Foundation

/// Counts and totals of stored, unforwarded payments in one scope, kept up to date by the ledger on every write so
/// that reading them never scans the sessions.
public struct StoredPaymentSummary: Hashable, Sendable {
    /// How many sessions are ``PaymentState/storedOffline``.
    public var count: Int
    /// Their totals per currency, in minor units.
    public var amounts: [Currency: Int64]
    /// When the oldest of them was stored.
    public var oldestStoredAt: Date?

    /// Creates a summary.
    public init(count: Int = 0, amounts: [Currency: Int64] = [:], oldestStoredAt: Date? = nil) {
        self.count = count
        self.amounts = amounts
        self.oldestStoredAt = oldestStoredAt
    }

    /// "3 payments: 12.00 USD, 500 JPY".
    public var humanDescription: String {
        let totals = amounts.sorted { $0.key.code < $1.key.code }
            .map { Money(minorUnits: $0.value, currency: $0.key).description }
        return "\(count) payment\(count == 1 ? "" : "s")" + (totals.isEmpty ? "" : ": " + totals.joined(separator: ", "))
    }
}

/// The durable record of every payment session and transition. Tender commits the intent to charge before the
/// processor is called, and each answer as it arrives, so a crash at any point leaves a record that recovery can
/// finish.
///
/// Every method is scoped to a ``LedgerScope``. Implementations: ``InMemoryPaymentLedger`` (tests) and
/// ``SQLitePaymentLedger`` (the embedded default).
public protocol PaymentLedger: Sendable {
    /// Records a new session.
    /// - Throws: ``PaymentError/Code/duplicateReference`` if the scope already has this reference.
    func insert(_ session: PaymentSession) async throws

    /// The session with this reference in the scope, or `nil`.
    func session(reference: String, scope: LedgerScope, includingHistory: Bool) async throws -> PaymentSession?

    /// The session holding this processor local id (or else this processor id), with its history, or `nil`.
    func session(localID: String?, processorPaymentID: String?, scope: LedgerScope) async throws -> PaymentSession?

    /// Applies a change atomically (compare-and-set on the expected state) and returns the updated session.
    func record(_ change: SessionChange, scope: LedgerScope) async throws -> PaymentSession

    /// Applies several changes as one atomic commit: all are recorded or none is. Changes to the same reference
    /// apply in order (so `processing → outcomeUnknown → failed` can be one batch). Recovery and forwarding use it
    /// so that a thousand results cost one commit, not a thousand.
    func record(_ changes: [SessionChange], scope: LedgerScope) async throws -> [PaymentSession]

    /// The sessions with these references, without history, read in one go (missing references are absent).
    func sessions(references: [String], scope: LedgerScope) async throws -> [String: PaymentSession]

    /// Sessions in any of `states`, oldest first, without history.
    func sessions(in states: Set<PaymentState>, scope: LedgerScope) async throws -> [PaymentSession]

    /// Every session of the scope, oldest first, without history.
    func allSessions(scope: LedgerScope) async throws -> [PaymentSession]

    /// The stored-payment aggregates, read without scanning sessions.
    func storedSummary(scope: LedgerScope) async throws -> StoredPaymentSummary

    /// Every scope that has sessions, sorted by `merchant/location`.
    func scopes() async throws -> [LedgerScope]

    // MARK: Refunds

    /// Records a new refund of a session (write-ahead: before the processor is asked), checking in the same
    /// transaction that the session exists and that pending plus succeeded refunds, this one included, do not
    /// exceed the session's total.
    /// - Throws: ``PaymentError/Code/unknownReference`` when there is no such session,
    ///   ``PaymentError/Code/invalidAmount`` when the refund would exceed what is refundable, and
    ///   ``PaymentError/Code/duplicateReference`` when a refund with this id exists.
    func insertRefund(_ refund: RefundRecord, scope: LedgerScope) async throws
    /// Applies a change to a refund atomically (compare-and-set on its status) and returns the updated record.
    func recordRefund(_ change: RefundChange, scope: LedgerScope) async throws -> RefundRecord
    /// The refunds of the session with this reference, oldest first.
    func refunds(reference: String, scope: LedgerScope) async throws -> [RefundRecord]
    /// Every refund of the scope with one of these statuses, oldest first (recovery reads the pending ones).
    func refunds(in statuses: Set<RefundStatus>, scope: LedgerScope) async throws -> [RefundRecord]
}

extension PaymentLedger {
    /// The session with this reference, with its history.
    public func session(reference: String, scope: LedgerScope) async throws -> PaymentSession? {
        try await session(reference: reference, scope: scope, includingHistory: true)
    }
}

/// Maintains stored-payment aggregates incrementally (shared by the ledgers).
struct StoredAggregates: Sendable {
    var count = 0
    var amounts: [Currency: Int64] = [:]
    /// Stored times of the stored sessions, so the oldest is known after the oldest leaves.
    var storedTimes: [Date: Int] = [:]

    mutating func apply(before: PaymentSession?, after: PaymentSession) {
        if let before, before.state == .storedOffline { remove(before) }
        if after.state == .storedOffline { add(after) }
    }

    mutating func add(_ session: PaymentSession) {
        count += 1
        amounts[session.total.currency, default: 0] += session.total.minorUnits
        storedTimes[session.storedAt ?? session.updatedAt, default: 0] += 1
    }

    mutating func remove(_ session: PaymentSession) {
        count -= 1
        amounts[session.total.currency, default: 0] -= session.total.minorUnits
        if amounts[session.total.currency] == 0 { amounts[session.total.currency] = nil }
        let key = session.storedAt ?? session.updatedAt
        storedTimes[key, default: 1] -= 1
        if storedTimes[key] == 0 { storedTimes[key] = nil }
    }

    var summary: StoredPaymentSummary {
        StoredPaymentSummary(count: count, amounts: amounts, oldestStoredAt: storedTimes.keys.min())
    }
}

/// A ledger in memory, for tests, previews and benchmarks. Not durable.
///
/// A lock-protected class rather than an actor: every operation is short and never suspends, so callers pay no
/// executor hop for it.
public final class InMemoryPaymentLedger: PaymentLedger, @unchecked Sendable {
    private struct Storage {
        var sessionsByScope: [LedgerScope: [String: PaymentSession]] = [:]
        var order: [LedgerScope: [String]] = [:]
        var aggregates: [LedgerScope: StoredAggregates] = [:]
        /// Refunds per scope, in the order recorded.
        var refunds: [LedgerScope: [RefundRecord]] = [:]
    }

    private let storage = Locked(Storage())

    /// Creates an empty ledger.
    public init() {}

    /// Records a new session.
    public func insert(_ session: PaymentSession) throws {
        try storage.withLock { s in
            guard s.sessionsByScope[session.scope]?[session.reference] == nil else {
                throw PaymentError(.duplicateReference, recovery: .fixRequest, phase: .ledger,
                                   message: "Reference \(session.reference) is already in the ledger.")
            }
            s.sessionsByScope[session.scope, default: [:]][session.reference] = session
            s.order[session.scope, default: []].append(session.reference)
            s.aggregates[session.scope, default: StoredAggregates()].apply(before: nil, after: session)
        }
    }

    /// The session with this reference.
    public func session(reference: String, scope: LedgerScope, includingHistory: Bool) -> PaymentSession? {
        storage.withLock { s -> PaymentSession? in
            guard var session = s.sessionsByScope[scope]?[reference] else { return nil }
            if !includingHistory { session.transitions = [] }
            session.refunds = (s.refunds[scope] ?? []).filter { $0.reference == reference }
            return session
        }
    }

    /// The session with this local id or processor id.
    public func session(localID: String?, processorPaymentID: String?, scope: LedgerScope) -> PaymentSession? {
        storage.withLock { s in
            s.sessionsByScope[scope]?.values.first { session in
                (localID != nil && session.localID == localID)
                    || (processorPaymentID != nil && session.processorPaymentID == processorPaymentID)
            }
        }
    }

    private static func record(_ change: SessionChange, scope: LedgerScope, in s: inout Storage) throws -> PaymentSession {
        guard var session = s.sessionsByScope[scope]?[change.reference] else {
            throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .ledger,
                               message: "No payment \(change.reference) in \(scope).")
        }
        let before = session
        try change.apply(to: &session)
        s.sessionsByScope[scope]![change.reference] = session
        s.aggregates[scope, default: StoredAggregates()].apply(before: before, after: session)
        return session
    }

    /// Applies a change atomically.
    public func record(_ change: SessionChange, scope: LedgerScope) throws -> PaymentSession {
        try storage.withLock { try Self.record(change, scope: scope, in: &$0) }
    }

    /// Applies the changes atomically: if one fails, none is kept.
    public func record(_ changes: [SessionChange], scope: LedgerScope) throws -> [PaymentSession] {
        try storage.withLock { s in
            var copy = s
            let results = try changes.map { try Self.record($0, scope: scope, in: &copy) }
            s = copy
            return results
        }
    }

    /// The sessions with these references, without history.
    public func sessions(references: [String], scope: LedgerScope) -> [String: PaymentSession] {
        storage.withLock { s in
            var found: [String: PaymentSession] = [:]
            for reference in references {
                guard var session = s.sessionsByScope[scope]?[reference] else { continue }
                session.transitions = []
                found[reference] = session
            }
            return found
        }
    }

    /// Sessions in the given states.
    public func sessions(in states: Set<PaymentState>, scope: LedgerScope) -> [PaymentSession] {
        allSessions(scope: scope).filter { states.contains($0.state) }
    }

    /// Every session of the scope.
    public func allSessions(scope: LedgerScope) -> [PaymentSession] {
        storage.withLock { s in
            (s.order[scope] ?? []).compactMap { s.sessionsByScope[scope]?[$0] }.map {
                var session = $0
                session.transitions = []
                return session
            }
        }
    }

    /// The stored aggregates.
    public func storedSummary(scope: LedgerScope) -> StoredPaymentSummary {
        storage.withLock { $0.aggregates[scope]?.summary ?? StoredPaymentSummary() }
    }

    /// Every scope with sessions.
    public func scopes() -> [LedgerScope] {
        storage.withLock { $0.sessionsByScope.keys.sorted { $0.description < $1.description } }
    }

    /// Records a new refund, checking the session and the refundable amount.
    public func insertRefund(_ refund: RefundRecord, scope: LedgerScope) throws {
        try storage.withLock { s in
            guard var session = s.sessionsByScope[scope]?[refund.reference] else {
                throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .refund,
                                   message: "No payment \(refund.reference) in \(scope) to refund.")
            }
            let existing = s.refunds[scope] ?? []
            guard !existing.contains(where: { $0.id == refund.id }) else {
                throw PaymentError(.duplicateReference, recovery: .fixRequest, phase: .refund,
                                   message: "Refund \(refund.id) is already in the ledger.")
            }
            session.refunds = existing.filter { $0.reference == refund.reference }
            try RefundRecord.checkRefundable(refund, of: session)
            s.refunds[scope, default: []].append(refund)
        }
    }

    /// Applies a change to a refund.
    public func recordRefund(_ change: RefundChange, scope: LedgerScope) throws -> RefundRecord {
        try storage.withLock { s in
            guard let index = s.refunds[scope]?.firstIndex(where: { $0.id == change.refundID }) else {
                throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .refund,
                                   message: "No refund \(change.refundID) in \(scope).")
            }
            var record = s.refunds[scope]![index]
            try change.apply(to: &record)
            s.refunds[scope]![index] = record
            return record
        }
    }

    /// The refunds of one session.
    public func refunds(reference: String, scope: LedgerScope) -> [RefundRecord] {
        storage.withLock { ($0.refunds[scope] ?? []).filter { $0.reference == reference } }
    }

    /// The refunds with these statuses.
    public func refunds(in statuses: Set<RefundStatus>, scope: LedgerScope) -> [RefundRecord] {
        storage.withLock { ($0.refunds[scope] ?? []).filter { statuses.contains($0.status) } }
    }
}
