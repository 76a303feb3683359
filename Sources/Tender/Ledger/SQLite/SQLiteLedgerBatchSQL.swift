import Foundation

/// The set-based batch's statements (``SetBasedBatch``), reading the batch from `tender_batch` (``SQLiteBatchRows``).
/// Each walks the batch and reaches each payment directly: through the unique (merchant, location, reference) index
/// to find it, then by its row id. (SQLite's planner, which has no statistics, could otherwise walk every stored
/// session of the scope for each change.)
enum BatchSQL {
    /// The payments of the batch's references (`?1`, `?2`: the scope), with their row ids, each followed by the
    /// batch row that asked for it.
    static let selectSessions = """
        SELECT \(LedgerSQL.sessionColumns(prefix: "s.")), b.rowid
        FROM tender_batch AS b JOIN sessions AS s ON s.id =
            (SELECT id FROM sessions WHERE merchant_id = ?1 AND location_id = ?2 AND reference = b.reference)
        """

    /// Writes each payment as the batch shows it after its change, in the columns `columns` (the state and time
    /// always; the card and error only from a change that carries them), with the compare-and-set on the expected
    /// state. One statement text per set of columns, each prepared once.
    static func update(_ columns: SetBasedBatch.Columns) -> String {
        var set = ["state = b.new_state", "updated_at = b.at"]
        if columns.contains(.route) { set.append("route = b.route") }
        if columns.contains(.processorPaymentID) { set.append("processor_payment_id = b.processor_payment_id") }
        if columns.contains(.localID) { set.append("local_id = b.local_id") }
        if columns.contains(.card) { set.append("card = COALESCE(b.card, sessions.card)") }
        if columns.contains(.error) { set.append("last_error = COALESCE(b.error, sessions.last_error)") }
        if columns.contains(.attempts) { set.append("attempts = b.attempts") }
        if columns.contains(.storedAt) { set.append("stored_at = b.stored_at") }
        if columns.contains(.storedSince) { set.append("stored_since = b.stored_since") }
        if columns.contains(.captureBefore) { set.append("capture_before = b.capture_before") }
        if columns.contains(.capturedAmount) { set.append("captured_amount = b.captured_amount") }
        return "UPDATE sessions SET " + set.joined(separator: ", ")
            + " FROM tender_batch AS b WHERE sessions.id = b.session_id AND sessions.state = b.expected"
    }

    /// The history rows of the changes that move a payment, or note something (a change that keeps the state
    /// without a note leaves no history, as ``SessionChange/apply(to:)``): an append, with no lookup.
    static let insertTransitions = """
        INSERT INTO transitions (session_id, from_state, to_state, at, error, attempt, note)
        SELECT session_id, expected, new_state, at, error, attempt, note FROM tender_batch
        WHERE new_state <> expected OR note IS NOT NULL
        """
}
