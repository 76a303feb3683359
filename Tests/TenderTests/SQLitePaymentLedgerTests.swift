import Foundation
import Testing
@testable import Tender

// MARK: - Fixtures

private let shop = LedgerScope(merchantID: "acct_A", locationID: "loc_1")
private let otherShop = LedgerScope(merchantID: "acct_B", locationID: "loc_9")
/// A whole number of seconds, so that every time round-trips exactly.
private let t0 = Date(timeIntervalSinceReferenceDate: 800_000_000)

private func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }
private func jpy(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .jpy) }

/// A fresh directory, removed when `body` returns.
private func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("tender-ledger-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

private func newSession(_ reference: String, _ amount: Money, scope: LedgerScope = shop, tip: Money? = nil,
                        capture: CaptureMode = .automatic, at time: Date = t0) -> PaymentSession {
    PaymentSession(request: PaymentRequest(amount: amount, reference: reference, captureMode: capture,
                                           offlinePolicy: .preferOnline, tip: tip),
                   scope: scope, processor: "square", route: nil, at: time)
}

/// A session already stored offline (for bulk fixtures).
private func storedSession(_ reference: String, _ amount: Money, scope: LedgerScope, storedAt: Date) -> PaymentSession {
    var session = newSession(reference, amount, scope: scope, at: storedAt)
    session.transitions.append(PaymentTransition(from: .created, to: .storedOffline, at: storedAt))
    session.state = .storedOffline
    session.route = .offline
    session.storedAt = storedAt
    session.localID = "local-\(reference)"
    return session
}

private let declineAfterForwarding = PaymentError(
    .cardDeclined, recovery: .collectAnotherCard, phase: .forwarding, message: "Declined after forwarding.",
    vendor: .init(processor: "square", name: "cardDeclined", numericCode: nil, message: "Card declined by issuer",
                  declineCode: "insufficient_funds"))

private let visa = CardDetails(brand: .visa, last4: "4242", entryMethod: .contactless, applicationName: "VISA CREDIT",
                               applicationIdentifier: "A0000000031010")

/// What a ledger answered to one step of ``exercise(_:)``.
private enum Answer: Equatable {
    case ok
    case session(PaymentSession?)
    case sessions([PaymentSession])
    case summary(StoredPaymentSummary)
    case scopes([LedgerScope])
    case refused(PaymentError.Code)
}

private func answer(_ body: () async throws -> Answer) async -> Answer {
    do { return try await body() } catch let error as PaymentError { return .refused(error.code) } catch {
        Issue.record("unexpected error \(error)")
        return .refused(.init(rawValue: "unexpected"))
    }
}

/// One script of inserts, changes and reads, run against any ledger: the SQLite ledger must answer exactly as the
/// in-memory reference does.
private func exercise(_ ledger: any PaymentLedger) async -> [Answer] {
    var answers: [Answer] = []
    func step(_ body: () async throws -> Answer) async { answers.append(await answer(body)) }
    func change(_ reference: String, _ from: PaymentState, _ to: PaymentState, _ time: Double,
                route: PaymentRoute? = nil, processorID: String? = nil, localID: String? = nil,
                card: CardDetails? = nil, error: PaymentError? = nil, attempt: Bool = false) async {
        await step {
            .session(try await ledger.record(SessionChange(
                reference: reference, expectedState: from, newState: to, at: at(time), route: route,
                processorPaymentID: processorID, localID: localID, card: card, error: error,
                incrementsAttempts: attempt), scope: shop))
        }
    }
    await step { try await ledger.insert(newSession("A", usd(1250), tip: usd(100))); return .ok }
    await step { try await ledger.insert(newSession("B", jpy(500), at: at(1))); return .ok }
    await step { try await ledger.insert(newSession("C", usd(700), capture: .manual, at: at(2))); return .ok }
    await step { try await ledger.insert(newSession("A", usd(1), at: at(3))); return .ok }  // duplicate
    await change("A", .created, .processing, 5)
    await change("A", .created, .collecting, 6)                          // CAS: A is processing
    await change("B", .created, .succeeded, 6)                           // illegal transition
    await change("A", .processing, .storedOffline, 10, route: .offline, localID: "loc-A", card: visa)
    await change("B", .created, .processing, 11)
    await change("B", .processing, .storedOffline, 20, route: .offline, localID: "loc-B")
    await change("C", .created, .processing, 21, route: .online)
    await change("C", .processing, .authorized, 22, processorID: "pi_C", card: visa)
    await step { .summary(try await ledger.storedSummary(scope: shop)) }
    await change("A", .storedOffline, .forwarded, 30, processorID: "sq_A")
    await step { .summary(try await ledger.storedSummary(scope: shop)) }
    await change("B", .storedOffline, .storedOffline, 31, attempt: true)  // fields only, no transition
    await change("B", .storedOffline, .failedToForward, 40, error: declineAfterForwarding)
    await step { .summary(try await ledger.storedSummary(scope: shop)) }
    await change("B", .failedToForward, .declinedAfterForwarding, 41, error: declineAfterForwarding)
    await change("Z", .created, .processing, 42)                         // unknown reference
    await step { .sessions(try await ledger.sessions(in: [.forwarded, .declinedAfterForwarding], scope: shop)) }
    await step { .sessions(try await ledger.sessions(in: [.authorized], scope: shop)) }
    await step { .sessions(try await ledger.sessions(in: [], scope: shop)) }
    await step { .sessions(try await ledger.allSessions(scope: shop)) }
    await step { .session(try await ledger.session(localID: "loc-B", processorPaymentID: nil, scope: shop)) }
    await step { .session(try await ledger.session(localID: nil, processorPaymentID: "pi_C", scope: shop)) }
    await step { .session(try await ledger.session(localID: "nope", processorPaymentID: "sq_A", scope: shop)) }
    await step { .session(try await ledger.session(localID: nil, processorPaymentID: nil, scope: shop)) }
    await step { .session(try await ledger.session(localID: "loc-A", processorPaymentID: nil, scope: otherShop)) }
    await step { .session(try await ledger.session(reference: "A", scope: shop)) }
    await step { .session(try await ledger.session(reference: "B", scope: shop, includingHistory: false)) }
    await step { .session(try await ledger.session(reference: "A", scope: otherShop)) }
    await step { .scopes(try await ledger.scopes()) }
    return answers
}

private func fileBytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

private func permissions(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
}

/// Opens the ledger expecting a refusal; returns the error.
private func expectRefusal(_ url: URL) throws -> PaymentError {
    do {
        _ = try SQLitePaymentLedger(url: url)
        Issue.record("\(url.lastPathComponent) was opened, not refused")
        throw CancellationError()
    } catch let error as PaymentError {
        #expect(error.code == .ledgerUnavailable)
        #expect(error.recovery == .fixIntegration)
        #expect(error.phase == .ledger)
        #expect(error.message.contains(url.path))
        #expect(error.message.contains("left it untouched"))
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: url.path + suffix), "\(suffix) left beside the file")
        }
        return error
    }
}

