public import Foundation
import CSQLite
import Tender

/// How many times a connection asked the operating system to sync a file to disk (`fsync`/`fdatasync`), by file.
public struct SQLiteSyncCounts: Hashable, Sendable {
    /// Syncs of the database file itself: the second half of every checkpoint.
    public var database = 0
    /// Syncs of the write-ahead log: every durable commit, the first half of every checkpoint, and the header of a
    /// log that starts over after a checkpoint.
    public var wal = 0
    /// Syncs of a rollback journal (only before a new file is switched to WAL mode).
    public var journal = 0
    /// Syncs of any other file (none: temporary tables live in memory).
    public var other = 0

    /// No syncs.
    public init() {}

    /// Every sync.
    public var total: Int { database + wal + journal + other }

    /// The syncs made since `earlier`.
    public func since(_ earlier: SQLiteSyncCounts) -> SQLiteSyncCounts {
        var delta = SQLiteSyncCounts()
        delta.database = database - earlier.database
        delta.wal = wal - earlier.wal
        delta.journal = journal - earlier.journal
        delta.other = other - earlier.other
        return delta
    }
}

/// One write-level operation on a database file, as seen by ``SyncCountingVFS`` when it records them (tests:
/// rebuilding what a power loss would leave on disk).
public enum SQLiteFileOperation: Sendable {
    /// `bytes` written at `offset`.
    case write(path: String, offset: Int64, bytes: Data)
    /// The file truncated to `size` bytes.
    case truncate(path: String, size: Int64)
    /// The file synced.
    case sync(path: String)
}

/// The counts of one VFS, updated by SQLite's calls on the connection's thread and readable from any thread.
/// Optionally also records every write, truncation and sync (see ``SQLiteFileOperation``).
public final class SQLiteSyncCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = SQLiteSyncCounts()
    private var walBytes = 0
    private var operations: [SQLiteFileOperation]?

    /// A counter; with `recordingOperations`, a recorder of every write-level operation too.
    public init(recordingOperations: Bool = false) {
        operations = recordingOperations ? [] : nil
    }

    /// The counts so far.
    public var counts: SQLiteSyncCounts {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    /// Bytes written into the write-ahead log so far (frames and headers): how fast it grows toward a checkpoint.
    public var walBytesWritten: Int {
        lock.lock()
        defer { lock.unlock() }
        return walBytes
    }

    func recordWALWrite(bytes: Int) {
        lock.lock()
        defer { lock.unlock() }
        walBytes += bytes
    }

    /// Whether write-level operations are recorded.
    public var isRecording: Bool { operations != nil }

    /// The recorded operations, in order (empty unless recording).
    public var recordedOperations: [SQLiteFileOperation] {
        lock.lock()
        defer { lock.unlock() }
        return operations ?? []
    }

    func recordSync(openFlags: Int32, path: String?) {
        lock.lock()
        defer { lock.unlock() }
        if openFlags & SQLITE_OPEN_MAIN_DB != 0 {
            value.database += 1
        } else if openFlags & SQLITE_OPEN_WAL != 0 {
            value.wal += 1
        } else if openFlags & SQLITE_OPEN_MAIN_JOURNAL != 0 {
            value.journal += 1
        } else {
            value.other += 1
        }
        if operations != nil, let path { operations!.append(.sync(path: path)) }
    }

    func record(_ operation: SQLiteFileOperation) {
        lock.lock()
        defer { lock.unlock() }
        operations?.append(operation)
    }
}

