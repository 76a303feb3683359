import Foundation
import Tender
@_spi(Testing) import TenderStripe
import TenderStripeSimulator
import Testing
import TenderTesting

@Suite("Stripe processor")
struct StripeProcessorTests {
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
            await simulator.configure { $0.simulatedCard = card }
            await simulator.setSimulatedOfflineMode(mode)
            let request = sale(reference, cents: 500 + Int64(index), capture: capture)
            var result = try await pay(processor, request, routing: routing)
            if result.state == .outcomeUnknown {
                await simulator.setSimulatedOfflineMode(.disabled)
                result = try await pay(processor, request, routing: routing, attempt: continuing(result))
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

    @Test("online approve: collecting then processing, succeeded, one charge, receipt details, no on-reader tip")
    func onlineApprove() async throws {
        let (simulator, clock) = makeSimulator { $0.simulatedTipAmount = 200 }
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
        #expect(charge.amount == 1_000, "the adapter skips Stripe's on-reader tipping")
        #expect(charge.metadata["tender_reference"] == "S-1")
        #expect(charge.metadata["tender_attempt"] == "1")
        #expect(charge.metadata["lane"] == "1")
        #expect(processor.emittedEvents.contains(.readerInputRequested([.swipe, .insert, .tap])))
        #expect(await processor.networkStatus() == .online)
    }

    @Test("each decline card is declined online with its decline code and no charge",
          arguments: Stripe.SimulatedCardType.declineCards)
    func declineCards(_ card: Stripe.SimulatedCardType) async throws {
        let (simulator, clock) = makeSimulator { $0.simulatedCard = card }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let reference = "D-\(card.rawValue.prefix(20))"
        let result = try await pay(processor, sale(reference))
        #expect(result.state == .declined)
        #expect(result.error?.code == .cardDeclined)
        #expect(result.error?.recovery == .collectAnotherCard)
        #expect(result.error?.vendor?.declineCode == card.declineCode)
        #expect(await simulator.chargeCount(reference: reference) == 0)
        #expect(await simulator.serverCharges.filter { $0.status == .failed }.count == 1)
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
        #expect(stored.card?.brand == .visa)
        #expect(stored.card?.authorizationCode == nil)
        #expect(processor.emittedEvents.contains(.readerInputRequested([.insert, .tap])))
        #expect(await processor.networkStatus() == .offline)
        #expect(await simulator.chargeCount(reference: "O-1") == 0)

        await simulator.setSimulatedOfflineMode(.disabled)
        await simulator.forwardPendingPayments()
        let forwarded = try #require(forwardedUpdates(processor).first)
        #expect(forwarded.reference == "O-1")
        #expect(forwarded.state == .forwarded)
        #expect(forwarded.processorPaymentID?.hasPrefix("pi_") == true)
        #expect(await simulator.chargeCount(reference: "O-1") == 1)
        #expect(processor.emittedEvents.contains(.networkStatusChanged(.online)))
    }

    @Test("offline: a decline card is stored, then declined when forwarded")
    func offlineDeclineAtForward() async throws {
        let (simulator, clock) = makeSimulator { $0.simulatedCard = .chargeDeclinedInsufficientFunds }
        let processor = try await connectedProcessor(simulator, clock: clock)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let stored = try await pay(processor, sale("O-2"), routing: .offline)
        #expect(stored.state == .storedOffline)
        await simulator.configure { $0.forwardsWhenNetworkReturns = true }
        await simulator.setSimulatedOfflineMode(.disabled)
        let forwarded = try #require(forwardedUpdates(processor).first)
        #expect(forwarded.state == .declinedAfterForwarding)
        #expect(forwarded.error?.code == .cardDeclined)
        #expect(forwarded.error?.vendor?.declineCode == "insufficient_funds")
        #expect(await simulator.chargeCount(reference: "O-2") == 0)
        guard case .found(let update) = try await processor.lookUpPayment(query(stored, since: clock.now())) else {
            Issue.record("not found"); return
        }
        #expect(update.state == .declinedAfterForwarding)
    }

    @Test("† test amounts: declined online, and offline at forwarding, by the amount's final digits",
          arguments: [(Int64(1_001), "call_issuer"), (1_005, "generic_decline"), (1_055, "incorrect_pin"),
                      (1_065, "withdrawal_count_limit_exceeded"), (1_075, "pin_try_exceeded"), (1_000, nil)])
    func testAmounts(_ cents: Int64, _ declineCode: String?) async throws {
        let (simulator, clock) = makeSimulator { $0.declinesByTestAmount = true }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let online = try await pay(processor, sale("TA-\(cents)", cents: cents))
        #expect(online.state == (declineCode == nil ? .succeeded : .declined))
        #expect(online.error?.vendor?.declineCode == declineCode)
        let stored = try await pay(processor, sale("TO-\(cents)", cents: cents, policy: .forceOffline), routing: .offline)
        #expect(stored.state == .storedOffline)
        await simulator.forwardPendingPayments()
        let forwarded = try #require(forwardedUpdates(processor).first)
        #expect(forwarded.state == (declineCode == nil ? .forwarded : .declinedAfterForwarding))
        #expect(forwarded.error?.vendor?.declineCode == declineCode)
    }

    @Test("requireOnline while offline fails without storing; forceOffline disabled is a configuration error")
    func onlineOnlyAndDisabledOffline() async throws {
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

        let (disabled, disabledClock) = makeSimulator(offlineEnabled: false)
        let other = try await connectedProcessor(disabled, clock: disabledClock)
        let refused = try await pay(other, sale("Q-1"), routing: .offline)
        #expect(refused.state == .failed)
        #expect(refused.error?.code == .offlineUnavailable)
        #expect(refused.error?.vendor?.numericCode == 10107)
    }

    @Test("over the 10,000 USD offline maximum is refused; at it, stored")
    func overOfflineMaximum() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let result = try await pay(processor, sale("M-1", cents: 1_000_001, policy: .forceOffline), routing: .offline)
        #expect(result.state == .failed)
        #expect(result.error?.code == .offlinePaymentLimitExceeded)
        #expect(result.error?.recovery == .goOnline)
        #expect(await simulator.storedPayments.isEmpty)
        let atLimit = try await pay(processor, sale("M-2", cents: 1_000_000, policy: .forceOffline), routing: .offline)
        #expect(atLimit.state == .storedOffline)
    }

