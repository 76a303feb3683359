import Foundation
import Tender

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

struct LedgerBenchmarks {
    let directory: URL
    let quick: Bool
    let scope = LedgerScope(merchantID: "acct_bench", locationID: "loc_bench")
    let clock = ManualClock()

    func path(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// One transition committed by the ledger vs one raw insert of a comparable row, both WAL + synchronous=FULL.
    func ledgerCommit() async throws -> (ledger: Double, raw: Double) {
        let trials = quick ? 20 : 300
        let ledger = try SQLitePaymentLedger(url: path("commit.sqlite"))
        try await ledger.insertBatch(fixtureSessions(trials + 1, state: .created, scope: scope, prefix: "c", clock: clock))
        var index = 0
        let ledgerTime = try await median(trials: trials) {
            _ = try await ledger.record(SessionChange(reference: "c-\(index)", expectedState: .created,
                                                      newState: .collecting, at: clock.now()), scope: scope)
            index += 1
        }
        await ledger.close()

        let raw = try RawSQLite(path: path("raw-commit.sqlite").path)
        try raw.exec("""
            CREATE TABLE transitions (id INTEGER PRIMARY KEY, session_reference TEXT NOT NULL, from_state TEXT,
              to_state TEXT NOT NULL, at REAL NOT NULL, error TEXT)
            """)
        let insert = try raw.prepare("INSERT INTO transitions (session_reference, from_state, to_state, at, error) VALUES (?, ?, ?, ?, ?)")
        defer { RawSQLite.finalize(insert) }
        var rawIndex = 0
        let rawTime = try await median(trials: trials) {
            try raw.run(insert, ["c-\(rawIndex)", "created", "collecting", 1_767_225_600.0, NSNull()])
            rawIndex += 1
        }
        return (ledgerTime, rawTime)
    }

    /// Queue status with `large` stored payments vs with `small`.
    func queueStatusScaling(small: Int, large: Int) async throws -> (small: Double, large: Double) {
        var results: [Double] = []
        for (name, count) in [("q-small", small), ("q-large", large)] {
            let ledger = try SQLitePaymentLedger(url: path("\(name).sqlite"))
            let batch = 20_000
            var inserted = 0
            while inserted < count {
                let n = min(batch, count - inserted)
                try await ledger.insertBatch(fixtureSessions(n, state: .storedOffline, scope: scope,
                                                             prefix: "\(name)-\(inserted)", clock: clock))
                inserted += n
            }
            let summary = try await ledger.storedSummary(scope: scope)
            guard summary.count == count else { throw BenchError("stored count \(summary.count) ≠ \(count)") }
            results.append(try await median(trials: quick ? 50 : 500) { _ = try await ledger.storedSummary(scope: scope) })
            await ledger.close()
        }
        return (results[0], results[1])
    }

    /// Opening and recovering a ledger of `count` sessions, 1% mid-flight, vs a raw sequential read of the rows.
    func recovery(count: Int) async throws -> (recovery: Double, raw: Double, resolved: Int) {
        let url = path("recovery.sqlite")
        do {
            let ledger = try SQLitePaymentLedger(url: url)
            let midFlight = count / 100
            var inserted = 0
            while inserted < count - midFlight {
                let n = min(20_000, count - midFlight - inserted)
                try await ledger.insertBatch(fixtureSessions(n, state: .succeeded, scope: scope, prefix: "done-\(inserted)", clock: clock))
                inserted += n
            }
            try await ledger.insertBatch(fixtureSessions(midFlight, state: .processing, scope: scope, prefix: "mid", clock: clock))
            await ledger.close()
        }
        let start = ContinuousClock.now
        let ledger = try SQLitePaymentLedger(url: url)
        let terminal = PaymentTerminal(processor: InMemoryPaymentProcessor(), ledger: ledger, scope: scope)
        let report = await terminal.recover()
        let recoveryTime = seconds(ContinuousClock.now - start)
        await ledger.close()
        guard report.resolved.count == count / 100 else { throw BenchError("recovered \(report.resolved.count) of \(count / 100)") }

        let raw = try RawSQLite(path: url.path)
        var rows = 0
        let rawTime = try await median(trials: quick ? 1 : 3) { rows = try raw.readAll("SELECT * FROM sessions") }
        guard rows == count else { throw BenchError("raw read \(rows) rows") }
        return (recoveryTime, rawTime, report.resolved.count)
    }

    /// Applying `count` forwarding results vs `count` raw updates in one transaction.
    func forwarding(count: Int) async throws -> (forwarding: Double, raw: Double) {
        let url = path("forwarding.sqlite")
        let ledger = try SQLitePaymentLedger(url: url)
        try await ledger.insertBatch(fixtureSessions(count, state: .storedOffline, scope: scope, prefix: "fwd", clock: clock))
        let terminal = PaymentTerminal(processor: InMemoryPaymentProcessor(), ledger: ledger, scope: scope)
        let updates = (0..<count).map {
            ProcessorPaymentUpdate(reference: "fwd-\($0)", state: .forwarded, route: .offline, processorPaymentID: "pi_\($0)")
        }
        let start = ContinuousClock.now
        let changed = try await terminal.applyForwardingResults(updates)
        let forwardingTime = seconds(ContinuousClock.now - start)
        guard changed.count == count else { throw BenchError("forwarded \(changed.count) of \(count)") }
        await ledger.close()

        let raw = try RawSQLite(path: path("raw-forwarding.sqlite").path)
        try raw.exec("CREATE TABLE payments (reference TEXT PRIMARY KEY, state TEXT NOT NULL, processor_id TEXT)")
        try raw.exec("BEGIN")
        let insert = try raw.prepare("INSERT INTO payments VALUES (?, 'storedOffline', NULL)")
        for index in 0..<count { try raw.run(insert, ["fwd-\(index)"]) }
        RawSQLite.finalize(insert)
        try raw.exec("COMMIT")
        let update = try raw.prepare("UPDATE payments SET state = 'forwarded', processor_id = ? WHERE reference = ?")
        defer { RawSQLite.finalize(update) }
        let rawStart = ContinuousClock.now
        try raw.exec("BEGIN")
        for index in 0..<count { try raw.run(update, ["pi_\(index)", "fwd-\(index)"]) }
        try raw.exec("COMMIT")
        return (forwardingTime, seconds(ContinuousClock.now - rawStart))
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
