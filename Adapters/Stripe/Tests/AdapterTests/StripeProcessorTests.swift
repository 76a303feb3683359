import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator
import TenderTestKit
import Testing

// MARK: - Test doubles and helpers

/// The app's capture service: records calls, applies them to the simulator's server side, and can fail.
actor RecordingCaptureService: PaymentCaptureService {
    enum Call: Equatable { case capture(String, Int64), void(String) }
    private(set) var calls: [Call] = []
    var failNext = false
    private let simulator: StripeSimulator?

    init(simulator: StripeSimulator? = nil) { self.simulator = simulator }

    func setFailNext() { failNext = true }

    func capture(processor: String, reference: String, processorPaymentID: String, amount: Money) async throws {
        calls.append(.capture(processorPaymentID, amount.minorUnits))
        if failNext { failNext = false; throw URLError(.timedOut) }
        try await simulator?.capture(stripeId: processorPaymentID, amount: UInt(amount.minorUnits))
    }

    func void(processor: String, reference: String, processorPaymentID: String) async throws {
        calls.append(.void(processorPaymentID))
        if failNext { failNext = false; throw URLError(.timedOut) }
        try await simulator?.cancelOnServer(stripeId: processorPaymentID)
    }
}

/// Records the states reported through the updates handler.
final class UpdateRecorder: Sendable {
    private let recorded = Locked<[PaymentState]>([])
    var states: [PaymentState] { recorded.current }
    var handler: PaymentUpdateHandler {
        { [recorded] update in recorded.withLock { $0.append(update.state) } }
    }
}

let testLocation = "tml_loc_main"

/// A simulator with offline enabled (unless told otherwise) and its clock.
func makeSimulator(offlineEnabled: Bool = true, seed: UInt64 = 7,
                   _ change: (inout Stripe.SimulatorConfiguration) -> Void = { _ in }) -> (StripeSimulator, ManualClock) {
    var configuration = Stripe.SimulatorConfiguration(offlineEnabled: offlineEnabled)
    configuration.forwardsWhenNetworkReturns = false
    change(&configuration)
    let clock = ManualClock()
    return (StripeSimulator(configuration: configuration, seed: seed, clock: clock), clock)
}

/// A processor over `simulator`, connected online to the simulated M2 at ``testLocation``.
func connectedProcessor(_ simulator: StripeSimulator, clock: ManualClock, autoReconnect: Bool = true,
                        capture: RecordingCaptureService? = nil) async throws -> StripeProcessor {
    let processor = StripeProcessor(client: simulator, captureService: capture ?? RecordingCaptureService(simulator: simulator),
                                    clock: clock, autoReconnectOnUnexpectedDisconnect: autoReconnect,
                                    keepingEventHistory: true)
    let readers = try await processor.discoverReaders(timeout: 5)
    let m2 = try #require(readers.first { $0.model == "stripeM2" })
    _ = try await processor.connectReader(m2, locationID: testLocation)
    return processor
}

func sale(_ reference: String, cents: Int64 = 1_000, capture: CaptureMode = .automatic,
          policy: OfflinePolicy = .preferOnline) -> PaymentRequest {
    PaymentRequest(amount: Money(minorUnits: cents, currency: .usd), reference: reference, captureMode: capture,
                   offlinePolicy: policy, metadata: ["lane": "1"])
}

func forwardedUpdates(_ processor: StripeProcessor) -> [ProcessorPaymentUpdate] {
    processor.emittedEvents.compactMap { if case .paymentForwarded(let update) = $0 { update } else { nil } }
}

/// The Stripe adapter over a fresh simulator, for Tender's conformance suite.
struct StripeConformanceSubject: ConformanceSubject {
    struct Environment: ConformanceEnvironment {
        let simulator: StripeSimulator
        let processor: any PaymentProcessor
        let locationID = testLocation
        let supportsOffline = true

        func setNetwork(online: Bool) async {
            await simulator.setSimulatedOfflineMode(online ? .disabled : .offlineImmediate)
        }

        func presentNextCard(_ card: ConformanceCard) async {
            await simulator.updateConfiguration {
                $0.simulatedCard = switch card {
                case .approve: .visa
                case .decline, .declineWhenForwarded: .chargeDeclined
                }
            }
        }

        func forwardStoredPayments() async { await simulator.forwardPendingPayments() }

        func charges(reference: String) async -> Int { await simulator.chargeCount(reference: reference) }

        // Baseline only (replaced by real hooks over the simulator): the hooks the kit added.
        func inject(_ fault: ConformanceFault) async {}
        func releaseHeld() async {}
        func isHolding() async -> Bool { false }
        func advanceClock(by seconds: Double) async {}
        func relaunch() async throws -> any PaymentProcessor { processor }
    }

    let name = "stripe"

    func makeEnvironment() async throws -> any ConformanceEnvironment {
        let (simulator, clock) = makeSimulator()
        let processor = StripeProcessor(client: simulator, captureService: RecordingCaptureService(simulator: simulator),
                                        clock: clock)
        return Environment(simulator: simulator, processor: processor)
    }
}

// MARK: - Tests

