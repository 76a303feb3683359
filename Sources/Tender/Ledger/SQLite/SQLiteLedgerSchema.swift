import Foundation

// The SQLite ledger's schema: ordered, versioned migrations (SQLite's `user_version`), applied in one transaction.

extension SQLitePaymentLedger {
    /// One step of the schema: applied in order, in one transaction with the others, from the file's
    /// `user_version` to ``SQLitePaymentLedger/schemaVersion``.
    struct Migration: Sendable {
        /// The version the file has after this step.
        let version: Int
        /// What it changes.
        let summary: String
        /// The tables it creates, which every file at this version or later must have.
        let tables: [String]
        /// The SQL script.
        let sql: String
    }

    /// Every migration, in order. Never edit a released step: add a new one.
    static let migrations: [Migration] = [
        Migration(version: 1, summary: "sessions and append-only transitions", tables: ["sessions", "transitions"],
                  sql: """
            CREATE TABLE sessions (
                id INTEGER PRIMARY KEY,
                merchant_id TEXT NOT NULL,
                location_id TEXT NOT NULL,
                reference TEXT NOT NULL,
                processor TEXT NOT NULL,
                amount INTEGER NOT NULL,
                currency TEXT NOT NULL,
                currency_exponent INTEGER NOT NULL,
                tip INTEGER,
                tip_currency TEXT,
                tip_currency_exponent INTEGER,
                capture_mode TEXT NOT NULL,
                offline_policy TEXT NOT NULL,
                route TEXT,
                state TEXT NOT NULL,
                processor_payment_id TEXT,
                local_id TEXT,
                card TEXT,
                last_error TEXT,
                attempts INTEGER NOT NULL,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                stored_at REAL,
                UNIQUE (merchant_id, location_id, reference)
            );
            CREATE INDEX sessions_by_state ON sessions (merchant_id, location_id, state);
            CREATE INDEX sessions_by_local_id ON sessions (merchant_id, location_id, local_id)
                WHERE local_id IS NOT NULL;
            CREATE INDEX sessions_by_processor_id ON sessions (merchant_id, location_id, processor_payment_id)
                WHERE processor_payment_id IS NOT NULL;
            CREATE TABLE transitions (
                id INTEGER PRIMARY KEY,
                session_id INTEGER NOT NULL REFERENCES sessions (id),
                from_state TEXT,
                to_state TEXT NOT NULL,
                at REAL NOT NULL,
                error TEXT
            );
            CREATE INDEX transitions_by_session ON transitions (session_id, id);
            CREATE TRIGGER transitions_are_append_only_update BEFORE UPDATE ON transitions
                BEGIN SELECT RAISE(ABORT, 'transitions are append-only'); END;
            CREATE TRIGGER transitions_are_append_only_delete BEFORE DELETE ON transitions
                BEGIN SELECT RAISE(ABORT, 'transitions are append-only'); END;
            """),
        Migration(version: 2, summary: "stored-payment aggregates, oldest-stored index, scopes",
                  tables: ["stored_aggregates", "scopes"], sql: """
            ALTER TABLE sessions ADD COLUMN stored_since REAL;
            UPDATE sessions SET stored_since = COALESCE(stored_at, updated_at) WHERE state = 'storedOffline';
            CREATE INDEX sessions_by_stored_since ON sessions (merchant_id, location_id, stored_since)
                WHERE stored_since IS NOT NULL;
            CREATE TABLE stored_aggregates (
                merchant_id TEXT NOT NULL,
                location_id TEXT NOT NULL,
                currency TEXT NOT NULL,
                currency_exponent INTEGER NOT NULL,
                stored_count INTEGER NOT NULL,
                stored_amount INTEGER NOT NULL,
                PRIMARY KEY (merchant_id, location_id, currency)
            ) WITHOUT ROWID;
            INSERT INTO stored_aggregates
                (merchant_id, location_id, currency, currency_exponent, stored_count, stored_amount)
                SELECT merchant_id, location_id, currency, MIN(currency_exponent), COUNT(*),
                       SUM(amount + CASE WHEN tip_currency = currency THEN tip ELSE 0 END)
                FROM sessions WHERE state = 'storedOffline' GROUP BY merchant_id, location_id, currency;
            CREATE TABLE scopes (
                merchant_id TEXT NOT NULL,
                location_id TEXT NOT NULL,
                PRIMARY KEY (merchant_id, location_id)
            ) WITHOUT ROWID;
            INSERT INTO scopes (merchant_id, location_id) SELECT DISTINCT merchant_id, location_id FROM sessions;
            """),
        Migration(version: 3, summary: "payment attempts, capture deadlines, history notes, refunds and their history",
                  tables: ["refunds", "refund_history"], sql: """
            ALTER TABLE sessions ADD COLUMN payment_attempt INTEGER NOT NULL DEFAULT 1;
            ALTER TABLE sessions ADD COLUMN capture_before REAL;
            ALTER TABLE transitions ADD COLUMN attempt INTEGER NOT NULL DEFAULT 1;
            ALTER TABLE transitions ADD COLUMN note TEXT;
            CREATE TABLE refunds (
                id INTEGER PRIMARY KEY,
                session_id INTEGER NOT NULL REFERENCES sessions (id),
                merchant_id TEXT NOT NULL,
                location_id TEXT NOT NULL,
                idempotency_key TEXT NOT NULL,
                number INTEGER NOT NULL,
                amount INTEGER NOT NULL,
                currency TEXT NOT NULL,
                currency_exponent INTEGER NOT NULL,
                reason TEXT,
                status TEXT NOT NULL,
                processor_refund_id TEXT,
                through_reader INTEGER NOT NULL,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                error TEXT,
                UNIQUE (merchant_id, location_id, idempotency_key)
            );
            CREATE INDEX refunds_by_session ON refunds (session_id, id);
            CREATE INDEX refunds_by_status ON refunds (merchant_id, location_id, status, id);
            CREATE TRIGGER refunds_are_never_deleted BEFORE DELETE ON refunds
                BEGIN SELECT RAISE(ABORT, 'refunds are never deleted'); END;
            CREATE TRIGGER refunds_keep_what_was_asked BEFORE UPDATE OF session_id, merchant_id, location_id,
                idempotency_key, number, amount, currency, currency_exponent, through_reader, created_at ON refunds
                BEGIN SELECT RAISE(ABORT, 'a refund keeps its payment, key, number and amount'); END;
            CREATE TABLE refund_history (
                id INTEGER PRIMARY KEY,
                refund_id INTEGER NOT NULL REFERENCES refunds (id),
                from_status TEXT,
                to_status TEXT NOT NULL,
                at REAL NOT NULL,
                processor_refund_id TEXT,
                error TEXT
            );
            CREATE INDEX refund_history_by_refund ON refund_history (refund_id, id);
            CREATE TRIGGER refund_history_is_append_only_update BEFORE UPDATE ON refund_history
                BEGIN SELECT RAISE(ABORT, 'refund history is append-only'); END;
            CREATE TRIGGER refund_history_is_append_only_delete BEFORE DELETE ON refund_history
                BEGIN SELECT RAISE(ABORT, 'refund history is append-only'); END;
            """),
        // Processor and local ids are random strings (Stripe `pi_…`, Square ids and local UUIDs): every payment
        // forwarded inserts one at a random place of the processor-id index. Keyed by merchant, location and the
        // whole id, its entries were long (often 80 bytes and more), so a thousand results dirtied most of its pages.
        // Keyed by the id's last eight characters (the lookups compare the whole id and the scope on the row), an
        // entry is a few bytes: a batch dirties a fraction of the pages, and writes that much less to the WAL. The
        // keys are virtual generated columns (computed, never stored in the row): SQLite 3.40 does not search a
        // partial index on an expression of a TEXT column.
        Migration(version: 4, summary: "compact indexes of processor and local ids", tables: [], sql: """
            DROP INDEX sessions_by_processor_id;
            DROP INDEX sessions_by_local_id;
            ALTER TABLE sessions ADD COLUMN processor_payment_id_tail TEXT
                GENERATED ALWAYS AS (substr(processor_payment_id, -8)) VIRTUAL;
            ALTER TABLE sessions ADD COLUMN local_id_tail TEXT GENERATED ALWAYS AS (substr(local_id, -8)) VIRTUAL;
            CREATE INDEX sessions_by_processor_id_tail ON sessions (processor_payment_id_tail)
                WHERE processor_payment_id IS NOT NULL;
            CREATE INDEX sessions_by_local_id_tail ON sessions (local_id_tail) WHERE local_id IS NOT NULL;
            """),
        // What a manual capture took, in the session's currency (a partial capture takes less than the total). NULL
        // for a payment captured automatically, not captured yet, or captured before this version: its whole total.
        Migration(version: 5, summary: "captured amounts of manual captures", tables: [], sql: """
            ALTER TABLE sessions ADD COLUMN captured_amount INTEGER;
            """),
        // Idempotency keys unique per merchant, location, reference, attempt and operation. Sessions already
        // recorded keep the reference-only vendor attempt ids they were started with (key_scheme 1, the default); new
        // ones are written with 2. Refunds keep their recorded ids (the key is the id). Succeeded refunds are
        // followed until their processor can no longer change them, found by status and time of their last change.
        Migration(version: 6, summary: "per-session idempotency key scheme, refunds by status and time", tables: [],
                  sql: """
            ALTER TABLE sessions ADD COLUMN key_scheme INTEGER NOT NULL DEFAULT 1;
            CREATE INDEX refunds_by_status_and_time ON refunds (merchant_id, location_id, status, updated_at);
            """),
    ]