/// A VFS shim over SQLite's default VFS (or another registered one) that counts `xSync` calls per file: the honest
/// count of what a commit or a checkpoint costs in syncs, without timing anything (test support and tender-bench:
/// a shipping ledger opens through SQLite's default VFS). Each instance registers its own VFS (its `pAppData` points
/// at its counter) and unregisters it when released; a ledger opened through it with ``openLedger(at:busyTimeout:)``
/// keeps it alive while its connection is open. Every call is forwarded to the VFS below unchanged; the shim only
/// adds a 32-byte header in front of each open file. It counts every connection opened through it: the ledger's own
/// and the read-only checks made before it opens.
public final class SyncCountingVFS: @unchecked Sendable {
    /// The name the VFS is registered under (`sqlite3_open_v2`'s `zVfs`).
    public let name: String
    /// The counter this VFS updates.
    public let counter: SQLiteSyncCounter
    private let vfs: UnsafeMutablePointer<sqlite3_vfs>
    private let cName: UnsafeMutablePointer<CChar>
    private let context: Unmanaged<Context>
    private var registered = true

    /// What the shim's functions reach through `pAppData`.
    final class Context {
        let real: UnsafeMutablePointer<sqlite3_vfs>
        let counter: SQLiteSyncCounter
        init(real: UnsafeMutablePointer<sqlite3_vfs>, counter: SQLiteSyncCounter) {
            self.real = real
            self.counter = counter
        }
    }

    /// Registers a new instance over the registered VFS named `base` (`nil`: the default VFS); with
    /// `recordingOperations`, it also records every write, truncation and sync (``SQLiteSyncCounter/recordedOperations``).
    /// - Throws: ``SyncCountingVFSError`` when the base VFS does not exist or SQLite refuses the registration.
    public convenience init(over base: String? = nil, recordingOperations: Bool = false) throws {
        try self.init(counter: SQLiteSyncCounter(recordingOperations: recordingOperations), over: base)
    }

    /// Registers a new instance updating `counter`, over the registered VFS named `base` (`nil`: the default VFS).
    public init(counter: SQLiteSyncCounter, over base: String? = nil) throws {
        guard let real = sqlite3_vfs_find(base) else {
            throw SyncCountingVFSError(base.map { "no SQLite VFS named \($0) is registered" } ?? "no default SQLite VFS")
        }
        self.counter = counter
        name = "tender-sync-counting-\(UUID().uuidString)"
        cName = strdup(name)
        context = Unmanaged.passRetained(Context(real: real, counter: counter))
        vfs = .allocate(capacity: 1)
        vfs.initialize(to: Self.shim(over: real, name: cName, context: context.toOpaque()))
        let rc = sqlite3_vfs_register(vfs, 0)
        guard rc == SQLITE_OK else {
            registered = false
            release()
            throw SyncCountingVFSError("SQLite refused to register the sync-counting VFS (error \(rc))")
        }
    }

    deinit { unregister() }

    /// The syncs counted so far.
    public var counts: SQLiteSyncCounts { counter.counts }

    /// Bytes written into write-ahead logs through this VFS so far.
    public var walBytesWritten: Int { counter.walBytesWritten }

    /// Unregisters the VFS and frees it (also done when it is released). Call only once no connection uses it.
    /// Idempotent.
    public func unregister() {
        guard registered else { return }
        registered = false
        sqlite3_vfs_unregister(vfs)
        release()
    }

    private func release() {
        vfs.deinitialize(count: 1)
        vfs.deallocate()
        free(cName)
        context.release()
    }

