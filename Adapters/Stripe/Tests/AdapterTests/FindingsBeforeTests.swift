import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator
import Testing

// Findings as tests, written against the adapter as found (they fail there; see the report). They are rewritten
// against the new client protocol when each finding is fixed.

/// A client that answers as the real SDK and Stripe's search could: the SDK keeps no listing of its intents
/// (`localPaymentIntents` has nothing to answer from), and a search inside Stripe's consistency window is empty.
struct BridgeLikeClient: StripeClient {
    let simulator: StripeSimulator
    var searchIsEmpty = false
    var confirmErrorStatus: Stripe.PaymentIntentStatus?

    func setTerminalDelegate(_ delegate: (any Stripe.TerminalDelegate)?) { simulator.setTerminalDelegate(delegate) }
    func setOfflineDelegate(_ delegate: (any Stripe.OfflineDelegate)?) { simulator.setOfflineDelegate(delegate) }
    func setLogListener(_ listener: (@Sendable (String) -> Void)?) { simulator.setLogListener(listener) }
    func clearCachedCredentials() async throws(Stripe.ErrorCode) { try await simulator.clearCachedCredentials() }
    var connectionStatus: Stripe.ConnectionStatus { get async { await simulator.connectionStatus } }
    var paymentStatus: Stripe.PaymentStatus { get async { await simulator.paymentStatus } }
    var offlineStatus: Stripe.OfflineStatus { get async { await simulator.offlineStatus } }
    var connectedReader: Stripe.Reader? { get async { await simulator.connectedReader } }
    var offlineModeEnabled: Bool { get async { await simulator.offlineModeEnabled } }
    func discoverReaders(_ configuration: Stripe.DiscoveryConfiguration, delegate: any Stripe.DiscoveryDelegate,
                         completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void) async -> Stripe.Cancelable {
        await simulator.discoverReaders(configuration, delegate: delegate, completion: completion)
    }
    func connectReader(_ reader: Stripe.Reader, configuration: Stripe.BluetoothConnectionConfiguration) async
        throws(Stripe.ErrorCode) -> Stripe.Reader { try await simulator.connectReader(reader, configuration: configuration) }
    func disconnectReader() async throws(Stripe.ErrorCode) { try await simulator.disconnectReader() }
    func rebootReader() async throws(Stripe.ErrorCode) { try await simulator.rebootReader() }
    func installAvailableUpdate() async throws(Stripe.ErrorCode) { try await simulator.installAvailableUpdate() }
    func createPaymentIntent(_ parameters: Stripe.PaymentIntentParameters, createConfig: Stripe.CreateConfiguration)
        async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        try await simulator.createPaymentIntent(parameters, createConfig: createConfig)
    }
    func retrievePaymentIntent(clientSecret: String) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        try await simulator.retrievePaymentIntent(clientSecret: clientSecret)
    }
    func collectPaymentMethod(_ intent: Stripe.PaymentIntent, collectConfig: Stripe.CollectConfiguration,
                              completion: @escaping @Sendable (Result<Stripe.PaymentIntent, Stripe.ErrorCode>) -> Void)
        async -> Stripe.Cancelable {
        await simulator.collectPaymentMethod(intent, collectConfig: collectConfig, completion: completion)
    }
    func confirmPaymentIntent(_ intent: Stripe.PaymentIntent) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        if let status = confirmErrorStatus {
            var updated = intent
            updated.status = status
            throw Stripe.ErrorCode(Stripe.ErrorCode.Code(name: "stripeAPIError", numericCode: 9020),
                                   message: "payment_intent_unexpected_state", paymentIntent: updated)
        }
        return try await simulator.confirmPaymentIntent(intent)
    }
    func cancelPaymentIntent(_ intent: Stripe.PaymentIntent) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        try await simulator.cancelPaymentIntent(intent)
    }
    func localPaymentIntents(metadataKey key: String, value: String) async -> [Stripe.PaymentIntent] { [] }
    func serverPaymentIntents(metadataKey key: String, value: String) async throws(Stripe.ErrorCode)
        -> [Stripe.PaymentIntent] {
        searchIsEmpty ? [] : try await simulator.serverPaymentIntents(metadataKey: key, value: value)
    }
}

