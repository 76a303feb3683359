import Foundation
@_spi(Testing) import Tender

/// Tender's ``PaymentProcessor`` for Stripe Terminal, over any ``StripeClient`` (the SDK's bridge on iOS,
/// ``StripeSimulator`` elsewhere).
///
/// - Each vendor payment of a reference is one PaymentIntent, with Tender's reference and the vendor payment number
///   in its metadata (``StripeMapping/referenceMetadataKey``, ``StripeMapping/attemptMetadataKey``), so that an
///   intent created offline (nil `stripeId`) is matched back when `didForwardPaymentIntent` reports it, and an intent
///   is found on Stripe after a relaunch.
/// - While a payment's outcome is not final, a retry continues the same PaymentIntent, following seed 002's
///   processing-failure table (``StripeMapping/ConfirmFailure``); it never creates a second one while the first could
///   still charge. After a definite decline or failure, the core starts a new vendor payment and the adapter a new
///   PaymentIntent, having canceled the old one (``abandonPayment(_:)``).
/// - What the SDK and Stripe say is merged so that a lagging server copy never overrides a more advanced local one,
///   and an empty search is "not seen yet" until ``searchConsistencyWindow`` has passed (``lookUpPayment(_:)``).
/// - A lookup that cannot see the SDK's store is not proof: the SDK stores offline payments durably and lists none of
///   them (`offlineStatus.sdk` gives only a count and amounts by currency), and Stripe's search sees a stored intent
///   only once forwarded. An empty search is ``ProcessorLookup/notFound`` only after the window with the SDK seen
///   storing nothing for as long, whatever state the ledger recorded (after a power loss `created` may be all that
///   is left of a payment the SDK stored); the core also reads "not found" as unknown while the SDK counts stored
///   payments that could be the session's.
/// - Attribution: an intent found by search is the session's only when its metadata names the same vendor payment and
///   its total is the session's; updates carry the intent's total and attempt
///   (``Tender/ProcessorPaymentUpdate/amount``, ``Tender/ProcessorPaymentUpdate/paymentAttempt``), and forwarding
///   results are kept by reference and attempt, so an intent of another sale under a reused reference is a
///   duplicate reference, and an earlier attempt's result never lands on a later one.
/// - Capture, void, refunds and server lookups go through the app's server: ``PaymentCaptureService``,
///   ``PaymentRefundService`` and ``StripeServerLookup`` (Stripe captures, refunds and searches on the server on
///   iOS); Interac refunds go through the reader.
public actor StripeProcessor: PaymentProcessor {
    /// `"stripe"`.
    public nonisolated let name = "stripe"
    /// Stripe's own offline maximum per payment: "10,000 USD or equivalent in your operating currency" (seed 000).
    /// Only the USD figure is stated; pass the equivalent for another operating currency at initialization.
    public static let stripeOfflineMaximum: [Currency: Int64] = [.usd: 1_000_000]
    /// How long Stripe's Search may take to show a new or changed PaymentIntent: Stripe documents Search as
    /// eventually consistent, "up to about a minute" (see ``StripeServerLookup``). An empty search is read as
    /// "not seen yet" (``ProcessorLookup/unknown``) until this long after the payment was first recorded.
    public static let defaultSearchConsistencyWindow: Double = 60
    /// How long after a refund succeeded Stripe may still report it `failed` (reported as
    /// ``ProcessorCapabilities/refundChangeWindow``; the core looks succeeded refunds up again until then). Stripe
    /// documents refunds that move from `succeeded` to `failed` later (`charge.refund.updated`; the test card
    /// 4000000000005126 "fails asynchronously with `expired_or_canceled_card`") but publishes no bound: 30 days is
    /// UNVERIFIED, a generous guess. Configure it at initialization.
    public static let defaultRefundFailureWindow: Double = 30 * 24 * 60 * 60

    let client: any StripeClient
    let captureService: any PaymentCaptureService
    let serverLookup: (any StripeServerLookup)?
    let refundService: (any PaymentRefundService)?
    let clock: any TenderClock
    let bridge: StripeEventBridge
    let autoReconnect: Bool
    let offlineMaximum: [Currency: Int64]
    let discoversSimulatedReaders: Bool
    /// The search consistency window in use (``defaultSearchConsistencyWindow`` unless configured).
    public nonisolated let searchConsistencyWindow: Double
    /// How long after success a refund is followed (``defaultRefundFailureWindow`` unless configured).
    public nonisolated let refundFailureWindow: Double

    /// The SDK objects this processor holds, by reference: the current vendor payment's intent as the SDK last
    /// handed it out, what is known of its last confirmation, and the command in flight. Empty after a relaunch.
    var held: [String: HeldIntent] = [:]
    /// References whose payment ``cancelPayment(reference:)`` canceled between two steps.
    var cancelRequested: Set<String> = []
    /// The readers of the last discovery, by serial number.
    var discovered: [String: Stripe.Reader] = [:]

    /// Creates the adapter and installs its terminal and offline delegates on `client` (the SDK has one of each: a
    /// new processor, after a relaunch, replaces the old one's).
    /// - Parameters:
    ///   - client: the SDK (bridge) or the simulator.
    ///   - captureService: the app's server-side capture and void.
    ///   - serverLookup: the app's server-side view of Stripe's PaymentIntents (retrieve, search, cancel). Without
    ///     it, recovery can use only what the SDK holds in memory, and answers ``ProcessorLookup/unknown`` otherwise.
    ///   - refundService: the app's server-side refunds (`POST /v1/refunds`); ``capabilities()`` reports refunds only
    ///     with one.
    ///   - clock: for deadlines, stored times the SDK does not give and the search window.
    ///   - autoReconnectOnUnexpectedDisconnect: the connection configuration's setting (Stripe's default is on).
    ///   - offlinePerPaymentMaximum: the processor limit reported in ``capabilities()`` when offline is enabled.
    ///   - searchConsistencyWindow: see ``defaultSearchConsistencyWindow``.
    ///   - refundFailureWindow: see ``defaultRefundFailureWindow``.
    public init(client: any StripeClient, captureService: any PaymentCaptureService,
                serverLookup: (any StripeServerLookup)? = nil, refundService: (any PaymentRefundService)? = nil,
                clock: any TenderClock = SystemClock(), autoReconnectOnUnexpectedDisconnect: Bool = true,
                offlinePerPaymentMaximum: [Currency: Int64] = StripeProcessor.stripeOfflineMaximum,
                searchConsistencyWindow: Double = StripeProcessor.defaultSearchConsistencyWindow,
                refundFailureWindow: Double = StripeProcessor.defaultRefundFailureWindow) {
        self.init(client: client, captureService: captureService, serverLookup: serverLookup,
                  refundService: refundService, clock: clock,
                  autoReconnectOnUnexpectedDisconnect: autoReconnectOnUnexpectedDisconnect,
                  offlinePerPaymentMaximum: offlinePerPaymentMaximum, searchConsistencyWindow: searchConsistencyWindow,
                  refundFailureWindow: refundFailureWindow, simulatedReaders: false, keepingEventHistory: false)
    }

    /// The same, with the test hooks (`@_spi(Testing) import TenderStripe`: tests, the demo and the tools):
    /// - Parameters:
    ///   - simulatedReaders: discover simulated readers (`setSimulated(true)`); the SDK's default finds real ones.
    ///   - keepingEventHistory: keep every event for inspection (``emittedEvents``).
    @_spi(Testing)
    public init(client: any StripeClient, captureService: any PaymentCaptureService,
                serverLookup: (any StripeServerLookup)? = nil, refundService: (any PaymentRefundService)? = nil,
                clock: any TenderClock = SystemClock(), autoReconnectOnUnexpectedDisconnect: Bool = true,
                offlinePerPaymentMaximum: [Currency: Int64] = StripeProcessor.stripeOfflineMaximum,
                searchConsistencyWindow: Double = StripeProcessor.defaultSearchConsistencyWindow,
                refundFailureWindow: Double = StripeProcessor.defaultRefundFailureWindow,
                simulatedReaders: Bool, keepingEventHistory: Bool = false) {
        self.client = client
        self.captureService = captureService
        self.serverLookup = serverLookup
        self.refundService = refundService
        self.clock = clock
        self.autoReconnect = autoReconnectOnUnexpectedDisconnect
        self.offlineMaximum = offlinePerPaymentMaximum
        self.searchConsistencyWindow = searchConsistencyWindow
        self.refundFailureWindow = refundFailureWindow
        self.discoversSimulatedReaders = simulatedReaders
        self.bridge = StripeEventBridge(emitter: ProcessorEventEmitter(keepingHistory: keepingEventHistory), clock: clock)
        client.setTerminalDelegate(bridge)
        client.setOfflineDelegate(bridge)
    }

    /// Every event sent so far (only with `keepingEventHistory`).
    @_spi(Testing) public nonisolated var emittedEvents: [ProcessorEvent] { bridge.emitter.emitted }

    /// The adapter's events.
    public nonisolated func events() -> AsyncStream<ProcessorEvent> { bridge.emitter.stream }

    // MARK: - Capabilities and status

    /// Stripe's 10,000 USD per payment offline when offline mode is enabled (nil otherwise); manual and partial
    /// capture (Stripe's `amount_to_capture` up to the authorized amount); metadata; refunds when a refund service
    /// was given, followed for ``refundFailureWindow`` after they succeed; Stripe's largest amount (``amountLimits``).
    public func capabilities() async -> ProcessorCapabilities {
        let enabled = await client.offlineModeEnabled
        return ProcessorCapabilities(processorName: name,
                                     offlineLimits: enabled ? ProcessorOfflineLimits(perPaymentMaximum: offlineMaximum) : nil,
                                     supportedCurrencies: nil, supportsManualCapture: true, supportsTips: true,
                                     supportsPartialCapture: true, supportsMetadata: true,
                                     supportsRefunds: refundService != nil, amountLimits: Self.amountLimits,
                                     refundChangeWindow: refundService == nil ? 0 : refundFailureWindow)
    }

    /// The largest amount Stripe accepts, in the currency's smallest unit: "The amount value supports up to eight
    /// digits (e.g., a value of 99999999 for a USD charge of $999,999.99)" (Stripe API reference, PaymentIntent
    /// `amount`); a larger amount fails with the API error `amount_too_large`. Applied to every currency (Stripe's
    /// currencies page may list per-currency exceptions; none is in this project's reference, so none is assumed).
    public static let maximumAmountMinorUnits: Int64 = 99_999_999

    /// ``maximumAmountMinorUnits`` for every currency, as the core applies it before Stripe is called.
    public static let amountLimits = ProcessorAmountLimits(
        maximumForOtherCurrencies: maximumAmountMinorUnits,
        source: "Stripe accepts at most eight digits in the currency's smallest unit; more fails with amount_too_large",
        isDocumented: true)

    /// The SDK's own view: `offlineStatus.sdk.networkStatus`.
    public func networkStatus() async -> NetworkStatus {
        StripeMapping.networkStatus(await client.offlineStatus.sdk.networkStatus)
    }

    // MARK: - Readers

    /// A Bluetooth scan for `timeout` seconds (rounded up; at least one).
    public func discoverReaders(timeout: Double) async throws -> [Reader] {
        try await scan(timeout: timeout).map(StripeMapping.reader)
    }

    /// Connects at `locationID`, with automatic reconnection as configured.
    public func connectReader(_ reader: Reader, locationID: String) async throws -> Reader {
        let target = discovered[reader.id]
            ?? Stripe.Reader(serialNumber: reader.id, deviceType: Stripe.DeviceType(rawValue: reader.model) ?? .stripeM2)
        let configuration = Stripe.BluetoothConnectionConfiguration(
            locationId: locationID, autoReconnectOnUnexpectedDisconnect: autoReconnect, delegate: bridge)
        do {
            return StripeMapping.reader(try await client.connectReader(target, connectionConfig: configuration))
        } catch {
            var mapped = StripeMapping.paymentError(error, phase: .readerConnection)
            if error.code == .notConnectedToInternet {
                // Seed 000's first connect-while-offline refusal ("The SDK isn't connected to the internet"): surface
                // it as the offline-connection refusal it is, keeping Stripe's error intact.
                mapped.code = .readerOfflineConnectionRefused
                mapped.message = "The reader cannot be connected offline: connect any reader online first, and make "
                    + "sure the location is configured for offline mode."
            }
            throw mapped
        }
    }

    /// Disconnects the reader.
    public func disconnectReader() async throws {
        do { try await client.disconnectReader() } catch { throw StripeMapping.paymentError(error, phase: .readerConnection) }
    }

    /// Reconnects on app start to the reader whose serial number the app saved (seed 004): scans for `timeout`
    /// seconds and connects if that reader is found; otherwise this throws ``PaymentError/Code/readerConnectionFailed``.
    public func connectSavedReader(serialNumber: String, locationID: String, timeout: Double = 10) async throws -> Reader {
        let readers = try await scan(timeout: timeout)
        guard let saved = readers.first(where: { $0.serialNumber == serialNumber }) else {
            throw PaymentError(.readerConnectionFailed, recovery: .reconnectReader, phase: .readerConnection,
                               message: "The saved reader \(serialNumber) was not found nearby.")
        }
        return try await connectReader(StripeMapping.reader(saved), locationID: locationID)
    }

    /// Installs the optional update the reader reported (`installAvailableUpdate`), and waits for the reader delegate
    /// to report its end. Progress arrives as events.
    public func installAvailableUpdate() async throws {
        let finished = bridge.expectUpdateFinish()
        await client.installAvailableUpdate()
        if let error = await finished.value { throw StripeMapping.paymentError(error, phase: .softwareUpdate) }
    }

    /// `rebootReader`: the reader reboots; with automatic reconnection on, it reconnects.
    public func rebootReader() async throws {
        do { try await client.rebootReader() } catch { throw StripeMapping.paymentError(error, phase: .readerConnection) }
    }

    func scan(timeout: Double) async throws -> [Stripe.Reader] {
        let collector = DiscoveryCollector()
        let done = SDKCompletion<Stripe.ErrorCode?>()
        let configuration = Stripe.DiscoveryConfiguration(method: .bluetoothScan, timeout: UInt(max(1, timeout.rounded(.up))),
                                                          simulated: discoversSimulatedReaders)
        _ = await client.discoverReaders(configuration, delegate: collector, completion: { done.resume($0) })
        if let error = await done.value { throw StripeMapping.paymentError(error, phase: .readerConnection) }
        let readers = collector.readers
        for reader in readers { discovered[reader.serialNumber] = reader }
        return readers
    }
}