    /// A copy of `real` whose every function forwards to `real`, with `xOpen` wrapping each file.
    private static func shim(over real: UnsafeMutablePointer<sqlite3_vfs>, name: UnsafeMutablePointer<CChar>,
                             context: UnsafeMutableRawPointer) -> sqlite3_vfs {
        var shim = real.pointee
        shim.pNext = nil
        shim.zName = UnsafePointer(name)
        shim.pAppData = context
        shim.szOsFile = Int32(shimFileHeaderSize) + real.pointee.szOsFile
        shim.xOpen = { vfs, name, file, flags, outFlags in
            let context = shimContext(vfs)
            let raw = UnsafeMutableRawPointer(file!)
            raw.storeBytes(of: nil, toByteOffset: 0, as: UnsafeRawPointer?.self)
            let inner = innerFile(file)
            let rc = context.real.pointee.xOpen(context.real, name, inner, flags, outFlags)
            if let methods = inner.pointee.pMethods {
                let version = max(1, min(3, Int(methods.pointee.iVersion)))
                raw.storeBytes(of: UnsafeRawPointer(shimIOMethods[version - 1]), toByteOffset: 0,
                               as: UnsafeRawPointer?.self)
                raw.storeBytes(of: Unmanaged.passUnretained(context.counter).toOpaque(), toByteOffset: 8,
                               as: UnsafeMutableRawPointer.self)
                raw.storeBytes(of: flags, toByteOffset: 16, as: Int32.self)
                raw.storeBytes(of: context.counter.isRecording ? 1 : 0, toByteOffset: 20, as: Int32.self)
                let path = context.counter.isRecording ? name.map { String(cString: $0) } : nil
                raw.storeBytes(of: path.map { Unmanaged.passRetained($0 as NSString).toOpaque() }, toByteOffset: 24,
                               as: UnsafeMutableRawPointer?.self)
            }
            return rc
        }
        shim.xDelete = { vfs, name, syncDirectory in
            let real = shimContext(vfs).real
            return real.pointee.xDelete(real, name, syncDirectory)
        }
        shim.xAccess = { vfs, name, flags, result in
            let real = shimContext(vfs).real
            return real.pointee.xAccess(real, name, flags, result)
        }
        shim.xFullPathname = { vfs, name, count, output in
            let real = shimContext(vfs).real
            return real.pointee.xFullPathname(real, name, count, output)
        }
        shim.xDlOpen = { vfs, name in
            let real = shimContext(vfs).real
            return real.pointee.xDlOpen(real, name)
        }
        shim.xDlError = { vfs, count, message in
            let real = shimContext(vfs).real
            real.pointee.xDlError(real, count, message)
        }
        shim.xDlSym = { vfs, library, symbol in
            let real = shimContext(vfs).real
            return real.pointee.xDlSym(real, library, symbol)
        }
        shim.xDlClose = { vfs, library in
            let real = shimContext(vfs).real
            real.pointee.xDlClose(real, library)
        }
        shim.xRandomness = { vfs, count, output in
            let real = shimContext(vfs).real
            return real.pointee.xRandomness(real, count, output)
        }
        shim.xSleep = { vfs, microseconds in
            let real = shimContext(vfs).real
            return real.pointee.xSleep(real, microseconds)
        }
        shim.xCurrentTime = { vfs, time in
            let real = shimContext(vfs).real
            return real.pointee.xCurrentTime(real, time)
        }
        shim.xGetLastError = { vfs, count, message in
            let real = shimContext(vfs).real
            return real.pointee.xGetLastError(real, count, message)
        }
        if shim.iVersion >= 2, real.pointee.xCurrentTimeInt64 != nil {
            shim.xCurrentTimeInt64 = { vfs, time in
                let real = shimContext(vfs).real
                return real.pointee.xCurrentTimeInt64(real, time)
            }
        }
        if shim.iVersion >= 3 {
            shim.xSetSystemCall = real.pointee.xSetSystemCall == nil ? nil : { vfs, name, call in
                let real = shimContext(vfs).real
                return real.pointee.xSetSystemCall(real, name, call)
            }
            shim.xGetSystemCall = real.pointee.xGetSystemCall == nil ? nil : { vfs, name in
                let real = shimContext(vfs).real
                return real.pointee.xGetSystemCall(real, name)
            }
            shim.xNextSystemCall = real.pointee.xNextSystemCall == nil ? nil : { vfs, name in
                let real = shimContext(vfs).real
                return real.pointee.xNextSystemCall(real, name)
            }
        }
        return shim
    }
}

/// A failure of the sync-counting VFS's own API.
public struct SyncCountingVFSError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
    init(_ description: String) { self.description = description }
}
