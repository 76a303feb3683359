import Foundation
import Testing
@testable import Tender
import TenderTesting

private let shop = LedgerScope(merchantID: "acct_M", locationID: "loc_A")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

/// Issue 18: a session the ledger holds as created after a crash or power cut (the records after its first one were
/// lost) may have been charged: canceling it must ask the processor first, never record "canceled" over a charge.
@Suite struct FacadeCancelAfterCutTests {
    /// A ledger that holds `reference` as the write-ahead record left it (created), while the processor holds
    /// whatever the lost records said.
    private func ledgerRolledBack(to reference: String, from ledger: InMemoryPaymentLedger) async throws
        -> InMemoryPaymentLedger {
        var session = try #require(ledger.session(reference: reference, scope: shop, includingHistory: false))
        session.state = .created
        session.processorPaymentID = nil
        session.route = nil
        let rolledBack = InMemoryPaymentLedger()
        try rolledBack.insert(session)
        return rolledBack
    }

    @Test("canceling a created session the processor charged before the cut records the charge and refuses")
    func cancelCreatedButCharged() async throws {
        let processor = InMemoryPaymentProcessor()
        let before = InMemoryPaymentLedger()
        let first = PaymentTerminal(processor: processor, ledger: before, scope: shop, clock: ManualClock())
        let charged = try await first.takePayment(PaymentRequest(amount: usd(2_700), reference: "cut-1"))
        #expect(charged.state == .succeeded)

        let ledger = try await ledgerRolledBack(to: "cut-1", from: before)
        let relaunched = PaymentTerminal(processor: processor, ledger: ledger, scope: shop, clock: ManualClock())
        do {
            try await relaunched.cancelPayment(reference: "cut-1")
            Issue.record("a created session the processor had charged was canceled")
        } catch let error as PaymentError {
            #expect(error.code == .invalidState, "\(error)")
        }
        let after = try #require(ledger.session(reference: "cut-1", scope: shop, includingHistory: false))
        #expect(after.state == .succeeded, "the ledger says \(after.state) over a charge of 27.00")
        #expect(processor.charges(reference: "cut-1") == 1)
    }

    @Test("canceling a created session the processor never heard of ends it without a charge")
    func cancelCreatedNeverSent() async throws {
        let processor = InMemoryPaymentProcessor()
        let ledger = InMemoryPaymentLedger()
        let clock = ManualClock()
        let session = PaymentSession(request: PaymentRequest(amount: usd(500), reference: "cut-2"), scope: shop,
                                     processor: processor.name, route: nil, at: clock.now())
        try ledger.insert(session)
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: shop, clock: clock)
        try await terminal.cancelPayment(reference: "cut-2")
        let after = try #require(ledger.session(reference: "cut-2", scope: shop, includingHistory: false))
        #expect([.canceled, .failed].contains(after.state), "\(after.state)")
        #expect(processor.charges(reference: "cut-2") == 0)
    }
}
