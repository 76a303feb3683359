public import Observation
public import Tender
import Foundation

/// The state an app's screens show, kept up to date from a ``Tender/PaymentTerminal``: reader and connection status,
/// readers as discovery finds them, software-update progress, the current payment's phase and the prompt to show,
/// the offline queue and its forwarding progress, and the last error with its advice.
///
/// Views read its properties (SwiftUI re-renders on change through Observation) and call its actions; all logic is
/// here, none in the views. Start it once, in a task that lives as long as the screen or the app:
/// ```swift
/// @State var model = TerminalModel(terminal: terminal)
/// var body: some View {
///     CheckoutView(model: model).task { await model.start() }
/// }
/// ```
/// ``start()`` reads the facade's ``Tender/PaymentTerminal/snapshot()`` and then follows its events, so a screen
/// that appears late starts from the current state, not from "nothing connected".
///
/// The model is `@Observable` (Observation): it needs iOS 17, macOS 14, tvOS 17 or watchOS 10, where the rest of
/// Tender runs from iOS 16 and macOS 13. An app that supports iOS 16 uses the facade's events directly there.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable @MainActor
public final class TerminalModel {
    /// The facade the model drives.
    public let terminal: PaymentTerminal

    /// Whether the device reaches the processor.
    public private(set) var networkStatus: NetworkStatus = .unknown
    /// The connected reader, `nil` when none is.
    public private(set) var reader: Reader?
    /// The reader's connection status (including discovering, connecting and reconnecting).
    public private(set) var readerStatus: ReaderConnectionStatus = .notConnected
    /// The readers found by the running (or last) discovery, in the order found; updated in place as the vendor
    /// learns more about one (a serial number first, then its model and battery).
    public private(set) var discoveredReaders: [Reader] = []
    /// The software update the reader offers or requires.
    public private(set) var softwareUpdate: ReaderSoftwareUpdate?
    /// The progress of the update installing now (0...1), `nil` when none is.
    public private(set) var updateProgress: Double?
    /// The reference of the payment in progress or last taken: one ``charge(_:)`` took, or one the app started
    /// through the facade directly while this model followed none. A payment of an earlier launch that recovery,
    /// forwarding or the queue poller settles is never shown here.
    public private(set) var paymentReference: String?
    /// The state of that payment.
    public private(set) var paymentState: PaymentState?
    /// What to show the cashier and customer for that payment now.
    public private(set) var prompt: CheckoutPrompt?
    /// The offline queue: count, amount per currency, oldest.
    public private(set) var queue: OfflineQueueSnapshot = .init(networkStatus: .unknown)
    /// Forwarding progress since the stored payments started to go out, `nil` when nothing is being forwarded.
    public private(set) var forwarding: ForwardingProgress?
    /// The last error, until ``dismissError()`` or the next action; its ``Tender/PaymentError/recovery`` says what to
    /// do (``Tender/PaymentError/Recovery/localizedAdvice``).
    public private(set) var lastError: PaymentError?

    private var discovery: Task<Void, Never>?
    /// Whether a ``charge(_:)`` call runs (from the tap until it returns).
    private var isCharging = false
    /// Discoveries started so far: a discovery's end changes the status only if no later one started.
    @ObservationIgnored private var discoveryGeneration = 0
    /// Whether ``start()`` runs (a second call returns at once).
    @ObservationIgnored private var isStarted = false
    @ObservationIgnored private var queueGeneration = 0
    /// Reader actions (connect, install an update, disconnect) finished so far: a snapshot read while one finished
    /// may hold the reader as it was before it, so ``load()`` reads it again.
    @ObservationIgnored private var readerActions = 0
    /// The version ``installUpdate()`` last installed: a late announcement of it is not shown again.
    @ObservationIgnored private var installedVersion: String?
    /// Whether ``start()`` has subscribed to the facade's events (tests wait for it before sending any).
    @ObservationIgnored package private(set) var isFollowing = false

