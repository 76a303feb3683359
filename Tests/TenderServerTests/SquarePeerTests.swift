import Foundation
import Testing
import Tender
import TenderSquare
@testable import TenderServer

/// TenderServer's Square client over real HTTP against the loopback peer that answers from Square's OpenAPI
/// document and validates every request and answer with openapi-core. Each test ends by reading the peer's report:
/// any validation failure fails the test.
@Suite("TenderServer against the Square OpenAPI peer", .enabled(if: Peers.squareRunning, Peers.squareReason), .serialized)
struct SquarePeerTests {
    let location = "L" + UUID().uuidString.prefix(8)

    var client: SquareServerClient {
        SquareServerClient(accessToken: Credential(Peers.squareToken!), configuration: .init(baseURL: Peers.square!, maximumPages: 10))
    }

    @discardableResult
    func seed(_ fields: [String: Any]) async throws -> String {
        var all = fields
        all["location_id"] = all["location_id"] ?? location
        let body = String(data: try JSONSerialization.data(withJSONObject: all), encoding: .utf8)!
        let (status, payment) = try await Peers.raw("POST", Peers.square!.appendingPathComponent("_tender/payments"),
                                                   headers: ["Content-Type": "application/json"], body: body)
        #expect(status == 200)
        return try #require(payment["id"] as? String)
    }

    /// Fails when the peer saw any request or gave any answer that does not match Square's document.
    func expectNoViolations() async throws {
        let (_, report) = try await Peers.raw("GET", Peers.square!.appendingPathComponent("_tender/report"))
        let violations = report["violations"] as? [String] ?? ["no report"]
        #expect(violations.isEmpty, "Square spec violations: \(violations)")
        #expect((report["fixes"] as? [String])?.count == 5)
    }

