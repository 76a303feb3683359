import Foundation
import Testing
import Tender
import TenderBackend
import TenderSquare
import TenderSquareSimulator
import TenderTesting
@testable import TenderServer

/// A Square session carried over from a ledger of schema 5 (before attempt ids were scoped): an earlier version's
/// attempt failed at Square; the cashier takes another card for the same order, which is then captured and refunded,
/// all through the routes (built without `squareMerchantID`) against the Square peer.
@Suite("End to end: a session from an older ledger schema, Square", .serialized, .enabled(if: EndToEndStack.runs))
struct SquareLegacyEndToEndTests {
    @Test("another card for a schema-5 session: captured and refunded at the Square peer, the old payment untouched")
    func legacySessionTakesAnotherCard() async throws {
        let stack = try EndToEndStack()
        let reference = SquareEndToEndTests.reference("sq-legacy")
        // What an earlier version left at Square: the declined attempt's payment, FAILED.
        let oldID = "legacy-\(UUID().uuidString.prefix(10).lowercased())"
        try await stack.seedSquarePayment([
            "id": oldID, "status": "FAILED", "amount": 4_000, "currency": "USD",
            "location_id": stack.shop.locationID, "idempotency_key": UUID().uuidString, "reference_id": reference,
        ])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("v5.sqlite")
        try StripeLegacyEndToEndTests.makeVersion5Ledger(url, scope: stack.shop, reference: reference, intent: oldID,
                                                         processor: "square")
        let ledger = try await SQLitePaymentLedger.open(url: url)
        defer { Task { await ledger.close() } }
        let before = try #require(try await ledger.session(reference: reference, scope: stack.shop))
        #expect(before.state == .declined && before.keyScheme == .referenceOnly, "the session keeps its reference-only ids")

        let device = try await SquareEndToEndTests.SquareDevice(stack, ledger: ledger, seed: 29)
        let authorized = try await device.take(reference, 4_000, capture: .manual)
        #expect(authorized.state == .authorized, "\(authorized.state) \(String(describing: authorized.lastError))")
        let newID = try #require(authorized.processorPaymentID)
        #expect(newID != oldID)
        #expect(try await stack.squarePayment(newID)?["status"] as? String == "APPROVED")

        let captured = try await device.terminal.capture(reference: reference)
        #expect(captured.state == .succeeded, "\(captured.state) \(String(describing: captured.lastError))")
        let refund = try await device.terminal.refund(reference: reference, amount: SquareEndToEndTests.usd(1_500))
        #expect(refund.status != .failed, "\(String(describing: refund.error))")
        let refundID = try #require(refund.processorRefundID)

        // What the peer holds: the old payment still FAILED, the new one COMPLETED once, one refund of 15.00 of it.
        // (Read by id: the peer's list is one page, which other suites' payments can fill during a full run.)
        #expect(try await stack.squarePayment(oldID)?["status"] as? String == "FAILED")
        #expect(try await stack.squarePayment(newID)?["status"] as? String == "COMPLETED")
        let charges = await device.simulator.serverPayments.filter { $0.referenceID == reference }
        #expect(charges.map(\.id) == [newID], "the SDK made one payment for the order: \(charges.map(\.id))")
        let atSquare = try #require(try await stack.squareRefund(refundID))
        #expect(atSquare["payment_id"] as? String == newID)
        #expect((atSquare["amount_money"] as? [String: Any])?["amount"] as? Int == 1_500)
        #expect(try await stack.squareViolations().isEmpty)
        try stack.server.expectValidExchanges()
    }
}
