import Foundation
import Tender
import TenderTesting

/// Applying 1,000 forwarding results: the ledger's batch (or the facade) against raw SQLite doing the minimum, on
/// ledgers of a constant, realistic size. Each side starts from a copy of a base file holding `base` past payments
/// (each with its own processor id, as a vendor gives), taken afresh every ``epoch`` trials so that neither side
/// grows with the number of trials; each trial stores `count` payments (untimed) and forwards them (timed), each
/// result with a processor id of its own.
struct ForwardingBenchmark {
    let directory: URL
    let quick: Bool
    let scope = LedgerScope(merchantID: "acct_bench", locationID: "loc_bench")
    let clock = ManualClock()
    let count = 1_000
    var base: Int { quick ? 2_000 : 20_000 }
    /// Trials between fresh copies of the base files.
    let epoch = 10

    /// What a trial compares the ledger with.
    enum Baseline {
        /// `count` UPDATEs of a three-column table (reference, state, processor id) in one transaction, synced
        /// (`synchronous=FULL`) or not.
        case minimalTable(synced: Bool)
        /// The same writes by hand on the ledger's own schema, not synced (as the ledger's batch): per result, one
        /// UPDATE of its session row (with the expected state as a condition) and one INSERT of its history row.
        case sameWrites
    }

    /// A vendor-like processor id: `pi_` and 24 hexadecimal digits, pseudo-random but reproducible.
    static func processorID(_ seed: String) -> String {
        var generator = SplitMix64(seed: UInt64(truncatingIfNeeded: seed.utf8.reduce(5381) { ($0 &* 33) &+ Int($1) }))
        return "pi_" + (0..<2).map { _ in String(generator.next() >> 16, radix: 16) }.joined()
    }