    @Test("complete (capture) an approved payment; a retry is the same capture; the amount must match")
    func complete() async throws {
        let id = try await seed(["amount": 1_000, "tip": 200, "reference_id": "sq-1"])
        await #expect(throws: PaymentError.self) {
            try await client.capture(processor: "square", reference: "sq-1", processorPaymentID: id,
                                     amount: Money(minorUnits: 1_000, currency: .usd))
        }
        let total = Money(minorUnits: 1_200, currency: .usd)
        try await client.capture(processor: "square", reference: "sq-1", processorPaymentID: id, amount: total)
        try await client.capture(processor: "square", reference: "sq-1", processorPaymentID: id, amount: total)
        let payment = try #require(try await client.getPayment(id: id))
        #expect(payment.status == "COMPLETED" && payment.cardDetails?.status == "CAPTURED")
        let online = SquareRESTServerLookup.onlinePayment(payment)
        #expect(online.status == .completed && online.tipMoney?.amount == 200 && online.cardDetails?.status == .captured)
        let error = await #expect(throws: PaymentError.self) {
            try await client.void(processor: "square", reference: "sq-1", processorPaymentID: id)
        }
        #expect(error?.code == .invalidState)
        try await expectNoViolations()
    }

    @Test("a stale version token is refused with VERSION_MISMATCH, kept as the vendor code")
    func versionMismatch() async throws {
        let id = try await seed(["amount": 500])
        let error = await #expect(throws: PaymentError.self) { _ = try await client.completePayment(id: id, versionToken: "stale") }
        #expect(error?.vendor?.name == "VERSION_MISMATCH" && error?.vendor?.category == "INVALID_REQUEST_ERROR")
        #expect(error?.vendor?.field == "version_token" && error?.code == .invalidState)
        try await expectNoViolations()
    }

    @Test("cancel (void), cancel by idempotency key, get a missing payment")
    func cancel() async throws {
        let id = try await seed(["amount": 700])
        try await client.void(processor: "square", reference: "r", processorPaymentID: id)
        try await client.void(processor: "square", reference: "r", processorPaymentID: id)
        #expect(try await client.getPayment(id: id)?.status == "CANCELED")
        let keyed = try await seed(["amount": 300, "idempotency_key": "attempt-key-1"])
        try await SquareRESTServerLookup(client).cancelPayment(byIdempotencyKey: "attempt-key-1")
        try await SquareRESTServerLookup(client).cancelPayment(byIdempotencyKey: "no-such-key")
        #expect(try await client.getPayment(id: keyed)?.status == "CANCELED")
        #expect(try await client.getPayment(id: "missing-payment") == nil)
        try await expectNoViolations()
    }

    @Test("find by reference across pages, online and offline, oldest first, with time filters")
    func findByReference() async throws {
        let reference = "ref-" + UUID().uuidString.prefix(6)
        for index in 0..<7 { try await seed(["amount": 100 + index, "reference_id": "other-\(index)"]) }
        let online = try await seed(["amount": 900, "reference_id": reference, "created_at": "2026-01-01T10:00:00.000Z"])
        let offline = try await seed(["amount": 901, "reference_id": reference, "offline": true,
                                      "client_created_at": "2026-01-01T09:00:00.000Z"])
        let paged = SquareServerClient(accessToken: Credential(Peers.squareToken!),
                                       configuration: .init(baseURL: Peers.square!, maximumPages: 10),
                                       now: { Date(timeIntervalSince1970: 1_790_000_000) })
        let found: [Square.APIPayment] = try await SquareRESTServerLookup(paged).payments(referenceID: reference, locationID: location)
        #expect(found.map(\.id) == [online, offline])
        #expect(found.map(\.isOfflinePayment) == [false, true])
        let page = try await client.listPayments(SquarePaymentQuery(locationID: location, limit: 3))
        #expect(page.payments.count == 3 && page.cursor != nil)
        let windowed = try await client.listPayments(SquarePaymentQuery(
            locationID: location, isOfflinePayment: true,
            offlineBeginTime: Date(timeIntervalSince1970: 1_767_254_000), offlineEndTime: Date(timeIntervalSince1970: 1_767_270_000)))
        #expect(windowed.payments.map(\.id) == [offline])
        try await expectNoViolations()
    }

    @Test("refunds: partial and full, idempotent retry, reused key refused, lookups")
    func refunds() async throws {
        let id = try await seed(["amount": 2_000, "status": "COMPLETED", "reference_id": "sq-r"])
        // A long reference (its key is shortened to Square's limit), new each run: the peer keeps every key it saw.
        let longReference = String(repeating: "x", count: 32) + UUID().uuidString.prefix(8)
        #expect(try await client.lookUpRefund(processor: "square", processorPaymentID: id,
                                              idempotencyKey: "sq-r/refund-1", processorRefundID: nil) == nil)
        func request(_ number: Int, _ amount: Int64, reason: RefundReason? = nil) -> RefundRequest {
            RefundRequest(processor: "square", reference: "sq-r", processorPaymentID: id,
                          amount: Money(minorUnits: amount, currency: .usd), reason: reason,
                          idempotencyKey: refundKey(longReference, number))
        }
        let first = try await client.refund(request(1, 500, reason: .requestedByCustomer))
        let again = try await client.refund(request(1, 500, reason: .requestedByCustomer))
        #expect(first.status == .pending && again.processorRefundID == first.processorRefundID)
        let reused = await #expect(throws: PaymentError.self) { _ = try await client.refund(request(1, 600)) }
        #expect(reused?.code == .duplicateReference && reused?.vendor?.name == "IDEMPOTENCY_KEY_REUSED")
        let rest = try await client.refund(request(2, 1_500))
        let tooMuch = await #expect(throws: PaymentError.self) { _ = try await client.refund(request(3, 1)) }
        #expect(tooMuch?.code == .invalidAmount)
        let settled = try await client.lookUpRefund(processor: "square", processorPaymentID: id, idempotencyKey: "k",
                                                    processorRefundID: rest.processorRefundID)
        #expect(settled?.status == .pending)
        #expect(try await client.getRefund(id: try #require(rest.processorRefundID))?.status == "COMPLETED")
        await #expect(throws: PaymentError.self) {
            _ = try await client.lookUpRefund(processor: "square", processorPaymentID: id, idempotencyKey: "unknown-key",
                                              processorRefundID: nil)
        }
        try await expectNoViolations()
    }

    @Test("a wrong token is refused as not authorized")
    func unauthorized() async throws {
        let bad = SquareServerClient(accessToken: Credential("wrong-token-\(UUID())"), configuration: .init(baseURL: Peers.square!))
        let error = await #expect(throws: PaymentError.self) { _ = try await bad.getPayment(id: "x") }
        #expect(error?.code == .notAuthorized && error?.vendor?.category == "AUTHENTICATION_ERROR")
    }
}
