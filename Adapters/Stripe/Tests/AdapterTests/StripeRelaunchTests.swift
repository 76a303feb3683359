import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator
import Testing
import TenderTesting

@Suite("Stripe recovery after a relaunch")
struct StripeRelaunchTests {
    @Test("after a relaunch every session resolves: authorized, unknown either way, stored, collected but unconfirmed")
    func relaunchResolvesEverySession() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let started = clock.now()
        let authorized = try await pay(processor, sale("R-A", capture: .manual))
        await simulator.inject(.confirmNotReceived)
        let notReceived = try await pay(processor, sale("R-U"))
        await simulator.inject(.answerLostAfterCharge)
        let lost = try await pay(processor, sale("R-L"))
        let stored = try await pay(processor, sale("R-S", policy: .forceOffline), routing: .offline)
        // The app dies after the card was read, before the confirmation: Tender recorded `processing`.
        let collected = Locked<ProcessorPaymentUpdate?>(nil)
        await #expect(throws: CancellationError.self) {
            _ = try await pay(processor, sale("R-C"), routing: .onlineWithOfflineFallback) { update in
                if update.state == .processing {
                    collected.withLock { $0 = update }
                    throw CancellationError()
                }
            }
        }
        #expect([authorized.state, notReceived.state, lost.state, stored.state]
            == [.authorized, .outcomeUnknown, .outcomeUnknown, .storedOffline])

        await simulator.relaunch()
        let fresh = try await connectedProcessor(simulator, clock: clock)

        // Online and charged: Stripe's copy, by id.
        #expect(try await fresh.lookUpPayment(query(authorized, since: started, captureMode: .manual))
            .state == .authorized)
        #expect(try await fresh.lookUpPayment(query(lost, since: started)).state == .succeeded)
        // Stored: Stripe has not seen it and the SDK lists nothing: unknown, never "not found".
        #expect(try await fresh.lookUpPayment(query(stored, since: started)) == .unknown)
        let rc = try #require(collected.current)
        #expect(try await fresh.lookUpPayment(query(rc, since: started)) == .unknown,
                "collected online with an offline fallback, while the SDK stores a payment: it may be stored")
        // Never received: Stripe holds it unfinished; the retry collects again on the same intent.
        #expect(try await fresh.lookUpPayment(query(notReceived, since: started)).state == .collecting)
        let recorder = UpdateRecorder()
        let retried = try await fresh.startPayment(sale("R-U"), routing: .online, attempt: continuing(notReceived),
                                                   updates: recorder.handler)
        #expect(retried.state == .succeeded)
        #expect(retried.processorPaymentID == notReceived.processorPaymentID)
        #expect(recorder.states == [.collecting, .processing])

        // The SDK forwards what it stored; the callback reaches the new processor with the reference.
        await simulator.forwardPendingPayments()
        let forwarded = try #require(forwardedUpdates(fresh).first { $0.reference == "R-S" })
        #expect(forwarded.state == .forwarded)
        #expect(forwarded.storedAt != nil)
        // Nothing stored any more: the collected-but-unconfirmed intent continues, on the same intent.
        #expect(try await fresh.lookUpPayment(query(rc, since: started)).state == .collecting)
        let resumed = try await pay(fresh, sale("R-C"), routing: .onlineWithOfflineFallback, attempt: continuing(rc))
        #expect(resumed.state == .succeeded)
        #expect(resumed.processorPaymentID == rc.processorPaymentID)

        for reference in ["R-A", "R-U", "R-L", "R-S", "R-C"] {
            #expect(await simulator.chargeCount(reference: reference) == 1, "\(reference)")
        }
        #expect(await simulator.serverIntents.count == 5)
    }

    @Test("a payment the SDK stored before Tender recorded it: unknown (never not-found), not started again")
    func storedBeforeRecorded() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let created = clock.now()
        _ = try await pay(processor, sale("A5B", policy: .forceOffline), routing: .offline)
        // Crash: the ledger still says `processing`, and the relaunched adapter holds nothing.
        await simulator.relaunch()
        let fresh = try await connectedProcessor(simulator, clock: clock)
        clock.advance(by: 3_600)
        let recorded = PaymentLookupQuery(reference: "A5B", recordedState: .processing, route: .offline, since: created)
        #expect(try await fresh.lookUpPayment(recorded) == .unknown)
        let retry = try await pay(fresh, sale("A5B", policy: .forceOffline), routing: .offline,
                                  attempt: PaymentAttempt(number: 2, previousState: .processing))
        #expect(retry.state == .outcomeUnknown)
        #expect(await simulator.storedPayments.count == 1)
        #expect(await simulator.serverIntents.isEmpty)
        await simulator.forwardPendingPayments()
        let forwarded = try #require(forwardedUpdates(fresh).first)
        #expect(forwarded.reference == "A5B")
        #expect(forwarded.state == .forwarded)
        #expect(PaymentStateMachine.canTransition(from: .outcomeUnknown, to: forwarded.state))
        #expect(await simulator.chargeCount(reference: "A5B") == 1)
    }

    @Test("after a process restart from a file, the retry finds the intent by id and never charges twice")
    func restartFromFile() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let first = try await pay(processor, sale("C-1", capture: .manual))
        let file = SimulatorStateFile<StripeSimulator.PersistedState>(
            url: FileManager.default.temporaryDirectory.appendingPathComponent("stripe-sim-\(UUID().uuidString).json"))
        defer { try? FileManager.default.removeItem(at: file.url) }
        try await simulator.persist(to: file)
        let restarted = try StripeSimulator(restoringFrom: file, configuration: await simulator.currentConfiguration,
                                            clock: clock)
        let fresh = try await connectedProcessor(restarted, clock: clock)
        let retried = try await pay(fresh, sale("C-1", capture: .manual),
                                    attempt: PaymentAttempt(number: 2, processorPaymentID: first.processorPaymentID,
                                                            previousState: .processing))
        #expect(retried.state == .authorized)
        #expect(retried.processorPaymentID == first.processorPaymentID)
        #expect(await restarted.chargeCount(reference: "C-1") == 1)
        #expect(await restarted.serverIntents.count == 1)
    }

    @Test("a retry that cannot reach Stripe reports outcome unknown instead of creating an intent")
    func retryWhileUnreachable() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let result = try await pay(processor, sale("U-1"), routing: .onlineWithOfflineFallback,
                                   attempt: PaymentAttempt(number: 2, previousState: .outcomeUnknown))
        #expect(result.state == .outcomeUnknown)
        #expect(await simulator.storedPayments.isEmpty)
        #expect(await simulator.serverIntents.isEmpty)
    }

    @Test("a retry of a payment already stored offline returns it, never a second intent")
    func retryOfStoredPayment() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let first = try await pay(processor, sale("RS-1", policy: .forceOffline), routing: .offline)
        let recorder = UpdateRecorder()
        let retried = try await processor.startPayment(sale("RS-1", policy: .forceOffline), routing: .offline,
                                                       attempt: continuing(first), updates: recorder.handler)
        #expect(retried.state == .storedOffline)
        #expect(recorder.states.isEmpty)
        #expect(await simulator.storedPayments.count == 1)
    }
}

