import Foundation

// Forwarding at the floor: a batch of transitions of distinct payments (forwarding results, recovery) is applied
// with set-based statements instead of a read, an update and an insert per payment:
//   1. the changes go into an in-memory temporary table (one small insert each, no I/O), each with its session's
//      row id, found through the unique (merchant, location, reference) index;
//   2. one `UPDATE sessions … FROM` applies them all, with the compare-and-set on each expected state, and returns
//      the updated rows; if any payment is missing or not in its expected state the batch is abandoned (rolled back)
//      and the row path runs instead, failing with exactly the error it gives alone;
//   3. one `INSERT … SELECT` appends every history row;
//   4. the stored aggregates move once per currency, by the summed totals.

/// A batch the set-based path applies: at least two changes, each to a different payment, each a legal transition
/// (``SessionChange/newState`` differs from ``SessionChange/expectedState``) out of which nothing is stored, and
/// none starting a new payment attempt. Other batches take the row path.
struct SetBasedBatch {
    /// The set-based statement did not match every payment: roll back and take the row path.
    struct Mismatch: Error {}

    let changes: [SessionChange]

    /// The batch, or `nil` when the set-based path does not cover it.
    init?(_ changes: [SessionChange]) {
        guard changes.count >= 2 else { return nil }
        var references = Set<String>()
        for change in changes {
            guard references.insert(change.reference).inserted, !change.startsNewAttempt,
                  change.newState != change.expectedState, change.newState != .storedOffline,
                  PaymentStateMachine.canTransition(from: change.expectedState, to: change.newState)
            else { return nil }
        }
        self.changes = changes
    }
}

extension SQLitePaymentLedger {
    /// Applies a set-based batch inside the caller's write transaction and returns the sessions after it, in the
    /// order of the changes, without history.
    /// - Throws: ``SetBasedBatch/Mismatch`` when a payment is missing or not in its expected state.
    func applySetBased(_ batch: SetBasedBatch, scope: LedgerScope) throws -> [PaymentSession] {
        try db.execute(BatchSQL.createTable)
        try db.execute(BatchSQL.clear)
        for (sequence, change) in batch.changes.enumerated() {
            try db.execute(BatchSQL.insert, [
                .integer(Int64(sequence)), .text(scope.merchantID), .text(scope.locationID), .text(change.reference),
                .text(change.reference), .text(change.expectedState.rawValue),
                .text(change.newState.rawValue), .date(change.at), .text(change.route?.rawValue),
                .text(change.processorPaymentID), .text(change.localID), .text(try json(change.card)),
                .text(try json(change.error)), .bool(change.incrementsAttempts), .date(change.storedAt),
                .date(change.captureBefore), .text(change.note),
            ])
        }
        var updated: [String: PaymentSession] = [:]
        updated.reserveCapacity(batch.changes.count)
        try db.query(BatchSQL.update) { row in
            let session = try decodeSession(row).1
            updated[session.reference] = session
        }
        guard updated.count == batch.changes.count else { throw SetBasedBatch.Mismatch() }
        try db.execute(BatchSQL.insertTransitions)

        var leaving: [Currency: (count: Int, amount: Int64)] = [:]
        for change in batch.changes where change.expectedState == .storedOffline {
            let total = updated[change.reference]!.total
            leaving[total.currency, default: (0, 0)].count += 1
            leaving[total.currency, default: (0, 0)].amount += total.minorUnits
        }
        for (currency, removed) in leaving.sorted(by: { $0.key.code < $1.key.code }) {
            try removeFromAggregates(currency: currency, count: removed.count, amount: removed.amount, scope: scope)
        }
        try db.execute(BatchSQL.clear)
        return batch.changes.map { updated[$0.reference]! }
    }

    /// The query plans of the set-based statements (tests check that each visits only the batch's payments).
    func explainSetBasedBatch(scope: LedgerScope) throws -> [String] {
        try guarded("explain the set-based batch") {
            try db.execute(BatchSQL.createTable)
            return try explain([BatchSQL.insert], [.integer(0)] + [.text(scope.merchantID), .text(scope.locationID)]
                                + Array(repeating: .null, count: 14))
                + explain([BatchSQL.update, BatchSQL.insertTransitions], [])
        }
    }
}

/// The set-based batch's statements. Columns of the temporary table start with `b_` so that no name is shared
/// with `sessions`. The batch joins `sessions` by row id, so every statement walks the batch and seeks each payment
/// (SQLite's planner, which has no statistics, would otherwise walk every session of the scope).
private enum BatchSQL {
    static let createTable = """
        CREATE TEMP TABLE IF NOT EXISTS forwarding_batch (
            seq INTEGER PRIMARY KEY,
            b_session_id INTEGER,
            b_reference TEXT NOT NULL UNIQUE,
            b_expected TEXT NOT NULL,
            b_new TEXT NOT NULL,
            b_at REAL NOT NULL,
            b_route TEXT,
            b_processor_payment_id TEXT,
            b_local_id TEXT,
            b_card TEXT,
            b_error TEXT,
            b_increments INTEGER NOT NULL,
            b_stored_at REAL,
            b_capture_before REAL,
            b_note TEXT
        )
        """

    static let clear = "DELETE FROM temp.forwarding_batch"

    static let insert = """
        INSERT INTO temp.forwarding_batch (seq, b_session_id, b_reference, b_expected, b_new, b_at, b_route,
            b_processor_payment_id, b_local_id, b_card, b_error, b_increments, b_stored_at, b_capture_before, b_note)
        VALUES (?, (SELECT id FROM sessions WHERE merchant_id = ? AND location_id = ? AND reference = ?),
                ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// The semantics of ``SessionChange/apply(to:)`` for a transition out of which nothing is stored: fields the
    /// change carries replace the row's, the others are kept.
    static let update = """
        UPDATE sessions SET
            state = b.b_new,
            route = COALESCE(b.b_route, sessions.route),
            processor_payment_id = COALESCE(b.b_processor_payment_id, sessions.processor_payment_id),
            local_id = COALESCE(b.b_local_id, sessions.local_id),
            card = COALESCE(b.b_card, sessions.card),
            last_error = COALESCE(b.b_error, sessions.last_error),
            attempts = sessions.attempts + b.b_increments,
            updated_at = b.b_at,
            stored_at = COALESCE(b.b_stored_at, sessions.stored_at),
            stored_since = NULL,
            capture_before = COALESCE(b.b_capture_before, sessions.capture_before)
        FROM temp.forwarding_batch AS b
        WHERE sessions.id = b.b_session_id AND sessions.state = b.b_expected
        RETURNING \(LedgerSQL.sessionColumns)
        """

    static let insertTransitions = """
        INSERT INTO transitions (session_id, from_state, to_state, at, error, attempt, note)
        SELECT s.id, b.b_expected, b.b_new, b.b_at, b.b_error, s.payment_attempt, b.b_note
        FROM temp.forwarding_batch AS b
        JOIN sessions AS s ON s.id = b.b_session_id
        ORDER BY b.seq
        """
}
