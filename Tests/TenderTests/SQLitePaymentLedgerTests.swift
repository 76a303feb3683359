import Foundation
import Testing
@testable import Tender

extension SQLiteLedgerFixtures {
    /// One script of inserts, changes and reads, run against any ledger: the SQLite ledger must answer exactly as the
    /// in-memory reference does.
    func exercise(_ ledger: any PaymentLedger) async -> [LedgerAnswer] {
        var answers: [LedgerAnswer] = []
        func step(_ body: () async throws -> LedgerAnswer) async { answers.append(await answer(body)) }
        func change(_ reference: String, _ from: PaymentState, _ to: PaymentState, _ time: Double,
                    route: PaymentRoute? = nil, processorID: String? = nil, localID: String? = nil,
                    card: CardDetails? = nil, error: PaymentError? = nil, attempt: Bool = false,
                    newAttempt: Bool = false, storedAt: Double? = nil, captureBefore: Double? = nil,
                    note: String? = nil) async {
            await step {
                .session(try await ledger.record(SessionChange(
                    reference: reference, expectedState: from, newState: to, at: at(time), route: route,
                    processorPaymentID: processorID, localID: localID, card: card, error: error,
                    incrementsAttempts: attempt, startsNewAttempt: newAttempt, storedAt: storedAt.map(at),
                    captureBefore: captureBefore.map(at), note: note), scope: shop))
            }
        }
        func refund(_ reference: String, _ number: Int, _ amount: Money, _ time: Double) async {
            await step {
                try await ledger.insertRefund(RefundRecord(
                    id: RefundRecord.idempotencyKey(reference: reference, number: number), reference: reference,
                    number: number, amount: amount, reason: .requestedByCustomer, createdAt: at(time)), scope: shop)
                return .ok
            }
        }
        func refundChange(_ id: String, _ from: RefundStatus, _ to: RefundStatus, _ time: Double,
                          processorID: String? = nil, error: PaymentError? = nil) async {
            await step {
                .refund(try await ledger.recordRefund(RefundChange(refundID: id, expectedStatus: from, newStatus: to,
                                                                   at: at(time), processorRefundID: processorID,
                                                                   error: error), scope: shop))
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
        // Refunds (step 33 on).
        await step { try await ledger.insert(succeededSession("D", usd(1000), tip: usd(200), at: at(50))); return .ok }
        await refund("D", 1, usd(500), 51)                                   // 34
        await refund("D", 1, usd(1), 52)                                     // duplicate id
        await refund("D", 2, usd(701), 53)                                   // 500 + 701 > 1200
        await refund("C", 1, usd(100), 54)                                   // authorized, not captured
        await refund("Q", 1, usd(100), 55)                                   // no such payment
        await refund("D", 2, jpy(100), 56)                                   // other currency
        await refundChange("D/refund-1", .pending, .succeeded, 57, processorID: "re_1")  // 40
        await refundChange("D/refund-1", .pending, .failed, 58)              // CAS: it succeeded
        await refundChange("D/refund-1", .succeeded, .pending, 58)           // succeeded never goes back
        await refundChange("D/refund-9", .pending, .failed, 58)              // no such refund
        await refund("D", 2, usd(700), 59)                                   // exactly what is left
        await refundChange("D/refund-2", .pending, .failed, 60, error: declineAfterForwarding)  // 45
        await refund("D", 3, usd(700), 61)                                   // a failed refund gives its amount back
        await refundChange("D/refund-3", .pending, .pending, 62, processorID: "re_3")
        await step { .refunds(try await ledger.refunds(reference: "D", scope: shop)) }
        await step { .refunds(try await ledger.refunds(in: [.pending], scope: shop)) }
        await step { .refunds(try await ledger.refunds(in: [.succeeded, .failed], scope: shop)) }  // 50
        await step { .refunds(try await ledger.refunds(in: [], scope: shop)) }
        await step { .refunds(try await ledger.refunds(reference: "D", scope: otherShop)) }
        await step { .session(try await ledger.session(reference: "D", scope: shop)) }
        await step { .session(try await ledger.session(reference: "D", scope: shop, includingHistory: false)) }
        // Notes, new attempts, vendor stored times and capture deadlines (step 55 on).
        await change("D", .succeeded, .succeeded, 63, note: "the abandoned PaymentIntent pi_old was canceled at Stripe")
        await step { try await ledger.insert(newSession("E", usd(300), at: at(64))); return .ok }
        await change("E", .created, .processing, 65, processorID: "pi_E1", card: visa)
        await change("E", .processing, .declined, 66, error: declineAfterForwarding)
        await change("E", .processing, .created, 67, newAttempt: true)      // CAS: E is declined
        await change("E", .declined, .created, 67, newAttempt: true)         // 60
        await change("E", .created, .processing, 68, processorID: "pi_E2")
        await change("E", .processing, .succeeded, 69)
        await step { try await ledger.insert(storedSession("F", usd(400), scope: shop, storedAt: at(70))); return .ok }
        await step { .summary(try await ledger.storedSummary(scope: shop)) }
        await change("F", .storedOffline, .storedOffline, 71, storedAt: 3)  // 65: the vendor's earlier time
        await step { .summary(try await ledger.storedSummary(scope: shop)) }
        await change("C", .authorized, .authorized, 72, captureBefore: 72 + 172_800)
        await step { .session(try await ledger.session(reference: "E", scope: shop)) }
        await step { .session(try await ledger.session(reference: "C", scope: shop)) }
        await step { .sessions(try await ledger.sessions(references: ["E", "F", "nope"], scope: shop).values
                        .sorted { $0.reference < $1.reference }) }  // 70
        // A refund that fails after it succeeded (Stripe documents it): the one later move, then final (71 on).
        await refundChange("D/refund-1", .succeeded, .failed, 73, error: declineAfterForwarding)
        await refundChange("D/refund-1", .failed, .succeeded, 74)            // failed is final
        await refundChange("D/refund-1", .failed, .pending, 74)
        await step { .refunds(try await ledger.refunds(in: [.succeeded, .failed, .pending], updatedSince: at(61),
                                                       scope: shop)) }
        await step { .session(try await ledger.session(reference: "D", scope: shop)) }  // 75
        return answers
    }
}

@Suite("SQLite payment ledger")
struct SQLitePaymentLedgerTests: SQLiteLedgerFixtures {
    @Test("answers every call exactly as the in-memory ledger does")
    func parityWithInMemoryLedger() async throws {
        try await withTemporaryDirectory { directory in
            let sqlite = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("ledger.sqlite"))
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
            #expect(actual.count == 76)
            // Refunds: the refundable amount, duplicate ids, compare-and-set on the status, final statuses.
            #expect(actual[35] == .refused(.duplicateReference))
            #expect(actual[36] == .refused(.invalidAmount))
            #expect(actual[37] == .refused(.invalidState))
            #expect(actual[38] == .refused(.unknownReference))
            #expect(actual[39] == .refused(.currencyMismatch))
            #expect(actual[41] == .refused(.invalidState))
            #expect(actual[42] == .refused(.invalidState))
            #expect(actual[43] == .refused(.unknownReference))
            #expect(actual[44] == .ok)
            #expect(actual[46] == .ok)
            guard case .refunds(let refundsOfD) = actual[48] else { Issue.record("no refunds"); return }
            #expect(refundsOfD.map(\.id) == ["D/refund-1", "D/refund-2", "D/refund-3"])
            #expect(refundsOfD.map(\.status) == [.succeeded, .failed, .pending])
            #expect(refundsOfD.map(\.processorRefundID) == ["re_1", nil, "re_3"])
            #expect(refundsOfD[1].error == declineAfterForwarding)
            #expect(actual[52] == .refunds([]))
            guard case .session(let d?) = actual[53], case .session(let dWithoutHistory?) = actual[54] else {
                Issue.record("no session D"); return
            }
            #expect(d.refunds == refundsOfD && dWithoutHistory.refunds == refundsOfD)
            #expect(d.refundedAmount == usd(1200) && d.refundableAmount == usd(0))
            // A note without a state change, a new payment attempt, stored times and capture deadlines.
            guard case .session(let noted?) = actual[55] else { Issue.record("no note"); return }
            #expect(noted.transitions.last.map { [$0.from, $0.to] } == [.succeeded, .succeeded])
            #expect(noted.transitions.last?.note == "the abandoned PaymentIntent pi_old was canceled at Stripe")
            #expect(actual[59] == .refused(.invalidState))
            // A succeeded refund may still fail, once; then it is final, and its amount is refundable again.
            guard case .refund(let failedLater) = actual[71] else { Issue.record("succeeded → failed refused"); return }
            #expect(failedLater.status == .failed && failedLater.error == declineAfterForwarding
                    && failedLater.processorRefundID == "re_1")
            #expect(actual[72] == .refused(.invalidState) && actual[73] == .refused(.invalidState))
            guard case .refunds(let recent) = actual[74] else { Issue.record("no recent refunds"); return }
            #expect(recent.map(\.id) == ["D/refund-1", "D/refund-3"], "changed at or after 61: refund 1 (73), 3 (62)")
            guard case .session(let dAfter?) = actual[75] else { Issue.record("no session D"); return }
            #expect(dAfter.refundedAmount == usd(700) && dAfter.refundableAmount == usd(500))
            guard case .session(let e?) = actual[68] else { Issue.record("no session E"); return }
            #expect(e.paymentAttempt == 2 && e.processorPaymentID == "pi_E2" && e.card == nil)
            #expect(e.transitions.map(\.attempt) == [1, 1, 1, 2, 2, 2])
            #expect(e.transitions.map(\.to) == [.created, .processing, .declined, .created, .processing, .succeeded])
            #expect(actual[64] == .summary(StoredPaymentSummary(count: 1, amounts: [.usd: 400], oldestStoredAt: at(70))))
            #expect(actual[66] == .summary(StoredPaymentSummary(count: 1, amounts: [.usd: 400], oldestStoredAt: at(3))))
            guard case .session(let c?) = actual[69] else { Issue.record("no session C"); return }
            #expect(c.captureBefore == at(72 + 172_800))
        }
    }