@Suite("Stripe processor")
struct StripeProcessorTests {
    @Test("passes Tender's conformance suite and recovers from a crash at every ledger write")
    func conformance() async {
        let problems = await TenderConformance.problems(of: StripeConformanceSubject())
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("through the facade: stored offline, forwarded, then captured")
    func facadeOfflineForwardCapture() async throws {
        let (simulator, clock) = makeSimulator()
        let capture = RecordingCaptureService(simulator: simulator)
        let processor = try await connectedProcessor(simulator, clock: clock, capture: capture)
        let terminal = PaymentTerminal(
            processor: processor, scope: LedgerScope(merchantID: "shop", locationID: testLocation),
            limits: .single(perPayment: Money(minorUnits: 50_000, currency: .usd),
                            storedTotal: Money(minorUnits: 500_000, currency: .usd)), clock: clock)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        for event in processor.emittedEvents { await terminal.handle(event) }
        let session = try await terminal.takePayment(sale("FT-1", capture: .manual, policy: .preferOnline))
        #expect(session.state == .storedOffline)
        let seen = processor.emittedEvents.count
        await simulator.setSimulatedOfflineMode(.disabled)
        await simulator.forwardPendingPayments()
        for event in processor.emittedEvents.dropFirst(seen) { await terminal.handle(event) }
        #expect(try await terminal.session(reference: "FT-1")?.state == .forwarded)
        let captured = try await terminal.capture(reference: "FT-1")
        #expect(captured.state == .succeeded)
        #expect(await capture.calls.count == 1)
        #expect(await simulator.chargeCount(reference: "FT-1") == 1)
    }

    @Test("a seeded day of random cards, networks and routes: never two charges, every outcome matches Stripe",
          arguments: [UInt64(1), 2, 3, 4])
    func seededChaos(_ seed: UInt64) async throws {
        let (simulator, clock) = makeSimulator(seed: seed)
        let processor = try await connectedProcessor(simulator, clock: clock)
        var random = SeededGenerator(seed: seed)
        let cards: [Stripe.SimulatedCardType] = [.visa, .mastercard, .chargeDeclined, .interac, .amex]
        let modes = Stripe.SimulatedOfflineMode.allCases
        let routes: [RoutingDecision] = [.online, .onlineWithOfflineFallback, .offline]
        var finals: [String: PaymentState] = [:]
        for index in 0..<30 {
            let reference = "CH-\(seed)-\(index)"
            let card = cards[Int(random.next() % UInt64(cards.count))]
            let mode = modes[Int(random.next() % UInt64(modes.count))]
            let routing = routes[Int(random.next() % UInt64(routes.count))]
            let capture: CaptureMode = random.next() % 2 == 0 ? .automatic : .manual
            await simulator.updateConfiguration { $0.simulatedCard = card }
            await simulator.setSimulatedOfflineMode(mode)
            let request = sale(reference, cents: 500 + Int64(index), capture: capture)
            var result = try await processor.startPayment(request, routing: routing, attempt: PaymentAttempt(),
                                                          updates: UpdateRecorder().handler)
            if result.state == .outcomeUnknown {
                await simulator.setSimulatedOfflineMode(.disabled)
                result = try await processor.startPayment(request, routing: routing,
                                                          attempt: PaymentAttempt(number: 2, previousState: .outcomeUnknown),
                                                          updates: UpdateRecorder().handler)
            }
            finals[reference] = result.state
            #expect(await simulator.chargeCount(reference: reference) <= 1)
        }
        await simulator.setSimulatedOfflineMode(.disabled)
        await simulator.forwardPendingPayments()
        #expect(await simulator.storedPayments.isEmpty)
        for update in forwardedUpdates(processor) { finals[update.reference] = update.state }
        for (reference, state) in finals {
            let charges = await simulator.chargeCount(reference: reference)
            switch state {
            case .succeeded, .authorized, .forwarded:
                #expect(charges == 1, "\(reference) ended \(state) with \(charges) charges")
            case .declined, .failed, .canceled, .declinedAfterForwarding:
                #expect(charges == 0, "\(reference) ended \(state) with \(charges) charges")
            default:
                Issue.record("\(reference) ended \(state)")
            }
        }
        #expect(finals.count == 30)
        #expect(Set(finals.values).count >= 4, "too little variety: \(Set(finals.values))")
    }

    @Test("canceling while collecting is reported, or while processing is reported, ends canceled")
    func cancelFromUpdates() async throws {
        for state in [PaymentState.collecting, .processing] {
            let (simulator, clock) = makeSimulator()
            let processor = try await connectedProcessor(simulator, clock: clock)
            let reference = "CU-\(state.rawValue)"
            let result = try await processor.startPayment(sale(reference), routing: .online, attempt: PaymentAttempt(),
                                                          updates: { update in
                if update.state == state { try await processor.cancelPayment(reference: reference) }
            })
            #expect(result.state == .canceled)
            #expect(result.error?.code == .canceled)
            #expect(await simulator.chargeCount(reference: reference) == 0)
            #expect(await simulator.serverIntents.first?.status == .canceled)
        }
    }

    @Test("online approve: collecting then processing, succeeded, one charge, receipt details")
    func onlineApprove() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let recorder = UpdateRecorder()
        let result = try await processor.startPayment(sale("S-1"), routing: .onlineWithOfflineFallback,
                                                      attempt: PaymentAttempt(), updates: recorder.handler)
        #expect(recorder.states == [.collecting, .processing])
        #expect(result.state == .succeeded)
        #expect(result.route == .online)
        #expect(result.processorPaymentID?.hasPrefix("pi_") == true)
        #expect(result.card?.brand == .visa)
        #expect(result.card?.last4 == "4242")
        #expect(result.card?.authorizationCode != nil)
        #expect(await simulator.chargeCount(reference: "S-1") == 1)
        let charge = try #require(await simulator.charges(reference: "S-1").first)
        #expect(charge.captured)
        #expect(charge.metadata["tender_reference"] == "S-1")
        #expect(charge.metadata["lane"] == "1")
        #expect(processor.emittedEvents.contains(.readerInputRequested([.swipe, .insert, .tap])))
    }

