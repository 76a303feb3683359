import Foundation
import Tender
@_spi(Testing) import TenderStripe
import TenderStripeSimulator
import Testing
import TenderTesting

private let shop = LedgerScope(merchantID: "acct_shop", locationID: testLocation)

/// Issue 28, item 12: offline, a card the reader refuses for its entry method (Stripe 6900 / 6901) is taken again
/// with another entry method or card, under the same reference and still offline. The first attempt's
/// PaymentIntent was created offline and never left the device: replacing it asks nobody (Stripe's server cannot be
/// reached), and the retry is stored.
@Suite("Stripe offline: a card refused for its entry method, then taken another way")
struct StripeOfflineRetryTests {
    @Test("swiped offline (6900 / 6901), then inserted, same reference, still offline: stored, one payment",
          arguments: [(Stripe.SimulatedCardType.visa, Stripe.ReadMethod.magneticStripeTrack2, 6900),
                      (.interac, .contactEMV, 6901)])
    func refusedOfflineThenAnotherWay(_ card: Stripe.SimulatedCardType, _ method: Stripe.ReadMethod,
                                      _ code: Int) async throws {
        let (simulator, clock) = makeSimulator {
            $0.simulatedCard = card
            $0.simulatedReadMethod = method
        }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let terminal = PaymentTerminal(
            processor: processor, scope: shop,
            limits: .single(perPayment: Money(minorUnits: 50_000, currency: .usd),
                            storedTotal: Money(minorUnits: 500_000, currency: .usd)), clock: clock)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        for event in processor.emittedEvents { await terminal.handle(event) }
        #expect(await terminal.refreshNetworkStatus() == .offline)

        let reference = "OFF-\(code)"
        let refused = try await terminal.takePayment(sale(reference, cents: 1_800))
        #expect(refused.state == .failed)
        #expect(refused.lastError?.code == .cardNotSupportedOffline)
        #expect(refused.lastError?.vendor?.numericCode == code)
        #expect(await simulator.storedPayments.isEmpty)

        // The cashier asks for the card inserted (or another card), and takes the same reference again, offline.
        await simulator.configure {
            $0.simulatedCard = .visa
            $0.simulatedReadMethod = .contactEMV
        }
        let retried: PaymentSession
        do {
            retried = try await terminal.takePayment(sale(reference, cents: 1_800))
        } catch let error as PaymentError {
            Issue.record("the retry with the card inserted was refused: \(error.code.rawValue): \(error.message)")
            return
        }
        #expect(retried.state == .storedOffline, "\(String(describing: retried.lastError))")
        #expect(retried.paymentAttempt == 2)
        #expect(await simulator.storedPayments.count == 1)
        // The new attempt was started without closing the first again: at most the one discard recorded when the
        // first attempt ended, and the new attempt's own start.
        let history = try #require(try await terminal.session(reference: reference)).transitions
        let closes = history.filter { $0.from == $0.to && $0.note != nil && $0.attempt == 1 }
        #expect(closes.count <= 1, "\(closes.map(\.note))")
        #expect(history.contains { $0.from == .failed && $0.to == .created && $0.attempt == 2 })

        // Online again, the stored payment is forwarded and charged once.
        await simulator.setSimulatedOfflineMode(.disabled)
        await simulator.forwardPendingPayments()
        #expect(await simulator.chargeCount(reference: reference) == 1)
    }
}
