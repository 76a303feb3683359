import Foundation
#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// The embedded, durable ``PaymentLedger``: one SQLite file on the system SQLite library.
///
/// - **Durable**: WAL journal with `synchronous = FULL`, so that every commit is on disk (the WAL is synced) before
///   the call returns. `NORMAL` would be faster in WAL mode but may lose the last commits on power loss, and a lost
///   "about to charge" record is exactly what the ledger exists to prevent.
/// - **Atomic**: every write is one `BEGIN IMMEDIATE … COMMIT` transaction: the session row (compare-and-set on the
///   expected state, with the same rules as ``SessionChange/apply(to:)``), its append-only transition rows, and the
///   stored-payment aggregates move together.
/// - **Queue status without scanning**: counts and totals per currency of stored payments live in their own table,
///   updated in the same transaction as every write into or out of ``PaymentState/storedOffline``; the oldest stored
///   time is one index seek. Reading ``storedSummary(scope:)`` costs the same with 10 or 100,000 stored payments.
/// - **Scoped**: every query names the merchant and the location.
/// - **Private**: the file (and its `-wal` and `-shm` companions) is owner-only (0600). It holds no card number:
///   ``CardDetails`` cannot carry one.
/// - **Safe with bad files**: a file that is not SQLite, is truncated or corrupt, belongs to another application or
///   has a newer schema is refused with ``PaymentError/Code/ledgerUnavailable`` and left untouched: it is never
///   silently recreated.
/// - **Versioned**: the schema version is SQLite's `user_version`, upgraded by ordered migrations in one
///   transaction; the file is marked with Tender's `application_id`.
///
/// ```swift
/// let ledger = try SQLitePaymentLedger(url: appSupport.appendingPathComponent("tender-ledger.sqlite"))
/// ```
public actor SQLitePaymentLedger: PaymentLedger {
    /// The SQLite `application_id` that marks a Tender ledger: `0x54454E44`, "TEND" in ASCII.
    public static let applicationID: Int32 = 0x5445_4E44

    /// The schema version this build writes (SQLite `user_version`). Files with a newer version are refused.
    public static var schemaVersion: Int { migrations.last?.version ?? 0 }

    /// The ledger file.
    public nonisolated let url: URL

    private let db: SQLiteDatabase
    private let encoder: JSONEncoder
    private let decoder = JSONDecoder()

    /// Opens the ledger at `url`, creating it (owner-only) if it does not exist, and upgrading its schema if it was
    /// written by an older version of Tender.
    ///
    /// - Parameters:
    ///   - url: a file URL. Its directory must exist.
    ///   - busyTimeout: how long a write waits for another process holding the file's lock before failing.
    /// - Throws: ``PaymentError/Code/ledgerUnavailable`` when the file cannot be created or opened, or when an
    ///   existing file is not SQLite, is truncated or corrupt, belongs to another application, or has a newer
    ///   schema. Such a file is left untouched.
    public init(url: URL, busyTimeout: TimeInterval = 5) throws {
        self.url = url
        guard url.isFileURL else {
            throw PaymentError(.ledgerUnavailable, recovery: .fixIntegration, phase: .ledger,
                               message: "The ledger must be a file URL, not \(url.absoluteString).")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        self.encoder = encoder
        db = try Self.openLedger(path: url.path, busyTimeout: busyTimeout)
    }

    /// Closes the file. Later calls throw ``PaymentError/Code/ledgerUnavailable``. Closing is optional: the file is
    /// closed when the ledger is released.
    public func close() {
        db.close()
    }

    // MARK: PaymentLedger

    /// Records a new session, its transitions so far, and its effect on the stored aggregates, in one transaction.
    /// - Throws: ``PaymentError/Code/duplicateReference`` if the scope already has this reference;
    ///   ``PaymentError/Code/ledgerUnavailable`` if SQLite fails.
    public func insert(_ session: PaymentSession) throws {
        try guarded("insert \(session.reference)") {
            try db.writeTransaction { try insertRow(session) }
        }
    }

    /// Records many new sessions in one transaction (an import, a benchmark, a test fixture). All or none are
    /// recorded.
    /// - Throws: ``PaymentError/Code/duplicateReference`` if any reference is already in its scope (nothing is
    ///   recorded); ``PaymentError/Code/ledgerUnavailable`` if SQLite fails.
    public func insertBatch(_ sessions: [PaymentSession]) throws {
        try guarded("insert \(sessions.count) sessions") {
            try db.writeTransaction {
                for session in sessions { try insertRow(session) }
            }
        }
    }

    /// The session with this reference in the scope, or `nil`.
    public func session(reference: String, scope: LedgerScope, includingHistory: Bool) throws -> PaymentSession? {
        try guarded("read \(reference)") {
            try db.readTransaction { try loadSession(reference: reference, scope: scope, history: includingHistory)?.1 }
        }
    }

    /// The session holding this processor local id, or else this processor id, in the scope, with its history,
    /// or `nil`.
    public func session(localID: String?, processorPaymentID: String?, scope: LedgerScope) throws -> PaymentSession? {
        try guarded("look up a payment by processor id") {
            try db.readTransaction {
                var reference: String?
                if let localID {
                    try db.query(SQL.selectReferenceByLocalID,
                                 [.text(scope.merchantID), .text(scope.locationID), .text(localID)]) {
                        reference = $0.text(0)
                    }
                }
                if reference == nil, let processorPaymentID {
                    try db.query(SQL.selectReferenceByProcessorID,
                                 [.text(scope.merchantID), .text(scope.locationID), .text(processorPaymentID)]) {
                        reference = $0.text(0)
                    }
                }
                guard let reference else { return nil }
                return try loadSession(reference: reference, scope: scope, history: true)?.1
            }
        }
    }

    /// Applies a change atomically: in one transaction, reads the session, applies ``SessionChange/apply(to:)``
    /// (compare-and-set on the expected state, legal transitions only), writes the new columns with the expected
    /// state as a condition, appends the transition, and moves the stored aggregates. Returns the session with its
    /// history.
    /// - Throws: ``PaymentError/Code/unknownReference``, ``PaymentError/Code/invalidState``,
    ///   ``PaymentError/Code/illegalTransition`` (nothing is written), or ``PaymentError/Code/ledgerUnavailable``.
    public func record(_ change: SessionChange, scope: LedgerScope) throws -> PaymentSession {
        try guarded("record \(change.reference)") {
            try db.writeTransaction { try apply(change, scope: scope, history: true) }
        }
    }

    /// Applies several changes in one transaction: all are recorded or none is. Changes to the same reference apply
    /// in order. Returns the sessions after each change, without their history (read them with
    /// ``session(reference:scope:includingHistory:)`` when needed): one commit for a thousand forwarding results.
    /// - Throws: as ``record(_:scope:)``; nothing is written if any change fails.
    public func record(_ changes: [SessionChange], scope: LedgerScope) throws -> [PaymentSession] {
        guard !changes.isEmpty else { return [] }
        return try guarded("record \(changes.count) changes") {
            try db.writeTransaction { try changes.map { try apply($0, scope: scope, history: false) } }
        }
    }

    /// The body of a recorded change, inside the caller's write transaction.
    private func apply(_ change: SessionChange, scope: LedgerScope, history: Bool) throws -> PaymentSession {
        guard let (rowID, before) = try loadSession(reference: change.reference, scope: scope, history: history) else {
            throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .ledger,
                               message: "No payment \(change.reference) in \(scope).")
        }
        var after = before
        try change.apply(to: &after)
        try db.execute(SQL.updateSession, [
            .text(after.route?.rawValue), .text(after.state.rawValue), .text(after.processorPaymentID),
            .text(after.localID),
            // Card and error change only when the change carries them (`SessionChange.apply`): otherwise NULL keeps
            // the column, which spares two JSON encodings per forwarded payment.
            .text(change.card == nil ? nil : try json(after.card)),
            .text(change.error == nil ? nil : try json(after.lastError)),
            .integer(Int64(after.attempts)), .date(after.updatedAt), .date(after.storedAt),
            .date(Self.storedSince(after)), .integer(rowID), .text(before.state.rawValue),
        ])
        guard db.changes == 1 else {
            throw PaymentError(.invalidState, recovery: .retrySamePayment, phase: .ledger,
                               message: "\(change.reference) changed while it was being recorded.")
        }
        // `apply(to:)` appends exactly the new transitions after whatever history was loaded.
        for transition in after.transitions.dropFirst(before.transitions.count) {
            try insertTransition(transition, sessionRowID: rowID)
        }
        if before.state == .storedOffline { try removeFromAggregates(before) }
        if after.state == .storedOffline { try addToAggregates(after) }
        return after
    }

    /// The sessions with these references, without history, in one read transaction.
    public func sessions(references: [String], scope: LedgerScope) throws -> [String: PaymentSession] {
        guard !references.isEmpty else { return [:] }
        return try guarded("read \(references.count) sessions") {
            try db.readTransaction {
                var found: [String: PaymentSession] = [:]
                for reference in references {
                    if let (_, session) = try loadSession(reference: reference, scope: scope, history: false) {
                        found[reference] = session
                    }
                }
                return found
            }
        }
    }

    /// Sessions of the scope in any of `states`, oldest first, without history.
    public func sessions(in states: Set<PaymentState>, scope: LedgerScope) throws -> [PaymentSession] {
        guard !states.isEmpty else { return [] }
        return try guarded("list sessions") {
            let sorted = states.map(\.rawValue).sorted()
            var result: [PaymentSession] = []
            try db.query(SQL.selectInStates(count: sorted.count),
                         [.text(scope.merchantID), .text(scope.locationID)] + sorted.map { .text($0) }) {
                result.append(try decodeSession($0).1)
            }
            return result
        }
    }

    /// Every session of the scope, oldest first, without history.
    public func allSessions(scope: LedgerScope) throws -> [PaymentSession] {
        try guarded("list sessions") {
            var result: [PaymentSession] = []
            try db.query(SQL.selectAll, [.text(scope.merchantID), .text(scope.locationID)]) {
                result.append(try decodeSession($0).1)
            }
            return result
        }
    }

    /// The stored-payment count, totals per currency and oldest stored time of the scope, read from the aggregates
    /// table (one row per currency) and one index seek: its cost does not grow with the number of stored payments.
    public func storedSummary(scope: LedgerScope) throws -> StoredPaymentSummary {
        try guarded("read the stored-payment summary") { try readStoredSummary(scope: scope) }
    }

    /// Every scope that has sessions, sorted by `merchant/location`.
    public func scopes() throws -> [LedgerScope] {
        try guarded("list scopes") {
            var result: [LedgerScope] = []
            try db.query(SQL.selectScopes) {
                result.append(LedgerScope(merchantID: $0.text(0), locationID: $0.text(1)))
            }
            return result.sorted { $0.description < $1.description }
        }
    }

    // MARK: Diagnostics

    /// The connection's durability settings as SQLite reports them: `journal_mode`, `synchronous` (2 is FULL) and
    /// `foreign_keys`.
    func connectionSettings() throws -> [String: String] {
        try guarded("read its settings") {
            var settings: [String: String] = [:]
            for name in ["journal_mode", "synchronous", "foreign_keys"] {
                settings[name] = try db.scalarText("PRAGMA " + name) ?? ""
            }
            return settings
        }
    }

    /// SQLite's `EXPLAIN QUERY PLAN` for the queries behind ``storedSummary(scope:)``, one detail line per step,
    /// e.g. `SEARCH stored_aggregates USING PRIMARY KEY (merchant_id=? AND location_id=?)`. A line starting with
    /// `SCAN sessions` would mean the summary reads every session.
    public func explainStoredSummaryQuery(scope: LedgerScope) throws -> [String] {
        try guarded("explain the stored-payment summary") {
            var lines: [String] = []
            for sql in [SQL.selectAggregates, SQL.selectOldestStored] {
                try db.query("EXPLAIN QUERY PLAN " + sql, [.text(scope.merchantID), .text(scope.locationID)]) {
                    lines.append($0.text(3))
                }
            }
            return lines
        }
    }

    /// Reads the stored summary and reports how much work SQLite did for it: virtual-machine steps (which grow
    /// with every row visited) and full-scan steps (rows visited by a table scan), summed over its statements.
    func storedSummaryReadCost(scope: LedgerScope) throws
        -> (summary: StoredPaymentSummary, virtualMachineSteps: Int, fullScanSteps: Int) {
        try guarded("measure the stored-payment summary") {
            for sql in [SQL.selectAggregates, SQL.selectOldestStored] {
                _ = try db.statementStatus(sql, counter: SQLITE_STMTSTATUS_VM_STEP, reset: true)
                _ = try db.statementStatus(sql, counter: SQLITE_STMTSTATUS_FULLSCAN_STEP, reset: true)
            }
            let summary = try readStoredSummary(scope: scope)
            var steps = 0
            var scans = 0
            for sql in [SQL.selectAggregates, SQL.selectOldestStored] {
                steps += try db.statementStatus(sql, counter: SQLITE_STMTSTATUS_VM_STEP, reset: false)
                scans += try db.statementStatus(sql, counter: SQLITE_STMTSTATUS_FULLSCAN_STEP, reset: false)
            }
            return (summary, steps, scans)
        }
    }

    // MARK: Rows

    private func insertRow(_ session: PaymentSession) throws {
        do {
            try db.execute(SQL.insertSession, [
                .text(session.scope.merchantID), .text(session.scope.locationID), .text(session.reference),
                .text(session.processor), .integer(session.amount.minorUnits), .text(session.amount.currency.code),
                .integer(Int64(session.amount.currency.minorUnitExponent)), .integer(session.tip?.minorUnits),
                .text(session.tip?.currency.code), .integer(session.tip.map { Int64($0.currency.minorUnitExponent) }),
                .text(session.captureMode.rawValue), .text(session.offlinePolicy.rawValue),
                .text(session.route?.rawValue), .text(session.state.rawValue), .text(session.processorPaymentID),
                .text(session.localID), .text(try json(session.card)), .text(try json(session.lastError)),
                .integer(Int64(session.attempts)), .date(session.createdAt), .date(session.updatedAt),
                .date(session.storedAt), .date(Self.storedSince(session)),
            ])
        } catch let error as SQLiteError where error.extendedCode == SQLiteError.constraintUnique {
            throw PaymentError(.duplicateReference, recovery: .fixRequest, phase: .ledger,
                               message: "Reference \(session.reference) is already in the ledger.")
        }
        let rowID = db.lastInsertRowID
        for transition in session.transitions { try insertTransition(transition, sessionRowID: rowID) }
        try db.execute(SQL.insertScope, [.text(session.scope.merchantID), .text(session.scope.locationID)])
        if session.state == .storedOffline { try addToAggregates(session) }
    }

    private func insertTransition(_ transition: PaymentTransition, sessionRowID: Int64) throws {
        try db.execute(SQL.insertTransition, [
            .integer(sessionRowID), .text(transition.from?.rawValue), .text(transition.to.rawValue),
            .date(transition.at), .text(try json(transition.error)),
        ])
    }

    /// The time the in-memory ledger keys the oldest-stored aggregate by, or `nil` when not stored.
    private static func storedSince(_ session: PaymentSession) -> Date? {
        session.state == .storedOffline ? (session.storedAt ?? session.updatedAt) : nil
    }

    private func addToAggregates(_ session: PaymentSession) throws {
        let total = session.total
        try db.execute(SQL.addAggregate, [
            .text(session.scope.merchantID), .text(session.scope.locationID), .text(total.currency.code),
            .integer(Int64(total.currency.minorUnitExponent)), .integer(total.minorUnits),
        ])
    }

    private func removeFromAggregates(_ session: PaymentSession) throws {
        let total = session.total
        let key: [SQLiteValue] = [.text(session.scope.merchantID), .text(session.scope.locationID),
                                  .text(total.currency.code)]
        try db.execute(SQL.removeAggregate, [.integer(total.minorUnits)] + key)
        try db.execute(SQL.deleteEmptyAggregate, key)
    }

    private func readStoredSummary(scope: LedgerScope) throws -> StoredPaymentSummary {
        try db.readTransaction {
            let key: [SQLiteValue] = [.text(scope.merchantID), .text(scope.locationID)]
            var summary = StoredPaymentSummary()
            try db.query(SQL.selectAggregates, key) { row in
                let currency = try Currency(code: row.text(0), minorUnitExponent: Int(row.integer(1)))
                summary.count += Int(row.integer(2))
                summary.amounts[currency] = row.integer(3)
            }
            if summary.count > 0 {
                try db.query(SQL.selectOldestStored, key) { summary.oldestStoredAt = $0.date(0) }
            }
            return summary
        }
    }

    private func loadSession(reference: String, scope: LedgerScope, history: Bool) throws
        -> (Int64, PaymentSession)? {
        var found: (Int64, PaymentSession)?
        try db.query(SQL.selectByReference, [.text(scope.merchantID), .text(scope.locationID), .text(reference)]) {
            found = try decodeSession($0)
        }
        guard let (rowID, loaded) = found else { return nil }
        var session = loaded
        if history {
            try db.query(SQL.selectTransitions, [.integer(rowID)]) { row in
                session.transitions.append(PaymentTransition(
                    from: try row.optionalText(0).map { try decodeEnum(PaymentState.self, $0) },
                    to: try decodeEnum(PaymentState.self, row.text(1)),
                    at: row.date(2),
                    error: try decodeJSON(PaymentError.self, row.optionalText(3))))
            }
        }
        return (rowID, session)
    }

    /// Decodes a row of ``SQL/sessionColumns``. The session comes back without history.
    private func decodeSession(_ row: SQLiteRow) throws -> (Int64, PaymentSession) {
        let currency = try Currency(code: row.text(6), minorUnitExponent: Int(row.integer(7)))
        let amount = Money(minorUnits: row.integer(5), currency: currency)
        var tip: Money?
        if let tipUnits = row.optionalInteger(8), let code = row.optionalText(9), let exponent = row.optionalInteger(10) {
            tip = Money(minorUnits: tipUnits, currency: try Currency(code: code, minorUnitExponent: Int(exponent)))
        }
        let request = PaymentRequest(amount: amount, reference: row.text(3),
                                     captureMode: try decodeEnum(CaptureMode.self, row.text(11)),
                                     offlinePolicy: try decodeEnum(OfflinePolicy.self, row.text(12)), tip: tip)
        var session = PaymentSession(request: request,
                                     scope: LedgerScope(merchantID: row.text(1), locationID: row.text(2)),
                                     processor: row.text(4),
                                     route: try row.optionalText(13).map { try decodeEnum(PaymentRoute.self, $0) },
                                     at: row.date(20))
        session.state = try decodeEnum(PaymentState.self, row.text(14))
        session.processorPaymentID = row.optionalText(15)
        session.localID = row.optionalText(16)
        session.card = try decodeJSON(CardDetails.self, row.optionalText(17))
        session.lastError = try decodeJSON(PaymentError.self, row.optionalText(18))
        session.attempts = Int(row.integer(19))
        session.updatedAt = row.date(21)
        session.storedAt = row.optionalDate(22)
        session.transitions = []
        return (row.integer(0), session)
    }

    private func decodeEnum<T: RawRepresentable>(_ type: T.Type, _ raw: String) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: raw) else {
            throw PaymentError(.ledgerUnavailable, recovery: .fixIntegration, phase: .ledger,
                               message: "The ledger \(url.path) holds an unknown \(T.self) \"\(raw)\".")
        }
        return value
    }

    private func decodeJSON<T: Decodable>(_ type: T.Type, _ text: String?) throws -> T? {
        guard let text else { return nil }
        return try decoder.decode(T.self, from: Data(text.utf8))
    }

    private func json<T: Encodable>(_ value: T?) throws -> String? {
        guard let value else { return nil }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Runs `body`, turning SQLite and coding failures into ``PaymentError/Code/ledgerUnavailable``.
    private func guarded<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PaymentError {
            throw error
        } catch let error as SQLiteError {
            throw Self.unavailable(error, operation: operation, path: url.path)
        } catch {
            throw PaymentError(.ledgerUnavailable, recovery: .fixIntegration, phase: .ledger,
                               message: "The ledger \(url.path) could not \(operation): \(error).")
        }
    }

    private static func unavailable(_ error: SQLiteError, operation: String, path: String) -> PaymentError {
        let recovery: PaymentError.Recovery
        switch error.code {
        case SQLITE_BUSY, SQLITE_LOCKED: recovery = .waitAndRetry
        default: recovery = .fixIntegration
        }
        return PaymentError(.ledgerUnavailable, recovery: recovery, phase: .ledger,
                            message: "The ledger \(path) could not \(operation): \(error).")
    }
}

