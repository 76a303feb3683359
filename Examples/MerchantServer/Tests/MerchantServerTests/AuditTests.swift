import Foundation
import Testing
import TenderWire
@testable import MerchantServer

@Suite("The audit trail")
struct AuditTests {
    @Test("captures, voids, refunds and sign-in hand-offs are recorded before the answer; a retry is one row",
          arguments: StoreKind.available)
    func retriesAreOneRow(kind: StoreKind) async throws {
        let harness = Harness(store: try await kind.makeStore())
        let device = try await harness.enrol(location: "tml_A", role: "cashier")
        let sale = harness.stripe.addIntent(location: "tml_A", amount: 2_000, status: "requires_capture")
        let capture = CaptureRequest(processor: "stripe", reference: "order-1", processorPaymentID: sale,
                                     amount: Money(minorUnits: 2_000, currency: .usd), idempotencyKey: Harness.key("cap-1", reference: "order-1"))
        for _ in 0..<3 {
            #expect(try await harness.call(.post, "/v1/payments/capture", token: device.token, json: capture)
                .status == 204)
        }
        #expect(harness.stripe.captureCount == 1)
        #expect(try await harness.refund(sale, minor: 700, key: "ref-1", token: device.token).status == 200)
        #expect(try await harness.refund(sale, minor: 700, key: "ref-1", token: device.token).status == 200)
        let refused = try await harness.refund(sale, minor: 6_000, key: "ref-2", token: device.token)
        #expect(refused.status == 403)
        // A sign-in hand-off with no Stripe Terminal endpoint at the fake: recorded with its failure.
        _ = try await harness.call(.post, "/v1/stripe/connection-token", token: device.token)
        // A lookup is not audited.
        #expect(try await harness.call(.get, "/v1/stripe/payment-intents/\(sale)", token: device.token).status == 200)

        let day = try await harness.call(.get, "/admin/audit?location=tml_A&day=2027-01-15", token: Harness.adminToken)
        #expect(day.status == 200)
        let entries = try await harness.server.store.audit(
            locationID: "tml_A", from: Date(timeIntervalSince1970: 1_800_000_000 - 28_800),
            to: Date(timeIntervalSince1970: 1_800_000_000 + 57_600))
        #expect(entries.map(\.operation) == ["capture", "refund", "refund", "signIn"])
        #expect(entries[0].attempts == 3 && entries[0].idempotencyKey == Harness.key("cap-1", reference: "order-1") && entries[0].result == "ok"
            && entries[0].amountMinor == 2_000 && entries[0].deviceID == device.id)
        #expect(entries[1].attempts == 2 && entries[1].result == "succeeded" && entries[1].currency == "USD")
        #expect(entries[2].status == 403 && entries[2].result == "not_authorized")
        #expect(entries[3].status >= 400 && entries[3].processor == "stripe")
        #expect(((day.json["entries"] as? [[String: Any]]) ?? []).count == 4)
        // Another location's day and another day are empty.
        #expect(try await harness.server.store.audit(locationID: "tml_B", from: .distantPast, to: .distantFuture)
            .isEmpty)
        let nextDay = try await harness.call(.get, "/admin/audit?location=tml_A&day=2027-01-16",
                                             token: Harness.adminToken)
        #expect(((nextDay.json["entries"] as? [[String: Any]]) ?? [[:]]).isEmpty)
    }

    @Test("the audit needs the administrator, a location and a day")
    func auditAccess() async throws {
        let harness = Harness(store: try await StoreKind.sqlite.makeStore())
        let device = try await harness.enrol(location: "tml_A", role: "manager")
        #expect(try await harness.call(.get, "/admin/audit?location=tml_A&day=2027-01-15", token: device.token)
            .status == 401)
        #expect(try await harness.call(.get, "/admin/audit?location=tml_A", token: Harness.adminToken).status == 400)
    }
}
