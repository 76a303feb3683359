import Foundation
import Tender
import TenderTestKit
import TenderStripe
import TenderStripeSimulator
import Testing

@Suite("Stripe simulator: faults, forwarding and Stripe's servers")
struct StripeSimulatorServerTests {
    @Test("confirmNotReceived: a timeout, nothing charged; answerLostAfterCharge: a timeout, charged")
    func confirmationFaults() async throws {
        for fault in [StripeSimulator.Fault.confirmNotReceived, .answerLostAfterCharge] {
            let (simulator, _) = makeSimulator()
            try await connect(simulator)
            let created = try await simulator.createPaymentIntent(
                .init(amount: 1_000, currency: "usd", metadata: ["tender_reference": "F"]), createConfig: nil)
            let collected = try #require(await collect(simulator, created).0)
            await simulator.inject(fault)
            let (intent, error) = await confirm(simulator, collected)
            #expect(intent == nil)
            #expect(error?.code == .requestTimedOut)
            #expect(error?.paymentIntent == nil)
            #expect(await simulator.chargeCount(reference: "F") == (fault == .answerLostAfterCharge ? 1 : 0))
            let server = try #require(await simulator.serverIntent(stripeId: created.stripeId ?? ""))
            #expect(server.status == (fault == .answerLostAfterCharge ? .requiresCapture : .requiresPaymentMethod))
        }
    }

