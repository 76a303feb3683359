import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import Testing

/// An authorization request on its way to Square when the app relaunched reaches Square later, with nobody to tell;
/// Square cannot continue a payment the way Stripe continues a PaymentIntent, so sending the attempt again before
/// that request can no longer arrive could charge the card twice.
@Suite("Square: a request on its way when the app relaunched")
struct SquareLateArrivalTests {
    /// Starts "order-1" with its authorization held at Square, relaunches, and returns the new adapter and the
    /// time the ledger last recorded the payment.
    func relaunchWithRequestOnItsWay(_ world: SquareWorld) async throws -> (SquareProcessor, Date) {
        await world.simulator.inject(.holdNextAuthorization)
        let zombie = Task { try await world.pay("order-1", cents: 9_00) }
        await world.waitUntilHolding()
        let recordedAt = world.clock.now()
        await world.simulator.relaunch()
        #expect(try await zombie.value.0.state == .outcomeUnknown, "the old process's task learns nothing")
        #expect(await world.simulator.isHolding, "the request is in the network, not in the SDK")
        let fresh = SquareProcessor(client: world.simulator, captureService: world.simulator.server,
                                    serverLookup: world.simulator.server, clock: world.clock)
        return (fresh, recordedAt)
    }

    func retry(since recordedAt: Date) -> PaymentAttempt {
        PaymentAttempt(number: 2, previousState: .outcomeUnknown, lastRecordedAt: recordedAt)
    }

    @Test("a retry inside the late-arrival window sends nothing; after it, the request that arrived is found")
    func retryWaitsThenFinds() async throws {
        let world = try await SquareWorld()
        let (fresh, recordedAt) = try await relaunchWithRequestOnItsWay(world)
        world.clock.advance(by: 5)
        let (early, states) = try await world.pay("order-1", cents: 9_00, attempt: retry(since: recordedAt), on: fresh)
        #expect(early.state == .outcomeUnknown)
        #expect(early.error?.recovery == .waitAndRetry)
        #expect(states.isEmpty, "nothing was started")
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 0)
        await world.simulator.releaseHeld()  // Square acts on the request it received
        world.clock.advance(by: 60)
        let (late, _) = try await world.pay("order-1", cents: 9_00, attempt: retry(since: recordedAt), on: fresh)
        #expect(late.state == .succeeded)
        #expect(late.processorPaymentID != nil)
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 1)
    }

    @Test("without the window (set to zero) the retry charges a second time when the old request arrives: the window is what prevents it")
    func withoutTheWindowTheCardIsChargedTwice() async throws {
        let world = try await SquareWorld()
        let (_, recordedAt) = try await relaunchWithRequestOnItsWay(world)
        var settings = SquareProcessor.Configuration()
        settings.simulatedReaders = true
        settings.lateArrivalWindow = 0
        let careless = SquareProcessor(client: world.simulator, captureService: world.simulator.server,
                                       serverLookup: world.simulator.server, configuration: settings, clock: world.clock)
        let (retried, _) = try await world.pay("order-1", cents: 9_00, attempt: retry(since: recordedAt), on: careless)
        #expect(retried.state == .succeeded)
        await world.simulator.releaseHeld()
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 2,
                "the simulator is no kinder than Square: a late request is a second charge")
    }

    @Test("a retry after the window sends the attempt again when nothing arrived, charged once")
    func retryAfterWindowSendsAgain() async throws {
        let world = try await SquareWorld()
        await world.simulator.inject(.confirmNotReceived)
        let recordedAt = world.clock.now()
        let (first, _) = try await world.pay("order-2", cents: 7_00)
        #expect(first.state == .outcomeUnknown)
        let attempt = PaymentAttempt(number: 2, previousState: .outcomeUnknown, lastRecordedAt: recordedAt)
        #expect(try await world.pay("order-2", cents: 7_00, attempt: attempt).0.error?.recovery == .waitAndRetry)
        world.clock.advance(by: 61)
        let (retried, _) = try await world.pay("order-2", cents: 7_00, attempt: attempt)
        #expect(retried.state == .succeeded)
        #expect(await world.simulator.chargeCount(referenceID: "order-2") == 1)
    }

    @Test("through the facade: retries inside the window do not restart it; the first retry after it goes through, once")
    func retriesDoNotRestartTheWindow() async throws {
        let world = try await SquareWorld()
        let ledger = InMemoryPaymentLedger()
        func terminal(_ processor: SquareProcessor) -> PaymentTerminal {
            PaymentTerminal(processor: processor, ledger: ledger, scope: LedgerScope(merchantID: "MA", locationID: "LA1"),
                            clock: world.clock)
        }
        let sale = SquareWorld.sale("order-3", cents: 5_00)
        await world.simulator.inject(.holdNextAuthorization)
        let before = terminal(world.processor)
        let zombie = Task { try await before.takePayment(sale) }
        await world.waitUntilHolding()
        await world.simulator.relaunch()
        #expect(try await zombie.value.state == .outcomeUnknown)
        let fresh = SquareProcessor(client: world.simulator, captureService: world.simulator.server,
                                    serverLookup: world.simulator.server, clock: world.clock)
        let after = terminal(fresh)
        for _ in 0..<3 {  // a cashier trying again every 15 s
            world.clock.advance(by: 15)
            let waiting = try await after.takePayment(sale)
            #expect(waiting.state == .outcomeUnknown)
            #expect(waiting.lastError?.recovery == .waitAndRetry)
        }
        world.clock.advance(by: 20)  // 65 s after the request was sent; the old one never arrived
        #expect(try await after.takePayment(sale).state == .succeeded)
        #expect(await world.simulator.chargeCount(referenceID: "order-3") == 1)
    }
}
