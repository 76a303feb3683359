import Foundation
import Testing
import Tender
import TenderTestKit
@testable import TenderSquare
@testable import TenderSquareSimulator

/// Issue 28, item 12, Square's side: offline, the reader refuses a swiped or Interac card (`didCancel`, recorded
/// failed with `card_not_supported_offline`: nothing stored, nothing sent); the customer's chip card is taken under the
/// same reference, still offline. Replacing an attempt proven never sent asks nobody — Square's server cannot be
/// reached — and the retry is stored.
@Suite("Square offline: a card refused for its entry method, then another card")
struct SquareOfflineRetryTests {
    @Test("refused offline, then a chip card, same reference, still offline: stored, one payment",
          arguments: [SquareSimulator.SimulatedCard.swipedVisa, .interac])
    func refusedOfflineThenChip(card: SquareSimulator.SimulatedCard) async throws {
        let world = try await SquareWorld()
        let terminal = PaymentTerminal(
            processor: world.processor, ledger: InMemoryPaymentLedger(), scope: LedgerScope(merchantID: "MA", locationID: "LA1"),
            limits: .single(perPayment: Money(minorUnits: 1_000_00, currency: .usd),
                            storedTotal: Money(minorUnits: 5_000_00, currency: .usd), storedCount: 50),
            clock: world.clock)
        await world.simulator.setNetwork(.offline)
        #expect(await terminal.refreshNetworkStatus() == .offline)
        await world.simulator.setPresentedCard(card)
        let request = PaymentRequest(amount: Money(minorUnits: 12_00, currency: .usd), reference: "sq-off-1",
                                     offlinePolicy: .preferOnline)
        let refused = try await terminal.takePayment(request)
        #expect(refused.state == .failed)
        #expect(refused.lastError?.code == .cardNotSupportedOffline)
        #expect(await world.simulator.devicePayments.isEmpty)

        await world.simulator.setPresentedCard(.visaChip)
        let retried: PaymentSession
        do {
            retried = try await terminal.takePayment(request)
        } catch let error as PaymentError {
            Issue.record("the retry with a chip card was refused: \(error.code.rawValue): \(error.message)")
            return
        }
        #expect(retried.state == .storedOffline, "\(String(describing: retried.lastError))")
        #expect(retried.paymentAttempt == 2)
        #expect(await world.simulator.devicePayments.count == 1)

        // Online again, it uploads and is charged once.
        await world.simulator.setNetwork(.online)
        await world.simulator.syncUntilIdle()
        #expect(await world.simulator.chargeCount(referenceID: "sq-off-1") == 1)
    }
}