    @Test("refused offline: Interac and online PIN ask for another card; a swipe asks for the same card inserted",
          arguments: [
              (Stripe.SimulatedCardType.interac, Stripe.ReadMethod.contactEMV, 6901, PaymentError.Recovery.collectAnotherCard),
              (.visa, .magneticStripeTrack2, 6900, .retrySamePayment),
              (.visa, .magneticStripeFallback, 6900, .retrySamePayment),
              (.onlinePinCvm, .contactEMV, 6905, .collectAnotherCard),
          ])
    func refusedOffline(_ card: Stripe.SimulatedCardType, _ method: Stripe.ReadMethod, _ code: Int,
                        _ recovery: PaymentError.Recovery) async throws {
        let (simulator, clock) = makeSimulator {
            $0.simulatedCard = card
            $0.simulatedReadMethod = method
        }
        let processor = try await connectedProcessor(simulator, clock: clock)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let result = try await pay(processor, sale("X-\(code)"), routing: .offline)
        #expect(result.state == .failed)
        #expect(result.error?.code == .cardNotSupportedOffline)
        #expect(result.error?.recovery == recovery)
        #expect(result.error?.vendor?.numericCode == code)
        #expect(await simulator.storedPayments.isEmpty)
    }

    @Test("offline, the reader declines an expired card (6902) or a failed verification (6903): declined, another card")
    func offlineDeclines() async throws {
        for (card, reason, code) in [(Stripe.SimulatedCardType.chargeDeclinedExpiredCard, nil as String?, 6902),
                                     (.visa, "offline_pin_required", 6903)] {
            let (simulator, clock) = makeSimulator {
                $0.simulatedCard = card
                $0.offlineCardDeclineReason = reason
            }
            let processor = try await connectedProcessor(simulator, clock: clock)
            let result = try await pay(processor, sale("OD-\(code)"), routing: .offline)
            #expect(result.state == .declined)
            #expect(result.error?.recovery == .collectAnotherCard)
            #expect(result.error?.vendor?.numericCode == code)
            #expect(await simulator.storedPayments.isEmpty)
        }
    }

    @Test("Interac and swipe are fine online; a CAD intent accepts interac_present")
    func interacOnline() async throws {
        let (simulator, clock) = makeSimulator {
            $0.simulatedCard = .interac
            $0.simulatedReadMethod = .magneticStripeTrack2
        }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let result = try await pay(processor, sale("I-1", currency: .cad))
        #expect(result.state == .succeeded)
        #expect(result.card?.brand == .interac)
        #expect(result.card?.entryMethod == .swiped)
        #expect(await simulator.serverIntents.first?.charges.first?.paymentMethodType == .interacPresent)
    }

    @Test("reader disconnect mid-payment fails the collection and reports the disconnect")
    func readerDisconnectMidPayment() async throws {
        let (simulator, clock) = makeSimulator { $0.cardPresentation = .waitForPresentCard }
        let processor = try await connectedProcessor(simulator, clock: clock, autoReconnect: false)
        let payment = Task { try await pay(processor, sale("X-1")) }
        await eventually { await simulator.paymentStatus == .waitingForInput }
        await simulator.simulateUnexpectedDisconnect(reason: .bluetoothSignalLost)
        let result = try await payment.value
        #expect(result.state == .failed)
        #expect(result.error?.code == .readerDisconnected)
        #expect(result.error?.recovery == .reconnectReader)
        #expect(processor.emittedEvents.contains(.readerDisconnected(.linkLost)))
        #expect(await simulator.connectedReader == nil)
    }