/// Builds a closed ledger file holding `count` sessions.
private func makeLedgerFile(_ url: URL, count: Int) async throws {
    let ledger = try SQLitePaymentLedger(url: url)
    try await ledger.insertBatch((0..<count).map { newSession("order-\($0)", usd(Int64(100 + $0)), at: at(Double($0))) })
    await ledger.close()
}

// MARK: - Tests

@Suite("SQLite payment ledger")
struct SQLitePaymentLedgerTests {
    @Test("answers every call exactly as the in-memory ledger does")
    func parityWithInMemoryLedger() async throws {
        try await withTemporaryDirectory { directory in
            let sqlite = try SQLitePaymentLedger(url: directory.appendingPathComponent("ledger.sqlite"))
            let expected = await exercise(InMemoryPaymentLedger())
            let actual = await exercise(sqlite)
            #expect(actual.count == expected.count)
            for (index, (a, e)) in zip(actual, expected).enumerated() {
                #expect(a == e, "step \(index)")
            }
            // The script itself checks what matters, so parity is not parity of two wrong answers.
            #expect(actual[3] == .refused(.duplicateReference))
            #expect(actual[5] == .refused(.invalidState))
            #expect(actual[6] == .refused(.illegalTransition))
            #expect(actual[12] == .summary(StoredPaymentSummary(count: 2, amounts: [.usd: 1350, .jpy: 500],
                                                                oldestStoredAt: at(10))))
            #expect(actual[14] == .summary(StoredPaymentSummary(count: 1, amounts: [.jpy: 500],
                                                                oldestStoredAt: at(20))))
            #expect(actual[17] == .summary(StoredPaymentSummary()))
            #expect(actual[19] == .refused(.unknownReference))
            guard case .sessions(let all) = actual[23] else { Issue.record("no session list"); return }
            #expect(all.map(\.reference) == ["A", "B", "C"])
            #expect(all.allSatisfy { $0.transitions.isEmpty })
            guard case .session(let a?) = actual[29] else { Issue.record("no session A"); return }
            #expect(a.transitions.map(\.to) == [.created, .processing, .storedOffline, .forwarded])
            #expect(a.card == visa)
            #expect(a.total == usd(1350))
            #expect(actual[32] == .scopes([shop]))
            #expect(actual.count == 33)
        }
    }

    @Test("a closed and reopened ledger gives back every session, its history, errors and vendor error")
    func durableAcrossReopen() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let first = try SQLitePaymentLedger(url: url)
            _ = await exercise(first)
            let before = try await first.allSessions(scope: shop)
            var histories: [PaymentSession] = []
            for session in before { histories.append(try #require(try await first.session(reference: session.reference, scope: shop))) }
            let summary = try await first.storedSummary(scope: shop)
            await first.close()
            await #expect(throws: PaymentError.self) { try await first.storedSummary(scope: shop) }

            let reopened = try SQLitePaymentLedger(url: url)
            #expect(try await reopened.allSessions(scope: shop) == before)
            for session in histories {
                #expect(try await reopened.session(reference: session.reference, scope: shop) == session)
            }
            #expect(try await reopened.storedSummary(scope: shop) == summary)
            let b = try #require(try await reopened.session(reference: "B", scope: shop))
            #expect(b.state == .declinedAfterForwarding)
            #expect(b.attempts == 2)
            #expect(b.lastError == declineAfterForwarding)
            #expect(b.lastError?.vendor?.declineCode == "insufficient_funds")
            #expect(b.transitions.last?.error?.vendor == declineAfterForwarding.vendor)
            #expect(b.storedAt == at(20))
        }
    }

    @Test("a new file is owner-only, in WAL mode, marked as a Tender ledger at the current schema version")
    func newFileProperties() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let ledger = try SQLitePaymentLedger(url: url)
            try await ledger.insert(newSession("A", usd(100)))
            #expect(try permissions(url.path) == 0o600)
            #expect(try permissions(url.path + "-wal") == 0o600)
            #expect(try permissions(url.path + "-shm") == 0o600)

            #expect(try await ledger.connectionSettings()
                    == ["journal_mode": "wal", "synchronous": "2", "foreign_keys": "1"])
            let probe = try SQLiteDatabase(path: url.path, mode: .readOnly)
            defer { probe.close() }
            #expect(try probe.scalarText("PRAGMA journal_mode") == "wal")
            #expect(try probe.scalarInteger("PRAGMA user_version") == Int64(SQLitePaymentLedger.schemaVersion))
            #expect(SQLitePaymentLedger.schemaVersion == 2)
            #expect(try probe.scalarInteger("PRAGMA application_id") == Int64(SQLitePaymentLedger.applicationID))
            let tables = try probe.scalarInteger(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN (?, ?, ?, ?)",
                [.text("sessions"), .text("transitions"), .text("stored_aggregates"), .text("scopes")])
            #expect(tables == 4)
            // No card number can be there: the card column holds only what CardDetails can hold.
            _ = try await ledger.record(SessionChange(reference: "A", expectedState: .created, newState: .processing,
                                                      at: at(1), card: visa), scope: shop)
            let card = try #require(try probe.scalarText("SELECT card FROM sessions"))
            #expect(card.contains("4242"))
            #expect(!card.contains("4242424242424242"))
        }
    }

    @Test("an empty file is taken as new and made owner-only; a good file with loose permissions is tightened")
    func emptyAndLooseFiles() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("empty.sqlite")
            #expect(FileManager.default.createFile(atPath: url.path, contents: Data(),
                                                   attributes: [.posixPermissions: 0o644]))
            let ledger = try SQLitePaymentLedger(url: url)
            try await ledger.insert(newSession("A", usd(100)))
            await ledger.close()
            #expect(try permissions(url.path) == 0o600)

            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
            let reopened = try SQLitePaymentLedger(url: url)
            #expect(try permissions(url.path) == 0o600)
            #expect(try await reopened.allSessions(scope: shop).map(\.reference) == ["A"])
        }
    }

    @Test("two scopes never see each other's sessions, lookups or aggregates")
    func scopesAreIsolated() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try SQLitePaymentLedger(url: directory.appendingPathComponent("ledger.sqlite"))
            try await ledger.insertBatch([
                storedSession("order-1", usd(1000), scope: shop, storedAt: at(10)),
                storedSession("order-1", usd(2000), scope: otherShop, storedAt: at(5)),  // same reference, other seller
                storedSession("order-2", jpy(300), scope: otherShop, storedAt: at(6)),
            ])
            #expect(try await ledger.storedSummary(scope: shop)
                    == StoredPaymentSummary(count: 1, amounts: [.usd: 1000], oldestStoredAt: at(10)))
            #expect(try await ledger.storedSummary(scope: otherShop)
                    == StoredPaymentSummary(count: 2, amounts: [.usd: 2000, .jpy: 300], oldestStoredAt: at(5)))
            #expect(try await ledger.allSessions(scope: shop).map(\.amount) == [usd(1000)])
            #expect(try await ledger.session(reference: "order-2", scope: shop) == nil)
            #expect(try await ledger.session(localID: "local-order-2", processorPaymentID: nil, scope: shop) == nil)
            #expect(try await ledger.session(localID: "local-order-2", processorPaymentID: nil, scope: otherShop)?
                        .reference == "order-2")
            await #expect(throws: PaymentError.self) {
                try await ledger.record(SessionChange(reference: "order-2", expectedState: .storedOffline,
                                                      newState: .forwarded, at: at(20)), scope: shop)
            }
            // Forwarding in one scope moves only that scope's aggregates.
            _ = try await ledger.record(SessionChange(reference: "order-1", expectedState: .storedOffline,
                                                      newState: .forwarded, at: at(20)), scope: otherShop)
            #expect(try await ledger.storedSummary(scope: shop).count == 1)
            #expect(try await ledger.storedSummary(scope: otherShop)
                    == StoredPaymentSummary(count: 1, amounts: [.jpy: 300], oldestStoredAt: at(6)))
            #expect(try await ledger.scopes() == [shop, otherShop])
        }
    }

    @Test("a batch with a duplicate reference records nothing")
    func batchIsAllOrNothing() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try SQLitePaymentLedger(url: directory.appendingPathComponent("ledger.sqlite"))
            try await ledger.insert(newSession("A", usd(100)))
            await #expect(throws: PaymentError.self) {
                try await ledger.insertBatch([storedSession("B", usd(5), scope: shop, storedAt: t0),
                                              newSession("A", usd(7))])
            }
            #expect(try await ledger.allSessions(scope: shop).map(\.reference) == ["A"])
            #expect(try await ledger.storedSummary(scope: shop) == StoredPaymentSummary())
        }
    }

    @Test("transitions are append-only in the file itself")
    func transitionsAreAppendOnly() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let ledger = try SQLitePaymentLedger(url: url)
            try await ledger.insert(newSession("A", usd(100)))
            let raw = try SQLiteDatabase(path: url.path, mode: .readWrite)
            defer { raw.close() }
            #expect(throws: SQLiteError.self) { try raw.execute("UPDATE transitions SET to_state = 'succeeded'") }
            #expect(throws: SQLiteError.self) { try raw.execute("DELETE FROM transitions") }
            #expect(try await ledger.session(reference: "A", scope: shop)?.transitions.map(\.to) == [.created])
        }
    }

    @Test("SQLite failures (a lock held by another process) become ledgerUnavailable with SQLite's message")
    func sqliteErrorsAreMapped() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let ledger = try SQLitePaymentLedger(url: url, busyTimeout: 0.05)
            let other = try SQLiteDatabase(path: url.path, mode: .readWrite)
            defer { other.close() }
            try other.execute("BEGIN IMMEDIATE")
            do {
                try await ledger.insert(newSession("A", usd(100)))
                Issue.record("insert succeeded under another writer's lock")
            } catch let error as PaymentError {
                #expect(error.code == .ledgerUnavailable)
                #expect(error.recovery == .waitAndRetry)
                #expect(error.message.contains("database is locked"))
            }
            try other.execute("ROLLBACK")
            try await ledger.insert(newSession("A", usd(100)))
            #expect(try await ledger.allSessions(scope: shop).count == 1)
        }
    }

    @Test("a version-1 file is migrated: aggregates and scopes are rebuilt from its sessions")
    func migratesFromVersion1() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("v1.sqlite")
            let raw = try SQLiteDatabase(path: url.path, mode: .readWriteCreate)
            try raw.executeScript(SQLitePaymentLedger.migrations[0].sql)
            try raw.executeScript("PRAGMA application_id = \(SQLitePaymentLedger.applicationID); PRAGMA user_version = 1;")
            let insert = """
                INSERT INTO sessions (merchant_id, location_id, reference, processor, amount, currency,
                    currency_exponent, tip, tip_currency, tip_currency_exponent, capture_mode, offline_policy, route,
                    state, local_id, attempts, created_at, updated_at, stored_at)
                VALUES (?, ?, ?, 'stripe', ?, ?, ?, ?, ?, ?, 'automatic', 'preferOnline', 'offline', ?, ?, 1, ?, ?, ?)
                """
            let rows: [(LedgerScope, String, Int64, String, Int64, Int64?, String, Double)] = [
                (shop, "s1", 1000, "USD", 2, 50, "storedOffline", 30),
                (shop, "s2", 400, "JPY", 0, nil, "storedOffline", 20),
                (shop, "s3", 999, "USD", 2, nil, "forwarded", 10),
                (otherShop, "s4", 77, "USD", 2, nil, "storedOffline", 5),
            ]
            for (scope, reference, amount, currency, exponent, tip, state, stored) in rows {
                try raw.execute(insert, [
                    .text(scope.merchantID), .text(scope.locationID), .text(reference), .integer(amount),
                    .text(currency), .integer(exponent), .integer(tip), .text(tip == nil ? nil : currency),
                    .integer(tip == nil ? nil : exponent), .text(state), .text("local-\(reference)"),
                    .date(at(0)), .date(at(stored)), .date(at(stored)),
                ])
            }
            raw.close()

            let ledger = try SQLitePaymentLedger(url: url)
            #expect(try await ledger.storedSummary(scope: shop)
                    == StoredPaymentSummary(count: 2, amounts: [.usd: 1050, .jpy: 400], oldestStoredAt: at(20)))
            #expect(try await ledger.storedSummary(scope: otherShop)
                    == StoredPaymentSummary(count: 1, amounts: [.usd: 77], oldestStoredAt: at(5)))
            #expect(try await ledger.scopes() == [shop, otherShop])
            #expect(try await ledger.allSessions(scope: shop).map(\.reference) == ["s1", "s2", "s3"])
            _ = try await ledger.record(SessionChange(reference: "s2", expectedState: .storedOffline,
                                                      newState: .forwarded, at: at(40)), scope: shop)
            #expect(try await ledger.storedSummary(scope: shop)
                    == StoredPaymentSummary(count: 1, amounts: [.usd: 1050], oldestStoredAt: at(30)))
            await ledger.close()

            let probe = try SQLiteDatabase(path: url.path, mode: .readOnly)
            defer { probe.close() }
            #expect(try probe.scalarInteger("PRAGMA user_version") == 2)
            #expect(try permissions(url.path) == 0o600)
        }
    }

    @Test("a ledger of 5,000 sessions is reopened and read back whole")
    func reopensALargeLedger() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            var sessions: [PaymentSession] = []
            for index in 0..<5_000 {
                let reference = "order-\(index)"
                let time = at(Double(index))
                if index % 3 == 0 {
                    sessions.append(storedSession(reference, usd(Int64(index + 1)), scope: shop, storedAt: time))
                } else {
                    sessions.append(newSession(reference, jpy(Int64(index + 1)), at: time))
                }
            }
            let first = try SQLitePaymentLedger(url: url)
            try await first.insertBatch(sessions)
            await first.close()

            let ledger = try SQLitePaymentLedger(url: url)
            let all = try await ledger.allSessions(scope: shop)
            #expect(all.count == 5_000)
            #expect(all == sessions.map { var s = $0; s.transitions = []; return s })
            let stored = sessions.filter { $0.state == .storedOffline }
            #expect(try await ledger.storedSummary(scope: shop) == StoredPaymentSummary(
                count: stored.count, amounts: [.usd: stored.reduce(0) { $0 + $1.amount.minorUnits }],
                oldestStoredAt: at(0)))
            #expect(try await ledger.sessions(in: [.storedOffline], scope: shop).count == stored.count)
            #expect(try await ledger.session(reference: "order-4998", scope: shop) == sessions[4998])
        }
    }

    @Test("queue status with 100,000 stored payments is read without scanning them")
    func storedSummaryDoesNotScan() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try SQLitePaymentLedger(url: directory.appendingPathComponent("ledger.sqlite"))
            let big = LedgerScope(merchantID: "acct_big", locationID: "loc_big")
            try await ledger.insertBatch((0..<100_000).map {
                storedSession("order-\($0)", usd(100), scope: big, storedAt: at(Double(100_000 - $0)))
            })
            try await ledger.insert(storedSession("only", usd(100), scope: shop, storedAt: at(1)))

            let plan = try await ledger.explainStoredSummaryQuery(scope: big)
            print("stored summary query plan: \(plan)")
            #expect(!plan.isEmpty)
            #expect(!plan.contains { $0.contains("SCAN") })
            #expect(plan.contains { $0.hasPrefix("SEARCH stored_aggregates") })
            #expect(plan.contains { $0.hasPrefix("SEARCH sessions USING COVERING INDEX sessions_by_stored_since") })

            let large = try await ledger.storedSummaryReadCost(scope: big)
            let small = try await ledger.storedSummaryReadCost(scope: shop)
            print("stored summary cost: 100,000 stored → \(large.virtualMachineSteps) VM steps, "
                  + "1 stored → \(small.virtualMachineSteps) VM steps")
            #expect(large.summary == StoredPaymentSummary(count: 100_000, amounts: [.usd: 10_000_000],
                                                          oldestStoredAt: at(1)))
            #expect(small.summary.count == 1)
            #expect(large.fullScanSteps == 0)
            // The same work for 100,000 stored payments as for one: nothing grows with the rows.
            #expect(large.virtualMachineSteps <= small.virtualMachineSteps + 2)
            #expect(large.virtualMachineSteps < 100)
        }
    }

    @Test("the files left by a crash (a WAL not yet checkpointed) are recovered, not refused")
    func recoversAfterCrash() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let crashed = directory.appendingPathComponent("crashed.sqlite")
            let ledger = try SQLitePaymentLedger(url: url)
            try await ledger.insert(newSession("A", usd(100)))
            _ = try await ledger.record(SessionChange(reference: "A", expectedState: .created, newState: .processing,
                                                      at: at(1)), scope: shop)
            // A copy taken while the ledger is open is what a killed process leaves: the commits are in the WAL.
            try FileManager.default.copyItem(atPath: url.path, toPath: crashed.path)
            try FileManager.default.copyItem(atPath: url.path + "-wal", toPath: crashed.path + "-wal")
            #expect(try fileBytes(URL(fileURLWithPath: crashed.path + "-wal")).count > 0)

            let recovered = try SQLitePaymentLedger(url: crashed)
            let session = try #require(try await recovered.session(reference: "A", scope: shop))
            #expect(session.state == .processing)
            #expect(session.transitions.map(\.to) == [.created, .processing])
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
            let error = try expectRefusal(url)
            #expect(error.message.contains("missing"), "\(error.message)")
            #expect(try fileBytes(url) == bytes)
        }
    }


    @Test("two ledgers on one file (two processes) share it, and compare-and-set holds across them")
    func twoConnectionsShareTheFile() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let first = try SQLitePaymentLedger(url: url)
            let second = try SQLitePaymentLedger(url: url)
            try await first.insert(newSession("A", usd(100)))
            #expect(try await second.session(reference: "A", scope: shop)?.state == .created)
            _ = try await first.record(SessionChange(reference: "A", expectedState: .created, newState: .processing,
                                                     at: at(1)), scope: shop)
            // The second process still believes A is created: its change is refused, not applied twice.
            do {
                _ = try await second.record(SessionChange(reference: "A", expectedState: .created,
                                                          newState: .processing, at: at(2)), scope: shop)
                Issue.record("a stale compare-and-set was applied")
            } catch let error as PaymentError {
                #expect(error.code == .invalidState)
            }
            #expect(try await second.session(reference: "A", scope: shop)?.transitions.count == 2)
            await #expect(throws: PaymentError.self) { try await second.insert(newSession("A", usd(100))) }
        }
    }

    @Test("a path with spaces, '#', '?' and '%' works, including the read-only check on reopening")
    func unusualPath() async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appendingPathComponent("caisse #1 ?%20 é", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appendingPathComponent("ledger ?x=1#y.sqlite")
            let ledger = try SQLitePaymentLedger(url: url)
            try await ledger.insert(newSession("A", usd(100)))
            await ledger.close()
            #expect(FileManager.default.fileExists(atPath: url.path))
            let reopened = try SQLitePaymentLedger(url: url)
            #expect(try await reopened.allSessions(scope: shop).map(\.reference) == ["A"])
        }
    }


    // MARK: Bad or hostile files

    @Test("a file of random bytes is refused and left untouched")
    func refusesRandomBytes() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("random.sqlite")
            var generator = SeededGenerator(seed: 42)
            let bytes = Data((0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
            try bytes.write(to: url)
            let error = try expectRefusal(url)
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
                let error = try expectRefusal(url)
                #expect(error.message.contains("truncated"), "\(name): \(error.message)")
                #expect(try fileBytes(url) == truncated)
            }
        }
    }

    @Test("a ledger with a corrupted page is refused by quick_check and left untouched")
    func refusesCorruptLedger() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            try await makeLedgerFile(url, count: 500)
            var bytes = try fileBytes(url)
            let pageSize = 4096
            let victim = (bytes.count / pageSize / 2) * pageSize
            var generator = SeededGenerator(seed: 7)
            for offset in victim..<(victim + pageSize) { bytes[offset] = UInt8.random(in: 0...255, using: &generator) }
            try bytes.write(to: url)
            let error = try expectRefusal(url)
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
                let error = try expectRefusal(url)
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
            let error = try expectRefusal(url)
            #expect(error.message.contains("schema version 99"), "\(error.message)")
            #expect(error.message.contains("newer"))
            #expect(try fileBytes(url) == bytes)
        }
    }

    @Test("migration steps are numbered 1, 2, … in order, and the schema version is the last")
    func migrationsAreOrdered() {
        #expect(SQLitePaymentLedger.migrations.map(\.version) == Array(1...SQLitePaymentLedger.migrations.count))
        #expect(SQLitePaymentLedger.schemaVersion == SQLitePaymentLedger.migrations.count)
    }

    @Test("a path that cannot be created is reported, not crashed on")
    func unwritableLocation() async throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/ledger.sqlite")
        #expect {
            _ = try SQLitePaymentLedger(url: url)
        } throws: { error in
            (error as? PaymentError)?.code == .ledgerUnavailable
        }
        #expect {
            _ = try SQLitePaymentLedger(url: URL(string: "https://example.com/ledger.sqlite")!)
        } throws: { error in
            (error as? PaymentError)?.code == .ledgerUnavailable
        }
    }
}

