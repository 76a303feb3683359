import Foundation
import Testing
@testable import Tender
import TenderTesting

private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

/// Issue 18, item 5: idempotency keys unique per merchant, location, reference, attempt and operation.
@Suite struct IdempotencyKeyTests {
    let main = LedgerScope(merchantID: "acct_1", locationID: "tml_main")
    let harbor = LedgerScope(merchantID: "acct_1", locationID: "tml_harbor")

    @Test("the format, and every part of it makes a different key")
    func format() {
        let key = IdempotencyKey.refund(scope: main, reference: "1001", paymentAttempt: 1, number: 2)
        #expect(key.rawValue == "acct_1/tml_main/1001/1/refund-2")
        let keys: [IdempotencyKey] = [
            key,
            .refund(scope: harbor, reference: "1001", paymentAttempt: 1, number: 2),
            .refund(scope: LedgerScope(merchantID: "acct_2", locationID: "tml_main"), reference: "1001",
                    paymentAttempt: 1, number: 2),
            .refund(scope: main, reference: "1002", paymentAttempt: 1, number: 2),
            .refund(scope: main, reference: "1001", paymentAttempt: 2, number: 2),
            .refund(scope: main, reference: "1001", paymentAttempt: 1, number: 3),
            .capture(scope: main, reference: "1001", paymentAttempt: 1),
            .void(scope: main, reference: "1001", paymentAttempt: 1),
            .create(scope: main, reference: "1001", paymentAttempt: 1),
        ]
        #expect(Set(keys).count == keys.count)
        // Separators inside a part are escaped, so parts never run into each other.
        let a = IdempotencyKey.capture(scope: LedgerScope(merchantID: "m/x", locationID: "l"), reference: "r",
                                       paymentAttempt: 1)
        let b = IdempotencyKey.capture(scope: LedgerScope(merchantID: "m", locationID: "x/l"), reference: "r",
                                       paymentAttempt: 1)
        #expect(a != b && a.rawValue == "m%2Fx/l/r/1/capture" && b.rawValue == "m/x%2Fl/r/1/capture")
        #expect(IdempotencyKey.capture(scope: main, reference: "50%/off", paymentAttempt: 1).rawValue
                == "acct_1/tml_main/50%25%2Foff/1/capture")
    }

    @Test("fitted to a vendor's limit deterministically; the same key always fits to the same string")
    func fitted() {
        let long = IdempotencyKey.refund(scope: LedgerScope(merchantID: "MLQ7X9Y2Z1ABC", locationID: "L8D2K4J6H8G0F"),
                                         reference: "order-2026-11-26-000123", paymentAttempt: 1, number: 1)
        let square = long.fitted(maximumLength: 45)
        #expect(square.utf8.count == 45 && square == long.fitted(maximumLength: 45))
        let other = IdempotencyKey.refund(scope: LedgerScope(merchantID: "MLQ7X9Y2Z1ABC", locationID: "L8D2K4J6H8G0G"),
                                          reference: "order-2026-11-26-000123", paymentAttempt: 1, number: 1)
        #expect(other.fitted(maximumLength: 45) != square, "two locations never share a fitted key")
        #expect(long.fitted(maximumLength: 255) == long.rawValue)
    }

    @Test("the vendor attempt id carries the scope for new sessions, and stays the reference for older ones")
    func vendorAttemptIDs() {
        #expect(PaymentAttempt(paymentAttempt: 2, idScope: main).vendorAttemptID(reference: "1001")
                == "acct_1/tml_main/1001/2/payment")
        #expect(PaymentAttempt(paymentAttempt: 1).vendorAttemptID(reference: "1001") == "1001")
        #expect(PaymentAttempt(paymentAttempt: 2).vendorAttemptID(reference: "1001") == "1001#2")
        var legacy = PaymentSession(request: PaymentRequest(amount: usd(100), reference: "1001"), scope: main,
                                    processor: "memory", route: nil, at: Date(timeIntervalSince1970: 0))
        #expect(legacy.keyScheme == .scoped && PaymentLookupQuery(legacy).vendorAttemptID == "acct_1/tml_main/1001/1/payment")
        legacy.keyScheme = .referenceOnly
        #expect(PaymentLookupQuery(legacy).vendorAttemptID == "1001")
    }

    @Test("two locations of one account take, capture, void and refund the same references: no key collides")
    func twoLocationsSameReferences() async throws {
        let clock = ManualClock()
        let processor = InMemoryPaymentProcessor(clock: clock)
        let ledger = InMemoryPaymentLedger()
        let first = PaymentTerminal(processor: processor, ledger: ledger, scope: main, clock: clock)
        let second = PaymentTerminal(processor: processor.relaunched(), ledger: ledger, scope: harbor, clock: clock)
        for terminal in [first, second] {
            let capture = try await terminal.takePayment(PaymentRequest(amount: usd(1_000), reference: "1001",
                                                                        captureMode: .manual))
            #expect(capture.state == .authorized)
            #expect(try await terminal.capture(reference: "1001").state == .succeeded)
            let void = try await terminal.takePayment(PaymentRequest(amount: usd(1_100), reference: "1002",
                                                                     captureMode: .manual))
            #expect(void.state == .authorized)
            #expect(try await terminal.void(reference: "1002").state == .canceled)
            #expect(try await terminal.takePayment(PaymentRequest(amount: usd(1_200), reference: "1003")).state
                    == .succeeded)
            let refund = try await terminal.refund(reference: "1003", amount: usd(500))
            #expect(refund.status == .succeeded, "\(String(describing: refund.error))")
        }
        #expect(processor.charges(reference: "1001") == 2 && processor.charges(reference: "1003") == 2,
                "each location's sale is its own vendor payment")
        #expect(processor.refunded(reference: "1003") == 1_000)
        let ids = try await [first.session(reference: "1001"), second.session(reference: "1001")]
            .map { $0?.processorPaymentID }
        #expect(ids[0] != nil && ids[1] != nil && ids[0] != ids[1])
    }

    @Test("a session recorded before keys were scoped is continued under its reference-only attempt id")
    func legacySessionContinues() async throws {
        let clock = ManualClock()
        let processor = InMemoryPaymentProcessor(clock: clock)
        let ledger = InMemoryPaymentLedger()
        let request = PaymentRequest(amount: usd(700), reference: "old-1")
        // The vendor took it under the old id; the app was updated before it learned the outcome.
        processor.injectTimeout(.answerLostAfterCharge)
        _ = try? await processor.startPayment(request, routing: .online, attempt: PaymentAttempt()) { _ in }
        #expect(processor.charges(reference: "old-1") == 1)
        var session = PaymentSession(request: request, scope: main, processor: processor.name, route: .online,
                                     at: clock.now())
        session.keyScheme = .referenceOnly
        try SessionChange(reference: "old-1", expectedState: .created, newState: .processing, at: clock.now())
            .apply(to: &session)
        try SessionChange(reference: "old-1", expectedState: .processing, newState: .outcomeUnknown, at: clock.now())
            .apply(to: &session)
        try ledger.insert(session)
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: main, clock: clock)
        let retried = try await terminal.takePayment(request)
        #expect(retried.state == .succeeded)
        #expect(processor.charges(reference: "old-1") == 1, "continued, never charged again")
    }
}
