import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator
import Testing

@Suite("Stripe cancellation")
struct StripeCancellationTests {
    @Test("cancelling the Swift task mid-collect cancels through the Cancelable: canceled once Stripe confirms, no crash")
    func taskCancelledMidCollect() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        await simulator.inject(.holdNextCard)
        let payment = Task { try await pay(processor, sale("A2")) }
        await eventually { await simulator.isHolding }
        payment.cancel()
        let result = try await payment.value
        #expect(result.state == .canceled)
        #expect(result.error?.code == .canceled)
        #expect(await simulator.chargeCount(reference: "A2") == 0)
        #expect(await simulator.paymentStatus == .ready)
    }

    @Test("cancelling the Swift task mid-confirm waits for the confirmation's real outcome")
    func taskCancelledMidConfirm() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        await simulator.inject(.holdNextAuthorization)
        let payment = Task { try await pay(processor, sale("A2C")) }
        await eventually { await simulator.isHolding }
        payment.cancel()
        for _ in 0..<100 { await Task.yield() }
        await simulator.releaseHeld()
        let result = try await payment.value
        #expect(result.state == .succeeded, "Stripe charged; the task's cancellation is not Stripe's")
        #expect(await simulator.chargeCount(reference: "A2C") == 1)
    }

    @Test("cancelPayment from another task: a collection is canceled; a confirmation on its way cannot be")
    func cancelFromAnotherTask() async throws {
        let (simulator, clock) = makeSimulator { $0.cardPresentation = .waitForPresentCard }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let collecting = Task { try await pay(processor, sale("K-1")) }
        await eventually { await simulator.paymentStatus == .waitingForInput }
        try await processor.cancelPayment(reference: "K-1")
        #expect(try await collecting.value.state == .canceled)
        #expect(await simulator.paymentStatus == .ready)

        await simulator.configure { $0.cardPresentation = .immediate }
        await simulator.inject(.holdNextAuthorization)
        let confirming = Task { try await pay(processor, sale("K-2")) }
        await eventually { await simulator.isHolding }
        await #expect(throws: PaymentError.self) { try await processor.cancelPayment(reference: "K-2") }
        await simulator.releaseHeld()
        #expect(try await confirming.value.state == .succeeded)
    }

    @Test("canceling while collecting or processing is reported ends canceled, the intent canceled at Stripe")
    func cancelBetweenSteps() async throws {
        for state in [PaymentState.collecting, .processing] {
            let (simulator, clock) = makeSimulator()
            let processor = try await connectedProcessor(simulator, clock: clock)
            let reference = "CU-\(state.rawValue)"
            let result = try await pay(processor, sale(reference)) { update in
                if update.state == state { try await processor.cancelPayment(reference: reference) }
            }
            #expect(result.state == .canceled)
            #expect(result.error?.code == .canceled)
            #expect(await simulator.chargeCount(reference: reference) == 0)
            #expect(await simulator.serverIntents.first?.status == .canceled)
        }
    }

    @Test("a task cancelled between steps cancels the intent through the SDK, and only then reports canceled")
    func taskCancelledBetweenSteps() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let gate = Locked(false)
        let payment = Task {
            try await pay(processor, sale("TB")) { update in
                if update.state == .processing {
                    while !gate.current { await Task.yield() }
                }
            }
        }
        await eventually { await simulator.serverIntents.first != nil }
        payment.cancel()
        gate.withLock { $0 = true }
        let result = try await payment.value
        #expect(result.state == .canceled)
        #expect(await simulator.serverIntents.first?.status == .canceled)
        #expect(await simulator.chargeCount(reference: "TB") == 0)
    }
}