    @Test("a closed and reopened ledger gives back every session, its history, errors and vendor error")
    func durableAcrossReopen() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let first = try await SQLitePaymentLedger.open(url: url)
            _ = await exercise(first)
            let before = try await first.allSessions(scope: shop)
            var histories: [PaymentSession] = []
            for session in before { histories.append(try #require(try await first.session(reference: session.reference, scope: shop))) }
            let summary = try await first.storedSummary(scope: shop)
            await first.close()
            await #expect(throws: PaymentError.self) { try await first.storedSummary(scope: shop) }

            let reopened = try await SQLitePaymentLedger.open(url: url)
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
            let ledger = try await SQLitePaymentLedger.open(url: url)
            try await ledger.insert(newSession("A", usd(100)))
            #expect(try permissions(url.path) == 0o600)
            #expect(try permissions(url.path + "-wal") == 0o600)
            #expect(try permissions(url.path + "-shm") == 0o600)

            #expect(try await ledger.connectionSettings()
                    == ["journal_mode": "wal", "synchronous": "2", "foreign_keys": "1", "temp_store": "2",
                        "wal_autocheckpoint": "\(SQLitePaymentLedger.checkpointPages)"])
            // A non-durable change (an intermediate state) commits with synchronous = NORMAL.
            _ = try await ledger.record(SessionChange(reference: "A", expectedState: .created, newState: .collecting,
                                                      at: at(1)), scope: shop)
            #expect(try await ledger.connectionSettings()["synchronous"] == "1")
            let probe = try SQLiteDatabase(path: url.path, mode: .readOnly)
            defer { probe.close() }
            #expect(try probe.scalarText("PRAGMA journal_mode") == "wal")
            #expect(try probe.scalarInteger("PRAGMA user_version") == Int64(SQLitePaymentLedger.schemaVersion))
            #expect(SQLitePaymentLedger.schemaVersion == 6)
            #expect(try probe.scalarInteger("PRAGMA application_id") == Int64(SQLitePaymentLedger.applicationID))
            let tables = try probe.scalarInteger(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN (?, ?, ?, ?, ?, ?)",
                [.text("sessions"), .text("transitions"), .text("stored_aggregates"), .text("scopes"), .text("refunds"),
                 .text("refund_history")])
            #expect(tables == 6)
            // No card number can be there: the card column holds only what CardDetails can hold.
            _ = try await ledger.record(SessionChange(reference: "A", expectedState: .collecting, newState: .processing,
                                                      at: at(2), card: visa), scope: shop)
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
            let ledger = try await SQLitePaymentLedger.open(url: url)
            try await ledger.insert(newSession("A", usd(100)))
            await ledger.close()
            #expect(try permissions(url.path) == 0o600)

            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
            let reopened = try await SQLitePaymentLedger.open(url: url)
            #expect(try permissions(url.path) == 0o600)
            #expect(try await reopened.allSessions(scope: shop).map(\.reference) == ["A"])
        }
    }

    @Test("two scopes never see each other's sessions, lookups or aggregates")
    func scopesAreIsolated() async throws {
        try await withTemporaryDirectory { directory in
            let ledger = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("ledger.sqlite"))
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
            let ledger = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("ledger.sqlite"))
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
            let ledger = try await SQLitePaymentLedger.open(url: url)
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
            let ledger = try await SQLitePaymentLedger.open(url: url, busyTimeout: 0.05)
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

    @Test("two ledgers on one file (two processes) share it, and compare-and-set holds across them")
    func twoConnectionsShareTheFile() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let first = try await SQLitePaymentLedger.open(url: url)
            let second = try await SQLitePaymentLedger.open(url: url)
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
}
