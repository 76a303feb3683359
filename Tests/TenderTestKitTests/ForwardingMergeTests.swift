import Foundation
import Testing
@testable import Tender
import TenderTestKit
import TenderTesting

private let shop = LedgerScope(merchantID: "acct_F", locationID: "loc_F")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

/// Issue 28, item 13: the run loop's queue reader and the adapter's `paymentForwarded` event both record a forwarding
/// result. Whichever commits first, the reason the event carries (the error, the issuer's decline code) is kept.
/// The interleaving is forced: the event's handler is held after it read the session, the queue reader commits, then
/// the handler goes on (it was about 1 run in 60 by chance before).
@Suite struct ForwardingMergeTests {
    @Test("a decline at forwarding keeps its reason when the queue reader recorded the state first")
    func declineReasonKeptAfterTheQueueReader() async throws {
        let processor = InMemoryPaymentProcessor()
        processor.setReportsForwardingAsEvents(false)  // the test delivers the event itself, at the chosen moment
        processor.setNetwork(.offline)
        let ledger = FaultInjectingLedger(wrapping: InMemoryPaymentLedger())
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: shop,
                                       limits: .single(perPayment: usd(10_000), storedTotal: usd(50_000)),
                                       clock: ManualClock())
        processor.present(.declineWhenForwarded)
        let stored = try await terminal.takePayment(PaymentRequest(amount: usd(1_000), reference: "fwd-1",
                                                                   offlinePolicy: .forceOffline))
        #expect(stored.state == .storedOffline)
        processor.setNetwork(.online)
        #expect(processor.forwardStoredPayments() == 1)
        // What the adapter's event carries: the decline with the issuer's code.
        let decline = PaymentError(.cardDeclined, recovery: .none, phase: .forwarding,
                                   message: "The card was declined when the stored payment was forwarded.",
                                   vendor: .init(processor: processor.name, name: "card_declined",
                                                 declineCode: "insufficient_funds"))
        let event = ProcessorPaymentUpdate(reference: "fwd-1", state: .declinedAfterForwarding, route: .offline,
                                           localID: stored.localID, error: decline)
        // The event's handler reads the session (stored offline) and is held; the queue reader records the state.
        ledger.holdNextSessionRead { await terminal.pollOnce() }
        await terminal.handle(.paymentForwarded(event))
        let session = try #require(try await terminal.session(reference: "fwd-1"))
        #expect(session.state == .declinedAfterForwarding)
        #expect(session.lastError?.code == .cardDeclined, "the decline's reason was dropped: \(String(describing: session.lastError))")
        #expect(session.lastError?.vendor?.declineCode == "insufficient_funds",
                "the issuer's decline code was dropped: \(String(describing: session.lastError))")
        // The other order: the event first, then the queue reader, keeps it too.
        processor.present(.declineWhenForwarded)
        processor.setNetwork(.offline)
        let second = try await terminal.takePayment(PaymentRequest(amount: usd(1_100), reference: "fwd-2",
                                                                   offlinePolicy: .forceOffline))
        processor.setNetwork(.online)
        #expect(processor.forwardStoredPayments() == 1)
        await terminal.handle(.paymentForwarded(ProcessorPaymentUpdate(
            reference: "fwd-2", state: .declinedAfterForwarding, route: .offline, localID: second.localID, error: decline)))
        await terminal.pollOnce()
        let other = try #require(try await terminal.session(reference: "fwd-2"))
        #expect(other.state == .declinedAfterForwarding)
        #expect(other.lastError?.vendor?.declineCode == "insufficient_funds")
    }
}
