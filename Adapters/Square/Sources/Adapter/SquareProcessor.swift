public import Foundation
public import Tender

/// Tender's adapter for Square's Mobile Payments SDK: a stateless translator from ``PaymentProcessor`` calls to a
/// ``SquareClient`` (the real SDK through a bridge, or ``SquareSimulator``).
///
/// - Each vendor payment is one Square payment attempt: `paymentAttemptID` is
///   ``PaymentAttempt/vendorAttemptID(reference:)`` (the reference, then `"ref#2"`… after a definite decline) and
///   `referenceID` is always the app's reference. A retry whose outcome is not definite continues the same attempt
///   id, and Square's attempt-id rule (`paymentAttemptIdReused`) keeps it from charging twice.
/// - Offline payments are known by `localID` until Square processes them and gives them an `id`. Square reports
///   forwarding results only when its queue is read, and deletes processed payments from the device:
///   ``queueSnapshot()`` reads the queue, reports each change as ``ProcessorEvent/paymentForwarded(_:)``, and finds
///   on the server the payments it saw that left the device unseen.
/// - Manual capture is `autocomplete = false` with Square's delay (36 hours card-present by default); capture and
///   void go through the app's ``PaymentCaptureService`` (`CompletePayment` / `CancelPayment`, which take no
///   amount), refunds through its ``PaymentRefundService`` (`RefundPayment`): the SDK has neither.
/// - Card surcharges are switched off (`allowCardSurcharge = false`) so the amount recorded is the amount charged;
///   metadata is refused (Square's payments keep none).
/// - Attribution: a payment found by reference (on the device or by `ListPayments`) is the session's only when its
///   `total_money` is the session's total; one of another total under the same reference is another sale's (a
///   reference reused after a reinstall) and is reported with its total so that the core records a duplicate
///   reference, never a success. Square's payments name no attempt: the device's are told apart by `localID` and by
///   being taken since the attempt started.
/// - An offline-only attempt sends nothing to Square when the card is taken: when Square's own queue (readable) does
///   not hold it and its search does not show it, it is ``ProcessorLookup/notFound`` once
///   ``Configuration/searchConsistencyWindow`` and ``Configuration/lateArrivalWindow`` have passed since it was first
///   seen absent, and a retry meanwhile says how long to wait (``lookUpPayment(_:)``).
public actor SquareProcessor: PaymentProcessor {
    /// The adapter's settings, including limits Square's SDK does not report.
    public struct Configuration: Sendable {
        /// How long the device may stay offline, counted from when it was last online (reported as
        /// ``ProcessorOfflineLimits/offlineWindowMaximum``), and how long a stored payment may wait for its upload
        /// (``ProcessorOfflineLimits/storedAgeMaximum``): Square's 24 hours.
        public var offlineWindow: Double = 24 * 60 * 60
        /// The most payments a device may hold offline, every account and location together, reported as
        /// ``ProcessorOfflineLimits/deviceStoredCountMaximum``: 1,000 by default.
        // Unverified: see Documentation/FIDELITY.md
        public var deviceOfflinePaymentCap: Int? = 1000
        /// The prompt parameters of every payment (Square's only prompt settings: whose UI, and which additional
        /// methods such as keyed entry it offers).
        package var promptParameters = Square.PromptParameters()
        /// Where Square's payment UI is presented from (the app's view controller, through the bridge).
        package var presentation = Square.PresentationContext.headless
        /// The delay, in seconds, after which Square applies ``delayAction`` to an uncaptured manual-capture
        /// payment: at least 60, at most Square's card-present default of 36 hours (129,600 s).
        public var delayDuration: TimeInterval = 36 * 60 * 60
        /// What Square does to an uncaptured payment when the delay ends.
        package var delayAction: Square.DelayAction = .cancel
        /// How long after a vendor payment was first recorded an empty `ListPayments` search still proves nothing.
        /// Square says its results "might take several seconds to appear"; the default is a generous minute.
        // Unverified: see Documentation/FIDELITY.md
        public var searchConsistencyWindow: TimeInterval = 60
        /// How long after an earlier call for an attempt last changed its state (``PaymentAttempt/lastRecordedAt``) its
        /// authorization request may still reach Square: sent before the SDK timed out or the app was killed, it can
        /// arrive after the app has retried, and Square cannot continue a payment the way Stripe continues a
        /// PaymentIntent, so a second request would be a second charge. Within it, an attempt that Square does not
        /// show is not sent again: the retry reports ``PaymentState/outcomeUnknown`` (``PaymentError/Recovery/waitAndRetry``).
        /// Square documents no bound; the default is a generous minute.
        // Unverified: see Documentation/FIDELITY.md
        public var lateArrivalWindow: TimeInterval = 60
        /// Whether readers are reported as simulated (set it over the simulator: the SDK has no such flag).
        public var simulatedReaders = false
        /// The largest total (amount plus tip) per currency, in minor units, that the seller's account takes in one
        /// payment, refused by the core before Square is asked. Empty by default: Square documents no maximum for
        /// Mobile Payments SDK payments (a seller's account may carry payment limits), so set it to the account's
        /// limit if it has one.
        // Unverified: see Documentation/FIDELITY.md
        public var maximumAmounts: [Currency: Int64] = [:]
        /// How long after a refund was recorded succeeded (`COMPLETED`) Square may still change it (reported as
        /// ``ProcessorCapabilities/refundChangeWindow``). Square documents `PaymentRefund.status` as `PENDING`, then
        /// `COMPLETED`, `REJECTED` or `FAILED`, and no change after `COMPLETED`: 0, so a completed refund is not
        /// looked up again. A seller who sees completed refunds fail later can set a window here.
        // Unverified: see Documentation/FIDELITY.md
        public var refundChangeWindow: TimeInterval = 0

        /// The defaults.
        public init() {}
    }

    /// `"square"`.
    public nonisolated let name = SquareErrorTable.processor
    let client: any SquareClient
    let captureService: any PaymentCaptureService
    let serverLookup: (any SquareServerLookup)?
    let refundService: (any PaymentRefundService)?
    package nonisolated let configuration: Configuration
    let clock: any TenderClock
    let emitter: ProcessorEventEmitter
    let observer: SquareEventObserver
    var state = AdapterState()

    /// What the adapter remembers between calls (in memory only: a relaunch forgets it, and recovery does not need
    /// it).
    struct AdapterState {
        /// The handles of the payments this adapter is running, by reference.
        var handles: [String: any Square.PaymentHandle] = [:]
        /// References whose cancellation this adapter asked Square for.
        var cancelRequested: Set<String> = []
        /// The last status reported for each offline payment, by local id.
        var reportedOfflineStatus: [String: Square.OfflineStatus] = [:]
        /// Offline payments seen on the device and not yet final, by local id: when one leaves the device unseen,
        /// its outcome is looked up on the server.
        var tracked: [String: TrackedPayment] = [:]
        /// Whether the observers are registered.
        var observing = false
        /// Offline-only attempts the device was seen not holding, by payment attempt id: since when (this launch).
        var absentSince: [String: Date] = [:]
        /// The reader ``connectReader(_:locationID:)`` last made ready (Square keeps several paired).
        var connectedReaderID: UInt?
    }

    /// An offline payment the adapter saw on the device.
    struct TrackedPayment {
        var reference: String
        var amount: Money
        var storedAt: Date
    }

    /// Creates the adapter. Apps create one with the bridge's `SquareProcessor.mobilePayments(…)` or the
    /// simulator's `makeProcessor(…)`.
    /// - Parameters:
    ///   - client: the SDK (or the simulator).
    ///   - captureService: the app's server-side capture and void (`CompletePayment`, `CancelPayment`).
    ///   - serverLookup: the app's server-side payment lookup, for recovery and abandonment; without it, unknown outcomes
    ///     stay unknown until the core reconciles them.
    ///   - refundService: the app's server-side refunds (`RefundPayment`); without it, refunds are refused.
    ///   - configuration: the settings.
    ///   - clock: the clock the consistency window and capture deadlines are measured on.
    ///   - emitter: where events go (pass one `keepingHistory` to inspect them in tests).
    package init(client: any SquareClient, captureService: any PaymentCaptureService,
                 serverLookup: (any SquareServerLookup)? = nil, refundService: (any PaymentRefundService)? = nil,
                 configuration: Configuration = Configuration(), clock: any TenderClock = SystemClock(),
                 emitter: ProcessorEventEmitter = ProcessorEventEmitter()) {
        self.client = client
        self.captureService = captureService
        self.serverLookup = serverLookup
        self.refundService = refundService
        self.configuration = configuration
        self.clock = clock
        self.emitter = emitter
        self.observer = SquareEventObserver(emitter: emitter)
    }

    /// Every event sent so far (only with an emitter `keepingHistory`).
    package nonisolated var emittedEvents: [ProcessorEvent] { emitter.emitted }

    /// The adapter's events.
    public nonisolated func events() -> AsyncStream<ProcessorEvent> { emitter.stream }

    /// Registers the adapter's reader and network observers with the SDK and reports the current network status;
    /// called by every entry point, once. ``stopObserving()`` removes them.
    public func startObserving() async {
        guard !state.observing else { return }
        state.observing = true
        await client.readerManager.add(observer)
        await client.networkMonitor.add(observer)
        observer.remember(await client.readerManager.readers)
        // The core starts at `unknown`; tell it where the network stands now, not only when it changes.
        emitter.emit(.networkStatusChanged(await networkStatus()))
    }

    /// Removes the adapter's observers from the SDK (`remove(_:)`), e.g. before the adapter is dropped.
    public func stopObserving() async {
        guard state.observing else { return }
        state.observing = false
        await client.readerManager.remove(observer)
        await client.networkMonitor.remove(observer)
    }

    // MARK: Capabilities

    /// Square's offline limits from the seller's ``Square/PaymentSettings`` plus the window and the device cap;
    /// `nil` when the seller is not opted in, the SDK is authorized with Sandbox, or the connected reader takes no
    /// offline payments (Tap to Pay). No partial capture
    /// (`CompletePayment` takes no amount), no metadata (Square's payments keep none), refunds when a
    /// ``PaymentRefundService`` was given, and the amount limits of ``Configuration/maximumAmounts`` (none by
    /// default: Square documents none).
    public func capabilities() async -> ProcessorCapabilities {
        await startObserving()
        let settings = await client.settingsManager.paymentSettings
        let environment = await client.settingsManager.sdkSettings.environment
        var limits: ProcessorOfflineLimits?
        if settings.isOfflineProcessingAllowed, environment == .production,
           let perPayment = settings.offlineTransactionAmountLimit.flatMap(SquareMapping.money),
           let stored = settings.offlineTotalStoredAmountLimit.flatMap(SquareMapping.money) {
            limits = ProcessorOfflineLimits(
                perPaymentMaximum: [perPayment.currency: perPayment.minorUnits],
                storedTotalMaximum: [stored.currency: stored.minorUnits],
                storedAgeMaximum: configuration.offlineWindow,
                deviceStoredCountMaximum: configuration.deviceOfflinePaymentCap,
                offlineWindowMaximum: configuration.offlineWindow)
        }
        // Offline is per reader model: Tap to Pay takes no offline payments.
        if let reader = await connectedReader(), !reader.features.contains(.offline) { limits = nil }
        return ProcessorCapabilities(processorName: name, offlineLimits: limits,
                                     supportedCurrencies: SquareMapping.supportedCurrencies,
                                     supportsPartialCapture: false, supportsMetadata: false,
                                     supportsRefunds: refundService != nil, amountLimits: amountLimits,
                                     refundChangeWindow: refundService == nil ? 0 : configuration.refundChangeWindow)
    }

    /// The configured ``Configuration/maximumAmounts``, marked undocumented (Square states no maximum), or `nil`.
    var amountLimits: ProcessorAmountLimits? {
        guard !configuration.maximumAmounts.isEmpty else { return nil }
        return ProcessorAmountLimits(
            maximumPerCurrency: configuration.maximumAmounts,
            source: "the seller's limit set in SquareProcessor.Configuration.maximumAmounts; Square documents no maximum",
            isDocumented: false)
    }

    /// The SDK's view of the network now (the bridge's network monitor).
    public func networkStatus() async -> NetworkStatus {
        await client.networkMonitor.isConnected ? .online : .offline
    }

    // MARK: Authorization

    /// Authorizes the SDK with a seller at a location.
    /// - Throws: the mapped ``Square/AuthorizationError``.
    public func authorize(accessToken: String, locationID: String) async throws(PaymentError) {
        do {
            try await client.authorizationManager.authorize(withAccessToken: accessToken, locationID: locationID)
        } catch {
            throw error.tenderError
        }
    }

    /// Signs out, refusing while payments are queued on the device unless the caller accepts it. Square's offline
    /// guide: queued payments "remain on the device when … a seller logs out of your application"; they upload
    /// only once that seller signs in on this device again, and Square advises checking for queued payments before
    /// `deauthorize()` "so that you can alert the seller about any unprocessed payments".
    ///
    /// At risk are the queue's `queued` payments and those whose upload Square could not verify (`unknown`). A queue
    /// that cannot be read (`OfflinePaymentQueueError.unexpected`) refuses too: nothing proves it empty. (Not being
    /// signed in, or a Sandbox account, where Square stores nothing offline, proves it.)
    /// - Throws: ``PaymentError/Code/unforwardedPaymentsAtRisk``.
    public func deauthorize(acceptingQueuedPayments: Bool = false) async throws(PaymentError) {
        if !acceptingQueuedPayments {
            let payments: [Square.OfflinePayment]
            do {
                payments = try await client.paymentManager.offlinePaymentQueue.getPayments()
            } catch .notAuthorized, .unsupportedSandboxEnvironment {
                payments = []
            } catch {
                throw PaymentError(.unforwardedPaymentsAtRisk, recovery: .waitAndRetry, phase: .authorization,
                                   message: "Square's offline queue could not be read (\(error)), so nothing shows that every offline payment is uploaded; signing out now could leave some behind. Try again, or sign out accepting that risk.")
            }
            let atRisk = payments.filter { $0.status == .queued || $0.status == .unknown }
            if !atRisk.isEmpty {
                throw PaymentError(.unforwardedPaymentsAtRisk, recovery: .goOnline, phase: .authorization,
                                   message: "\(atRisk.count) offline payments are not uploaded yet (or their upload is not verified). Square keeps them on this device after signing out, but uploads them only once this seller signs in here again; let them upload first.")
            }
        }
        await client.authorizationManager.deauthorize()
    }
}
