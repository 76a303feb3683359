import Foundation
import Testing
import Tender
@testable import TenderSquare
@testable import TenderSquareSimulator

/// A simulator and the adapter over it, with the simulator's servers as the app's capture and lookup services.
struct SquareWorld {
    let clock: ManualClock
    let simulator: SquareSimulator
    let emitter = ProcessorEventEmitter(keepingHistory: true)
    let processor: SquareProcessor

    init(configuration: SquareSimulator.Configuration = .init(), token: String = "tok-A", location: String = "LA1",
         seed: UInt64 = 7) async throws {
        let pair = try await authorizedSimulator(configuration: configuration, seed: seed, token: token,
                                                 location: location)
        simulator = pair.0
        clock = pair.1
        var settings = SquareProcessor.Configuration()
        settings.readersAreSimulated = true
        processor = SquareProcessor(client: simulator, captureService: simulator.server, lookup: simulator.server,
                                    configuration: settings, emitter: emitter)
        await processor.startObserving()
    }

    static func sale(_ reference: String, cents: Int64, capture: CaptureMode = .automatic) -> PaymentRequest {
        PaymentRequest(amount: Money(minorUnits: cents, currency: .usd), reference: reference, captureMode: capture)
    }

    /// Takes a payment, returning the outcome and the intermediate states reported through `updates`.
    func pay(_ reference: String, cents: Int64, routing: RoutingDecision = .online, capture: CaptureMode = .automatic,
             attempt: PaymentAttempt = PaymentAttempt()) async throws -> (ProcessorPaymentUpdate, [PaymentState]) {
        let states = Locked<[PaymentState]>([])
        let outcome = try await processor.startPayment(
            Self.sale(reference, cents: cents, capture: capture), routing: routing, attempt: attempt,
            updates: { update in states.withLock { $0.append(update.state) } })
        // Every state the adapter reports must be a legal move for the core's state machine.
        let start = attempt.previousState.flatMap { $0.isFinal ? nil : $0 } ?? .created
        var from = start
        for state in states.current + [outcome.state] {
            // Reporting the state the session is already in (a lookup that finds nothing new) is no change.
            if from != state, !PaymentStateMachine.canTransition(from: from, to: state) {
                Issue.record("the adapter reported \(from) → \(state)")
            }
            from = state
        }
        return (outcome, states.current)
    }

    /// The forwarding results emitted so far.
    var forwarded: [ProcessorPaymentUpdate] {
        emitter.emitted.compactMap { if case .paymentForwarded(let update) = $0 { update } else { nil } }
    }

    /// Waits until the simulator has a payment waiting for a card.
    func waitForPaymentInProgress() async {
        for _ in 0..<5_000 {  // at most about five seconds, on a loaded machine
            if await simulator.currentPaymentHandle != nil { return }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        Issue.record("no payment started")
    }
}

/// A capture service that must never be called.
struct UnusedCaptureService: PaymentCaptureService {
    func capture(processor: String, reference: String, processorPaymentID: String, amount: Money) async throws {
        Issue.record("capture was called")
    }

    func void(processor: String, reference: String, processorPaymentID: String) async throws { Issue.record("void was called") }
}

@Suite("Square processor")
struct SquareProcessorTests {
    // MARK: Online

    @Test("online approve: collecting, processing, succeeded, one charge with the reference as attempt id")
    func onlineApprove() async throws {
        let world = try await SquareWorld()
        let (outcome, states) = try await world.pay("order-1", cents: 12_50)
        #expect(states == [.collecting, .processing])
        #expect(outcome.state == .succeeded && outcome.route == .online)
        let server = try #require(await world.simulator.serverPayments.first)
        #expect(outcome.processorPaymentID == server.id)
        #expect(server.paymentAttemptID == "order-1" && server.referenceID == "order-1")
        #expect(server.amountMoney == Square.Money(amount: 12_50, currency: .USD))
        #expect(server.merchantID == "MA" && server.locationID == "LA1")
        #expect(await world.simulator.chargeCount(paymentAttemptID: "order-1") == 1)
        let card = try #require(outcome.card)
        #expect(card.brand == .visa && card.last4 == "1111" && card.entryMethod == .chip)
        #expect(card.authorizationCode != nil && card.applicationName == "VISA CREDIT")
        #expect(world.emitter.emitted.contains(.readerInputRequested([.insert, .tap, .swipe])))
    }

    @Test("each decline card is declined online, with nothing charged",
          arguments: [SquareSimulator.SimulatedCard.declined, .insufficientFunds, .expired])
    func declineCards(card: SquareSimulator.SimulatedCard) async throws {
        let world = try await SquareWorld()
        await world.simulator.setPresentedCard(card)
        let (outcome, states) = try await world.pay("order-1", cents: 20_00)
        #expect(states == [.collecting, .processing])
        #expect(outcome.state == .declined)
        #expect(outcome.error?.code == .cardDeclined && outcome.error?.recovery == .collectAnotherCard)
        #expect(await world.simulator.chargeCount(paymentAttemptID: "order-1") == 0)
        #expect(await world.simulator.serverPayments.first?.status == .failed)
        // The customer's next card, same reference: taken once.
        await world.simulator.setPresentedCard(.mastercardContactless)
        let (retry, _) = try await world.pay("order-1", cents: 20_00, attempt: PaymentAttempt(number: 2, previousState: .declined))
        #expect(retry.state == .succeeded)
        #expect(await world.simulator.chargeCount(paymentAttemptID: "order-1") == 1)
    }

