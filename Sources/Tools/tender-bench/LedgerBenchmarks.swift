import Foundation
import Tender
import TenderTesting

/// Sessions for fixtures: `count` sessions in `state`, in one scope.
func fixtureSessions(_ count: Int, state: PaymentState, scope: LedgerScope, prefix: String, clock: ManualClock)
    -> [PaymentSession] {
    (0..<count).map { index in
        let request = PaymentRequest(amount: Money(minorUnits: 100 + Int64(index % 5_000), currency: .usd),
                                     reference: "\(prefix)-\(index)", offlinePolicy: .preferOnline)
        var session = PaymentSession(request: request, scope: scope, processor: "memory",
                                     route: state == .storedOffline ? .offline : .online, at: clock.now())
        if state != .created {
            session.transitions.append(PaymentTransition(from: .created, to: state, at: clock.now()))
            session.state = state
            if state == .storedOffline { session.storedAt = clock.now().addingTimeInterval(Double(index)) }
        }
        return session
    }
}

/// The ledger's figures, each measured against plain SQLite doing the comparable minimum on the same disk.
struct LedgerBenchmarks {
    let directory: URL
    let quick: Bool
    let scope = LedgerScope(merchantID: "acct_bench", locationID: "loc_bench")
    let clock = ManualClock()

    func path(_ name: String) -> URL { directory.appendingPathComponent(name) }

    private var commitTrials: Interleaved {
        Interleaved(minTrials: quick ? 10 : 200, maxTrials: quick ? 60 : 4_000, timeCap: quick ? 1 : 20)
    }

    /// One change committed by the ledger against one raw insert of a comparable row, with the same durability:
    /// an outcome (`processing → succeeded`, synced) against a `synchronous=FULL` insert, or an intermediate state
    /// (`created → collecting`, not synced) against a `synchronous=NORMAL` insert.
    func ledgerCommit(durable: Bool) async throws -> RatioResult {
        let trials = commitTrials
        let name = durable ? "commit-durable" : "commit"
        let ledger = try await SQLitePaymentLedger.open(url: path("\(name).sqlite"))
        let from: PaymentState = durable ? .processing : .created
        let to: PaymentState = durable ? .succeeded : .collecting
        try await ledger.insertBatch(fixtureSessions(trials.maxTrials + trials.warmUp + 1, state: from, scope: scope,
                                                     prefix: "c", clock: clock))
        let raw = try RawSQLite(path: path("raw-\(name).sqlite").path, durable: durable)
        try raw.exec("""
            CREATE TABLE transitions (id INTEGER PRIMARY KEY, session_reference TEXT NOT NULL, from_state TEXT,
              to_state TEXT NOT NULL, at REAL NOT NULL, error TEXT)
            """)
        let insert = try raw.prepare("INSERT INTO transitions (session_reference, from_state, to_state, at, error) VALUES (?, ?, ?, ?, ?)")
        defer { RawSQLite.finalize(insert) }
        var index = 0
        var rawIndex = 0
        let result = try await trials.measure(
            durable ? "ledger_commit_ratio" : "ledger_commit_nondurable_ratio", target: durable ? 1.25 : nil,
            detail: { String(format: "%.3f ms vs %.3f ms per commit (%@ on both sides)", $0 * 1e3, $1 * 1e3,
                             durable ? "synced: synchronous=FULL" : "not synced: synchronous=NORMAL") },
            baseline: {
                defer { rawIndex += 1 }
                return try await timed {
                    try raw.run(insert, ["c-\(rawIndex)", from.rawValue, to.rawValue, 1_767_225_600.0, NSNull()])
                }
            },
            subject: {
                defer { index += 1 }
                return try await timed {
                    _ = try await ledger.record(SessionChange(reference: "c-\(index)", expectedState: from,
                                                              newState: to, at: clock.now()), scope: scope)
                }
            })
        await ledger.close()
        return result
    }

