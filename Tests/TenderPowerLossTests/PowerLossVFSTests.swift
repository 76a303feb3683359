import Foundation
import CSQLite
import Testing
import TenderPowerLoss

@Suite("The power-loss VFS: the volatile layer, cuts, torn writes, SQLite's recovery")
struct PowerLossVFSTests {
    // MARK: The layer, byte by byte

    @Test("reads and sizes see the process's unsynced writes; the file on disk gets them only at a sync")
    func unsyncedWritesAreSeenButNotOnDisk() async throws {
        try await withDirectory { directory in
            let vfs = try PowerLossVFS()
            defer { vfs.unregister() }
            let path = directory.appendingPathComponent("bytes.db").path
            let file = try VFSFile(path, through: vfs, flags: SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            #expect(file.write([1, 2, 3, 4], at: 8) == SQLITE_OK)
            #expect(file.size == 12, "the size counts the unsynced write")
            #expect(sizeOnDisk(path) == 0, "nothing on disk before the sync")
            #expect(file.read(4, at: 8).bytes == [1, 2, 3, 4])
            #expect(file.read(8, at: 0) == (SQLITE_OK, [0, 0, 0, 0, 0, 0, 0, 0]), "the hole reads as zeros")
            let beyond = file.read(8, at: 8)
            #expect(beyond.rc == shortRead && beyond.bytes == [1, 2, 3, 4, 0, 0, 0, 0], "past the end: a short read")
            #expect(file.truncate(10) == SQLITE_OK)
            #expect(file.size == 10)
            #expect(file.read(2, at: 8).bytes == [1, 2])
            #expect(file.read(4, at: 8).rc == shortRead)
            #expect(vfs.statistics.pendingOperations == 2)
            #expect(file.sync() == SQLITE_OK)
            #expect(sizeOnDisk(path) == 10 && vfs.statistics.pendingOperations == 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data([0, 0, 0, 0, 0, 0, 0, 0, 1, 2]))
            file.close()
        }
    }

    @Test("a cut drops every unsynced write and truncation, keeps what was synced, and removes a never-synced file")
    func cutDropsUnsyncedWrites() async throws {
        try await withDirectory { directory in
            let vfs = try PowerLossVFS()
            defer { vfs.unregister() }
            let synced = directory.appendingPathComponent("synced.db").path
            let fresh = directory.appendingPathComponent("fresh.db").path
            let a = try VFSFile(synced, through: vfs, flags: SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            a.write([7, 7, 7, 7], at: 0)
            a.sync()
            a.write([9, 9], at: 2)         // lost
            a.truncate(1)                  // lost
            a.write([5], at: 6)            // lost
            let b = try VFSFile(fresh, through: vfs, flags: SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            b.write([1], at: 0)
            let report = vfs.cutPower()
            #expect(report.droppedOperations == 4 && report.tornWrite == nil)
            #expect(report.removedFiles == [fresh])
            #expect(!FileManager.default.fileExists(atPath: fresh), "a file never synced loses its name")
            #expect(try Data(contentsOf: URL(fileURLWithPath: synced)) == Data([7, 7, 7, 7]))
            // Dead files: every operation fails; no file opens; power comes back only once they are closed.
            #expect(a.write([1], at: 0) != SQLITE_OK && a.read(1, at: 0).rc != SQLITE_OK && a.sync() != SQLITE_OK)
            #expect(throws: RawError.self, "nothing opens while the power is off") {
                try VFSFile(synced, through: vfs, flags: SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_READWRITE)
            }
            #expect(throws: PowerLossError.self) { try vfs.restorePower() }
            a.close()
            b.close()
            try vfs.restorePower()
            let again = try VFSFile(synced, through: vfs, flags: SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_READWRITE)
            #expect(again.size == 4 && again.read(4, at: 0).bytes == [7, 7, 7, 7])
            again.close()
        }
    }

    @Test("a torn cut writes whole sectors of the write in flight, never all of it, and drops the rest")
    func tornWriteKeepsWholeSectors() async throws {
        try await withDirectory { directory in
            for seed in UInt64(1)...20 {
                let vfs = try PowerLossVFS()
                defer { vfs.unregister() }
                let path = directory.appendingPathComponent("torn-\(seed).db").path
                _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 0xAA, count: 4096))
                let file = try VFSFile(path, through: vfs, flags: SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_READWRITE)
                file.write([UInt8](repeating: 1, count: 16), at: 0)   // dropped
                vfs.cutPower(atWrite: 1, .tornWrite(seed: seed))
                // 3,000 bytes from offset 700: sector boundaries at 1024, 1536, 2048, 2560, 3072, 3584.
                #expect(file.write([UInt8](repeating: 2, count: 3_000), at: 700) != SQLITE_OK, "the write in flight fails")
                #expect(!vfs.isPowered && vfs.statistics.tornWrites == 1)
                file.close()
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                let kept = bytes[700..<3_700].prefix { $0 == 2 }.count
                #expect(bytes.count == 4096 && bytes[0..<16].allSatisfy { $0 == 0xAA }, "the earlier write is lost")
                #expect(kept > 0 && kept < 3_000 && (700 + kept) % 512 == 0, "seed \(seed): kept \(kept) bytes")
                #expect(bytes[(700 + kept)...].allSatisfy { $0 == 0xAA }, "seed \(seed): the rest is as it was")
            }
        }
    }