    /// Creates a model over a facade. Call ``start()`` to fill it.
    public init(terminal: PaymentTerminal) {
        self.terminal = terminal
    }

    /// Whether a payment is with the reader or the processor now (a Cancel button's visibility).
    public var isPaymentInProgress: Bool {
        guard let paymentState else { return false }
        return [.created, .collecting, .processing].contains(paymentState)
    }

    /// The phase of the payment now, from the tap (``PaymentPhase/starting``) to its end (``PaymentPhase/idle``).
    public var paymentPhase: PaymentPhase {
        if isCharging, paymentState == nil || paymentState == .created { return .starting }
        return isCharging || isPaymentInProgress ? .inProgress : .idle
    }

    /// Starts from the facade's current state and follows its events until the calling task is cancelled or the
    /// facade is gone. Runs once per model: a call while one runs returns at once (SwiftUI:
    /// `.task { await model.start() }`, once).
    public func start() async {
        guard !isStarted else { return }
        isStarted = true
        let events = terminal.events  // subscribe first: nothing sent after the snapshot is missed
        defer {
            isFollowing = false
            isStarted = false
        }
        await load()
        // Following from here: the first snapshot is applied (a test waiting for this never races it).
        isFollowing = true
        for await event in events {
            apply(event)
            if Task.isCancelled { return }
        }
    }

    /// Reads the facade's snapshot into the model (``start()`` does it first; previews do it before they return).
    package func load() async {
        do {
            var snapshot: TerminalSnapshot
            var reads = 0
            repeat {
                let actions = readerActions
                snapshot = try await terminal.snapshot()
                reads += 1
                if readerActions == actions { break }
            } while reads < 3
            apply(snapshot)
        } catch {
            lastError = PaymentError.from(error)
        }
    }

    // MARK: Actions

    /// Looks for readers of `kind` for at most `timeout` seconds, listing them in ``discoveredReaders`` as they are
    /// found. Calling it again, ``stopDiscovery()`` or ``connect(_:)`` ends the previous discovery; the status and
    /// the list are then the latest discovery's (the end of an earlier one changes neither).
    public func discoverReaders(_ kind: ReaderKind = .bluetooth, timeout: Double = 10) async {
        discovery?.cancel()
        discoveryGeneration += 1
        let generation = discoveryGeneration
        discoveredReaders = []
        lastError = nil
        readerStatus = .discovering
        let task = Task { [terminal] in
            do {
                for try await found in terminal.readerDiscovery(kind, timeout: timeout) {
                    guard generation == self.discoveryGeneration else { return }
                    self.found(found)
                }
            } catch is CancellationError {
            } catch let error as PaymentError where error.code == .canceled {
            } catch {
                if generation == self.discoveryGeneration { self.lastError = PaymentError.from(error) }
            }
        }
        discovery = task
        await task.value
        guard generation == discoveryGeneration else { return }
        discovery = nil
        if readerStatus == .discovering { readerStatus = reader == nil ? .notConnected : .connected }
    }

    /// Ends a running discovery.
    public func stopDiscovery() {
        discovery?.cancel()
    }

    /// Connects a reader found by discovery.
    public func connect(_ reader: Reader) async {
        discovery?.cancel()
        discoveryGeneration += 1
        lastError = nil
        readerStatus = .connecting
        do {
            let connected = try await terminal.connectReader(reader)
            self.reader = connected
            softwareUpdate = connected.availableUpdate
            readerStatus = .connected
        } catch {
            readerStatus = self.reader == nil ? .notConnected : .connected
            lastError = PaymentError.from(error)
        }
        readerActions += 1
    }

    /// Installs the update the connected reader offers or requires (``softwareUpdate``), with progress in
    /// ``updateProgress``.
    public func installUpdate() async {
        lastError = nil
        do {
            let installing = await terminal.connectedReader()?.availableUpdate?.version ?? softwareUpdate?.version
            try await terminal.installReaderUpdate()
            installedVersion = installing ?? installedVersion
            softwareUpdate = nil
            updateProgress = nil
            reader = await terminal.connectedReader() ?? reader
        } catch {
            updateProgress = nil
            lastError = PaymentError.from(error)
        }
        readerActions += 1
    }

