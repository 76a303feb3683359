import Foundation
import Testing
@testable import Tender
import TenderBackend
import TenderStripe
import TenderStripeSimulator
import TenderTesting
@testable import TenderServer

/// A session carried over from a ledger of schema 5 (before attempt ids were scoped, issue 28 item 5): its earlier
/// attempt was declined by an earlier version (an intent at localstripe without `tender_location`); the cashier
/// takes another card for the same order, which is then captured and refunded, all through the routes.
@Suite("End to end: a session from an older ledger schema, Stripe", .serialized, .enabled(if: EndToEndStack.runs))
struct StripeLegacyEndToEndTests {
    /// A schema-5 ledger file holding one declined session of `reference` at `scope` with `processor`, whose vendor
    /// payment was `intent`.
    static func makeVersion5Ledger(_ url: URL, scope: LedgerScope, reference: String, intent: String,
                                   processor: String = "stripe") throws {
        let raw = try SQLiteDatabase(path: url.path, mode: .readWriteCreate)
        defer { raw.close() }
        try raw.executeScript("PRAGMA journal_mode = WAL;")
        for migration in SQLitePaymentLedger.migrations where migration.version <= 5 {
            try raw.executeScript(migration.sql)
        }
        try raw.executeScript("PRAGMA application_id = \(SQLitePaymentLedger.applicationID); PRAGMA user_version = 5;")
        let created = Date(timeIntervalSince1970: 1_780_000_000)
        try raw.execute("""
            INSERT INTO sessions (merchant_id, location_id, reference, processor, amount, currency, currency_exponent,
                capture_mode, offline_policy, route, state, processor_payment_id, attempts, created_at, updated_at,
                payment_attempt)
            VALUES (?, ?, ?, ?, 4000, 'USD', 2, 'manual', 'requireOnline', 'online', 'declined', ?, 1, ?, ?, 1)
            """, [.text(scope.merchantID), .text(scope.locationID), .text(reference), .text(processor), .text(intent),
                  .date(created),
                  .date(created)])
        let session = raw.lastInsertRowID
        for (from, to) in [(nil, "created"), ("created", "collecting"), ("collecting", "processing"),
                           ("processing", "declined")] as [(String?, String)] {
            try raw.execute("INSERT INTO transitions (session_id, from_state, to_state, at) VALUES (?, ?, ?, ?)",
                            [.integer(session), .text(from), .text(to), .date(created)])
        }
        try raw.execute("INSERT INTO scopes VALUES (?, ?)", [.text(scope.merchantID), .text(scope.locationID)])
    }

    @Test("another card for a schema-5 session: tagged with the shop's location, captured and refunded at localstripe")
    func legacySessionTakesAnotherCard() async throws {
        let stack = try EndToEndStack()
        let reference = "legacy-\(UUID().uuidString.prefix(6).lowercased())"
        // What an earlier version left at Stripe: the declined attempt's intent, with no location.
        let (_, old) = try await stack.stripe("POST", "v1/payment_intents",
                                              "amount=4000&currency=usd&payment_method_types[]=card&capture_method=manual&metadata[tender_reference]=\(reference)")
        let oldID = try #require(old["id"] as? String)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("v5.sqlite")
        try Self.makeVersion5Ledger(url, scope: stack.shop, reference: reference, intent: oldID)
        let ledger = try await SQLitePaymentLedger.open(url: url)
        defer { Task { await ledger.close() } }
        let before = try #require(try await ledger.session(reference: reference, scope: stack.shop))
        #expect(before.state == .declined && before.keyScheme == .referenceOnly, "the session keeps its reference-only ids")

        // The untagged intent belongs to the shop the server names, and to no other location.
        #expect(try await stack.device.retrievePaymentIntent(id: oldID)?.id == oldID)
        await #expect(throws: PaymentError.self) { _ = try await stack.otherDevice.retrievePaymentIntent(id: oldID) }

        let (terminal, _) = try await StripeEndToEndTests.terminal(stack, ledger: ledger)
        let request = PaymentRequest(amount: StripeEndToEndTests.usd(4_000), reference: reference,
                                     captureMode: .manual, offlinePolicy: .requireOnline)
        let authorized = try await terminal.takePayment(request)
        #expect(authorized.state == .authorized, "\(authorized.state) \(String(describing: authorized.lastError))")
        let newID = try #require(authorized.processorPaymentID)
        #expect(newID != oldID)
        let intents = try await stack.stripeIntents(reference: reference)
        let new = try #require(intents.first { $0["id"] as? String == newID })
        #expect((new["metadata"] as? [String: Any])?["tender_location"] as? String == stack.shop.locationID,
                "the adapter tags every attempt, a legacy session's too (the location of the terminal's scope)")

        let captured = try await terminal.capture(reference: reference)
        #expect(captured.state == .succeeded)
        let refund = try await terminal.refund(reference: reference, amount: StripeEndToEndTests.usd(1_500))
        #expect(refund.status != .failed, "\(String(describing: refund.error))")
        // What localstripe holds: the old intent never charged, the new one captured once, one refund of 15.00.
        let after = try await stack.stripeIntents(reference: reference)
        #expect(after.count == 2)
        #expect(after.filter { $0["status"] as? String == "succeeded" }.map { $0["id"] as? String } == [newID])
        #expect(try await stack.stripeRefunds(intent: newID).compactMap { $0["amount"] as? Int } == [1_500])
        #expect(try await stack.stripeRefunds(intent: oldID).isEmpty)
        try stack.server.expectValidExchanges()
    }
}