    @Test("a held confirmation cannot be canceled (it left the device) and charges when released")
    func heldAuthorization() async throws {
        let (simulator, _) = makeSimulator()
        try await connect(simulator)
        let created = try await simulator.createPaymentIntent(
            .init(amount: 1_000, currency: "usd", metadata: ["tender_reference": "H"]), createConfig: nil)
        let collected = try #require(await collect(simulator, created).0)
        await simulator.inject(.holdNextAuthorization)
        let box = Locked<(Stripe.PaymentIntent?, Stripe.ErrorCode?)?>(nil)
        let cancelable = try #require(await simulator.confirmPaymentIntent(collected, confirmConfig: nil) { intent, error in
            box.withLock { $0 = (intent, error) }
        })
        #expect(await simulator.isHolding)
        #expect(box.current == nil)
        #expect(await cancelable.cancel()?.code == .cancelFailedUnavailable)
        #expect(await simulator.releaseHeld())
        #expect(box.current?.0?.status == .requiresCapture)
        #expect(await simulator.chargeCount(reference: "H") == 1)
        #expect(await cancelable.cancel()?.code == .cancelFailedAlreadyCompleted)
    }

    @Test("a held card presentation is canceled through the Cancelable: the collection completes with canceled")
    func heldCard() async throws {
        let (simulator, _) = makeSimulator()
        try await connect(simulator)
        let created = try await simulator.createPaymentIntent(.init(amount: 1_000, currency: "usd"), createConfig: nil)
        await simulator.inject(.holdNextCard)
        let box = Locked<Stripe.ErrorCode?>(nil)
        let cancelable = try #require(await simulator.collectPaymentMethod(created, collectConfig: nil) { _, error in
            box.withLock { $0 = error }
        })
        #expect(await simulator.isHolding)
        #expect(await cancelable.cancel() == nil)
        #expect(box.current?.code == .canceled)
        #expect(!(await simulator.isHolding))
        #expect(await simulator.paymentStatus == .ready)
    }

    @Test("an intent confirmed online after a lost answer is not charged again when its offline copy is forwarded")
    func noSecondAuthorizationAtForwarding() async throws {
        // Pre-6904 behaviour (ios#294): the SDK stored the collected-online copy offline. Stripe confirms once.
        let (simulator, _) = makeSimulator { $0.collectOnlineConfirmOfflineMismatch = false }
        let delegate = RecordingDelegate()
        simulator.setOfflineDelegate(delegate)
        try await connect(simulator)
        let created = try await simulator.createPaymentIntent(
            .init(amount: 1_000, currency: "usd", metadata: ["tender_reference": "DBL"]), createConfig: nil)
        let collected = try #require(await collect(simulator, created).0)
        await simulator.inject(.answerLostAfterCharge)
        _ = await confirm(simulator, collected)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let (stored, _) = await confirm(simulator, collected)
        #expect(stored?.offlineDetails?.requiresUpload == true)
        await simulator.setSimulatedOfflineMode(.disabled)
        await simulator.forwardPendingPayments()
        #expect(await simulator.chargeCount(reference: "DBL") == 1)
        #expect(delegate.forwarded.first?.1?.apiError?.code == "payment_intent_unexpected_state")
        #expect(await simulator.storedPayments.isEmpty)
    }

    @Test("forwarding errors: 1938 keeps the payment, 1937 drops it, 1930 stops the pass, a decline is final")
    func forwardingDispositions() async throws {
        let cases: [(String?, Stripe.SimulatedCardType, Int, String)] = [
            ("forwardingLiveModePaymentInTestMode", .visa, 1, "forwarded forwardingLiveModePaymentInTestMode"),
            ("forwardingTestModePaymentInLiveMode", .visa, 0, "forwarded forwardingTestModePaymentInLiveMode"),
            ("accountIdMismatchWhileForwarding", .visa, 1, "forwardingError accountIdMismatchWhileForwarding"),
            (nil, .chargeDeclined, 0, "forwarded declinedByStripeAPI"),
        ]
        for (failure, card, stillStored, line) in cases {
            let (simulator, _) = makeSimulator {
                $0.forwardingFailure = failure.map { Stripe.ErrorCode.Code($0) }
                $0.simulatedCard = card
            }
            let delegate = RecordingDelegate()
            simulator.setOfflineDelegate(delegate)
            try await connect(simulator)
            try await takeDirect(simulator, reference: "FD", behavior: .forceOffline)
            await simulator.forwardPendingPayments()
            #expect(await simulator.storedPayments.count == stillStored, "\(line)")
            #expect(delegate.lines.contains(line), "\(delegate.lines)")
            #expect(await simulator.chargeCount(reference: "FD") == 0)
            if stillStored == 1 {
                await simulator.configure { $0.forwardingFailure = nil }
                await simulator.forwardPendingPayments()
                #expect(await simulator.chargeCount(reference: "FD") == 1, "kept payments forward later: \(line)")
            }
        }
    }

    @Test("background forwarding: a payment stored while online is forwarded on the SDK's schedule")
    func backgroundForwarding() async throws {
        let (simulator, clock) = makeSimulator { $0.backgroundForwardingDelay = 30 }
        let delegate = RecordingDelegate()
        simulator.setOfflineDelegate(delegate)
        try await connect(simulator)
        try await takeDirect(simulator, reference: "BG", behavior: .forceOffline)
        _ = await simulator.offlineStatus
        #expect(delegate.forwarded.isEmpty)
        clock.advance(by: 29)
        _ = await simulator.offlineStatus
        #expect(delegate.forwarded.isEmpty)
        clock.advance(by: 1)
        #expect(await simulator.offlineStatus.sdk.paymentsCount == 0)
        #expect(delegate.forwarded.count == 1)
        #expect(await simulator.chargeCount(reference: "BG") == 1)
    }

    @Test("at launch the SDK forwards what it stored, on its own, once online")
    func forwardingAfterRelaunch() async throws {
        let (simulator, _) = makeSimulator { $0.backgroundForwardingDelay = 30 }
        try await connect(simulator)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        try await takeDirect(simulator, reference: "LR", behavior: .preferOnline)
        await simulator.setSimulatedOfflineMode(.disabled)
        #expect(await simulator.offlineStatus.sdk.paymentsCount == 1, "the next pass is 30 s away")
        await simulator.relaunch()
        let delegate = RecordingDelegate()
        simulator.setOfflineDelegate(delegate)
        #expect(await simulator.offlineStatus.sdk.paymentsCount == 0, "forwarded at launch")
        #expect(delegate.forwarded.map(\.0.metadata["tender_reference"]) == ["LR"])
    }

    @Test("search lags; retrieving by id does not")
    func searchLag() async throws {
        let (simulator, clock) = makeSimulator { $0.searchLag = 5 }
        let server = simulator.server
        try await connect(simulator)
        let intent = try await takeDirect(simulator, reference: "SL")
        #expect(try await server.paymentIntent(id: intent.stripeId ?? "")?.status == .requiresCapture)
        #expect(try await server.paymentIntents(metadataKey: "tender_reference", value: "SL").isEmpty)
        clock.advance(by: 5)
        #expect(try await server.paymentIntents(metadataKey: "tender_reference", value: "SL").first?.status
            == .requiresCapture)
        try await server.capture(processor: "stripe", reference: "SL", processorPaymentID: intent.stripeId ?? "",
                                 amount: Money(minorUnits: 1_500, currency: .usd))
        #expect(try await server.paymentIntents(metadataKey: "tender_reference", value: "SL").first?.status
            == .requiresCapture)
        clock.advance(by: 5)
        #expect(try await server.paymentIntents(metadataKey: "tender_reference", value: "SL").first?.status == .succeeded)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        await #expect(throws: StripeSimulatorServer.Unreachable.self) {
            _ = try await server.paymentIntent(id: intent.stripeId ?? "")
        }
    }

    @Test("capture: partial up to the authorized amount, never above; expiry after two days releases the funds")
    func captureAndExpiry() async throws {
        let (simulator, clock) = makeSimulator()
        try await connect(simulator)
        let partial = try await takeDirect(simulator, reference: "CP")
        await #expect(throws: StripeSimulatorServer.APIError.self) {
            try await simulator.capture(stripeId: partial.stripeId ?? "", amount: 1_501)
        }
        try await simulator.capture(stripeId: partial.stripeId ?? "", amount: 1_000)
        #expect(await simulator.charges(reference: "CP").first?.amountCaptured == 1_000)

        let expiring = try await takeDirect(simulator, reference: "EXP")
        let deadline = try #require(expiring.authorizedCharge?.cardPresentDetails?.captureBefore)
        #expect(deadline == clock.now().addingTimeInterval(2 * 86_400))
        clock.advance(by: 2 * 86_400)
        await simulator.runDueWork()
        let expired = try #require(await simulator.serverIntent(stripeId: expiring.stripeId ?? ""))
        #expect(expired.status == .canceled)
        #expect(expired.cancellationReason == "automatic")
        #expect(await simulator.charges(reference: "EXP").first?.released == true)
        await #expect(throws: StripeSimulatorServer.APIError.self) {
            try await simulator.capture(stripeId: expiring.stripeId ?? "")
        }

        let (renewing, renewClock) = makeSimulator { $0.expiredAuthorization = .requiresReauthorization }
        try await connect(renewing)
        let toRenew = try await takeDirect(renewing, reference: "RA")
        renewClock.advance(by: 2 * 86_400 + 1)
        await renewing.runDueWork()
        #expect(await renewing.serverIntent(stripeId: toRenew.stripeId ?? "")?.status == .requiresReauthorization)
    }

    @Test("refunds: partial, idempotent by key, never beyond the captured amount, Interac only in person")
    func refunds() async throws {
        let (simulator, clock) = makeSimulator()
        let server = simulator.server
        try await connect(simulator)
        let paid = try await takeDirect(simulator, reference: "RF", capture: .automatic)
        func request(_ cents: Int64, key: String, id: String? = nil) -> RefundRequest {
            RefundRequest(processor: "stripe", reference: "RF", processorPaymentID: id ?? paid.stripeId ?? "",
                          amount: Money(minorUnits: cents, currency: .usd), idempotencyKey: key)
        }
        let first = try await server.refund(request(1_000, key: "RF/refund-1"))
        #expect(first.status == .succeeded)
        #expect(try await server.refund(request(1_000, key: "RF/refund-1")) == first)
        await #expect(throws: PaymentError.self) { _ = try await server.refund(request(600, key: "RF/refund-2")) }
        #expect(try await server.refund(request(500, key: "RF/refund-3")).status == .succeeded)
        #expect(try await server.lookUpRefund(processor: "stripe", processorPaymentID: paid.stripeId ?? "",
                                              idempotencyKey: "RF/refund-1", processorRefundID: nil) == first)
        #expect(try await server.lookUpRefund(processor: "stripe", processorPaymentID: paid.stripeId ?? "",
                                              idempotencyKey: "RF/refund-9", processorRefundID: nil) == nil)

        await simulator.configure { $0.simulatedCard = .interac }
        let interac = try await takeDirect(simulator, reference: "IN", capture: .automatic)
        await #expect(throws: PaymentError.self) {
            _ = try await server.refund(request(100, key: "IN/refund-1", id: interac.stripeId))
        }

        await simulator.configure { $0.simulatedCard = .refundFailed }
        let failing = try await takeDirect(simulator, reference: "FL", capture: .automatic)
        let succeeded = try await server.refund(request(100, key: "FL/refund-1", id: failing.stripeId))
        #expect(succeeded.status == .succeeded, "the refundFailed card's refunds begin succeeded, as Stripe's do")
        #expect(await simulator.serverRefunds.last?.status == .succeeded)
        clock.advance(by: 60)
        let settled = try await server.lookUpRefund(processor: "stripe", processorPaymentID: failing.stripeId ?? "",
                                                    idempotencyKey: "FL/refund-1", processorRefundID: nil)
        #expect(settled?.status == .failed)
        #expect(settled?.error?.code == .refundFailed)
        // The key reused for another amount of the same payment, or for another payment, is idempotency_error:
        // never the earlier refund.
        let reused = await #expect(throws: PaymentError.self) {
            _ = try await server.refund(request(1_500, key: "RF/refund-1"))
        }
        #expect(reused?.code == .duplicateReference && reused?.vendor?.name == "idempotency_error")
        await #expect(throws: PaymentError.self) {
            _ = try await server.refund(request(1_000, key: "RF/refund-1", id: failing.stripeId))
        }
    }
}
