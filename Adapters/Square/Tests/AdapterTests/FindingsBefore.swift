// The Square findings as tests against the adapter as found: every one of them fails there (see the commit).
import Foundation
import Testing
import Tender
@testable import TenderSquare
@testable import TenderSquareSimulator

@Suite("Findings before")
struct FindingsBefore {
    @Test("A1 cancelling the task never records failed while Square may still charge")
    func a1() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.cardPresentation = .waitForPresentCard
        let world = try await SquareWorld(configuration: configuration)
        let task = Task { try await world.pay("order-1", cents: 10_00) }
        await world.waitForPaymentInProgress()
        task.cancel()
        try await Task.sleep(nanoseconds: 100_000_000)
        await world.simulator.presentCard()
        let (outcome, _) = try await task.value
        let charges = await world.simulator.chargeCount(paymentAttemptID: "order-1")
        #expect((outcome.state == .canceled && charges == 0) || (outcome.state == .succeeded && charges == 1),
                "outcome \(outcome.state) with \(charges) charges")
    }

    @Test("A2 an empty search inside the consistency window is unknown")
    func a2() async throws {
        let world = try await SquareWorld()
        await world.simulator.injectFault(.timeoutBeforeServerCharge)
        _ = try await world.pay("order-1", cents: 18_00)
        let query = PaymentLookupQuery(reference: "order-1", recordedState: .outcomeUnknown, since: world.clock.now())
        let found = try await world.processor.lookUpPayment(query)
        #expect(found == .unknown, "got \(found)")
    }

    @Test("A3 a missing idempotency key is not proof")
    func a3() async throws {
        let world = try await SquareWorld()
        _ = try await world.pay("order-1", cents: 18_00)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sq-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let file = SimulatorStateFile<SquareSimulator.PersistedState>(url: url)
        try await world.simulator.persist(to: file)
        var state = try #require(try file.load())
        state.attempts = [:]  // the SDK's storage lost the key (reinstall)
        try file.save(state)
        let restored = try SquareSimulator(restoringFrom: file, clock: world.clock)
        let processor = SquareProcessor(client: restored, captureService: restored.server, lookup: restored.server)
        let found = try await processor.lookUpPayment(PaymentLookupQuery(reference: "order-1"))
        guard case .found(let update) = found else {
            Issue.record("charged at Square but the lookup said \(found)")
            return
        }
        #expect(update.state == .succeeded)
    }

    @Test("A5 a new attempt uses ref#n as the attempt id and keeps the reference")
    func a5Attempt() async throws {
        let world = try await SquareWorld()
        await world.simulator.setPresentedCard(.declined)
        _ = try await world.pay("order-1", cents: 20_00)
        await world.simulator.setPresentedCard(.visaChip)
        let (retry, _) = try await world.pay("order-1", cents: 20_00,
                                             attempt: PaymentAttempt(number: 2, paymentAttempt: 2, previousState: .created))
        #expect(retry.state == .succeeded)
        let last = try #require(await world.simulator.serverPayments.last)
        #expect(last.paymentAttemptID == "order-1#2" && last.referenceID == "order-1", "\(last.paymentAttemptID)")
    }

    @Test("A5 abandonPayment cancels what an unknown attempt left live")
    func a5Abandon() async throws {
        let world = try await SquareWorld()
        await world.simulator.injectFault(.timeoutAfterServerCharge)
        _ = try await world.pay("order-1", cents: 20_00, capture: .manual)
        let note = try await world.processor.abandonPayment(PaymentLookupQuery(reference: "order-1", captureMode: .manual))
        #expect(note != nil)
        #expect(await world.simulator.serverPayments.first?.status == .canceled)
    }

    @Test("A5 networkStatus answers from the SDK even when not authorized")
    func a5Network() async throws {
        let simulator = SquareSimulator(sellers: TestSellers.all, seed: 3, clock: ManualClock(), network: .offline)
        let processor = SquareProcessor(client: simulator, captureService: UnusedCaptureService())
        #expect(await processor.networkStatus() == .offline)
    }

    @Test("A6 the sign-out guard says what happens to queued payments")
    func a6() async throws {
        let world = try await SquareWorld()
        _ = try await world.pay("order-1", cents: 10_00, routing: .offline)
        do {
            try await world.processor.deauthorize()
            Issue.record("allowed")
        } catch {
            #expect(!error.message.contains("lose"), "\(error.message)")
        }
    }

    @Test("B1 the SDK deletes processed payments on its schedule, not when read")
    func b1Simulator() async throws {
        let world = try await SquareWorld()
        _ = try await world.pay("order-1", cents: 10_00, routing: .offline)
        await world.simulator.syncUntilIdle()
        world.clock.advance(by: 3_600)
        #expect(await world.simulator.devicePayments.isEmpty)
    }

    @Test("B1 a payment processed and deleted unseen is reported by the next queue read")
    func b1Adapter() async throws {
        let world = try await SquareWorld()
        _ = try await world.pay("order-1", cents: 10_00, routing: .offline)
        for _ in 0..<3 { await world.simulator.syncOfflinePayments() }
        _ = try await world.processor.queueSnapshot()
        #expect(world.forwarded.first?.state == .forwarded, "\(world.forwarded)")
    }

    @Test("B3 stored updates carry Square's createdAt")
    func b3() async throws {
        let world = try await SquareWorld()
        let (stored, _) = try await world.pay("order-1", cents: 10_00, routing: .offline)
        let device = try #require(await world.simulator.devicePayments.first)
        #expect(stored.storedAt == device.payment.createdAt)
    }

    @Test("B4 authorizations carry captureBefore, expire, and capture after expiry says so")
    func b4() async throws {
        let world = try await SquareWorld()
        let (held, _) = try await world.pay("order-1", cents: 40_00, capture: .manual)
        #expect(held.captureBefore == world.clock.now().addingTimeInterval(36 * 3_600))
        world.clock.advance(by: 37 * 3_600)
        let found = try await world.processor.lookUpPayment(PaymentLookupQuery(
            reference: "order-1", processorPaymentID: held.processorPaymentID, recordedState: .authorized,
            captureMode: .manual))
        if case .found(let update) = found {
            #expect(update.state == .canceled && update.error?.code == .authorizationExpired, "\(update)")
        } else { Issue.record("\(found)") }
        do {
            _ = try await world.processor.capturePayment(reference: "order-1", processorPaymentID: held.processorPaymentID!,
                                                         amount: Money(minorUnits: 40_00, currency: .usd))
            Issue.record("captured")
        } catch let error as PaymentError {
            #expect(error.code == .authorizationExpired && error.recovery != .retrySamePayment, "\(error)")
        }
    }

    @Test("B5 capabilities: no metadata, no partial capture; a partial capture is refused before Square")
    func b5() async throws {
        let world = try await SquareWorld()
        let capabilities = await world.processor.capabilities()
        #expect(!capabilities.supportsMetadata)
        #expect(!capabilities.supportsPartialCapture)
        let (held, _) = try await world.pay("order-1", cents: 40_00, capture: .manual)
        do {
            _ = try await world.processor.capturePayment(reference: "order-1", processorPaymentID: held.processorPaymentID!,
                                                         amount: Money(minorUnits: 30_00, currency: .usd))
        } catch let error as PaymentError {
            #expect(error.code == .invalidAmount, "\(error)")
        }
    }

    @Test("B6 Square's device rules are reported")
    func b6() async throws {
        let world = try await SquareWorld()
        let limits = try #require(await world.processor.capabilities().offlineLimits)
        #expect(limits.deviceStoredCountMaximum == 1000 && limits.offlineWindowMaximum == 86_400)
        #expect(limits.storedCountMaximum == nil)
        let wentOffline = world.clock.now()
        await world.simulator.setNetwork(.offline)
        world.clock.advance(by: 7_200)
        #expect(try await world.processor.queueSnapshot().lastOnlineAt == wentOffline)
    }

    @Test("B6 the window is not restarted by a reconnection that never reached Square")
    func b6Window() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        world.clock.advance(by: 20 * 3_600)
        await world.simulator.setNetwork(.flaky(failureRate: 1))
        await world.simulator.setNetwork(.offline)
        world.clock.advance(by: 5 * 3_600)
        let (late, _) = try await world.pay("order-2", cents: 10_00, routing: .offline)
        #expect(late.state == .failed && late.error?.code == .readerOfflineConnectionRefused, "\(late.state)")
    }

    @Test("B7 Interac and swipe refused offline are a refused card method, not a cancellation")
    func b7() async throws {
        let world = try await SquareWorld()
        await world.simulator.setPresentedCard(.interac)
        let (interac, _) = try await world.pay("order-1", cents: 10_00, routing: .offline)
        #expect(interac.state == .failed && interac.error?.code == .cardNotSupportedOffline, "\(interac.state)")
        await world.simulator.setPresentedCard(.swipedVisa)
        let (swiped, _) = try await world.pay("order-2", cents: 10_00, routing: .offline)
        #expect(swiped.state == .failed && swiped.error?.recovery == .collectAnotherCard, "\(swiped.state)")
    }

    @Test("B7 keyed entry is refused unless the prompt offers it")
    func b7Keyed() async throws {
        let world = try await SquareWorld()
        await world.simulator.setPresentedCard(SquareSimulator.SimulatedCard(brand: .visa, last4: "1111", entryMethod: .keyed))
        let (keyed, _) = try await world.pay("order-1", cents: 10_00)
        #expect(keyed.state == .failed, "\(keyed.state)")
    }

    @Test("D refunds go through the server")
    func d() async throws {
        let world = try await SquareWorld()
        let (paid, _) = try await world.pay("order-1", cents: 10_00)
        let result = try await world.processor.refundPayment(RefundRequest(
            processor: "square", reference: "order-1", processorPaymentID: paid.processorPaymentID!,
            amount: Money(minorUnits: 4_00, currency: .usd), idempotencyKey: "order-1/refund-1"), throughReader: false)
        #expect(result.status == .succeeded || result.status == .pending)
    }
}