    @Test("manual capture online: authorized, then captured through the app's service")
    func manualCaptureOnline() async throws {
        let (simulator, clock) = makeSimulator()
        let capture = RecordingCaptureService(simulator: simulator)
        let processor = try await connectedProcessor(simulator, clock: clock, capture: capture)
        let result = try await processor.startPayment(sale("S-2", capture: .manual), routing: .online,
                                                      attempt: PaymentAttempt(), updates: UpdateRecorder().handler)
        #expect(result.state == .authorized)
        let id = try #require(result.processorPaymentID)
        let captured = try await processor.capturePayment(reference: "S-2", processorPaymentID: id,
                                                          amount: Money(minorUnits: 1_000, currency: .usd))
        #expect(captured.state == .succeeded)
        #expect(await capture.calls == [.capture(id, 1_000)])
        #expect(await simulator.serverIntent(stripeId: id)?.status == .succeeded)
    }

    @Test("each decline card is declined online with its decline code and no charge",
          arguments: Stripe.SimulatedCardType.declineCards)
    func declineCards(_ card: Stripe.SimulatedCardType) async throws {
        let (simulator, clock) = makeSimulator { $0.simulatedCard = card }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let result = try await processor.startPayment(sale("D-\(card.rawValue.prefix(20))"), routing: .online,
                                                      attempt: PaymentAttempt(), updates: UpdateRecorder().handler)
        #expect(result.state == .declined)
        #expect(result.error?.code == .cardDeclined)
        #expect(result.error?.recovery == .collectAnotherCard)
        #expect(result.error?.vendor?.declineCode == card.declineCode)
        #expect(await simulator.chargeCount(reference: "D-\(card.rawValue.prefix(20))") == 0)
        #expect(await simulator.serverCharges.filter { $0.status == .failed }.count == 1)
    }

    @Test("a declined payment retried with another card reuses the same PaymentIntent")
    func declineThenAnotherCard() async throws {
        let (simulator, clock) = makeSimulator { $0.simulatedCard = .chargeDeclined }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let first = try await processor.startPayment(sale("D-2"), routing: .online, attempt: PaymentAttempt(),
                                                     updates: UpdateRecorder().handler)
        #expect(first.state == .declined)
        await simulator.updateConfiguration { $0.simulatedCard = .mastercard }
        let second = try await processor.startPayment(sale("D-2"), routing: .online,
                                                      attempt: PaymentAttempt(number: 2), updates: UpdateRecorder().handler)
        #expect(second.state == .succeeded)
        #expect(second.processorPaymentID == first.processorPaymentID)
        #expect(await simulator.serverIntents.count == 1)
        #expect(await simulator.chargeCount(reference: "D-2") == 1)
    }

    @Test("offline: stored with nil ids, then forwarded and approved")
    func offlineStoreThenForward() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let recorder = UpdateRecorder()
        let stored = try await processor.startPayment(sale("O-1"), routing: .offline, attempt: PaymentAttempt(),
                                                      updates: recorder.handler)
        #expect(recorder.states == [.collecting, .processing])
        #expect(stored.state == .storedOffline)
        #expect(stored.route == .offline)
        #expect(stored.processorPaymentID == nil)
        #expect(stored.localID == nil)
        #expect(stored.card?.brand == .visa)
        #expect(stored.card?.authorizationCode == nil)
        #expect(processor.emittedEvents.contains(.readerInputRequested([.insert, .tap])))
        let queue = try await processor.queueSnapshot()
        #expect(queue.networkStatus == .offline)
        #expect(queue.storedCount == 1)
        #expect(queue.storedAmounts[.usd] == 1_000)
        #expect(await simulator.chargeCount(reference: "O-1") == 0)

