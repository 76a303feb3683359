import Foundation
import Tender
import TenderTestKit
import TenderStripe
import TenderStripeSimulator
import Testing

@Suite("Stripe capture, void and expiring authorizations")
struct StripeCaptureTests {
    @Test("manual capture online: authorized with its deadline, then captured (partially) through the app's service")
    func manualCaptureOnline() async throws {
        let (simulator, clock) = makeSimulator()
        let capture = RecordingCaptureService(simulator: simulator)
        let processor = try await connectedProcessor(simulator, clock: clock, capture: capture)
        let result = try await pay(processor, sale("S-2", capture: .manual))
        #expect(result.state == .authorized)
        #expect(result.captureBefore == clock.now().addingTimeInterval(2 * 86_400))
        let id = try #require(result.processorPaymentID)
        let captured = try await processor.capturePayment(reference: "S-2", processorPaymentID: id,
                                                          amount: Money(minorUnits: 800, currency: .usd))
        #expect(captured.state == .succeeded)
        #expect(await capture.calls == [.capture(id, 800)])
        #expect(await simulator.serverIntent(stripeId: id)?.status == .succeeded)
        #expect(await simulator.charges(reference: "S-2").first?.amountCaptured == 800)
    }

    @Test("manual capture after forwarding, and not before (seed 000's ready-to-capture rule)")
    func manualCaptureAfterForwarding() async throws {
        let (simulator, clock) = makeSimulator()
        let capture = RecordingCaptureService(simulator: simulator)
        let processor = try await connectedProcessor(simulator, clock: clock, capture: capture)
        let stored = try await pay(processor, sale("MC-1", capture: .manual, policy: .forceOffline), routing: .offline)
        #expect(stored.state == .storedOffline)
        await #expect(throws: PaymentError.self) {
            _ = try await processor.capturePayment(reference: "MC-1", processorPaymentID: "pi_unknown",
                                                   amount: Money(minorUnits: 1_000, currency: .usd))
        }
        #expect(await capture.calls.isEmpty)
        await simulator.forwardPendingPayments()
        let forwarded = try #require(forwardedUpdates(processor).first)
        #expect(forwarded.state == .forwarded)
        #expect(forwarded.captureBefore != nil)
        let id = try #require(forwarded.processorPaymentID)
        #expect(try #require(await simulator.serverIntent(stripeId: id)).isReadyToCapture)
        let captured = try await processor.capturePayment(reference: "MC-1", processorPaymentID: id,
                                                          amount: Money(minorUnits: 1_000, currency: .usd))
        #expect(captured.state == .succeeded)
        #expect(await simulator.charges(reference: "MC-1").first?.captured == true)
    }

    @Test("capture and void failures surface as captureFailed (retryable); void goes through the service")
    func captureServiceFailures() async throws {
        let (simulator, clock) = makeSimulator()
        let capture = RecordingCaptureService(simulator: simulator)
        let processor = try await connectedProcessor(simulator, clock: clock, capture: capture)
        let result = try await pay(processor, sale("V-1", capture: .manual))
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

    @Test("an authorization left uncaptured two days expires: the lookup says canceled, authorizationExpired; capture never advises a retry",
          arguments: [false, true])
    func expiredAuthorization(_ forwardedOffline: Bool) async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        var done = try await pay(processor, sale("EX", capture: .manual, policy: forwardedOffline ? .forceOffline : .preferOnline),
                                 routing: forwardedOffline ? .offline : .online)
        if forwardedOffline {
            await simulator.forwardPendingPayments()
            done = try #require(forwardedUpdates(processor).first)
        }
        #expect(done.state == (forwardedOffline ? .forwarded : .authorized))
        clock.advance(by: 2 * 86_400 + 60)
        let lookup = try await processor.lookUpPayment(query(done, since: clock.now(), captureMode: .manual))
        guard case .found(let update) = lookup else { Issue.record("\(lookup)"); return }
        #expect(update.state == .canceled)
        #expect(update.error?.code == .authorizationExpired)
        #expect(PaymentStateMachine.canTransition(from: done.state, to: update.state))
        do {
            _ = try await processor.capturePayment(reference: "EX", processorPaymentID: done.processorPaymentID ?? "",
                                                   amount: Money(minorUnits: 1_000, currency: .usd))
            Issue.record("capture after expiry must fail")
        } catch let error as PaymentError {
            #expect(error.code == .authorizationExpired)
            #expect(error.recovery == PaymentError.Recovery.none)
        }
    }

    @Test("requiresReauthorization: still authorized with reauthorizationRequired; capture refuses with that error")
    func reauthorizationRequired() async throws {
        let (simulator, clock) = makeSimulator { $0.expiredAuthorization = .requiresReauthorization }
        let capture = RecordingCaptureService(simulator: simulator)
        let processor = try await connectedProcessor(simulator, clock: clock, capture: capture)
        let done = try await pay(processor, sale("RA", capture: .manual))
        clock.advance(by: 2 * 86_400 + 60)
        let lookup = try await processor.lookUpPayment(query(done, since: clock.now(), captureMode: .manual))
        guard case .found(let update) = lookup else { Issue.record("\(lookup)"); return }
        #expect(update.state == .authorized)
        #expect(update.error?.code == .reauthorizationRequired)
        do {
            _ = try await processor.capturePayment(reference: "RA", processorPaymentID: done.processorPaymentID ?? "",
                                                   amount: Money(minorUnits: 1_000, currency: .usd))
            Issue.record("capture must be refused")
        } catch let error as PaymentError {
            #expect(error.code == .reauthorizationRequired)
            #expect(error.recovery == PaymentError.Recovery.none)
        }
        #expect(await capture.calls.count == 1, "Stripe refused the capture; the adapter explains why from its copy")
    }
}
