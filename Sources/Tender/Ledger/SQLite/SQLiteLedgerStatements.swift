import Foundation

/// Every statement the SQLite ledger prepares: each is prepared once per connection and reused. Values always reach
/// them through bindings.
enum LedgerSQL {
    // MARK: Sessions

    /// The columns ``SQLitePaymentLedger`` decodes a session from, in this order.
    static let sessionColumns = sessionColumns(prefix: "")

    /// How many columns ``sessionColumns`` has.
    static let sessionColumnCount = 27

    /// ``sessionColumns`` qualified by a table alias such as `s.`.
    static func sessionColumns(prefix: String) -> String {
        ["id", "merchant_id", "location_id", "reference", "processor", "amount", "currency", "currency_exponent", "tip",
         "tip_currency", "tip_currency_exponent", "capture_mode", "offline_policy", "route", "state",
         "processor_payment_id", "local_id", "card", "last_error", "attempts", "created_at", "updated_at", "stored_at",
         "payment_attempt", "capture_before", "captured_amount", "key_scheme"].map { prefix + $0 }
            .joined(separator: ", ")
    }

    static let insertSession = """
        INSERT INTO sessions (merchant_id, location_id, reference, processor, amount, currency, currency_exponent,
            tip, tip_currency, tip_currency_exponent, capture_mode, offline_policy, route, state, processor_payment_id,
            local_id, card, last_error, attempts, created_at, updated_at, stored_at, stored_since, payment_attempt,
            capture_before, captured_amount, key_scheme)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// The columns the row path of a change sets (those it changes), in the order of their bindings.
    struct SessionUpdate: OptionSet, Hashable {
        let rawValue: Int
        static let route = Self(rawValue: 1 << 0)
        static let state = Self(rawValue: 1 << 1)
        static let processorPaymentID = Self(rawValue: 1 << 2)
        static let localID = Self(rawValue: 1 << 3)
        static let card = Self(rawValue: 1 << 4)
        static let lastError = Self(rawValue: 1 << 5)
        static let attempts = Self(rawValue: 1 << 6)
        static let updatedAt = Self(rawValue: 1 << 7)
        static let storedAt = Self(rawValue: 1 << 8)
        static let storedSince = Self(rawValue: 1 << 9)
        static let paymentAttempt = Self(rawValue: 1 << 10)
        static let captureBefore = Self(rawValue: 1 << 11)
        static let capturedAmount = Self(rawValue: 1 << 12)

        /// Every column, in binding order.
        static let names = ["route", "state", "processor_payment_id", "local_id", "card", "last_error", "attempts",
                            "updated_at", "stored_at", "stored_since", "payment_attempt", "capture_before",
                            "captured_amount"]
    }

    /// The row path of a change: the columns in `columns`, bound in ``SessionUpdate/names`` order, then the row id
    /// and the expected state (a condition: compare-and-set).
    static func updateSession(_ columns: SessionUpdate) -> String {
        let assignments = SessionUpdate.names.indices.filter { columns.rawValue & (1 << $0) != 0 }
            .map { "\(SessionUpdate.names[$0]) = ?" }.joined(separator: ", ")
        return "UPDATE sessions SET \(assignments) WHERE id = ? AND state = ?"
    }

    /// An on-reader tip, recorded once (only on a session without a tip).
    static let recordTip = """
        UPDATE sessions SET tip = ?, tip_currency = ?, tip_currency_exponent = ? WHERE id = ? AND tip IS NULL
        """

    /// A new payment attempt clears the old attempt's card, which ``updateSession(_:)`` sets only to a card a change
    /// carries.
    static let clearCard = "UPDATE sessions SET card = NULL WHERE id = ?"

    static let insertTransition = """
        INSERT INTO transitions (session_id, from_state, to_state, at, error, attempt, note)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """

    static let insertScope = "INSERT OR IGNORE INTO scopes (merchant_id, location_id) VALUES (?, ?)"

    static let selectByReference =
        "SELECT \(sessionColumns) FROM sessions WHERE merchant_id = ? AND location_id = ? AND reference = ?"

    /// Through the index of the id's last eight characters (schema version 4), then the whole id and the scope
    /// (named: the planner, which has no statistics, would rather walk the scope's sessions).
    static let selectReferenceByLocalID = """
        SELECT reference FROM sessions INDEXED BY sessions_by_local_id_tail
        WHERE local_id_tail = substr(?3, -8) AND local_id = ?3 AND merchant_id = ?1 AND location_id = ?2
        ORDER BY id LIMIT 1
        """

    /// Through the index of the id's last eight characters (schema version 4), then the whole id and the scope
    /// (named: the planner, which has no statistics, would rather walk the scope's sessions).
    static let selectReferenceByProcessorID = """
        SELECT reference FROM sessions INDEXED BY sessions_by_processor_id_tail
        WHERE processor_payment_id_tail = substr(?3, -8) AND processor_payment_id = ?3
            AND merchant_id = ?1 AND location_id = ?2
        ORDER BY id LIMIT 1
        """

    static let selectAll =
        "SELECT \(sessionColumns) FROM sessions WHERE merchant_id = ? AND location_id = ? ORDER BY id"

    /// One statement per number of states (at most one per ``PaymentState`` case), each cached.
    static func selectInStates(count: Int) -> String {
        let placeholders = Array(repeating: "?", count: count).joined(separator: ", ")
        return "SELECT \(sessionColumns) FROM sessions WHERE merchant_id = ? AND location_id = ? "
            + "AND state IN (\(placeholders)) ORDER BY id"
    }

    static let selectTransitions =
        "SELECT from_state, to_state, at, error, attempt, note FROM transitions WHERE session_id = ? ORDER BY id"

    static let selectScopes = "SELECT merchant_id, location_id FROM scopes"

    // MARK: Stored aggregates

    static let addAggregate = """
        INSERT INTO stored_aggregates
            (merchant_id, location_id, currency, currency_exponent, stored_count, stored_amount)
        VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (merchant_id, location_id, currency)
        DO UPDATE SET stored_count = stored_count + excluded.stored_count,
            stored_amount = stored_amount + excluded.stored_amount
        """

    /// Removes `?1` payments totalling `?2` from one currency's aggregate.
    static let removeAggregates = """
        UPDATE stored_aggregates SET stored_count = stored_count - ?, stored_amount = stored_amount - ?
        WHERE merchant_id = ? AND location_id = ? AND currency = ?
        """

    static let deleteEmptyAggregate = """
        DELETE FROM stored_aggregates
        WHERE merchant_id = ? AND location_id = ? AND currency = ? AND stored_count <= 0
        """

    static let selectAggregates = """
        SELECT currency, currency_exponent, stored_count, stored_amount FROM stored_aggregates
        WHERE merchant_id = ? AND location_id = ?
        """

    static let selectOldestStored = """
        SELECT stored_since FROM sessions
        WHERE merchant_id = ? AND location_id = ? AND stored_since IS NOT NULL
        ORDER BY stored_since LIMIT 1
        """
}