/// Collects the readers a discovery reports; the last list wins (Bluetooth proximity reports a reader twice).
final class DiscoveryCollector: Stripe.DiscoveryDelegate {
    private let latest = Locked<[Stripe.Reader]>([])
    var readers: [Stripe.Reader] { latest.current }
    func didUpdateDiscoveredReaders(_ readers: [Stripe.Reader]) { latest.withLock { $0 = readers } }
}

/// One SDK completion, awaited once: the first value wins, later ones are ignored, and waiting ignores task
/// cancellation (the SDK's answer is what counts; see ``PaymentProcessor``'s cancellation rules).
final class SDKCompletion<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var delivered = false
        var waiter: CheckedContinuation<Value, Never>?
    }
    private let state = Locked(State())

    init() {}

    /// The SDK's completion block.
    func resume(_ value: Value) {
        let waiter = state.withLock { s -> CheckedContinuation<Value, Never>? in
            guard !s.delivered, s.value == nil else { return nil }
            if let waiter = s.waiter {
                s.waiter = nil
                s.delivered = true
                return waiter
            }
            s.value = value
            return nil
        }
        waiter?.resume(returning: value)
    }

    /// The value, once the SDK has answered.
    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { s -> Value? in
                    if let value = s.value, !s.delivered {
                        s.delivered = true
                        return value
                    }
                    s.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