// MARK: - Opening, checking and migrating the file

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
    ]

    /// The refusal of a file that must be left alone.
    static func refused(_ path: String, _ why: String) -> PaymentError {
        PaymentError(.ledgerUnavailable, recovery: .fixIntegration, phase: .ledger,
                     message: "The ledger file \(path) \(why). Tender left it untouched; move it aside or restore a "
                        + "backup, and never delete it while it may hold payments.")
    }

    /// Creates or checks the file, then opens it for writing, enables WAL and migrates.
    static func openLedger(path: String, busyTimeout: TimeInterval) throws -> SQLiteDatabase {
        rollBackHotJournal(path: path)
        if let status = LedgerFile.status(path) {
            guard LedgerFile.isRegularFile(status.mode) else { throw refused(path, "is not a regular file") }
            if status.size > 0 {
                try checkExisting(path: path, size: status.size)
            }
            // A file that passed the checks (or an empty one) is Tender's: keep it owner-only.
            if status.mode & 0o077 != 0 { LedgerFile.makeOwnerOnly(path) }
        } else if let code = LedgerFile.createOwnerOnly(path), code != EEXIST {
            throw PaymentError(.ledgerUnavailable, recovery: .fixIntegration, phase: .ledger,
                               message: "The ledger file \(path) could not be created: "
                                + "\(LedgerFile.describe(errno: code)).")
        }

        let db: SQLiteDatabase
        do {
            db = try SQLiteDatabase(path: path, mode: .readWrite)  // never creates: the file was made owner-only above
            db.setBusyTimeout(milliseconds: Int32(clamping: Int((busyTimeout * 1000).rounded())))
            let mode = try db.scalarText("PRAGMA journal_mode = WAL")
            guard mode?.lowercased() == "wal" else {
                throw SQLiteError(extendedCode: SQLITE_ERROR, message: "WAL mode unavailable (journal mode \(mode ?? "?"))")
            }
            // FULL: the WAL is synced on every commit, so a returned write survives power loss.
            try db.executeScript("""
                PRAGMA synchronous = FULL;
                PRAGMA foreign_keys = ON;
                PRAGMA trusted_schema = OFF;
                PRAGMA cell_size_check = ON;
                """)
            try migrate(db, path: path)
        } catch let error as PaymentError {
            throw error
        } catch let error as SQLiteError {
            throw unavailable(error, operation: "be opened", path: path)
        }
        for suffix in ["-wal", "-shm"] {
            if let status = LedgerFile.status(path + suffix), status.mode & 0o077 != 0 {
                LedgerFile.makeOwnerOnly(path + suffix)
            }
        }
        return db
    }

    /// A process killed in the middle of a rollback-journal transaction (for example while the very first open
    /// switched a new file to WAL) leaves a "hot" `-journal` beside the file. The read-only connection of the checks
    /// cannot roll it back (SQLITE_READONLY_ROLLBACK), which would refuse a healthy ledger forever; so let SQLite do
    /// its standard recovery on a read-write connection first. Only done when a non-empty journal is present; a file
    /// that is not SQLite is left as it is and refused by the checks.
    private static func rollBackHotJournal(path: String) {
        guard let journal = LedgerFile.status(path + "-journal"), journal.size > 0,
              let status = LedgerFile.status(path), LedgerFile.isRegularFile(status.mode), status.size > 0,
              let db = try? SQLiteDatabase(path: path, mode: .readWrite)
        else { return }
        _ = try? db.scalarInteger("SELECT COUNT(*) FROM sqlite_master")  // the first read rolls the journal back
        db.close()
    }

    /// Checks an existing, non-empty file without writing to it: the SQLite header, its size, the application id,
    /// the schema version and `PRAGMA quick_check`, on a read-only connection.
    private static func checkExisting(path: String, size: Int64) throws {
        let header: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            header = try handle.read(upToCount: 100) ?? Data()
        } catch {
            throw refused(path, "cannot be read (\(error))")
        }
        let magic = Data("SQLite format 3\u{0}".utf8)
        guard header.count == 100, header.prefix(16) == magic else {
            throw refused(path, "is not an SQLite database (its first bytes are not an SQLite header): it is corrupt "
                            + "or another kind of file")
        }
        let bytes = [UInt8](header)
        func bigEndian(_ offset: Int, _ count: Int) -> UInt64 {
            bytes[offset..<offset + count].reduce(0) { $0 << 8 | UInt64($1) }
        }
        let rawPageSize = bigEndian(16, 2)
        let pageSize: UInt64 = rawPageSize == 1 ? 65_536 : rawPageSize
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else {
            throw refused(path, "is corrupt: its header gives an invalid page size \(rawPageSize)")
        }
        guard UInt64(size) % pageSize == 0 else {
            throw refused(path, "is truncated: \(size) bytes is not a whole number of \(pageSize)-byte pages")
        }
        let pageCount = bigEndian(28, 4)
        if pageCount > 0, bigEndian(24, 4) == bigEndian(92, 4), pageCount * pageSize > UInt64(size) {
            throw refused(path, "is truncated: its header declares \(pageCount) pages of \(pageSize) bytes "
                            + "(\(pageCount * pageSize) bytes) but the file has \(size) bytes")
        }

        // Without a -wal or -journal beside it the file is complete on its own: read it as immutable, so that even
        // the -wal and -shm files a read-only connection to a WAL database creates are not created.
        let hasSidecar = ["-wal", "-journal"].contains { LedgerFile.status(path + $0) != nil }
        let reader: SQLiteDatabase
        do {
            reader = try SQLiteDatabase(path: path, mode: hasSidecar ? .readOnly : .readOnlyImmutable)
        } catch let error as SQLiteError {
            throw refused(path, "cannot be opened read-only to check it: \(error)")
        }
        defer { reader.close() }
        do {
            let applicationID = Int32(truncatingIfNeeded: try reader.scalarInteger("PRAGMA application_id") ?? 0)
            let version = try reader.scalarInteger("PRAGMA user_version") ?? 0
            let objects = try reader.scalarInteger("SELECT COUNT(*) FROM sqlite_master") ?? 0
            if applicationID != SQLitePaymentLedger.applicationID {
                if applicationID != 0 {
                    throw refused(path, "belongs to another application (SQLite application_id "
                                    + "0x\(String(UInt32(bitPattern: applicationID), radix: 16)), not Tender's "
                                    + "0x\(String(UInt32(bitPattern: SQLitePaymentLedger.applicationID), radix: 16)))")
                }
                if objects > 0 {
                    throw refused(path, "is an SQLite database of another application (no Tender application_id, "
                                    + "\(objects) schema objects)")
                }
            }
            if version > Int64(schemaVersion) {
                throw refused(path, "has schema version \(version), newer than this version of Tender understands "
                                + "(\(schemaVersion)): it was written by a newer app")
            }
            let required = migrations.filter { $0.version <= version }.flatMap(\.tables)
            var present: Set<String> = []
            try reader.query("SELECT name FROM sqlite_master WHERE type = 'table'") { present.insert($0.text(0)) }
            let missing = required.filter { !present.contains($0) }
            guard missing.isEmpty else {
                throw refused(path, "is damaged: schema version \(version) but the tables "
                                + missing.joined(separator: ", ") + " are missing")
            }
            var problems: [String] = []
            try reader.query("PRAGMA quick_check") { problems.append($0.text(0)) }
            guard problems == ["ok"] else {
                throw refused(path, "is corrupt: quick_check reported "
                                + problems.prefix(3).joined(separator: "; "))
            }
        } catch let error as SQLiteError {
            throw refused(path, "is corrupt or unreadable: \(error)")
        }
    }

    /// Brings the schema to ``schemaVersion`` in one transaction, re-checking identity under the write lock.
    private static func migrate(_ db: SQLiteDatabase, path: String) throws {
        try db.writeTransaction {
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
            guard version < schemaVersion || applicationID != SQLitePaymentLedger.applicationID else { return }
            for migration in migrations where migration.version > version {
                try db.executeScript(migration.sql)
            }
            // Constants of this file, not values from outside: PRAGMA arguments cannot be bound.
            try db.executeScript("""
                PRAGMA application_id = \(SQLitePaymentLedger.applicationID);
                PRAGMA user_version = \(schemaVersion);
                """)
        }
    }
}