    @Test("capabilities: Stripe's offline maximum only when offline is enabled; partial capture; refunds with a service")
    func capabilities() async throws {
        let (enabled, _) = makeSimulator(offlineEnabled: true)
        let (disabled, _) = makeSimulator(offlineEnabled: false)
        let on = await StripeProcessor(client: enabled, captureService: RecordingCaptureService(),
                                       refundService: enabled.server).capabilities()
        let off = await StripeProcessor(client: disabled, captureService: RecordingCaptureService()).capabilities()
        #expect(on.processorName == "stripe")
        #expect(on.offlineLimits?.perPaymentMaximum[.usd] == 1_000_000)
        #expect(off.offlineLimits == nil)
        #expect(on.supportsManualCapture && on.supportsPartialCapture && on.supportsMetadata)
        #expect(on.supportsRefunds)
        #expect(!off.supportsRefunds)
    }

    @Test("a refused routing decision never reaches Stripe")
    func refusedRouting() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let refusal = PaymentError(.offlineStoredTotalExceeded, recovery: .goOnline, phase: .routing, message: "full")
        let result = try await pay(processor, sale("Z-1"), routing: .refused(refusal))
        #expect(result.state == .failed)
        #expect(result.error == refusal)
        #expect(await simulator.serverIntents.isEmpty)
    }

    @Test("discovery: simulated readers only when asked (the SDK's builders look for real ones)")
    func realReadersByDefault() async throws {
        let (simulator, clock) = makeSimulator()
        let real = StripeProcessor(client: simulator, captureService: RecordingCaptureService(), clock: clock)
        await #expect(throws: PaymentError.self) { _ = try await real.discoverReaders(timeout: 1) }
        let simulated = makeProcessor(simulator, clock: clock)
        #expect(try await simulated.discoverReaders(timeout: 1).count == 3)
    }

    @Test("events: the stream, update progress, reconnection, optional update installed through the delegate")
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
        var iterator = processor.events().makeAsyncIterator()
        #expect(await iterator.next() == emitted.first)

        let (optional, optionalClock) = makeSimulator { $0.testReaderUpdate = .available }
        let updating = try await connectedProcessor(optional, clock: optionalClock)
        try await updating.installReaderUpdate()
        #expect(updating.emittedEvents.contains(.softwareUpdateFinished(nil)))
        try await updating.installReaderUpdate()
    }

    @Test("reconnecting on app start to a saved serial number")
    func connectSavedReader() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = makeProcessor(simulator, clock: clock)
        // The app saved the reader it connected (a `Reader` is Codable) and passes it back after a relaunch: the
        // adapter has discovered nothing yet, so it looks for it first.
        let saved = try JSONEncoder().encode(Reader(id: "WP3-SIM-0001", serialNumber: "WP3-SIM-0001", model: "wisePad3"))
        let reader = try await processor.connectReader(try JSONDecoder().decode(Reader.self, from: saved),
                                                       locationID: testLocation)
        #expect(reader.model == "wisePad3")
        #expect(reader.kind == .bluetooth)
        try await processor.disconnectReader()
        await #expect(throws: PaymentError.self) {
            _ = try await processor.connectReader(Reader(id: "GONE-0001", model: "wisePad3"), locationID: testLocation)
        }
        #expect(await simulator.connectionStatus == .notConnected)
    }

    @Test("connect while offline through the adapter: seed 000's refusals as offline-connection refusals")
    func connectWhileOffline() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = makeProcessor(simulator, clock: clock)
        let readers = try await processor.discoverReaders(timeout: 1)
        let m2 = try #require(readers.first { $0.model == "stripeM2" })
        let wisePad = try #require(readers.first { $0.model == "wisePad3" })
        func refusal(_ reader: Reader) async -> PaymentError? {
            do { _ = try await processor.connectReader(reader, locationID: testLocation); return nil } catch {
                return error as? PaymentError
            }
        }
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let first = await refusal(m2)
        #expect(first?.code == .readerOfflineConnectionRefused)
        #expect(first?.recovery == .goOnline)
        #expect(first?.vendor?.numericCode == 9000)
        #expect(first?.vendor?.message == "The SDK isn’t connected to the internet")
        await simulator.setSimulatedOfflineMode(.disabled)
        _ = try await processor.connectReader(wisePad, locationID: testLocation)
        try await processor.disconnectReader()
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        #expect(await refusal(m2)?.vendor?.numericCode == 2870)
        let connected = try await processor.connectReader(wisePad, locationID: testLocation)
        #expect(connected.locationID == testLocation)
    }
}
