import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator
import Testing

@Suite("Stripe recovery: exactly once under faults")
struct StripeRecoveryTests {
    @Test("a confirmation that never reached Stripe: unknown, looked up as unfinished, confirmed again on the same intent")
    func confirmNotReceived() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let started = clock.now()
        await simulator.inject(.confirmNotReceived)
        let first = try await pay(processor, sale("A1"))
        #expect(first.state == .outcomeUnknown)
        #expect(first.error?.message.contains("same PaymentIntent will be confirmed again") == true)
        // Stripe's copy is still requires_payment_method (collection is local); the SDK's copy is collected.
        let lookup = try await processor.lookUpPayment(query(first, since: started))
        #expect(lookup == .found(ProcessorPaymentUpdate(reference: "A1", state: .processing,
                                                        processorPaymentID: first.processorPaymentID)))
        let recorder = UpdateRecorder()
        let retried = try await processor.startPayment(sale("A1"), routing: .online, attempt: continuing(first),
                                                       updates: recorder.handler)
        #expect(retried.state == .succeeded)
        #expect(recorder.states == [.processing], "the card already read is confirmed, not collected again")
        #expect(retried.processorPaymentID == first.processorPaymentID)
        #expect(await simulator.chargeCount(reference: "A1") == 1)
        #expect(await simulator.serverIntents.count == 1)
    }

    @Test("requires_confirmation after a connectivity error: not failed; the retry confirms the same intent, card already read")
    func requiresConfirmationRetried() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let first = try await pay(processor, sale("RC", policy: .requireOnline), routing: .online) { update in
            if update.state == .processing { await simulator.setSimulatedOfflineMode(.offlineImmediate) }
        }
        #expect(first.state == .outcomeUnknown)
        #expect(first.error?.recovery == .goOnline)
        #expect(first.error?.message.contains("nothing was charged") == true)
        await simulator.setSimulatedOfflineMode(.disabled)
        #expect(try await processor.lookUpPayment(query(first, since: clock.now())).state == .processing)
        let recorder = UpdateRecorder()
        let retried = try await processor.startPayment(sale("RC", policy: .requireOnline), routing: .online,
                                                       attempt: continuing(first), updates: recorder.handler)
        #expect(retried.state == .succeeded)
        #expect(recorder.states == [.processing])
        #expect(await simulator.chargeCount(reference: "RC") == 1)
    }

    @Test("an answer lost after Stripe charged: the lookup and the retry report the charge, never a second one",
          arguments: [true, false])
    func answerLostAfterCharge(_ withServerLookup: Bool) async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock, serverLookup: withServerLookup)
        await simulator.inject(.answerLostAfterCharge)
        let first = try await pay(processor, sale("AL", capture: .manual))
        #expect(first.state == .outcomeUnknown)
        #expect(await simulator.chargeCount(reference: "AL") == 1)
        if withServerLookup {
            let lookup = try await processor.lookUpPayment(query(first, since: clock.now(), captureMode: .manual))
            guard case .found(let found) = lookup else { Issue.record("\(lookup)"); return }
            #expect(found.state == .authorized)
        }
        // Without a server lookup the SDK confirms again and Stripe refuses it with the intent it holds (5c).
        let retried = try await pay(processor, sale("AL", capture: .manual), attempt: continuing(first))
        #expect(retried.state == .authorized)
        #expect(retried.captureBefore != nil)
        #expect(await simulator.chargeCount(reference: "AL") == 1)
    }

    @Test("a retry after a lost answer, made offline, is never confirmed offline (no second authorization)",
          arguments: [true, false])
    func retryOfflineAfterLostAnswer(_ withServerLookup: Bool) async throws {
        let (simulator, clock) = makeSimulator { $0.collectOnlineConfirmOfflineMismatch = false }
        let processor = try await connectedProcessor(simulator, clock: clock, serverLookup: withServerLookup)
        await simulator.inject(.answerLostAfterCharge)
        let first = try await pay(processor, sale("A5A"), routing: .onlineWithOfflineFallback)
        #expect(first.state == .outcomeUnknown)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let offline = try await pay(processor, sale("A5A"), routing: .onlineWithOfflineFallback,
                                    attempt: continuing(first))
        #expect(offline.state == .outcomeUnknown)
        #expect(await simulator.storedPayments.isEmpty)
        await simulator.setSimulatedOfflineMode(.disabled)
        let online = try await pay(processor, sale("A5A"), routing: .onlineWithOfflineFallback,
                                   attempt: continuing(offline, number: 3))
        #expect(online.state == .succeeded)
        await simulator.forwardPendingPayments()
        #expect(await simulator.chargeCount(reference: "A5A") == 1)
    }

    @Test("a confirmation error carrying an intent Stripe already acted on is reported as what it is",
          arguments: [(Stripe.PaymentIntentStatus.succeeded, PaymentState.succeeded), (.requiresCapture, .authorized),
                      (.processing, .outcomeUnknown), (.requiresAction, .outcomeUnknown), (.canceled, .canceled),
                      (.requiresReauthorization, .authorized)])
    func confirmErrorWithIntent(_ status: Stripe.PaymentIntentStatus, _ expected: PaymentState) async throws {
        let (simulator, clock) = makeSimulator()
        let client = ConfirmOverrideClient(simulator: simulator, status: status)
        let processor = try await connectedProcessor(simulator, clock: clock, client: client)
        let result = try await pay(processor, sale("A5C-\(status.rawValue)"))
        #expect(result.state == expected)
        #expect(result.state != .failed)
    }

    @Test("an empty search is unknown inside the consistency window, and not-found only after it with nothing stored")
    func laggingSearch() async throws {
        let (simulator, clock) = makeSimulator { $0.searchLag = 30 }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let started = clock.now()
        let done = try await pay(processor, sale("A3", capture: .manual))
        #expect(done.state == .authorized)
        // A fresh processor (another launch) that lost the id: only the search can find it.
        let fresh = makeProcessor(simulator, clock: clock)
        let lost = PaymentLookupQuery(reference: "A3", recordedState: .processing, captureMode: .manual, since: started)
        #expect(try await fresh.lookUpPayment(lost) == .unknown)
        clock.advance(by: 30)
        guard case .found(let found) = try await fresh.lookUpPayment(lost) else { Issue.record("not found"); return }
        #expect(found.state == .authorized)

        let never = PaymentLookupQuery(reference: "NEVER", recordedState: .processing, since: clock.now())
        #expect(try await fresh.lookUpPayment(never) == .unknown)
        clock.advance(by: StripeProcessor.Configuration().searchConsistencyWindow)
        #expect(try await fresh.lookUpPayment(never) == .notFound)
        _ = try await pay(processor, sale("HELD", policy: .forceOffline), routing: .offline)
        #expect(try await fresh.lookUpPayment(never) == .unknown, "the SDK stores a payment it does not list")
    }

    @Test("a payment forwarded just before a relaunch is not proven absent while Stripe's search catches up")
    func forwardedJustBeforeRelaunch() async throws {
        let (simulator, clock) = makeSimulator { $0.searchLag = 20 }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let recordedAt = clock.now()
        _ = try await pay(processor, sale("FJ", policy: .forceOffline), routing: .offline)
        clock.advance(by: 3_600)
        await simulator.forwardPendingPayments()
        await simulator.relaunch()  // the forwarding callback died with the process
        let fresh = try await connectedProcessor(simulator, clock: clock)
        let recorded = PaymentLookupQuery(reference: "FJ", recordedState: .processing, route: .offline,
                                          since: recordedAt)
        #expect(try await fresh.lookUpPayment(recorded) == .unknown, "recorded an hour ago, but just forwarded")
        clock.advance(by: 20)
        #expect(try await fresh.lookUpPayment(recorded).state == .forwarded)
        #expect(await simulator.chargeCount(reference: "FJ") == 1)
    }

    @Test("proofs: an id Stripe reports missing; a payment still `created` only after the windows (a power loss can leave `created` behind a stored payment); unreachable is unknown")
    func proofAndUnreachable() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let created = PaymentLookupQuery(reference: "C", recordedState: .created, since: clock.now())
        #expect(try await processor.lookUpPayment(created) == .unknown, "`created` with no id is no proof by itself")
        #expect(try await processor.lookUpPayment(PaymentLookupQuery(reference: "C", recordedState: .collecting,
                                                                     since: clock.now())) == .unknown)
        clock.advance(by: StripeProcessor.Configuration().searchConsistencyWindow)
        #expect(try await processor.lookUpPayment(created) == .notFound, "nothing stored, search empty, windows passed")
        #expect(try await processor.lookUpPayment(PaymentLookupQuery(reference: "X", processorPaymentID: "pi_missing"))
            == .notFound)
        let done = try await pay(processor, sale("UN"))
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        #expect(try await makeProcessor(simulator, clock: clock).lookUpPayment(query(done, since: clock.now())) == .unknown)
    }
}