    /// Brings the schema to ``schemaVersion`` in one transaction, re-checking identity under the write lock.
    /// Upgrades the schema in one durable transaction; returns whether it wrote anything (a migration ran, which
    /// synced the WAL).
    @discardableResult
    static func migrate(_ db: SQLiteDatabase, path: String) throws -> Bool {
        try db.writeTransaction(durable: true) {
            let applicationID = Int32(truncatingIfNeeded: try db.scalarInteger("PRAGMA application_id") ?? 0)
            let version = Int(try db.scalarInteger("PRAGMA user_version") ?? 0)
            if applicationID != SQLitePaymentLedger.applicationID {
                let objects = try db.scalarInteger("SELECT COUNT(*) FROM sqlite_master") ?? 0
                guard applicationID == 0, objects == 0 else {
                    throw refused(path, "changed into another application's database while it was being opened")
                }
            }
            guard version <= schemaVersion else {
                throw refused(path, "has schema version \(version), newer than this version of Tender understands "
                                + "(\(schemaVersion))")
            }
            guard version < schemaVersion || applicationID != SQLitePaymentLedger.applicationID else { return false }
            for migration in migrations where migration.version > version {
                try db.executeScript(migration.sql)
            }
            // Constants of this file, not values from outside: PRAGMA arguments cannot be bound.
            try db.executeScript("""
                PRAGMA application_id = \(SQLitePaymentLedger.applicationID);
                PRAGMA user_version = \(schemaVersion);
                """)
            return true
        }
    }
}
