import Foundation
import CSQLite

// The values that cross Tender's thin wrapper of the SQLite C API (``SQLiteDatabase``): errors, bound parameters and
// result rows. Private to Tender.

/// SQLite's "copy the bytes now" destructor, not imported into Swift as a macro.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// SQLite's "the bytes stay where they are" destructor (a null pointer).
let sqliteStatic: sqlite3_destructor_type? = nil

/// An error reported by SQLite: its extended result code and message.
struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_IOERR_FSYNC`…).
    var extendedCode: Int32
    /// SQLite's message.
    var message: String
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_FULL`, `SQLITE_CORRUPT`…).
    var code: Int32 { extendedCode & 0xFF }

    /// `SQLITE_CONSTRAINT_UNIQUE` (not imported into Swift: it is a macro expression).
    static let constraintUnique: Int32 = 2067

    /// `database is locked (SQLite error 5)`.
    var description: String { "\(message) (SQLite error \(extendedCode))" }
}

/// A value bound to a statement parameter. Every value reaches SQLite through a binding, never through SQL text.
enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// Text, or NULL.
    static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
    /// An integer, or NULL.
    static func integer(_ value: Int64?) -> SQLiteValue { value.map { .integer($0) } ?? .null }
    /// A date as seconds since the reference date (exact: a `Date` is that `Double`), or NULL.
    static func date(_ value: Date?) -> SQLiteValue { value.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null }
    /// A Boolean as 0 or 1.
    static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
}

/// The current row of a statement being stepped. Valid only inside the closure it is passed to.
struct SQLiteRow {
    let statement: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func optionalInteger(_ column: Int32) -> Int64? { isNull(column) ? nil : integer(column) }
    func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    func date(_ column: Int32) -> Date { Date(timeIntervalSinceReferenceDate: real(column)) }
    func optionalDate(_ column: Int32) -> Date? { isNull(column) ? nil : date(column) }
    func bool(_ column: Int32) -> Bool { integer(column) != 0 }

    func text(_ column: Int32) -> String { optionalText(column) ?? "" }

    func optionalText(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