    /// A torn write past the end of the file extends it to the write's end (sizes change by whole write calls), the
    /// part that did not reach the disk reading as zeros.
    @Test("a one-sector write reaches the disk whole or not at all; a torn write past the end extends the file")
    func tornWriteAtomicSectorAndExtension() async throws {
        try await withDirectory { directory in
            var outcomes: Set<Bool> = []
            for seed in UInt64(1)...16 {
                let vfs = try PowerLossVFS()
                defer { vfs.unregister() }
                let path = directory.appendingPathComponent("sector-\(seed).db").path
                _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 0xAA, count: 1024))
                let file = try VFSFile(path, through: vfs, flags: SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_READWRITE)
                vfs.cutPower(atWrite: 1, .tornWrite(seed: seed))
                file.write([UInt8](repeating: 3, count: 24), at: 512)
                file.close()
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                let whole = bytes[512..<536].allSatisfy { $0 == 3 }
                #expect(whole || bytes[512..<536].allSatisfy { $0 == 0xAA }, "seed \(seed): a sector torn inside")
                outcomes.insert(whole)
            }
            #expect(outcomes == [true, false], "both whole and lost happen")

            let vfs = try PowerLossVFS()
            defer { vfs.unregister() }
            let path = directory.appendingPathComponent("extend.db").path
            _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 0xAA, count: 4096))
            let file = try VFSFile(path, through: vfs, flags: SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_READWRITE)
            vfs.cutPower(atWrite: 1, .tornWrite(seed: 9))
            file.write([UInt8](repeating: 4, count: 4096), at: 4096)
            file.close()
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let kept = bytes[4096...].prefix { $0 == 4 }.count
            #expect(bytes.count == 8192, "the size changes by the whole write")
            #expect(kept > 0 && kept < 4096 && kept % 512 == 0 && bytes[(4096 + kept)...].allSatisfy { $0 == 0 })
        }
    }

    // MARK: SQLite over the layer

    /// A WAL database with rows 1…`synced` committed durably and rows after it committed without a sync.
    private func makeDatabase(_ path: String, vfs: PowerLossVFS, synced: Int, unsynced: Int) throws -> RawConnection {
        let db = try RawConnection(path, vfs: vfs.name)
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE t(x INTEGER, pad BLOB);")
        for x in 1...max(1, synced) where synced > 0 { try db.execute("INSERT INTO t VALUES (\(x), randomblob(3000))") }
        try db.execute("PRAGMA synchronous = NORMAL")
        for x in stride(from: synced + 1, through: synced + unsynced, by: 1) {
            try db.execute("INSERT INTO t VALUES (\(x), randomblob(3000))")
        }
        return db
    }

    /// Opens what survived with SQLite's default VFS: integrity, and the rows.
    private func survivors(_ path: String) throws -> (check: [String], rows: [Int]) {
        let db = try RawConnection(path, vfs: nil, create: false)
        defer { db.close() }
        return (try db.column("PRAGMA integrity_check"), try db.column("SELECT x FROM t ORDER BY x").compactMap { Int($0) })
    }

    @Test("SQLite: commits made without a sync are lost at a cut, synced ones survive (in-process reads saw them all)")
    func unsyncedCommitsAreLost() async throws {
        try await withDirectory { directory in
            let vfs = try PowerLossVFS()
            defer { vfs.unregister() }
            let path = directory.appendingPathComponent("wal.db").path
            let db = try makeDatabase(path, vfs: vfs, synced: 3, unsynced: 2)
            #expect(try db.integer("SELECT COUNT(*) FROM t") == 5, "the process reads its own unsynced commits")
            #expect(vfs.statistics.pendingOperations > 0)
            vfs.cutPower()
            db.close()
            try vfs.restorePower()
            let (check, rows) = try survivors(path)
            #expect(check == ["ok"] && rows == [1, 2, 3])
        }
    }

    @Test("SQLite: a torn or reordered cut never corrupts, and never keeps a commit made after the last sync in part",
          arguments: [PowerCut.tornWrite(seed: 1), .tornWrite(seed: 2), .tornWrite(seed: 3), .reordered(seed: 4),
                      .reordered(seed: 5), .reordered(seed: 6), .reordered(seed: 7), .reordered(seed: 8)])
    func tornAndReorderedCuts(_ cut: PowerCut) async throws {
        try await withDirectory { directory in
            let vfs = try PowerLossVFS()
            defer { vfs.unregister() }
            let path = directory.appendingPathComponent("torn.db").path
            let db = try makeDatabase(path, vfs: vfs, synced: 4, unsynced: 3)
            let report = vfs.cutPower(cut)
            if case .tornWrite = cut { #expect(report.tornWrite != nil) }
            db.close()
            try vfs.restorePower()
            let (check, rows) = try survivors(path)
            #expect(check == ["ok"], "\(cut): \(report)")
            // Whole commits only, in order: the synced four and possibly some of the later ones (a reordering disk
            // may have let every frame of one through).
            #expect(rows.count >= 4 && rows == Array(1...rows.count), "\(cut): \(rows)")
            if case .tornWrite = cut { #expect(rows == [1, 2, 3, 4]) }
        }
    }

    @Test("SQLite: a cut at any write of a checkpoint (whole pages or torn) leaves every synced row and a sound file")
    func cutDuringCheckpoint() async throws {
        try await withDirectory { directory in
            // How many writes a checkpoint of this database makes, and where they land.
            let reference = try PowerLossVFS()
            let referencePath = directory.appendingPathComponent("reference.db").path
            let measured = try makeDatabase(referencePath, vfs: reference, synced: 12, unsynced: 0)
            let before = reference.statistics.writes
            try measured.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            let checkpointWrites = reference.statistics.writes - before
            measured.close()
            reference.unregister()
            #expect(checkpointWrites >= 12, "the checkpoint copies every page")

            for write in 1...checkpointWrites {
                for cut in [PowerCut.wholePages, .tornWrite(seed: UInt64(write))] {
                    let vfs = try PowerLossVFS()
                    defer { vfs.unregister() }
                    let path = directory.appendingPathComponent("checkpoint-\(write)-\(cut.hashValue).db").path
                    let db = try makeDatabase(path, vfs: vfs, synced: 12, unsynced: 0)
                    vfs.cutPower(atWrite: write, cut)
                    #expect(throws: RawError.self) { try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
                    db.close()
                    try vfs.restorePower()
                    let (check, rows) = try survivors(path)
                    #expect(check == ["ok"] && rows == Array(1...12), "cut at checkpoint write \(write) (\(cut))")
                }
            }
        }
    }

    @Test("SQLite: a cut at every write from the file's creation reopens whole, with exactly the durable commits")
    func cutAtEveryWriteFromCreation() async throws {
        try await withDirectory { directory in
            // Transactions 1…6, the even ones durable; `returned` gets each durable one once its commit returned.
            func run(_ db: RawConnection, returned: inout [Int]) throws {
                try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE t(x INTEGER, pad BLOB);")
                for x in 1...6 {
                    try db.execute("PRAGMA synchronous = \(x.isMultiple(of: 2) ? "FULL" : "NORMAL")")
                    try db.execute("INSERT INTO t VALUES (\(x), randomblob(5000))")
                    if x.isMultiple(of: 2) { returned.append(x) }
                }
            }
            let reference = try PowerLossVFS()
            let db = try RawConnection(directory.appendingPathComponent("reference.db").path, vfs: reference.name)
            var all: [Int] = []
            try run(db, returned: &all)
            let total = reference.statistics.writes
            db.close()
            reference.unregister()
            #expect(all == [2, 4, 6] && total > 12)

            for write in 1...total {
                let vfs = try PowerLossVFS()
                defer { vfs.unregister() }
                let path = directory.appendingPathComponent("every-\(write).db").path
                vfs.cutPower(atWrite: write, write.isMultiple(of: 2) ? .tornWrite(seed: UInt64(write)) : .wholePages)
                let db = try RawConnection(path, vfs: vfs.name)
                var returned: [Int] = []
                #expect(throws: RawError.self, "the cut fires") { try run(db, returned: &returned) }
                db.close()
                try vfs.restorePower()
                var rows: [Int] = []
                if let size = sizeOnDisk(path), size > 0 {
                    let check = try RawConnection(path, vfs: nil, create: false)
                    #expect(try check.column("PRAGMA integrity_check") == ["ok"], "cut at write \(write)")
                    if try check.integer("SELECT COUNT(*) FROM sqlite_master WHERE name = 't'") == 1 {
                        rows = try check.column("SELECT x FROM t ORDER BY x").compactMap { Int($0) }
                    }
                    check.close()
                }
                #expect(rows == Array(rows.indices.map { $0 + 1 }), "cut at write \(write): \(rows) are not whole commits in order")
                // Exactly what was synced: every durable commit that returned, none of the unsynced ones after it.
                #expect(rows.count == (returned.last ?? 0), "cut at write \(write): \(rows) after durable \(returned)")
            }
        }
    }
}