    /// Queue status (the stored summary) with `large` stored payments against `small`, both ledgers open at once.
    func queueStatusScaling(small: Int, large: Int) async throws -> RatioResult {
        var ledgers: [SQLitePaymentLedger] = []
        for (name, count) in [("q-small", small), ("q-large", large)] {
            let ledger = try await SQLitePaymentLedger.open(url: path("\(name).sqlite"))
            var inserted = 0
            while inserted < count {
                let n = min(20_000, count - inserted)
                try await ledger.insertBatch(fixtureSessions(n, state: .storedOffline, scope: scope,
                                                             prefix: "\(name)-\(inserted)", clock: clock))
                inserted += n
            }
            let summary = try await ledger.storedSummary(scope: scope)
            guard summary.count == count else { throw BenchError("stored count \(summary.count) ≠ \(count)") }
            ledgers.append(ledger)
        }
        let reads = 20  // per trial: one read takes microseconds
        func trial(_ ledger: SQLitePaymentLedger) async throws -> Double {
            try await timed { for _ in 0..<reads { _ = try await ledger.storedSummary(scope: scope) } } / Double(reads)
        }
        let result = try await Interleaved(minTrials: quick ? 10 : 100, maxTrials: quick ? 100 : 5_000,
                                           timeCap: quick ? 1 : 15).measure(
            "queue_status_scaling", target: 2,
            detail: { String(format: "%.1f µs vs %.1f µs per read (%d vs %d stored)", $0 * 1e6, $1 * 1e6, large, small) },
            baseline: { try await trial(ledgers[0]) }, subject: { try await trial(ledgers[1]) })
        for ledger in ledgers { await ledger.close() }
        return result
    }

    /// Opening and recovering a ledger of `count` sessions, 1% mid-flight, against a raw read of every row of the
    /// same file. Each trial starts from a fresh copy of the closed ledger (copied untimed).
    func recovery(count: Int) async throws -> RatioResult {
        let base = path("recovery-base.sqlite")
        do {
            let ledger = try await SQLitePaymentLedger.open(url: base)
            let midFlight = count / 100
            var inserted = 0
            while inserted < count - midFlight {
                let n = min(20_000, count - midFlight - inserted)
                try await ledger.insertBatch(fixtureSessions(n, state: .succeeded, scope: scope, prefix: "done-\(inserted)", clock: clock))
                inserted += n
            }
            try await ledger.insertBatch(fixtureSessions(midFlight, state: .processing, scope: scope, prefix: "mid", clock: clock))
            try await ledger.checkpoint()  // the file alone holds the ledger: each trial copies just the file
            await ledger.close()
        }
        let copy = path("recovery.sqlite")
        func freshCopy() throws {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy.path + suffix) }
            try FileManager.default.copyItem(at: base, to: copy)
        }
        return try await Interleaved(minTrials: 3, maxTrials: quick ? 5 : 40, timeCap: quick ? 2 : 40).measure(
            "recovery_ratio", target: 3,
            detail: { String(format: "%.3f s vs %.3f s raw read of %d sessions, 1%% mid-flight", $0, $1, count) },
            baseline: {
                try freshCopy()
                let raw = try RawSQLite(path: copy.path)
                var rows = 0
                let time = try await timed { rows = try raw.readAll("SELECT * FROM sessions") }
                guard rows == count else { throw BenchError("raw read \(rows) rows") }
                return time
            },
            subject: {
                try freshCopy()
                var resolved = 0
                let time = try await timed {
                    let ledger = try await SQLitePaymentLedger.open(url: copy)
                    let terminal = PaymentTerminal(processor: InMemoryPaymentProcessor(), ledger: ledger, scope: scope)
                    resolved = await terminal.recover().resolved.count
                    await ledger.close()
                }
                guard resolved == count / 100 else { throw BenchError("recovered \(resolved) of \(count / 100)") }
                return time
            })
    }
}
