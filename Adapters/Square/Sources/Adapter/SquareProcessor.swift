import Foundation
import Tender

/// Tender's adapter for Square's Mobile Payments SDK: a stateless translator from ``PaymentProcessor`` calls to a
/// ``SquareClient`` (the real SDK through a bridge, or ``SquareSimulator``).
///
/// - The app's reference is the `paymentAttemptID` and the `referenceID`: stable across retries, never a fresh
///   UUID per tap. A retry that Square refuses with `paymentAttemptIdReused` is looked up, never charged again.
/// - Offline payments are known by `localID` until Square processes them and gives them an `id`;
///   ``refreshOfflineQueue()`` (also run by ``queueSnapshot()``) reports each change as
///   ``ProcessorEvent/paymentForwarded(_:)``.
/// - Manual capture is `autocomplete = false`; capture and void go through the app's ``PaymentCaptureService``
///   (Square's `CompletePayment` / `CancelPayment`), since iOS has no `completePayment`.
public final class SquareProcessor: PaymentProcessor {
    /// The adapter's settings, including limits Square's SDK does not report.
    public struct Configuration: Sendable {
        /// How long a payment may stay stored offline, in seconds, reported as
        /// ``ProcessorOfflineLimits/storedAgeMaximum``: Square's 24-hour window.
        public var offlineWindow: Double = 24 * 60 * 60
        /// The most payments a device may store offline, reported as
        /// ``ProcessorOfflineLimits/storedCountMaximum``. The seed says 1000; the reference marks it UNVERIFIED.
        public var deviceOfflinePaymentCap: Int? = 1000
        /// The prompt parameters of every payment.
        public var promptParameters = Square.PromptParameters()
        /// The delay, in seconds, before Square applies `delayAction` to an uncaptured manual-capture payment; 0 is
        /// Square's default (36 hours card-present).
        public var delayDuration: TimeInterval = 0
        /// What Square does to an uncaptured payment when the delay ends.
        public var delayAction: Square.DelayAction = .cancel
        /// Whether readers are reported as simulated (set it over the simulator: the SDK has no such flag).
        public var readersAreSimulated = false

        /// The defaults.
        public init() {}
    }

    /// `"square"`.
    public let name = SquareErrorTable.processor
    private let client: any SquareClient
    private let captureService: any PaymentCaptureService
    private let lookup: (any SquareServerLookup)?
    private let configuration: Configuration
    private let emitter: ProcessorEventEmitter
    private let observer: SquareEventObserver
    private let handles = Locked<[String: any Square.PaymentHandle]>([:])
    private let reportedOfflineStatus = Locked<[String: Square.OfflineStatus]>([:])
    private let observing = Locked(false)

    /// Creates the adapter.
    /// - Parameters:
    ///   - client: the SDK (or the simulator).
    ///   - captureService: the app's server-side capture and void.
    ///   - lookup: the app's server-side payment lookup, for recovery; without it, unknown outcomes stay unknown
    ///     until the core reconciles them.
    ///   - configuration: the settings.
    ///   - emitter: where events go (pass one `keepingHistory` to inspect them in tests).
    public init(client: any SquareClient, captureService: any PaymentCaptureService,
                lookup: (any SquareServerLookup)? = nil, configuration: Configuration = Configuration(),
                emitter: ProcessorEventEmitter = ProcessorEventEmitter()) {
        self.client = client
        self.captureService = captureService
        self.lookup = lookup
        self.configuration = configuration
        self.emitter = emitter
        self.observer = SquareEventObserver(emitter: emitter)
    }

    /// The event stream (``ProcessorEventEmitter/stream``).
    public func events() -> AsyncStream<ProcessorEvent> { emitter.stream }

    /// Registers the adapter's reader and network observers with the SDK and reports the current network status;
    /// called by every entry point, once.
    public func startObserving() async {
        let first = observing.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        await client.readerManager.add(observer)
        await client.networkMonitor.add(observer)
        observer.remember(await client.readerManager.readers)
        // The core starts at `unknown`; tell it where the network stands now, not only when it changes.
        emitter.emit(.networkStatusChanged(await client.networkMonitor.isConnected ? .online : .offline))
    }

