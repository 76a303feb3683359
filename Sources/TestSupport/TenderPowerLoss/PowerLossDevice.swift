import Foundation
import CSQLite

// The volatile layer of ``PowerLossVFS``: what a disk's write cache holds. Every write and truncation of a database,
// WAL or journal file is kept here, in the process's memory, in the order it was made, and reaches the real file
// only when SQLite syncs that file. Reads and sizes see the process's own unsynced writes (the page cache); a power
// cut drops them (``PowerCut``). Files are keyed by path, as the operating system's cache is keyed by file, so
// every handle on a file shares its pending writes and a sync through any handle makes all of them durable.

/// SQLite's extended result codes the VFS returns (macro expressions, not imported into Swift).
enum ResultCode {
    static let ioerrRead = SQLITE_IOERR | (1 << 8)
    static let ioerrShortRead = SQLITE_IOERR | (2 << 8)
    static let ioerrWrite = SQLITE_IOERR | (3 << 8)
    static let ioerrFsync = SQLITE_IOERR | (4 << 8)
    static let ioerrTruncate = SQLITE_IOERR | (6 << 8)
    static let ioerrFstat = SQLITE_IOERR | (7 << 8)
    static let ioerrDelete = SQLITE_IOERR | (10 << 8)
}

/// One unsynced write or truncation.
struct PendingOperation {
    enum Kind {
        case write(Data)
        /// The file cut (or extended) to `offset` bytes.
        case truncate
    }
    /// The order of the operation among every file's (a cut tears the last one).
    var sequence: Int
    /// Where the write starts, or the size a truncation sets.
    var offset: Int64
    var kind: Kind
}

/// What the volatile layer holds for one file.
struct VolatileFile {
    /// Unsynced operations, oldest first.
    var operations: [PendingOperation] = []
    /// The size the process sees (meaningful while `operations` is not empty).
    var size: Int64 = 0
    /// Created through the VFS and never synced: its name is not on disk yet, and a cut removes it.
    var createdUnsynced = false
}

/// One file open through the VFS (the object behind a `sqlite3_file`).
final class PowerLossFile {
    let device: PowerLossDevice
    /// The file's path (`nil` for SQLite's nameless temporary files).
    let path: String?
    /// Whether its writes go through the volatile layer: a database, WAL or journal file with a name. Everything
    /// else (temporary files, the `-shm`, which is not a file of this VFS) passes through.
    let durable: Bool
    /// The power generation the file was opened in: a file opened before a cut is dead for good.
    var generation = -1
    /// The default VFS's file, right after this object's header.
    let inner: UnsafeMutablePointer<sqlite3_file>

    init(device: PowerLossDevice, path: String?, durable: Bool, inner: UnsafeMutablePointer<sqlite3_file>) {
        self.device = device
        self.path = path
        self.durable = durable
        self.inner = inner
    }

    var methods: sqlite3_io_methods { inner.pointee.pMethods.pointee }
}

/// The state of one ``PowerLossVFS``: its volatile layer, its open files, its power, its statistics. Every method
/// takes the lock: SQLite calls from any connection's thread.
final class PowerLossDevice: @unchecked Sendable {
    /// The VFS below (SQLite's default unless another was named).
    let base: UnsafeMutablePointer<sqlite3_vfs>
    let lock = NSLock()
    var generation = 0
    var powered = true
    var files: [String: VolatileFile] = [:]
    var open: [ObjectIdentifier: PowerLossFile] = [:]
    private var sequence = 0
    var statistics = PowerLossStatistics()
    /// A cut armed at a future write (``PowerLossVFS/cutPower(atWrite:_:then:)``).
    var trigger: (remaining: Int, cut: PowerCut, then: PowerLossVFS.AfterCut)?

    init(base: UnsafeMutablePointer<sqlite3_vfs>) { self.base = base }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    var isPowered: Bool { withLock { powered } }

    func isLive(_ file: PowerLossFile) -> Bool { powered && file.generation == generation }

    // MARK: Files opened and closed

    /// Records an open file. A file opened while the power is off is dead from the start.
    func opened(_ file: PowerLossFile, created: Bool) {
        withLock {
            file.generation = powered ? generation : -1
            open[ObjectIdentifier(file)] = file
            if created, file.durable, let path = file.path { files[path, default: VolatileFile()].createdUnsynced = true }
        }
    }

    func closed(_ file: PowerLossFile) { withLock { _ = open.removeValue(forKey: ObjectIdentifier(file)) } }

    /// Paths of files still open that were opened before the last cut.
    var filesOpenFromBeforeTheCut: [String] {
        withLock { open.values.filter { $0.generation != generation }.map { $0.path ?? "(temporary file)" }.sorted() }
    }

    // MARK: I/O

