import Foundation
import CSQLite

// The rows of a set-based batch, read by SQL straight from Swift: `tender_batch`, an eponymous virtual table (a table
// of the connection that needs no CREATE) over the changes the ledger is applying. SQLite reads each value through
// the C API as it is (text as text, times as the very same doubles), with nothing encoded on the way: no JSON to
// build and parse field by field (with SQLite 3.40 here, `json_each` and `->>` on each field cost 5 to 10 µs a
// change, more than the rest of the batch; JSON numbers would also go through SQLite's decimal conversion, not
// exact for every double on every platform), no temporary table to fill and clear. Only the ledger's own
// statements name it, and only while a batch is being applied does it hold rows.

/// What `tender_batch` shows: rows of values laid out once in flat buffers (every text in one block of UTF-8 bytes
/// that SQLite reads in place), so that reading a column copies nothing on the Swift side. A batch shows its
/// references first (to find the payments), then each change with its payment's row id and values after it.
final class SQLiteBatchRows {
    /// The columns, in order: the texts, then the times, then the integers.
    static let schema = """
        CREATE TABLE x(reference TEXT, expected TEXT, new_state TEXT, route TEXT, processor_payment_id TEXT,
            local_id TEXT, card TEXT, error TEXT, note TEXT, at REAL, stored_at REAL, stored_since REAL,
            capture_before REAL, session_id INTEGER, attempts INTEGER, attempt INTEGER, captured_amount INTEGER)
        """
    static let textColumns = 9
    static let realColumns = 4
    static let integerColumns = 4

    /// How many rows are shown.
    private(set) var count = 0
    /// The text block, and each text value's offset and length in it (length -1: NULL), row by row.
    private var bytes: UnsafeMutableRawPointer?
    private var spans: [(offset: Int, length: Int32)] = []
    private var reals: [Double?] = []
    private var integers: [Int64?] = []

    deinit { bytes?.deallocate() }

    /// Shows one row per reference, with only the `reference` column (the others NULL).
    func show(references: [String]) {
        var layout = Layout(rows: references.count)
        for reference in references {
            layout.text(reference)
            for _ in 1..<Self.textColumns { layout.text(nil) }
            for _ in 0..<Self.realColumns { layout.real(nil) }
            for _ in 0..<Self.integerColumns { layout.integer(nil) }
        }
        load(layout)
    }

    /// Shows each change with its payment's row id and the payment after it: the columns a change may move (state,
    /// route, ids, attempts, times, captured amount), the change's card and error in the ledger's JSON encoding (NULL
    /// when it carries none), its note, and the payment attempt its history row belongs to.
    func show(_ changes: [SessionChange], sessionIDs: [Int64], after: [PaymentSession], cards: [String?],
              errors: [String?]) {
        var layout = Layout(rows: changes.count)
        for (index, change) in changes.enumerated() {
            let session = after[index]
            layout.text(change.reference)
            layout.text(change.expectedState.rawValue)
            layout.text(session.state.rawValue)
            layout.text(session.route?.rawValue)
            layout.text(session.processorPaymentID)
            layout.text(session.localID)
            layout.text(cards[index])
            layout.text(errors[index])
            layout.text(change.note)
            layout.real(change.at.timeIntervalSinceReferenceDate)
            layout.real(session.storedAt?.timeIntervalSinceReferenceDate)
            layout.real(SQLitePaymentLedger.storedSince(session)?.timeIntervalSinceReferenceDate)
            layout.real(session.captureBefore?.timeIntervalSinceReferenceDate)
            layout.integer(sessionIDs[index])
            layout.integer(Int64(session.attempts))
            layout.integer(Int64(session.paymentAttempt))
            layout.integer(session.capturedAmount?.minorUnits)
        }
        load(layout)
    }

    /// Rows being laid out: text bytes appended to one array, then moved to a block that does not move.
    private struct Layout {
        let rows: Int
        var bytes: [UInt8] = []
        var spans: [(offset: Int, length: Int32)] = []
        var reals: [Double?] = []
        var integers: [Int64?] = []

        init(rows: Int) {
            self.rows = rows
            bytes.reserveCapacity(rows * 64)
            spans.reserveCapacity(rows * SQLiteBatchRows.textColumns)
            reals.reserveCapacity(rows * SQLiteBatchRows.realColumns)
            integers.reserveCapacity(rows * SQLiteBatchRows.integerColumns)
        }

        mutating func text(_ value: String?) {
            guard let value else { return spans.append((0, -1)) }
            let offset = bytes.count
            bytes.append(contentsOf: value.utf8)
            spans.append((offset, Int32(bytes.count - offset)))
        }

        mutating func real(_ value: Double?) { reals.append(value) }
        mutating func integer(_ value: Int64?) { integers.append(value) }
    }

