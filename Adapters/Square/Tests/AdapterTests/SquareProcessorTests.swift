import Foundation
import Testing
@_spi(Testing) import Tender
import TenderTestKit
@testable import TenderSquare
@testable import TenderSquareSimulator

@Suite("Square processor: payments, capture, capabilities")
struct SquareProcessorTests {
    @Test("online approve: collecting, processing, succeeded, one charge; attempt id and reference are the reference")
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
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 1)
        let card = try #require(outcome.card)
        #expect(card.brand == .visa && card.last4 == "1111" && card.entryMethod == .chip)
        #expect(card.authorizationCode != nil && card.applicationName == "VISA CREDIT")
        #expect(world.emitter.emitted.contains(.readerInputRequested([.insert, .tap, .swipe])))
    }

    @Test("after a decline the next card is a new vendor payment: paymentAttemptID ref#2, referenceID ref (A5)",
          arguments: [SquareSimulator.SimulatedCard.declined, .insufficientFunds, .expired])
    func newAttemptAfterDecline(card: SquareSimulator.SimulatedCard) async throws {
        let world = try await SquareWorld()
        await world.simulator.setPresentedCard(card)
        let (outcome, states) = try await world.pay("order-1", cents: 20_00)
        #expect(states == [.collecting, .processing])
        #expect(outcome.state == .declined)
        #expect(outcome.error?.code == .cardDeclined && outcome.error?.recovery == .collectAnotherCard)
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 0)
        await world.simulator.setPresentedCard(.mastercardContactless)
        let (retry, _) = try await world.pay("order-1", cents: 20_00, attempt: PaymentAttempt(
            number: 2, paymentAttempt: 2, previousState: .created))
        #expect(retry.state == .succeeded)
        let payments = await world.simulator.serverPayments
        #expect(payments.map(\.paymentAttemptID) == ["order-1", "order-1#2"])
        #expect(payments.allSatisfy { $0.referenceID == "order-1" })
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 1)
        #expect(await world.simulator.getIdempotencyKey(withPaymentAttemptId: "order-1#2") != nil)
    }

    @Test("manual capture: authorized with captureBefore = Square's delay; voided or captured through the service (B4)")
    func manualOnline() async throws {
        let world = try await SquareWorld()
        let (held, _) = try await world.pay("order-1", cents: 40_00, capture: .manual)
        #expect(held.state == .authorized)
        #expect(held.captureBefore == world.clock.now().addingTimeInterval(36 * 3_600), "the card-present default")
        let id = try #require(held.processorPaymentID)
        #expect(await world.simulator.serverPayments.first?.delayedUntil == held.captureBefore)
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

    @Test("an authorization Square canceled at its delay: lookup says so, capture fails authorizationExpired (B4)")
    func authorizationExpires() async throws {
        let world = try await SquareWorld(adapter: { $0.delayDuration = 3_600 })
        let (held, _) = try await world.pay("order-1", cents: 40_00, capture: .manual)
        let id = try #require(held.processorPaymentID)
        #expect(held.captureBefore == world.clock.now().addingTimeInterval(3_600))
        world.clock.advance(by: 3_601)
        guard case .found(let found) = try await world.processor.lookUpPayment(
            world.query("order-1", state: .authorized, id: id, capture: .manual)) else {
            Issue.record("the expired authorization should be found")
            return
        }
        #expect(found.state == .canceled && found.error?.code == .authorizationExpired)
        do {
            _ = try await world.processor.capturePayment(reference: "order-1", processorPaymentID: id,
                                                         amount: Money(minorUnits: 40_00, currency: .usd))
            Issue.record("an expired authorization was captured")
        } catch let error as PaymentError {
            #expect(error.code == .authorizationExpired && !error.isRetryable)
        }
    }

    @Test("delay action COMPLETE: Square captured it at the deadline, and capture reports succeeded (B4)")
    func authorizationCompletes() async throws {
        let world = try await SquareWorld(adapter: { $0.delayAction = .complete })
        let (held, _) = try await world.pay("order-1", cents: 40_00, capture: .manual)
        let id = try #require(held.processorPaymentID)
        world.clock.advance(by: 36 * 3_600)
        guard case .found(let found) = try await world.processor.lookUpPayment(
            world.query("order-1", state: .authorized, id: id, capture: .manual)) else { Issue.record("not found"); return }
        #expect(found.state == .succeeded && found.error == nil)
        let captured = try await world.processor.capturePayment(reference: "order-1", processorPaymentID: id,
                                                                amount: Money(minorUnits: 40_00, currency: .usd))
        #expect(captured.state == .succeeded)
    }

    @Test("Square captures only the whole authorization: another amount is refused before Square is called (B5)")
    func noPartialCapture() async throws {
        let world = try await SquareWorld()
        let (held, _) = try await world.pay("order-1", cents: 40_00, capture: .manual)
        let id = try #require(held.processorPaymentID)
        for cents in [Int64(30_00), 41_00] {
            do {
                _ = try await world.processor.capturePayment(reference: "order-1", processorPaymentID: id,
                                                             amount: Money(minorUnits: cents, currency: .usd))
                Issue.record("\(cents) was captured")
            } catch let error as PaymentError {
                #expect(error.code == .invalidAmount && error.recovery == .fixRequest)
            }
        }
        #expect(await world.simulator.serverPayments.first?.status == .approved, "Square was not called")
        // Why: CompletePayment takes no amount; the server captures everything approved.
        try await world.simulator.server.capture(processor: "square", reference: "order-1", processorPaymentID: id,
                                                 amount: Money(minorUnits: 1_00, currency: .usd))
        #expect(await world.simulator.serverPayments.first?.status == .completed)
    }

    @Test("surcharges are off in Tender's requests: a surcharging seller's card pays the amount recorded (B5)")
    func noSurcharge() async throws {
        let world = try await SquareWorld(token: "tok-C", location: "LC")
        let (outcome, _) = try await world.pay("order-1", cents: 100_00)
        #expect(outcome.state == .succeeded)
        let server = try #require(await world.simulator.serverPayments.first)
        #expect(server.amountMoney.amount == 100_00 && server.cardDetails.appliedCardSurchargeDetails == nil)
    }

    @Test("metadata is refused, not dropped: capabilities say so, and a request with it fails before Square (B5)")
    func noMetadata() async throws {
        let world = try await SquareWorld()
        #expect(!(await world.processor.capabilities().supportsMetadata))
        var request = SquareWorld.sale("order-1", cents: 10_00)
        request.metadata = ["lane": "1"]
        let (outcome, states) = try await world.pay(request)
        #expect(outcome.state == .failed && outcome.error?.code == .invalidMetadata && states.isEmpty)
        #expect(await world.simulator.getIdempotencyKey(withPaymentAttemptId: "order-1") == nil)
    }

    @Test("capabilities: seller limits, Square's device rules, no partial capture, refunds with a service (B5, B6)")
    func capabilities() async throws {
        let world = try await SquareWorld()
        let capabilities = await world.processor.capabilities()
        let limits = try #require(capabilities.offlineLimits)
        #expect(limits.perPaymentMaximum == [.usd: 200_00] && limits.storedTotalMaximum == [.usd: 500_00])
        #expect(limits.deviceStoredCountMaximum == 1000 && limits.offlineWindowMaximum == 86_400)
        #expect(limits.storedCountMaximum == nil, "Square counts per device, not per account and location")
        #expect(limits.storedAgeMaximum == 86_400)
        #expect(!capabilities.supportsPartialCapture && !capabilities.supportsMetadata && capabilities.supportsRefunds)
        #expect(capabilities.supportedCurrencies?.count == 6)
        let notOptedIn = try await SquareWorld(token: "tok-N", location: "LN")
        #expect(await notOptedIn.processor.capabilities().offlineLimits == nil)
        let (refused, _) = try await notOptedIn.pay("order-1", cents: 10_00, routing: .offline)
        #expect(refused.error?.code == .offlineUnavailable)
        #expect(refused.error?.vendor?.name == "merchantNotOptedIntoOfflineProcessing")
        let bare = SquareProcessor(client: world.simulator, captureService: UnusedCaptureService())
        #expect(!(await bare.capabilities().supportsRefunds))
    }

    @Test("a second payment while one is in progress is refused; a card presented later completes the first")
    func paymentAlreadyInProgress() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.cardPresentation = .waitForPresentCard
        let world = try await SquareWorld(configuration: configuration)
        async let first = world.pay("order-1", cents: 10_00)
        await world.waitForPaymentInProgress()
        let (second, _) = try await world.pay("order-2", cents: 10_00)
        #expect(second.state == .failed && second.error?.code == .paymentInProgress)
        await world.simulator.presentCard(.mastercardContactless)
        let (outcome, states) = try await first
        #expect(outcome.state == .succeeded && states == [.collecting, .processing])
        #expect(outcome.card?.brand == .mastercard)
    }

    @Test("Square errors at start are mapped; a future SDK's error falls back to outcome unknown",
          arguments: [Square.PaymentError.locationPermissionNeeded, .trackingConsentIsPending,
                      .deviceTimeDoesNotMatchServerTime, .unsupportedMode, .unexpected])
    func startErrors(error: Square.PaymentError) async throws {
        let world = try await SquareWorld()
        await world.simulator.inject(.error(error))
        let (outcome, _) = try await world.pay("order-1", cents: 10_00)
        #expect(outcome.state == .failed)
        #expect(outcome.error?.code == error.tenderError.code && outcome.error?.vendor?.name == error.caseName)
        await world.simulator.inject(.unrecognizedError("paymentFutureCase"))
        let (future, _) = try await world.pay("order-2", cents: 10_00)
        #expect(future.state == .outcomeUnknown && future.error?.code == .unrecognizedVendorError)
    }

    @Test("a currency Square does not take fails before the SDK is called")
    func unsupportedCurrency() async throws {
        let world = try await SquareWorld()
        let request = PaymentRequest(amount: Money(minorUnits: 1_000, currency: .kwd), reference: "order-1")
        let (outcome, _) = try await world.pay(request)
        #expect(outcome.state == .failed && outcome.error?.code == .invalidCurrency)
        #expect(await world.simulator.getIdempotencyKey(withPaymentAttemptId: "order-1") == nil)
    }

    @Test("Sandbox refuses offline and has no offline queue")
    func sandbox() async throws {
        let world = try await SquareWorld(token: "tok-S", location: "LS")
        #expect(await world.processor.capabilities().offlineLimits == nil)
        #expect(try await world.processor.queueSnapshot().payments.isEmpty)
        await world.simulator.addNearbyReader()
        await #expect(throws: PaymentError.self) { _ = try await world.processor.discoverReaders(timeout: 1) }
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
        #expect(await world.simulator.chargeCount(referenceID: "order-2") == 1)
    }
}