    /// Reads through the real file, then lays the file's unsynced operations over the bytes, in order.
    func read(_ file: PowerLossFile, _ buffer: UnsafeMutableRawPointer, _ amount: Int32, _ offset: Int64) -> Int32 {
        withLock {
            guard isLive(file) else { return ResultCode.ioerrRead }
            let rc = file.methods.xRead(file.inner, buffer, amount, offset)
            guard file.durable, let path = file.path, let volatile = files[path], !volatile.operations.isEmpty,
                  rc == SQLITE_OK || rc == ResultCode.ioerrShortRead else { return rc }
            let start = offset
            let end = offset + Int64(amount)
            for operation in volatile.operations {
                switch operation.kind {
                case .write(let data):
                    let low = max(start, operation.offset)
                    let high = min(end, operation.offset + Int64(data.count))
                    guard low < high else { continue }
                    data.withUnsafeBytes { bytes in
                        (buffer + Int(low - start)).copyMemory(from: bytes.baseAddress! + Int(low - operation.offset),
                                                               byteCount: Int(high - low))
                    }
                case .truncate:
                    let low = max(start, operation.offset)
                    if low < end { memset(buffer + Int(low - start), 0, Int(end - low)) }
                }
            }
            guard end > volatile.size else { return SQLITE_OK }
            let low = max(start, volatile.size)
            memset(buffer + Int(low - start), 0, Int(end - low))
            return ResultCode.ioerrShortRead
        }
    }

    /// Keeps a write in the volatile layer (or forwards it, for a file that passes through). May fire an armed cut.
    func write(_ file: PowerLossFile, _ buffer: UnsafeRawPointer, _ amount: Int32, _ offset: Int64) -> Int32 {
        withLock {
            guard isLive(file) else { return ResultCode.ioerrWrite }
            guard file.durable, let path = file.path else { return file.methods.xWrite(file.inner, buffer, amount, offset) }
            statistics.writes += 1
            let end = offset + Int64(amount)
            let sequence = append(.write(Data(bytes: buffer, count: Int(amount))), at: offset, to: path, of: file) {
                max($0, end)
            }
            return fireTriggerIfDue(inFlight: sequence) ?? SQLITE_OK
        }
    }

    /// Keeps a truncation in the volatile layer (or forwards it).
    func truncate(_ file: PowerLossFile, _ size: Int64) -> Int32 {
        withLock {
            guard isLive(file) else { return ResultCode.ioerrTruncate }
            guard file.durable, let path = file.path else { return file.methods.xTruncate(file.inner, size) }
            _ = append(.truncate, at: size, to: path, of: file) { _ in size }
            return SQLITE_OK
        }
    }

    private func append(_ kind: PendingOperation.Kind, at offset: Int64, to path: String, of file: PowerLossFile,
                        size: (Int64) -> Int64) -> Int {
        var volatile = files[path] ?? VolatileFile()
        if volatile.operations.isEmpty {
            var real: sqlite3_int64 = 0
            volatile.size = file.methods.xFileSize(file.inner, &real) == SQLITE_OK ? real : 0
        }
        sequence += 1
        volatile.operations.append(PendingOperation(sequence: sequence, offset: offset, kind: kind))
        volatile.size = size(volatile.size)
        files[path] = volatile
        return sequence
    }

    /// Writes the file's unsynced operations to the real file, in order, then syncs it: now they survive a cut.
    func sync(_ file: PowerLossFile, _ flags: Int32) -> Int32 {
        withLock {
            guard isLive(file) else { return ResultCode.ioerrFsync }
            statistics.syncs += 1
            if file.durable, let path = file.path, let volatile = files[path] {
                for operation in volatile.operations {
                    let rc = apply(operation, keeping: nil, through: file.inner)
                    guard rc == SQLITE_OK else { return rc }
                }
                let rc = file.methods.xSync(file.inner, flags)
                guard rc == SQLITE_OK else { return rc }
                files[path] = nil
                return SQLITE_OK
            }
            return file.methods.xSync(file.inner, flags)
        }
    }

    /// The size the process sees.
    func fileSize(_ file: PowerLossFile, _ size: UnsafeMutablePointer<sqlite3_int64>) -> Int32 {
        withLock {
            guard isLive(file) else { return ResultCode.ioerrFstat }
            if file.durable, let path = file.path, let volatile = files[path], !volatile.operations.isEmpty {
                size.pointee = volatile.size
                return SQLITE_OK
            }
            return file.methods.xFileSize(file.inner, size)
        }
    }

    /// For `xAccess(SQLITE_ACCESS_EXISTS)`: whether the file exists as the process sees it (the default VFS counts
    /// an empty file as absent), or `nil` when the real file tells.
    func existsAsSeen(_ path: String) -> Bool? {
        withLock {
            guard let volatile = files[path], !volatile.operations.isEmpty else { return nil }
            return volatile.size > 0
        }
    }

    /// A file was deleted (deletions pass through, durable at once): its unsynced operations go with it.
    func deleted(_ path: String) { withLock { files[path] = nil } }
}

extension PendingOperation {
    /// Bytes written (0 for a truncation).
    var length: Int { if case .write(let data) = kind { data.count } else { 0 } }
}
