import Foundation
import Testing
@testable import Tender
import TenderTesting

/// Files that are not a healthy Tender ledger are refused and left untouched; unusual paths work.
@Suite("SQLite ledger: bad or hostile files")
struct SQLitePaymentLedgerFileTests: SQLiteLedgerFixtures {
    @Test("a file of random bytes is refused and left untouched")
    func refusesRandomBytes() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("random.sqlite")
            var generator = SeededGenerator(seed: 42)
            let bytes = Data((0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
            try bytes.write(to: url)
            let error = try await expectRefusal(url)
            #expect(error.message.contains("not an SQLite database"))
            #expect(try fileBytes(url) == bytes)
            #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        }
    }

    @Test("a truncated copy of a real ledger is refused and left untouched")
    func refusesTruncatedLedger() async throws {
        try await withTemporaryDirectory { directory in
            let original = directory.appendingPathComponent("ledger.sqlite")
            try await makeLedgerFile(original, count: 500)
            let full = try fileBytes(original)
            for (name, length) in [("half.sqlite", full.count / 2 / 4096 * 4096), ("odd.sqlite", 3_000),
                                   ("header.sqlite", 100)] {
                let url = directory.appendingPathComponent(name)
                let truncated = full.prefix(length)
                try truncated.write(to: url)
                let error = try await expectRefusal(url)
                #expect(error.message.contains("truncated"), "\(name): \(error.message)")
                #expect(try fileBytes(url) == truncated)
            }
        }
    }

    @Test("a ledger with a corrupted page is refused by quick_check and left untouched")
    func refusesCorruptLedger() async throws {
        try await withTemporaryDirectory { directory in
            let original = directory.appendingPathComponent("ledger.sqlite")
            try await makeLedgerFile(original, count: 500)
            var bytes = try fileBytes(original)
            let pageSize = 4096
            let victim = (bytes.count / pageSize / 2) * pageSize
            var generator = SeededGenerator(seed: 7)
            for offset in victim..<(victim + pageSize) { bytes[offset] = UInt8.random(in: 0...255, using: &generator) }
            let url = directory.appendingPathComponent("corrupt.sqlite")
            try bytes.write(to: url)
            let error = try await expectRefusal(url)
            #expect(error.message.contains("corrupt"), "\(error.message)")
            #expect(try fileBytes(url) == bytes)
        }
    }

    @Test("another application's SQLite file is refused and left untouched")
    func refusesForeignDatabase() async throws {
        try await withTemporaryDirectory { directory in
            for (name, applicationID) in [("notes.sqlite", 0), ("other.sqlite", 0x1234_5678)] {
                let url = directory.appendingPathComponent(name)
                let raw = try SQLiteDatabase(path: url.path, mode: .readWriteCreate)
                try raw.executeScript("""
                    PRAGMA application_id = \(applicationID);
                    CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
                    INSERT INTO notes (body) VALUES ('keep me');
                    """)
                raw.close()
                let bytes = try fileBytes(url)
                let error = try await expectRefusal(url)
                #expect(error.message.contains("another application"), "\(error.message)")
                #expect(try fileBytes(url) == bytes)
            }
        }
    }

    @Test("a ledger with a newer schema version is refused and left untouched")
    func refusesNewerSchema() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            try await makeLedgerFile(url, count: 10)
            let raw = try SQLiteDatabase(path: url.path, mode: .readWrite)
            try raw.executeScript("PRAGMA user_version = 99;")
            raw.close()
            let bytes = try fileBytes(url)
            let error = try await expectRefusal(url)
            #expect(error.message.contains("schema version 99"), "\(error.message)")
            #expect(error.message.contains("newer"))
            #expect(try fileBytes(url) == bytes)
        }
    }

    @Test("a Tender file missing its tables is refused and left untouched")
    func refusesMissingTables() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let raw = try SQLiteDatabase(path: url.path, mode: .readWriteCreate)
            try raw.executeScript("""
                PRAGMA application_id = \(SQLitePaymentLedger.applicationID);
                PRAGMA user_version = 2;
                CREATE TABLE sessions (id INTEGER PRIMARY KEY);
                """)
            raw.close()
            let bytes = try fileBytes(url)
            let error = try await expectRefusal(url)
            #expect(error.message.contains("missing"), "\(error.message)")
            #expect(try fileBytes(url) == bytes)
        }
    }


    @Test("a path with spaces, '#', '?' and '%' works, including the read-only check on reopening")
    func unusualPath() async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appendingPathComponent("caisse #1 ?%20 é", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appendingPathComponent("ledger ?x=1#y.sqlite")
            let ledger = try await SQLitePaymentLedger.open(url: url)
            try await ledger.insert(newSession("A", usd(100)))
            await ledger.close()
            #expect(FileManager.default.fileExists(atPath: url.path))
            let reopened = try await SQLitePaymentLedger.open(url: url)
            #expect(try await reopened.allSessions(scope: shop).map(\.reference) == ["A"])
        }
    }


    // MARK: Bad or hostile files

    @Test("a path that cannot be created is reported, not crashed on")
    func unwritableLocation() async throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/ledger.sqlite")
        await #expect {
            _ = try await SQLitePaymentLedger.open(url: url)
        } throws: { error in
            (error as? PaymentError)?.code == .ledgerUnavailable
        }
        await #expect {
            _ = try await SQLitePaymentLedger.open(url: URL(string: "https://example.com/ledger.sqlite")!)
        } throws: { error in
            (error as? PaymentError)?.code == .ledgerUnavailable
        }
    }
}
