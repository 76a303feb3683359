import Foundation

/// POSIX file operations the ledger needs around SQLite: creating its file owner-only, reading sizes and modes, and
/// the private scratch copies on which a rollback journal is tried before the real file is touched.
enum LedgerFile {
    /// Creates `path` with owner-only permissions (0600), failing if it already exists.
    static func createOwnerOnly(_ path: String) -> Int32? {
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return errno }
        _ = closeDescriptor(fd)
        return nil
    }

    private static func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }

    /// The file's type-and-permission bits and size, or `nil` if it does not exist.
    static func status(_ path: String) -> (mode: mode_t, size: Int64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mode, Int64(info.st_size))
    }

    /// The size of `path`, or `nil` if it does not exist.
    static func size(_ path: String) -> Int64? { status(path)?.size }

    /// Restricts `path` to owner read and write.
    static func makeOwnerOnly(_ path: String) {
        _ = chmod(path, 0o600)
    }

    /// Whether `mode` is a regular file.
    static func isRegularFile(_ mode: mode_t) -> Bool { (mode & S_IFMT) == S_IFREG }

    /// The message for an `errno` value.
    static func describe(errno code: Int32) -> String { String(cString: strerror(code)) }

    /// Up to `count` bytes from the start of `path`.
    static func prefix(_ path: String, count: Int) throws -> Data {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        return try handle.read(upToCount: count) ?? Data()
    }

    /// A new private (0700) directory for scratch copies of a ledger, removed by the caller.
    static func makeScratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tender-ledger-check-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return directory
    }

    /// Copies `source` to `destination` (which must not exist), owner-only.
    static func copyOwnerOnly(_ source: String, to destination: String) throws {
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        makeOwnerOnly(destination)
    }
}
