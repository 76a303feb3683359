import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator
import Testing
import TenderTesting

private let main = LedgerScope(merchantID: "acct_shop", locationID: testLocation)
private let harbor = LedgerScope(merchantID: "acct_shop", locationID: "tml_loc_harbor")

/// A facade over `processor` scoped to `scope`, looking succeeded refunds up again every minute.
private func terminal(_ processor: StripeProcessor, _ scope: LedgerScope, ledger: any PaymentLedger, clock: ManualClock)
    -> PaymentTerminal {
    PaymentTerminal(processor: processor, ledger: ledger, scope: scope,
                    polling: QueuePolling(interval: 5, maximumInterval: 5, refundCheckInterval: 60), clock: clock)
}

/// Issue 18 through Stripe: refunds that fail after succeeding (item 2), keys across locations and restored ledgers
/// (item 5).
@Suite("Stripe refunds followed, and keys")
struct StripeRefundFollowTests {
    @Test("through the facade, an Interac payment is refunded through the reader (the card presented again)")
    func interacThroughTheFacade() async throws {
        let (simulator, clock) = makeSimulator { $0.simulatedCard = .interac }
        let processor = try await connectedProcessor(simulator, clock: clock)
        #expect(await processor.capabilities().refundsInteracOnReader)
        let facade = terminal(processor, main, ledger: InMemoryPaymentLedger(), clock: clock)
        let paid = try await facade.takePayment(sale("IN-F", cents: 1_500, currency: .cad))
        #expect(paid.state == .succeeded && paid.card?.brand == .interac)
        let refund = try await facade.refund(reference: "IN-F")
        #expect(refund.status == .succeeded && refund.throughReader, "\(String(describing: refund.error))")
        #expect(await simulator.serverRefunds.map(\.inPerson) == [true])
    }

