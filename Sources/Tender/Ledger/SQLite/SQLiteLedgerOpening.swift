import Foundation
import CSQLite

// Opening the ledger file after anything: a clean close, a kill at any moment (mid-commit, mid-checkpoint, during the
// very first open), or a file that is not a Tender ledger at all.
//
// Order: (1) what the bytes alone can tell, before SQLite opens anything; (2) SQLite's own recovery (a hot rollback
// journal is rolled back, a WAL is replayed); (3) the checks of the recovered database: Tender's application id,
// a schema version this build understands, the tables of that version, `PRAGMA quick_check`. Only a file that is
// foreign, newer or corrupt after recovery is refused; a file shorter than its header says while a WAL beside it
// holds the missing pages (a kill during a checkpoint) is a healthy ledger.
//
// What "left untouched" means for a refused file:
// - refused in step 1 (not SQLite, not whole pages, another application's id in its header, or truncated with no
//   WAL to complete it): nothing is opened; the file and everything beside it keep every byte, and nothing is
//   created beside it. (With a rollback journal beside it, only another application's id is refused before the
//   journal is tried: a file killed during its very first transaction may have no header yet.)
// - a hot rollback journal is first rolled back on a private copy of the file and its journal, and checked there;
//   the real file is rolled back only once the copy proved to be a Tender ledger this build can open. A refused
//   file therefore keeps every byte, and so does its journal;
// - a WAL is replayed by a read-only connection: SQLite rebuilds its WAL index in the `-shm` file (creating it if
//   the kill left none) and reads the WAL's committed frames through it. The database file and its `-wal` keep every
//   byte; the `-shm`, which holds no data of its own (any SQLite reader rebuilds it from the WAL), may have been
//   created or rewritten.

extension SQLitePaymentLedger {
    /// The refusal of a file that must be left alone.
    static func refused(_ path: String, _ why: String) -> PaymentError {
        PaymentError(.ledgerUnavailable, recovery: .fixIntegration, phase: .ledger,
                     message: "The ledger file \(path) \(why). Tender left it untouched; move it aside or restore a "
                        + "backup, and never delete it while it may hold payments.")
    }

    /// How many WAL pages trigger SQLite's automatic checkpoint, which runs inside the commit that crosses it
    /// (SQLite's default is 1,000). A checkpoint costs two syncs (the WAL, then the database file) and the log's
    /// restart one more (its new header). The ledger checkpoints when it opens a file whose WAL has grown past
    /// ``walBytesCheckpointedAtOpening``, so this is only the backstop for an app that keeps the ledger open for
    /// days: 8,000 pages (32 MiB of WAL) is about 400 payments at twenty pages each (tender-bench's day measures
    /// 20.4 pages per payment).
    static let checkpointPages = 8_000

    /// How much log (its frames, counted from the file: ``LedgerFile/walFrames(_:)``) makes opening the ledger
    /// checkpoint it and restart the log (three syncs, counted as opening's): 4 MiB, about a thousand pages or fifty
    /// payments. The file itself keeps its size when the log restarts (it is reused in place, see
    /// `SQLiteWALSpace.swift`), so its size does not say how much it holds.
    static let walBytesCheckpointedAtOpening: Int64 = 4 * 1_048_576