@Suite("Stripe confirmations still on their way")
struct StripeConfirmationOnItsWayTests {
    @Test("a confirmation on its way when the app relaunched: the retry continues the same intent, charged once, whichever reaches Stripe first",
          arguments: [true, false])
    func relaunchWithConfirmationOnItsWay(stripeActsFirst: Bool) async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let reference = "OW-\(stripeActsFirst)"
        await simulator.inject(.holdNextAuthorization)
        let processing = Locked<ProcessorPaymentUpdate?>(nil)
        // Its process is about to die: this task is never answered.
        _ = Task {
            try await pay(processor, sale(reference)) { update in
                if update.state == .processing { processing.withLock { $0 = update } }
            }
        }
        await eventually { await simulator.isHolding }
        await simulator.relaunch()
        #expect(await simulator.isHolding, "the request is in the network, not in the SDK")
        let fresh = try await connectedProcessor(simulator, clock: clock)
        let recorded = try #require(processing.current)
        if stripeActsFirst { #expect(await simulator.releaseHeld()) }
        let retry = PaymentAttempt(number: 2, paymentAttempt: 1, processorPaymentID: recorded.processorPaymentID,
                                   previousState: .outcomeUnknown)
        let retried = try await pay(fresh, sale(reference), attempt: retry)
        if !stripeActsFirst { #expect(await simulator.releaseHeld(), "the old confirmation lands after the retry") }
        #expect(retried.state == .succeeded)
        #expect(retried.processorPaymentID == recorded.processorPaymentID)
        #expect(await simulator.chargeCount(reference: reference) == 1)
        #expect(await simulator.serverIntents.count == 1)
        #expect(await !simulator.isHolding)
    }

    @Test("a confirmation the busy reader did not run is not final: the retry charges the same intent once")
    func readerBusyConfirmationIsNotFinal() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let other = Locked<Task<ProcessorPaymentUpdate, any Error>?>(nil)
        // Between this payment's collection and its confirmation, another one's confirmation occupies the reader.
        let busy = try await pay(processor, sale("RB-2")) { update in
            guard update.state == .processing else { return }
            await simulator.inject(.holdNextAuthorization)
            other.withLock { $0 = Task { try await pay(processor, sale("RB-1")) } }
            await eventually { await simulator.isHolding }
        }
        #expect(busy.state == .outcomeUnknown)
        #expect(busy.error?.code == .readerBusy)
        #expect(busy.error?.recovery == .retrySamePayment)
        await simulator.releaseHeld()
        #expect(try await #require(other.current).value.state == .succeeded)
        let retried = try await pay(processor, sale("RB-2"), attempt: continuing(busy))
        #expect(retried.state == .succeeded)
        #expect(retried.processorPaymentID == busy.processorPaymentID)
        #expect(await simulator.chargeCount(reference: "RB-2") == 1)
        #expect(await simulator.serverIntents.count == 2)
    }
}

extension ProcessorLookup {
    /// The state found, if any (tests).
    var state: PaymentState? { if case .found(let update) = self { update.state } else { nil } }
}