    @Test("manual capture online: authorized, then voided or captured through the capture service")
    func manualOnline() async throws {
        let world = try await SquareWorld()
        let (held, _) = try await world.pay("order-1", cents: 40_00, capture: .manual)
        #expect(held.state == .authorized)
        let id = try #require(held.processorPaymentID)
        await #expect(throws: PaymentError.self) {
            _ = try await world.processor.capturePayment(reference: "order-1", processorPaymentID: id,
                                                         amount: Money(minorUnits: 41_00, currency: .usd))
        }
        let voided = try await world.processor.voidPayment(reference: "order-1", processorPaymentID: id)
        #expect(voided.state == .canceled)
        #expect(await world.simulator.serverPayments.first?.status == .canceled)
        let (second, _) = try await world.pay("order-2", cents: 15_00, capture: .manual)
        let captured = try await world.processor.capturePayment(
            reference: "order-2", processorPaymentID: try #require(second.processorPaymentID),
            amount: Money(minorUnits: 15_00, currency: .usd))
        #expect(captured.state == .succeeded)
        #expect(await world.simulator.serverPayments.last?.status == .completed)
    }

    // MARK: Offline

    @Test("offline: store, then forward approved; localID becomes the Square id")
    func offlineForwardApproved() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        await world.simulator.setPresentedCard(.mastercardContactless)
        let (stored, states) = try await world.pay("order-1", cents: 30_00, routing: .offline)
        #expect(states == [.collecting, .processing])
        #expect(stored.state == .storedOffline && stored.route == .offline)
        let localID = try #require(stored.localID)
        #expect(stored.processorPaymentID == nil)
        #expect(stored.card?.brand == .mastercard && stored.card?.last4 == "5100")
        #expect(stored.card?.authorizationCode == nil, "Square supplies no auth code offline")
        #expect(world.emitter.emitted.contains(.readerInputRequested([.insert, .tap])), "no swipe offline")
        let queue = try await world.processor.queueSnapshot()
        #expect(queue.networkStatus == .offline && queue.storedCount == 1 && queue.storedAmounts[.usd] == 30_00)
        #expect(await world.simulator.serverPayments.isEmpty)

