import Foundation
import Testing
import Tender
@testable import TenderSquare
@testable import TenderSquareSimulator

/// Cancelling the Swift task, cancelling through the handle, and the cancellations that are really refused cards.
@Suite("Square processor: cancellation")
struct SquareCancellationTests {
    @Test("cancelling the task while the card is awaited cancels through the handle; canceled only once didCancel says so (A1)")
    func taskCancelledWhileCollecting() async throws {
        let world = try await SquareWorld()
        await world.simulator.inject(.holdNextCard)
        let task = Task { try await world.pay("order-1", cents: 10_00) }
        await world.waitUntilHolding()
        task.cancel()
        let (outcome, states) = try await task.value
        #expect(outcome.state == .canceled && outcome.error?.code == .canceled)
        #expect(states == [.collecting])
        #expect(await world.simulator.currentPaymentHandle == nil, "Square's payment was canceled, not left running")
        await world.simulator.releaseHeld()
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 0)
    }

    @Test("cancelling the task after the card was read keeps waiting for Square's real answer (A1)")
    func taskCancelledWhileAuthorizing() async throws {
        let world = try await SquareWorld()
        await world.simulator.inject(.holdNextAuthorization)
        let task = Task { try await world.pay("order-1", cents: 10_00) }
        await world.waitUntilHolding()
        task.cancel()
        try await Task.sleep(nanoseconds: 50_000_000)  // let the adapter see the cancellation and try to cancel
        #expect(await world.simulator.currentPaymentHandle != nil, "Square refused the cancel: the card was read")
        await world.simulator.releaseHeld()
        let (outcome, states) = try await task.value
        #expect(outcome.state == .succeeded, "Square charged, so the adapter says so")
        #expect(states == [.collecting, .processing])
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 1)
    }

    @Test("when the core cannot record collecting, the adapter rethrows and cancels Square's payment")
    func ledgerFailureCancels() async throws {
        let world = try await SquareWorld()
        await world.simulator.inject(.holdNextCard)
        struct LedgerDown: Error {}
        do {
            _ = try await world.processor.startPayment(SquareWorld.sale("order-1", cents: 10_00), routing: .online,
                                                       attempt: PaymentAttempt(), updates: { _ in throw LedgerDown() })
            Issue.record("the ledger failure was swallowed")
        } catch is LedgerDown {}
        #expect(await world.simulator.currentPaymentHandle == nil, "Square's payment was canceled")
        await world.simulator.releaseHeld()
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 0)
    }

    @Test("cancelPayment from another task cancels during collection; afterwards there is nothing to cancel")
    func cancelFromAnotherTask() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.cardPresentation = .waitForPresentCard
        let world = try await SquareWorld(configuration: configuration)
        async let first = world.pay("order-1", cents: 10_00)
        await world.waitForPaymentInProgress()
        try await world.processor.cancelPayment(reference: "order-1")
        let (canceled, states) = try await first
        #expect(canceled.state == .canceled && states == [.collecting])
        do {
            try await world.processor.cancelPayment(reference: "order-1")
            Issue.record("canceled twice")
        } catch let error as PaymentError {
            #expect(error.code == .unknownReference)
        }
        #expect(await world.simulator.serverPayments.isEmpty)
    }

    @Test("cancelPayment after the card was read is refused with invalidState, and the outcome follows")
    func cancelTooLate() async throws {
        let world = try await SquareWorld()
        await world.simulator.inject(.holdNextAuthorization)
        async let payment = world.pay("order-1", cents: 10_00)
        await world.waitUntilHolding()
        do {
            try await world.processor.cancelPayment(reference: "order-1")
            Issue.record("a read card was canceled")
        } catch let error as PaymentError {
            #expect(error.code == .invalidState && error.message.contains("outcome follows"))
        }
        await world.simulator.releaseHeld()
        #expect(try await payment.0.state == .succeeded)
    }

    @Test("a new adapter (after a relaunch) cancels through the SDK's currentPaymentHandle by reference")
    func cancelThroughCurrentHandle() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.cardPresentation = .waitForPresentCard
        let world = try await SquareWorld(configuration: configuration)
        let delegate = RecordingDelegate()
        var started = parameters("order-1#2", cents: 10_00, mode: .onlineOnly)
        started.referenceID = "order-1"
        await world.simulator.start(started, delegate: delegate)
        let other = SquareProcessor(client: world.simulator, captureService: UnusedCaptureService())
        try await other.cancelPayment(reference: "order-1")
        #expect(delegate.last == .canceled)
    }

    @Test("Interac and swiped cards refused offline fail as refused cards, not cancellations (B7)",
          arguments: [SquareSimulator.SimulatedCard.interac, .swipedVisa])
    func refusedOffline(card: SquareSimulator.SimulatedCard) async throws {
        let world = try await SquareWorld()
        await world.simulator.setPresentedCard(card)
        let (online, _) = try await world.pay("order-0", cents: 10_00)
        #expect(online.state == .succeeded, "online, Square takes it")
        await world.simulator.setNetwork(.offline)
        let (refused, states) = try await world.pay("order-1", cents: 10_00, routing: .offline)
        #expect(states == [.collecting])
        #expect(refused.state == .failed && refused.error?.code == .cardNotSupportedOffline)
        #expect(refused.error?.recovery == .collectAnotherCard)
        #expect(refused.error?.message.contains(card.brand == .interac ? "Interac" : "swiped") == true)
        #expect(await world.simulator.devicePayments.isEmpty)
        // The customer's chip card, same reference: a new vendor payment, stored.
        await world.simulator.setPresentedCard(.visaChip)
        let (stored, _) = try await world.pay("order-1", cents: 10_00, routing: .offline,
                                              attempt: PaymentAttempt(number: 2, paymentAttempt: 2, previousState: .created))
        #expect(stored.state == .storedOffline)
    }

    @Test("Interac configured to fail at processing is stored, then declined after forwarding")
    func interacFailsToProcess() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.interacOffline = .failsToProcess
        let world = try await SquareWorld(configuration: configuration)
        await world.simulator.setPresentedCard(.interac)
        let (stored, _) = try await world.pay("order-1", cents: 10_00, routing: .offline)
        #expect(stored.state == .storedOffline)
        await world.simulator.syncUntilIdle()
        await world.processor.refreshOfflineQueue()
        #expect(world.forwarded.first?.state == .declinedAfterForwarding)
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 0)
    }

    @Test("keyed entry offered through the prompt parameters (B7: Square's prompt settings are honoured)")
    func keyedEntry() async throws {
        let refused = try await SquareWorld()
        await refused.simulator.setPresentedCard(.keyedVisa)
        let (outcome, _) = try await refused.pay("order-1", cents: 10_00)
        #expect(outcome.state == .failed && outcome.error?.vendor?.name == "invalidPaymentSource")
        let offered = try await SquareWorld(adapter: { $0.promptParameters = Square.PromptParameters(additionalMethods: [.keyed]) })
        await offered.simulator.setPresentedCard(.keyedVisa)
        let (keyed, _) = try await offered.pay("order-1", cents: 10_00)
        #expect(keyed.state == .succeeded && keyed.card?.entryMethod == .keyed)
    }
}
