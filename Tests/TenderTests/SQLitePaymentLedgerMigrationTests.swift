import Foundation
import Testing
@testable import Tender

/// Schema migrations: every older file is upgraded in place with nothing lost.
@Suite("SQLite ledger: schema migrations")
struct SQLitePaymentLedgerMigrationTests: SQLiteLedgerFixtures {
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

            let ledger = try await SQLitePaymentLedger.open(url: url)
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
            #expect(try probe.scalarInteger("PRAGMA user_version") == Int64(SQLitePaymentLedger.schemaVersion))
            #expect(try permissions(url.path) == 0o600)
        }
    }

    @Test("migration steps are numbered 1, 2, … in order, and the schema version is the last")
    func migrationsAreOrdered() {
        // Version 5 (the captured amount) is on another branch (issue 18, facade); this branch adds 6. Once both are
        // merged the steps are 1…6 again and the gap below is gone.
        let versions = SQLitePaymentLedger.migrations.map(\.version)
        #expect(versions == Array(1...SQLitePaymentLedger.schemaVersion).filter { $0 != 5 || versions.contains(5) })
        #expect(SQLitePaymentLedger.schemaVersion == versions.last)
    }

    /// A version-2 file as Tender wrote it before refunds and payment attempts existed: the first two migrations,
    /// then sessions and transitions with the columns of that version only.
    private func makeVersion2File(_ url: URL) throws {
        let raw = try SQLiteDatabase(path: url.path, mode: .readWriteCreate)
        defer { raw.close() }
        try raw.executeScript("PRAGMA journal_mode = WAL;")
        try raw.executeScript(SQLitePaymentLedger.migrations[0].sql)
        try raw.executeScript(SQLitePaymentLedger.migrations[1].sql)
        try raw.executeScript("PRAGMA application_id = \(SQLitePaymentLedger.applicationID); PRAGMA user_version = 2;")
        let insertSession = """
            INSERT INTO sessions (merchant_id, location_id, reference, processor, amount, currency, currency_exponent,
                tip, tip_currency, tip_currency_exponent, capture_mode, offline_policy, route, state,
                processor_payment_id, local_id, card, last_error, attempts, created_at, updated_at, stored_at,
                stored_since)
            VALUES (?, ?, ?, 'stripe', ?, 'USD', 2, NULL, NULL, NULL, 'automatic', 'preferOnline', ?, ?, ?, ?, ?, ?,
                    ?, ?, ?, ?, ?)
            """
        let insertTransition = "INSERT INTO transitions (session_id, from_state, to_state, at, error) VALUES (?, ?, ?, ?, ?)"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let card = String(decoding: try encoder.encode(visa), as: UTF8.self)
        let error = String(decoding: try encoder.encode(declineAfterForwarding), as: UTF8.self)
        // (reference, route, states in order, processor id, local id, card, error, attempts, stored since)
        let rows: [(String, String, [String], String?, String?, String?, String?, Int64, Double?)] = [
            ("online", "online", ["created", "processing", "succeeded"], "pi_1", nil, card, nil, 1, nil),
            ("stored", "offline", ["created", "processing", "storedOffline"], nil, "loc_2", card, nil, 2, 30),
            ("declined", "offline", ["created", "processing", "storedOffline", "declinedAfterForwarding"], "pi_3",
             "loc_3", nil, error, 1, nil),
        ]
        for (index, row) in rows.enumerated() {
            let (reference, route, states, processorID, localID, card, error, attempts, storedSince) = row
            try raw.execute(insertSession, [
                .text(shop.merchantID), .text(shop.locationID), .text(reference), .integer(Int64(1_000 + index)),
                .text(route), .text(states.last!), .text(processorID), .text(localID), .text(card), .text(error),
                .integer(attempts), .date(at(0)), .date(at(Double(10 * states.count))),
                .date(storedSince.map(at) ?? (states.contains("storedOffline") ? at(30) : nil)),
                .date(storedSince.map(at)),
            ])
            let sessionID = raw.lastInsertRowID
            for (step, state) in states.enumerated() {
                try raw.execute(insertTransition, [
                    .integer(sessionID), .text(step == 0 ? nil : states[step - 1]), .text(state),
                    .date(at(Double(10 * (step + 1)))), .text(state == "declinedAfterForwarding" ? error : nil),
                ])
            }
        }
        try raw.execute("INSERT INTO stored_aggregates VALUES (?, ?, 'USD', 2, 1, 1001)",
                        [.text(shop.merchantID), .text(shop.locationID)])
        try raw.execute("INSERT INTO scopes VALUES (?, ?)", [.text(shop.merchantID), .text(shop.locationID)])
    }

    @Test("a version-2 file is migrated to the current version with nothing lost, finds its ids, and takes refunds")
    func migratesFromVersion2() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("v2.sqlite")
            try makeVersion2File(url)
            let before = try SQLiteDatabase(path: url.path, mode: .readOnly)
            let rowCounts = try ["sessions", "transitions", "stored_aggregates", "scopes"].map {
                try before.scalarInteger("SELECT COUNT(*) FROM \($0)")
            }
            before.close()
            #expect(rowCounts == [3, 10, 1, 1])

            let ledger = try await SQLitePaymentLedger.open(url: url)
            let sessions = try await everything(in: ledger, scope: shop)
            #expect(sessions.keys.sorted() == ["declined", "online", "stored"])
            let online = try #require(sessions["online"])
            #expect(online.state == .succeeded && online.processorPaymentID == "pi_1" && online.card == visa)
            #expect(online.paymentAttempt == 1 && online.captureBefore == nil && online.refunds.isEmpty)
            #expect(online.transitions.map(\.to) == [.created, .processing, .succeeded])
            #expect(online.transitions.allSatisfy { $0.attempt == 1 && $0.note == nil })
            let stored = try #require(sessions["stored"])
            #expect(stored.state == .storedOffline && stored.localID == "loc_2" && stored.attempts == 2)
            #expect(stored.storedAt == at(30))
            let declined = try #require(sessions["declined"])
            #expect(declined.lastError == declineAfterForwarding)
            #expect(declined.transitions.last?.error == declineAfterForwarding)
            #expect(declined.transitions.map(\.from) == [nil, .created, .processing, .storedOffline])
            // Version 6: sessions recorded before keys were scoped keep their reference-only vendor attempt ids.
            #expect(sessions.values.allSatisfy { $0.keyScheme == .referenceOnly })
            #expect(PaymentLookupQuery(stored).vendorAttemptID == "stored")
            // Version 4's indexes of the ids' last characters find the payments by their ids, in their scope only.
            #expect(try await ledger.session(localID: "loc_3", processorPaymentID: nil, scope: shop)?.reference == "declined")
            #expect(try await ledger.session(localID: "nope", processorPaymentID: "pi_1", scope: shop)?.reference == "online")
            #expect(try await ledger.session(localID: nil, processorPaymentID: "pi_1", scope: otherShop) == nil)
            #expect(try await ledger.session(localID: "oc_2", processorPaymentID: "i_3", scope: shop) == nil)
            let plans = try await ledger.explain([LedgerSQL.selectReferenceByLocalID, LedgerSQL.selectReferenceByProcessorID],
                                                 [.text(shop.merchantID), .text(shop.locationID), .text("pi_1")])
            #expect(plans.contains { $0.contains("sessions_by_local_id_tail") }, "\(plans)")
            #expect(plans.contains { $0.contains("sessions_by_processor_id_tail") })
            #expect(!plans.contains { $0.hasPrefix("SCAN") }, "\(plans)")
            #expect(try await ledger.storedSummary(scope: shop)
                    == StoredPaymentSummary(count: 1, amounts: [.usd: 1001], oldestStoredAt: at(30)))

            // Version 3 at work on the migrated rows: a refund, a note, a stored time that moves.
            try await ledger.insertRefund(RefundRecord(id: "online/refund-1", reference: "online", number: 1,
                                                       amount: usd(400), createdAt: at(100)), scope: shop)
            await #expect(throws: PaymentError.self) {
                try await ledger.insertRefund(RefundRecord(id: "online/refund-2", reference: "online", number: 2,
                                                           amount: usd(601), createdAt: at(101)), scope: shop)
            }
            _ = try await ledger.record(SessionChange(reference: "stored", expectedState: .storedOffline,
                                                      newState: .storedOffline, at: at(102), storedAt: at(5),
                                                      note: "the vendor stored it earlier"), scope: shop)
            #expect(try await ledger.storedSummary(scope: shop).oldestStoredAt == at(5))
            #expect(try await ledger.session(reference: "online", scope: shop)?.refunds.map(\.amount) == [usd(400)])
            // A session recorded now is scoped, and stays so.
            try await ledger.insert(newSession("fresh", usd(100), at: at(103)))
            await ledger.close()
            let reopened = try await SQLitePaymentLedger.open(url: url)
            let fresh = try #require(try await reopened.session(reference: "fresh", scope: shop))
            #expect(fresh.keyScheme == .scoped)
            #expect(PaymentLookupQuery(fresh).vendorAttemptID == "\(shop.merchantID)/\(shop.locationID)/fresh/1/payment")
            #expect(try await reopened.session(reference: "online", scope: shop)?.keyScheme == .referenceOnly)
            await reopened.close()

            let probe = try SQLiteDatabase(path: url.path, mode: .readOnly)
            defer { probe.close() }
            #expect(try probe.scalarInteger("PRAGMA user_version") == Int64(SQLitePaymentLedger.schemaVersion))
            #expect(try probe.scalarInteger("SELECT COUNT(*) FROM transitions") == 12)
            #expect(try probe.scalarInteger("SELECT COUNT(*) FROM refund_history") == 1)
        }
    }

    @Test("a version-4 file is migrated to version 5: no captured amount recorded, then partial captures are kept")
    func migratesFromVersion4() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("v4.sqlite")
            let raw = try SQLiteDatabase(path: url.path, mode: .readWriteCreate)
            try raw.executeScript("PRAGMA journal_mode = WAL;")
            for migration in SQLitePaymentLedger.migrations where migration.version <= 4 {
                try raw.executeScript(migration.sql)
            }
            try raw.executeScript("PRAGMA application_id = \(SQLitePaymentLedger.applicationID); PRAGMA user_version = 4;")
            let insert = """
                INSERT INTO sessions (merchant_id, location_id, reference, processor, amount, currency, currency_exponent,
                    tip, tip_currency, tip_currency_exponent, capture_mode, offline_policy, route, state,
                    processor_payment_id, attempts, created_at, updated_at, payment_attempt)
                VALUES (?, ?, ?, 'stripe', ?, 'USD', 2, ?, ?, ?, 'manual', 'preferOnline', 'online', ?, ?, 1, ?, ?, 1)
                """
            // (reference, amount, tip, state): one captured before version 5, three still authorized.
            let rows: [(String, Int64, Int64?, String)] = [
                ("captured", 2_000, 200, "succeeded"), ("held-1", 3_000, nil, "authorized"),
                ("held-2", 4_000, nil, "authorized"), ("held-3", 5_000, nil, "authorized"),
            ]
            for (reference, amount, tip, state) in rows {
                try raw.execute(insert, [
                    .text(shop.merchantID), .text(shop.locationID), .text(reference), .integer(amount), .integer(tip),
                    .text(tip == nil ? nil : "USD"), .integer(tip == nil ? nil : 2), .text(state),
                    .text("pi_\(reference)"), .date(at(0)), .date(at(1)),
                ])
                try raw.execute("INSERT INTO transitions (session_id, from_state, to_state, at) VALUES (?, NULL, ?, ?)",
                                [.integer(raw.lastInsertRowID), .text(state), .date(at(1))])
            }
            try raw.execute("INSERT INTO scopes VALUES (?, ?)", [.text(shop.merchantID), .text(shop.locationID)])
            raw.close()

            let ledger = try await SQLitePaymentLedger.open(url: url)
            let before = try await everything(in: ledger, scope: shop)
            // Captured before version 5: its whole total (the tip included) counts as captured.
            let old = try #require(before["captured"])
            #expect(old.capturedAmount == nil && old.captured == usd(2_200) && old.refundableAmount == usd(2_200))
            #expect(before["held-1"]?.captured == usd(0) && before["held-1"]?.refundableAmount == usd(0))
            // A partial capture on the row path, and two in one set-based batch.
            _ = try await ledger.record(SessionChange(reference: "held-1", expectedState: .authorized,
                                                      newState: .succeeded, at: at(10), capturedAmount: usd(1_000)),
                                        scope: shop)
            _ = try await ledger.record([
                SessionChange(reference: "held-2", expectedState: .authorized, newState: .succeeded, at: at(11),
                              capturedAmount: usd(2_500)),
                SessionChange(reference: "held-3", expectedState: .authorized, newState: .succeeded, at: at(11),
                              capturedAmount: usd(5_000)),
            ], scope: shop)
            // Never more than the total, never in another currency: refused, nothing written.
            await #expect(throws: PaymentError.self) {
                try await ledger.record(SessionChange(reference: "captured", expectedState: .succeeded,
                                                      newState: .succeeded, at: at(12), capturedAmount: usd(2_201)),
                                        scope: shop)
            }
            await #expect(throws: PaymentError.self) {
                try await ledger.insertRefund(RefundRecord(id: "held-1/refund-1", reference: "held-1", number: 1,
                                                           amount: usd(1_001), createdAt: at(13)), scope: shop)
            }
            try await ledger.insertRefund(RefundRecord(id: "held-1/refund-1", reference: "held-1", number: 1,
                                                       amount: usd(1_000), createdAt: at(13)), scope: shop)
            await ledger.close()

            let reopened = try await SQLitePaymentLedger.open(url: url)
            let after = try await everything(in: reopened, scope: shop)
            #expect(after["held-1"]?.capturedAmount == usd(1_000) && after["held-1"]?.refundableAmount == usd(0))
            #expect(after["held-2"]?.capturedAmount == usd(2_500) && after["held-2"]?.refundableAmount == usd(2_500))
            #expect(after["held-3"]?.captured == usd(5_000))
            #expect(after["captured"]?.capturedAmount == nil)
            #expect(try await reopened.sessions(in: [.succeeded], scope: shop).map(\.capturedAmount)
                    == [nil, usd(1_000), usd(2_500), usd(5_000)])
            await reopened.close()
            let probe = try SQLiteDatabase(path: url.path, mode: .readOnly)
            defer { probe.close() }
            #expect(try probe.scalarInteger("PRAGMA user_version") == Int64(SQLitePaymentLedger.schemaVersion))
        }
    }

    @Test("refund history and refunds are protected in the file itself")
    func refundTablesAreProtected() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ledger.sqlite")
            let ledger = try await SQLitePaymentLedger.open(url: url)
            try await ledger.insert(succeededSession("A", usd(1000)))
            try await ledger.insertRefund(RefundRecord(id: "A/refund-1", reference: "A", number: 1, amount: usd(100),
                                                       createdAt: at(1)), scope: shop)
            let raw = try SQLiteDatabase(path: url.path, mode: .readWrite)
            defer { raw.close() }
            #expect(throws: SQLiteError.self) { try raw.execute("UPDATE refund_history SET to_status = 'succeeded'") }
            #expect(throws: SQLiteError.self) { try raw.execute("DELETE FROM refund_history") }
            #expect(throws: SQLiteError.self) { try raw.execute("DELETE FROM refunds") }
            #expect(throws: SQLiteError.self) { try raw.execute("UPDATE refunds SET amount = 1") }
            try raw.execute("UPDATE refunds SET status = status")  // the status itself may change
            #expect(try await ledger.refunds(reference: "A", scope: shop).map(\.amount) == [usd(100)])
        }
    }
}