        await world.simulator.setNetwork(.online)
        await world.simulator.syncOfflinePayments()
        await world.processor.refreshOfflineQueue()
        #expect(world.forwarded.isEmpty, "uploaded is not yet processed")
        #expect(try await world.processor.queueSnapshot().payments.first?.status == .uploaded)
        await world.simulator.syncOfflinePayments()
        await world.processor.refreshOfflineQueue()
        let forwarded = try #require(world.forwarded.first)
        #expect(forwarded.state == .forwarded && forwarded.reference == "order-1" && forwarded.localID == localID)
        #expect(forwarded.processorPaymentID == (await world.simulator.serverPayments.first?.id))
        #expect(await world.simulator.chargeCount(paymentAttemptID: "order-1") == 1)
        await world.processor.refreshOfflineQueue()
        #expect(world.forwarded.count == 1, "a change is reported once")
        await world.simulator.syncOfflinePayments()
        #expect(try await world.processor.queueSnapshot().payments.isEmpty)
        #expect(world.emitter.emitted.contains(.networkStatusChanged(.offline)))
        #expect(world.emitter.emitted.contains(.networkStatusChanged(.online)))
    }

    @Test("offline: a declined card is stored, and declined only when Square processes it")
    func offlineDeclineAtForward() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        await world.simulator.setPresentedCard(.declined)
        let (stored, _) = try await world.pay("order-1", cents: 50_00, routing: .offline)
        #expect(stored.state == .storedOffline && stored.error == nil)
        await world.simulator.setNetwork(.online)
        await world.simulator.syncUntilIdle()
        let snapshot = try await world.processor.queueSnapshot()
        #expect(snapshot.payments.first?.status == .declinedAfterForwarding)
        let declined = try #require(world.forwarded.first)
        #expect(declined.state == .declinedAfterForwarding && declined.error?.code == .cardDeclined)
        #expect(await world.simulator.chargeCount(paymentAttemptID: "order-1") == 0)
    }

    @Test("requireOnline while offline: refused by the router, and onlineOnly fails with noNetwork")
    func requireOnlineWhileOffline() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        let request = SquareWorld.sale("order-1", cents: 10_00)
        let decision = OfflineRouter.decide(request: request, limits: nil, queue: .empty(.offline), network: .offline,
                                            now: world.clock.now())
        guard case .refused(let refusal) = decision else {
            Issue.record("requireOnline offline should be refused, got \(decision)")
            return
        }
        #expect(refusal.code == .offlineNotAllowed)
        let (outcome, _) = try await world.pay("order-1", cents: 10_00, routing: .online)
        #expect(outcome.state == .failed && outcome.error?.code == .networkUnavailable)
        #expect(outcome.error?.vendor?.name == "noNetwork")
        #expect(await world.simulator.devicePayments.isEmpty)
        #expect(await world.simulator.serverPayments.isEmpty)
    }

    @Test("forceOffline while online: stored, not sent, until sync")
    func forceOfflineWhileOnline() async throws {
        let world = try await SquareWorld()
        let (outcome, _) = try await world.pay("order-1", cents: 10_00, routing: .offline)
        #expect(outcome.state == .storedOffline && outcome.localID != nil)
        #expect(await world.simulator.serverPayments.isEmpty)
        await world.simulator.syncUntilIdle()
        #expect(await world.simulator.chargeCount(paymentAttemptID: "order-1") == 1)
    }

    @Test("autoDetect falls back offline when the request fails, and goes online otherwise")
    func autoDetect() async throws {
        let world = try await SquareWorld()
        let (online, _) = try await world.pay("order-1", cents: 10_00, routing: .onlineWithOfflineFallback)
        #expect(online.state == .succeeded && online.route == .online)
        await world.simulator.setNetwork(.flaky(failureRate: 1))
        let (fallback, _) = try await world.pay("order-2", cents: 10_00, routing: .onlineWithOfflineFallback)
        #expect(fallback.state == .storedOffline && fallback.route == .offline)
        let (strict, _) = try await world.pay("order-3", cents: 10_00, routing: .online)
        #expect(strict.state == .failed && strict.error?.code == .networkUnavailable)
        #expect(await world.simulator.syncOfflinePayments() == 0, "every upload request fails")
    }

    @Test("over the seller's per-payment limit: refused by the router and by Square")
    func overTransactionLimit() async throws {
        let world = try await SquareWorld()
        let capabilities = await world.processor.capabilities()
        let limits = OfflineRiskLimits.single(perPayment: Money(minorUnits: 1_000_00, currency: .usd),
                                              storedTotal: Money(minorUnits: 5_000_00, currency: .usd))
            .merged(with: capabilities.offlineLimits, source: .processor("square"))
        var request = SquareWorld.sale("order-1", cents: 250_00)
        request.offlinePolicy = .forceOffline
        let decision = OfflineRouter.decide(request: request, limits: limits, queue: .empty(.offline),
                                            network: .offline, now: world.clock.now())
        guard case .refused(let refusal) = decision else {
            Issue.record("expected a refusal, got \(decision)")
            return
        }
        #expect(refusal.code == .offlinePaymentLimitExceeded && refusal.limit?.source == .processor("square"))
        let (outcome, _) = try await world.pay("order-1", cents: 250_00, routing: .offline)
        #expect(outcome.state == .failed && outcome.error?.code == .offlinePaymentLimitExceeded)
        #expect(outcome.error?.vendor?.name == "offlineTransactionAmountExceeded")
    }

    @Test("over the seller's stored-total limit: offlineStoredAmountExceeded")
    func overStoredTotal() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        for index in 0..<2 {
            let (stored, _) = try await world.pay("order-\(index)", cents: 190_00, routing: .offline)
            #expect(stored.state == .storedOffline)
        }
        let (outcome, _) = try await world.pay("order-2", cents: 190_00, routing: .offline)
        #expect(outcome.state == .failed && outcome.error?.code == .offlineStoredTotalExceeded)
        #expect(outcome.error?.vendor?.name == "offlineStoredAmountExceeded")
        #expect(await world.simulator.devicePayments.count == 2)
    }

    @Test("Interac offline: refused at the reader (default) or failing at processing (configured)")
    func interacOffline() async throws {
        let world = try await SquareWorld()
        await world.simulator.setPresentedCard(.interac)
        let (online, _) = try await world.pay("order-0", cents: 10_00)
        #expect(online.state == .succeeded && online.card?.brand == .interac)
        let (refused, _) = try await world.pay("order-1", cents: 10_00, routing: .offline)
        #expect(refused.state == .canceled)
        #expect(await world.simulator.devicePayments.isEmpty)

        var configuration = SquareSimulator.Configuration()
        configuration.interacOffline = .failsToProcess
        let other = try await SquareWorld(configuration: configuration)
        await other.simulator.setPresentedCard(.interac)
        let (stored, _) = try await other.pay("order-1", cents: 10_00, routing: .offline)
        #expect(stored.state == .storedOffline)
        await other.simulator.syncUntilIdle()
        await other.processor.refreshOfflineQueue()
        #expect(other.forwarded.first?.state == .declinedAfterForwarding)
        #expect(await other.simulator.chargeCount(paymentAttemptID: "order-1") == 0)
    }

    @Test("magstripe offline is not available; online it is")
    func magstripeOffline() async throws {
        let world = try await SquareWorld()
        await world.simulator.setPresentedCard(.swipedVisa)
        await world.simulator.setNetwork(.offline)
        let (offline, _) = try await world.pay("order-1", cents: 10_00, routing: .offline)
        #expect(offline.state == .canceled)
        #expect(await world.simulator.devicePayments.isEmpty)
        await world.simulator.setNetwork(.online)
        let (online, _) = try await world.pay("order-2", cents: 10_00)
        #expect(online.state == .succeeded && online.card?.entryMethod == .swiped)
    }

    // MARK: Readers

    @Test("connect while offline: a new reader fails, a reader connected online before passes")
    func connectWhileOffline() async throws {
        let clock = ManualClock()
        let simulator = SquareSimulator(sellers: TestSellers.all, seed: 3, clock: clock)
        try await simulator.authorize(withAccessToken: "tok-A", locationID: "LA1")
        let processor = SquareProcessor(client: simulator, captureService: UnusedCaptureService())
        await simulator.addNearbyReader()
        await simulator.setNetwork(.offline)
        let discovered = try await processor.discoverReaders(timeout: 5)
        let reader = try #require(discovered.first)
        do {
            _ = try await processor.connectReader(reader, locationID: "LA1")
            Issue.record("a new reader connected offline")
        } catch let error as PaymentError {
            #expect(error.code == .readerOfflineConnectionRefused && error.recovery == .goOnline)
        }
        await simulator.setNetwork(.online)
        let connected = try await processor.connectReader(reader, locationID: "LA1")
        #expect(connected.id == reader.id && connected.locationID == "LA1")
        await simulator.setNetwork(.offline)
        _ = try await processor.connectReader(reader, locationID: "LA1")
        await #expect(throws: PaymentError.self) { _ = try await processor.connectReader(reader, locationID: "LA2") }
    }

    @Test("pairing needs authorization; pairing errors are mapped")
    func pairingErrors() async throws {
        let simulator = SquareSimulator(sellers: TestSellers.all, seed: 3, clock: ManualClock())
        let processor = SquareProcessor(client: simulator, captureService: UnusedCaptureService())
        do {
            _ = try await processor.discoverReaders(timeout: 1)
            Issue.record("pairing without authorization succeeded")
        } catch let error as PaymentError {
            #expect(error.code == .notAuthorized && error.vendor?.name == "notAuthorized")
        }
        try await simulator.authorize(withAccessToken: "tok-A", locationID: "LA1")
        do {
            _ = try await processor.discoverReaders(timeout: 1)
            Issue.record("pairing with no reader in range succeeded")
        } catch let error as PaymentError {
            #expect(error.code == .readerConnectionFailed && error.vendor?.name == "timedOut")
        }
    }

    @Test("reader disconnect mid-payment: outcome unknown, nothing charged, retried once after reconnecting")
    func readerDisconnectMidPayment() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.cardPresentation = .waitForPresentCard
        let world = try await SquareWorld(configuration: configuration)
        async let payment = world.pay("order-1", cents: 25_00)
        await world.waitForPaymentInProgress()
        await world.simulator.disconnectReader(reason: .bluetoothFailure)
        let (outcome, states) = try await payment
        #expect(states == [.collecting])
        #expect(outcome.state == .outcomeUnknown && outcome.error?.code == .timedOut)
        #expect(world.emitter.emitted.contains(.readerDisconnected(.linkLost)))
        #expect(try await world.processor.lookUpPayment(reference: "order-1", localID: nil, processorPaymentID: nil)
            == .notFound)
        let (blocked, _) = try await world.pay("order-1", cents: 25_00,
                                               attempt: PaymentAttempt(number: 2, previousState: .failed))
        #expect(blocked.state == .failed && blocked.error?.code == .readerConnectionFailed)

        let reader = try #require(try await world.processor.discoverReaders(timeout: 1).first)
        _ = try await world.processor.connectReader(reader, locationID: "LA1")
        await world.simulator.configure { $0.cardPresentation = .immediate }
        let (retry, _) = try await world.pay("order-1", cents: 25_00,
                                             attempt: PaymentAttempt(number: 3, previousState: .failed))
        #expect(retry.state == .succeeded)
        #expect(await world.simulator.chargeCount(paymentAttemptID: "order-1") == 1)
    }

    @Test("reader events: battery, a blocking firmware update with progress, a failed update")
    func readerEvents() async throws {
        let world = try await SquareWorld()
        let reader = try #require(await world.simulator.readers.first)
        await world.simulator.setBattery(reader.id, percentage: 15, isCharging: true)
        await world.simulator.announceFirmwareUpdate(reader.id, blocking: true)
        let (blocked, _) = try await world.pay("order-1", cents: 5_00)
        #expect(blocked.state == .failed && blocked.error?.code == .readerUpdateRequired)
        await world.simulator.advanceFirmwareUpdate(reader.id, toPercent: 50)
        await world.simulator.advanceFirmwareUpdate(reader.id, toPercent: 100)
        let events = world.emitter.emitted
        #expect(events.contains(.batteryLevelChanged(level: 0.15, isCharging: true)))
        #expect(events.contains { if case .softwareUpdateAvailable(let update) = $0 { update.isRequired } else { false } })
        #expect(events.contains(.softwareUpdateProgress(0.5)))
        #expect(events.contains(.softwareUpdateFinished(nil)))
        #expect(events.contains(.readerDisconnected(.rebooted)))
        #expect(events.last == .readerConnectionChanged(.connected))
        let (after, _) = try await world.pay("order-1", cents: 5_00, attempt: PaymentAttempt(number: 2, previousState: .failed))
        #expect(after.state == .succeeded)

        await world.simulator.announceFirmwareUpdate(reader.id, blocking: true)
        await world.simulator.failFirmwareUpdate(reader.id)
        #expect(world.emitter.emitted.contains {
            if case .softwareUpdateFinished(let error?) = $0 { error.code == .readerUpdateFailed } else { false }
        })
    }

    // MARK: Retries and recovery

    @Test("a timeout after Square charged: outcome unknown, then recovered without a second charge")
    func timeoutAfterCharge() async throws {
        let world = try await SquareWorld()
        await world.simulator.injectFault(.timeoutAfterServerCharge)
        let (first, _) = try await world.pay("order-1", cents: 18_00)
        #expect(first.state == .outcomeUnknown && first.error?.code == .timedOut)
        #expect(await world.simulator.chargeCount(paymentAttemptID: "order-1") == 1)
        guard case .found(let found) = try await world.processor.lookUpPayment(
            reference: "order-1", localID: nil, processorPaymentID: nil) else {
            Issue.record("the charge should be found")
            return
        }
        #expect(found.state == .succeeded)
        let (retry, states) = try await world.pay("order-1", cents: 18_00,
                                                  attempt: PaymentAttempt(number: 2, previousState: .outcomeUnknown))
        #expect(retry.state == .succeeded && retry.processorPaymentID == found.processorPaymentID)
        #expect(states.isEmpty, "found by lookup, Square was not asked to charge")
        // Even a retry that does not say the outcome was unknown is refused by Square and looked up.
        let (blind, _) = try await world.pay("order-1", cents: 18_00, attempt: PaymentAttempt(number: 2))
        #expect(blind.state == .succeeded)
        #expect(await world.simulator.chargeCount(paymentAttemptID: "order-1") == 1)
    }

    @Test("a timeout before Square was reached: not found, retried once")
    func timeoutBeforeCharge() async throws {
        let world = try await SquareWorld()
        await world.simulator.injectFault(.timeoutBeforeServerCharge)
        let (first, _) = try await world.pay("order-1", cents: 18_00)
        #expect(first.state == .outcomeUnknown)
        #expect(try await world.processor.lookUpPayment(reference: "order-1", localID: nil, processorPaymentID: nil)
            == .notFound)
        let (retry, _) = try await world.pay("order-1", cents: 18_00,
                                             attempt: PaymentAttempt(number: 2, previousState: .outcomeUnknown))
        #expect(retry.state == .succeeded)
        #expect(await world.simulator.chargeCount(paymentAttemptID: "order-1") == 1)
    }

    @Test("a retry whose earlier outcome cannot be checked offline stays unknown, never charged again")
    func retryOfflineUnknown() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.timingOut)
        let (first, _) = try await world.pay("order-1", cents: 18_00, routing: .onlineWithOfflineFallback)
        #expect(first.state == .outcomeUnknown)
        await world.simulator.setNetwork(.offline)
        do {
            _ = try await world.pay("order-1", cents: 18_00, routing: .offline,
                                    attempt: PaymentAttempt(number: 2, previousState: .outcomeUnknown))
            Issue.record("a retry that cannot be checked must not go ahead")
        } catch let error as PaymentError {
            #expect(error.code == .outcomeUnknown && error.phase == .reconciliation)
        }
        #expect(await world.simulator.devicePayments.isEmpty)
        #expect(await world.simulator.getIdempotencyKey(withPaymentAttemptId: "order-1") != nil)
    }

    @Test("a reused attempt id is refused: same sale found, another sale's amount is a duplicate reference")
    func reusedAttemptID() async throws {
        let world = try await SquareWorld()
        _ = try await world.pay("order-1", cents: 10_00)
        let (other, _) = try await world.pay("order-1", cents: 20_00)
        #expect(other.state == .failed && other.error?.code == .duplicateReference)
        #expect(other.error?.vendor?.name == "paymentAttemptIdReused")
        let (same, _) = try await world.pay("order-1", cents: 10_00)
        #expect(same.state == .succeeded)
        #expect(await world.simulator.chargeCount(paymentAttemptID: "order-1") == 1)
        #expect(await world.simulator.serverPayments.count == 1)
    }

    @Test("a second payment while one is in progress is refused; the first can be canceled")
    func paymentAlreadyInProgress() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.cardPresentation = .waitForPresentCard
        let world = try await SquareWorld(configuration: configuration)
        async let first = world.pay("order-1", cents: 10_00)
        await world.waitForPaymentInProgress()
        let (second, _) = try await world.pay("order-2", cents: 10_00)
        #expect(second.state == .failed && second.error?.code == .paymentInProgress)
        try await world.processor.cancelPayment(reference: "order-1")
        let (canceled, states) = try await first
        #expect(canceled.state == .canceled && states == [.collecting])
        await #expect(throws: PaymentError.self) { try await world.processor.cancelPayment(reference: "order-1") }
        #expect(await world.simulator.serverPayments.isEmpty)
    }

    @Test("a card presented after waiting completes the payment")
    func presentCardLater() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.cardPresentation = .waitForPresentCard
        let world = try await SquareWorld(configuration: configuration)
        async let payment = world.pay("order-1", cents: 10_00)
        await world.waitForPaymentInProgress()
        await world.simulator.presentCard(.mastercardContactless)
        let (outcome, states) = try await payment
        #expect(outcome.state == .succeeded && states == [.collecting, .processing])
        #expect(outcome.card?.brand == .mastercard)
    }

    @Test("Square errors at start are mapped; a future SDK's error falls back to outcome unknown",
          arguments: [Square.PaymentError.locationPermissionNeeded, .trackingConsentIsPending,
                      .deviceTimeDoesNotMatchServerTime, .unsupportedMode, .unexpected])
    func startErrors(error: Square.PaymentError) async throws {
        let world = try await SquareWorld()
        await world.simulator.injectFault(.error(error))
        let (outcome, _) = try await world.pay("order-1", cents: 10_00)
        #expect(outcome.state == .failed)
        #expect(outcome.error?.code == error.tenderError.code && outcome.error?.vendor?.name == error.caseName)
        await world.simulator.injectFault(.unrecognizedError("paymentFutureCase"))
        let (future, _) = try await world.pay("order-2", cents: 10_00)
        #expect(future.state == .outcomeUnknown && future.error?.code == .unrecognizedVendorError)
    }

    @Test("a currency Square does not take fails before the SDK is called")
    func unsupportedCurrency() async throws {
        let world = try await SquareWorld()
        let request = PaymentRequest(amount: Money(minorUnits: 1_000, currency: .kwd), reference: "order-1")
        let outcome = try await world.processor.startPayment(request, routing: .online, attempt: PaymentAttempt(),
                                                             updates: { _ in })
        #expect(outcome.state == .failed && outcome.error?.code == .invalidCurrency)
        #expect(await world.simulator.getIdempotencyKey(withPaymentAttemptId: "order-1") == nil)
    }

    // MARK: Capture after forwarding

    @Test("manual capture after forwarding: stored, forwarded as approved, then captured")
    func manualCaptureAfterForwarding() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        let (stored, _) = try await world.pay("order-1", cents: 60_00, routing: .offline, capture: .manual)
        #expect(stored.state == .storedOffline)
        await world.simulator.setNetwork(.online)
        await world.simulator.syncUntilIdle()
        await world.processor.refreshOfflineQueue()
        let forwarded = try #require(world.forwarded.first)
        #expect(forwarded.state == .forwarded)
        let id = try #require(forwarded.processorPaymentID)
        #expect(await world.simulator.serverPayments.first?.status == .approved)
        let captured = try await world.processor.capturePayment(reference: "order-1", processorPaymentID: id,
                                                                amount: Money(minorUnits: 60_00, currency: .usd))
        #expect(captured.state == .succeeded)
        #expect(await world.simulator.serverPayments.first?.status == .completed)
        guard case .found(let found) = try await world.processor.lookUpPayment(
            reference: "order-1", localID: stored.localID, processorPaymentID: id) else {
            Issue.record("the forwarded payment should be found on the server")
            return
        }
        #expect(found.state == .forwarded && found.route == .offline)
    }

    // MARK: Sellers, limits, windows

    @Test("two sellers on one device never see each other's queue")
    func twoSellers() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        _ = try await world.pay("a-1", cents: 10_00, routing: .offline)
        await world.simulator.setNetwork(.online)
        do {
            try await world.processor.deauthorize()
            Issue.record("signing out with queued payments was allowed")
        } catch {
            #expect(error.code == .unforwardedPaymentsAtRisk)
        }
        try await world.processor.deauthorize(acceptingLossOfQueuedPayments: true)
        try await world.processor.authorize(accessToken: "tok-B", locationID: "LB")
        let queueB = try await world.processor.queueSnapshot()
        #expect(queueB.payments.isEmpty && queueB.storedCount == 0)
        #expect(try await world.processor.lookUpPayment(reference: "a-1", localID: nil, processorPaymentID: nil)
            == .notFound, "seller B's server holds nothing for seller A's reference")
        await world.simulator.syncUntilIdle()
        #expect(await world.simulator.serverPayments.isEmpty, "seller A's payment does not upload under seller B")
        try await world.processor.deauthorize()
        try await world.processor.authorize(accessToken: "tok-A", locationID: "LA1")
        #expect(try await world.processor.queueSnapshot().payments.map(\.reference) == ["a-1"],
                "queued payments remain after signing out (the seed); dropping them is configurable")
        do {
            try await world.processor.authorize(accessToken: "tok-B", locationID: "LB")
            Issue.record("authorized twice")
        } catch {
            #expect(error.code == .invalidState && error.vendor?.name == "alreadyAuthorized")
        }
    }

    @Test("when deauthorize is configured to drop the queue, the seller's queued payments are gone")
    func deauthorizeDropsQueue() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.deauthorizeDropsQueue = true
        let world = try await SquareWorld(configuration: configuration)
        _ = try await world.pay("a-1", cents: 10_00, routing: .offline)
        try await world.processor.deauthorize(acceptingLossOfQueuedPayments: true)
        try await world.processor.authorize(accessToken: "tok-A", locationID: "LA1")
        #expect(try await world.processor.queueSnapshot().payments.isEmpty)
    }

    @Test("a queued payment expires after the 24-hour window; the reader stops taking offline payments")
    func expiresAfterWindow() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        _ = try await world.pay("order-1", cents: 10_00, routing: .offline)
        world.clock.advance(by: 25 * 60 * 60)
        let (late, _) = try await world.pay("order-2", cents: 10_00, routing: .offline)
        #expect(late.state == .failed && late.error?.code == .readerOfflineConnectionRefused)
        await world.simulator.setNetwork(.online)
        await world.simulator.syncUntilIdle()
        await world.processor.refreshOfflineQueue()
        let expired = try #require(world.forwarded.first)
        #expect(expired.state == .failedToForward && expired.error?.code == .forwardingFailed)
        #expect(expired.reference == "order-1")
        #expect(await world.simulator.chargeCount(paymentAttemptID: "order-1") == 0)
    }

    @Test("capabilities: the seller's limits, the window and the cap; nil when not opted in or Sandbox")
    func capabilities() async throws {
        let world = try await SquareWorld()
        let limits = try #require(await world.processor.capabilities().offlineLimits)
        #expect(limits.perPaymentMaximum == [.usd: 200_00] && limits.storedTotalMaximum == [.usd: 500_00])
        #expect(limits.storedAgeMaximum == 86_400 && limits.storedCountMaximum == 1000)
        #expect(await world.processor.capabilities().supportedCurrencies?.count == 6)
        let notOptedIn = try await SquareWorld(token: "tok-N", location: "LN")
        #expect(await notOptedIn.processor.capabilities().offlineLimits == nil)
        let (refused, _) = try await notOptedIn.pay("order-1", cents: 10_00, routing: .offline)
        #expect(refused.error?.code == .offlineUnavailable)
        #expect(refused.error?.vendor?.name == "merchantNotOptedIntoOfflineProcessing")
    }

    @Test("Sandbox refuses offline and has no offline queue")
    func sandbox() async throws {
        let world = try await SquareWorld(token: "tok-S", location: "LS")
        #expect(await world.processor.capabilities().offlineLimits == nil)
        #expect(try await world.processor.queueSnapshot().payments.isEmpty)
        await world.simulator.addNearbyReader()
        await #expect(throws: PaymentError.self) { _ = try await world.processor.discoverReaders(timeout: 1) }
    }

    @Test("after a restart, the adapter over the restored simulator finds and forwards the stored payment")
    func restart() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        let (stored, _) = try await world.pay("order-1", cents: 10_00, routing: .offline)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("square-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try await world.simulator.persist(to: SimulatorStateFile(url: url))

        let restored = try SquareSimulator(restoringFrom: SimulatorStateFile(url: url), clock: world.clock)
        let emitter = ProcessorEventEmitter(keepingHistory: true)
        let processor = SquareProcessor(client: restored, captureService: restored.server, lookup: restored.server,
                                        emitter: emitter)
        guard case .found(let found) = try await processor.lookUpPayment(
            reference: "order-1", localID: stored.localID, processorPaymentID: nil) else {
            Issue.record("the stored payment should survive the restart")
            return
        }
        #expect(found.state == .storedOffline && found.localID == stored.localID)
        await restored.syncUntilIdle()
        await processor.refreshOfflineQueue()
        #expect(emitter.emitted.contains { if case .paymentForwarded(let u) = $0 { u.state == .forwarded } else { false } })
        #expect(await restored.chargeCount(paymentAttemptID: "order-1") == 1)
    }

    @Test("events() is the emitter's stream: the core sees network and reader changes")
    func eventStream() async throws {
        let world = try await SquareWorld()
        var events = world.processor.events().makeAsyncIterator()
        #expect(await events.next() == .networkStatusChanged(.online), "the status at start, not only changes")
        await world.simulator.setNetwork(.offline)
        #expect(await events.next() == .networkStatusChanged(.offline))
        let reader = try #require(await world.simulator.readers.first)
        await world.simulator.setBattery(reader.id, percentage: 40, isCharging: false)
        #expect(await events.next() == .batteryLevelChanged(level: 0.4, isCharging: false))
    }

    @Test("on a flaky network, uploads fail and are retried by later sync steps until every payment is processed")
    func flakyForwarding() async throws {
        let world = try await SquareWorld(seed: 11)
        await world.simulator.setNetwork(.offline)
        for index in 0..<4 {
            let (stored, _) = try await world.pay("order-\(index)", cents: 5_00, routing: .offline)
            #expect(stored.state == .storedOffline)
        }
        await world.simulator.setNetwork(.flaky(failureRate: 0.5))
        var steps = 0
        while try await world.processor.queueSnapshot().payments.contains(where: { $0.status != .forwarded }),
              steps < 40 {
            await world.simulator.syncOfflinePayments(maxCount: 1)
            steps += 1
        }
        #expect(steps > 8, "one payment moves at most one step per sync, and some requests fail")
        #expect(Set(world.forwarded.map(\.reference)) == ["order-0", "order-1", "order-2", "order-3"])
        #expect(world.forwarded.allSatisfy { $0.state == .forwarded })
        for index in 0..<4 { #expect(await world.simulator.chargeCount(paymentAttemptID: "order-\(index)") == 1) }
    }

    @Test("once processed payments leave the device, the lookup finds them on the server")
    func lookUpAfterRemoval() async throws {
        let world = try await SquareWorld()
        let (stored, _) = try await world.pay("order-1", cents: 10_00, routing: .offline)
        await world.simulator.syncUntilIdle()
        await world.simulator.syncOfflinePayments()
        #expect(await world.simulator.devicePayments.isEmpty)
        guard case .found(let found) = try await world.processor.lookUpPayment(
            reference: "order-1", localID: stored.localID, processorPaymentID: nil) else {
            Issue.record("the processed payment should be found on the server")
            return
        }
        #expect(found.state == .forwarded && found.localID == stored.localID)
        #expect(found.processorPaymentID == (await world.simulator.serverPayments.first?.id))
        #expect(try await world.processor.lookUpPayment(reference: "never-taken", localID: nil, processorPaymentID: nil)
            == .notFound)
    }

    @Test("no mirrored type carries more than the last four digits")
    func noCardNumbers() {
        let card = Square.Card(cardBrand: .visa, last4: "4111111111111111", expMonth: 1, expYear: 2030)
        #expect(card.last4 == nil)
        #expect(Square.OfflineCard(cardBrand: .visa, last4: "411111").last4 == nil)
        #expect(Square.OfflineCard(cardBrand: .visa, last4: "1111").last4 == "1111")
        let simulated = SquareSimulator.SimulatedCard(brand: .visa, last4: "4111111111111111", entryMethod: .emv)
        #expect(simulated.last4 == "0000")
    }

    @Test("upload faults: a rejected upload fails to forward, an unverifiable one is retried")
    func uploadFaults() async throws {
        let world = try await SquareWorld()
        _ = try await world.pay("order-1", cents: 10_00, routing: .offline)
        _ = try await world.pay("order-2", cents: 10_00, routing: .offline)
        await world.simulator.injectUploadFault(.rejected)
        await world.simulator.injectUploadFault(.unverifiable)
        await world.simulator.syncOfflinePayments()
        let snapshot = try await world.processor.queueSnapshot()
        #expect(snapshot.payments.map(\.status) == [.failedToForward, .unknown])
        #expect(snapshot.storedCount == 1, "an unknown payment still counts against the limits")
        #expect(world.forwarded.map(\.state) == [.failedToForward])
        await world.simulator.syncUntilIdle()
        await world.processor.refreshOfflineQueue()
        #expect(world.forwarded.map(\.state) == [.failedToForward, .forwarded])
        #expect(world.forwarded.last?.reference == "order-2")
        #expect(await world.simulator.chargeCount(paymentAttemptID: "order-1") == 0)
    }

    @Test("a chip read reports the card inserted and removed; readers over the simulator are simulated")
    func chipMessages() async throws {
        let world = try await SquareWorld()
        _ = try await world.pay("order-1", cents: 10_00)
        #expect(world.emitter.emitted.contains(.readerMessage(.cardInserted)))
        #expect(world.emitter.emitted.contains(.readerMessage(.cardRemoved)))
        #expect(try await world.processor.discoverReaders(timeout: 1).allSatisfy(\.isSimulated))
        #expect(await world.simulator.readers.first?.cardInsertionStatus == .notInserted)
    }

    @Test("without a lookup service, an attempt Square may hold is unknown, never assumed uncharged")
    func lookUpWithoutService() async throws {
        let (simulator, _) = try await authorizedSimulator()
        let processor = SquareProcessor(client: simulator, captureService: UnusedCaptureService())
        await simulator.injectFault(.timeoutAfterServerCharge)
        let outcome = try await processor.startPayment(SquareWorld.sale("order-1", cents: 10_00), routing: .online,
                                                       attempt: PaymentAttempt(), updates: { _ in })
        #expect(outcome.state == .outcomeUnknown)
        #expect(try await processor.lookUpPayment(reference: "order-1", localID: nil, processorPaymentID: nil) == .unknown)
        #expect(try await processor.lookUpPayment(reference: "order-2", localID: nil, processorPaymentID: nil) == .notFound)
    }

    @Test("end to end through PaymentTerminal: online, offline under Square's limits, forwarded")
    func throughTerminal() async throws {
        let world = try await SquareWorld()
        let terminal = PaymentTerminal(
            processor: world.processor, scope: LedgerScope(merchantID: "MA", locationID: "LA1"),
            limits: .single(perPayment: Money(minorUnits: 1_000_00, currency: .usd),
                            storedTotal: Money(minorUnits: 5_000_00, currency: .usd), storedCount: 50),
            clock: world.clock)
        let online = try await terminal.takePayment(SquareWorld.sale("order-1", cents: 12_00))
        #expect(online.state == .succeeded)

        await world.simulator.setNetwork(.offline)
        await terminal.handle(.networkStatusChanged(.offline))
        var offlineSale = SquareWorld.sale("order-2", cents: 30_00)
        offlineSale.offlinePolicy = .preferOnline
        let stored = try await terminal.takePayment(offlineSale)
        #expect(stored.state == .storedOffline && stored.localID != nil)
        var tooBig = SquareWorld.sale("order-3", cents: 250_00)
        tooBig.offlinePolicy = .preferOnline
        do {
            _ = try await terminal.takePayment(tooBig)
            Issue.record("a sale over Square's offline limit was taken")
        } catch let error as PaymentError {
            #expect(error.code == .offlinePaymentLimitExceeded && error.limit?.source == .processor("square"))
        }

        await world.simulator.setNetwork(.online)
        await world.simulator.syncUntilIdle()
        await world.processor.refreshOfflineQueue()
        for event in world.emitter.emitted {
            if case .paymentForwarded = event { await terminal.handle(event) }
        }
        let forwarded = try #require(try await terminal.session(reference: "order-2"))
        #expect(forwarded.state == .forwarded)
        #expect(forwarded.processorPaymentID == (await world.simulator.serverPayments.last?.id))
        #expect(await world.simulator.chargeCount(paymentAttemptID: "order-2") == 1)
    }
}