private func restart(_ simulator: StripeSimulator, clock: ManualClock) async throws -> StripeSimulator {
    let file = SimulatorStateFile<StripeSimulator.PersistedState>(
        url: FileManager.default.temporaryDirectory.appendingPathComponent("stripe-before-\(UUID().uuidString).json"))
    defer { try? FileManager.default.removeItem(at: file.url) }
    try await simulator.persist(to: file)
    return try StripeSimulator(restoringFrom: file, configuration: await simulator.currentConfiguration, clock: clock)
}

@Suite("Findings, before")
struct FindingsBeforeTests {
    @Test("A1: a confirm that never reached Stripe is not failed; the retry confirms the same intent")
    func a1() async throws {
        let (simulator, clock) = makeSimulator { $0.timeoutOutcome = .notReceived }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let first = try await processor.startPayment(sale("A1"), routing: .online, attempt: PaymentAttempt(),
                                                     updates: { update in
            if update.state == .processing { await simulator.setSimulatedOfflineMode(.offlineTimeout) }
        })
        #expect(first.state == .outcomeUnknown)
        await simulator.setSimulatedOfflineMode(.disabled)
        let lookup = try await processor.lookUpPayment(reference: "A1", localID: nil,
                                                       processorPaymentID: first.processorPaymentID)
        if case .found(let update) = lookup { #expect(update.state != .failed, "lookup: \(update.state)") }
        #expect(await simulator.chargeCount(reference: "A1") == 0)
    }

    @Test("A3: an empty search inside the consistency window is unknown, not not-found")
    func a3() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let done = try await processor.startPayment(sale("A3", capture: .manual), routing: .online,
                                                    attempt: PaymentAttempt(), updates: { _ in })
        #expect(done.state == .authorized)
        let lagging = StripeProcessor(client: BridgeLikeClient(simulator: simulator, searchIsEmpty: true),
                                      captureService: RecordingCaptureService(), clock: clock)
        let lookup = try await lagging.lookUpPayment(reference: "A3", localID: nil, processorPaymentID: nil)
        #expect(lookup == .unknown, "\(lookup)")
    }