    private func path(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Builds the base ledger file (checkpointed: the file alone holds it) and returns its URL.
    private func baseLedger() async throws -> URL {
        let url = path("forwarding-base.sqlite")
        guard !FileManager.default.fileExists(atPath: url.path) else { return url }
        let ledger = try await SQLitePaymentLedger.open(url: url)
        var sessions = fixtureSessions(base, state: .succeeded, scope: scope, prefix: "past", clock: clock)
        for index in sessions.indices { sessions[index].processorPaymentID = Self.processorID("past-\(index)") }
        try await ledger.insertBatch(sessions)
        try await ledger.checkpoint()
        await ledger.close()
        return url
    }

    /// Copies `source` to a fresh `name` (removing what a previous epoch left) and returns the copy's URL.
    private func freshCopy(of source: URL, as name: String) throws -> URL {
        let url = path(name)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try FileManager.default.copyItem(at: source, to: url)
        return url
    }

    func measure(throughFacade: Bool, baseline: Baseline) async throws -> RatioResult {
        let baseURL = try await baseLedger()
        var ledger: SQLitePaymentLedger?
        var terminal: PaymentTerminal?
        var raw: RawSQLite?
        var rawFiller: SQLitePaymentLedger?
        var statements: [OpaquePointer] = []
        var insertMinimal: OpaquePointer?
        func closeRaw() {
            statements.forEach(RawSQLite.finalize)
            insertMinimal.map(RawSQLite.finalize)
            statements = []
            insertMinimal = nil
            raw = nil
        }
        defer { closeRaw() }
        let time = 1_767_225_600.0
        var trial = 0
        var rawTrial = 0
        let name: String, target: Double?
        switch (throughFacade, baseline) {
        case (true, _): (name, target) = ("forwarding_facade_ratio", nil)
        case (false, .minimalTable(synced: true)): (name, target) = ("forwarding_ratio", nil)
        case (false, .minimalTable(synced: false)): (name, target) = ("forwarding_unsynced_ratio", nil)
        case (false, .sameWrites): (name, target) = ("forwarding_same_writes_ratio", 1.0)
        }
        let result = try await Interleaved(minTrials: quick ? 3 : 10, maxTrials: quick ? 6 : 200,
                                           timeCap: quick ? 2 : 30).measure(
            name, target: target,
            detail: { String(format: "%.1f ms vs %.1f ms for %d results", $0 * 1e3, $1 * 1e3, count) },
            baseline: {
                defer { rawTrial += 1 }
                if rawTrial % epoch == 0 {
                    closeRaw()
                    await rawFiller?.close()
                    switch baseline {
                    case .minimalTable(let synced):
                        let url = path("forwarding-raw.sqlite")
                        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
                        let opened = try RawSQLite(path: url.path, durable: synced)
                        try opened.exec("CREATE TABLE payments (reference TEXT PRIMARY KEY, state TEXT NOT NULL, processor_id TEXT)")
                        try opened.exec("BEGIN")
                        let insertPast = try opened.prepare("INSERT INTO payments VALUES (?, 'succeeded', ?)")
                        for index in 0..<base { try opened.run(insertPast, ["past-\(index)", Self.processorID("past-\(index)")]) }
                        RawSQLite.finalize(insertPast)
                        try opened.exec("COMMIT")
                        insertMinimal = try opened.prepare("INSERT INTO payments VALUES (?, 'storedOffline', NULL)")
                        statements = [try opened.prepare("UPDATE payments SET state = 'forwarded', processor_id = ? WHERE reference = ?")]
                        raw = opened
                    case .sameWrites:
                        let url = try freshCopy(of: baseURL, as: "forwarding-same.sqlite")
                        rawFiller = try await SQLitePaymentLedger.open(url: url)
                        let opened = try RawSQLite(path: url.path, durable: false)
                        statements = try [
                            opened.prepare("""
                                UPDATE sessions SET state = 'forwarded', route = 'offline', processor_payment_id = ?,
                                    updated_at = ?, stored_since = NULL
                                WHERE merchant_id = ? AND location_id = ? AND reference = ? AND state = 'storedOffline'
                                """),
                            opened.prepare("""
                                INSERT INTO transitions (session_id, from_state, to_state, at, error, attempt, note)
                                VALUES ((SELECT id FROM sessions WHERE merchant_id = ? AND location_id = ? AND reference = ?),
                                        'storedOffline', 'forwarded', ?, NULL, 1, NULL)
                                """),
                        ]
                        raw = opened
                    }
                }
                guard let raw else { throw BenchError("no raw database") }
                let prefix = "r\(rawTrial)"
                if let insertMinimal {
                    try raw.exec("BEGIN")
                    for index in 0..<count { try raw.run(insertMinimal, ["\(prefix)-\(index)"]) }
                    try raw.exec("COMMIT")
                } else {
                    try await rawFiller?.insertBatch(fixtureSessions(count, state: .storedOffline, scope: scope,
                                                                     prefix: prefix, clock: clock))
                }
                return try await timed {
                    try raw.exec("BEGIN")
                    for index in 0..<count {
                        let reference = "\(prefix)-\(index)"
                        let id = Self.processorID(reference)
                        if insertMinimal != nil {
                            try raw.run(statements[0], [id, reference])
                        } else {
                            try raw.run(statements[0], [id, time, scope.merchantID, scope.locationID, reference])
                            try raw.run(statements[1], [scope.merchantID, scope.locationID, reference, time])
                        }
                    }
                    try raw.exec("COMMIT")
                }
            },
            subject: {
                defer { trial += 1 }
                if trial % epoch == 0 {
                    await ledger?.close()
                    let opened = try await SQLitePaymentLedger.open(url: try freshCopy(of: baseURL, as: "forwarding-subject.sqlite"))
                    ledger = opened
                    terminal = PaymentTerminal(processor: InMemoryPaymentProcessor(), ledger: opened, scope: scope)
                }
                guard let ledger, let terminal else { throw BenchError("no ledger") }
                let prefix = "f\(trial)"
                try await ledger.insertBatch(fixtureSessions(count, state: .storedOffline, scope: scope, prefix: prefix,
                                                             clock: clock))
                var changed = 0
                let elapsed: Double
                if throughFacade {
                    let updates = (0..<count).map {
                        ProcessorPaymentUpdate(reference: "\(prefix)-\($0)", state: .forwarded, route: .offline,
                                               processorPaymentID: Self.processorID("\(prefix)-\($0)"))
                    }
                    elapsed = try await timed { changed = try await terminal.applyForwardingResults(updates).count }
                } else {
                    let changes = (0..<count).map {
                        SessionChange(reference: "\(prefix)-\($0)", expectedState: .storedOffline, newState: .forwarded,
                                      at: clock.now(), route: .offline,
                                      processorPaymentID: Self.processorID("\(prefix)-\($0)"))
                    }
                    elapsed = try await timed { changed = try await ledger.record(changes, scope: scope).count }
                }
                guard changed == count else { throw BenchError("forwarded \(changed) of \(count)") }
                return elapsed
            })
        await ledger?.close()
        await rawFiller?.close()
        return result
    }
}
