import Foundation
import CSQLite

/// The baseline: plain SQLite through its C API, in WAL mode like the ledger, on the same disk, with the durability
/// the compared ledger operation has: `synchronous=FULL` (every commit syncs the WAL) or `NORMAL` (it does not).
final class RawSQLite {
    private var db: OpaquePointer?
    private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String, durable: Bool = true) throws {
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw BenchError("cannot open \(path)") }
        try exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=\(durable ? "FULL" : "NORMAL");")
    }

    deinit { sqlite3_close(db) }

    func exec(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw BenchError("sqlite: \(text) in \(sql.prefix(60))")
        }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError("prepare: \(String(cString: sqlite3_errmsg(db)))")
        }
        return statement
    }

    /// Binds text or numbers positionally and steps once.
    func run(_ statement: OpaquePointer, _ values: [Any]) throws {
        sqlite3_reset(statement)
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case let text as String: sqlite3_bind_text(statement, position, text, -1, transient)
            case let number as Int: sqlite3_bind_int64(statement, position, Int64(number))
            case let number as Int64: sqlite3_bind_int64(statement, position, number)
            case let number as Double: sqlite3_bind_double(statement, position, number)
            default: sqlite3_bind_null(statement, position)
            }
        }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchError("step: \(String(cString: sqlite3_errmsg(db)))") }
    }

    /// Reads every row of a query, touching each column, and returns the row count.
    func readAll(_ sql: String) throws -> Int {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var rows = 0
        var sink = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            rows += 1
            for column in 0..<sqlite3_column_count(statement) {
                if let text = sqlite3_column_text(statement, column) { sink &+= Int(text.pointee) }
                sink &+= Int(sqlite3_column_int64(statement, column))
            }
        }
        if sink == 42 { print("") }
        return rows
    }

    static func finalize(_ statement: OpaquePointer) { sqlite3_finalize(statement) }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
