import Foundation

// Forwarding at the floor: a batch of transitions of distinct payments (forwarding results, recovery) is applied
// with set-based statements instead of a read, an update and an insert per payment:
//   1. the changes go into an in-memory temporary table (one small insert each, no I/O), each with its session's
//      row id, found through the unique (merchant, location, reference) index;
//   2. one `UPDATE sessions … FROM` applies them all, with the compare-and-set on each expected state; if any payment
//      is missing or not in its expected state the batch is abandoned (rolled back) and the row path runs instead,
//      failing with exactly the error it gives alone;
//   3. one `INSERT … SELECT` appends every history row;
//   4. the stored aggregates move once per currency, by the summed totals;
//   5. one `SELECT` reads the updated sessions back, in the order of the changes, for the caller.

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
        // Many rows per INSERT (one statement per chunk, the scope bound once per chunk as ?1 and ?2).
        var bindings: [SQLiteValue] = []
        bindings.reserveCapacity(2 + BatchSQL.rowsPerInsert * BatchSQL.valuesPerRow)
        var start = 0
        while start < batch.changes.count {
            let rows = batch.changes.count - start >= BatchSQL.rowsPerInsert ? BatchSQL.rowsPerInsert : 1
            bindings.removeAll(keepingCapacity: true)
            bindings += [.text(scope.merchantID), .text(scope.locationID)]
            for sequence in start..<start + rows {
                let change = batch.changes[sequence]
                bindings += [
                    .integer(Int64(sequence)), .text(change.reference), .text(change.expectedState.rawValue),
                    .text(change.newState.rawValue), .date(change.at), .text(change.route?.rawValue),
                    .text(change.processorPaymentID), .text(change.localID), .text(try json(change.card)),
                    .text(try json(change.error)), .bool(change.incrementsAttempts), .date(change.storedAt),
                    .date(change.captureBefore), .text(change.note),
                ]
            }
            try db.execute(rows == 1 ? BatchSQL.insert : BatchSQL.insertChunk, bindings)
            start += rows
        }
        try db.execute(BatchSQL.update)
        guard db.changes == batch.changes.count else { throw SetBasedBatch.Mismatch() }
        var updated: [PaymentSession] = []
        updated.reserveCapacity(batch.changes.count)
        try db.query(BatchSQL.selectUpdated) { updated.append(try decodeSession($0).1) }
        try db.execute(BatchSQL.insertTransitions)

        var leaving: [Currency: (count: Int, amount: Int64)] = [:]
        for (change, session) in zip(batch.changes, updated) where change.expectedState == .storedOffline {
            let total = session.total
            leaving[total.currency, default: (0, 0)].count += 1
            leaving[total.currency, default: (0, 0)].amount += total.minorUnits
        }
        for (currency, removed) in leaving.sorted(by: { $0.key.code < $1.key.code }) {
            try removeFromAggregates(currency: currency, count: removed.count, amount: removed.amount, scope: scope)
        }
        try db.execute(BatchSQL.clear)
        return updated
    }

    /// The query plans of the set-based statements (tests check that each visits only the batch's payments).
    func explainSetBasedBatch(scope: LedgerScope) throws -> [String] {
        try guarded("explain the set-based batch") {
            try db.execute(BatchSQL.createTable)
            return try explain([BatchSQL.insert], [.text(scope.merchantID), .text(scope.locationID), .integer(0)]
                                + Array(repeating: .null, count: BatchSQL.valuesPerRow - 1))
                + explain([BatchSQL.update, BatchSQL.selectUpdated, BatchSQL.insertTransitions], [])
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
            b_reference TEXT NOT NULL,
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

    /// Rows per multi-row insert into the batch table, and values bound per row (with the scope's two, under
    /// SQLite's historical limit of 999 bound values per statement).
    static let rowsPerInsert = 48
    static let valuesPerRow = 14

    private static let insertHead = """
        INSERT INTO temp.forwarding_batch (seq, b_session_id, b_reference, b_expected, b_new, b_at, b_route,
            b_processor_payment_id, b_local_id, b_card, b_error, b_increments, b_stored_at, b_capture_before, b_note)
        VALUES
        """

    /// Row `row` of a multi-row insert: its values are numbered from `3 + row * valuesPerRow`; the reference is used
    /// twice, to find the session's row id through the unique (merchant, location, reference) index.
    private static func insertRow(_ row: Int) -> String {
        let p = (0..<valuesPerRow).map { "?\(3 + row * valuesPerRow + $0)" }
        return "(\(p[0]), (SELECT id FROM sessions WHERE merchant_id = ?1 AND location_id = ?2 AND reference = \(p[1])), "
            + p[1...].joined(separator: ", ") + ")"
    }

    /// One row.
    static let insert = insertHead + " " + insertRow(0)
    /// ``rowsPerInsert`` rows.
    static let insertChunk = insertHead + " " + (0..<rowsPerInsert).map(insertRow).joined(separator: ",\n")

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
        """

    /// The updated sessions, in the order of the changes (read through the batch table by row id: cheaper than
    /// `RETURNING`, which copies every row into a temporary table first).
    static let selectUpdated = """
        SELECT \(LedgerSQL.sessionColumns(prefix: "s."))
        FROM temp.forwarding_batch AS b JOIN sessions AS s ON s.id = b.b_session_id ORDER BY b.seq
        """

    static let insertTransitions = """
        INSERT INTO transitions (session_id, from_state, to_state, at, error, attempt, note)
        SELECT s.id, b.b_expected, b.b_new, b.b_at, b.b_error, s.payment_attempt, b.b_note
        FROM temp.forwarding_batch AS b
        JOIN sessions AS s ON s.id = b.b_session_id
        ORDER BY b.seq
        """
}