/// A client over the simulator whose confirmation fails with an error carrying an intent in `status` (Stripe's
/// answer when it already acted on the intent, or is still working on it).
struct ConfirmOverrideClient: StripeClient {
    let simulator: StripeSimulator
    let status: Stripe.PaymentIntentStatus
    /// The error the confirmation fails with.
    var code: Stripe.ErrorCode.Code = .stripeAPIError

    func setTerminalDelegate(_ delegate: (any Stripe.TerminalDelegate)?) { simulator.setTerminalDelegate(delegate) }
    func setOfflineDelegate(_ delegate: (any Stripe.OfflineDelegate)?) { simulator.setOfflineDelegate(delegate) }
    func setLogListener(_ listener: @escaping @Sendable (String) -> Void) { simulator.setLogListener(listener) }
    func clearCachedCredentials() async throws(Stripe.ErrorCode) { try await simulator.clearCachedCredentials() }
    var connectionStatus: Stripe.ConnectionStatus { get async { await simulator.connectionStatus } }
    var paymentStatus: Stripe.PaymentStatus { get async { await simulator.paymentStatus } }
    var offlineStatus: Stripe.OfflineStatus { get async { await simulator.offlineStatus } }
    var connectedReader: Stripe.Reader? { get async { await simulator.connectedReader } }
    var offlineModeEnabled: Bool { get async { await simulator.offlineModeEnabled } }
    func discoverReaders(_ configuration: Stripe.DiscoveryConfiguration, delegate: any Stripe.DiscoveryDelegate,
                         completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void) async -> any Stripe.Cancelable {
        await simulator.discoverReaders(configuration, delegate: delegate, completion: completion)
    }
    func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.BluetoothConnectionConfiguration) async
        throws(Stripe.ErrorCode) -> Stripe.Reader { try await simulator.connectReader(reader, connectionConfig: connectionConfig) }
    func disconnectReader() async throws(Stripe.ErrorCode) { try await simulator.disconnectReader() }
    func rebootReader() async throws(Stripe.ErrorCode) { try await simulator.rebootReader() }
    func installAvailableUpdate() async { await simulator.installAvailableUpdate() }
    func createPaymentIntent(_ parameters: Stripe.PaymentIntentParameters, createConfig: Stripe.CreateConfiguration?)
        async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        try await simulator.createPaymentIntent(parameters, createConfig: createConfig)
    }
    func retrievePaymentIntent(clientSecret: String) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        try await simulator.retrievePaymentIntent(clientSecret: clientSecret)
    }
    func collectPaymentMethod(_ paymentIntent: Stripe.PaymentIntent,
                              collectConfig: Stripe.CollectPaymentIntentConfiguration?,
                              completion: @escaping @Sendable (Stripe.PaymentIntent?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await simulator.collectPaymentMethod(paymentIntent, collectConfig: collectConfig, completion: completion)
    }
    func confirmPaymentIntent(_ paymentIntent: Stripe.PaymentIntent,
                              confirmConfig: Stripe.ConfirmPaymentIntentConfiguration?,
                              completion: @escaping @Sendable (Stripe.PaymentIntent?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        var updated = paymentIntent
        updated.status = status
        completion(nil, Stripe.ErrorCode(code, message: "payment_intent_unexpected_state", paymentIntent: updated))
        return nil
    }
    func cancelPaymentIntent(_ paymentIntent: Stripe.PaymentIntent) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        try await simulator.cancelPaymentIntent(paymentIntent)
    }
    func collectRefundPaymentMethod(_ refundParams: Stripe.RefundParameters, refundConfig: Stripe.CollectRefundConfiguration?,
                                    completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void) async -> (any Stripe.Cancelable)? {
        await simulator.collectRefundPaymentMethod(refundParams, refundConfig: refundConfig, completion: completion)
    }
    func confirmRefund(completion: @escaping @Sendable (Stripe.Refund?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await simulator.confirmRefund(completion: completion)
    }
}
