import Foundation
import CSQLite

// A thin wrapper of the SQLite C API, private to Tender. It is not thread-safe and not `Sendable`: it is owned by
// one actor (``SQLitePaymentLedger``), which serializes every use of it.

/// One SQLite connection with a cache of prepared statements: each distinct SQL text is prepared once and reused.
final class SQLiteDatabase {
    /// The database file.
    let path: String
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// What keeps the VFS the connection opened through alive until it is closed (test support's VFS objects).
    private var vfsOwner: (any AnyObject & Sendable)?
    /// The `synchronous` level last set on the connection (`nil`: SQLite's default, not set by Tender).
    private(set) var synchronous: Synchronous?
    /// The WAL's frames and its size between checkpoints (see `SQLiteWALSpace.swift`), once ``installWALSpace(_:)``
    /// was called.
    var walSpace: WALSpace?

    /// Opens a connection. `flags` are `SQLITE_OPEN_*`; the file is never created unless they say so. Every file of
    /// the database is opened through the registered VFS named `vfs` (`nil`: SQLite's default, as for every app;
    /// test support installs its own this way, see ``SQLiteLedgerOptions/vfsName``), which `vfsOwner`, if any, keeps
    /// registered: the connection holds it until it is closed.
    init(path: String, flags: Int32, vfs: String? = nil, vfsOwner: (any AnyObject & Sendable)? = nil) throws {
        self.path = path
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, vfs)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            let code = db.map { sqlite3_extended_errcode($0) } ?? rc
            sqlite3_close_v2(db)
            throw SQLiteError(extendedCode: code, message: message)
        }
        sqlite3_extended_result_codes(db, 1)
        handle = db
        self.vfsOwner = vfsOwner
    }

    /// How a connection opens its file.
    enum OpenMode {
        /// Read only; fails if the file does not exist.
        case readOnly
        /// Read only, promising SQLite that nothing changes the file: no locks, and no `-wal` or `-shm` file is
        /// created. Only for a file that has no `-wal` or `-journal` beside it.
        case readOnlyImmutable
        /// Read and write; fails if the file does not exist.
        case readWrite
        /// Read and write, creating the file if needed (tests and tools only: the ledger creates its file itself).
        case readWriteCreate
    }

    /// Opens a connection in `mode`, through the registered VFS named `vfs` (`nil`: SQLite's default).
    convenience init(path: String, mode: OpenMode, vfs: String? = nil) throws {
        switch mode {
        case .readOnly: try self.init(path: path, flags: SQLITE_OPEN_READONLY, vfs: vfs)
        case .readOnlyImmutable:
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "/-._~")
            let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
            try self.init(path: "file:\(encoded)?immutable=1", flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, vfs: vfs)
        case .readWrite: try self.init(path: path, flags: SQLITE_OPEN_READWRITE, vfs: vfs)
        case .readWriteCreate: try self.init(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs: vfs)
        }
    }

    deinit { close() }

    /// Whether the connection is open.
    var isOpen: Bool { handle != nil }

    /// Finalizes every statement and closes the connection. Commits made since the last sync of the WAL (with
    /// `synchronous = NORMAL`) are synced first, so that a closed ledger is wholly on disk. The last connection to a
    /// WAL database checkpoints it and removes the `-wal`, unless ``keepWALOnClose()`` was called. Idempotent.
    func close() {
        if hasUnsyncedCommits { try? syncWAL() }
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        lastStatement = nil
        // With every statement finalized the connection closes now, its files with it, and its VFS can go; should
        // one be left (never by this wrapper), SQLite would close later through the VFS, which is then kept.
        let closesNow = handle.map { sqlite3_next_stmt($0, nil) == nil } ?? true
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
        if closesNow { vfsOwner = nil }
    }


    /// Waits up to `milliseconds` for another connection's lock before failing with `SQLITE_BUSY`.
    func setBusyTimeout(milliseconds: Int32) {
        if let handle { sqlite3_busy_timeout(handle, milliseconds) }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    /// The rowid of the last INSERT.
    var lastInsertRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    func connection() throws -> OpaquePointer {
        guard let handle else { throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "the ledger is closed") }
        return handle
    }

    private func error(_ db: OpaquePointer) -> SQLiteError {
        SQLiteError(extendedCode: sqlite3_extended_errcode(db), message: String(cString: sqlite3_errmsg(db)))
    }

    /// The statement run last, found without hashing its text when the same constant runs again (a batch runs one
    /// statement a thousand times; comparing the same constant string is one pointer comparison).
    private var lastStatement: (sql: String, statement: OpaquePointer)?

    /// The cached prepared statement for `sql`, reset and with its bindings cleared.
    private func prepared(_ sql: String) throws -> OpaquePointer {
        let db = try connection()
        if let last = lastStatement, last.sql == sql { return last.statement }
        if let statement = statements[sql] {
            lastStatement = (sql, statement)
            return statement
        }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(db) }
        statements[sql] = statement
        lastStatement = (sql, statement)
        return statement
    }

    private func bind(_ values: [SQLiteValue], to statement: OpaquePointer, db: OpaquePointer) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .integer(let v): rc = sqlite3_bind_int64(statement, index, v)
            case .real(let v): rc = sqlite3_bind_double(statement, index, v)
            case .text(let v):
                rc = v.withCString { sqlite3_bind_text(statement, index, $0, Int32(v.utf8.count), sqliteTransient) }
            }
            guard rc == SQLITE_OK else { throw error(db) }
        }
    }

    /// When not `nil`, the text of every cached statement run is appended to it (tests count statements).
    var statementLog: [String]?

    /// Runs a cached statement with `bindings`, calling `row` for each result row.
    func query(_ sql: String, _ bindings: [SQLiteValue] = [], row: (SQLiteRow) throws -> Void) throws {
        let db = try connection()
        statementLog?.append(sql)
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try bind(bindings, to: statement, db: db)
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return }
            guard rc == SQLITE_ROW else { throw error(db) }
            try row(SQLiteRow(statement: statement))
        }
    }

    /// Runs a cached statement that returns no rows (or whose rows are ignored).
    func execute(_ sql: String, _ bindings: [SQLiteValue] = []) throws {
        try query(sql, bindings) { _ in }
    }

    /// The first column of the first row as text, or `nil`.
    func scalarText(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> String? {
        var result: String?
        var first = true
        try query(sql, bindings) { row in
            if first { result = row.optionalText(0) }
            first = false
        }
        return result
    }

    /// The first column of the first row as an integer, or `nil`.
    func scalarInteger(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> Int64? {
        var result: Int64?
        var first = true
        try query(sql, bindings) { row in
            if first { result = row.optionalInteger(0) }
            first = false
        }
        return result
    }

    /// Runs a script of several statements once, without caching (schema migrations, pragmas).
    func executeScript(_ sql: String) throws {
        let db = try connection()
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard rc == SQLITE_OK else {
            throw SQLiteError(extendedCode: sqlite3_extended_errcode(db),
                              message: message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc)))
        }
    }

    /// SQLite's `synchronous` levels that Tender uses, in WAL mode.
    enum Synchronous: Int {
        /// Commits write the WAL without syncing it: they survive a process kill (the frames are in the operating
        /// system's cache) and become durable with the next sync of the WAL, which a later ``full`` commit or a
        /// checkpoint makes.
        case normal = 1
        /// Every commit syncs the WAL before it returns: durable against power loss.
        case full = 2
    }

    /// Whether commits were made since the WAL was last synced: a commit with `synchronous = NORMAL` that changed
    /// something sets it, a durable commit (which syncs the whole WAL) or ``syncWAL()`` clears it.
    private(set) var hasUnsyncedCommits = false

    /// Keeps the WAL when this connection closes, even as the last one: no checkpoint (and none of its syncs), the
    /// `-wal` and `-shm` stay beside the file, and the next connection replays the WAL
    /// (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`, SQLite 3.16 and later).
    func keepWALOnClose() throws {
        let db = try connection()
        var enabled: Int32 = 0
        let rc = tender_sqlite3_db_config_int(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, &enabled)
        guard rc == SQLITE_OK, enabled == 1 else {
            throw SQLiteError(extendedCode: rc == SQLITE_OK ? SQLITE_ERROR : rc,
                              message: "SQLite refused SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE")
        }
    }

    /// Syncs the WAL file now, through SQLite's own file object (`SQLITE_FCNTL_JOURNAL_POINTER`), with the flags
    /// SQLite syncs it with. Outside a transaction only. Does nothing when no WAL is open.
    func syncWAL() throws {
        let db = try connection()
        var file: UnsafeMutablePointer<sqlite3_file>?
        let rc = sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file)
        guard rc == SQLITE_OK else { throw error(db) }
        guard let file, let methods = file.pointee.pMethods else { return }
        let synced = methods.pointee.xSync(file, SQLITE_SYNC_NORMAL)
        guard synced == SQLITE_OK else {
            throw SQLiteError(extendedCode: synced, message: "the WAL could not be synced")
        }
        hasUnsyncedCommits = false
    }

    /// Runs a checkpoint of `mode` (`SQLITE_CHECKPOINT_PASSIVE`, `…_TRUNCATE`…) and returns the frames in the WAL
    /// and how many of them are now in the database file.
    @discardableResult
    func checkpoint(mode: Int32) throws -> (walFrames: Int, checkpointed: Int) {
        let db = try connection()
        var frames: Int32 = 0
        var done: Int32 = 0
        let rc = sqlite3_wal_checkpoint_v2(db, "main", mode, &frames, &done)
        guard rc == SQLITE_OK else { throw error(db) }
        return (Int(frames), Int(done))
    }

    /// Sets `PRAGMA synchronous` for the next commits, if it is not already at `level`. Outside a transaction only.
    func setSynchronous(_ level: Synchronous) throws {
        guard level != synchronous else { return }
        try execute(level == .full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
        synchronous = level
    }

    /// Runs `body` in one `BEGIN IMMEDIATE … COMMIT` write transaction, rolled back if it throws. A `durable`
    /// transaction commits with `synchronous = FULL` (the WAL is synced before this returns); otherwise with
    /// `NORMAL` (committed, and synced with the next durable commit or checkpoint).
    func writeTransaction<T>(durable: Bool, _ body: () throws -> T) throws -> T {
        try setSynchronous(durable ? .full : .normal)
        let before = handle.map { sqlite3_total_changes64($0) } ?? 0
        let result = try transaction("BEGIN IMMEDIATE", body)
        if let handle, sqlite3_total_changes64(handle) != before { hasUnsyncedCommits = !durable }
        return result
    }

    /// Runs `body` in one read transaction, so that several queries see the same snapshot.
    func readTransaction<T>(_ body: () throws -> T) throws -> T { try transaction("BEGIN", body) }

    private func transaction<T>(_ begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// A counter of the cached statement for `sql` (`SQLITE_STMTSTATUS_VM_STEP`, `…_FULLSCAN_STEP`), optionally
    /// reset to zero.
    func statementStatus(_ sql: String, counter: Int32, reset: Bool) throws -> Int {
        Int(sqlite3_stmt_status(try prepared(sql), counter, reset ? 1 : 0))
    }
}
