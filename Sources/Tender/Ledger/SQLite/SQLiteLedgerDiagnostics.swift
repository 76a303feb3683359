import Foundation
import CSQLite

// What the SQLite ledger can tell about its own work: connection settings, query plans and step counts, used by
// tests and the benchmark to check claims without timing anything.

extension SQLitePaymentLedger {
    /// The connection's settings as SQLite reports them: `journal_mode`, `synchronous` (the level of the last
    /// commit: 2 FULL, 1 NORMAL), `foreign_keys`, `temp_store` (2 is MEMORY) and `wal_autocheckpoint`.
    func connectionSettings() throws -> [String: String] {
        try guarded("read its settings") {
            var settings: [String: String] = [:]
            for name in ["journal_mode", "synchronous", "foreign_keys", "temp_store", "wal_autocheckpoint"] {
                settings[name] = try db.scalarText("PRAGMA " + name) ?? ""
            }
            // The ledger's own WAL hook checkpoints (SQLite reports 0 for a hook that is not its default one).
            if let space = db.walSpace { settings["wal_autocheckpoint"] = String(space.checkpointPages) }
            return settings
        }
    }

    /// SQLite's `EXPLAIN QUERY PLAN` for the queries behind `storedSummary(scope:)`, one detail line per step,
    /// e.g. `SEARCH stored_aggregates USING PRIMARY KEY (merchant_id=? AND location_id=?)`. A line starting with
    /// `SCAN sessions` would mean the summary reads every session.
    package func explainStoredSummaryQuery(scope: LedgerScope) throws -> [String] {
        try guarded("explain the stored-payment summary") {
            try explain([LedgerSQL.selectAggregates, LedgerSQL.selectOldestStored],
                        [.text(scope.merchantID), .text(scope.locationID)])
        }
    }

    /// `EXPLAIN QUERY PLAN` detail lines of `statements`, each bound with `bindings`.
    func explain(_ statements: [String], _ bindings: [SQLiteValue]) throws -> [String] {
        var lines: [String] = []
        for sql in statements {
            try db.query("EXPLAIN QUERY PLAN " + sql, bindings) { lines.append($0.text(3)) }
        }
        return lines
    }

    /// Reads the stored summary and reports how much work SQLite did for it: virtual-machine steps (which grow
    /// with every row visited) and full-scan steps (rows visited by a table scan), summed over its statements.
    func storedSummaryReadCost(scope: LedgerScope) throws
        -> (summary: StoredPaymentSummary, virtualMachineSteps: Int, fullScanSteps: Int) {
        try guarded("measure the stored-payment summary") {
            for sql in [LedgerSQL.selectAggregates, LedgerSQL.selectOldestStored] {
                _ = try db.statementStatus(sql, counter: SQLITE_STMTSTATUS_VM_STEP, reset: true)
                _ = try db.statementStatus(sql, counter: SQLITE_STMTSTATUS_FULLSCAN_STEP, reset: true)
            }
            let summary = try readStoredSummary(scope: scope)
            var steps = 0
            var scans = 0
            for sql in [LedgerSQL.selectAggregates, LedgerSQL.selectOldestStored] {
                steps += try db.statementStatus(sql, counter: SQLITE_STMTSTATUS_VM_STEP, reset: false)
                scans += try db.statementStatus(sql, counter: SQLITE_STMTSTATUS_FULLSCAN_STEP, reset: false)
            }
            return (summary, steps, scans)
        }
    }

    /// Starts (or restarts) logging the statements this ledger runs.
    func startStatementLog() { db.statementLog = [] }

    /// Stops logging and returns the statements run since ``startStatementLog()``, in order.
    func stopStatementLog() -> [String] {
        defer { db.statementLog = nil }
        return db.statementLog ?? []
    }
}
