import Foundation
import Testing
import Tender
import TenderSquare
import TenderSquareSimulator
import SquareMobilePaymentsSurfaceBackend
@testable import TenderSquareMobilePaymentsOverSurface

/// The recovery faults through the bridge, with what the bridge's registry holds at each step: it holds what it
/// must while a payment runs, nothing of a payment once it ended, and nothing at all after a relaunch.
@Suite("Square through the bridge: recovery faults and the object registry", .surfaceBackendExclusive)
struct BridgeRecoveryTests {
    @Test("a finished payment leaves nothing in the registry; the adapter's reader observer stays until removed",
          arguments: SimulatorSurfaceBackend.CallbackDelivery.allCases)
    func registryAfterPayments(delivery: SimulatorSurfaceBackend.CallbackDelivery) async throws {
        let world = try await BridgeWorld(delivery: delivery)
        #expect(await world.registryContents() == .init(observers: 1), "only the adapter's reader observer")
        #expect(try await world.pay("order-1").state == .succeeded)
        await world.simulator.setPresentedCard(.declined)
        #expect(try await world.pay("order-2").state == .declined)
        #expect(await world.registryContents() == .init(observers: 1))
        await world.processor.stopObserving()
        #expect(await world.registryContents().isEmpty)
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 1)
    }

    @Test("a relaunch mid-confirm: the new bridge's registry is empty, the old handle is dead, Square's charge is found",
          arguments: SimulatorSurfaceBackend.CallbackDelivery.allCases)
    func relaunchMidConfirm(delivery: SimulatorSurfaceBackend.CallbackDelivery) async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.searchLag = 30
        let world = try await BridgeWorld(delivery: delivery, configuration: configuration)
        await world.simulator.inject(.holdNextAuthorization)
        let paying = Task { try await world.pay("order-held") }
        await world.waitUntilHolding()
        let old = world.bridge
        let oldHandle = try #require(await old.currentPaymentHandle)
        #expect(oldHandle.paymentParameters.referenceID == "order-held")
        let during = await world.registryContents(of: old)
        #expect(during.paymentHandles >= 1 && during.delegates == 1, "while it runs: \(during)")

        let fresh = await world.relaunch()
        #expect(world.bridge !== old)
        #expect(await world.registryContents() == .init(observers: 1), "a new process holds only what it added")
        #expect(try await paying.value.state == .outcomeUnknown, "the old process's task ends unknown")
        let cancelable = await oldHandle.isPaymentCancelable
        let canceled = await oldHandle.cancelPayment()
        #expect(!cancelable && !canceled, "a handle from before the relaunch is dead")

        await world.simulator.releaseHeld()
        #expect(await world.simulator.chargeCount(referenceID: "order-held") == 1)
        #expect(await world.bridge.currentPaymentHandle == nil)
        world.clock.advance(by: 30)
        let query = PaymentLookupQuery(reference: "order-held", recordedState: .outcomeUnknown,
                                       since: world.clock.now().addingTimeInterval(-30))
        guard case .found(let found) = try await fresh.lookUpPayment(query) else {
            Issue.record("the relaunched adapter cannot find Square's charge through the new bridge")
            return
        }
        #expect(found.state == .succeeded)
        let retried = try await world.pay("order-held", attempt: PaymentAttempt(
            number: 2, paymentAttempt: 1, previousState: .outcomeUnknown))
        #expect(retried.state == .succeeded)
        #expect(await world.simulator.chargeCount(referenceID: "order-held") == 1, "never charged twice")
    }

    @Test("confirm not received and answer lost: unknown outcomes, Square's charges exactly as they happened")
    func lostRequestAndAnswer() async throws {
        let world = try await BridgeWorld()
        await world.simulator.inject(.confirmNotReceived)
        #expect(try await world.pay("lost-request").state == .outcomeUnknown)
        #expect(await world.simulator.chargeCount(referenceID: "lost-request") == 0)
        await world.simulator.inject(.answerLostAfterCharge)
        #expect(try await world.pay("lost-answer").state == .outcomeUnknown)
        #expect(await world.simulator.chargeCount(referenceID: "lost-answer") == 1)
        world.clock.advance(by: 10)  // past Square's search lag (the simulator's 5 s)
        let retried = try await world.pay("lost-answer", attempt: PaymentAttempt(
            number: 2, paymentAttempt: 1, previousState: .outcomeUnknown))
        #expect(retried.state == .succeeded)
        #expect(await world.simulator.chargeCount(referenceID: "lost-answer") == 1)
        #expect(await world.registryContents() == .init(observers: 1))
    }

    @Test("task cancelled mid-collect cancels through the SDK's handle; mid-confirm Square's answer stands",
          arguments: SimulatorSurfaceBackend.CallbackDelivery.allCases)
    func cancellation(delivery: SimulatorSurfaceBackend.CallbackDelivery) async throws {
        let world = try await BridgeWorld(delivery: delivery)
        await world.simulator.inject(.holdNextCard)
        let collecting = Task { try await world.pay("cancel-collect") }
        await world.waitUntilHolding()
        collecting.cancel()
        #expect(try await collecting.value.state == .canceled)
        #expect(world.backend.calls.contains { $0.name == "PaymentHandle.cancelPayment" })
        #expect(await world.simulator.chargeCount(referenceID: "cancel-collect") == 0)

        await world.simulator.inject(.holdNextAuthorization)
        let confirming = Task { try await world.pay("cancel-confirm") }
        await world.waitUntilHolding()
        confirming.cancel()
        try await Task.sleep(nanoseconds: 20_000_000)
        await world.simulator.releaseHeld()
        let outcome = try await confirming.value
        #expect(outcome.state == .succeeded, "Square charged: the cancelled task reports it, got \(outcome.state)")
        #expect(await world.simulator.chargeCount(referenceID: "cancel-confirm") == 1)
        #expect(await world.registryContents() == .init(observers: 1))
        #expect(world.backend.offMainCalls.isEmpty, "\(world.backend.offMainCalls)")
    }
}
