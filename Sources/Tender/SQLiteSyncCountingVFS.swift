import Foundation
import CSQLite

/// How many times a connection asked the operating system to sync a file to disk (`fsync`/`fdatasync`), by file.
package struct SQLiteSyncCounts: Hashable, Sendable {
    /// Syncs of the database file itself: the second half of every checkpoint.
    package var database = 0
    /// Syncs of the write-ahead log: every durable commit, the first half of every checkpoint, and the header of a
    /// log that starts over after a checkpoint.
    package var wal = 0
    /// Syncs of a rollback journal (only before a new file is switched to WAL mode).
    package var journal = 0
    /// Syncs of any other file (none: temporary tables live in memory).
    package var other = 0

    /// No syncs.
    package init() {}

    /// Every sync.
    package var total: Int { database + wal + journal + other }

    /// The syncs made since `earlier`.
    package func since(_ earlier: SQLiteSyncCounts) -> SQLiteSyncCounts {
        var delta = SQLiteSyncCounts()
        delta.database = database - earlier.database
        delta.wal = wal - earlier.wal
        delta.journal = journal - earlier.journal
        delta.other = other - earlier.other
        return delta
    }
}

/// One write-level operation on a database file, as seen by ``SQLiteSyncCountingVFS`` when it records them (tests:
/// rebuilding what a power loss would leave on disk).
enum SQLiteFileOperation: Sendable {
    case write(path: String, offset: Int64, bytes: Data)
    case truncate(path: String, size: Int64)
    case sync(path: String)
}