    // MARK: Capabilities

    /// Square's offline limits from the seller's ``Square/PaymentSettings`` plus the configured window and cap;
    /// `nil` when the seller is not opted in or the SDK is authorized with Sandbox.
    public func capabilities() async -> ProcessorCapabilities {
        await startObserving()
        let settings = await client.settingsManager.paymentSettings
        let environment = await client.settingsManager.environment
        var limits: ProcessorOfflineLimits?
        if settings.isOfflineProcessingAllowed, environment == .production,
           let perPayment = settings.offlineTransactionAmountLimit.flatMap(SquareMapping.money),
           let stored = settings.offlineTotalStoredAmountLimit.flatMap(SquareMapping.money) {
            limits = ProcessorOfflineLimits(
                perPaymentMaximum: [perPayment.currency: perPayment.minorUnits],
                storedTotalMaximum: [stored.currency: stored.minorUnits],
                storedCountMaximum: configuration.deviceOfflinePaymentCap,
                storedAgeMaximum: configuration.offlineWindow)
        }
        return ProcessorCapabilities(processorName: name, offlineLimits: limits,
                                     supportedCurrencies: SquareMapping.supportedCurrencies)
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

    /// Signs out, refusing while payments are queued on the device unless the caller accepts losing them: whether
    /// `deauthorize()` drops them is UNVERIFIED, so it is treated as destructive (reference §4).
    /// - Throws: ``PaymentError/Code/unforwardedPaymentsAtRisk``.
    public func deauthorize(acceptingLossOfQueuedPayments: Bool = false) async throws(PaymentError) {
        if !acceptingLossOfQueuedPayments {
            let queued = ((try? await client.paymentManager.offlinePaymentQueue.getPayments()) ?? [])
                .filter { $0.status == .queued }
            if !queued.isEmpty {
                throw PaymentError(.unforwardedPaymentsAtRisk, recovery: .goOnline, phase: .authorization,
                                   message: "\(queued.count) offline payments are not uploaded yet; signing out could lose them.")
            }
        }
        await client.authorizationManager.deauthorize()
    }

    // MARK: Readers

    /// The paired readers; when there are none, pairs the first reader in range (Square pairs and connects in one
    /// step, and its pairing times out on its own after a minute, so `timeout` is not used).
    public func discoverReaders(timeout: Double) async throws -> [Reader] {
        await startObserving()
        var readers = await client.readerManager.readers
        if readers.isEmpty {
            do {
                readers = [try await client.readerManager.startPairing()]
            } catch {
                throw error.tenderError
            }
        }
        let locationID = await client.authorizationManager.location?.id
        return readers.map { SquareMapping.reader($0, locationID: locationID, isSimulated: configuration.readersAreSimulated) }
    }

    /// Makes a paired reader ready at the authorized location, retrying its connection when it is unavailable.
    /// A new reader cannot get ready while the device is offline (`notConnectedToInternet` →
    /// ``PaymentError/Code/readerOfflineConnectionRefused``).
    public func connectReader(_ reader: Reader, locationID: String) async throws -> Reader {
        await startObserving()
        guard let location = await client.authorizationManager.location else {
            throw Square.PaymentError.notAuthorized.tenderError.inPhase(.readerConnection)
        }
        guard location.id == locationID else {
            throw PaymentError(.configurationError, recovery: .fixIntegration, phase: .readerConnection,
                               message: "Square is authorized at location \(location.id), not \(locationID).")
        }
        guard var info = await client.readerManager.readers.first(where: { String($0.id) == reader.id }) else {
            throw PaymentError(.readerConnectionFailed, recovery: .reconnectReader, phase: .readerConnection,
                               message: "Square has no paired reader \(reader.id).")
        }
        if info.statusInfo.status != .ready {
            _ = await client.readerManager.retryConnection(info)
            info = await client.readerManager.readers.first(where: { $0.id == info.id }) ?? info
        }
        if let error = SquareMapping.readerError(info.statusInfo) { throw error }
        return SquareMapping.reader(info, locationID: locationID, isSimulated: configuration.readersAreSimulated)
    }

    /// Square has no "disconnect": the connected readers are forgotten.
    public func disconnectReader() async throws {
        for reader in await client.readerManager.readers { await client.readerManager.forget(reader) }
    }

    // MARK: Payments

    /// Takes a payment: `startPayment` with the reference as `paymentAttemptID` and `referenceID`, reporting
    /// `collecting` (didStart) and `processing` through `updates`, then the outcome.
    public func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                             updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate {
        await startObserving()
        let reference = request.reference
        func result(_ state: PaymentState, error: PaymentError? = nil) -> ProcessorPaymentUpdate {
            ProcessorPaymentUpdate(reference: reference, state: state, error: error)
        }
        guard let mode = SquareMapping.processingMode(for: routing) else {
            if case .refused(let error) = routing { return result(.failed, error: error) }
            return result(.failed)
        }
        // A retry after an unknown outcome: find the earlier payment before asking Square for anything.
        if attempt.number > 1, let previous = attempt.previousState, previous.needsReconciliation {
            switch try await lookUpPayment(reference: reference, localID: attempt.localID,
                                           processorPaymentID: attempt.processorPaymentID) {
            case .found(let update): return update
            case .unknown:
                // Cannot tell: the protocol's answer is to throw, and the session stays for reconciliation.
                throw PaymentError(.outcomeUnknown, recovery: .goOnline, phase: .reconciliation,
                                   message: "The earlier attempt cannot be checked with Square now; it is not charged again.")
            case .notFound: break
            }
        }
        // Square's UI would wait for a reader that cannot come; report why instead (past the offline window or
        // the device cap, Square's readers stop until the device is back online).
        let readers = await client.readerManager.readers
        if !readers.contains(where: { $0.statusInfo.status == .ready }) {
            return result(.failed, error: readers.lazy.compactMap { SquareMapping.readerError($0.statusInfo) }.first
                ?? PaymentError(.readerNotConnected, recovery: .reconnectReader, phase: .readerConnection,
                                message: "No Square reader is connected."))
        }
        let parameters: Square.PaymentParameters
        do {
            parameters = try paymentParameters(request, mode: mode)
        } catch {
            return result(.failed, error: error)
        }
        let (stream, continuation) = AsyncStream.makeStream(of: PaymentDelegateBridge.Event.self)
        let delegate = PaymentDelegateBridge(continuation)
        let handle = await client.paymentManager.startPayment(
            parameters, promptParameters: configuration.promptParameters, delegate: delegate)
        if let handle {
            handles.withLock { $0[reference] = handle }
        } else {
            continuation.finish()  // the SDK reported why through didFail before returning nil
        }
        defer { handles.withLock { $0[reference] = nil } }
        var started = false
        for await event in stream {
            switch event {
            case .started:
                started = true
                emitter.emit(.readerInputRequested(
                    SquareMapping.inputOptions(await client.paymentManager.availableCardInputMethods())))
                try await updates(result(.collecting))
            case .finished(let payment):
                try await updates(result(.processing))
                return outcome(of: payment, reference: reference)
            case .failed(let payment, let error):
                return try await failure(error, payment: payment, request: request, attempt: attempt,
                                         started: started, updates: updates)
            case .canceled:
                return result(.canceled, error: PaymentError(
                    .canceled, recovery: .none, phase: .collection, message: "The Square payment was canceled.",
                    vendor: .init(processor: name, name: "didCancel")))
            }
        }
        return result(.failed, error: Square.PaymentError.unexpected.tenderError)
    }

    /// Cancels the payment in progress through its `PaymentHandle`.
    /// - Throws: ``PaymentError/Code/unknownReference`` when no payment with this reference is in progress, or
    ///   ``PaymentError/Code/invalidState`` when Square can no longer cancel it.
    public func cancelPayment(reference: String) async throws {
        var handle = handles.current[reference]
        if handle == nil, let current = await client.paymentManager.currentPaymentHandle,
           current.paymentParameters.paymentAttemptID == reference {
            handle = current
        }
        guard let handle else {
            throw PaymentError(.unknownReference, recovery: .none, phase: .cancellation,
                               message: "No Square payment with reference \(reference) is in progress.")
        }
        guard await handle.cancelPayment() else {
            throw PaymentError(.invalidState, recovery: .none, phase: .cancellation,
                               message: "Square can no longer cancel payment \(reference).",
                               vendor: .init(processor: name, name: "notCancelable"))
        }
    }

    /// Captures an approved payment (`CompletePayment`) through the app's capture service.
    public func capturePayment(reference: String, processorPaymentID: String, amount: Money) async throws
        -> ProcessorPaymentUpdate {
        return try await captureService.captured(reference: reference, processor: name, processorPaymentID: processorPaymentID,
                                                 amount: amount)
    }

    /// Voids an approved payment (`CancelPayment`) through the app's capture service.
    public func voidPayment(reference: String, processorPaymentID: String) async throws -> ProcessorPaymentUpdate {
        return try await captureService.voided(reference: reference, processor: name, processorPaymentID: processorPaymentID)
    }

    // MARK: Offline queue and recovery

    /// The offline queue of the authorized account and location, after reporting any status change.
    public func queueSnapshot() async throws -> OfflineQueueSnapshot {
        await startObserving()
        let network: NetworkStatus = await client.networkMonitor.isConnected ? .online : .offline
        let payments: [Square.OfflinePayment]
        do {
            payments = try await client.paymentManager.offlinePaymentQueue.getPayments()
        } catch .unsupportedSandboxEnvironment {
            return .empty(network)
        } catch {
            throw error.tenderError
        }
        reportChanges(in: payments)
        let queued = payments.compactMap { payment -> QueuedPayment? in
            guard let amount = SquareMapping.money(payment.totalMoney) else { return nil }
            return QueuedPayment(reference: payment.referenceID ?? payment.localID, localID: payment.localID,
                                 processorPaymentID: payment.id, amount: amount, storedAt: payment.createdAt,
                                 status: SquareMapping.offlinePaymentStatus(payment.status))
        }
        return try OfflineQueueSnapshot(networkStatus: network, payments: queued)
    }

    /// Reads the offline queue and emits ``ProcessorEvent/paymentForwarded(_:)`` for each payment that was
    /// processed, failed to process or failed to upload since the last read. Square has no queue observer, so the
    /// app (or the core) calls this after the SDK syncs; ``queueSnapshot()`` calls it too.
    public func refreshOfflineQueue() async {
        guard let payments = try? await client.paymentManager.offlinePaymentQueue.getPayments() else { return }
        reportChanges(in: payments)
    }

    /// What Square knows of a payment: the device's offline queue (by local id or reference) first, then the
    /// idempotency key of the attempt (none: Square never saw it), then the server through the lookup service
    /// (nothing there: voided by key, then not found; unreachable: unknown).
    public func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup {
        let (reference, localID, processorPaymentID) = (query.reference, query.localID, query.processorPaymentID)
        if let payments = try? await client.paymentManager.offlinePaymentQueue.getPayments(),
           let payment = payments.first(where: { localID != nil && $0.localID == localID })
            ?? payments.first(where: { $0.referenceID == reference }) {
            return .found(offlineUpdate(payment, reference: reference))
        }
        guard let key = await client.paymentManager.getIdempotencyKey(withPaymentAttemptId: reference) else {
            return .notFound
        }
        guard let lookup, let locationID = await client.authorizationManager.location?.id,
              let payments = try? await lookup.payments(referenceID: reference, locationID: locationID) else {
            return .unknown
        }
        let match = payments.last(where: { processorPaymentID != nil && $0.id == processorPaymentID })
            ?? payments.last(where: { $0.status == .approved || $0.status == .completed })
            ?? payments.last
        guard let payment = match else {
            // Nothing on the server: void by idempotency key first, as Square advises for an unknown outcome, so a
            // request still in flight cannot complete later; only then is "never charged" true.
            guard (try? await lookup.cancelPayment(byIdempotencyKey: key)) != nil else { return .unknown }
            return .notFound
        }
        var update = onlineUpdate(payment, reference: reference)
        if localID != nil {
            // Taken offline, then processed: the server's view of a forwarded payment.
            update.route = .offline
            update.localID = localID
            update.state = switch update.state {
            case .succeeded, .authorized: .forwarded
            case .declined: .declinedAfterForwarding
            default: update.state
            }
        }
        return .found(update)
    }

    // MARK: Internals

    private func paymentParameters(_ request: PaymentRequest, mode: Square.ProcessingMode) throws(PaymentError)
        -> Square.PaymentParameters {
        var parameters = Square.PaymentParameters(
            paymentAttemptID: request.reference, amountMoney: try SquareMapping.squareMoney(request.amount),
            processingMode: mode)
        if let tip = request.tip { parameters.tipMoney = try SquareMapping.squareMoney(tip) }
        parameters.referenceID = request.reference
        parameters.note = request.note
        parameters.autocomplete = request.captureMode == .automatic
        if request.captureMode == .manual {
            parameters.delayDuration = configuration.delayDuration
            parameters.delayAction = configuration.delayAction
        }
        return parameters
    }

    private func outcome(of payment: Square.Payment, reference: String) -> ProcessorPaymentUpdate {
        switch payment {
        case .online(let online):
            var update = onlineUpdate(online, reference: reference)
            // A payment the SDK finished but left pending is not known to be approved.
            if update.state == .processing { update.state = .outcomeUnknown }
            return update
        case .offline(let offline):
            reportedOfflineStatus.withLock { $0[offline.localID] = offline.status }
            emitter.emit(.offlineQueueChanged)
            return offlineUpdate(offline, reference: reference)
        }
    }

    private func onlineUpdate(_ payment: Square.OnlinePayment, reference: String) -> ProcessorPaymentUpdate {
        let state = SquareMapping.paymentState(payment.status)
        let error: PaymentError? = state == .declined ? PaymentError(
            .cardDeclined, recovery: .collectAnotherCard, phase: .processing, message: "The card was declined.",
            vendor: .init(processor: name, name: "PaymentStatus.\(payment.status.caseName)")) : nil
        return ProcessorPaymentUpdate(reference: reference, state: state, route: .online, processorPaymentID: payment.id,
                                      card: payment.cardDetails.map(SquareMapping.cardDetails), error: error)
    }

    private func offlineUpdate(_ payment: Square.OfflinePayment, reference: String) -> ProcessorPaymentUpdate {
        let state = SquareMapping.paymentState(payment.status) ?? .storedOffline
        let error: PaymentError? = switch payment.status {
        case .failedToProcess:
            PaymentError(.cardDeclined, recovery: .none, phase: .forwarding,
                         message: "Square declined this offline payment when it processed it; the seller bears the loss.",
                         vendor: .init(processor: name, name: "OfflineStatus.failedToProcess"))
        case .failedToUpload:
            PaymentError(.forwardingFailed, recovery: .none, phase: .forwarding,
                         message: "Square could not upload this offline payment (an unrecoverable error, or it expired).",
                         vendor: .init(processor: name, name: "OfflineStatus.failedToUpload"))
        case .queued, .uploaded, .processed, .unknown: nil
        }
        return ProcessorPaymentUpdate(reference: payment.referenceID ?? reference, state: state, route: .offline,
                                      processorPaymentID: payment.id, localID: payment.localID,
                                      card: payment.cardDetails.map(SquareMapping.cardDetails), error: error)
    }

    private func failure(_ error: any Error, payment: Square.Payment?, request: PaymentRequest,
                         attempt: PaymentAttempt, started: Bool, updates: PaymentUpdateHandler) async throws
        -> ProcessorPaymentUpdate {
        let reference = request.reference
        guard let squareError = error as? Square.PaymentError else {
            // A future SDK's error: the documented fallback. A payment may be in flight, so its outcome is unknown.
            let mapped = SquareErrorTable.paymentError.error(named: String(describing: error))
            return ProcessorPaymentUpdate(reference: reference, state: .outcomeUnknown, error: mapped)
        }
        let mapped = squareError.tenderError
        switch squareError {
        case .paymentAttemptIdReused, .idempotencyKeyReused:
            // The session is now reconciling with what Square holds: report it as processing first, so that
            // the payment found (succeeded, stored offline…) is a legal next state.
            if !started { try await updates(ProcessorPaymentUpdate(reference: reference, state: .processing)) }
            return try await resolveReusedAttempt(request, attempt: attempt, error: mapped)
        case .timedOut:
            return ProcessorPaymentUpdate(reference: reference, state: .outcomeUnknown,
                                          error: mapped.inPhase(started ? .processing : .creation))
        default:
            if let payment, case .online(let online) = payment, online.status != .initialized {
                return onlineUpdate(online, reference: reference)
            }
            return ProcessorPaymentUpdate(reference: reference, state: .failed, error: mapped)
        }
    }

    /// Square refused the attempt id: a payment for this reference exists. Find it; never charge again. A payment
    /// found for a different amount means the reference was reused for another sale.
    private func resolveReusedAttempt(_ request: PaymentRequest, attempt: PaymentAttempt, error: PaymentError)
        async throws -> ProcessorPaymentUpdate {
        let reference = request.reference
        switch try await lookUpPayment(reference: reference, localID: attempt.localID,
                                       processorPaymentID: attempt.processorPaymentID) {
        case .found(let update):
            let total = try? request.total()
            let amount = try? await amountOfFound(update)
            if let total, let amount, amount != total {
                return ProcessorPaymentUpdate(reference: reference, state: .failed, error: PaymentError(
                    .duplicateReference, recovery: .fixRequest, phase: .creation,
                    message: "Reference \(reference) was already used by Square for a payment of \(amount), not \(total).",
                    vendor: error.vendor))
            }
            return update
        case .notFound, .unknown:
            return ProcessorPaymentUpdate(reference: reference, state: .outcomeUnknown, error: error)
        }
    }

    private func amountOfFound(_ update: ProcessorPaymentUpdate) async throws -> Money? {
        if let localID = update.localID,
           let payment = try await client.paymentManager.offlinePaymentQueue.getPayments()
            .first(where: { $0.localID == localID }) {
            return SquareMapping.money(payment.totalMoney)
        }
        guard let lookup, let locationID = await client.authorizationManager.location?.id else { return nil }
        let payment = try await lookup.payments(referenceID: update.reference, locationID: locationID)
            .first { $0.id == update.processorPaymentID }
        return payment.flatMap { SquareMapping.money(Square.Money(
            amount: $0.amountMoney.amount + ($0.tipMoney?.amount ?? 0), currency: $0.amountMoney.currency)) }
    }

    private func reportChanges(in payments: [Square.OfflinePayment]) {
        var changed = false
        for payment in payments {
            let previous = reportedOfflineStatus.withLock { seen in
                defer { seen[payment.localID] = payment.status }
                return seen[payment.localID]
            }
            guard previous != payment.status else { continue }
            changed = true
            switch payment.status {
            case .processed, .failedToProcess, .failedToUpload:
                emitter.emit(.paymentForwarded(offlineUpdate(payment, reference: payment.localID)))
            case .queued, .uploaded, .unknown:
                break
            }
        }
        if changed { emitter.emit(.offlineQueueChanged) }
    }
}

/// Receives `PaymentManagerDelegate` callbacks and hands them to the adapter's `startPayment` as a stream.
final class PaymentDelegateBridge: Square.PaymentManagerDelegate {
    enum Event: Sendable {
        case started
        case finished(Square.Payment)
        case failed(Square.Payment?, any Error)
        case canceled
    }