    /// Disconnects the reader.
    public func disconnect() async {
        do {
            try await terminal.disconnectReader()
            reader = nil
            readerStatus = .notConnected
        } catch {
            lastError = PaymentError.from(error)
        }
        readerActions += 1
    }

    /// Takes a payment, following it in ``paymentState`` and ``prompt``; returns the recorded session, or `nil` when
    /// it was refused before the processor was called or could not be recorded (see ``lastError``).
    ///
    /// One payment at a time: while one runs (``paymentPhase`` is not ``PaymentPhase/idle``), another charge is
    /// refused with ``Tender/PaymentError/Code/paymentInProgress`` and the payment shown stays the one running.
    @discardableResult
    public func charge(_ request: PaymentRequest) async -> PaymentSession? {
        guard paymentPhase == .idle else {
            let running = paymentReference.map { "Payment \"\($0)\" is" } ?? "A payment is"
            lastError = PaymentError(.paymentInProgress, recovery: .waitAndRetry, phase: .validation,
                                     message: "\(running) in progress: \"\(request.reference)\" was not started. "
                                         + "Wait for it to finish (or cancel it), then charge again.")
            return nil
        }
        isCharging = true
        defer { isCharging = false }
        lastError = nil
        paymentReference = request.reference
        paymentState = nil
        prompt = nil
        do {
            let session = try await terminal.takePayment(request)
            record(session)
            return session
        } catch {
            lastError = PaymentError.from(error)
            if let session = try? await terminal.session(reference: request.reference) { record(session) }
            return nil
        }
    }

    /// Cancels the payment in progress, if the vendor still can (Tender records `canceled` only when it confirms).
    public func cancelPayment() async {
        guard let paymentReference, isPaymentInProgress else { return }
        do {
            try await terminal.cancelPayment(reference: paymentReference)
        } catch {
            lastError = PaymentError.from(error)
        }
    }

    /// Refunds a payment (all of what is left, or `amount`); returns the refund as recorded, or `nil` with
    /// ``lastError`` set.
    @discardableResult
    public func refund(reference: String, amount: Money? = nil) async -> RefundRecord? {
        lastError = nil
        do {
            return try await terminal.refund(reference: reference, amount: amount)
        } catch {
            lastError = PaymentError.from(error)
            return nil
        }
    }

    /// Clears ``lastError``.
    public func dismissError() { lastError = nil }

    // MARK: Applying state

    private func record(_ session: PaymentSession) {
        guard session.reference == paymentReference else { return }
        if session.state == .storedOffline { refreshQueue() }
        // The call's result is read from the ledger after its last step: it wins over any event still on its way.
        paymentState = session.state
        if let next = CheckoutPrompt(session.state) { prompt = next }
        if let error = session.lastError, CheckoutPrompt(session.state) == .notApproved || session.state == .outcomeUnknown {
            lastError = error
        }
    }

    /// Moves the followed payment to `state` if that is forward from what is shown: the call's result, its events and
    /// a snapshot can arrive in any order, and a payment must never be shown going backwards.
    /// - Returns: whether `state` is now shown.
    @discardableResult
    private func follow(_ reference: String, to state: PaymentState) -> Bool {
        if reference == paymentReference, let current = paymentState {
            guard current == state || PaymentStateMachine.canTransition(from: current, to: state) else { return false }
        }
        paymentReference = reference
        paymentState = state
        if let next = CheckoutPrompt(state) { prompt = next }
        return true
    }

    private func found(_ found: Reader) {
        if let index = discoveredReaders.firstIndex(where: { $0.id == found.id }) {
            discoveredReaders[index] = found
        } else {
            discoveredReaders.append(found)
        }
    }

