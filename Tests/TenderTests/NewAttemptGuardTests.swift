import Foundation
import Testing
import Tender
import TenderTesting

private let scope = LedgerScope(merchantID: "acct_A", locationID: "loc_1")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

@Suite struct NewAttemptGuardTests {
    @Test("a new vendor payment of a declined reference does not start while the processor refuses to abandon the last one")
    func refusedAbandonmentStartsNothing() async throws {
        let clock = ManualClock()
        let inner = InMemoryPaymentProcessor(clock: clock)
        let processor = LookupHookProcessor(inner)
        let terminal = PaymentTerminal(processor: processor, ledger: InMemoryPaymentLedger(), scope: scope, clock: clock)
        let sale = PaymentRequest(amount: usd(1_250), reference: "o-1")
        inner.present(.decline)
        #expect(try await terminal.takePayment(sale).state == .declined)

        processor.abandonRefusals.withLock { $0 = 1 }
        do {
            _ = try await terminal.takePayment(sale)
            Issue.record("a new vendor payment started although the last one could not be abandoned")
        } catch let error as PaymentError {
            #expect(error.code == .invalidState && error.recovery == .none)
            #expect(error.message.contains("No new payment was started"), "\(error.message)")
        }
        #expect(inner.charges(reference: "o-1") == 0)
        let session = try #require(try await terminal.session(reference: "o-1"))
        #expect(session.state == .declined && session.paymentAttempt == 1, "nothing new was recorded")

        // Once the processor can close it, the new attempt starts and charges once.
        #expect(try await terminal.takePayment(sale).state == .succeeded)
        #expect(inner.charges(reference: "o-1") == 1)
    }
}
