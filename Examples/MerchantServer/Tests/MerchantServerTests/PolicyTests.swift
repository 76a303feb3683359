import Foundation
import Testing
import TenderWire
@testable import MerchantServer

@Suite("The shipped policy: role refund maximum, device daily refund total, a manager's device above them")
struct PolicyTests {
    @Test("a cashier refunds up to the role's maximum; above it the refusal names the rule; a manager's device can",
          arguments: StoreKind.available)
    func roleMaximum(kind: StoreKind) async throws {
        let harness = Harness(store: try await kind.makeStore())
        let cashier = try await harness.enrol(location: "tml_A", role: "cashier")
        let manager = try await harness.enrol(location: "tml_A", role: "manager")
        let sale = harness.stripe.addIntent(location: "tml_A", amount: 20_000)
        let first = try await harness.refund(sale, minor: 5_000, key: "k1", token: cashier.token)
        #expect(first.status == 200)
        let refused = try await harness.refund(sale, minor: 5_001, key: "k2", token: cashier.token)
        #expect(refused.status == 403 && refused.errorCode == "not_authorized")
        #expect(refused.errorMessage.contains("role refund maximum") && refused.errorMessage.contains("50.00 USD"))
        #expect(harness.stripe.refunded(sale) == 5_000)
        #expect(try await harness.refund(sale, minor: 9_000, key: "k3", token: manager.token).status == 200)
        #expect(harness.stripe.refunded(sale) == 14_000)
    }

    @Test("a role with no allowance in a currency is refused, naming the rule")
    func roleWithoutAllowance() async throws {
        let harness = Harness(store: try await StoreKind.sqlite.makeStore())
        let trainee = try await harness.enrol(location: "tml_A", role: "trainee")
        let sale = harness.stripe.addIntent(location: "tml_A", amount: 2_000)
        let refused = try await harness.refund(sale, minor: 100, key: "t1", token: trainee.token)
        #expect(refused.status == 403 && refused.errorMessage.contains("Rule \"role refund maximum\": the trainee role"))
        #expect(harness.stripe.refunded(sale) == 0)
    }

    @Test("a device's refunds of one UTC day stop at the daily total; the next day they start again",
          arguments: StoreKind.available)
    func dailyTotal(kind: StoreKind) async throws {
        let policy = RefundPolicy(roleRefundMaximum: ["cashier": ["USD": 5_000]],
                                  deviceDailyRefundTotal: ["USD": 12_000])
        let harness = Harness(store: try await kind.makeStore(), policy: policy)
        let cashier = try await harness.enrol(location: "tml_A", role: "cashier")
        let other = try await harness.enrol(location: "tml_A", role: "cashier")
        let manager = try await harness.enrol(location: "tml_A", role: "manager")
        let sale = harness.stripe.addIntent(location: "tml_A", amount: 100_000)
        for (index, minor) in [5_000, 5_000, 2_000].enumerated() {
            #expect(try await harness.refund(sale, minor: Int64(minor), key: "d\(index)", token: cashier.token)
                .status == 200)
        }
        // At the total, a retry of the last refund (same key) is the same refund: allowed, and Stripe replays it.
        #expect(try await harness.refund(sale, minor: 2_000, key: "d2", token: cashier.token).status == 200)
        #expect(harness.stripe.refunded(sale) == 12_000)
        let refused = try await harness.refund(sale, minor: 1, key: "d3", token: cashier.token)
        #expect(refused.status == 403 && refused.errorMessage.contains("device daily refund total")
            && refused.errorMessage.contains("120.00 USD today"))
        // The total is per device; a manager's device is above it.
        #expect(try await harness.refund(sale, minor: 1_000, key: "o1", token: other.token).status == 200)
        #expect(try await harness.refund(sale, minor: 30_000, key: "m1", token: manager.token).status == 200)
        #expect(harness.stripe.refunded(sale) == 43_000)
        // A retry of an accepted refund (same key) is the same refund: not counted twice, not refused.
        #expect(try await harness.refund(sale, minor: 1_000, key: "o1", token: other.token).status == 200)
        #expect(harness.stripe.refunded(sale) == 43_000)
        harness.clock.advance(86_400)
        #expect(try await harness.refund(sale, minor: 5_000, key: "d4", token: cashier.token).status == 200)
    }

    @Test("concurrent refunds of one device cannot together pass its daily total")
    func concurrentRefunds() async throws {
        let policy = RefundPolicy(roleRefundMaximum: ["cashier": ["USD": 5_000]],
                                  deviceDailyRefundTotal: ["USD": 10_000])
        let harness = Harness(store: try await StoreKind.sqlite.makeStore(), policy: policy)
        let cashier = try await harness.enrol(location: "tml_A", role: "cashier")
        let sale = harness.stripe.addIntent(location: "tml_A", amount: 100_000)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<5 {
                group.addTask { try await harness.refund(sale, minor: 4_000, key: "c\(index)", token: cashier.token).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count == 2 && statuses.filter { $0 == 403 }.count == 3)
        #expect(harness.stripe.refunded(sale) == 8_000)
    }

    @Test("a device acts for its own location only: another location's payment is refused, naming the rule")
    func ownLocation() async throws {
        let harness = Harness(store: try await StoreKind.sqlite.makeStore())
        let manager = try await harness.enrol(location: "tml_B", role: "manager")
        let sale = harness.stripe.addIntent(location: "tml_A", amount: 2_000)
        let refused = try await harness.refund(sale, minor: 100, key: "x1", token: manager.token, location: "tml_B")
        #expect(refused.status == 403 && refused.errorMessage.contains("Rule \"own location\""))
        let capture = try await harness.call(.post, "/v1/payments/capture", token: manager.token, json: CaptureRequest(
            processor: "stripe", reference: "order", processorPaymentID: sale,
            amount: Money(minorUnits: 2_000, currency: .usd), idempotencyKey: Harness.key("x2", location: "tml_B")))
        #expect(capture.status == 403 && capture.errorMessage.contains("own location"))
        #expect(harness.stripe.refunded(sale) == 0 && harness.stripe.captureCount == 0)
    }
}
