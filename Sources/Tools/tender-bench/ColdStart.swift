import Foundation
import Tender
import TenderTesting

extension LedgerBenchmarks {
    /// `cold_start_ratio`: an app's launch with a ledger of `count` finished payments — opening the file (its checks,
    /// SQLite's recovery, `PRAGMA quick_check`) and ``PaymentTerminal/recover()`` until the terminal is ready —
    /// against a raw open of the same file and a read of every session row. Each trial starts from a fresh copy of
    /// the closed, checkpointed file (copied untimed, so both sides read it from the operating system's cache).
    func coldStart(count: Int) async throws -> RatioResult {
        let base = path("cold-start-base.sqlite")
        do {
            let ledger = try await SQLitePaymentLedger.open(url: base)
            var inserted = 0
            while inserted < count {
                let n = min(20_000, count - inserted)
                try await ledger.insertBatch(fixtureSessions(n, state: .succeeded, scope: scope,
                                                             prefix: "cold-\(inserted)", clock: clock))
                inserted += n
            }
            try await ledger.checkpoint()  // the file alone holds the ledger: each trial copies just the file
            await ledger.close()
        }
        let copy = path("cold-start.sqlite")
        func freshCopy() throws {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy.path + suffix) }
            try FileManager.default.copyItem(at: base, to: copy)
        }
        return try await Interleaved(minTrials: 5, maxTrials: quick ? 6 : 40, timeCap: quick ? 2 : 40).measure(
            "cold_start_ratio", target: 2,
            detail: { String(format: "%.1f ms vs %.1f ms: open + recover() of %d payments vs a raw open and read of "
                             + "every row", $0 * 1e3, $1 * 1e3, count) },
            baseline: {
                try freshCopy()
                var rows = 0
                let time = try await timed {
                    let raw = try RawSQLite(path: copy.path)
                    rows = try raw.readAll("SELECT * FROM sessions")
                }
                guard rows == count else { throw BenchError("raw read \(rows) rows") }
                return time
            },
            subject: {
                try freshCopy()
                var ready = false
                let time = try await timed {
                    let ledger = try await SQLitePaymentLedger.open(url: copy)
                    let terminal = PaymentTerminal(processor: InMemoryPaymentProcessor(), ledger: ledger, scope: scope)
                    let report = await terminal.recover()
                    ready = report.resolved.isEmpty
                    await ledger.close()
                }
                guard ready else { throw BenchError("a cold start found payments to resolve") }
                return time
            })
    }
}
