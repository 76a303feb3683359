import Foundation
import Testing
import Tender
@_spi(Testing) import TenderStripe
import TenderStripeSimulator
import TenderTesting

private func usd(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .usd) }

/// On-reader tips as Stripe documents them (after confirmation `amount` includes the tip, `amountDetails.tip` is its
/// portion), forwarded declines (RN#1061's two callbacks; no counter advice for a customer who left), and the Tap to
/// Pay network error (9041) at confirmation.
@Suite("Stripe tips and forwarding outcomes")
struct StripeTipAndForwardingTests {
    private let scope = LedgerScope(merchantID: "acct_tips", locationID: testLocation)
    private let limits = OfflineRiskLimits.single(perPayment: usd(50_000), storedTotal: usd(500_000))

    // MARK: On-reader tips

    @Test("a REST intent: amount_details.tip is a portion of amount, so the total is amount (10.06), never 12.56")
    func restTipIsInTheAmount() throws {
        let json = #"""
            {"id": "pi_tip", "amount": 1006, "capture_method": "manual", "created": 1700000000, "currency": "usd",
             "livemode": false, "metadata": {"tender_reference": "tip-1"}, "status": "requires_capture",
             "amount_details": {"tip": {"amount": 250}}}
            """#
        let rest = try JSONDecoder().decode(StripeAPI.PaymentIntent.self, from: Data(json.utf8))
        let intent = try StripeRESTServerLookup.paymentIntent(rest)
        #expect(StripeMapping.total(intent) == usd(1_006))
        #expect(StripeMapping.tip(intent) == usd(250))
        let update = StripeMapping.update(for: intent, reference: "tip-1")
        #expect(update.amount == usd(1_006))
        #expect(update.tip == usd(250))
        // Found by search for a 7.56 sale whose tip the ledger does not know yet: it is that sale's payment.
        #expect(StripeMapping.isPayment(intent, ofTotal: usd(756)))
        #expect(StripeMapping.isPayment(intent, ofTotal: usd(1_006)))
        #expect(!StripeMapping.isPayment(intent, ofTotal: usd(800)))
    }

    @Test("before confirmation a collected amountTip (updatePaymentIntent) is still on top of amount; after, never")
    func amountTipOnlyBeforeConfirmation() {
        var collected = mappingIntent(.requiresConfirmation)
        collected.amountTip = 25
        #expect(StripeMapping.total(collected) == usd(125))
        var confirmed = mappingIntent(.requiresCapture)
        confirmed.amount = 125
        confirmed.amountTip = 25  // an SDK object that still carried it: the amount already includes it
        #expect(StripeMapping.total(confirmed) == usd(125))
    }

    /// A smart reader connected through a terminal, the simulator asking for a 2.50 tip.
    private func smartTerminal(_ change: @escaping (inout Stripe.SimulatorConfiguration) -> Void = { _ in })
        async throws -> (StripeSimulator, ManualClock, StripeProcessor, PaymentTerminal) {
        let (simulator, clock) = makeSimulator {
            $0.simulatedTipAmount = 250
            $0.smartReaderLocationId = testLocation
            change(&$0)
        }
        let processor = makeProcessor(simulator, clock: clock)
        let smart = try #require(try await processor.discoverReaders(.internet, timeout: 5).first)
        _ = try await processor.connectReader(smart, locationID: testLocation)
        return (simulator, clock, processor, PaymentTerminal(processor: processor, scope: scope, clock: clock))
    }

    private func tipped(_ reference: String) -> PaymentRequest {
        var sale = PaymentRequest(amount: usd(756), reference: reference, captureMode: .automatic,
                                  offlinePolicy: .requireOnline)
        sale.tipEligibleAmount = usd(700)
        return sale
    }

    @Test("a tipped sale on a smart reader succeeds with its tip; Stripe's copy (amount 10.06) is attributed to it")
    func tippedSaleSucceeds() async throws {
        let (simulator, clock, _, terminal) = try await smartTerminal()
        let started = clock.now()
        let session = try await terminal.takePayment(tipped("tip-1"))
        #expect(session.state == .succeeded)
        #expect(session.lastError == nil)
        #expect(session.tip == usd(250))
        #expect(session.total == usd(1_006))
        let server = try #require(await simulator.serverIntents.first { $0.metadata["tender_reference"] == "tip-1" })
        #expect(server.amount == 1_006, "Stripe's amount includes the tip")
        #expect(server.amountDetailsTip == 250)
        #expect(server.amountTip == nil)
        #expect(await simulator.charges(reference: "tip-1").map(\.amount) == [1_006])

        // Another launch that lost the id finds it by search for the 7.56 sale (the ledger may not know the tip).
        clock.advance(by: 60)
        let fresh = makeProcessor(simulator, clock: clock)
        let lost = PaymentLookupQuery(reference: "tip-1", recordedState: .processing, since: started, amount: usd(756))
        guard case .found(let found) = try await fresh.lookUpPayment(lost) else { Issue.record("not found"); return }
        #expect(found.state == .succeeded)
        #expect(found.amount == usd(1_006))
        #expect(found.tip == usd(250))
        #expect(found.error == nil)
    }

    @Test("a tipped sale whose answer was lost: recovery reads Stripe's copy and attributes it, tip and total")
    func tippedSaleRecovered() async throws {
        let (simulator, _, _, terminal) = try await smartTerminal()
        await simulator.inject(.answerLostAfterCharge)
        let lost = try await terminal.takePayment(tipped("tip-2"))
        #expect(lost.state == .outcomeUnknown)
        #expect(lost.tip == nil)
        _ = await terminal.recover()
        let session = try #require(try await terminal.session(reference: "tip-2"))
        #expect(session.state == .succeeded)
        #expect(session.lastError?.code != .duplicateReference)
        #expect(session.tip == usd(250))
        #expect(session.total == usd(1_006))
        #expect(await simulator.chargeCount(reference: "tip-2") == 1)
    }

    // MARK: Forwarded declines

    @Test("a forwarding callback requiresPaymentMethod with no charge and no error is no outcome: still stored")
    func requiresPaymentMethodIsNoOutcome() throws {
        let first = try #require(StripeMapping.forwardingUpdate(mappingIntent(.requiresPaymentMethod, offline: false),
                                                                error: nil))
        #expect(first.state == .storedOffline)
        #expect(first.state != .forwarded)
    }

    @Test("a decline after forwarding advises nothing at the counter (the customer left): recovery none")
    func forwardedDeclineAdvice() throws {
        let declinedIntent = mappingIntent(.requiresPaymentMethod, offline: false, failedCharge: true)
        let viaCallback = try #require(StripeMapping.forwardingUpdate(
            declinedIntent, error: Stripe.ErrorCode(.declinedByStripeAPI, message: "", declineCode: "card_declined")))
        #expect(viaCallback.state == .declinedAfterForwarding)
        #expect(viaCallback.error?.recovery == PaymentError.Recovery.none)
        #expect(viaCallback.error?.code == .cardDeclined)
        let viaLookup = StripeMapping.update(for: declinedIntent, reference: "R1")
        #expect(viaLookup.state == .declinedAfterForwarding)
        #expect(viaLookup.error?.recovery == PaymentError.Recovery.none)
        #expect(viaLookup.error?.phase == .forwarding)
        // A decline at the counter still asks for another card.
        let counter = StripeMapping.update(for: mappingIntent(.requiresPaymentMethod, failedCharge: true), reference: "R1")
        #expect(counter.state == .declined)
        #expect(counter.error?.recovery == .collectAnotherCard)
    }

    @Test("RN#1061: iOS reports a forwarded decline as requiresPaymentMethod first, then the failed charge; the sale ends declined after forwarding, advising nothing")
    func twoCallbackDecline() async throws {
        let (simulator, clock) = makeSimulator {
            $0.simulatedCard = .chargeDeclined
            $0.forwardedDeclineFirstReportsRequiresPaymentMethod = true
        }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let terminal = PaymentTerminal(processor: processor, scope: scope, limits: limits, clock: clock)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let stored = try await terminal.takePayment(sale("OFF-D", policy: .forceOffline))
        #expect(stored.state == .storedOffline)

        await simulator.setSimulatedOfflineMode(.disabled)
        await simulator.forwardPendingPayments()
        for event in processor.emittedEvents {
            if case .paymentForwarded = event { await terminal.handle(event) }
        }
        let session = try #require(try await terminal.session(reference: "OFF-D"))
        #expect(session.state == .declinedAfterForwarding)
        #expect(session.lastError?.recovery == PaymentError.Recovery.none)
        #expect(try await processor.queueSnapshot().payments.map(\.status) == [.declinedAfterForwarding])
    }

    @Test("the simulator's RN#1061 option: off, one callback per forwarded decline; on, requiresPaymentMethod first")
    func simulatorTwoCallbackOption() async throws {
        for twoCallbacks in [false, true] {
            let (simulator, _) = makeSimulator {
                $0.simulatedCard = .chargeDeclined
                $0.forwardedDeclineFirstReportsRequiresPaymentMethod = twoCallbacks
            }
            let delegate = RecordingDelegate()
            simulator.setOfflineDelegate(delegate)
            try await connect(simulator)
            _ = try await takeDirect(simulator, reference: "SIM-D", behavior: .forceOffline)
            await simulator.forwardPendingPayments()
            let calls = delegate.forwarded.map { ($0.0.status, $0.0.charges.count, $0.1?.code.name) }
            let expectedLast = (Stripe.PaymentIntentStatus.requiresPaymentMethod, 1, Optional("declinedByStripeAPI"))
            #expect(calls.count == (twoCallbacks ? 2 : 1))
            if twoCallbacks, let first = calls.first {
                #expect(first.0 == .requiresPaymentMethod && first.1 == 0 && first.2 == nil)
            }
            if let last = calls.last { #expect(last.0 == expectedLast.0 && last.1 == expectedLast.1 && last.2 == expectedLast.2) }
        }
    }

    // MARK: Tap to Pay network error

    @Test("9041 (Tap to Pay network error) with requiresConfirmation: confirm the same intent again, like 9040")
    func tapToPayNetworkErrorRetries() async throws {
        let intent = mappingIntent(.requiresConfirmation)
        for code in [Stripe.ErrorCode.Code.internalNetworkError, .tapToPayInternalNetworkError] {
            let failure = StripeMapping.confirmFailure(Stripe.ErrorCode(code, message: "", paymentIntent: intent))
            #expect(failure == .retryConfirm(intent), "\(code.name)")
        }
        let (simulator, clock) = makeSimulator()
        let client = ConfirmOverrideClient(simulator: simulator, status: .requiresConfirmation,
                                           code: .tapToPayInternalNetworkError)
        let processor = try await connectedProcessor(simulator, clock: clock, client: client)
        let result = try await pay(processor, sale("TTP-NET"))
        #expect(result.state == .outcomeUnknown, "never a definite failure: the request may have reached Stripe")
        #expect(result.error?.recovery == .retrySamePayment)
        #expect(result.error?.message.contains("Nothing was charged") == false)
        #expect(result.error?.message.contains("nothing was charged") == false, "it may have reached Stripe")
    }
}