// MARK: - SQL

/// Every statement the ledger prepares. Each is prepared once per connection and reused.
private enum SQL {
    static let sessionColumns = """
        id, merchant_id, location_id, reference, processor, amount, currency, currency_exponent, tip, tip_currency,
        tip_currency_exponent, capture_mode, offline_policy, route, state, processor_payment_id, local_id, card,
        last_error, attempts, created_at, updated_at, stored_at
        """

    static let insertSession = """
        INSERT INTO sessions (merchant_id, location_id, reference, processor, amount, currency, currency_exponent,
            tip, tip_currency, tip_currency_exponent, capture_mode, offline_policy, route, state, processor_payment_id,
            local_id, card, last_error, attempts, created_at, updated_at, stored_at, stored_since)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static let updateSession = """
        UPDATE sessions SET route = ?, state = ?, processor_payment_id = ?, local_id = ?, card = COALESCE(?, card),
            last_error = COALESCE(?, last_error),
            attempts = ?, updated_at = ?, stored_at = ?, stored_since = ?
        WHERE id = ? AND state = ?
        """

    static let insertTransition =
        "INSERT INTO transitions (session_id, from_state, to_state, at, error) VALUES (?, ?, ?, ?, ?)"

    static let insertScope = "INSERT OR IGNORE INTO scopes (merchant_id, location_id) VALUES (?, ?)"

    static let addAggregate = """
        INSERT INTO stored_aggregates
            (merchant_id, location_id, currency, currency_exponent, stored_count, stored_amount)
        VALUES (?, ?, ?, ?, 1, ?)
        ON CONFLICT (merchant_id, location_id, currency)
        DO UPDATE SET stored_count = stored_count + 1, stored_amount = stored_amount + excluded.stored_amount
        """

    static let removeAggregate = """
        UPDATE stored_aggregates SET stored_count = stored_count - 1, stored_amount = stored_amount - ?
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

    static let selectByReference =
        "SELECT \(sessionColumns) FROM sessions WHERE merchant_id = ? AND location_id = ? AND reference = ?"

    static let selectReferenceByLocalID = """
        SELECT reference FROM sessions WHERE merchant_id = ? AND location_id = ? AND local_id = ?
        ORDER BY id LIMIT 1
        """

    static let selectReferenceByProcessorID = """
        SELECT reference FROM sessions WHERE merchant_id = ? AND location_id = ? AND processor_payment_id = ?
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
        "SELECT from_state, to_state, at, error FROM transitions WHERE session_id = ? ORDER BY id"

    static let selectScopes = "SELECT merchant_id, location_id FROM scopes"
}
