import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator
import Testing

@Suite("Stripe abandoned payments and new attempts")
struct StripeAbandonmentTests {
    /// The facade's new vendor payment after a definite ending.
    private func newAttempt(_ paymentAttempt: Int, number: Int) -> PaymentAttempt {
        PaymentAttempt(number: number, paymentAttempt: paymentAttempt, previousState: .created)
    }

    @Test("a card-read timeout fails saying nothing was charged; the retry is a new PaymentIntent, the old one canceled")
    func cardReadTimeoutThenNewAttempt() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        await simulator.failNextCollection(with: .cardReadTimedOut)
        let first = try await pay(processor, sale("A6"))
        #expect(first.state == .failed)
        #expect(first.error?.code == .cardReadFailed)
        #expect(first.error?.message.contains("Nothing was charged") == true)
        #expect(first.error?.message.contains("new attempt") == true)
        let note = try await processor.abandonPayment(query(first, since: clock.now()))
        #expect(note == "PaymentIntent \(first.processorPaymentID ?? "") canceled at Stripe")
        #expect(await simulator.serverIntent(stripeId: first.processorPaymentID ?? "")?.status == .canceled)
        #expect(try await processor.abandonPayment(query(first, since: clock.now())) == nil, "nothing live any more")

        let second = try await pay(processor, sale("A6"), attempt: newAttempt(2, number: 2))
        #expect(second.state == .succeeded)
        #expect(second.processorPaymentID != first.processorPaymentID)
        let intent = try #require(await simulator.serverIntent(stripeId: second.processorPaymentID ?? ""))
        #expect(intent.metadata["tender_attempt"] == "2")
        #expect(intent.metadata["tender_reference"] == "A6")
        #expect(await simulator.chargeCount(reference: "A6") == 1)
    }

    @Test("a decline, abandoned, then another card on a new attempt: one charge for the reference")
    func declineThenAnotherCard() async throws {
        let (simulator, clock) = makeSimulator { $0.simulatedCard = .chargeDeclined }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let first = try await pay(processor, sale("D-2"))
        #expect(first.state == .declined)
        #expect(try await processor.abandonPayment(query(first, since: clock.now())) != nil)
        await simulator.configure { $0.simulatedCard = .mastercard }
        let second = try await pay(processor, sale("D-2"), attempt: newAttempt(2, number: 2))
        #expect(second.state == .succeeded)
        #expect(await simulator.chargeCount(reference: "D-2") == 1)
        // A lookup of the first vendor payment still answers for it, not for the new one.
        #expect(try await processor.lookUpPayment(query(first, since: clock.now())).state == .canceled)
    }

    @Test("abandoning after a relaunch cancels by id on the server; an offline intent is discarded on the device")
    func abandonWithoutTheObject() async throws {
        let (simulator, clock) = makeSimulator { $0.simulatedCard = .chargeDeclined }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let declined = try await pay(processor, sale("AB-1"))
        await simulator.relaunch()
        let fresh = try await connectedProcessor(simulator, clock: clock)
        let note = try await fresh.abandonPayment(query(declined, since: clock.now()))
        #expect(note?.contains("canceled at Stripe") == true)
        #expect(await simulator.serverIntent(stripeId: declined.processorPaymentID ?? "")?.status == .canceled)

        await simulator.configure { $0.simulatedCard = .interac }
        let refused = try await pay(fresh, sale("AB-2"), routing: .offline)
        #expect(refused.state == .failed)
        #expect(try await fresh.abandonPayment(query(refused, since: clock.now()))
            == "PaymentIntent created offline discarded on the device (never sent to Stripe)")
    }

    @Test("a stored payment is never abandoned; an intent that succeeded is refused abandonment")
    func nothingToAbandon() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let stored = try await pay(processor, sale("AB-S", policy: .forceOffline), routing: .offline)
        #expect(try await processor.abandonPayment(query(stored, since: clock.now())) == nil)
        #expect(await simulator.storedPayments.count == 1)
        let paid = try await pay(processor, sale("AB-P"))
        await #expect(throws: PaymentError.self) {
            _ = try await processor.abandonPayment(query(paid, since: clock.now()))
        }
    }
}