    private func load(_ layout: Layout) {
        clear()
        let block = UnsafeMutableRawPointer.allocate(byteCount: max(1, layout.bytes.count), alignment: 1)
        layout.bytes.withUnsafeBytes { block.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        bytes = block
        spans = layout.spans
        reals = layout.reals
        integers = layout.integers
        count = layout.rows
    }

    /// Shows no rows.
    func clear() {
        bytes?.deallocate()
        bytes = nil
        spans.removeAll(keepingCapacity: true)
        reals.removeAll(keepingCapacity: true)
        integers.removeAll(keepingCapacity: true)
        count = 0
    }

    /// Sets the result of column `column` of row `row` (text read in place: the block outlives every statement
    /// that reads it).
    fileprivate func column(_ column: Int, of row: Int, into context: OpaquePointer?) {
        if column < Self.textColumns {
            let span = spans[row * Self.textColumns + column]
            guard span.length >= 0, let bytes else { return sqlite3_result_null(context) }
            sqlite3_result_text(context, (bytes + span.offset).assumingMemoryBound(to: CChar.self), span.length,
                                sqliteStatic)
        } else if column < Self.textColumns + Self.realColumns {
            guard let value = reals[row * Self.realColumns + column - Self.textColumns] else {
                return sqlite3_result_null(context)
            }
            sqlite3_result_double(context, value)
        } else {
            guard let value = integers[row * Self.integerColumns + column - Self.textColumns - Self.realColumns] else {
                return sqlite3_result_null(context)
            }
            sqlite3_result_int64(context, value)
        }
    }
}

extension SQLiteDatabase {
    /// Registers `tender_batch` on this connection, showing `rows`. The connection keeps `rows` until it closes.
    func registerBatchTable(_ rows: SQLiteBatchRows) throws {
        let db = try connection()
        let rc = sqlite3_create_module_v2(db, "tender_batch", batchModule, Unmanaged.passRetained(rows).toOpaque()) {
            Unmanaged<SQLiteBatchRows>.fromOpaque($0!).release()
        }
        guard rc == SQLITE_OK else {
            throw SQLiteError(extendedCode: rc, message: "the batch table could not be registered")
        }
    }
}

// MARK: - The module

/// A `sqlite3_vtab` followed by the rows it shows (unretained: the module's client data holds them).
private let vtabSize = MemoryLayout<sqlite3_vtab>.stride + MemoryLayout<UnsafeMutableRawPointer>.stride
/// A `sqlite3_vtab_cursor` followed by the current row's index.
private let cursorSize = MemoryLayout<sqlite3_vtab_cursor>.stride + MemoryLayout<Int>.stride

private func rows(of vtab: UnsafeMutablePointer<sqlite3_vtab>) -> SQLiteBatchRows {
    let raw = UnsafeMutableRawPointer(vtab).load(fromByteOffset: MemoryLayout<sqlite3_vtab>.stride,
                                                   as: UnsafeMutableRawPointer.self)
    return Unmanaged<SQLiteBatchRows>.fromOpaque(raw).takeUnretainedValue()
}

private func index(of cursor: UnsafeMutablePointer<sqlite3_vtab_cursor>) -> UnsafeMutablePointer<Int> {
    (UnsafeMutableRawPointer(cursor) + MemoryLayout<sqlite3_vtab_cursor>.stride).assumingMemoryBound(to: Int.self)
}

/// The module (eponymous-only: no `xCreate`), written once and only read after.
private struct BatchModule: @unchecked Sendable { let pointer: UnsafeMutablePointer<sqlite3_module> }

private let batchModuleStorage: BatchModule = {
    var module = sqlite3_module()
    module.iVersion = 1
    module.xConnect = { db, aux, _, _, vtabOut, _ in
        let rc = sqlite3_declare_vtab(db, SQLiteBatchRows.schema)
        guard rc == SQLITE_OK else { return rc }
        let raw = UnsafeMutableRawPointer.allocate(byteCount: vtabSize, alignment: 8)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: vtabSize)
        raw.storeBytes(of: aux!, toByteOffset: MemoryLayout<sqlite3_vtab>.stride, as: UnsafeMutableRawPointer.self)
        vtabOut!.pointee = raw.assumingMemoryBound(to: sqlite3_vtab.self)
        return SQLITE_OK
    }
    module.xBestIndex = { vtab, info in
        // A full scan in the order of the changes, whatever the constraints: the batch is read once per statement.
        let count = Double(rows(of: vtab!).count)
        info!.pointee.estimatedCost = max(1, count)
        info!.pointee.estimatedRows = sqlite3_int64(max(1, count))
        return SQLITE_OK
    }
    module.xDisconnect = { vtab in
        UnsafeMutableRawPointer(vtab!).deallocate()
        return SQLITE_OK
    }
    module.xOpen = { _, cursorOut in
        let raw = UnsafeMutableRawPointer.allocate(byteCount: cursorSize, alignment: 8)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: cursorSize)
        cursorOut!.pointee = raw.assumingMemoryBound(to: sqlite3_vtab_cursor.self)
        return SQLITE_OK
    }
    module.xClose = { cursor in
        UnsafeMutableRawPointer(cursor!).deallocate()
        return SQLITE_OK
    }
    module.xFilter = { cursor, _, _, _, _ in
        index(of: cursor!).pointee = 0
        return SQLITE_OK
    }
    module.xNext = { cursor in
        index(of: cursor!).pointee += 1
        return SQLITE_OK
    }
    module.xEof = { cursor in
        index(of: cursor!).pointee >= rows(of: cursor!.pointee.pVtab).count ? 1 : 0
    }
    module.xColumn = { cursor, context, column in
        rows(of: cursor!.pointee.pVtab).column(Int(column), of: index(of: cursor!).pointee, into: context)
        return SQLITE_OK
    }
    module.xRowid = { cursor, rowid in
        rowid!.pointee = sqlite3_int64(index(of: cursor!).pointee)
        return SQLITE_OK
    }
    let pointer = UnsafeMutablePointer<sqlite3_module>.allocate(capacity: 1)
    pointer.initialize(to: module)
    return BatchModule(pointer: pointer)
}()

private var batchModule: UnsafeMutablePointer<sqlite3_module> { batchModuleStorage.pointer }
