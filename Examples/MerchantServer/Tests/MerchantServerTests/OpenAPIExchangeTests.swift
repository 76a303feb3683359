import Foundation
import Testing
import TenderServer
import TenderWire
@testable import MerchantServer

@Suite("Every request and answer of merchant-server matches its OpenAPI document")
struct OpenAPIExchangeTests {
    @Test("health, enrolment, the administrator's routes, Tender's routes for a device, and the refusals, checked with openapi-core against the bundled document")
    func exchangesMatchTheDocument() async throws {
        let harness = Harness(store: try await StoreKind.sqlite.makeStore(), rateLimit: 3)
        let sale = harness.stripe.addIntent(location: "tml_A", amount: 9_000, status: "requires_capture")
        #expect(try await harness.call(.get, "/health").status == 200)

        // The administrator's routes, and their refusals.
        #expect(try await harness.call(.get, "/admin/devices", token: "not-the-admin").status == 401)
        let x = harness.exchanges
        #expect(try await x.invalid { try await harness.call(.post, "/admin/enrolment-codes",
                                                              token: Harness.adminToken, json: ["locationID": ""]) }
            .status == 400)
        let cashier = try await harness.enrol(location: "tml_A", role: "cashier")
        let manager = try await harness.enrol(location: "tml_A", role: "manager")
        #expect(try await harness.call(.get, "/admin/devices", token: Harness.adminToken).status == 200)
        #expect(try await x.invalid { try await harness.call(.get, "/admin/audit?location=tml_A",
                                                              token: Harness.adminToken) }.status == 400)
        #expect(try await x.invalid { try await harness.call(.post, "/v1/devices/enrol", json: ["name": "no code"]) }
            .status == 400)

        // Tender's routes for a device: a capture, a retry, a refund within the cashier's maximum, one above it, a
        // manager's refund, lookups, and a payment of another location.
        let capture = CaptureRequest(processor: "stripe", reference: "order", processorPaymentID: sale,
                                     amount: Money(minorUnits: 9_000, currency: .usd),
                                     idempotencyKey: Harness.key("capture"))
        #expect(try await harness.call(.post, "/v1/payments/capture", token: cashier.token, json: capture).status == 204)
        #expect(try await harness.call(.post, "/v1/payments/capture", token: cashier.token, json: capture).status == 204)
        #expect(try await harness.refund(sale, minor: 1_000, key: "refund-1", token: cashier.token).status == 200)
        let above = try await harness.refund(sale, minor: 6_000, key: "refund-2", token: cashier.token)
        #expect(above.status == 403 && above.errorCode == "not_authorized")
        #expect(try await harness.refund(sale, minor: 6_000, key: "refund-3", token: manager.token).status == 200)
        #expect(try await harness.call(.get, "/v1/stripe/payment-intents/\(sale)", token: cashier.token).status == 200)
        let elsewhere = harness.stripe.addIntent(location: "tml_B", amount: 500)
        #expect(try await harness.call(.get, "/v1/stripe/payment-intents/\(elsewhere)", token: cashier.token).status
            == 403)
        #expect(try await x.invalid { try await harness.call(.post, "/v1/payments/capture", token: cashier.token,
                                                              body: Data("{not json".utf8)) }.status == 400)
        let day = ISO8601DateFormatter.string(from: harness.clock.now, timeZone: TimeZone(identifier: "UTC")!,
                                              formatOptions: [.withFullDate])
        #expect(try await harness.call(.get, "/admin/audit?location=tml_A&day=\(day)", token: Harness.adminToken)
            .status == 200)

        // Revocation, no token, and the rate limit past three failures.
        #expect(try await harness.call(.post, "/admin/devices/\(cashier.id)/revoke", token: Harness.adminToken)
            .status == 204)
        #expect(try await harness.call(.post, "/v1/square/authorization", token: cashier.token).status == 401)
        #expect(try await x.invalid { try await harness.call(.post, "/v1/square/authorization") }.status == 401)
        var statuses: [Int] = []
        for _ in 0..<4 {
            statuses.append(try await harness.call(.post, "/v1/devices/enrol", json: ["code": "WRONG-CODE-0000"],
                                                   client: "10.9.9.9").status)
        }
        #expect(statuses.last == 429)

        #expect(harness.exchanges.count >= 25)
        try harness.exchanges.expectValid()
    }
}