    @Test("A4: after a relaunch, an unknown confirm is not failed")
    func a4() async throws {
        let (simulator, clock) = makeSimulator { $0.timeoutOutcome = .notReceived }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let first = try await processor.startPayment(sale("A4"), routing: .online, attempt: PaymentAttempt(),
                                                     updates: { update in
            if update.state == .processing { await simulator.setSimulatedOfflineMode(.offlineTimeout) }
        })
        #expect(first.state == .outcomeUnknown)
        await simulator.setSimulatedOfflineMode(.disabled)
        let relaunched = try await restart(simulator, clock: clock)
        let fresh = try await connectedProcessor(relaunched, clock: clock)
        let lookup = try await fresh.lookUpPayment(reference: "A4", localID: nil, processorPaymentID: first.processorPaymentID)
        if case .found(let update) = lookup { #expect(update.state != .failed, "lookup: \(update.state)") }
    }

    @Test("A5a: a retry after a timed-out confirm, made offline, never leads to a second charge")
    func a5a() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let first = try await processor.startPayment(sale("A5A"), routing: .onlineWithOfflineFallback,
                                                     attempt: PaymentAttempt(), updates: { update in
            if update.state == .processing { await simulator.setSimulatedOfflineMode(.offlineTimeout) }
        })
        #expect(first.state == .outcomeUnknown)
        #expect(await simulator.chargeCount(reference: "A5A") == 1)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        _ = try await processor.startPayment(sale("A5A"), routing: .onlineWithOfflineFallback,
                                             attempt: PaymentAttempt(number: 2, previousState: .outcomeUnknown),
                                             updates: { _ in })
        await simulator.setSimulatedOfflineMode(.disabled)
        await simulator.forwardPendingPayments()
        #expect(await simulator.chargeCount(reference: "A5A") == 1)
    }

    @Test("A5b: a payment the SDK stored before Tender recorded it is unknown, never not-found")
    func a5b() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        _ = try await processor.startPayment(sale("A5B", policy: .forceOffline), routing: .offline,
                                             attempt: PaymentAttempt(), updates: { _ in })
        let relaunched = try await restart(simulator, clock: clock)
        let fresh = StripeProcessor(client: BridgeLikeClient(simulator: relaunched), captureService: RecordingCaptureService(),
                                    clock: clock)
        let lookup = try await fresh.lookUpPayment(reference: "A5B", localID: nil, processorPaymentID: nil)
        #expect(lookup != .notFound)
    }

    @Test("A5c: a confirm error carrying a charged or processing intent is not failed",
          arguments: [(Stripe.PaymentIntentStatus.succeeded, PaymentState.succeeded),
                      (.requiresCapture, .authorized), (.processing, .outcomeUnknown), (.requiresAction, .outcomeUnknown)])
    func a5c(_ status: Stripe.PaymentIntentStatus, _ expected: PaymentState) async throws {
        let (simulator, clock) = makeSimulator()
        let client = BridgeLikeClient(simulator: simulator, confirmErrorStatus: status)
        let processor = StripeProcessor(client: client, captureService: RecordingCaptureService(), clock: clock)
        let reader = try #require(try await processor.discoverReaders(timeout: 1).first { $0.model == "stripeM2" })
        _ = try await processor.connectReader(reader, locationID: testLocation)
        let result = try await processor.startPayment(sale("A5C-\(status.rawValue)"), routing: .online,
                                                      attempt: PaymentAttempt(), updates: { _ in })
        #expect(result.state == expected)
    }

    @Test("A6/A7: a card-read timeout fails; the retry starts a new PaymentIntent and the old one is canceled")
    func a6() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        await simulator.failNextCollection(with: .cardReadTimedOut)
        let first = try await processor.startPayment(sale("A6"), routing: .online, attempt: PaymentAttempt(),
                                                     updates: { _ in })
        #expect(first.state == .failed)
        #expect(first.error?.message.contains("Nothing was charged") == true, "\(first.error?.message ?? "")")
        let note = try await processor.abandonPayment(PaymentLookupQuery(reference: "A6", recordedState: .failed))
        #expect(note != nil)
        let second = try await processor.startPayment(
            sale("A6"), routing: .online, attempt: PaymentAttempt(number: 2, paymentAttempt: 2, previousState: .created),
            updates: { _ in })
        #expect(second.state == .succeeded)
        #expect(await simulator.serverIntents.count == 2)
        #expect(await simulator.serverIntents.first?.status == .canceled)
    }

    @Test("B2: a stored payment's update carries the SDK's storedAt")
    func b2() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let stored = try await processor.startPayment(sale("B2", policy: .forceOffline), routing: .offline,
                                                      attempt: PaymentAttempt(), updates: { _ in })
        let vendor = await simulator.storedPayments.first?.intent.offlineDetails?.storedAt
        #expect(stored.storedAt != nil && stored.storedAt == vendor)
    }

    @Test("B3: 1938 keeps the payment stored; 1937 drops it")
    func b3() async throws {
        for (name, kept) in [("forwardingLiveModePaymentInTestMode", true), ("forwardingTestModePaymentInLiveMode", false)] {
            let (simulator, clock) = makeSimulator { $0.forwardingFailure = Stripe.ErrorCode.Code(name) }
            let processor = try await connectedProcessor(simulator, clock: clock)
            _ = try await processor.startPayment(sale("B3-\(name)", policy: .forceOffline), routing: .offline,
                                                 attempt: PaymentAttempt(), updates: { _ in })
            await simulator.forwardPendingPayments()
            #expect(await simulator.storedPayments.count == (kept ? 1 : 0), "\(name)")
        }
    }

    @Test("B4: an uncaptured authorization expires after two days")
    func b4() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let done = try await processor.startPayment(sale("B4", capture: .manual), routing: .online,
                                                    attempt: PaymentAttempt(), updates: { _ in })
        clock.advance(by: 2 * 86_400 + 60)
        let lookup = try await processor.lookUpPayment(reference: "B4", localID: nil, processorPaymentID: done.processorPaymentID)
        guard case .found(let update) = lookup else { Issue.record("\(lookup)"); return }
        #expect(update.state == .canceled)
        #expect(update.error?.code == .authorizationExpired)
    }

    @Test("B5: a forceOffline payment taken online is forwarded in the background")
    func b5() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        _ = try await processor.startPayment(sale("B5", policy: .forceOffline), routing: .offline,
                                             attempt: PaymentAttempt(), updates: { _ in })
        clock.advance(by: 600)
        _ = await simulator.offlineStatus
        #expect(forwardedUpdates(processor).map(\.state) == [.forwarded])
    }

    @Test("B6: swipe offline advises the same card; exactly 50 % battery does not install; skipTipping is honored")
    func b6() async throws {
        let (simulator, clock) = makeSimulator {
            $0.simulatedReadMethod = .magneticStripeTrack2
            $0.simulatedTipAmount = 200
        }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let tipped = try await processor.startPayment(sale("B6-T"), routing: .online, attempt: PaymentAttempt(),
                                                      updates: { _ in })
        #expect(tipped.state == .succeeded)
        #expect(await simulator.charges(reference: "B6-T").first?.amount == 1_000)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let swiped = try await processor.startPayment(sale("B6-S"), routing: .offline, attempt: PaymentAttempt(),
                                                      updates: { _ in })
        #expect(swiped.error?.vendor?.numericCode == 6900)
        #expect(swiped.error?.recovery != .collectAnotherCard)

        let (half, _) = makeSimulator {
            $0.testReaderUpdate = .available
            $0.readersInRange = [Stripe.Reader(serialNumber: "HALF-1", deviceType: .stripeM2, deviceSoftwareVersion: "1",
                                               batteryLevel: 0.5, batteryStatus: .nominal, simulated: true)]
        }
        _ = try await half.connectReader(Stripe.Reader(serialNumber: "HALF-1", deviceType: .stripeM2),
                                         configuration: .init(locationId: testLocation, delegate: nil))
        await #expect(throws: Stripe.ErrorCode.self) { try await half.installAvailableUpdate() }
    }

    @Test("B6: connecting offline with no record of the reader's software refuses")
    func b6Software() async throws {
        let (simulator, _) = makeSimulator { $0.testReaderUpdate = .available }
        let m2 = Stripe.SimulatorConfiguration.defaultReaders[0]
        // Online connect with an optional update pending: the software is not current; nothing records it.
        _ = try await simulator.connectReader(m2, configuration: .init(locationId: testLocation, delegate: nil))
        try await simulator.disconnectReader()
        await simulator.updateConfiguration { $0.testReaderUpdate = .none }
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        await #expect(throws: Stripe.ErrorCode.self) {
            _ = try await simulator.connectReader(m2, configuration: .init(locationId: testLocation, delegate: nil))
        }
    }

    @Test("B6: a capture above the authorized amount is refused")
    func partialCapture() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let done = try await processor.startPayment(sale("PC", capture: .manual), routing: .online,
                                                    attempt: PaymentAttempt(), updates: { _ in })
        let id = try #require(done.processorPaymentID)
        await #expect(throws: (any Error).self) { try await simulator.capture(stripeId: id, amount: 1_500) }
    }
}

@Suite("Findings, before: task cancellation")
struct FindingsBeforeCancellationTests {
    @Test("A2: cancelling the Swift task mid-collect cancels through Stripe and never crashes")
    func a2() async throws {
        let (simulator, clock) = makeSimulator { $0.cardPresentation = .waitForPresentCard }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let payment = Task {
            try await processor.startPayment(sale("A2"), routing: .online, attempt: PaymentAttempt(), updates: { _ in })
        }
        while await simulator.paymentStatus != .waitingForInput { await Task.yield() }
        payment.cancel()
        let result = try await payment.value
        #expect(result.state == .canceled)
        #expect(await simulator.chargeCount(reference: "A2") == 0)
    }
}
