import Foundation
import CSQLite
import TenderPowerLoss

/// A bare SQLite connection for the VFS's tests (no Tender in between).
final class RawConnection {
    private var db: OpaquePointer?

    init(_ path: String, vfs: String?, create: Bool = true) throws {
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let rc = sqlite3_open_v2(path, &db, flags, vfs)
        guard rc == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "error \(rc)"
            sqlite3_close_v2(db)
            db = nil
            throw RawError(message: "open: \(message)")
        }
    }

    deinit { close() }

    func close() {
        if let db { sqlite3_close_v2(db) }
        db = nil
    }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard rc == SQLITE_OK else {
            throw RawError(message: "\(sql): " + (message.map { String(cString: $0) } ?? "error \(rc)"))
        }
    }

    /// Every row's first column as text.
    func column(_ sql: String) throws -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw RawError(message: "\(sql): " + String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        var values: [String] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return values }
            guard rc == SQLITE_ROW else { throw RawError(message: "\(sql): " + String(cString: sqlite3_errmsg(db))) }
            values.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
        }
    }

    func integer(_ sql: String) throws -> Int { Int(try column(sql).first ?? "") ?? -1 }
}

struct RawError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A fresh directory, removed when `body` returns.
func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("tender-power-loss-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// The size of a file on disk (what survived), or nil.
func sizeOnDisk(_ path: String) -> Int64? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
}

/// Opens `path` with the power-loss VFS's own file methods (no SQLite pager), for the layer's byte-level tests.
final class VFSFile {
    let vfs: UnsafeMutablePointer<sqlite3_vfs>
    let file: UnsafeMutablePointer<sqlite3_file>
    private let name: UnsafeMutablePointer<CChar>
    private var isOpen = false

    init(_ path: String, through powerLoss: PowerLossVFS, flags: Int32) throws {
        guard let vfs = sqlite3_vfs_find(powerLoss.name) else { throw RawError(message: "VFS not registered") }
        self.vfs = vfs
        // SQLite requires a full path for the main database, with room for URI parameters after it.
        name = strdup(path + "\0\0\0")
        let raw = UnsafeMutableRawPointer.allocate(byteCount: Int(vfs.pointee.szOsFile), alignment: 16)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: Int(vfs.pointee.szOsFile))
        file = raw.assumingMemoryBound(to: sqlite3_file.self)
        var outFlags: Int32 = 0
        let rc = vfs.pointee.xOpen(vfs, name, file, flags, &outFlags)
        guard rc == SQLITE_OK else { throw RawError(message: "xOpen \(rc)") }
        isOpen = true
    }

    deinit {
        close()
        UnsafeMutableRawPointer(file).deallocate()
        free(name)
    }

    func close() {
        guard isOpen else { return }
        isOpen = false
        _ = file.pointee.pMethods.pointee.xClose(file)
    }

    var methods: sqlite3_io_methods { file.pointee.pMethods.pointee }

    @discardableResult
    func write(_ bytes: [UInt8], at offset: Int64) -> Int32 {
        bytes.withUnsafeBytes { methods.xWrite(file, $0.baseAddress, Int32(bytes.count), offset) }
    }

    func read(_ count: Int, at offset: Int64) -> (rc: Int32, bytes: [UInt8]) {
        var buffer = [UInt8](repeating: 0xEE, count: count)
        let rc = buffer.withUnsafeMutableBytes { methods.xRead(file, $0.baseAddress, Int32(count), offset) }
        return (rc, buffer)
    }

    var size: Int64 {
        var size: sqlite3_int64 = -1
        _ = methods.xFileSize(file, &size)
        return size
    }

    @discardableResult
    func truncate(_ size: Int64) -> Int32 { methods.xTruncate(file, size) }

    @discardableResult
    func sync() -> Int32 { methods.xSync(file, SQLITE_SYNC_NORMAL) }
}

/// `SQLITE_IOERR_SHORT_READ`.
let shortRead = SQLITE_IOERR | (2 << 8)
