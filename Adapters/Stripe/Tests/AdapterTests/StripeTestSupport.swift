import Foundation
import Tender
@_spi(Testing) import TenderStripe
import TenderStripeSimulator
import Testing
import TenderTesting

/// The app's capture service: records calls, passes them to the simulator's server, and can fail.
actor RecordingCaptureService: PaymentCaptureService {
    enum Call: Equatable { case capture(String, Int64), void(String) }
    private(set) var calls: [Call] = []
    /// The idempotency key of every call, in order: the core's, passed through unchanged.
    private(set) var keys: [String] = []
    var failNext = false
    private let simulator: StripeSimulator?

    init(simulator: StripeSimulator? = nil) { self.simulator = simulator }

    func setFailNext() { failNext = true }

    func capture(_ request: CaptureRequest) async throws {
        calls.append(.capture(request.processorPaymentID, request.amount.minorUnits))
        keys.append(request.idempotencyKey)
        if failNext { failNext = false; throw URLError(.timedOut) }
        try await simulator?.server.capture(request)
    }

    func void(_ request: VoidRequest) async throws {
        calls.append(.void(request.processorPaymentID))
        keys.append(request.idempotencyKey)
        if failNext { failNext = false; throw URLError(.timedOut) }
        try await simulator?.server.void(request)
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

/// A simulator with offline enabled (unless told otherwise) and its clock. Forwarding happens only when a test asks
/// (no background forwarding, none when the network returns) unless the test turns it on; search lags as configured.
func makeSimulator(offlineEnabled: Bool = true, seed: UInt64 = 7,
                   _ change: (inout Stripe.SimulatorConfiguration) -> Void = { _ in }) -> (StripeSimulator, ManualClock) {
    var configuration = Stripe.SimulatorConfiguration(offlineEnabled: offlineEnabled)
    configuration.forwardsWhenNetworkReturns = false
    configuration.backgroundForwardingDelay = nil
    change(&configuration)
    let clock = ManualClock()
    return (StripeSimulator(configuration: configuration, seed: seed, clock: clock), clock)
}

/// A processor over `simulator` with the simulator's server as its lookup and refund service.
func makeProcessor(_ simulator: StripeSimulator, clock: ManualClock, autoReconnect: Bool = true,
                   capture: RecordingCaptureService? = nil, serverLookup: Bool = true,
                   client: (any StripeClient)? = nil) -> StripeProcessor {
    StripeProcessor(client: client ?? simulator, captureService: capture ?? RecordingCaptureService(simulator: simulator),
                    serverLookup: serverLookup ? simulator.server : nil, refundService: simulator.server,
                    configuration: .withSimulatedReaders.with { $0.autoReconnectOnUnexpectedDisconnect = autoReconnect },
                    clock: clock, emitter: ProcessorEventEmitter(keepingHistory: true))
}

/// A processor over `simulator`, connected online to the simulated M2 at ``testLocation``.
func connectedProcessor(_ simulator: StripeSimulator, clock: ManualClock, autoReconnect: Bool = true,
                        capture: RecordingCaptureService? = nil, serverLookup: Bool = true,
                        client: (any StripeClient)? = nil) async throws -> StripeProcessor {
    let processor = makeProcessor(simulator, clock: clock, autoReconnect: autoReconnect, capture: capture,
                                  serverLookup: serverLookup, client: client)
    let readers = try await processor.discoverReaders(timeout: 5)
    let m2 = try #require(readers.first { $0.model == "stripeM2" })
    _ = try await processor.connectReader(m2, locationID: testLocation)
    return processor
}

func sale(_ reference: String, cents: Int64 = 1_000, capture: CaptureMode = .automatic,
          policy: OfflinePolicy = .preferOnline, currency: Currency = .usd) -> PaymentRequest {
    PaymentRequest(amount: Money(minorUnits: cents, currency: currency), reference: reference, captureMode: capture,
                   offlinePolicy: policy, metadata: ["lane": "1"])
}

func forwardedUpdates(_ processor: StripeProcessor) -> [ProcessorPaymentUpdate] {
    processor.emittedEvents.compactMap { if case .paymentForwarded(let update) = $0 { update } else { nil } }
}

/// Starts a payment as the facade does, recording nothing.
func pay(_ processor: StripeProcessor, _ request: PaymentRequest, routing: RoutingDecision = .online,
         attempt: PaymentAttempt = PaymentAttempt(),
         onUpdate: @escaping @Sendable (ProcessorPaymentUpdate) async throws -> Void = { _ in }) async throws
    -> ProcessorPaymentUpdate {
    try await processor.startPayment(request, routing: routing, attempt: attempt, updates: onUpdate)
}

/// The facade's retry of a payment whose outcome is not definite: the same vendor payment, continued.
func continuing(_ first: ProcessorPaymentUpdate, number: Int = 2, paymentAttempt: Int = 1) -> PaymentAttempt {
    PaymentAttempt(number: number, paymentAttempt: paymentAttempt, processorPaymentID: first.processorPaymentID,
                   previousState: first.state)
}

/// The facade's lookup query for a payment last recorded as `update` (first recorded at `since`).
func query(_ update: ProcessorPaymentUpdate, paymentAttempt: Int = 1, since: Date,
           captureMode: CaptureMode = .automatic) -> PaymentLookupQuery {
    PaymentLookupQuery(reference: update.reference, paymentAttempt: paymentAttempt,
                       processorPaymentID: update.processorPaymentID, recordedState: update.state, route: update.route,
                       captureMode: captureMode, since: since)
}

/// Collects a payment method through the simulator directly.
func collect(_ simulator: StripeSimulator, _ intent: Stripe.PaymentIntent,
             skipTipping: Bool = false) async -> (Stripe.PaymentIntent?, Stripe.ErrorCode?) {
    let box = Locked<(Stripe.PaymentIntent?, Stripe.ErrorCode?)?>(nil)
    _ = await simulator.collectPaymentMethod(intent, collectConfig: .init(skipTipping: skipTipping)) { intent, error in
        box.withLock { $0 = (intent, error) }
    }
    return box.current ?? (nil, Stripe.ErrorCode(.canceled, message: "no completion"))
}

/// Confirms through the simulator directly (it answers before returning unless a confirmation is held).
func confirm(_ simulator: StripeSimulator, _ intent: Stripe.PaymentIntent) async
    -> (Stripe.PaymentIntent?, Stripe.ErrorCode?) {
    let box = Locked<(Stripe.PaymentIntent?, Stripe.ErrorCode?)?>(nil)
    _ = await simulator.confirmPaymentIntent(intent, confirmConfig: nil) { intent, error in
        box.withLock { $0 = (intent, error) }
    }
    return box.current ?? (nil, Stripe.ErrorCode(.canceled, message: "no completion"))
}

/// Creates, collects and confirms through the simulator directly.
@discardableResult
func takeDirect(_ simulator: StripeSimulator, reference: String, amount: UInt = 1_500, currency: String = "usd",
                behavior: Stripe.OfflineBehavior = .preferOnline, capture: Stripe.CaptureMethod = .manual) async throws
    -> Stripe.PaymentIntent {
    let created = try await simulator.createPaymentIntent(
        Stripe.PaymentIntentParameters(amount: amount, currency: currency, captureMethod: capture,
                                       metadata: ["tender_reference": reference]),
        createConfig: .init(offlineBehavior: behavior))
    let (collected, collectError) = await collect(simulator, created)
    if let collectError { throw collectError }
    let (confirmed, confirmError) = await confirm(simulator, try #require(collected))
    if let confirmError { throw confirmError }
    return try #require(confirmed)
}

/// Waits (yielding) until `condition` holds.
func eventually(_ condition: () async -> Bool) async {
    for _ in 0..<10_000 {
        if await condition() { return }
        await Task.yield()
    }
    Issue.record("condition never held")
}

/// Records every SDK callback as a line, and can cancel updates or reconnections as they start.
final class RecordingDelegate: Stripe.MobileReaderDelegate, Stripe.OfflineDelegate, Stripe.DiscoveryDelegate,
    Stripe.TerminalDelegate {
    private let recorded = Locked<[String]>([])
    private let discoveredLists = Locked<[[Stripe.Reader]]>([])
    private let forwardedIntents = Locked<[(Stripe.PaymentIntent, Stripe.ErrorCode?)]>([])
    let cancelUpdates: Bool
    let cancelReconnects: Bool

    init(cancelUpdates: Bool = false, cancelReconnects: Bool = false) {
        self.cancelUpdates = cancelUpdates
        self.cancelReconnects = cancelReconnects
    }

    var lines: [String] { recorded.current }
    var discovered: [[Stripe.Reader]] { discoveredLists.current }
    var forwarded: [(Stripe.PaymentIntent, Stripe.ErrorCode?)] { forwardedIntents.current }
    private func record(_ line: String) { recorded.withLock { $0.append(line) } }

    func didUpdateDiscoveredReaders(_ readers: [Stripe.Reader]) { discoveredLists.withLock { $0.append(readers) } }
    func didChangeConnectionStatus(_ status: Stripe.ConnectionStatus) { record("connection \(status.rawValue)") }
    func didChangePaymentStatus(_ status: Stripe.PaymentStatus) { record("payment \(status.rawValue)") }
    func didChangeOfflineStatus(_ offlineStatus: Stripe.OfflineStatus) {
        record("offline \(offlineStatus.sdk.networkStatus.rawValue) \(offlineStatus.sdk.paymentsCount.map(String.init) ?? "nil")")
    }
    func didForwardPaymentIntent(_ intent: Stripe.PaymentIntent, error: Stripe.ErrorCode?) {
        forwardedIntents.withLock { $0.append((intent, error)) }
        record("forwarded \(error?.code.name ?? "ok")")
    }
    func didReportForwardingError(_ error: Stripe.ErrorCode) { record("forwardingError \(error.code.name)") }
    func didReportAvailableUpdate(_ update: Stripe.ReaderSoftwareUpdate) { record("updateAvailable") }
    func didStartInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate, cancelable: (any Stripe.Cancelable)?) {
        record("updateStarted")
        if cancelUpdates { cancelable?.cancel { _ in } }
    }
    func didReportReaderSoftwareUpdateProgress(_ progress: Float) { record("progress \(progress)") }
    func didFinishInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate?, error: Stripe.ErrorCode?) {
        record("updateFinished \(error?.code.name ?? "ok")")
    }
    func didRequestReaderInput(_ inputOptions: Stripe.ReaderInputOptions) { record("input \(inputOptions.rawValue)") }
    func didRequestReaderDisplayMessage(_ displayMessage: Stripe.ReaderDisplayMessage) {
        record("display \(displayMessage.rawValue)")
    }
    func didReportReaderEvent(_ event: Stripe.ReaderEvent) { record("event \(event.rawValue)") }
    func didReportBatteryLevel(_ batteryLevel: Float, status: Stripe.BatteryStatus, isCharging: Bool) {
        record("battery")
    }
    func didDisconnect(_ reason: Stripe.DisconnectReason) { record("disconnect \(reason.rawValue)") }
    func didStartReconnect(_ cancelable: any Stripe.Cancelable, disconnectReason: Stripe.DisconnectReason) {
        record("reconnectStarted \(disconnectReason.rawValue)")
        if cancelReconnects { cancelable.cancel { _ in } }
    }
    func didSucceedReconnect() { record("reconnectSucceeded") }
    func didFailReconnect() { record("reconnectFailed") }
}

/// A token provider that fails, or answers with nothing.
struct FailingTokenProvider: Stripe.ConnectionTokenProvider {
    let empty: Bool
    func fetchConnectionToken() async throws -> String {
        if empty { return "" }
        throw URLError(.notConnectedToInternet)
    }
}

let m2Reader = Stripe.SimulatorConfiguration.defaultReaders[0]
let wisePadReader = Stripe.SimulatorConfiguration.defaultReaders[2]

/// Connects `reader` at `location` with a recording delegate.
@discardableResult
func connect(_ simulator: StripeSimulator, _ reader: Stripe.Reader = m2Reader, location: String = testLocation,
                     delegate: RecordingDelegate = RecordingDelegate(), autoReconnect: Bool = true)
    async throws(Stripe.ErrorCode) -> Stripe.Reader {
    try await simulator.connectReader(reader, connectionConfig: Stripe.BluetoothConnectionConfiguration(
        locationId: location, autoReconnectOnUnexpectedDisconnect: autoReconnect, delegate: delegate))
}

func connectError(_ simulator: StripeSimulator, _ reader: Stripe.Reader = m2Reader, location: String = testLocation,
                          delegate: RecordingDelegate = RecordingDelegate()) async -> Stripe.ErrorCode? {
    do {
        try await connect(simulator, reader, location: location, delegate: delegate)
        return nil
    } catch {
        return error
    }
}