    /// Creates or checks the file, then opens it for writing, enables WAL and migrates. Every connection to the file
    /// (the checks' and the ledger's) opens through `vfs` (`nil`: SQLite's default), kept registered by `vfsOwner`.
    /// Blocking (file checks, `quick_check`, syncs): runs on the ledger's own thread (see ``open(url:busyTimeout:)``).
    static func openLedger(path: String, busyTimeout: TimeInterval, batchRows: SQLiteBatchRows, vfs: String? = nil,
                           vfsOwner: (any AnyObject & Sendable)? = nil) throws -> SQLiteDatabase {
        if let status = LedgerFile.status(path) {
            guard LedgerFile.isRegularFile(status.mode) else { throw refused(path, "is not a regular file") }
            if status.size > 0 {
                try checkExisting(path: path, size: status.size, vfs: vfs)
            }
            // A file that passed the checks (or an empty one) is Tender's: keep it owner-only.
            if status.mode & 0o077 != 0 { LedgerFile.makeOwnerOnly(path) }
        } else if let code = LedgerFile.createOwnerOnly(path), code != EEXIST {
            throw PaymentError(.ledgerUnavailable, recovery: .fixIntegration, phase: .ledger,
                               message: "The ledger file \(path) could not be created: "
                                + "\(LedgerFile.describe(errno: code)).")
        }

        let walFrames = LedgerFile.walFrames(path + "-wal")
        let db: SQLiteDatabase
        do {
            // Never creates: the file was made owner-only above.
            db = try SQLiteDatabase(path: path, flags: SQLITE_OPEN_READWRITE, vfs: vfs, vfsOwner: vfsOwner)
            db.setBusyTimeout(milliseconds: Int32(clamping: Int((busyTimeout * 1000).rounded())))
            // Closing leaves the WAL for the next opening to replay instead of checkpointing it (two syncs) and
            // starting a new one (its header and the directory synced at the first commit): see `close()`.
            try db.keepWALOnClose()
            try db.registerBatchTable(batchRows)
            let mode = try db.scalarText("PRAGMA journal_mode = WAL")
            guard mode?.lowercased() == "wal" else {
                throw SQLiteError(extendedCode: SQLITE_ERROR, message: "WAL mode unavailable (journal mode \(mode ?? "?"))")
            }
            // Each write transaction sets `synchronous` itself (FULL for what recovery needs, NORMAL otherwise);
            // the migration below is durable.
            try db.setSynchronous(.full)
            try db.executeScript("""
                PRAGMA foreign_keys = ON;
                PRAGMA trusted_schema = OFF;
                PRAGMA cell_size_check = ON;
                PRAGMA temp_store = MEMORY;
                """)
            // The automatic checkpoint and the WAL reused in place (see `SQLiteWALSpace.swift`).
            let pageSize = Int(try db.scalarInteger("PRAGMA page_size") ?? 4_096)
            let space = WALSpace(checkpointPages: checkpointPages, pageSize: pageSize, frames: nil)
            try db.installWALSpace(space)
            let migrated = try migrate(db, path: path)
            let walBytes = Int64(walFrames ?? 0) * space.frameBytes
            let checkpointed = walBytes > walBytesCheckpointedAtOpening ? try checkpointAndRestart(db) : false
            // SQLite syncs the directory at the first sync of every WAL a connection opens (created or not), so
            // that its name is on disk. Unless the migration (a durable commit) or the checkpoint just synced the
            // WAL, that sync is made here, where it is opening's cost, and not in the first payment's commit.
            if !migrated && !checkpointed { try db.syncWAL() }
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

    /// Copies the WAL into the database file and, if all of it went in, starts the log over with a commit that
    /// changes nothing (the user version rewritten), so that the new log's header is synced here and not in the
    /// next payment's commit. A reader in another connection may keep part of the WAL from being copied: the rest
    /// waits for a later checkpoint. Returns whether the WAL was synced (a checkpoint that copied frames).
    @discardableResult
    static func checkpointAndRestart(_ db: SQLiteDatabase) throws -> Bool {
        let (frames, checkpointed) = try db.checkpoint(mode: SQLITE_CHECKPOINT_PASSIVE)
        guard frames > 0, checkpointed == frames else { return frames > 0 && checkpointed > 0 }
        try db.writeTransaction(durable: false) {
            try db.executeScript("PRAGMA user_version = \(schemaVersion);")
        }
        return true
    }

    /// Checks an existing, non-empty file, letting SQLite recover it first (see the top of this file for what is
    /// and is not written on the way).
    private static func checkExisting(path: String, size: Int64, vfs: String?) throws {
        if let journal = LedgerFile.size(path + "-journal"), journal > 0 {
            // Before anything is rolled back, what the bytes can tell: another application's id refuses at once.
            // (A file killed during its very first transaction may not have its header yet: the journal decides.)
            if let header = try? LedgerFile.prefix(path, count: 100), header.count == 100, SQLiteHeader(header).hasMagic {
                let applicationID = SQLiteHeader(header).applicationID
                if applicationID != 0, applicationID != SQLitePaymentLedger.applicationID {
                    throw refused(path, foreignApplication(applicationID))
                }
            }
            try rollBackJournalOnCopy(path: path)
            // The copy is a Tender ledger this build opens: let SQLite roll the real file back the same way.
            if let db = try? SQLiteDatabase(path: path, mode: .readWrite, vfs: vfs) {
                _ = try? db.scalarInteger("SELECT COUNT(*) FROM sqlite_master")  // the first read rolls back
                db.close()
            }
            // Killed during its very first transaction, a new file rolls back to nothing: a new ledger.
            guard let size = LedgerFile.size(path), size > 0 else { return }
        }
        let header = try checkBytes(path: path, size: LedgerFile.size(path) ?? size)
        // With no WAL frames beside it the file is the whole database: it must hold every page its header counts.
        // (With a WAL, pages past its end may be in the WAL, replayed below; a page in neither fails quick_check.)
        let walHasFrames = (LedgerFile.walFrames(path + "-wal") ?? 0) > 0
        if !walHasFrames, let size = LedgerFile.size(path) {
            let fields = SQLiteHeader(header)
            if fields.pageCount > 0, fields.pageCountIsValid, fields.pageCount * fields.pageSize > UInt64(size) {
                throw refused(path, "is truncated: its header declares \(fields.pageCount) pages of "
                                + "\(fields.pageSize) bytes (\(fields.pageCount * fields.pageSize) bytes) but the "
                                + "file has \(size) bytes and no WAL holds the rest")
            }
        }
        // Without a -wal or -journal beside it the file is complete on its own: read it as immutable, so that even
        // the -wal and -shm files a read-only connection to a WAL database creates are not created. With a WAL, the
        // read-only connection replays it (into the -shm index only) and checks what recovery gives.
        let hasSidecar = ["-wal", "-journal"].contains { LedgerFile.status(path + $0) != nil }
        let reader: SQLiteDatabase
        do {
            reader = try SQLiteDatabase(path: path, mode: hasSidecar ? .readOnly : .readOnlyImmutable, vfs: vfs)
        } catch let error as SQLiteError {
            throw refused(path, "cannot be opened read-only to check it: \(error)")
        }
        defer { reader.close() }
        try checkContents(reader, path: path)
    }

    /// What the first 100 bytes tell without SQLite: an SQLite file, whole pages, not another application's.
    /// Returns the header.
    private static func checkBytes(path: String, size: Int64) throws -> Data {
        let header: Data
        do {
            header = try LedgerFile.prefix(path, count: 100)
        } catch {
            throw refused(path, "cannot be read (\(error))")
        }
        guard SQLiteHeader(header).hasMagic else {
            throw refused(path, "is not an SQLite database (its first bytes are not an SQLite header): it is corrupt "
                            + "or another kind of file")
        }
        guard header.count == 100 else {
            throw refused(path, "is truncated: \(size) bytes is shorter than an SQLite header")
        }
        let fields = SQLiteHeader(header)
        guard let pageSize = fields.validPageSize else {
            throw refused(path, "is corrupt: its header gives an invalid page size \(fields.rawPageSize)")
        }
        guard UInt64(size) % pageSize == 0 else {
            throw refused(path, "is truncated: \(size) bytes is not a whole number of \(pageSize)-byte pages")
        }
        // Tender writes its id once, in the first migration, and never changes it: an id other than Tender's or none
        // in the header means another application's file, whatever a journal or WAL beside it holds.
        let applicationID = fields.applicationID
        if applicationID != 0, applicationID != SQLitePaymentLedger.applicationID {
            throw refused(path, foreignApplication(applicationID))
        }
        return header
    }

    /// Rolls a hot journal back on a private copy of the file and its journal and checks the result, leaving the
    /// real file and journal as they are.
    private static func rollBackJournalOnCopy(path: String) throws {
        let directory: URL
        do {
            directory = try LedgerFile.makeScratchDirectory()
        } catch {
            throw refused(path, "has a rollback journal beside it that could not be tried on a copy (\(error))")
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("ledger.sqlite").path
        do {
            try LedgerFile.copyOwnerOnly(path, to: copy)
            try LedgerFile.copyOwnerOnly(path + "-journal", to: copy + "-journal")
            if LedgerFile.status(path + "-wal") != nil { try LedgerFile.copyOwnerOnly(path + "-wal", to: copy + "-wal") }
        } catch {
            throw refused(path, "has a rollback journal beside it that could not be tried on a copy (\(error))")
        }
        let db: SQLiteDatabase
        do {
            db = try SQLiteDatabase(path: copy, mode: .readWrite)
            _ = try db.scalarInteger("SELECT COUNT(*) FROM sqlite_master")  // rolls the copy's journal back
        } catch let error as SQLiteError {
            throw refused(path, "is corrupt or unreadable once its rollback journal is rolled back: \(error)")
        }
        defer { db.close() }
        try checkContents(db, path: path)
    }

    private static func foreignApplication(_ applicationID: Int32) -> String {
        "belongs to another application (SQLite application_id "
            + "0x\(String(UInt32(bitPattern: applicationID), radix: 16)), not Tender's "
            + "0x\(String(UInt32(bitPattern: SQLitePaymentLedger.applicationID), radix: 16)))"
    }

    /// The checks of a recovered database, on a connection that sees it: Tender's application id (or an empty
    /// file), a schema version this build understands, the tables of that version, and `PRAGMA quick_check`.
    private static func checkContents(_ reader: SQLiteDatabase, path: String) throws {
        do {
            let applicationID = Int32(truncatingIfNeeded: try reader.scalarInteger("PRAGMA application_id") ?? 0)
            let version = try reader.scalarInteger("PRAGMA user_version") ?? 0
            let objects = try reader.scalarInteger("SELECT COUNT(*) FROM sqlite_master") ?? 0
            if applicationID != SQLitePaymentLedger.applicationID {
                if applicationID != 0 { throw refused(path, foreignApplication(applicationID)) }
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
}

/// The fields of the 100-byte SQLite file header that the checks read (all big-endian).
struct SQLiteHeader {
    private let bytes: [UInt8]

    /// Reads `header` (at least 100 bytes).
    init(_ header: Data) { bytes = [UInt8](header.prefix(100)) }

    /// Whether the bytes start with SQLite's magic string, "SQLite format 3" and a NUL.
    var hasMagic: Bool { bytes.starts(with: Array("SQLite format 3\u{0}".utf8)) }

    private func bigEndian(_ offset: Int, _ count: Int) -> UInt64 {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The page size as stored (1 means 65,536).
    var rawPageSize: UInt64 { bigEndian(16, 2) }
    /// The page size, or 0 when invalid.
    var pageSize: UInt64 { validPageSize ?? 0 }
    /// The page size when it is a power of two from 512 to 65,536.
    var validPageSize: UInt64? {
        let size: UInt64 = rawPageSize == 1 ? 65_536 : rawPageSize
        return size >= 512 && size <= 65_536 && size & (size - 1) == 0 ? size : nil
    }
    /// The database size in pages.
    var pageCount: UInt64 { bigEndian(28, 4) }
    /// Whether ``pageCount`` is valid: SQLite trusts it only when the change counter equals "version valid for".
    var pageCountIsValid: Bool { bigEndian(24, 4) == bigEndian(92, 4) }
    /// `PRAGMA application_id`.
    var applicationID: Int32 { Int32(truncatingIfNeeded: UInt32(bigEndian(68, 4))) }
}
