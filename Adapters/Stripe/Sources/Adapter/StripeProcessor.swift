import Foundation
import Tender

/// Tender's ``PaymentProcessor`` for Stripe Terminal, over any ``StripeClient`` (the SDK's bridge on iOS,
/// ``StripeSimulator`` elsewhere).
///
/// - The app's reference travels in the intent's metadata under ``StripeMapping/referenceMetadataKey``, so that an
///   intent created offline (nil `stripeId`) is matched back when `didForwardPaymentIntent` reports it.
/// - A retry (`attempt.number > 1`) continues the PaymentIntent of the earlier attempt, found in this processor's
///   memory or through the client by metadata: it never creates a second one while the first could still charge.
/// - Capture and void go through the app's ``PaymentCaptureService`` (Stripe captures on the server on iOS).
public actor StripeProcessor: PaymentProcessor {
    /// `"stripe"`.
    public nonisolated let name = "stripe"
    /// Stripe's own offline maximum per payment: "10,000 USD or equivalent" (seed 000). Only USD is stated.
    public static let stripeOfflineMaximum: [Currency: Int64] = [.usd: 1_000_000]

    private let client: any StripeClient
    private let captureService: any PaymentCaptureService
    private let clock: any TenderClock
    private let bridge: StripeDelegateBridge
    private let autoReconnect: Bool
    private let offlineMaximum: [Currency: Int64]
    private var intents: [String: Stripe.PaymentIntent] = [:]
    private var collections: [String: Stripe.Cancelable] = [:]
    private var cancelRequested: Set<String> = []
    private var discovered: [String: Stripe.Reader] = [:]

    /// Creates the adapter and installs its terminal and offline delegates on `client`.
    /// - Parameters:
    ///   - client: the SDK (bridge) or the simulator.
    ///   - captureService: the app's server-side capture and void.
    ///   - clock: for update deadlines in events.
    ///   - autoReconnectOnUnexpectedDisconnect: the connection configuration's setting (Stripe's default is on).
    ///   - offlinePerPaymentMaximum: the processor limit reported in ``capabilities()`` when offline is enabled.
    ///   - keepingEventHistory: keep every event for inspection (tests).
    public init(client: any StripeClient, captureService: any PaymentCaptureService,
                clock: any TenderClock = SystemClock(), autoReconnectOnUnexpectedDisconnect: Bool = true,
                offlinePerPaymentMaximum: [Currency: Int64] = StripeProcessor.stripeOfflineMaximum,
                keepingEventHistory: Bool = false) {
        self.client = client
        self.captureService = captureService
        self.clock = clock
        self.autoReconnect = autoReconnectOnUnexpectedDisconnect
        self.offlineMaximum = offlinePerPaymentMaximum
        self.bridge = StripeDelegateBridge(emitter: ProcessorEventEmitter(keepingHistory: keepingEventHistory),
                                           clock: clock)
        client.setTerminalDelegate(bridge)
        client.setOfflineDelegate(bridge)
    }

    /// Every event sent so far (only with `keepingEventHistory`).
    public nonisolated var emittedEvents: [ProcessorEvent] { bridge.emitter.emitted }

    // MARK: - PaymentProcessor

    /// Offline limits: Stripe's 10,000 USD per payment when offline mode is enabled, nil otherwise.
    public func capabilities() async -> ProcessorCapabilities {
        let enabled = await client.offlineModeEnabled
        return ProcessorCapabilities(processorName: name,
                                     offlineLimits: enabled ? ProcessorOfflineLimits(perPaymentMaximum: offlineMaximum) : nil,
                                     supportedCurrencies: nil)
    }

    /// A Bluetooth scan for `timeout` seconds.
    public func discoverReaders(timeout: Double) async throws -> [Reader] {
        let readers = try await scan(timeout: timeout)
        return readers.map(StripeMapping.reader)
    }

    /// Connects at `locationID`, with automatic reconnection as configured.
    public func connectReader(_ reader: Reader, locationID: String) async throws -> Reader {
        let target = discovered[reader.id]
            ?? Stripe.Reader(serialNumber: reader.id, deviceType: Stripe.DeviceType(rawValue: reader.model) ?? .stripeM2)
        let configuration = Stripe.BluetoothConnectionConfiguration(
            locationId: locationID, autoReconnectOnUnexpectedDisconnect: autoReconnect, delegate: bridge)
        do {
            return StripeMapping.reader(try await client.connectReader(target, configuration: configuration))
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

    /// Creates (or, on a retry, finds) the PaymentIntent, collects, confirms. See ``PaymentProcessor``.
    ///
    /// The routing decision becomes the `CreateConfiguration`'s offline behaviour (`.online` → `requireOnline`,
    /// `.onlineWithOfflineFallback` → `preferOnline`, `.offline` → `forceOffline`); a refused decision returns
    /// ``PaymentState/failed`` without calling Stripe. A tip is added to the intent's amount (Stripe's on-reader
    /// tipping is not used). Confirm failures follow Stripe's rules: `requiresConfirmation` → failed, retry the
    /// same intent; `requiresPaymentMethod` → declined (or failed), collect another card on the same intent; nil
    /// intent → ``PaymentState/outcomeUnknown``, and the retry confirms the same intent again.
    public func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                             updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate {
        let reference = request.reference
        cancelRequested.remove(reference)
        guard let behavior = StripeMapping.offlineBehavior(routing) else {
            if case .refused(let error) = routing { return failure(reference, .failed, error) }
            return failure(reference, .failed, PaymentError(.invalidRequest, recovery: .fixRequest, phase: .routing,
                                                            message: "The payment was not routed."))
        }
        var intent: Stripe.PaymentIntent
        switch await earlierIntent(reference: reference, attempt: attempt) {
        case .unreachable(let error):
            return failure(reference, .outcomeUnknown, PaymentError(
                .outcomeUnknown, recovery: .retrySamePayment, phase: .processing,
                message: "The earlier attempt's PaymentIntent cannot be looked up now; retry when online. "
                    + "A new one is not created while the first could still charge. (\(error.message))"))
        case .finished(let existing):
            return update(for: existing, reference: reference)
        case .reusable(let existing):
            intent = existing
        case .none:
            do {
                let amount = try request.total().unsignedMinorUnits()
                var metadata = request.metadata
                metadata[StripeMapping.referenceMetadataKey] = reference
                let parameters = Stripe.PaymentIntentParameters(
                    amount: amount, currency: request.amount.currency.lowercasedCode,
                    captureMethod: StripeMapping.captureMethod(request.captureMode), metadata: metadata,
                    stripeDescription: request.note)
                intent = try await client.createPaymentIntent(
                    parameters, createConfig: Stripe.CreateConfiguration(offlineBehavior: behavior))
            } catch let error as Stripe.ErrorCode {
                return failure(reference, .failed, StripeMapping.paymentError(error, phase: .creation))
            } catch let error as PaymentError {
                return failure(reference, .failed, error)
            }
            intents[reference] = intent
        }

        if intent.status == .requiresPaymentMethod {
            try await updates(ProcessorPaymentUpdate(reference: reference, state: .collecting,
                                                     route: intent.stripeId == nil ? .offline : .online,
                                                     processorPaymentID: intent.stripeId))
            if let canceled = takeCancellation(reference) { return canceled }
            switch await collect(intent, reference: reference) {
            case .success(let collected):
                intent = collected
                intents[reference] = collected
            case .failure(let error):
                if let updated = error.paymentIntent { intents[reference] = updated }
                let mapped = StripeMapping.paymentError(error, phase: .collection)
                return failure(reference, mapped.code == .canceled ? .canceled : .failed, mapped)
            }
        }
        try await updates(ProcessorPaymentUpdate(reference: reference, state: .processing,
                                                 processorPaymentID: intent.stripeId))
        if let canceled = takeCancellation(reference) { return canceled }
        do {
            let confirmed = try await client.confirmPaymentIntent(intent)
            intents[reference] = confirmed
            return update(for: confirmed, reference: reference)
        } catch {
            let mapped = StripeMapping.confirmError(error)
            switch StripeMapping.processingFailure(error) {
            case .outcomeUnknown:
                // Keep the intent we confirmed: the retry confirms it again, never a new one.
                intents[reference] = intent
                return failure(reference, .outcomeUnknown, mapped, processorPaymentID: intent.stripeId)
            case .retryConfirm, .other:
                if let updated = error.paymentIntent { intents[reference] = updated }
                return failure(reference, .failed, mapped, processorPaymentID: intent.stripeId)
            case .collectAnotherCard:
                if let updated = error.paymentIntent { intents[reference] = updated }
                let declined = mapped.code == .cardDeclined || mapped.code == .cardExpired
                return failure(reference, declined ? .declined : .failed, mapped, processorPaymentID: intent.stripeId)
            }
        }
    }

    /// Cancels the collection in progress for `reference`, or its PaymentIntent if not yet confirmed.
    public func cancelPayment(reference: String) async throws {
        if let cancelable = collections[reference] {
            do { try cancelable.cancel() } catch { throw StripeMapping.paymentError(error, phase: .cancellation) }
            return
        }
        guard let intent = intents[reference] else {
            throw PaymentError(.unknownReference, recovery: .none, phase: .cancellation,
                               message: "No Stripe payment is in progress for \(reference).")
        }
        guard intent.status == .requiresPaymentMethod || intent.status == .requiresConfirmation else {
            throw PaymentError(.invalidState, recovery: .none, phase: .cancellation,
                               message: "The PaymentIntent is \(intent.status.rawValue) and can no longer be canceled here.")
        }
        cancelRequested.insert(reference)
        do {
            intents[reference] = try await client.cancelPaymentIntent(intent)
        } catch {
            cancelRequested.remove(reference)
            throw StripeMapping.paymentError(error, phase: .cancellation)
        }
    }

    /// Captures through the app's service; refused while the payment still waits to be forwarded (seed 000's
    /// "ready to capture" rule).
    public func capturePayment(reference: String, processorPaymentID: String, amount: Money) async throws
        -> ProcessorPaymentUpdate {
        let queued = bridge.queuedPayments.first { $0.reference == reference }
        let awaitingUpload = queued.map { $0.status == .stored }
            ?? (intents[reference]?.offlineDetails?.requiresUpload == true)
        if awaitingUpload {
            throw PaymentError(.invalidState, recovery: .waitAndRetry, phase: .capture,
                               message: "The payment is stored offline and not forwarded yet; capture it after forwarding.")
        }
        return try await captureService.captured(reference: reference, processor: name, processorPaymentID: processorPaymentID,
                                                 amount: amount)
    }

    /// Voids through the app's service.
    public func voidPayment(reference: String, processorPaymentID: String) async throws -> ProcessorPaymentUpdate {
        return try await captureService.voided(reference: reference, processor: name, processorPaymentID: processorPaymentID)
    }

    /// The SDK's `offlineStatus.sdk` with the per-payment statuses this adapter has seen.
    public func queueSnapshot() async throws -> OfflineQueueSnapshot {
        let status = await client.offlineStatus.sdk
        var amounts: [Currency: Int64] = [:]
        for (code, minorUnits) in status.paymentAmountsByCurrency {
            if let currency = try? Currency(code: code) { amounts[currency] = minorUnits }
        }
        let payments = bridge.queuedPayments
        let oldest = payments.filter(\.status.countsAsStored).map(\.storedAt).min()
        return OfflineQueueSnapshot(networkStatus: StripeMapping.networkStatus(status.networkStatus),
                                    storedCount: status.paymentsCount ?? 0, storedAmounts: amounts,
                                    oldestStoredAt: oldest, payments: payments)
    }

    /// Asks the SDK's offline store and Stripe (through the client) for the intent with this reference in its
    /// metadata. `.unknown` when neither can answer; `.notFound` only when Stripe was asked and has none.
    public func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup {
        let (reference, processorPaymentID) = (query.reference, query.processorPaymentID)
        let known = await candidates(reference: reference)
        let matching = known.merged.filter {
            processorPaymentID == nil || $0.stripeId == nil || $0.stripeId == processorPaymentID
        }
        guard let best = Self.mostAdvanced(matching) else { return known.server == nil ? .unknown : .notFound }
        // An online intent's truth is on Stripe's servers; the SDK's copy may predate a confirm that timed out.
        if known.server == nil, best.stripeId != nil, best.offlineDetails == nil { return .unknown }
        return .found(update(for: best, reference: reference))
    }

    /// The adapter's events.
    public nonisolated func events() -> AsyncStream<ProcessorEvent> { bridge.emitter.stream }

    // MARK: - More of the SDK

    /// Reconnects on app start to the reader whose serial number the app saved (seed 004): scans for `timeout`
    /// seconds and connects if that reader is found; otherwise the discovery stops and this throws
    /// ``PaymentError/Code/readerConnectionFailed``.
    public func connectSavedReader(serialNumber: String, locationID: String, timeout: Double = 10) async throws -> Reader {
        let readers = try await scan(timeout: timeout)
        guard let saved = readers.first(where: { $0.serialNumber == serialNumber }) else {
            throw PaymentError(.readerConnectionFailed, recovery: .reconnectReader, phase: .readerConnection,
                               message: "The saved reader \(serialNumber) was not found nearby.")
        }
        return try await connectReader(StripeMapping.reader(saved), locationID: locationID)
    }

    /// Installs the optional update the reader reported (`installAvailableUpdate`). Progress arrives as events.
    public func installAvailableUpdate() async throws {
        do { try await client.installAvailableUpdate() } catch { throw StripeMapping.paymentError(error, phase: .softwareUpdate) }
    }

    /// `rebootReader`: the reader reboots; with automatic reconnection on, it reconnects.
    public func rebootReader() async throws {
        do { try await client.rebootReader() } catch { throw StripeMapping.paymentError(error, phase: .readerConnection) }
    }

    // MARK: - Internals

    private enum EarlierIntent {
        case none
        case reusable(Stripe.PaymentIntent)
        case finished(Stripe.PaymentIntent)
        case unreachable(Stripe.ErrorCode)
    }

    /// What the SDK and Stripe know of the intents carrying `reference` in their metadata.
    private struct Candidates {
        /// The SDK's own copies (this session, and stored offline).
        var local: [Stripe.PaymentIntent]
        /// Stripe's server-side intents; nil when Stripe could not be asked.
        var server: [Stripe.PaymentIntent]?
        /// Why Stripe could not be asked.
        var serverError: Stripe.ErrorCode?

        /// Stripe's copy of an online intent wins over the SDK's; the SDK's copy wins for intents Stripe has not
        /// seen yet (created or stored offline, including an online intent confirmed offline).
        var merged: [Stripe.PaymentIntent] {
            guard let server else { return local }
            let onServer = Set(server.compactMap(\.stripeId))
            return local.filter { intent in
                guard let id = intent.stripeId else { return true }
                return intent.offlineDetails?.requiresUpload == true || !onServer.contains(id)
            } + server
        }
    }

    private func candidates(reference: String) async -> Candidates {
        let key = StripeMapping.referenceMetadataKey
        var known = Candidates(local: await client.localPaymentIntents(metadataKey: key, value: reference))
        do {
            known.server = try await client.serverPaymentIntents(metadataKey: key, value: reference)
        } catch {
            known.serverError = error
        }
        return known
    }

    /// The intent an earlier attempt created for `reference`, if it can continue or has finished. Stripe's side
    /// decides whether it was charged; the SDK's own copy (which holds the collected card) is the one to continue.
    private func earlierIntent(reference: String, attempt: PaymentAttempt) async -> EarlierIntent {
        let remembered = intents[reference]
        guard attempt.number > 1 || remembered != nil else { return .none }
        let known = await candidates(reference: reference)
        var local = known.local
        if let remembered, !local.contains(where: { $0.sdkHandle == remembered.sdkHandle }) { local.append(remembered) }
        if let charged = Self.mostAdvanced(known.server ?? []), Self.rank(charged) >= 4 {
            intents[reference] = charged
            return .finished(charged)
        }
        if known.server == nil, local.isEmpty, attempt.number > 1 {
            return .unreachable(known.serverError ?? Stripe.ErrorCode(.notConnectedToInternet, message: "offline"))
        }
        guard var intent = Self.mostAdvanced(local) ?? Self.mostAdvanced(known.server ?? []),
              intent.status != .canceled else { return .none }
        switch intent.status {
        case .requiresPaymentMethod, .requiresConfirmation:
            if !local.contains(where: { $0.sdkHandle == intent.sdkHandle }), let secret = intent.clientSecret,
               let retrieved = try? await client.retrievePaymentIntent(clientSecret: secret) {
                intent = retrieved
            }
            intents[reference] = intent
            return .reusable(intent)
        case .requiresCapture, .succeeded, .requiresReauthorization, .processing, .requiresAction, .canceled:
            intents[reference] = intent
            return .finished(intent)
        }
    }

    /// The intent that got furthest: charged or stored beats waiting for confirmation beats waiting for a card.
    static func mostAdvanced(_ intents: [Stripe.PaymentIntent]) -> Stripe.PaymentIntent? {
        intents.enumerated().max { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }?.element
    }

    /// 6 charged, 5 stored offline, 4 in flight, 3 collected, 2 declined, 1 waiting for a card, 0 canceled.
    static func rank(_ intent: Stripe.PaymentIntent) -> Int {
        switch intent.status {
        case .succeeded, .requiresCapture, .requiresReauthorization:
            intent.offlineDetails?.requiresUpload == true ? 5 : 6
        case .processing, .requiresAction: 4
        case .requiresConfirmation: 3
        case .requiresPaymentMethod: intent.charges.contains { $0.status == .failed } ? 2 : 1
        case .canceled: 0
        }
    }

    private func scan(timeout: Double) async throws -> [Stripe.Reader] {
        let collector = DiscoveryCollector()
        let (error, _) = await awaitCompletion { (done: @escaping @Sendable (Stripe.ErrorCode?) -> Void) in
            await client.discoverReaders(Stripe.DiscoveryConfiguration(method: .bluetoothScan, timeout: timeout),
                                         delegate: collector, completion: done)
        } started: { _ in }
        if let error { throw StripeMapping.paymentError(error, phase: .readerConnection) }
        let readers = collector.readers
        for reader in readers { discovered[reader.serialNumber] = reader }
        return readers
    }

    private func collect(_ intent: Stripe.PaymentIntent, reference: String) async
        -> Result<Stripe.PaymentIntent, Stripe.ErrorCode> {
        let (result, _) = await awaitCompletion {
            (done: @escaping @Sendable (Result<Stripe.PaymentIntent, Stripe.ErrorCode>) -> Void) in
            await client.collectPaymentMethod(intent, collectConfig: Stripe.CollectConfiguration(), completion: done)
        } started: { cancelable in
            collections[reference] = cancelable
        }
        collections[reference] = nil
        return result
    }

    /// Starts an SDK call that reports through a completion and returns a cancelable, hands the cancelable to
    /// `started`, then waits for the completion. No task is spawned, so the order of events stays deterministic.
    private func awaitCompletion<Value: Sendable>(
        _ start: (@escaping @Sendable (Value) -> Void) async -> Stripe.Cancelable,
        started: (Stripe.Cancelable) -> Void
    ) async -> (Value, Stripe.Cancelable) {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let cancelable = await start { value in
            continuation.yield(value)
            continuation.finish()
        }
        started(cancelable)
        for await value in stream { return (value, cancelable) }
        preconditionFailure("The Stripe SDK contract guarantees every completion is called.")
    }

    private func update(for intent: Stripe.PaymentIntent, reference: String) -> ProcessorPaymentUpdate {
        let state = StripeMapping.paymentState(intent)
        var update = ProcessorPaymentUpdate(reference: reference, state: state, route: StripeMapping.route(intent),
                                            processorPaymentID: intent.stripeId,
                                            card: StripeMapping.cardDetails(intent))
        if state == .declined || state == .declinedAfterForwarding {
            let code = intent.charges.last { $0.status == .failed }?.declineCode
            update.error = Stripe.errorTable.error(named: Stripe.ErrorCode.Code.declinedByStripeAPI.name,
                                                   numericCode: 6000, declineCode: code,
                                                   phase: state == .declined ? .processing : .forwarding)
        }
        if state == .storedOffline, let money = try? Self.money(intent) {
            bridge.trackStored(QueuedPayment(reference: reference, processorPaymentID: intent.stripeId, amount: money,
                                             storedAt: intent.offlineDetails?.storedAt ?? clock.now(), status: .stored))
        }
        return update
    }

    static func money(_ intent: Stripe.PaymentIntent) throws -> Money {
        Money(minorUnits: Int64(intent.amount + (intent.amountTip ?? 0)), currency: try Currency(code: intent.currency))
    }

    /// The canceled outcome, if ``cancelPayment(reference:)`` canceled the intent while an update was reported.
    private func takeCancellation(_ reference: String) -> ProcessorPaymentUpdate? {
        guard cancelRequested.remove(reference) != nil else { return nil }
        return failure(reference, .canceled, Stripe.errorTable.error(
            named: Stripe.ErrorCode.Code.canceled.name, numericCode: 2020, vendorMessage: "The PaymentIntent was canceled.",
            phase: .cancellation), processorPaymentID: intents[reference]?.stripeId)
    }

    private func failure(_ reference: String, _ state: PaymentState, _ error: PaymentError,
                         processorPaymentID: String? = nil) -> ProcessorPaymentUpdate {
        ProcessorPaymentUpdate(reference: reference, state: state, processorPaymentID: processorPaymentID, error: error)
    }

}

/// Collects the readers a discovery reports; the last list wins (Bluetooth proximity reports a reader twice).
final class DiscoveryCollector: Stripe.DiscoveryDelegate {
    private let latest = Locked<[Stripe.Reader]>([])
    var readers: [Stripe.Reader] { latest.current }
    func didUpdateDiscoveredReaders(_ readers: [Stripe.Reader]) { latest.withLock { $0 = readers } }
}

/// The adapter's delegates: turns the SDK's callbacks into ``ProcessorEvent``s and tracks forwarded payments.
final class StripeDelegateBridge: Stripe.TerminalDelegate, Stripe.OfflineDelegate, Stripe.MobileReaderDelegate {
    let emitter: ProcessorEventEmitter
    private let clock: any TenderClock
    private let network = Locked<Stripe.NetworkStatus?>(nil)
    private let queue = Locked<[String: QueuedPayment]>([:])

    init(emitter: ProcessorEventEmitter, clock: any TenderClock) {
        self.emitter = emitter
        self.clock = clock
    }

    var queuedPayments: [QueuedPayment] { queue.current.values.sorted { $0.storedAt < $1.storedAt } }

    func trackStored(_ payment: QueuedPayment) {
        queue.withLock { $0[payment.reference] = payment }
    }

    // TerminalDelegate
    func didChangeConnectionStatus(_ status: Stripe.ConnectionStatus) {
        emitter.emit(.readerConnectionChanged(StripeMapping.connectionStatus(status)))
    }

    func didChangePaymentStatus(_ status: Stripe.PaymentStatus) {}

    // OfflineDelegate
    func didChangeOfflineStatus(_ offlineStatus: Stripe.OfflineStatus) {
        let status = offlineStatus.sdk.networkStatus
        let changed = network.withLock { previous -> Bool in
            defer { previous = status }
            return previous != status
        }
        if changed { emitter.emit(.networkStatusChanged(StripeMapping.networkStatus(status))) }
        emitter.emit(.offlineQueueChanged)
    }

    func didForwardPaymentIntent(_ intent: Stripe.PaymentIntent, error: Stripe.ErrorCode?) {
        guard let update = StripeMapping.forwardingUpdate(intent, error: error) else {
            emitter.emit(.forwardingError(PaymentError(
                .forwardingFailed, recovery: .none, phase: .forwarding,
                message: "Stripe forwarded a payment without Tender's reference in its metadata.")))
            return
        }
        queue.withLock { queue in
            let status: OfflinePaymentStatus = switch update.state {
            case .forwarded: .forwarded
            case .declinedAfterForwarding: .declinedAfterForwarding
            default: .failedToForward
            }
            if var entry = queue[update.reference] {
                entry.status = status
                entry.processorPaymentID = update.processorPaymentID
                queue[update.reference] = entry
            } else if let money = try? StripeProcessor.money(intent) {
                queue[update.reference] = QueuedPayment(
                    reference: update.reference, processorPaymentID: update.processorPaymentID, amount: money,
                    storedAt: intent.offlineDetails?.storedAt ?? clock.now(), status: status)
            }
        }
        emitter.emit(.paymentForwarded(update))
    }

    func didReportForwardingError(_ error: Stripe.ErrorCode) {
        emitter.emit(.forwardingError(StripeMapping.paymentError(error, phase: .forwarding)))
    }

    // MobileReaderDelegate
    func didReportAvailableUpdate(_ update: Stripe.ReaderSoftwareUpdate) {
        emitter.emit(.softwareUpdateAvailable(StripeMapping.softwareUpdate(update, now: clock.now())))
    }

    func didStartInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate, cancelable: Stripe.Cancelable?) {
        emitter.emit(.softwareUpdateProgress(0))
    }

    func didReportReaderSoftwareUpdateProgress(_ progress: Double) { emitter.emit(.softwareUpdateProgress(progress)) }

    func didFinishInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate?, error: Stripe.ErrorCode?) {
        emitter.emit(.softwareUpdateFinished(error.map { StripeMapping.paymentError($0, phase: .softwareUpdate) }))
    }

    func didRequestReaderInput(_ inputOptions: Stripe.ReaderInputOptions) {
        emitter.emit(.readerInputRequested(StripeMapping.inputOptions(inputOptions)))
    }

    func didRequestReaderDisplayMessage(_ displayMessage: Stripe.ReaderDisplayMessage) {
        emitter.emit(.readerMessage(StripeMapping.displayMessage(displayMessage)))
    }

    func didReportReaderEvent(_ event: Stripe.ReaderEvent) {
        emitter.emit(.readerMessage(StripeMapping.displayMessage(event)))
    }

    func didReportBatteryLevel(_ batteryLevel: Double, status: Stripe.BatteryStatus, isCharging: Bool) {
        emitter.emit(.batteryLevelChanged(level: batteryLevel, isCharging: isCharging))
    }

    func didDisconnect(_ reason: Stripe.DisconnectReason) {
        emitter.emit(.readerDisconnected(StripeMapping.disconnectReason(reason)))
    }

    func didStartReconnect(_ cancelable: Stripe.Cancelable, disconnectReason: Stripe.DisconnectReason) {
        emitter.emit(.readerReconnectStarted(StripeMapping.disconnectReason(disconnectReason)))
    }

    func didSucceedReconnect() { emitter.emit(.readerReconnectSucceeded) }

    func didFailReconnect() { emitter.emit(.readerReconnectFailed) }
}