    func apply(_ snapshot: TerminalSnapshot) {
        networkStatus = snapshot.networkStatus
        reader = snapshot.reader
        readerStatus = snapshot.readerStatus
        softwareUpdate = snapshot.reader?.availableUpdate
        setQueue(snapshot.queue)
        // A payment the model already follows (started through ``charge(_:)``) is not replaced by an older read.
        if let current = snapshot.paymentsInProgress.last, paymentReference == nil || paymentReference == current.reference {
            follow(current.reference, to: current.state)
        }
    }

    func apply(_ event: TenderEvent) {
        switch event {
        case .processor(let event): apply(event)
        case .paymentStateChanged(let change):
            if change.from == .storedOffline || change.to == .storedOffline { refreshQueue() }
            // Before the model follows a payment, only one starting now is adopted (one the app started through
            // the facade directly): never a forwarding result, recovery or queue event of an older payment.
            guard change.reference == paymentReference || (paymentReference == nil && Self.isStarting(change))
            else { return }
            if follow(change.reference, to: change.to), let error = change.error { lastError = error }
        case .paymentRefused(let reference, let error):
            guard reference == paymentReference else { return }
            lastError = error
        case .queueChanged:
            // The facade may send two of these out of order (two polls overlapping): read the ledger's figures
            // now rather than trusting the order of the payloads.
            refreshQueue()
        case .refundChanged(let refund):
            if let error = refund.error, refund.status == .failed { lastError = error }
        default:
            break
        }
    }

    /// Whether `change` is a payment starting now: out of `created`, to the reader or the processor.
    private static func isStarting(_ change: PaymentStateChange) -> Bool {
        change.from == .created && (change.to == .collecting || change.to == .processing)
    }

    private func apply(_ event: ProcessorEvent) {
        switch event {
        case .networkStatusChanged(let status): networkStatus = status
        case .readerInputRequested(let options):
            if isPaymentInProgress || paymentState == nil { prompt = .presentCard(options) }
        case .readerMessage(let message): prompt = .readerMessage(message)
        case .readerConnectionChanged(let status):
            // Connecting and discovering are the model's own actions' states; the processor's report of them may
            // arrive after the action finished.
            guard status != .connecting, status != .discovering else { break }
            readerStatus = status
            if status == .notConnected { reader = nil }
        case .readerDisconnected, .readerReconnectFailed:
            reader = nil
            readerStatus = .notConnected
        case .readerReconnectStarted: readerStatus = .reconnecting
        case .readerReconnectSucceeded: readerStatus = .connected
        case .softwareUpdateAvailable(let update):
            // An announcement that arrives after this model installed that very version is stale.
            if update.version != installedVersion { softwareUpdate = update }
        case .softwareUpdateProgress(let progress): updateProgress = progress
        case .softwareUpdateFinished(let error):
            updateProgress = nil
            if let error { lastError = error } else { softwareUpdate = nil }
        case .batteryLevelChanged(let level, let isCharging):
            reader?.batteryLevel = level
            reader?.isCharging = isCharging
        case .forwardingError(let error): lastError = error
        default: break
        }
    }

    /// Reads the ledger's queue figures again (a payment was stored or left the queue).
    private func refreshQueue() {
        queueGeneration += 1
        let generation = queueGeneration
        Task { [terminal] in
            // A later event or read supersedes this one: never show an older figure after a newer.
            if let snapshot = try? await terminal.queueStatus(), generation == self.queueGeneration {
                self.setQueue(snapshot)
            }
        }
    }

    private func setQueue(_ snapshot: OfflineQueueSnapshot) {
        let before = queue.storedCount
        queue = snapshot
        networkStatus = snapshot.networkStatus == .unknown ? networkStatus : snapshot.networkStatus
        let now = snapshot.storedCount
        if now < before {
            let total = max(forwarding?.total ?? before, before)
            forwarding = ForwardingProgress(forwarded: total - now, total: total)
        } else if now > before, forwarding?.isFinished ?? false {
            forwarding = nil
        }
    }
}