    @Test("the refundFailed card (4000000000005126): the refund begins succeeded, Stripe fails it later, the ledger moves it to failed with an event, and refund() refunds again")
    func refundFailsAfterSucceeding() async throws {
        let (simulator, clock) = makeSimulator {
            $0.simulatedCard = .refundFailed
            $0.refundFailureDelay = 3_600
        }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let ledger = InMemoryPaymentLedger()
        let facade = terminal(processor, main, ledger: ledger, clock: clock)
        let paid = try await facade.takePayment(sale("RF-LATE", cents: 2_500))
        #expect(paid.state == .succeeded)
        let events = Locked<[RefundRecord]>([])
        let subscription = facade.events
        let listener = Task {
            for await event in subscription {
                if case .refundChanged(let record) = event { events.withLock { $0.append(record) } }
            }
        }
        defer { listener.cancel() }
        let refund = try await facade.refund(reference: "RF-LATE", amount: Money(minorUnits: 1_000, currency: .usd))
        #expect(refund.status == .succeeded, "Stripe's refund begins succeeded")
        #expect(try await facade.session(reference: "RF-LATE")?.refundableAmount
                == Money(minorUnits: 1_500, currency: .usd))
        // Still succeeded at Stripe an hour later, less a second.
        clock.advance(by: 3_599)
        _ = await facade.pollOnce()
        #expect(try await facade.session(reference: "RF-LATE")?.refunds.map(\.status) == [.succeeded])
        clock.advance(by: 61)
        #expect(await facade.pollOnce())
        let session = try #require(try await facade.session(reference: "RF-LATE"))
        let failed = try #require(session.refunds.first)
        #expect(failed.status == .failed && failed.processorRefundID == refund.processorRefundID)
        #expect(failed.error?.code == .refundFailed && failed.error?.vendor?.declineCode == "expired_or_canceled_card")
        #expect(session.refundableAmount == Money(minorUnits: 2_500, currency: .usd))
        #expect(await simulator.serverRefunds.map(\.status) == [.failed])
        let seen = await eventuallyValue { events.current.contains { $0.id == refund.id && $0.status == .failed } }
        #expect(seen, "no refundChanged event for the failure")
        // The amount can be refunded again (Stripe accepts it: the failed refund gave it back).
        let again = try await facade.refund(reference: "RF-LATE")
        #expect(again.number == 2 && again.status == .succeeded && again.amount == Money(minorUnits: 2_500, currency: .usd))
        // After a relaunch, recover() looks the succeeded refund up again.
        clock.advance(by: 3_600)
        let relaunched = terminal(makeProcessor(simulator, clock: clock), main, ledger: ledger, clock: clock)
        _ = await relaunched.recover()
        #expect(try await relaunched.session(reference: "RF-LATE")?.refunds.map(\.status) == [.failed, .failed])
    }

    @Test("two locations of one Stripe account, the same order numbers: capture, void and refund each their own payment")
    func twoLocationsSameReferences() async throws {
        let (simulator, clock) = makeSimulator()
        let capture = RecordingCaptureService(simulator: simulator)
        let processor = try await connectedProcessor(simulator, clock: clock, capture: capture)
        let ledger = InMemoryPaymentLedger()
        let first = terminal(processor, main, ledger: ledger, clock: clock)
        let second = terminal(processor, harbor, ledger: ledger, clock: clock)
        for (index, facade) in [first, second].enumerated() {
            if index == 1 {
                try await processor.disconnectReader()
                let reader = try #require(try await facade.discoverReaders(timeout: 5).first { $0.model == "stripeM2" })
                _ = try await facade.connectReader(reader)
            }
            let cents = Int64(1_000 + index * 100)
            #expect(try await facade.takePayment(sale("1001", cents: cents, capture: .manual)).state == .authorized)
            let captured = try await facade.capture(reference: "1001")
            #expect(captured.state == .succeeded, "\(String(describing: captured.lastError))")
            #expect(try await facade.takePayment(sale("1002", cents: 900, capture: .manual)).state == .authorized)
            #expect(try await facade.void(reference: "1002").state == .canceled)
            #expect(try await facade.takePayment(sale("1003", cents: cents)).state == .succeeded)
            let refund = try await facade.refund(reference: "1003", amount: Money(minorUnits: 300, currency: .usd))
            #expect(refund.status == .succeeded, "\(String(describing: refund.error))")
        }
        let keys = await capture.keys
        #expect(keys == [
            "acct_shop/tml_loc_main/1001/1/capture", "acct_shop/tml_loc_main/1002/1/void",
            "acct_shop/tml_loc_harbor/1001/1/capture", "acct_shop/tml_loc_harbor/1002/1/void",
        ])
        #expect(await simulator.chargeCount(reference: "1001") == 2)
        #expect(await simulator.serverRefunds.map(\.amount) == [300, 300])
        #expect(Set(await simulator.serverRefunds.compactMap(\.idempotencyKey)).count == 2)
    }

    @Test("a ledger restored from a backup re-uses refund number 1: Stripe's idempotency_error is a clear error, and 5.00 never refunded is never recorded succeeded")
    func restoredLedgerReusesARefundNumber() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let ledger = InMemoryPaymentLedger()
        let facade = terminal(processor, main, ledger: ledger, clock: clock)
        _ = try await facade.takePayment(sale("RB-1", cents: 1_000))
        let backup = InMemoryPaymentLedger()
        try backup.insert(try #require(try await ledger.session(reference: "RB-1", scope: main)))
        #expect(try await facade.refund(reference: "RB-1", amount: Money(minorUnits: 300, currency: .usd)).status
                == .succeeded)

        let restored = terminal(makeProcessor(simulator, clock: clock), main, ledger: backup, clock: clock)
        let reused = try await restored.refund(reference: "RB-1", amount: Money(minorUnits: 500, currency: .usd))
        #expect(reused.number == 1 && reused.status == .failed)
        #expect(reused.error?.code == .duplicateReference && reused.error?.vendor?.name == "idempotency_error")
        #expect(await simulator.serverRefunds.map(\.amount) == [300], "Stripe refunded nothing more")
        #expect(try await restored.session(reference: "RB-1")?.refundedAmount == Money(minorUnits: 0, currency: .usd))
        let next = try await restored.refund(reference: "RB-1", amount: Money(minorUnits: 500, currency: .usd))
        #expect(next.number == 2 && next.status == .succeeded)
        #expect(await simulator.serverRefunds.map(\.amount) == [300, 500])
    }
}

/// Polls `condition` while letting other tasks run.
private func eventuallyValue(_ condition: () async -> Bool) async -> Bool {
    for _ in 0..<2_000 {
        if await condition() { return true }
        await Task.yield()
    }
    return await condition()
}