/// The counts of one connection, updated by SQLite's calls on the connection's thread and readable from any thread.
/// Optionally also records every write, truncation and sync (see ``SQLiteFileOperation``).
package final class SQLiteSyncCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = SQLiteSyncCounts()
    private var walBytes = 0
    private var operations: [SQLiteFileOperation]?

    /// A counter; with `recordingOperations`, a recorder of every write-level operation too.
    init(recordingOperations: Bool = false) {
        operations = recordingOperations ? [] : nil
    }

    /// The counts so far.
    package var counts: SQLiteSyncCounts {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    /// Bytes written into the write-ahead log so far (frames and headers): how fast it grows toward a checkpoint.
    package var walBytesWritten: Int {
        lock.lock()
        defer { lock.unlock() }
        return walBytes
    }

    fileprivate func recordWALWrite(bytes: Int) {
        lock.lock()
        defer { lock.unlock() }
        walBytes += bytes
    }

    /// Whether write-level operations are recorded.
    var isRecording: Bool { operations != nil }

    /// The recorded operations, in order (empty unless recording).
    var recordedOperations: [SQLiteFileOperation] {
        lock.lock()
        defer { lock.unlock() }
        return operations ?? []
    }

    fileprivate func recordSync(openFlags: Int32, path: String?) {
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

    fileprivate func record(_ operation: SQLiteFileOperation) {
        lock.lock()
        defer { lock.unlock() }
        operations?.append(operation)
    }
}

/// A VFS shim over SQLite's default VFS (or another registered one) that counts `xSync` calls per file: the honest
/// count of what a commit or a checkpoint costs in syncs, without timing anything. Each counting connection registers
/// its own instance (its `pAppData` points at its counter) and unregisters it when the connection is closed. Every
/// call is forwarded to the VFS below unchanged; the shim only adds a 32-byte header in front of each open file.
final class SQLiteSyncCountingVFS {
    /// The name the connection is opened with.
    let name: String
    /// The counter this VFS updates.
    let counter: SQLiteSyncCounter
    private let vfs: UnsafeMutablePointer<sqlite3_vfs>
    private let cName: UnsafeMutablePointer<CChar>
    private let context: Unmanaged<Context>
    private var registered = true

    /// What the shim's functions reach through `pAppData`.
    fileprivate final class Context {
        let real: UnsafeMutablePointer<sqlite3_vfs>
        let counter: SQLiteSyncCounter
        init(real: UnsafeMutablePointer<sqlite3_vfs>, counter: SQLiteSyncCounter) {
            self.real = real
            self.counter = counter
        }
    }

    /// Registers a new instance over the registered VFS named `base` (`nil`: the default VFS).
    init(counter: SQLiteSyncCounter = SQLiteSyncCounter(), over base: String? = nil) throws {
        guard let real = sqlite3_vfs_find(base) else {
            throw SQLiteError(extendedCode: SQLITE_ERROR,
                              message: base.map { "no SQLite VFS named \($0) is registered" } ?? "no default SQLite VFS")
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
            throw SQLiteError(extendedCode: rc, message: "the sync-counting VFS could not be registered")
        }
    }

    /// Unregisters the VFS. Call only once no connection uses it. Idempotent.
    func unregister() {
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

// MARK: - The wrapped file

/// The header in front of each wrapped file: offset 0 the shim's `pMethods` (as `sqlite3_file` requires), 8 the
/// counter (unretained: the VFS outlives its files), 16 the open flags, 20 whether operations are recorded, 24 the
/// file's path while recording (a retained `NSString`, released by `xClose`), then the default VFS's own file.
private let shimFileHeaderSize = 32

private func shimContext(_ vfs: UnsafeMutablePointer<sqlite3_vfs>?) -> SQLiteSyncCountingVFS.Context {
    Unmanaged<SQLiteSyncCountingVFS.Context>.fromOpaque(vfs!.pointee.pAppData).takeUnretainedValue()
}

private func innerFile(_ file: UnsafeMutablePointer<sqlite3_file>?) -> UnsafeMutablePointer<sqlite3_file> {
    (UnsafeMutableRawPointer(file!) + shimFileHeaderSize).assumingMemoryBound(to: sqlite3_file.self)
}

private func counter(of file: UnsafeMutablePointer<sqlite3_file>?) -> SQLiteSyncCounter {
    let raw = UnsafeMutableRawPointer(file!).load(fromByteOffset: 8, as: UnsafeMutableRawPointer.self)
    return Unmanaged<SQLiteSyncCounter>.fromOpaque(raw).takeUnretainedValue()
}

private func openFlags(of file: UnsafeMutablePointer<sqlite3_file>?) -> Int32 {
    UnsafeMutableRawPointer(file!).load(fromByteOffset: 16, as: Int32.self)
}

/// The file's path when its operations are recorded, else `nil`.
private func recordedPath(of file: UnsafeMutablePointer<sqlite3_file>?) -> String? {
    let raw = UnsafeMutableRawPointer(file!)
    guard raw.load(fromByteOffset: 20, as: Int32.self) != 0,
          let path = raw.load(fromByteOffset: 24, as: UnsafeMutableRawPointer?.self) else { return nil }
    return Unmanaged<NSString>.fromOpaque(path).takeUnretainedValue() as String
}

/// The shim's method tables for files whose default methods are of version 1, 2 and 3: written once, when first
/// used, and only read after that.
private struct ShimIOMethodTables: @unchecked Sendable {
    let tables: [UnsafeMutablePointer<sqlite3_io_methods>]
    subscript(index: Int) -> UnsafeMutablePointer<sqlite3_io_methods> { tables[index] }
}

private let shimIOMethods = ShimIOMethodTables(tables: (1...3).map { version in
    var m = sqlite3_io_methods()
    m.iVersion = Int32(version)
    m.xClose = { file in
        let raw = UnsafeMutableRawPointer(file!)
        if raw.load(fromByteOffset: 20, as: Int32.self) != 0,
           let path = raw.load(fromByteOffset: 24, as: UnsafeMutableRawPointer?.self) {
            Unmanaged<NSString>.fromOpaque(path).release()
            raw.storeBytes(of: nil, toByteOffset: 24, as: UnsafeMutableRawPointer?.self)
        }
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xClose(f)
    }
    m.xRead = { file, buffer, amount, offset in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xRead(f, buffer, amount, offset)
    }
    m.xWrite = { file, buffer, amount, offset in
        if openFlags(of: file) & SQLITE_OPEN_WAL != 0 { counter(of: file).recordWALWrite(bytes: Int(amount)) }
        if let path = recordedPath(of: file), let buffer {
            counter(of: file).record(.write(path: path, offset: offset, bytes: Data(bytes: buffer, count: Int(amount))))
        }
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xWrite(f, buffer, amount, offset)
    }
    m.xTruncate = { file, size in
        if let path = recordedPath(of: file) { counter(of: file).record(.truncate(path: path, size: size)) }
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xTruncate(f, size)
    }
    m.xSync = { file, flags in
        counter(of: file).recordSync(openFlags: openFlags(of: file), path: recordedPath(of: file))
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xSync(f, flags)
    }
    m.xFileSize = { file, size in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xFileSize(f, size)
    }
    m.xLock = { file, level in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xLock(f, level)
    }
    m.xUnlock = { file, level in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xUnlock(f, level)
    }
    m.xCheckReservedLock = { file, result in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xCheckReservedLock(f, result)
    }
    m.xFileControl = { file, operation, argument in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xFileControl(f, operation, argument)
    }
    m.xSectorSize = { file in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xSectorSize(f)
    }
    m.xDeviceCharacteristics = { file in
        let f = innerFile(file)
        return f.pointee.pMethods.pointee.xDeviceCharacteristics(f)
    }
    if version >= 2 {
        m.xShmMap = { file, region, size, extend, pointer in
            let f = innerFile(file)
            return f.pointee.pMethods.pointee.xShmMap(f, region, size, extend, pointer)
        }
        m.xShmLock = { file, offset, count, flags in
            let f = innerFile(file)
            return f.pointee.pMethods.pointee.xShmLock(f, offset, count, flags)
        }
        m.xShmBarrier = { file in
            let f = innerFile(file)
            f.pointee.pMethods.pointee.xShmBarrier(f)
        }
        m.xShmUnmap = { file, delete in
            let f = innerFile(file)
            return f.pointee.pMethods.pointee.xShmUnmap(f, delete)
        }
    }
    if version >= 3 {
        m.xFetch = { file, offset, amount, pointer in
            let f = innerFile(file)
            return f.pointee.pMethods.pointee.xFetch(f, offset, amount, pointer)
        }
        m.xUnfetch = { file, offset, pointer in
            let f = innerFile(file)
            return f.pointee.pMethods.pointee.xUnfetch(f, offset, pointer)
        }
    }
    let table = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
    table.initialize(to: m)
    return table
})