    private let continuation: AsyncStream<Event>.Continuation

    init(_ continuation: AsyncStream<Event>.Continuation) { self.continuation = continuation }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didStart payment: Square.Payment) {
        continuation.yield(.started)
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didFinish payment: Square.Payment) {
        continuation.yield(.finished(payment))
        continuation.finish()
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didFail payment: Square.Payment?,
                        withError error: any Error) {
        continuation.yield(.failed(payment, error))
        continuation.finish()
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didCancel payment: Square.Payment?) {
        continuation.yield(.canceled)
        continuation.finish()
    }
}

/// Turns the SDK's reader and network callbacks into ``ProcessorEvent``s.
final class SquareEventObserver: Square.ReaderObserver, Square.NetworkObserver {
    private let emitter: ProcessorEventEmitter
    private let lastStatus = Locked<[UInt: Square.ReaderStatus]>([:])

    init(emitter: ProcessorEventEmitter) { self.emitter = emitter }

    /// Records the readers' statuses at registration, so a later drop from `ready` is reported as a disconnect.
    func remember(_ readers: [Square.ReaderInfo]) {
        lastStatus.withLock { last in
            for reader in readers where last[reader.id] == nil { last[reader.id] = reader.statusInfo.status }
        }
    }

    func readerWasAdded(_ readerInfo: Square.ReaderInfo) {
        lastStatus.withLock { $0[readerInfo.id] = readerInfo.statusInfo.status }
        emitter.emit(.readerConnectionChanged(SquareMapping.connectionStatus(readerInfo.statusInfo.status)))
    }

