public import Foundation
import CSQLite

/// The embedded, durable `PaymentLedger`: one SQLite file on the system SQLite library.
///
/// - **Durable where recovery needs it**: WAL journal. Every change is committed before the call returns, and a
///   process kill never loses a committed change (its WAL frames are in the operating system's cache). What
///   recovery needs is also synced to disk before the call returns (`synchronous = FULL` for that commit): every
///   new session (the write-ahead record), every change whose `SessionChange/requiresDurableSync` is true (an
///   outcome, a retry, a new attempt), every new refund and the first answer about it (see
///   `recordRefund(_:scope:)`); a batch is durable if any of its changes is. The other changes (intermediate
///   states, what the vendor keeps and can be asked again) are committed with `synchronous = NORMAL` and reach
///   the disk with the next durable commit, or when the ledger is closed: syncing the WAL flushes the whole
///   file, and its frames are checksummed cumulatively, so a durable commit is only valid after a power loss
///   together with every commit before it. A typical payment costs two syncs: its write-ahead record and its outcome
///   (the facade records the intermediate states in the outcome's commit, and commits unsynced only a vendor id
///   learned before the outcome); a refund two more. Checkpoints (copying the WAL into the file) sync too — the WAL, the database file,
///   and the new log's header — so they are kept out of the day's payments: closing leaves the WAL beside the file
///   (part of the ledger, replayed by the next opening), opening checkpoints a WAL holding more than 4 MiB of log,
///   and the automatic checkpoint runs only past 32 MiB, for an app that keeps the ledger open for days.
///   ``checkpoint()`` makes the file stand alone.
/// - **Syncs that overwrite**: a restarted log reuses the `-wal` file in place, up to about 32 MiB (a checkpoint's
///   worth of log), so after the file's first checkpoint a commit's sync rewrites allocated bytes instead of growing
///   the file (growing it makes every sync also record the file's new size: about twice the cost, measured). The
///   `-wal` file thus stays at up to about 32 MiB on disk; ``checkpoint()`` empties it.
/// - **Atomic**: every write is one `BEGIN IMMEDIATE … COMMIT` transaction: the session row (compare-and-set on the
///   expected state, with the same rules as `SessionChange/apply(to:)`), its append-only transition rows, and the
///   stored-payment aggregates move together. Forwarding results (many changes in one batch) are applied with
///   set-based statements.
/// - **Queue status without scanning**: counts and totals per currency of stored payments live in their own table,
///   updated in the same transaction as every write into or out of ``PaymentState/storedOffline``; the oldest stored
///   time is one index seek. Reading `storedSummary(scope:)` costs the same with 10 or 100,000 stored payments.
/// - **Refunds**: recorded write-ahead with their append-only history; the refundable amount is checked inside the
///   write transaction that records a refund, so two refunds can never together exceed what was captured.
/// - **Scoped**: every query names the merchant and the location.
/// - **Private**: the file (and its `-wal` and `-shm` companions) is owner-only (0600). It holds no card number:
///   ``CardDetails`` cannot carry one. The file and its `-wal` are the ledger together: a copy or a backup takes
///   both (or follows ``checkpoint()``), and neither is ever deleted alone.
/// - **Opens after any kill or power loss, refuses bad files**: SQLite's own recovery runs first (a hot rollback
///   journal is rolled back, a WAL is replayed, a torn or half-written commit at its end dropped), then the file is
///   checked. After a power loss it holds what was synced: every write-ahead record and outcome, perhaps not the
///   intermediate states after the last sync. A file that is not SQLite, belongs to another application, has a
///   newer schema, or is truncated or corrupt after recovery is refused with ``PaymentError/Code/ledgerUnavailable``
///   and left untouched: it is never silently recreated.
/// - **Versioned**: the schema version is SQLite's `user_version`, upgraded by ordered migrations in one
///   transaction; the file is marked with Tender's `application_id`.
///
/// - **Off the cooperative pool**: the ledger runs on a thread of its own (its actor's serial executor), so SQLite's
///   blocking calls (`sqlite3_step`, `fsync`) and opening's checks never hold one of Swift's cooperative threads or
///   the main actor. Opening is `async` for the same reason.
///
/// ```swift
/// let ledger = try await SQLitePaymentLedger.open(url: applicationSupport.appending(path: "tender-ledger.sqlite"))
/// ```
public actor SQLitePaymentLedger: PaymentLedger {
    /// The SQLite `application_id` that marks a Tender ledger: `0x54454E44`, "TEND" in ASCII.
    package static let applicationID: Int32 = 0x5445_4E44

    /// The schema version this build writes (SQLite `user_version`). Files with a newer version are refused.
    package static var schemaVersion: Int { migrations.last?.version ?? 0 }

    /// The ledger file.
    public nonisolated let url: URL

    let db: SQLiteDatabase
    let encoder: JSONEncoder
    let decoder = JSONDecoder()
    let currencies = CurrencyCache()
    /// What the connection's `tender_batch` table shows while a set-based batch is applied.
    let batchRows: SQLiteBatchRows
    /// How the file was opened (the package's test support and tools only; the default for apps).
    let options: SQLiteLedgerOptions
    /// The text of the row path's UPDATE for each set of columns seen (``LedgerSQL/updateSession(_:)``).
    private var updateStatements: [Int: String] = [:]
    /// The thread the ledger runs on.
    nonisolated let executor: LedgerExecutor
    /// ``db`` again, for the `deinit` to close it on the ledger's thread (nothing else reads it).
    private let connection: UncheckedResult<SQLiteDatabase>

    /// The ledger's serial executor: its own thread, not Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Opens the ledger at `url`, creating it (owner-only) if it does not exist, recovering it if a process was
    /// killed while writing it, and upgrading its schema if it was written by an older version of Tender. The work
    /// (file checks, SQLite's recovery, `PRAGMA quick_check`, the first sync) runs on the ledger's own thread: the
    /// caller's actor, the main actor included, is free while it runs.
    ///
    /// - Parameters:
    ///   - url: a file URL. Its directory must exist.
    ///   - busyTimeout: how long a write waits for another process holding the file's lock before failing.
    /// - Throws: ``PaymentError/Code/ledgerUnavailable`` when the file cannot be created or opened, or when an
    ///   existing file is not SQLite, belongs to another application, has a newer schema, or is truncated or
    ///   corrupt after SQLite's recovery. Such a file is left untouched.
    public static func open(url: URL, busyTimeout: TimeInterval = 5) async throws -> SQLitePaymentLedger {
        try await open(url: url, busyTimeout: busyTimeout, options: SQLiteLedgerOptions())
    }

    /// Opens the ledger with package-only `options`: through another SQLite VFS (test support: the power-loss VFS,
    /// the sync-counting VFS), or, for the power-loss harness's self-check, without syncing the write-ahead records.
    package static func open(url: URL, busyTimeout: TimeInterval = 5,
                             options: SQLiteLedgerOptions) async throws -> SQLitePaymentLedger {
        guard url.isFileURL else {
            throw PaymentError(.ledgerUnavailable, recovery: .fixIntegration, phase: .ledger,
                               message: "The ledger must be a file URL, not \(url.absoluteString).")
        }
        let executor = LedgerExecutor()
        let batchRows = UncheckedResult(value: SQLiteBatchRows())
        let path = url.path
        do {
            let db = try await executor.perform {
                try openLedger(path: path, busyTimeout: busyTimeout, batchRows: batchRows.value,
                               vfs: options.vfsName, vfsOwner: options.vfsOwner)
            }
            return SQLitePaymentLedger(url: url, db: db.value, batchRows: batchRows.value, executor: executor,
                                       options: options)
        } catch {
            executor.stop()
            throw error
        }
    }

    private init(url: URL, db: SQLiteDatabase, batchRows: SQLiteBatchRows, executor: LedgerExecutor,
                 options: SQLiteLedgerOptions) {
        self.url = url
        self.db = db
        connection = UncheckedResult(value: db)
        self.batchRows = batchRows
        self.executor = executor
        self.options = options
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        self.encoder = encoder
    }

    deinit {
        // The connection is closed on the ledger's thread too (closing may sync the WAL); the thread ends after it.
        let connection = connection
        executor.stop(after: { connection.value.close() })
    }

    /// What keeps the SQLite VFS the ledger opened through registered (test support, e.g. the sync-counting VFS
    /// through which tender-bench counts syncs); `nil` for SQLite's default VFS.
    package nonisolated var vfsOwner: (any AnyObject & Sendable)? { options.vfsOwner }

    /// Closes the file. Commits not yet synced (intermediate states, results the vendor keeps) are synced first,
    /// one sync of the WAL, so that a closed ledger is wholly on disk; otherwise closing syncs nothing. The WAL is
    /// not checkpointed: it stays beside the file with its index (`-wal`, `-shm`) and the next opening replays it.
    /// Later calls throw ``PaymentError/Code/ledgerUnavailable``. Closing is optional: the file is closed when the
    /// ledger is released (without that last sync).
    public func close() {
        db.close()
    }

    /// Copies everything in the WAL into the database file and empties the WAL, so that the file alone holds the
    /// whole ledger (before copying it elsewhere, or at a quiet moment). Costs two syncs (the WAL, then the file)
    /// and one more at the next commit (the new log's header); waits up to the busy timeout for readers in other
    /// connections.
    /// - Throws: ``PaymentError/Code/ledgerUnavailable`` if SQLite fails or a reader kept part of the WAL busy.
    public func checkpoint() throws {
        try guarded("checkpoint its WAL") {
            let (frames, checkpointed) = try db.checkpoint(mode: SQLITE_CHECKPOINT_TRUNCATE)
            guard checkpointed == frames else {
                throw SQLiteError(extendedCode: SQLITE_BUSY, message: "a reader kept \(frames - checkpointed) frames")
            }
        }
    }

    // MARK: Sessions

    /// Records a new session, its transitions so far, and its effect on the stored aggregates, in one durable
    /// transaction (the write-ahead record: synced before this returns).
    /// - Throws: ``PaymentError/Code/duplicateReference`` if the scope already has this reference;
    ///   ``PaymentError/Code/ledgerUnavailable`` if SQLite fails.
    package func insert(_ session: PaymentSession) throws {
        try guarded("insert \(session.reference)") {
            try db.writeTransaction(durable: options.syncsWriteAhead) { try insertRow(session) }
        }
    }

    /// Records many new sessions in one durable transaction (an import, a benchmark, a test fixture). All or none
    /// are recorded.
    /// - Throws: ``PaymentError/Code/duplicateReference`` if any reference is already in its scope (nothing is
    ///   recorded); ``PaymentError/Code/ledgerUnavailable`` if SQLite fails.
    package func insertBatch(_ sessions: [PaymentSession]) throws {
        try guarded("insert \(sessions.count) sessions") {
            try db.writeTransaction(durable: options.syncsWriteAhead) {
                for session in sessions { try insertRow(session) }
            }
        }
    }

    /// The session with this reference in the scope, with its refunds, or `nil`.
    package func session(reference: String, scope: LedgerScope, includingHistory: Bool) throws -> PaymentSession? {
        try guarded("read \(reference)") {
            try db.readTransaction {
                guard let (rowID, session) = try loadSession(reference: reference, scope: scope,
                                                            history: includingHistory) else { return nil }
                return try withRefunds(session, sessionRowID: rowID)
            }
        }
    }

    /// Opens a payment in one write transaction (`BEGIN IMMEDIATE`, so nothing moves between the reads and the
    /// insert): the session with this reference if there is one (nothing is written); otherwise the stored-payment
    /// aggregates are read, `create` makes the session from them, and it is inserted as ``insert(_:)`` inserts it,
    /// synced before this returns. One call and one transaction instead of three. (`async` only so that a call on
    /// the concrete type picks this method, not the protocol's default of the same name: nothing in it suspends.)
    package func openPayment(reference: String, scope: LedgerScope,
                             create: @Sendable (StoredPaymentSummary) throws -> PaymentSession) async throws
        -> PaymentOpening {
        try guarded("open \(reference)") {
            try db.writeTransaction(durable: options.syncsWriteAhead) {
                if let (rowID, existing) = try loadSession(reference: reference, scope: scope, history: false) {
                    return .existing(try withRefunds(existing, sessionRowID: rowID))
                }
                let session = try create(try storedSummaryRows(scope: scope))
                try insertRow(session)
                return .created(session)
            }
        }
    }

    /// The session holding this processor local id, or else this processor id, in the scope, with its history and
    /// refunds, or `nil`.
    package func session(localID: String?, processorPaymentID: String?, scope: LedgerScope) throws -> PaymentSession? {
        try guarded("look up a payment by processor id") {
            try db.readTransaction {
                var reference: String?
                if let localID {
                    try db.query(LedgerSQL.selectReferenceByLocalID,
                                 [.text(scope.merchantID), .text(scope.locationID), .text(localID)]) {
                        reference = $0.text(0)
                    }
                }
                if reference == nil, let processorPaymentID {
                    try db.query(LedgerSQL.selectReferenceByProcessorID,
                                 [.text(scope.merchantID), .text(scope.locationID), .text(processorPaymentID)]) {
                        reference = $0.text(0)
                    }
                }
                guard let reference,
                      let (rowID, session) = try loadSession(reference: reference, scope: scope, history: true)
                else { return nil }
                return try withRefunds(session, sessionRowID: rowID)
            }
        }
    }

    /// Applies a change atomically: in one transaction, reads the session, applies ``SessionChange/apply(to:)``
    /// (compare-and-set on the expected state, legal transitions only), writes the new columns with the expected
    /// state as a condition, appends the transition, and moves the stored aggregates. Synced to disk before it
    /// returns when ``SessionChange/requiresDurableSync`` is true. Returns the session with its history.
    /// - Throws: ``PaymentError/Code/unknownReference``, ``PaymentError/Code/invalidState``,
    ///   ``PaymentError/Code/illegalTransition`` (nothing is written), or ``PaymentError/Code/ledgerUnavailable``.
    package func record(_ change: SessionChange, scope: LedgerScope) throws -> PaymentSession {
        try guarded("record \(change.reference)") {
            try db.writeTransaction(durable: change.requiresDurableSync) {
                try applyRow(change, scope: scope, history: true)
            }
        }
    }

    /// Applies several changes in one transaction: all are recorded or none is. Changes to the same reference apply
    /// in order. Durable if any change requires it. Returns the sessions after each change, without their history
    /// (read them with ``session(reference:scope:includingHistory:)`` when needed). A batch of changes of distinct
    /// payments (forwarding results, captures, what recovery learns), none starting a new payment attempt, is applied
    /// with a fixed number of set-based statements whatever its size; other batches change row by row, reading and
    /// writing a payment's row once for consecutive changes of it (a payment's intermediate states with its outcome).
    /// - Throws: as ``record(_:scope:)``; nothing is written if any change fails.
    package func record(_ changes: [SessionChange], scope: LedgerScope) throws -> [PaymentSession] {
        guard !changes.isEmpty else { return [] }
        let durable = changes.contains(where: \.requiresDurableSync)
        return try guarded("record \(changes.count) changes") {
            if let batch = SetBasedBatch(changes) {
                do {
                    return try db.writeTransaction(durable: durable) { try applySetBased(batch, scope: scope) }
                } catch is SetBasedBatch.Mismatch {
                    // Some payment was not in its expected state, or missing: the row path below fails with the
                    // same error as it would have alone (or succeeds if another process just moved it).
                }
            }
            return try db.writeTransaction(durable: durable) { try applyRows(changes, scope: scope) }
        }
    }

    /// The sessions with these references, without history or refunds, read by one statement (the references
    /// shown to it as the rows of the connection's batch table).
    package func sessions(references: [String], scope: LedgerScope) throws -> [String: PaymentSession] {
        guard !references.isEmpty else { return [:] }
        return try guarded("read \(references.count) sessions") {
            batchRows.show(references: references)
            defer { batchRows.clear() }
            var found: [String: PaymentSession] = [:]
            found.reserveCapacity(references.count)
            try db.query(BatchSQL.selectSessions, [.text(scope.merchantID), .text(scope.locationID)]) { row in
                let reference = references[Int(row.integer(Int32(LedgerSQL.sessionColumnCount)))]
                found[reference] = try decodeSession(row, scope: scope, reference: reference).1
            }
            return found
        }
    }

    /// Sessions of the scope in any of `states`, oldest first, without history or refunds.
    package func sessions(in states: Set<PaymentState>, scope: LedgerScope) throws -> [PaymentSession] {
        guard !states.isEmpty else { return [] }
        return try guarded("list sessions") {
            let sorted = states.map(\.rawValue).sorted()
            var result: [PaymentSession] = []
            try db.query(LedgerSQL.selectInStates(count: sorted.count),
                         [.text(scope.merchantID), .text(scope.locationID)] + sorted.map { .text($0) }) {
                result.append(try decodeSession($0).1)
            }
            return result
        }
    }

    /// Every session of the scope, oldest first, without history or refunds.
    package func allSessions(scope: LedgerScope) throws -> [PaymentSession] {
        try guarded("list sessions") {
            var result: [PaymentSession] = []
            try db.query(LedgerSQL.selectAll, [.text(scope.merchantID), .text(scope.locationID)]) {
                result.append(try decodeSession($0).1)
            }
            return result
        }
    }

    /// The stored-payment count, totals per currency and oldest stored time of the scope, read from the aggregates
    /// table (one row per currency) and one index seek: its cost does not grow with the number of stored payments.
    package func storedSummary(scope: LedgerScope) throws -> StoredPaymentSummary {
        try guarded("read the stored-payment summary") { try readStoredSummary(scope: scope) }
    }

    /// Every scope that has sessions, sorted by `merchant/location`.
    package func scopes() throws -> [LedgerScope] {
        try guarded("list scopes") {
            var result: [LedgerScope] = []
            try db.query(LedgerSQL.selectScopes) {
                result.append(LedgerScope(merchantID: $0.text(0), locationID: $0.text(1)))
            }
            return result.sorted { $0.description < $1.description }
        }
    }

    /// The row path's UPDATE setting `columns`, its text built once per set of columns.
    func updateSQL(_ columns: LedgerSQL.SessionUpdate) -> String {
        if let sql = updateStatements[columns.rawValue] { return sql }
        let sql = LedgerSQL.updateSession(columns)
        updateStatements[columns.rawValue] = sql
        return sql
    }

    // MARK: Errors

    /// Runs `body`, turning SQLite and coding failures into ``PaymentError/Code/ledgerUnavailable``.
    func guarded<T>(_ operation: String, _ body: () throws -> T) throws -> T {
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

    static func unavailable(_ error: SQLiteError, operation: String, path: String) -> PaymentError {
        let recovery: PaymentError.Recovery
        switch error.code {
        case SQLITE_BUSY, SQLITE_LOCKED: recovery = .waitAndRetry
        default: recovery = .fixIntegration
        }
        return PaymentError(.ledgerUnavailable, recovery: recovery, phase: .ledger,
                            message: "The ledger \(path) could not \(operation): \(error).")
    }
}
