package import Foundation

/// Counts and totals of stored, unforwarded payments in one scope, kept up to date by the ledger on every write so
/// that reading them never scans the sessions.
package struct StoredPaymentSummary: Hashable, Sendable {
    /// How many sessions are ``PaymentState/storedOffline``.
    package var count: Int
    /// Their totals per currency, in minor units.
    package var amounts: [Currency: Int64]
    /// When the oldest of them was stored.
    package var oldestStoredAt: Date?

    /// Creates a summary.
    package init(count: Int = 0, amounts: [Currency: Int64] = [:], oldestStoredAt: Date? = nil) {
        self.count = count
        self.amounts = amounts
        self.oldestStoredAt = oldestStoredAt
    }

    /// "3 payments: 12.00 USD, 500 JPY".
    package var humanDescription: String {
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
package protocol PaymentLedger: Sendable {
    /// Records a new session.
    /// - Throws: ``PaymentError/Code/duplicateReference`` if the scope already has this reference.
    func insert(_ session: PaymentSession) async throws

    /// The session with this reference in the scope, or `nil`.
    func session(reference: String, scope: LedgerScope, includingHistory: Bool) async throws -> PaymentSession?

    /// Opens a payment: the session with this reference (without history, with its refunds) if the scope has one;
    /// otherwise the session `create` makes from the stored-payment aggregates (the routing decision), recorded as
    /// ``insert(_:)`` records it (the write-ahead record). `create` may throw (a refusal): nothing is recorded. The
    /// SQLite ledger does it all in one transaction, one call: reading the reference, the aggregates and writing
    /// the new session would otherwise be three; the default calls the three methods in turn.
    func openPayment(reference: String, scope: LedgerScope,
                     create: @Sendable (StoredPaymentSummary) throws -> PaymentSession) async throws -> PaymentOpening

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

    /// Records a new refund of the session with this reference (write-ahead: before the processor is asked), in one
    /// transaction that reads the session with every refund it has, makes the record with `make` from it (its
    /// number, idempotency key and, by default, amount come from what the ledger holds at that instant, not from an
    /// earlier read), and checks ``RefundRecord/checkRefundable(_:of:)``: two refunds recorded at the same time, by
    /// one terminal or by two terminals on one ledger file, never get the same number nor together exceed what was
    /// captured. `make` may throw (nothing is recorded).
    /// - Returns: the refund as recorded.
    /// - Throws: ``PaymentError/Code/unknownReference`` when there is no such session,
    ///   ``PaymentError/Code/invalidAmount`` when the refund would exceed what is refundable, and
    ///   ``PaymentError/Code/duplicateReference`` when a refund with this id exists.
    func insertRefund(reference: String, scope: LedgerScope,
                      make: @Sendable (PaymentSession) throws -> RefundRecord) async throws -> RefundRecord
    /// Applies a change to a refund atomically (compare-and-set on its status) and returns the updated record.
    func recordRefund(_ change: RefundChange, scope: LedgerScope) async throws -> RefundRecord
    /// The refunds of the session with this reference, oldest first.
    func refunds(reference: String, scope: LedgerScope) async throws -> [RefundRecord]
    /// Every refund of the scope with one of these statuses, oldest first (recovery reads the pending ones).
    func refunds(in statuses: Set<RefundStatus>, scope: LedgerScope) async throws -> [RefundRecord]
    /// The refunds of the scope with one of these statuses whose last change (``RefundRecord/updatedAt``) was at or
    /// after `updatedSince`, oldest first: the succeeded refunds a processor may still fail. The default filters
    /// ``refunds(in:scope:)``; a ledger with an index should implement it.
    func refunds(in statuses: Set<RefundStatus>, updatedSince: Date, scope: LedgerScope) async throws
        -> [RefundRecord]
}

/// What ``PaymentLedger/openPayment(reference:scope:create:)`` found or did.
package enum PaymentOpening: Sendable {
    /// The scope already has the reference: its session, without history, with its refunds. Nothing was written.
    case existing(PaymentSession)
    /// The reference was new: the session made for it, now recorded.
    case created(PaymentSession)
}

extension PaymentLedger {
    /// Reads the reference, then the aggregates, then inserts: three calls (see the requirement).
    package func openPayment(reference: String, scope: LedgerScope,
                             create: @Sendable (StoredPaymentSummary) throws -> PaymentSession) async throws
        -> PaymentOpening {
        if let existing = try await session(reference: reference, scope: scope, includingHistory: false) {
            return .existing(existing)
        }
        let session = try create(try await storedSummary(scope: scope))
        try await insert(session)
        return .created(session)
    }

    /// Filters ``refunds(in:scope:)`` by ``RefundRecord/updatedAt``.
    package func refunds(in statuses: Set<RefundStatus>, updatedSince: Date, scope: LedgerScope) async throws
        -> [RefundRecord] {
        try await refunds(in: statuses, scope: scope).filter { $0.updatedAt >= updatedSince }
    }

    /// Records `refund` as made (its number and id chosen by the caller): ``insertRefund(reference:scope:make:)``.
    package func insertRefund(_ refund: RefundRecord, scope: LedgerScope) async throws {
        _ = try await insertRefund(reference: refund.reference, scope: scope) { _ in refund }
    }

    /// The session with this reference, with its history.
    package func session(reference: String, scope: LedgerScope) async throws -> PaymentSession? {
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
