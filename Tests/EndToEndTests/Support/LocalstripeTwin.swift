import Foundation
import Testing
import Tender
import TenderStripe
import TenderStripeSimulator

/// TEST-ONLY. The Stripe Terminal SDK's own calls to Stripe's API, made real at localstripe: a `StripeClient` that is
/// the simulator for everything on the device (readers, collection, the SDK's checks and declines), and that also
/// does at localstripe what the real SDK does at Stripe — `createPaymentIntent` creates the intent there (same amount,
/// currency, capture method and metadata: the adapter's own, `tender_location` included), and a confirmation the
/// simulator approves or declines is confirmed there with a test card that Stripe approves or declines the same way.
/// The device then holds localstripe's intent id, so every later request (capture, void, refund, lookups, abandon)
/// goes through the adapter's server seams (`TenderBackendClient` → the routes → `StripeServerClient`) to localstripe
/// and acts on the intent the SDK made. localstripe has no card-present method: the twin uses `card`.
final class LocalstripeTwinClient: StripeClient, @unchecked Sendable {
    let simulator: StripeSimulator
    let stack: EndToEndStack
    private let lock = NSLock()
    /// Simulator intent id → localstripe intent id, and back.
    private var twins: [String: String] = [:]
    private var simulated: [String: String] = [:]

    init(simulator: StripeSimulator, stack: EndToEndStack) {
        self.simulator = simulator
        self.stack = stack
    }

    private func toDevice(_ intent: Stripe.PaymentIntent?) -> Stripe.PaymentIntent? {
        guard var intent else { return nil }
        if let id = intent.stripeId, let twin = lock.withLock({ twins[id] }) { intent.stripeId = twin }
        return intent
    }

    private func toSimulator(_ intent: Stripe.PaymentIntent) -> Stripe.PaymentIntent {
        var intent = intent
        if let id = intent.stripeId, let original = lock.withLock({ simulated[id] }) { intent.stripeId = original }
        return intent
    }

    private func toDevice(_ error: Stripe.ErrorCode?) -> Stripe.ErrorCode? {
        guard var error else { return nil }
        error.paymentIntent = toDevice(error.paymentIntent)
        return error
    }

    /// Creates the intent at localstripe, as the SDK does online.
    private func createTwin(of intent: Stripe.PaymentIntent) async throws {
        guard let id = intent.stripeId else { return }  // created offline: Stripe sees it only when forwarded
        var form = ["amount=\(intent.amount)", "currency=\(intent.currency)", "payment_method_types[]=card",
                    "capture_method=\(intent.captureMethod == .manual ? "manual" : "automatic")"]
        for (key, value) in intent.metadata.sorted(by: { $0.key < $1.key }) {
            form.append("metadata[\(key)]=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)")
        }
        let (status, created) = try await stack.stripe("POST", "v1/payment_intents", form.joined(separator: "&"))
        let twin = try #require(created["id"] as? String, "localstripe did not create the SDK's intent: \(status) \(created)")
        lock.withLock {
            twins[id] = twin
            simulated[twin] = id
        }
    }