    func readerWasRemoved(_ readerInfo: Square.ReaderInfo) {
        lastStatus.withLock { $0[readerInfo.id] = nil }
        emitter.emit(.readerDisconnected(.requested))
        emitter.emit(.readerConnectionChanged(.notConnected))
    }

    func readerDidChange(_ readerInfo: Square.ReaderInfo, change: Square.ReaderChange) {
        switch change {
        case .readerStatusDidChange:
            let status = readerInfo.statusInfo.status
            let previous = lastStatus.withLock { last in
                defer { last[readerInfo.id] = status }
                return last[readerInfo.id]
            }
            if previous == .ready, status != .ready {
                let reason = readerInfo.statusInfo.unavailableReasonInfo?.reason
                emitter.emit(.readerDisconnected(reason.map(SquareMapping.disconnectReason) ?? .unknown))
            }
            emitter.emit(.readerConnectionChanged(SquareMapping.connectionStatus(status)))
        case .batteryDidBeginCharging, .batteryDidEndCharging, .batteryLevelDidChange:
            guard let battery = readerInfo.batteryStatus else { return }
            emitter.emit(.batteryLevelChanged(level: Double(battery.percentage) / 100, isCharging: battery.isCharging))
        case .cardInserted:
            emitter.emit(.readerMessage(.cardInserted))
        case .cardRemoved:
            emitter.emit(.readerMessage(.cardRemoved))
        case .firmwareUpdateStatusDidChange:
            switch readerInfo.firmwareInfo?.updateStatus {
            case .pending?:
                let blocking = readerInfo.statusInfo.unavailableReasonInfo?.reason == .blockingFirmwareUpdate
                emitter.emit(.softwareUpdateAvailable(ReaderSoftwareUpdate(
                    version: readerInfo.firmwareInfo?.version ?? "unknown", isRequired: blocking)))
            case .none?:
                emitter.emit(.softwareUpdateFinished(nil))
            case .inProgress?, .failed?, nil:
                break
            }
        case .firmwareUpdatePercentDidChange:
            emitter.emit(.softwareUpdateProgress(Double(readerInfo.firmwareInfo?.updatePercentage ?? 0) / 100))
        case .firmwareUpdateDidFail:
            emitter.emit(.softwareUpdateFinished(PaymentError(
                .readerUpdateFailed, recovery: .updateReader, phase: .softwareUpdate,
                message: "The Square reader's firmware update failed.",
                vendor: .init(processor: SquareErrorTable.processor, name: "ReaderChange.firmwareUpdateDidFail"))))
        case .firmwareUpdateTimeDidChange:
            break
        }
    }

    func networkDidChange(isConnected: Bool) {
        emitter.emit(.networkStatusChanged(isConnected ? .online : .offline))
    }
}