@Suite struct SQLiteLedgerBatchTests {
    @Test func batchIsAllOrNothingAndChainsChangesToOneReference() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tender-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger = try SQLitePaymentLedger(url: directory.appendingPathComponent("l.sqlite"))
        let scope = LedgerScope(merchantID: "m", locationID: "l")
        let clock = ManualClock()
        for reference in ["a", "b"] {
            var session = PaymentSession(request: PaymentRequest(amount: Money(minorUnits: 500, currency: .usd), reference: reference),
                                         scope: scope, processor: "p", route: .offline, at: clock.now())
            try SessionChange(reference: reference, expectedState: .created, newState: .processing, at: clock.now()).apply(to: &session)
            try SessionChange(reference: reference, expectedState: .processing, newState: .storedOffline, at: clock.now()).apply(to: &session)
            try await ledger.insert(session)
        }
        #expect(try await ledger.storedSummary(scope: scope).count == 2)
        // The second change is illegal: nothing of the batch is kept.
        await #expect(throws: PaymentError.self) {
            _ = try await ledger.record([
                SessionChange(reference: "a", expectedState: .storedOffline, newState: .forwarded, at: clock.now()),
                SessionChange(reference: "b", expectedState: .storedOffline, newState: .succeeded, at: clock.now()),
            ], scope: scope)
        }
        #expect(try await ledger.session(reference: "a", scope: scope)?.state == .storedOffline)
        #expect(try await ledger.storedSummary(scope: scope).count == 2)
        // A legal batch, with a chain on one reference, is committed whole.
        let results = try await ledger.record([
            SessionChange(reference: "a", expectedState: .storedOffline, newState: .failedToForward, at: clock.now()),
            SessionChange(reference: "a", expectedState: .failedToForward, newState: .forwarded, at: clock.now(), processorPaymentID: "pi_a"),
            SessionChange(reference: "b", expectedState: .storedOffline, newState: .declinedAfterForwarding, at: clock.now()),
        ], scope: scope)
        #expect(results.map(\.state) == [.failedToForward, .forwarded, .declinedAfterForwarding])
        let a = try #require(try await ledger.session(reference: "a", scope: scope))
        #expect(a.transitions.map(\.to) == [.created, .processing, .storedOffline, .failedToForward, .forwarded])
        #expect(a.processorPaymentID == "pi_a")
        #expect(try await ledger.storedSummary(scope: scope) == StoredPaymentSummary())
    }
}

@Suite struct SQLiteLedgerHotJournalTests {
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

            let ledger = try SQLitePaymentLedger(url: copy)
            let sessions = try await ledger.allSessions(scope: shop)
            #expect(sessions.count == 3, "the committed sessions survive the rollback")
            await ledger.close()
        }
    }
}
