public import Foundation
@_spi(Testing) public import Tender

/// Tender's ``PaymentProcessor`` for Stripe Terminal, over any ``StripeClient`` (the SDK's bridge on iOS,
/// ``StripeSimulator`` elsewhere).
///
/// - Each vendor payment of a reference is one PaymentIntent, with Tender's reference and the vendor payment number
///   in its metadata (``StripeMapping/referenceMetadataKey``, ``StripeMapping/attemptMetadataKey``), so that an
///   intent created offline (nil `stripeId`) is matched back when `didForwardPaymentIntent` reports it, and an intent
///   is found on Stripe after a relaunch.
/// - While a payment's outcome is not final, a retry continues the same PaymentIntent, following Stripe's
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
    /// Stripe's own offline maximum per payment: 10,000 USD (Stripe states only the USD figure; configure the
    /// equivalent for another operating currency in ``Configuration/offlinePerPaymentMaximum``).
    public static let stripeOfflineMaximum: [Currency: Int64] = [.usd: 1_000_000]

    /// The adapter's settings, including limits Stripe's SDK does not report. The same roles carry the same names
    /// as in `SquareProcessor.Configuration`.
    public struct Configuration: Sendable {
        /// Whether the reader reconnects on its own after an unexpected disconnect (the connection configuration's
        /// setting; Stripe's default is on).
        public var autoReconnectOnUnexpectedDisconnect = true
        /// The most one payment may take offline, per currency, reported in ``capabilities()`` when offline mode
        /// is enabled: ``StripeProcessor/stripeOfflineMaximum`` by default.
        public var offlinePerPaymentMaximum: [Currency: Int64] = StripeProcessor.stripeOfflineMaximum
        /// How long after a vendor payment was first recorded an empty search of Stripe's PaymentIntents still
        /// proves nothing: Stripe documents Search as eventually consistent ("up to about a minute"), so until then an
        /// empty search reads as ``ProcessorLookup/unknown``.
        public var searchConsistencyWindow: TimeInterval = 60
        /// How long after a refund succeeded Stripe may still report it failed (reported as
        /// ``ProcessorCapabilities/refundChangeWindow``; the core looks succeeded refunds up again until then).
        /// Stripe documents refunds that move from `succeeded` to `failed` later but publishes no bound; the default
        /// is a generous 30 days.
        // Unverified: see Documentation/FIDELITY.md
        public var refundChangeWindow: TimeInterval = 30 * 24 * 60 * 60
        /// Whether readers are simulated: discovery asks the SDK for simulated readers (`setSimulated(true)`); the
        /// SDK's default finds real ones.
        public var simulatedReaders = false
        /// Whether a Bluetooth discovery looks for the closest reader only (Stripe's Bluetooth proximity, Chipper 2X
        /// BT only; it reports the reader twice, serial number first) instead of scanning for every reader in range.
        public var bluetoothProximity = false
        /// The business name Apple's Tap to Pay terms sheet shows when the account accepts them during a Tap to Pay
        /// connection (the connection configuration's `merchantDisplayName`); `nil` for the account's own.
        public var tapToPayMerchantDisplayName: String?

        /// The defaults.
        public init() {}
    }

    let client: any StripeClient
    let captureService: any PaymentCaptureService
    let serverLookup: (any StripeServerLookup)?
    let refundService: (any PaymentRefundService)?
    package nonisolated let configuration: Configuration
    let clock: any TenderClock
    let bridge: StripeEventBridge
    /// The search consistency window in use (``Configuration/searchConsistencyWindow``).
    nonisolated var searchConsistencyWindow: TimeInterval { configuration.searchConsistencyWindow }

    /// The SDK objects this processor holds, by reference: the current vendor payment's intent as the SDK last
    /// handed it out, what is known of its last confirmation, and the command in flight. Empty after a relaunch.
    var held: [String: HeldIntent] = [:]
    /// References whose payment ``cancelPayment(reference:)`` canceled between two steps.
    var cancelRequested: Set<String> = []
    /// The readers discoveries reported, by serial number (the SDK connects the object it handed out).
    nonisolated let discovered = Locked<[String: Stripe.Reader]>([:])

    /// Creates the adapter and installs its terminal and offline delegates on `client` (the SDK has one of each: a
    /// new processor, after a relaunch, replaces the old one's). Apps create one with the bridge's
    /// `StripeProcessor.terminal(…)` or the simulator's `makeProcessor(…)`.
    /// - Parameters:
    ///   - client: the SDK (bridge) or the simulator.
    ///   - captureService: the app's server-side capture and void.
    ///   - serverLookup: the app's server-side view of Stripe's PaymentIntents (retrieve, search, cancel). Without
    ///     it, recovery can use only what the SDK holds in memory, and answers ``ProcessorLookup/unknown`` otherwise.
    ///   - refundService: the app's server-side refunds (`POST /v1/refunds`); ``capabilities()`` reports refunds only
    ///     with one.
    ///   - configuration: the settings.
    ///   - clock: for deadlines, stored times the SDK does not give and the search window.
    ///   - emitter: where events go (pass one `keepingHistory` to inspect them in tests).
    package init(client: any StripeClient, captureService: any PaymentCaptureService,
                 serverLookup: (any StripeServerLookup)? = nil, refundService: (any PaymentRefundService)? = nil,
                 configuration: Configuration = Configuration(), clock: any TenderClock = SystemClock(),
                 emitter: ProcessorEventEmitter = ProcessorEventEmitter()) {
        self.client = client
        self.captureService = captureService
        self.serverLookup = serverLookup
        self.refundService = refundService
        self.configuration = configuration
        self.clock = clock
        self.bridge = StripeEventBridge(emitter: emitter, clock: clock)
        client.setTerminalDelegate(bridge)
        client.setOfflineDelegate(bridge)
    }

    /// Every event sent so far (only with an emitter `keepingHistory`).
    package nonisolated var emittedEvents: [ProcessorEvent] { bridge.emitter.emitted }

    /// The adapter's events.
    public nonisolated func events() -> AsyncStream<ProcessorEvent> { bridge.emitter.stream }

    // MARK: - Capabilities and status

    /// Stripe's 10,000 USD per payment offline when offline mode is enabled (nil otherwise); manual and partial
    /// capture (Stripe's `amount_to_capture` up to the authorized amount); metadata; refunds when a refund service
    /// was given, followed for ``Configuration/refundChangeWindow`` after they succeed; Stripe's largest amount.
    public func capabilities() async -> ProcessorCapabilities {
        // Offline mode is enabled per account and location, and then per reader kind as Stripe documents it.
        var enabled = await client.offlineModeEnabled
        if let reader = await client.connectedReader, !reader.deviceType.features.contains(.offline) { enabled = false }
        var capabilities = ProcessorCapabilities(
            processorName: name,
            offlineLimits: enabled ? ProcessorOfflineLimits(perPaymentMaximum: configuration.offlinePerPaymentMaximum) : nil,
            supportedCurrencies: nil, supportsManualCapture: true, supportsTips: true,
            supportsPartialCapture: true, supportsMetadata: true,
            supportsRefunds: refundService != nil, amountLimits: Self.amountLimits,
            refundChangeWindow: refundService == nil ? 0 : configuration.refundChangeWindow)
        // Stripe refunds in-person Interac payments only through the reader (`collectRefundPaymentMethod`), on
        // every model (``ReaderFeature/refundsOnReader``).
        capabilities.refundsInteracOnReader = true
        return capabilities
    }

    /// The largest amount Stripe accepts, in the currency's smallest unit: "The amount value supports up to eight
    /// digits (e.g., a value of 99999999 for a USD charge of $999,999.99)" (Stripe API reference, PaymentIntent
    /// `amount`); a larger amount fails with the API error `amount_too_large`. Applied to every currency (Stripe's
    /// currencies page may list per-currency exceptions; none is in this project's reference, so none is assumed).
    package static let maximumAmountMinorUnits: Int64 = 99_999_999

    /// ``maximumAmountMinorUnits`` for every currency, as the core applies it before Stripe is called.
    package static let amountLimits = ProcessorAmountLimits(
        maximumForOtherCurrencies: maximumAmountMinorUnits,
        source: "Stripe accepts at most eight digits in the currency's smallest unit; more fails with amount_too_large",
        isDocumented: true)

    /// The SDK's own view: `offlineStatus.sdk.networkStatus`.
    public func networkStatus() async -> NetworkStatus {
        StripeMapping.networkStatus(await client.offlineStatus.sdk.networkStatus)
    }
}


extension StripeProcessor: VendorLogSource {
    /// `"StripeTerminal"`.
    package nonisolated var vendorLogSourceName: String { "StripeTerminal" }

    /// Routes Stripe Terminal's own log lines (`Terminal.setLogListener`) to `sink`.
    package func routeVendorLogs(to sink: @escaping @Sendable (String) -> Void) async {
        client.setLogListener(sink)
    }
}
