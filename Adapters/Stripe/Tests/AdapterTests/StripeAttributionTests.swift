import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator
import Testing
import TenderTesting

/// Issue 18, items 1 and 9, through the facade: a lookup that cannot see the SDK's offline store proves nothing, and a
/// vendor payment is attributed to a session only when it is that session's (reference, attempt, total).
@Suite("Stripe: attribution and the SDK's offline store")
struct StripeAttributionTests {
    let scope = LedgerScope(merchantID: "acct_shop", locationID: testLocation)
    let limits = OfflineRiskLimits.single(perPayment: Money(minorUnits: 50_000, currency: .usd),
                                          storedTotal: Money(minorUnits: 500_000, currency: .usd))

    func terminal(_ processor: StripeProcessor, _ ledger: any PaymentLedger, _ clock: ManualClock) -> PaymentTerminal {
        PaymentTerminal(processor: processor, ledger: ledger, scope: scope, limits: limits, clock: clock)
    }

    @Test("item 1: power lost before the stored-offline record: recovery keeps it unknown, a retry waits, the forwarded payment lands on it; charged once")
    func powerLossAfterTheSDKStored() async throws {
        let (simulator, clock) = makeSimulator()
        let ledger = PowerLossLedger { $0.reference == "ORD-7" && $0.newState == .storedOffline }
        let before = terminal(try await connectedProcessor(simulator, clock: clock), ledger, clock)
        let request = sale("ORD-7", cents: 4_200, policy: .forceOffline)
        await #expect(throws: PaymentError.self) { _ = try await before.takePayment(request) }
        #expect(ledger.powerLost)
        #expect(await simulator.storedPayments.count == 1, "the SDK's own store is durable: it holds the payment")

        // The next launch: the SDK forgot its objects, the ledger kept only what was synced (the write-ahead record).
        await simulator.relaunch()
        let survived = try ledger.afterPowerLoss()
        #expect(try await survived.session(reference: "ORD-7", scope: scope)?.state == .created)
        let fresh = try await connectedProcessor(simulator, clock: clock)
        let after = terminal(fresh, survived, clock)
        clock.advance(by: 3_600)  // long past every consistency window: only the SDK's store can explain it

        let report = await after.recover()
        #expect(try await after.session(reference: "ORD-7")?.state == .outcomeUnknown,
                "an empty server search proves nothing while the SDK holds a payment Tender cannot attribute")
        #expect(report.unresolved == ["ORD-7"])

        // A retry would be a second charge when the stored payment is forwarded: a clear wait-and-retry error.
        await #expect {
            _ = try await after.takePayment(request)
        } throws: { error in
            let error = error as? PaymentError
            return error?.recovery == .waitAndRetry && error?.message.contains("may still be forwarded") == true
        }
        #expect(await simulator.serverIntents.isEmpty, "nothing was created at Stripe")
        #expect(try await after.session(reference: "ORD-7")?.paymentAttempt == 1)

        // The SDK forwards the stored payment: its result is the session's (reference and attempt 1).
        await simulator.forwardPendingPayments()
        let forwarded = try #require(forwardedUpdates(fresh).first { $0.reference == "ORD-7" })
        await after.handle(.paymentForwarded(forwarded))
        let session = try #require(try await after.session(reference: "ORD-7"))
        #expect(session.state == .forwarded)
        #expect(session.processorPaymentID == forwarded.processorPaymentID)
        #expect(try await after.takePayment(request).state == .forwarded, "a retry now returns the payment")
        #expect(await simulator.chargeCount(reference: "ORD-7") == 1)
    }

    @Test("item 9: a reused reference on a fresh ledger: recovery attributes only the intent of this sale's total, never the earlier sale's payment")
    func reusedReferenceAfterReinstall() async throws {
        let (simulator, clock) = makeSimulator()
        // The earlier install: a 10.00 sale under ORD-1, paid.
        let earlier = terminal(try await connectedProcessor(simulator, clock: clock), InMemoryPaymentLedger(), clock)
        let paid = try await earlier.takePayment(sale("ORD-1", cents: 1_000, policy: .requireOnline))
        #expect(paid.state == .succeeded)

        // Reinstalled: a new ledger, the order numbers start again. A 12.00 sale under ORD-1; the power fails just
        // after Stripe created its PaymentIntent, before Tender synced anything but the write-ahead record.
        await simulator.relaunch()
        let ledger = PowerLossLedger { $0.reference == "ORD-1" && $0.newState == .collecting }
        let reinstalled = terminal(try await connectedProcessor(simulator, clock: clock), ledger, clock)
        let request = sale("ORD-1", cents: 1_200, policy: .requireOnline)
        await #expect(throws: PaymentError.self) { _ = try await reinstalled.takePayment(request) }

        await simulator.relaunch()
        let after = terminal(try await connectedProcessor(simulator, clock: clock), try ledger.afterPowerLoss(), clock)
        clock.advance(by: 3_600)
        _ = await after.recover()
        let recovered = try #require(try await after.session(reference: "ORD-1"))
        #expect(recovered.state != .succeeded, "the earlier sale's payment is not this sale's")
        #expect(recovered.processorPaymentID != paid.processorPaymentID)
        #expect(recovered.state == .outcomeUnknown)

        // The retry continues this sale's own intent, and charges 12.00 once.
        let retried = try await after.takePayment(request)
        #expect(retried.state == .succeeded)
        #expect(retried.processorPaymentID != paid.processorPaymentID)
        let charged = await simulator.charges(reference: "ORD-1").filter { $0.status == .succeeded }.map(\.amount).sorted()
        #expect(charged == [1_000, 1_200])
    }
}
