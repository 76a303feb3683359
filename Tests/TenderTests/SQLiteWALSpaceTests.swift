import Foundation
import Testing
@testable import Tender
import TenderTesting

/// The ledger's WAL is allocated ahead of the log and reused in place (`SQLiteWALSpace.swift`): a commit's sync
/// overwrites allocated bytes instead of growing the file, which would also make the file's size durable.
@Suite("SQLite ledger: the WAL allocated ahead and reused in place")
struct SQLiteWALSpaceTests: SQLiteLedgerFixtures {
    private func walSize(_ url: URL) -> Int64 { LedgerFile.size(url.path + "-wal") ?? 0 }

    @Test("payments' commits write inside the WAL's allocated space: it grows ahead of the log a few times, not at every commit")
    func commitsWriteInPlace() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let ledger = try await SQLitePaymentLedger.open(url: url)
            var commits = 0
            var growths = 0
            var size = walSize(url)
            func committed() throws {
                commits += 1
                let now = walSize(url)
                if now != size { growths += 1 }
                size = now
                let frames = try #require(LedgerFile.walFrames(url.path + "-wal"))
                #expect(now >= WALSpace.headerBytes + Int64(frames) * 4_120, "the file holds the whole log")
            }
            for index in 0..<150 {
                try await ledger.insert(newSession("p-\(index)", usd(Int64(100 + index))))
                try committed()
                _ = try await ledger.record(SessionChange(reference: "p-\(index)", expectedState: .created,
                                                          newState: .collecting, at: at(1)), scope: shop)
                try committed()
                _ = try await ledger.record(SessionChange(reference: "p-\(index)", expectedState: .collecting,
                                                          newState: .processing, at: at(2)), scope: shop)
                try committed()
            }
            #expect(commits == 450)
            // Without the allocation every commit past the file's end grows it (450 growths for 450 commits).
            #expect(growths * 10 <= commits, "the WAL grew \(growths) times in \(commits) commits")
            let frames = try #require(LedgerFile.walFrames(url.path + "-wal"))
            #expect(size - (WALSpace.headerBytes + Int64(frames) * 4_120) > 0, "room is left past the log")
            await ledger.close()

            // The zeros past the log are never read as frames: everything reopens (and, the log being past 4 MiB,
            // opening checkpoints it and restarts it in the same file, extending nothing).
            let reopened = try await SQLitePaymentLedger.open(url: url)
            #expect(try await reopened.allSessions(scope: shop).count == 150)
            #expect(try await reopened.session(reference: "p-149", scope: shop)?.state == .processing)
            #expect(walSize(url) == size, "the restarted log keeps the allocated file")
            await reopened.close()
        }
    }

    @Test("the WAL hook checkpoints at its threshold, and the restarted log overwrites the same allocated file")
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
        var largest: Int64 = 0
        var restarts = 0
        var previous = 0
        for _ in 0..<300 {
            try db.writeTransaction(durable: false) { try db.execute("INSERT INTO t VALUES (zeroblob(3000))") }
            let frames = try #require(space.frames)
            #expect(frames < 40 + 4, "a commit past the threshold checkpoints: \(frames) frames")
            if frames < previous { restarts += 1 }
            previous = frames
            // The hook's count and the file's agree (a checkpointed log counts until the next commit restarts it).
            let counted = try #require(LedgerFile.walFrames(path + "-wal"))
            #expect(counted == frames || frames == 0, "the file has \(counted) frames, the hook \(frames)")
            largest = max(largest, LedgerFile.size(path + "-wal") ?? 0)
        }
        #expect(restarts >= 5, "the log restarted \(restarts) times")
        #expect(largest <= space.capacity, "the file never grows past its space: \(largest) > \(space.capacity)")
        #expect(space.extensions >= 1 && space.bytesAdded <= largest, "\(space.extensions) extensions, \(space.bytesAdded) bytes")
        #expect(try db.scalarInteger("SELECT COUNT(*) FROM t") == 300)
        db.close()
        let reopened = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try reopened.scalarInteger("SELECT COUNT(*) FROM t") == 300)
        reopened.close()
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

    @Test("a truncated file beside a WAL of allocated space and no frames is refused as truncated")
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