    /// Confirms the twin with a card Stripe answers as the simulator did (approved, or `card_declined`).
    private func confirmTwin(_ id: String, declined: Bool) async throws {
        guard let twin = lock.withLock({ twins[id] }) else { return }
        // localstripe declines 4000000000000341 when it charges (its 4000000000000002 declines only on attaching).
        let number = declined ? "4000000000000341" : "4242424242424242"
        let (_, method) = try await stack.stripe("POST", "v1/payment_methods",
                                                 "type=card&card[number]=\(number)&card[exp_month]=12&card[exp_year]=2034&card[cvc]=123")
        let methodID = try #require(method["id"] as? String)
        _ = try await stack.stripe("POST", "v1/payment_intents/\(twin)", "payment_method=\(methodID)")
        let (status, answer) = try await stack.stripe("POST", "v1/payment_intents/\(twin)/confirm", "")
        let after = try await stack.stripe("GET", "v1/payment_intents/\(twin)").1["status"] as? String
        #expect(declined ? after == "requires_payment_method" : status == 200,
                "localstripe's confirmation of \(twin): \(status) \(answer)")
    }

    // MARK: StripeClient: the payments, twinned

    func createPaymentIntent(_ parameters: Stripe.PaymentIntentParameters, createConfig: Stripe.CreateConfiguration?)
        async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        let intent = try await simulator.createPaymentIntent(parameters, createConfig: createConfig)
        do { try await createTwin(of: intent) } catch {
            Issue.record("the twin of \(intent.stripeId ?? "an offline intent") was not created: \(error)")
        }
        return toDevice(intent) ?? intent
    }

    func confirmPaymentIntent(_ paymentIntent: Stripe.PaymentIntent,
                              confirmConfig: Stripe.ConfirmPaymentIntentConfiguration?,
                              completion: @escaping @Sendable (Stripe.PaymentIntent?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        let original = toSimulator(paymentIntent)
        return await simulator.confirmPaymentIntent(original, confirmConfig: confirmConfig) { intent, error in
            Task {
                if let id = original.stripeId {
                    let approved = intent.map { $0.status == .requiresCapture || $0.status == .succeeded } ?? false
                    let declined = error?.code == .declinedByStripeAPI
                    if approved || declined {
                        do { try await self.confirmTwin(id, declined: declined) } catch {
                            Issue.record("the twin of \(id) was not confirmed: \(error)")
                        }
                    }
                }
                completion(self.toDevice(intent), self.toDevice(error))
            }
        }
    }

    func collectPaymentMethod(_ paymentIntent: Stripe.PaymentIntent,
                              collectConfig: Stripe.CollectPaymentIntentConfiguration?,
                              completion: @escaping @Sendable (Stripe.PaymentIntent?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await simulator.collectPaymentMethod(toSimulator(paymentIntent), collectConfig: collectConfig) { intent, error in
            completion(self.toDevice(intent), self.toDevice(error))
        }
    }

    func retrievePaymentIntent(clientSecret: String) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        let intent = try await simulator.retrievePaymentIntent(clientSecret: clientSecret)
        return toDevice(intent) ?? intent
    }

    func cancelPaymentIntent(_ paymentIntent: Stripe.PaymentIntent) async throws(Stripe.ErrorCode)
        -> Stripe.PaymentIntent {
        let original = toSimulator(paymentIntent)
        let canceled = try await simulator.cancelPaymentIntent(original)
        if let id = original.stripeId, let twin = lock.withLock({ twins[id] }) {
            _ = try? await stack.stripe("POST", "v1/payment_intents/\(twin)/cancel", "")
        }
        return toDevice(canceled) ?? canceled
    }

    // MARK: StripeClient: the device, as the simulator has it

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
        throws(Stripe.ErrorCode) -> Stripe.Reader {
        try await simulator.connectReader(reader, connectionConfig: connectionConfig)
    }

    func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.TapToPayConnectionConfiguration) async
        throws -> Stripe.Reader {
        try await simulator.connectReader(reader, connectionConfig: connectionConfig)
    }

    func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.InternetConnectionConfiguration) async
        throws -> Stripe.Reader {
        try await simulator.connectReader(reader, connectionConfig: connectionConfig)
    }

    func setReaderDisplay(_ cart: Stripe.Cart) async throws { try await simulator.setReaderDisplay(cart) }
    func clearReaderDisplay() async throws { try await simulator.clearReaderDisplay() }
    func disconnectReader() async throws(Stripe.ErrorCode) { try await simulator.disconnectReader() }
    func rebootReader() async throws(Stripe.ErrorCode) { try await simulator.rebootReader() }
    func installAvailableUpdate() async { await simulator.installAvailableUpdate() }

    func collectRefundPaymentMethod(_ refundParams: Stripe.RefundParameters,
                                    refundConfig: Stripe.CollectRefundConfiguration?,
                                    completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await simulator.collectRefundPaymentMethod(refundParams, refundConfig: refundConfig, completion: completion)
    }

    func confirmRefund(completion: @escaping @Sendable (Stripe.Refund?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await simulator.confirmRefund(completion: completion)
    }
}
