import Foundation
import Testing
@testable import Tender
import TenderTesting

/// The ledger's WAL is reused in place once it has held a checkpoint's worth of log, and its automatic checkpoint is
/// the ledger's own WAL hook (`SQLiteWALSpace.swift`).
@Suite("SQLite ledger: the WAL reused in place")
struct SQLiteWALSpaceTests: SQLiteLedgerFixtures {
    @Test("the WAL hook checkpoints at its threshold, and later logs overwrite the same file")
    func checkpointsAndReusesTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tender-wal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("space.sqlite").path
        let db = try SQLiteDatabase(path: path, mode: .readWriteCreate)
        #expect(try db.scalarText("PRAGMA journal_mode = WAL") == "wal")
        let space = WALSpace(checkpointPages: 40, pageSize: 4_096, frames: 0)
        try db.installWALSpace(space)
        try db.writeTransaction(durable: true) { try db.execute("CREATE TABLE t (x BLOB)") }
        var restarts = 0
        var previous = 0
        var sizeAtFirstRestart: Int64?
        var growthsAfter = 0
        for _ in 0..<300 {
            let before = LedgerFile.size(path + "-wal") ?? 0
            try db.writeTransaction(durable: false) { try db.execute("INSERT INTO t VALUES (zeroblob(3000))") }
            let frames = try #require(space.frames)
            #expect(frames < 40 + 4, "a commit past the threshold checkpoints: \(frames) frames")
            // The hook's count and the file's agree (a checkpointed log counts until the next commit restarts it).
            let counted = try #require(LedgerFile.walFrames(path + "-wal"))
            #expect(counted == frames || frames == 0, "the file has \(counted) frames, the hook \(frames)")
            let after = LedgerFile.size(path + "-wal") ?? 0
            if sizeAtFirstRestart != nil, after != before { growthsAfter += 1 }
            if frames < previous {
                restarts += 1
                if sizeAtFirstRestart == nil { sizeAtFirstRestart = after }
            }
            previous = frames
            #expect(after <= space.capacity, "the file never passes a checkpoint's worth of log")
        }
        #expect(restarts >= 5, "the log restarted \(restarts) times")
        // Later logs overwrite the first one's bytes: the file grows again only when a log ends a frame or two past
        // the longest before it (the commit that crosses the threshold varies). `keepsTheFileAtRestart` shows the
        // ledger's limit keeping a whole log's file.
        #expect(growthsAfter <= 3, "after the first restart the file grew \(growthsAfter) times in \(300 - 40) commits")
        #expect(try db.scalarInteger("SELECT COUNT(*) FROM t") == 300)
        db.close()
        let reopened = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try reopened.scalarInteger("SELECT COUNT(*) FROM t") == 300)
        reopened.close()
    }

    @Test("the ledger keeps a checkpoint's worth of WAL when the log restarts, instead of truncating it to 4 MiB")
    func keepsTheFileAtRestart() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let ledger = try await SQLitePaymentLedger.open(url: url)
            try await ledger.insertBatch((0..<300).map { newSession("s-\($0)", usd(Int64(100 + $0))) })
            for index in 0..<300 {
                _ = try await ledger.record(SessionChange(reference: "s-\(index)", expectedState: .created,
                                                          newState: .collecting, at: at(1)), scope: shop)
            }
            let grown = try #require(LedgerFile.size(url.path + "-wal"))
            try #require(grown > SQLitePaymentLedger.walBytesCheckpointedAtOpening)
            await ledger.close()
            // Opening checkpoints the large log and restarts it: the file keeps its length (the old design truncated
            // it to 4 MiB here, and the next 4 MiB of log appended again).
            let reopened = try await SQLitePaymentLedger.open(url: url)
            try await reopened.insert(newSession("next", usd(1)))
            #expect(try #require(LedgerFile.walFrames(url.path + "-wal")) <= 16, "the log restarted")
            #expect(LedgerFile.size(url.path + "-wal") == grown, "the restarted log overwrites the same file")
            #expect(try await reopened.allSessions(scope: shop).count == 301)
            await reopened.close()
        }
    }

    @Test("frames are counted from the file: none without a WAL or a valid header, only the current log's after a restart")
    func countsFramesFromTheFile() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            #expect(LedgerFile.walFrames(url.path + "-wal") == nil)
            try Data(count: 1 << 20).write(to: URL(fileURLWithPath: url.path + "-wal"))
            #expect(LedgerFile.walFrames(url.path + "-wal") == nil, "zeros are no log")
            try FileManager.default.removeItem(atPath: url.path + "-wal")

            let ledger = try await SQLitePaymentLedger.open(url: url)
            try await ledger.insert(newSession("A", usd(1)))
            let frames = try #require(LedgerFile.walFrames(url.path + "-wal"))
            #expect(frames > 0)
            try await ledger.insert(newSession("B", usd(1)))
            #expect(try #require(LedgerFile.walFrames(url.path + "-wal")) > frames)
            try await ledger.checkpoint()
            try await ledger.insert(newSession("C", usd(1)))
            #expect(try #require(LedgerFile.walFrames(url.path + "-wal")) <= frames, "a restarted log counts from one")
            await ledger.close()
        }
    }

    @Test("a truncated file beside a WAL with no frames (zeros) is refused as truncated")
    func truncatedBesideAnEmptyWAL() async throws {
        try await withTemporaryDirectory { directory in
            let original = directory.appendingPathComponent("ledger.sqlite")
            try await makeLedgerFile(original, count: 500)
            let full = try fileBytes(original)
            let url = directory.appendingPathComponent("half.sqlite")
            let truncated = full.prefix(full.count / 2 / 4096 * 4096)
            try truncated.write(to: url)
            try Data(count: 1 << 20).write(to: URL(fileURLWithPath: url.path + "-wal"))
            let error = try await expectRefusal(url, sidecarsAllowed: true)
            #expect(error.message.contains("truncated"), "\(error.message)")
            #expect(try fileBytes(url) == truncated)
        }
    }
}
