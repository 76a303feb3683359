import Foundation
import Testing
@testable import Tender

/// A ledger opens after a kill at any moment: SQLite's own recovery runs first (a WAL is replayed, a hot rollback
/// journal is rolled back), then the file is checked; what is refused after recovery is left untouched.
@Suite("SQLite ledger: opening after a kill")
struct SQLitePaymentLedgerRecoveryTests: SQLiteLedgerFixtures {
    @Test("the files left by a crash (a WAL not yet checkpointed) are recovered, not refused")
    func recoversAfterCrash() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let crashed = directory.appendingPathComponent("crashed.sqlite")
            let ledger = try await SQLitePaymentLedger.open(url: url)
            try await ledger.insert(newSession("A", usd(100)))
            _ = try await ledger.record(SessionChange(reference: "A", expectedState: .created, newState: .processing,
                                                      at: at(1)), scope: shop)
            // A copy taken while the ledger is open is what a killed process leaves: the commits are in the WAL.
            try FileManager.default.copyItem(atPath: url.path, toPath: crashed.path)
            try FileManager.default.copyItem(atPath: url.path + "-wal", toPath: crashed.path + "-wal")
            #expect(try fileBytes(URL(fileURLWithPath: crashed.path + "-wal")).count > 0)

            let recovered = try await SQLitePaymentLedger.open(url: crashed)
            let session = try #require(try await recovered.session(reference: "A", scope: shop))
            #expect(session.state == .processing)
            #expect(session.transitions.map(\.to) == [.created, .processing])
        }
    }

    /// A ledger whose WAL holds `count` sessions more than its closed file; returns the open ledger and the number of
    /// pages of the file before them.
    private func ledgerWithWAL(_ url: URL, count: Int) async throws -> (SQLitePaymentLedger, pagesBefore: Int) {
        try await makeLedgerFile(url, count: 20)
        let pagesBefore = Int(try #require(LedgerFile.size(url.path))) / 4096
        let ledger = try await SQLitePaymentLedger.open(url: url)
        try await ledger.insertBatch((0..<count).map {
            storedSession("stored-\($0)", usd(Int64(1_000 + $0)), scope: shop, storedAt: at(Double(100 + $0)))
        })
        for index in 0..<20 {
            _ = try await ledger.record(SessionChange(reference: "stored-\(index)", expectedState: .storedOffline,
                                                      newState: .forwarded, at: at(1_000), processorPaymentID: "pi_\(index)"),
                                        scope: shop)
        }
        return (ledger, pagesBefore)
    }

    /// The checkpoint another connection runs: every WAL frame copied into the file, page by page in ascending
    /// order; the WAL itself is left as it is.
    private func checkpointFromAnotherConnection(_ url: URL) throws {
        let other = try SQLiteDatabase(path: url.path, mode: .readWrite)
        defer { other.close() }
        try other.executeScript("PRAGMA wal_checkpoint(PASSIVE);")
    }

    /// Reported by tender-chaos (`--kills 200`): killed during a checkpoint, the file is shorter than its header
    /// says (the header page was copied first) while the WAL still holds every page. SQLite replays the WAL; the
    /// ledger used to refuse the file as truncated before SQLite could.
    @Test("a kill during a checkpoint (the file shorter than its header, the rest in the WAL) opens with nothing lost")
    func killDuringCheckpoint() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let (ledger, pagesBefore) = try await ledgerWithWAL(url, count: 600)
            let expected = try await everything(in: ledger, scope: shop)
            let expectedSummary = try await ledger.storedSummary(scope: shop)
            #expect(expected.count == 620 && expectedSummary.count == 580)
            try checkpointFromAnotherConnection(url)
            let checkpointed = try fileBytes(url)
            let pageCount = Int(SQLiteHeader(checkpointed).pageCount)
            #expect(pageCount > pagesBefore + 4, "the WAL grew the file from \(pagesBefore) to \(pageCount) pages")

            // What a kill leaves half-way through that checkpoint: the first pages written, the WAL intact.
            let crashed = directory.appendingPathComponent("crashed.sqlite")
            let kept = (pagesBefore + pageCount) / 2
            try checkpointed.prefix(kept * 4096).write(to: crashed)
            try FileManager.default.copyItem(atPath: url.path + "-wal", toPath: crashed.path + "-wal")
            let header = SQLiteHeader(try fileBytes(crashed))
            #expect(header.pageCount == UInt64(pageCount) && header.pageCountIsValid)
            #expect(try #require(LedgerFile.size(crashed.path)) == Int64(kept * 4096))
            #expect(try #require(LedgerFile.size(crashed.path + "-wal")) > 0)
            await ledger.close()

            let recovered = try await SQLitePaymentLedger.open(url: crashed)
            #expect(try await everything(in: recovered, scope: shop) == expected)
            #expect(try await recovered.storedSummary(scope: shop) == expectedSummary)
            // A checkpoint copies the WAL into the file: whole again, it opens on its own.
            try await recovered.checkpoint()
            await recovered.close()
            #expect(LedgerFile.size(crashed.path + "-wal") == 0)
            #expect(try #require(LedgerFile.size(crashed.path)) >= Int64(pageCount * 4096))
            let reopened = try await SQLitePaymentLedger.open(url: crashed)
            #expect(try await everything(in: reopened, scope: shop) == expected)
        }
    }

    @Test("a file shorter than its header whose WAL does not hold the missing pages is refused as corrupt, untouched")
    func missingPagesInNeitherFileNorWAL() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let (ledger, pagesBefore) = try await ledgerWithWAL(url, count: 600)
            try checkpointFromAnotherConnection(url)
            let checkpointed = try fileBytes(url)
            // The next commit starts the WAL over: it no longer holds the pages the checkpoint copied.
            try await ledger.insert(newSession("after", usd(1), at: at(2_000)))
            let crashed = directory.appendingPathComponent("crashed.sqlite")
            try checkpointed.prefix((pagesBefore + Int(SQLiteHeader(checkpointed).pageCount)) / 2 * 4096).write(to: crashed)
            try FileManager.default.copyItem(atPath: url.path + "-wal", toPath: crashed.path + "-wal")
            await ledger.close()
            let file = try fileBytes(crashed)
            let wal = try fileBytes(crashed.path + "-wal")

            let error = try await expectRefusal(crashed, sidecarsAllowed: true)
            #expect(error.message.contains("corrupt"), "\(error.message)")
            #expect(try fileBytes(crashed) == file)
            #expect(try fileBytes(crashed.path + "-wal") == wal)
        }
    }

    @Test("a newer schema version found by replaying the WAL is refused; the file and its WAL are untouched")
    func newerSchemaInTheWAL() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            try await makeLedgerFile(url, count: 10)
            let ledger = try await SQLitePaymentLedger.open(url: url)
            try await ledger.insert(newSession("in-the-wal", usd(5)))
            let newer = try SQLiteDatabase(path: url.path, mode: .readWrite)
            try newer.executeScript("PRAGMA user_version = 99;")
            newer.close()
            let crashed = directory.appendingPathComponent("crashed.sqlite")
            try FileManager.default.copyItem(at: url, to: crashed)
            try FileManager.default.copyItem(atPath: url.path + "-wal", toPath: crashed.path + "-wal")
            await ledger.close()
            let fileAlone = try SQLiteDatabase(path: crashed.path, mode: .readOnlyImmutable)
            #expect(try fileAlone.scalarInteger("PRAGMA user_version") == Int64(SQLitePaymentLedger.schemaVersion),
                    "the file alone is at the current version: only the WAL says 99")
            fileAlone.close()
            let file = try fileBytes(crashed)
            let wal = try fileBytes(crashed.path + "-wal")

            let error = try await expectRefusal(crashed, sidecarsAllowed: true)
            #expect(error.message.contains("schema version 99"), "\(error.message)")
            #expect(try fileBytes(crashed) == file)
            #expect(try fileBytes(crashed.path + "-wal") == wal)
        }
    }

    /// Copies `url` and its `-journal` as they are in the middle of a rollback-journal transaction that spilled
    /// pages to the file (what a kill leaves), then rolls the original back. Returns the copy.
    private func copyMidTransaction(_ url: URL, setup: String = "", in directory: URL) throws -> URL {
        let raw = try SQLiteDatabase(path: url.path, mode: .readWrite)
        try raw.executeScript("PRAGMA journal_mode = DELETE; PRAGMA cache_size = 1; \(setup)")
        try raw.executeScript("""
            BEGIN IMMEDIATE;
            CREATE TABLE junk (x BLOB);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 400)
            INSERT INTO junk SELECT randomblob(2000) FROM c;
            """)
        let copy = directory.appendingPathComponent("copy-\(url.lastPathComponent)")
        try FileManager.default.copyItem(at: url, to: copy)
        try FileManager.default.copyItem(atPath: url.path + "-journal", toPath: copy.path + "-journal")
        try raw.executeScript("ROLLBACK;")
        raw.close()
        #expect(try fileBytes(copy.path + "-journal").count > 0)
        return copy
    }

    @Test("another application's file with a hot journal is refused before anything is rolled back")
    func foreignFileWithHotJournal() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("notes.sqlite")
            let raw = try SQLiteDatabase(path: url.path, mode: .readWriteCreate)
            try raw.executeScript("""
                PRAGMA application_id = 305419896;
                CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
                INSERT INTO notes (body) VALUES ('keep me');
                """)
            raw.close()
            let copy = try copyMidTransaction(url, in: directory)
            let file = try fileBytes(copy)
            let journal = try fileBytes(copy.path + "-journal")

            let error = try await expectRefusal(copy, sidecarsAllowed: true)
            #expect(error.message.contains("another application"), "\(error.message)")
            #expect(try fileBytes(copy) == file)
            #expect(try fileBytes(copy.path + "-journal") == journal)
            #expect(!FileManager.default.fileExists(atPath: copy.path + "-wal"))
        }
    }

    @Test("a hot journal whose rollback gives a newer schema is tried on a copy: file and journal untouched")
    func hotJournalTriedOnACopy() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            try await makeLedgerFile(url, count: 3)
            let copy = try copyMidTransaction(url, setup: "PRAGMA user_version = 99;", in: directory)
            let file = try fileBytes(copy)
            let journal = try fileBytes(copy.path + "-journal")

            let error = try await expectRefusal(copy, sidecarsAllowed: true)
            #expect(error.message.contains("schema version 99"), "\(error.message)")
            #expect(try fileBytes(copy) == file)
            #expect(try fileBytes(copy.path + "-journal") == journal)
        }
    }

    /// Found by tender-chaos: a process killed mid-transaction in rollback-journal mode (as during the very first
    /// open, which switches a new file to WAL) leaves a hot `-journal`. The ledger must roll it back and open,
    /// not refuse a healthy file forever.
    @Test func aHotRollbackJournalIsRolledBackNotRefused() async throws {
        try await withTemporaryDirectory { directory in
            let original = directory.appendingPathComponent("ledger.sqlite")
            try await makeLedgerFile(original, count: 3)
            // Leave a transaction half-written in rollback-journal mode, with its pages spilled to the file.
            let raw = try SQLiteDatabase(path: original.path, mode: .readWrite)
            try raw.executeScript("PRAGMA journal_mode = DELETE; PRAGMA cache_size = 1;")
            try raw.executeScript("""
                BEGIN IMMEDIATE;
                CREATE TABLE junk (x BLOB);
                WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 400)
                INSERT INTO junk SELECT randomblob(2000) FROM c;
                """)
            // "Kill" the process here: copy the file and its journal as they are on disk mid-transaction.
            let copy = directory.appendingPathComponent("copy.sqlite")
            try FileManager.default.copyItem(at: original, to: copy)
            try FileManager.default.copyItem(atPath: original.path + "-journal", toPath: copy.path + "-journal")
            try raw.executeScript("ROLLBACK;")
            raw.close()
            #expect(try Data(contentsOf: URL(fileURLWithPath: copy.path + "-journal")).count > 0)

            let ledger = try await SQLitePaymentLedger.open(url: copy)
            let sessions = try await ledger.allSessions(scope: shop)
            #expect(sessions.count == 3, "the committed sessions survive the rollback")
            await ledger.close()
        }
    }

    /// Found by tender-chaos (`--kills 200`): killed during its very first transaction, a new ledger leaves pages in
    /// the file and a journal that says the file was empty. Rolled back, it is a new, empty ledger.
    @Test("a new file killed during its first transaction rolls back to an empty ledger and opens")
    func firstTransactionKilled() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("new.sqlite")
            #expect(FileManager.default.createFile(atPath: url.path, contents: Data()))
            let copy = try copyMidTransaction(url, in: directory)
            #expect(try #require(LedgerFile.size(copy.path)) > 0)

            let ledger = try await SQLitePaymentLedger.open(url: copy)
            #expect(try await ledger.allSessions(scope: shop).isEmpty)
            try await ledger.insert(newSession("A", usd(100)))
            #expect(try await ledger.allSessions(scope: shop).map(\.reference) == ["A"])
            #expect(!FileManager.default.fileExists(atPath: copy.path + "-journal"))
        }
    }
}
