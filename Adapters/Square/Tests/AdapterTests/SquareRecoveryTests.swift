import Foundation
import Testing
import Tender
@testable import TenderSquare
@testable import TenderSquareSimulator

/// Unknown outcomes, lookups that must not lie, continued attempts, abandonment, relaunches.
@Suite("Square processor: recovery")
struct SquareRecoveryTests {
    @Test("an answer lost after Square charged: unknown until the search shows it, then found; the retry never charges again")
    func answerLostAfterCharge() async throws {
        let world = try await SquareWorld()
        await world.simulator.inject(.answerLostAfterCharge)
        let (first, _) = try await world.pay("order-1", cents: 18_00)
        #expect(first.state == .outcomeUnknown && first.error?.code == .timedOut)
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 1)
        #expect(try await world.processor.lookUpPayment(world.query("order-1")) == .unknown, "the search lags")
        // The retry continues the same attempt: Square refuses the id, and the charge is not repeated.
        let (retry, states) = try await world.pay("order-1", cents: 18_00,
                                                  attempt: PaymentAttempt(number: 2, previousState: .outcomeUnknown))
        #expect(retry.state == .outcomeUnknown && retry.error?.recovery == .waitAndRetry && states == [.processing])
        #expect(retry.error?.message.contains("not charged again") == true)
        world.clock.advance(by: 5)
        guard case .found(let found) = try await world.processor.lookUpPayment(world.query("order-1", since: .distantPast))
        else { Issue.record("the charge should be found once the search shows it"); return }
        #expect(found.state == .succeeded)
        let (again, _) = try await world.pay("order-1", cents: 18_00,
                                             attempt: PaymentAttempt(number: 3, previousState: .outcomeUnknown))
        #expect(again.state == .succeeded && again.processorPaymentID == found.processorPaymentID)
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 1)
    }

    @Test("a request that never reached Square: unknown inside the window (key stored), continued under the same id (A2)")
    func confirmNotReceived() async throws {
        let world = try await SquareWorld()
        await world.simulator.inject(.confirmNotReceived)
        let since = world.clock.now()
        let (first, _) = try await world.pay("order-1", cents: 18_00)
        #expect(first.state == .outcomeUnknown)
        #expect(try await world.processor.lookUpPayment(world.query("order-1", since: since)) == .unknown,
                "an empty search right after the attempt proves nothing")
        world.clock.advance(by: 3_600)
        #expect(try await world.processor.lookUpPayment(world.query("order-1", since: since)) == .unknown,
                "the SDK holds a key for the attempt: it may have been sent")
        let (retry, _) = try await world.pay("order-1", cents: 18_00,
                                             attempt: PaymentAttempt(number: 2, previousState: .outcomeUnknown))
        #expect(retry.state == .succeeded)
        #expect(await world.simulator.serverPayments.map(\.paymentAttemptID) == ["order-1"])
    }

    @Test("never sent: notFound only with no key, an empty search and the consistency window passed (A2)")
    func notFoundNeedsTheWindow() async throws {
        let world = try await SquareWorld()
        let since = world.clock.now()
        #expect(try await world.processor.lookUpPayment(world.query("never", since: since)) == .unknown)
        world.clock.advance(by: 59)
        #expect(try await world.processor.lookUpPayment(world.query("never", since: since)) == .unknown)
        world.clock.advance(by: 1)
        #expect(try await world.processor.lookUpPayment(world.query("never", since: since)) == .notFound)
        let short = try await SquareWorld(adapter: { $0.searchConsistencyWindow = 10 })
        let start = short.clock.now()
        short.clock.advance(by: 10)
        #expect(try await short.processor.lookUpPayment(short.query("never", since: start)) == .notFound)
    }

    @Test("a missing idempotency key is not proof: Square's payment is found on the server (A3)")
    func missingKeyIsNoProof() async throws {
        let world = try await SquareWorld()
        _ = try await world.pay("order-1", cents: 18_00)
        await world.simulator.forgetIdempotencyKey(paymentAttemptID: "order-1")
        world.clock.advance(by: 120)
        guard case .found(let found) = try await world.processor.lookUpPayment(world.query("order-1", since: .distantPast))
        else { Issue.record("charged at Square but not found"); return }
        #expect(found.state == .succeeded)
    }

    @Test("without a server lookup nothing can be proven: unknown, never notFound (A3)")
    func lookUpWithoutService() async throws {
        let (simulator, clock) = try await authorizedSimulator()
        let processor = SquareProcessor(client: simulator, captureService: UnusedCaptureService(), clock: clock)
        await simulator.inject(.answerLostAfterCharge)
        let outcome = try await processor.startPayment(SquareWorld.sale("order-1", cents: 10_00), routing: .online,
                                                       attempt: PaymentAttempt(), updates: { _ in })
        #expect(outcome.state == .outcomeUnknown)
        clock.advance(by: 3_600)
        #expect(try await processor.lookUpPayment(reference: "order-1", localID: nil, processorPaymentID: nil) == .unknown)
        #expect(try await processor.lookUpPayment(reference: "order-2", localID: nil, processorPaymentID: nil) == .unknown)
    }

    @Test("abandoning an attempt whose outcome is unknown voids what Square holds by idempotency key (A3, A5)")
    func abandonVoidsByKey() async throws {
        let world = try await SquareWorld()
        await world.simulator.inject(.answerLostAfterCharge)
        let since = world.clock.now()
        _ = try await world.pay("order-1", cents: 20_00, capture: .manual)
        #expect(await world.simulator.serverPayments.first?.status == .approved)
        let note = try await world.processor.abandonPayment(world.query("order-1", capture: .manual, since: since))
        #expect(note?.contains("CancelPaymentByIdempotencyKey sent") == true, "\(String(describing: note))")
        #expect(await world.simulator.serverPayments.first?.status == .canceled)
        world.clock.advance(by: 5)
        let visible = try await world.processor.abandonPayment(world.query("order-1", capture: .manual, since: since))
        #expect(visible == nil, "Square's record shows it canceled: nothing live")
        // An approved payment the search shows is canceled and named.
        await world.simulator.inject(.answerLostAfterCharge)
        _ = try await world.pay("order-2", cents: 20_00, capture: .manual)
        world.clock.advance(by: 5)
        let named = try await world.processor.abandonPayment(world.query("order-2", capture: .manual, since: since))
        let id = try #require(await world.simulator.serverPayments.last?.id)
        #expect(named == "Square payment \(id) (APPROVED) of attempt order-2 canceled with CancelPaymentByIdempotencyKey.")
    }

    @Test("abandonment: nil when Square holds nothing; refused while the device holds the payment or Square completed it")
    func abandonLimits() async throws {
        let world = try await SquareWorld()
        #expect(try await world.processor.abandonPayment(world.query("never")) == nil)
        _ = try await world.pay("stored", cents: 10_00, routing: .offline)
        await #expect(throws: PaymentError.self) {
            _ = try await world.processor.abandonPayment(world.query("stored", since: .distantPast))
        }
        let (paid, _) = try await world.pay("paid", cents: 10_00)
        do {
            _ = try await world.processor.abandonPayment(world.query("paid", id: paid.processorPaymentID))
            Issue.record("a completed payment was abandoned")
        } catch let error as PaymentError {
            #expect(error.code == .invalidState)
        }
        let noServer = SquareProcessor(client: world.simulator, captureService: UnusedCaptureService())
        #expect(try await noServer.abandonPayment(world.query("paid"))?.contains("no server lookup") == true)
    }

    @Test("a continued attempt is never stored offline; an offline-only one waits for the network (A6)")
    func continuedAttemptsStayOnline() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.timingOut)
        let (first, _) = try await world.pay("order-1", cents: 18_00, routing: .onlineWithOfflineFallback)
        #expect(first.state == .outcomeUnknown)
        await world.simulator.setNetwork(.offline)
        let (offline, states) = try await world.pay("order-1", cents: 18_00, routing: .offline,
                                                   attempt: PaymentAttempt(number: 2, previousState: .outcomeUnknown))
        #expect(offline.state == .outcomeUnknown && offline.error?.recovery == .goOnline && states.isEmpty)
        let (fallback, _) = try await world.pay("order-1", cents: 18_00, routing: .onlineWithOfflineFallback,
                                                attempt: PaymentAttempt(number: 3, previousState: .outcomeUnknown))
        #expect(fallback.state == .outcomeUnknown, "onlineOnly with no network: still unknown, not failed")
        #expect(await world.simulator.devicePayments.isEmpty)
        await world.simulator.setNetwork(.online)
        let (online, _) = try await world.pay("order-1", cents: 18_00, routing: .onlineWithOfflineFallback,
                                              attempt: PaymentAttempt(number: 4, previousState: .outcomeUnknown))
        #expect(online.state == .succeeded && online.route == .online)
    }

    @Test("a reused attempt id with another amount: Square's payment is not this sale's, and nothing is charged again")
    func reusedAttemptID() async throws {
        let world = try await SquareWorld()
        _ = try await world.pay("order-1", cents: 10_00)
        world.clock.advance(by: 5)
        let (other, _) = try await world.pay("order-1", cents: 20_00)
        #expect(other.state == .outcomeUnknown && other.error?.code == .duplicateReference)
        #expect(other.error?.vendor?.name == "paymentAttemptIdReused" && other.error?.recovery == .fixRequest)
        let (same, _) = try await world.pay("order-1", cents: 10_00)
        #expect(same.state == .succeeded)
        #expect(await world.simulator.serverPayments.count == 1)
    }

    @Test("after a relaunch a new adapter resolves every session: online, held-then-charged, queued, processed and deleted (A4)")
    func relaunch() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.processedRetention = 0
        let world = try await SquareWorld(configuration: configuration)
        let since = world.clock.now()
        let (online, _) = try await world.pay("online", cents: 10_00)
        let (forwardedLater, _) = try await world.pay("forwarded", cents: 11_00, routing: .offline)
        await world.simulator.syncUntilIdle()  // processed and deleted, never read
        await world.simulator.setNetwork(.offline)
        let (queued, _) = try await world.pay("queued", cents: 12_00, routing: .offline)
        await world.simulator.setNetwork(.online)
        await world.simulator.inject(.holdNextAuthorization)
        let zombie = Task { try await world.pay("held", cents: 13_00) }
        await world.waitUntilHolding()

        await world.simulator.relaunch()
        #expect(try await zombie.value.0.state == .outcomeUnknown, "the old process's task learns nothing")
        await world.simulator.releaseHeld()  // Square acts on the request it received
        world.clock.advance(by: 60)
        let fresh = SquareProcessor(client: world.simulator, captureService: world.simulator.server,
                                    serverLookup: world.simulator.server, clock: world.clock)
        func look(_ reference: String, _ update: ProcessorPaymentUpdate?, _ state: PaymentState) async throws
            -> ProcessorPaymentUpdate? {
            let query = PaymentLookupQuery(reference: reference, localID: update?.localID,
                                           processorPaymentID: update?.processorPaymentID, recordedState: state,
                                           route: update?.route, since: since)
            guard case .found(let found) = try await fresh.lookUpPayment(query) else { return nil }
            return found
        }
        #expect(try await look("online", online, .succeeded)?.state == .succeeded)
        #expect(try await look("held", nil, .processing)?.state == .succeeded)
        #expect(try await look("queued", queued, .storedOffline)?.state == .storedOffline)
        let forwarded = try await look("forwarded", forwardedLater, .storedOffline)
        #expect(forwarded?.state == .forwarded && forwarded?.processorPaymentID != nil)
        #expect(await world.simulator.chargeCount(referenceID: "held") == 1)
    }

    @Test("a relaunch mid-collection: the attempt is continued by the new adapter, charged once")
    func relaunchMidCollection() async throws {
        let world = try await SquareWorld()
        await world.simulator.inject(.holdNextCard)
        let zombie = Task { try await world.pay("order-1", cents: 9_00) }
        await world.waitUntilHolding()
        await world.simulator.relaunch()
        _ = try await zombie.value
        let fresh = SquareProcessor(client: world.simulator, captureService: world.simulator.server,
                                    serverLookup: world.simulator.server, clock: world.clock)
        #expect(try await fresh.lookUpPayment(world.query("order-1")) == .unknown)
        let (retry, _) = try await world.pay("order-1", cents: 9_00,
                                             attempt: PaymentAttempt(number: 2, previousState: .collecting), on: fresh)
        #expect(retry.state == .succeeded)
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 1)
    }
}