        await simulator.setSimulatedOfflineMode(.disabled)
        await simulator.forwardPendingPayments()
        let forwarded = try #require(forwardedUpdates(processor).first)
        #expect(forwarded.reference == "O-1")
        #expect(forwarded.state == .forwarded)
        #expect(forwarded.processorPaymentID?.hasPrefix("pi_") == true)
        #expect(await simulator.chargeCount(reference: "O-1") == 1)
        #expect(try await processor.queueSnapshot().storedCount == 0)
        #expect(try await processor.queueSnapshot().payments.first?.status == .forwarded)
        #expect(processor.emittedEvents.contains(.networkStatusChanged(.online)))
    }

    @Test("offline: a decline card is stored, then declined when forwarded")
    func offlineDeclineAtForward() async throws {
        let (simulator, clock) = makeSimulator { $0.simulatedCard = .chargeDeclinedInsufficientFunds }
        let processor = try await connectedProcessor(simulator, clock: clock)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let stored = try await processor.startPayment(sale("O-2"), routing: .offline, attempt: PaymentAttempt(),
                                                      updates: UpdateRecorder().handler)
        #expect(stored.state == .storedOffline)
        await simulator.updateConfiguration { $0.forwardsWhenNetworkReturns = true }
        await simulator.setSimulatedOfflineMode(.disabled)
        let forwarded = try #require(forwardedUpdates(processor).first)
        #expect(forwarded.state == .declinedAfterForwarding)
        #expect(forwarded.error?.code == .cardDeclined)
        #expect(forwarded.error?.vendor?.declineCode == "insufficient_funds")
        #expect(await simulator.chargeCount(reference: "O-2") == 0)
        let lookup = try await processor.lookUpPayment(reference: "O-2", localID: nil, processorPaymentID: nil)
        guard case .found(let update) = lookup else { Issue.record("not found: \(lookup)"); return }
        #expect(update.state == .declinedAfterForwarding)
    }

    @Test("† test amounts: declined online, and offline at forwarding, by the amount's final digits",
          arguments: [(Int64(1_001), "call_issuer"), (1_005, "generic_decline"), (1_055, "incorrect_pin"),
                      (1_065, "withdrawal_count_limit_exceeded"), (1_075, "pin_try_exceeded"), (1_000, nil)])
    func testAmounts(_ cents: Int64, _ declineCode: String?) async throws {
        let (simulator, clock) = makeSimulator { $0.declinesByTestAmount = true }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let online = try await processor.startPayment(sale("TA-\(cents)", cents: cents), routing: .online,
                                                      attempt: PaymentAttempt(), updates: UpdateRecorder().handler)
        #expect(online.state == (declineCode == nil ? .succeeded : .declined))
        #expect(online.error?.vendor?.declineCode == declineCode)
        let stored = try await processor.startPayment(sale("TO-\(cents)", cents: cents, policy: .forceOffline),
                                                      routing: .offline, attempt: PaymentAttempt(),
                                                      updates: UpdateRecorder().handler)
        #expect(stored.state == .storedOffline)
        await simulator.forwardPendingPayments()
        let forwarded = try #require(forwardedUpdates(processor).first)
        #expect(forwarded.state == (declineCode == nil ? .forwarded : .declinedAfterForwarding))
        #expect(forwarded.error?.vendor?.declineCode == declineCode)
    }

    @Test("requireOnline while offline fails without storing")
    func requireOnlineWhileOffline() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let recorder = UpdateRecorder()
        let result = try await processor.startPayment(sale("R-1", policy: .requireOnline), routing: .online,
                                                      attempt: PaymentAttempt(), updates: recorder.handler)
        #expect(result.state == .failed)
        #expect(result.error?.code == .offlineNotAllowed)
        #expect(result.error?.vendor?.numericCode == 10106)
        #expect(recorder.states.isEmpty)
        #expect(await simulator.storedPayments.isEmpty)
    }

    @Test("forceOffline while online stores the payment, forwarded later")
    func forceOfflineWhileOnline() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let result = try await processor.startPayment(sale("F-1", policy: .forceOffline), routing: .offline,
                                                      attempt: PaymentAttempt(), updates: UpdateRecorder().handler)
        #expect(result.state == .storedOffline)
        #expect(await simulator.serverIntents.isEmpty)
        await simulator.forwardPendingPayments(maxCount: 1)
        #expect(forwardedUpdates(processor).map(\.state) == [.forwarded])
    }

    @Test("over the 10,000 USD offline maximum is refused")
    func overOfflineMaximum() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let result = try await processor.startPayment(sale("M-1", cents: 1_000_001, policy: .forceOffline),
                                                      routing: .offline, attempt: PaymentAttempt(),
                                                      updates: UpdateRecorder().handler)
        #expect(result.state == .failed)
        #expect(result.error?.code == .offlinePaymentLimitExceeded)
        #expect(result.error?.recovery == .goOnline)
        #expect(await simulator.storedPayments.isEmpty)
        let atLimit = try await processor.startPayment(sale("M-2", cents: 1_000_000, policy: .forceOffline),
                                                       routing: .offline, attempt: PaymentAttempt(),
                                                       updates: UpdateRecorder().handler)
        #expect(atLimit.state == .storedOffline)
    }

    @Test("Interac and magstripe are refused offline", arguments: [
        (Stripe.SimulatedCardType.interac, Stripe.ReadMethod.contactEMV, 6901),
        (Stripe.SimulatedCardType.visa, Stripe.ReadMethod.magneticStripeTrack2, 6900),
        (Stripe.SimulatedCardType.visa, Stripe.ReadMethod.magneticStripeFallback, 6900),
        (Stripe.SimulatedCardType.onlinePinCvm, Stripe.ReadMethod.contactEMV, 6905),
    ])
    func refusedOffline(_ card: Stripe.SimulatedCardType, _ method: Stripe.ReadMethod, _ code: Int) async throws {
        let (simulator, clock) = makeSimulator {
            $0.simulatedCard = card
            $0.simulatedReadMethod = method
        }
        let processor = try await connectedProcessor(simulator, clock: clock)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let result = try await processor.startPayment(sale("X-\(code)"), routing: .offline, attempt: PaymentAttempt(),
                                                      updates: UpdateRecorder().handler)
        #expect(result.state == .failed)
        #expect(result.error?.code == .cardNotSupportedOffline)
        #expect(result.error?.recovery == .collectAnotherCard)
        #expect(result.error?.vendor?.numericCode == code)
        #expect(await simulator.storedPayments.isEmpty)
    }

    @Test("Interac and swipe are fine online")
    func interacOnline() async throws {
        let (simulator, clock) = makeSimulator {
            $0.simulatedCard = .interac
            $0.simulatedReadMethod = .magneticStripeTrack2
        }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let result = try await processor.startPayment(sale("I-1"), routing: .online, attempt: PaymentAttempt(),
                                                      updates: UpdateRecorder().handler)
        #expect(result.state == .succeeded)
        #expect(result.card?.brand == .interac)
        #expect(result.card?.entryMethod == .swiped)
    }

    @Test("nil intent after a timeout is retried on the same intent without a second charge",
          arguments: Stripe.TimeoutOutcome.allCases)
    func nilIntentRetried(_ outcome: Stripe.TimeoutOutcome) async throws {
        let (simulator, clock) = makeSimulator { $0.timeoutOutcome = outcome }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let recorder = UpdateRecorder()
        let created = try await processor.startPayment(sale("T-1", capture: .manual, policy: .requireOnline),
                                                       routing: .online, attempt: PaymentAttempt(),
                                                       updates: { update in
            try await recorder.handler(update)
            if update.state == .collecting { await simulator.setSimulatedOfflineMode(.offlineTimeout) }
        })
        #expect(created.state == .outcomeUnknown)
        #expect(created.error?.code == .outcomeUnknown)
        #expect(created.error?.recovery == .retrySamePayment)
        #expect(await simulator.chargeCount(reference: "T-1") == (outcome == .processedResponseLost ? 1 : 0))

        await simulator.setSimulatedOfflineMode(.disabled)
        let retried = try await processor.startPayment(sale("T-1", capture: .manual, policy: .requireOnline),
                                                       routing: .online,
                                                       attempt: PaymentAttempt(number: 2, previousState: .outcomeUnknown),
                                                       updates: recorder.handler)
        #expect(retried.state == .authorized)
        #expect(retried.processorPaymentID == created.processorPaymentID)
        #expect(await simulator.chargeCount(reference: "T-1") == 1)
        #expect(await simulator.serverIntents.filter { $0.metadata["tender_reference"] == "T-1" }.count == 1)
    }

    @Test("after an app restart the retry finds the intent by metadata, never charging twice")
    func restartRetryFindsIntent() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let first = try await processor.startPayment(sale("C-1", capture: .manual), routing: .online,
                                                     attempt: PaymentAttempt(), updates: UpdateRecorder().handler)
        #expect(first.state == .authorized)
        let file = SimulatorStateFile<StripeSimulator.PersistedState>(
            url: FileManager.default.temporaryDirectory.appendingPathComponent("stripe-sim-\(UUID().uuidString).json"))
        defer { try? FileManager.default.removeItem(at: file.url) }
        try await simulator.persist(to: file)

        let restarted = try StripeSimulator(restoringFrom: file, configuration: await simulator.currentConfiguration,
                                            clock: clock)
        let fresh = try await connectedProcessor(restarted, clock: clock)
        let retried = try await fresh.startPayment(sale("C-1", capture: .manual), routing: .online,
                                                   attempt: PaymentAttempt(number: 2), updates: UpdateRecorder().handler)
        #expect(retried.state == .authorized)
        #expect(retried.processorPaymentID == first.processorPaymentID)
        #expect(await restarted.chargeCount(reference: "C-1") == 1)
        #expect(await restarted.serverIntents.count == 1)
    }

    @Test("after a restart between create and confirm, the retry retrieves the same intent by its client secret")
    func restartBeforeConfirm() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let file = SimulatorStateFile<StripeSimulator.PersistedState>(
            url: FileManager.default.temporaryDirectory.appendingPathComponent("stripe-rb-\(UUID().uuidString).json"))
        defer { try? FileManager.default.removeItem(at: file.url) }
        await #expect(throws: CancellationError.self) {
            _ = try await processor.startPayment(sale("RB-1"), routing: .online, attempt: PaymentAttempt(),
                                                 updates: { update in
                if update.state == .collecting {
                    try await simulator.persist(to: file)
                    throw CancellationError()
                }
            })
        }
        let restarted = try StripeSimulator(restoringFrom: file, configuration: await simulator.currentConfiguration,
                                            clock: clock)
        let fresh = try await connectedProcessor(restarted, clock: clock)
        let retried = try await fresh.startPayment(sale("RB-1"), routing: .online,
                                                   attempt: PaymentAttempt(number: 2, previousState: .collecting),
                                                   updates: UpdateRecorder().handler)
        #expect(retried.state == .succeeded)
        #expect(await restarted.serverIntents.count == 1)
        #expect(await restarted.chargeCount(reference: "RB-1") == 1)
    }

    @Test("a retry that cannot look up the earlier intent reports outcome unknown instead of creating one")
    func retryWhileUnreachable() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let result = try await processor.startPayment(sale("U-1"), routing: .onlineWithOfflineFallback,
                                                      attempt: PaymentAttempt(number: 2, previousState: .outcomeUnknown),
                                                      updates: UpdateRecorder().handler)
        #expect(result.state == .outcomeUnknown)
        #expect(await simulator.storedPayments.isEmpty)
    }

    @Test("reader disconnect mid-payment fails the collection and reports the disconnect")
    func readerDisconnectMidPayment() async throws {
        let (simulator, clock) = makeSimulator { $0.cardPresentation = .waitForPresentCard }
        let processor = try await connectedProcessor(simulator, clock: clock, autoReconnect: false)
        let payment = Task {
            try await processor.startPayment(sale("X-1"), routing: .online, attempt: PaymentAttempt(),
                                             updates: UpdateRecorder().handler)
        }
        while await simulator.paymentStatus != .waitingForInput { await Task.yield() }
        await simulator.simulateUnexpectedDisconnect(reason: .bluetoothSignalLost)
        let result = try await payment.value
        #expect(result.state == .failed)
        #expect(result.error?.code == .readerDisconnected)
        #expect(result.error?.recovery == .reconnectReader)
        #expect(processor.emittedEvents.contains(.readerDisconnected(.linkLost)))
        #expect(await simulator.connectedReader == nil)
    }

    @Test("canceling during collection ends the payment as canceled")
    func cancelDuringCollection() async throws {
        let (simulator, clock) = makeSimulator { $0.cardPresentation = .waitForPresentCard }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let payment = Task {
            try await processor.startPayment(sale("K-1"), routing: .online, attempt: PaymentAttempt(),
                                             updates: UpdateRecorder().handler)
        }
        while await simulator.paymentStatus != .waitingForInput { await Task.yield() }
        try await processor.cancelPayment(reference: "K-1")
        let result = try await payment.value
        #expect(result.state == .canceled)
        #expect(result.error?.code == .canceled)
        #expect(await simulator.paymentStatus == .ready)
        try await processor.cancelPayment(reference: "K-1")
        #expect(await simulator.serverIntents.first?.status == .canceled)
    }

    @Test("manual capture after forwarding, and not before")
    func manualCaptureAfterForwarding() async throws {
        let (simulator, clock) = makeSimulator()
        let capture = RecordingCaptureService(simulator: simulator)
        let processor = try await connectedProcessor(simulator, clock: clock, capture: capture)
        let stored = try await processor.startPayment(sale("MC-1", capture: .manual, policy: .forceOffline),
                                                      routing: .offline, attempt: PaymentAttempt(),
                                                      updates: UpdateRecorder().handler)
        #expect(stored.state == .storedOffline)
        await #expect(throws: PaymentError.self) {
            _ = try await processor.capturePayment(reference: "MC-1", processorPaymentID: "pi_unknown",
                                                   amount: Money(minorUnits: 1_000, currency: .usd))
        }
        #expect(await capture.calls.isEmpty)
        await simulator.forwardPendingPayments()
        let forwarded = try #require(forwardedUpdates(processor).first)
        #expect(forwarded.state == .forwarded)
        let id = try #require(forwarded.processorPaymentID)
        let intent = try #require(await simulator.serverIntent(stripeId: id))
        #expect(intent.isReadyToCapture)
        let captured = try await processor.capturePayment(reference: "MC-1", processorPaymentID: id,
                                                          amount: Money(minorUnits: 1_000, currency: .usd))
        #expect(captured.state == .succeeded)
        #expect(await capture.calls == [.capture(id, 1_000)])
        #expect(await simulator.charges(reference: "MC-1").first?.captured == true)
    }

    @Test("capture and void failures surface as captureFailed; void goes through the service")
    func captureServiceFailures() async throws {
        let (simulator, clock) = makeSimulator()
        let capture = RecordingCaptureService(simulator: simulator)
        let processor = try await connectedProcessor(simulator, clock: clock, capture: capture)
        let result = try await processor.startPayment(sale("V-1", capture: .manual), routing: .online,
                                                      attempt: PaymentAttempt(), updates: UpdateRecorder().handler)
        let id = try #require(result.processorPaymentID)
        await capture.setFailNext()
        do {
            _ = try await processor.capturePayment(reference: "V-1", processorPaymentID: id,
                                                   amount: Money(minorUnits: 1_000, currency: .usd))
            Issue.record("capture should have failed")
        } catch let error as PaymentError {
            #expect(error.code == .captureFailed)
            #expect(error.recovery == .retrySamePayment)
        }
        let voided = try await processor.voidPayment(reference: "V-1", processorPaymentID: id)
        #expect(voided.state == .canceled)
        #expect(await capture.calls == [.capture(id, 1_000), .void(id)])
        #expect(await simulator.serverIntent(stripeId: id)?.status == .canceled)
        #expect(await simulator.charges(reference: "V-1").first?.released == true)
    }

    @Test("lookUpPayment: stored, forwarded, not found, unknown")
    func lookUp() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        _ = try await processor.startPayment(sale("L-1", policy: .forceOffline), routing: .offline,
                                             attempt: PaymentAttempt(), updates: UpdateRecorder().handler)
        guard case .found(let stored) = try await processor.lookUpPayment(reference: "L-1", localID: nil,
                                                                           processorPaymentID: nil) else {
            Issue.record("stored payment not found"); return
        }
        #expect(stored.state == .storedOffline)
        await simulator.forwardPendingPayments()
        guard case .found(let forwarded) = try await processor.lookUpPayment(reference: "L-1", localID: nil,
                                                                              processorPaymentID: nil) else {
            Issue.record("forwarded payment not found"); return
        }
        #expect(forwarded.state == .forwarded)
        #expect(forwarded.processorPaymentID != nil)
        #expect(try await processor.lookUpPayment(reference: "nope", localID: nil, processorPaymentID: nil) == .notFound)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        #expect(try await processor.lookUpPayment(reference: "nope", localID: nil, processorPaymentID: nil) == .unknown)
    }

    @Test("lookUp after a timed-out confirm: unknown while Stripe cannot be asked, then Stripe's answer")
    func lookUpAfterTimeout() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let result = try await processor.startPayment(sale("LT-1", capture: .manual, policy: .requireOnline),
                                                      routing: .online, attempt: PaymentAttempt(), updates: { update in
            if update.state == .processing { await simulator.setSimulatedOfflineMode(.offlineTimeout) }
        })
        #expect(result.state == .outcomeUnknown)
        #expect(try await processor.lookUpPayment(reference: "LT-1", localID: nil, processorPaymentID: nil) == .unknown)
        await simulator.setSimulatedOfflineMode(.disabled)
        guard case .found(let found) = try await processor.lookUpPayment(reference: "LT-1", localID: nil,
                                                                          processorPaymentID: nil) else {
            Issue.record("Stripe holds the authorization"); return
        }
        #expect(found.state == .authorized)
        #expect(await simulator.chargeCount(reference: "LT-1") == 1)
    }

    @Test("capabilities report Stripe's offline maximum only when offline is enabled")
    func capabilities() async throws {
        let (enabled, _) = makeSimulator(offlineEnabled: true)
        let (disabled, _) = makeSimulator(offlineEnabled: false)
        let on = await StripeProcessor(client: enabled, captureService: RecordingCaptureService()).capabilities()
        let off = await StripeProcessor(client: disabled, captureService: RecordingCaptureService()).capabilities()
        #expect(on.processorName == "stripe")
        #expect(on.offlineLimits?.perPaymentMaximum[.usd] == 1_000_000)
        #expect(off.offlineLimits == nil)
        #expect(on.supportsManualCapture)
    }

    @Test("a refused routing decision never reaches Stripe")
    func refusedRouting() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let refusal = PaymentError(.offlineStoredTotalExceeded, recovery: .goOnline, phase: .routing, message: "full")
        let result = try await processor.startPayment(sale("Z-1"), routing: .refused(refusal), attempt: PaymentAttempt(),
                                                      updates: UpdateRecorder().handler)
        #expect(result.state == .failed)
        #expect(result.error == refusal)
        #expect(await simulator.serverIntents.isEmpty)
    }

    @Test("forceOffline with offline disabled fails with a configuration error")
    func forceOfflineDisabled() async throws {
        let (simulator, clock) = makeSimulator(offlineEnabled: false)
        let processor = try await connectedProcessor(simulator, clock: clock)
        let result = try await processor.startPayment(sale("Q-1"), routing: .offline, attempt: PaymentAttempt(),
                                                      updates: UpdateRecorder().handler)
        #expect(result.state == .failed)
        #expect(result.error?.code == .offlineUnavailable)
        #expect(result.error?.vendor?.numericCode == 10107)
    }

    @Test("connect while offline through the adapter: the three refusals of seed 000 and the passing case")
    func connectWhileOffline() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = StripeProcessor(client: simulator, captureService: RecordingCaptureService(), clock: clock,
                                        keepingEventHistory: true)
        let readers = try await processor.discoverReaders(timeout: 1)
        let m2 = try #require(readers.first { $0.model == "stripeM2" })
        let wisePad = try #require(readers.first { $0.model == "wisePad3" })
        func refusal(_ reader: Reader) async -> PaymentError? {
            do {
                _ = try await processor.connectReader(reader, locationID: testLocation)
                return nil
            } catch {
                return error as? PaymentError
            }
        }
        func online(_ body: () async throws -> Void) async throws {
            await simulator.setSimulatedOfflineMode(.disabled)
            try await body()
            await simulator.setSimulatedOfflineMode(.offlineImmediate)
        }
        await simulator.setSimulatedOfflineMode(.offlineImmediate)

        // 1. "The SDK isn't connected to the internet": nothing was ever connected online.
        let first = await refusal(m2)
        #expect(first?.code == .readerOfflineConnectionRefused)
        #expect(first?.recovery == .goOnline)
        #expect(first?.vendor?.numericCode == 9000)
        #expect(first?.vendor?.message == "The SDK isn’t connected to the internet")

        // 2. "…must be paired online at this location…": only a WisePad 3 was connected online.
        try await online {
            _ = try await processor.connectReader(wisePad, locationID: testLocation)
            try await processor.disconnectReader()
        }
        let second = await refusal(m2)
        #expect(second?.code == .readerOfflineConnectionRefused)
        #expect(second?.vendor?.numericCode == 2870)

        // 3. "…requires a software update…": the M2's software was last current 31 days ago; a WisePad 3 connected
        //    online since keeps the SDK's offline window open.
        try await online {
            _ = try await processor.connectReader(m2, locationID: testLocation)
            try await processor.disconnectReader()
        }
        clock.advance(by: 31 * 86_400)
        await simulator.updateConfiguration { $0.readersInRange.append(Stripe.Reader(
            serialNumber: "STRM2-SIM-0009", deviceType: .stripeM2, batteryLevel: 0.9, simulated: true)) }
        try await online {
            _ = try await processor.connectReader(
                Reader(id: "STRM2-SIM-0009", model: "stripeM2"), locationID: testLocation)
            try await processor.disconnectReader()
        }
        let third = await refusal(m2)
        #expect(third?.code == .readerOfflineConnectionRefused)
        #expect(third?.recovery == .updateReader)
        #expect(third?.vendor?.numericCode == 2872)

        // Passing: a reader of the same type, current, connected online at this location within 30 days.
        let connected = try await processor.connectReader(Reader(id: "STRM2-SIM-0009", model: "stripeM2"),
                                                          locationID: testLocation)
        #expect(connected.locationID == testLocation)
        #expect(processor.emittedEvents.contains(.readerConnectionChanged(.connected)))
    }

    @Test("a retry of a payment already stored offline returns it, never a second intent")
    func retryOfStoredPayment() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        _ = try await processor.startPayment(sale("RS-1", policy: .forceOffline), routing: .offline,
                                             attempt: PaymentAttempt(), updates: UpdateRecorder().handler)
        let recorder = UpdateRecorder()
        let retried = try await processor.startPayment(sale("RS-1", policy: .forceOffline), routing: .offline,
                                                       attempt: PaymentAttempt(number: 2), updates: recorder.handler)
        #expect(retried.state == .storedOffline)
        #expect(recorder.states.isEmpty)
        #expect(await simulator.storedPayments.count == 1)
    }

    @Test("events: the stream, update progress, reconnection, forwarding errors and failed forwards")
    func events() async throws {
        let (simulator, clock) = makeSimulator { $0.testReaderUpdate = .required }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let emitted = processor.emittedEvents
        let progress = emitted.compactMap { if case .softwareUpdateProgress(let p) = $0 { p } else { nil } }
        #expect(progress == [0, 0.25, 0.5, 0.75, 1])
        #expect(emitted.contains(.softwareUpdateFinished(nil)))
        #expect(emitted.contains(.readerConnectionChanged(.connecting)))

        await simulator.simulateUnexpectedDisconnect(reason: .bluetoothSignalLost)
        #expect(processor.emittedEvents.suffix(4) == [
            .readerConnectionChanged(.reconnecting), .readerReconnectStarted(.linkLost),
            .readerConnectionChanged(.connected), .readerReconnectSucceeded,
        ])

        await simulator.updateConfiguration {
            $0.forwardingFailure = Stripe.ErrorCode.Code("forwardingLiveModePaymentInTestMode")
        }
        _ = try await processor.startPayment(sale("EV-1", policy: .forceOffline), routing: .offline,
                                             attempt: PaymentAttempt(), updates: UpdateRecorder().handler)
        await simulator.forwardPendingPayments()
        let failed = try #require(forwardedUpdates(processor).first)
        #expect(failed.state == .failedToForward)
        #expect(failed.error?.code == .accountMismatch)
        #expect(try await processor.queueSnapshot().payments.first?.status == .failedToForward)

        var iterator = processor.events().makeAsyncIterator()
        let first = await iterator.next()
        #expect(first == emitted.first)
    }

    @Test("reconnecting on app start to a saved serial number")
    func connectSavedReader() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = StripeProcessor(client: simulator, captureService: RecordingCaptureService(), clock: clock)
        let reader = try await processor.connectSavedReader(serialNumber: "WP3-SIM-0001", locationID: testLocation)
        #expect(reader.model == "wisePad3")
        try await processor.disconnectReader()
        await #expect(throws: PaymentError.self) {
            _ = try await processor.connectSavedReader(serialNumber: "GONE-0001", locationID: testLocation)
        }
        #expect(await simulator.connectionStatus == .notConnected)
    }
}
