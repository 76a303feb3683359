import Foundation
import Tender
import TenderStripe

/// A simulator of the Stripe Terminal iOS SDK with a simulated Bluetooth reader, as Stripe documents it: test
/// cards (every `chargeDeclined…` card, Interac, PIN cards), a network that is online, offline, intermittent or
/// timing out (``Stripe/SimulatedOfflineMode``), offline storage with nil `stripeId` and `offlineDetails`,
/// forwarding with `didForwardPaymentIntent` per intent and declines surfacing at forwarding, the 10,000 USD offline
/// maximum, swipe and Interac refused offline, the connect-while-offline rules, reader disconnects and automatic
/// reconnection, required and optional updates with progress, and a log hook.
///
/// It keeps the **processor-side truth**, what Stripe's servers hold (``serverIntents``, ``serverCharges``,
/// ``chargeCount(reference:)``), and persists it with the device's offline store (``persist(to:)``,
/// ``init(restoringFrom:configuration:clock:tokenProvider:)``), so a test can simulate an app restart.
///
/// Deterministic: ids come from the seed, time from the injected ``TenderClock``, and nothing runs on a timer:
/// forwarding happens when the network is set back online or when ``forwardPendingPayments(maxCount:)`` is called.
public actor StripeSimulator: StripeClient {
    private struct Delegates {
        var terminal: (any Stripe.TerminalDelegate)?
        var offline: (any Stripe.OfflineDelegate)?
        var log: (@Sendable (String) -> Void)?
    }

    private struct LocalIntent {
        var intent: Stripe.PaymentIntent
        var behavior: Stripe.OfflineBehavior
        var card: Stripe.SimulatedCardType?
        var readMethod: Stripe.ReadMethod?
    }

    private struct PendingDiscovery {
        var cancelable: Stripe.Cancelable
        var completion: OneShot<Stripe.ErrorCode?>
    }

    private struct PendingCollection {
        var handle: String
        var cancelable: Stripe.Cancelable
        var completion: OneShot<Result<Stripe.PaymentIntent, Stripe.ErrorCode>>
    }

    private struct Connection {
        var reader: Stripe.Reader
        var autoReconnect: Bool
        var delegate: (any Stripe.MobileReaderDelegate)?
    }

    private enum RequestOutcome { case reached, failedFast, timedOut }

    private static let offlineWindow: Double = 30 * 24 * 3600
    private static let optionalUpdateGrace: Double = 7 * 24 * 3600

    private nonisolated let delegates = Locked(Delegates())
    private let clock: any TenderClock
    private let tokenProvider: any Stripe.ConnectionTokenProvider
    private var state: PersistedState
    private var configuration: Stripe.SimulatorConfiguration
    private var offlineMode: Stripe.SimulatedOfflineMode = .disabled
    private var random: SeededGenerator
    private var sdkNetworkStatus: Stripe.NetworkStatus = .unknown
    private var currentConnectionStatus: Stripe.ConnectionStatus = .notConnected
    private var currentPaymentStatus: Stripe.PaymentStatus = .notReady
    private var connection: Connection?
    private var localIntents: [String: LocalIntent] = [:]
    private var pendingDiscovery: PendingDiscovery?
    private var pendingCollection: PendingCollection?
    private var hasSessionToken = false
    private var paymentsCountCleared = false
    private var nextCollectionFailure: Stripe.ErrorCode.Code?
    private var optionalUpdateReportedAt: [String: Date] = [:]

    /// Creates a simulator.
    /// - Parameters:
    ///   - configuration: the simulated account, reader and card.
    ///   - seed: the seed for ids and the intermittent network.
    ///   - clock: the clock for `storedAt`, the 30-day rules and update deadlines.
    ///   - tokenProvider: the app's connection-token provider (asked on connect and when forwarding).
    public init(configuration: Stripe.SimulatorConfiguration = .init(), seed: UInt64 = 1,
                clock: any TenderClock = ManualClock(),
                tokenProvider: any Stripe.ConnectionTokenProvider = StripeSimulator.TestTokenProvider()) {
        self.configuration = configuration
        self.clock = clock
        self.tokenProvider = tokenProvider
        self.random = SeededGenerator(seed: seed)
        self.state = PersistedState(seed: seed, issuedIdentifiers: 0, serverIntents: [], charges: [],
                                    storedPayments: [], onlineConnections: [], softwareCurrentAt: [:],
                                    updatedReaders: [])
    }

    /// Re-creates a simulator from a file written by ``persist(to:)``: a simulated app restart. Stripe's servers
    /// and the SDK's offline store survive; in-memory state (connection, unconfirmed intents) does not.
    /// - Throws: if the file is missing or unreadable.
    public init(restoringFrom file: SimulatorStateFile<PersistedState>,
                configuration: Stripe.SimulatorConfiguration = .init(), clock: any TenderClock = ManualClock(),
                tokenProvider: any Stripe.ConnectionTokenProvider = StripeSimulator.TestTokenProvider()) throws {
        guard let saved = try file.load() else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: file.url.path])
        }
        self.configuration = configuration
        self.clock = clock
        self.tokenProvider = tokenProvider
        self.random = SeededGenerator(seed: saved.seed &+ saved.issuedIdentifiers)
        self.state = saved
    }

    /// Writes Stripe's servers and the device's offline store to `file`.
    public func persist(to file: SimulatorStateFile<PersistedState>) throws { try file.save(state) }

    /// A connection-token provider that always answers with a test token.
    public struct TestTokenProvider: Stripe.ConnectionTokenProvider {
        /// Creates the provider.
        public init() {}
        /// A test token.
        public func fetchConnectionToken() async throws -> String { "pst_test_simulated" }
    }

    // MARK: - Test controls

    /// Changes the simulated configuration (card, read method, updates, limits).
    public func updateConfiguration(_ change: @Sendable (inout Stripe.SimulatorConfiguration) -> Void) {
        change(&configuration)
    }

    /// The current configuration.
    public var currentConfiguration: Stripe.SimulatorConfiguration { configuration }

    /// ⚑ `setSimulatedOfflineModeConfiguration`: the network. Going back to ``Stripe/SimulatedOfflineMode/disabled``
    /// forwards the stored payments when ``Stripe/SimulatorConfiguration/forwardsWhenNetworkReturns`` is on.
    public func setSimulatedOfflineMode(_ mode: Stripe.SimulatedOfflineMode) async {
        offlineMode = mode
        setNetworkStatus(network.reportedStatus == .online ? .online : .offline)
        log("simulated offline mode: \(mode.rawValue)")
        if mode == .disabled, configuration.forwardsWhenNetworkReturns, !state.storedPayments.isEmpty {
            await forwardPendingPayments()
        }
    }

    /// The customer presents the card to a reader waiting for it. Returns false if no collection is waiting.
    @discardableResult
    public func presentCard() -> Bool {
        normalize()
        guard let pending = pendingCollection else { return false }
        pendingCollection = nil
        finishCollection(handle: pending.handle, completion: pending.completion, cancelable: pending.cancelable)
        return true
    }

    /// Makes the next collection fail with `code` (a card read error).
    public func failNextCollection(with code: Stripe.ErrorCode.Code) { nextCollectionFailure = code }

    /// The reader disconnects unexpectedly (out of range, powered off…). A waiting collection fails with
    /// `bluetoothDisconnected`; with automatic reconnection on, reconnection starts and succeeds or fails
    /// (``Stripe/SimulatorConfiguration/reconnectionSucceeds``, or the delegate cancels it).
    public func simulateUnexpectedDisconnect(reason: Stripe.DisconnectReason = .bluetoothSignalLost) {
        normalize()
        guard connection != nil else { return }
        if let pending = pendingCollection {
            pendingCollection = nil
            pending.cancelable.markCompleted()
            pending.completion.fire(.failure(Stripe.ErrorCode(
                .bluetoothDisconnected, message: "Bluetooth device was disconnected unexpectedly.")))
            setPaymentStatus(.notReady)
        }
        dropConnection(reason: reason)
    }

    /// Forwards up to `maxCount` stored payments (all if nil), oldest first, while the network lets requests
    /// through: the deterministic stand-in for the SDK's background forwarding. Asks the token provider first (even
    /// offline, as the SDK does) and reports its failure through `didReportForwardingError`. Each payment is
    /// reported through `didForwardPaymentIntent`; a decline surfaces there, as a `declinedByStripeAPI` error.
    public func forwardPendingPayments(maxCount: Int? = nil) async {
        guard !state.storedPayments.isEmpty else { return }
        let token: String
        do {
            token = try await tokenProvider.fetchConnectionToken()
        } catch {
            reportForwardingError(Stripe.ErrorCode(.connectionTokenProviderCompletedWithErrorWhileForwarding,
                                                   message: "Connection token provider failed: \(error)"))
            return
        }
        guard !token.isEmpty else {
            reportForwardingError(Stripe.ErrorCode(.connectionTokenProviderCompletedWithNothingWhileForwarding,
                                                   message: "Connection token provider returned nothing."))
            return
        }
        var forwarded = 0
        while let stored = state.storedPayments.first, forwarded < (maxCount ?? Int.max) {
            guard attemptRequest() == .reached else { break }
            state.storedPayments.removeFirst()
            forwarded += 1
            let (intent, error) = forward(stored)
            log("forwarded \(intent.stripeId ?? "(local)") \(error.map { "with \($0)" } ?? "")")
            delegates.current.offline?.didForwardPaymentIntent(intent, error: error)
            notifyOfflineStatus()
        }
    }

    // MARK: - Processor-side truth

    /// Every PaymentIntent Stripe's servers hold.
    public var serverIntents: [Stripe.PaymentIntent] { state.serverIntents }

    /// Every charge Stripe's servers hold (authorized and declined).
    public var serverCharges: [ServerCharge] { state.charges }

    /// The charges for one app reference.
    public func charges(reference: String) -> [ServerCharge] { state.charges.filter { $0.reference == reference } }

    /// How many times the card was authorized for one reference: the figure that must never exceed one.
    public func chargeCount(reference: String) -> Int {
        charges(reference: reference).filter { $0.status == .succeeded }.count
    }

    /// The payments stored on the device, waiting to be forwarded.
    public var storedPayments: [StoredPayment] { state.storedPayments }

    /// The server's PaymentIntent with this id.
    public func serverIntent(stripeId: String) -> Stripe.PaymentIntent? {
        state.serverIntents.first { $0.stripeId == stripeId }
    }

    /// The app's backend captures (`POST /v1/payment_intents/:id/capture`). Refused unless `requiresCapture`.
    public func capture(stripeId: String, amount: UInt? = nil) throws(Stripe.ErrorCode) {
        guard let index = state.serverIntents.firstIndex(where: { $0.stripeId == stripeId }),
              state.serverIntents[index].status == .requiresCapture else {
            throw Stripe.ErrorCode(Stripe.ErrorCode.Code(name: "stripeAPIError", numericCode: 9020),
                                   message: "PaymentIntent \(stripeId) cannot be captured in its current state.")
        }
        state.serverIntents[index].status = .succeeded
        for i in state.charges.indices where state.charges[i].paymentIntentId == stripeId
            && state.charges[i].status == .succeeded {
            state.charges[i].captured = true
            if let amount { state.charges[i].amount = min(amount, state.charges[i].amount) }
        }
    }

    /// The app's backend cancels (`POST /v1/payment_intents/:id/cancel`), releasing an uncaptured authorization.
    public func cancelOnServer(stripeId: String) throws(Stripe.ErrorCode) {
        guard let index = state.serverIntents.firstIndex(where: { $0.stripeId == stripeId }),
              state.serverIntents[index].status != .succeeded, state.serverIntents[index].status != .canceled else {
            throw Stripe.ErrorCode(Stripe.ErrorCode.Code(name: "stripeAPIError", numericCode: 9020),
                                   message: "PaymentIntent \(stripeId) cannot be canceled in its current state.")
        }
        state.serverIntents[index].status = .canceled
        for i in state.charges.indices where state.charges[i].paymentIntentId == stripeId {
            state.charges[i].released = true
        }
    }

    /// The app's backend creates a PaymentIntent (for ``retrievePaymentIntent(clientSecret:)``).
    public func createOnServer(_ parameters: Stripe.PaymentIntentParameters) -> Stripe.PaymentIntent {
        let stripeId = nextID("pi_")
        let intent = Stripe.PaymentIntent(
            sdkHandle: stripeId, stripeId: stripeId, status: .requiresPaymentMethod, amount: parameters.amount,
            currency: parameters.currency, captureMethod: parameters.captureMethod, created: clock.now(),
            metadata: parameters.metadata, clientSecret: stripeId + "_secret_" + nextID(""))
        state.serverIntents.append(intent)
        return intent
    }

    // MARK: - StripeClient: delegates and credentials

    /// `Terminal.shared.delegate`.
    public nonisolated func setTerminalDelegate(_ delegate: (any Stripe.TerminalDelegate)?) {
        delegates.withLock { $0.terminal = delegate }
    }

    /// `Terminal.shared.offlineDelegate`.
    public nonisolated func setOfflineDelegate(_ delegate: (any Stripe.OfflineDelegate)?) {
        delegates.withLock { $0.offline = delegate }
    }

    /// `Terminal.setLogListener(_:)`.
    public nonisolated func setLogListener(_ listener: (@Sendable (String) -> Void)?) {
        delegates.withLock { $0.log = listener }
    }

    /// `clearCachedCredentials()`.
    public func clearCachedCredentials() async throws(Stripe.ErrorCode) {
        guard connection == nil else {
            throw Stripe.ErrorCode(.unexpectedOperationError,
                                   message: "clearCachedCredentials is not allowed while a reader is connected.")
        }
        hasSessionToken = false
        paymentsCountCleared = true
        if configuration.clearCachedCredentialsDropsStoredPayments { state.storedPayments.removeAll() }
        log("cleared cached credentials")
        notifyOfflineStatus()
    }

    // MARK: - StripeClient: status

    /// `connectionStatus`.
    public var connectionStatus: Stripe.ConnectionStatus {
        normalize()
        return currentConnectionStatus
    }

    /// `paymentStatus`.
    public var paymentStatus: Stripe.PaymentStatus {
        normalize()
        return currentPaymentStatus
    }

    /// `offlineStatus`.
    public var offlineStatus: Stripe.OfflineStatus {
        var amounts: [String: Int64] = [:]
        for stored in state.storedPayments {
            amounts[stored.intent.currency, default: 0] += Int64(stored.intent.amount + (stored.intent.amountTip ?? 0))
        }
        let count: Int? = paymentsCountCleared && state.storedPayments.isEmpty ? nil : state.storedPayments.count
        return Stripe.OfflineStatus(sdk: Stripe.OfflineStatusDetails(
            paymentsCount: count, paymentAmountsByCurrency: amounts, networkStatus: sdkNetworkStatus))
    }

    /// `connectedReader`.
    public var connectedReader: Stripe.Reader? {
        normalize()
        return currentConnectionStatus == .connected ? connection?.reader : nil
    }

    /// The configuration's `offlineEnabled`.
    public var offlineModeEnabled: Bool { configuration.offlineEnabled }

    // MARK: - StripeClient: readers

    /// `discoverReaders`. Bluetooth proximity reports the closest Chipper 2X twice (serial number first, details
    /// after); a scan reports every reader in range. With a timeout the scan ends at once in simulated time
    /// (`bluetoothScanTimedOut` if nothing was found); without one it runs until a connection or a cancel.
    public func discoverReaders(_ configuration: Stripe.DiscoveryConfiguration,
                                delegate: any Stripe.DiscoveryDelegate,
                                completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void) -> Stripe.Cancelable {
        normalize()
        let cancelable = Stripe.Cancelable()
        let once = OneShot(completion)
        guard connection == nil else {
            cancelable.markCompleted()
            once.fire(Stripe.ErrorCode(.alreadyConnectedToReader, message: "Already connected to a reader."))
            return cancelable
        }
        if let previous = pendingDiscovery {
            pendingDiscovery = nil
            previous.cancelable.markCompleted()
            previous.completion.fire(nil)
        }
        setConnectionStatus(.discovering)
        let readers = self.configuration.readersInRange
        var found: [Stripe.Reader]
        switch configuration.method {
        case .bluetoothProximity:
            found = Array(readers.filter { $0.deviceType == .chipper2X }.prefix(1))
            if let closest = found.first {
                delegate.didUpdateDiscoveredReaders([Stripe.Reader(serialNumber: closest.serialNumber,
                                                                   deviceType: closest.deviceType, simulated: true)])
            }
        case .bluetoothScan:
            found = readers.filter(\.deviceType.isMobileReader)
        case .internet:
            found = readers.filter { !$0.deviceType.isMobileReader && $0.deviceType != .tapToPay }
        case .tapToPay:
            found = readers.filter { $0.deviceType == .tapToPay }
        }
        delegate.didUpdateDiscoveredReaders(found)
        log("discovered \(found.count) reader(s)")
        if configuration.timeout != nil {
            setConnectionStatus(.notConnected)
            cancelable.markCompleted()
            once.fire(found.isEmpty
                ? Stripe.ErrorCode(.bluetoothScanTimedOut, message: "Scanning for bluetooth devices timed out.")
                : nil)
        } else {
            pendingDiscovery = PendingDiscovery(cancelable: cancelable, completion: once)
            cancelable.setCancelAction { once.fire(nil) }
        }
        return cancelable
    }

    /// `connectReader`. Online it asks the token provider for a session and records the connection; offline it
    /// applies Stripe's rules (seed 000): the SDK must have connected online, within 30 days, to a reader of the
    /// same type at the same location, and the reader's software must have been current within 30 days.
    /// Required updates install during the connection; optional ones are reported after it.
    public func connectReader(_ reader: Stripe.Reader, configuration connectionConfig: Stripe.BluetoothConnectionConfiguration)
        async throws(Stripe.ErrorCode) -> Stripe.Reader {
        normalize()
        guard connection == nil else {
            throw Stripe.ErrorCode(.alreadyConnectedToReader, message: "Already connected to a reader.")
        }
        guard !connectionConfig.locationId.isEmpty else {
            throw Stripe.ErrorCode(.bluetoothConnectionInvalidLocationIdParameter,
                                   message: "The Bluetooth connection configuration needs a locationId.")
        }
        guard var target = configuration.readersInRange.first(where: { $0.serialNumber == reader.serialNumber }) else {
            throw Stripe.ErrorCode(Stripe.ErrorCode.Code("bluetoothConnectTimedOut"),
                                   message: "Bluetooth connect timed out: reader \(reader.serialNumber) is not in range.")
        }
        let previousStatus = currentConnectionStatus
        setConnectionStatus(.connecting)
        do throws(Stripe.ErrorCode) {
            let online = attemptRequest() == .reached
            if online {
                try await ensureSessionToken()
            } else {
                try checkOfflineConnection(target, locationId: connectionConfig.locationId)
            }
            let delegate = connectionConfig.delegate
            if let required = requiredUpdate(for: target, online: online) {
                try await install(required, on: &target, required: true, delegate: delegate)
            }
            if online {
                state.onlineConnections.append(OnlineConnection(
                    serialNumber: target.serialNumber, deviceType: target.deviceType,
                    locationId: connectionConfig.locationId, at: clock.now()))
                if optionalUpdate(for: target) == nil || state.updatedReaders.contains(target.serialNumber) {
                    state.softwareCurrentAt[target.serialNumber] = clock.now()
                }
            }
            target.locationId = connectionConfig.locationId
            if let optional = optionalUpdate(for: target) {
                target.availableUpdate = optional
            }
            connection = Connection(reader: target, autoReconnect: connectionConfig.autoReconnectOnUnexpectedDisconnect,
                                    delegate: delegate)
            setConnectionStatus(.connected)
            setPaymentStatus(.ready)
            if let pending = pendingDiscovery {
                pendingDiscovery = nil
                pending.cancelable.markCompleted()
                pending.completion.fire(nil)
            }
            if let update = target.availableUpdate { delegate?.didReportAvailableUpdate(update) }
            delegate?.didReportBatteryLevel(target.batteryLevel ?? 0, status: target.batteryStatus,
                                            isCharging: target.isCharging ?? false)
            log("connected \(target.serialNumber) at \(connectionConfig.locationId) (\(online ? "online" : "offline"))")
            return target
        } catch {
            setConnectionStatus(pendingDiscovery == nil ? .notConnected : previousStatus)
            log("connect failed: \(error)")
            throw error
        }
    }

    /// `disconnectReader()`.
    public func disconnectReader() async throws(Stripe.ErrorCode) {
        normalize()
        guard let current = connection else {
            throw Stripe.ErrorCode(.notConnectedToReader, message: "No reader is connected.")
        }
        if let pending = pendingCollection {
            pendingCollection = nil
            pending.cancelable.markCompleted()
            pending.completion.fire(.failure(Stripe.ErrorCode(.canceled, message: "The reader was disconnected.")))
        }
        connection = nil
        setConnectionStatus(.notConnected)
        setPaymentStatus(.notReady)
        current.delegate?.didDisconnect(.disconnectRequested)
    }

    /// `rebootReader()`: disconnects with `rebootRequested`; with automatic reconnection on, it reconnects.
    public func rebootReader() async throws(Stripe.ErrorCode) {
        normalize()
        guard connection != nil else {
            throw Stripe.ErrorCode(.notConnectedToReader, message: "No reader is connected.")
        }
        guard currentPaymentStatus == .ready else { throw Stripe.ErrorCode(.readerBusy, message: "The reader is busy.") }
        dropConnection(reason: .rebootRequested)
    }

    /// `installAvailableUpdate()`. Refused below 50 % battery (`readerSoftwareUpdateFailedBatteryLow`).
    public func installAvailableUpdate() async throws(Stripe.ErrorCode) {
        normalize()
        guard var current = connection else {
            throw Stripe.ErrorCode(.notConnectedToReader, message: "No reader is connected.")
        }
        guard let update = current.reader.availableUpdate else { return }
        try await install(update, on: &current.reader, required: false, delegate: current.delegate)
        current.reader.availableUpdate = nil
        state.softwareCurrentAt[current.reader.serialNumber] = clock.now()
        connection = current
    }

    // MARK: - StripeClient: payments

    /// `createPaymentIntent(_:createConfig:)`: online when the offline behaviour and the network allow, otherwise
    /// a local intent with a nil `stripeId`.
    public func createPaymentIntent(_ parameters: Stripe.PaymentIntentParameters,
                                    createConfig: Stripe.CreateConfiguration) async throws(Stripe.ErrorCode)
        -> Stripe.PaymentIntent {
        normalize()
        guard parameters.amount > 0 else {
            throw Stripe.ErrorCode(Stripe.ErrorCode.Code("invalidAmount"), message: "Amount not supported by reader.")
        }
        guard parameters.currency.count == 3, parameters.currency == parameters.currency.lowercased() else {
            throw Stripe.ErrorCode(Stripe.ErrorCode.Code("invalidCurrency"), message: "Currency not supported.")
        }
        let behavior = createConfig.offlineBehavior
        if behavior == .forceOffline {
            guard configuration.offlineEnabled else {
                throw Stripe.ErrorCode(.offlineBehaviorForceOfflineWithFeatureDisabled,
                                       message: "The reader or location is not configured to operate offline.")
            }
            return try createLocal(parameters, behavior: behavior)
        }
        switch attemptRequest() {
        case .reached:
            return createOnline(parameters, behavior: behavior)
        case .failedFast, .timedOut:
            if behavior == .requireOnline {
                throw Stripe.ErrorCode(.notConnectedToInternetAndOfflineBehaviorRequireOnline,
                                       message: "The device is offline and the PaymentIntent requires online.")
            }
            guard configuration.offlineEnabled else {
                throw Stripe.ErrorCode(.notConnectedToInternet, message: "The SDK is not connected to the internet.")
            }
            return try createLocal(parameters, behavior: behavior)
        }
    }

    /// `retrievePaymentIntent(clientSecret:)`.
    public func retrievePaymentIntent(clientSecret: String) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        normalize()
        guard attemptRequest() == .reached else {
            throw Stripe.ErrorCode(.notConnectedToInternet, message: "The SDK is not connected to the internet.")
        }
        guard let intent = state.serverIntents.first(where: { $0.clientSecret == clientSecret }) else {
            throw Stripe.ErrorCode(.invalidClientSecret, message: "No PaymentIntent has this client secret.")
        }
        localIntents[intent.sdkHandle] = LocalIntent(intent: intent, behavior: .preferOnline)
        return intent
    }

    /// `collectPaymentMethod`: prompts through the reader delegate, then reads the simulated card (at once, or when
    /// ``presentCard()`` is called). Offline the reader offers insert and tap only.
    public func collectPaymentMethod(
        _ intent: Stripe.PaymentIntent, collectConfig: Stripe.CollectConfiguration,
        completion: @escaping @Sendable (Result<Stripe.PaymentIntent, Stripe.ErrorCode>) -> Void
    ) -> Stripe.Cancelable {
        normalize()
        let cancelable = Stripe.Cancelable()
        let once = OneShot(completion)
        func fail(_ code: Stripe.ErrorCode.Code, _ message: String) -> Stripe.Cancelable {
            cancelable.markCompleted()
            once.fire(.failure(Stripe.ErrorCode(code, message: message, paymentIntent: intent)))
            return cancelable
        }
        guard let current = connection, currentConnectionStatus == .connected else {
            return fail(.notConnectedToReader, "No reader is connected.")
        }
        guard currentPaymentStatus == .ready else { return fail(.readerBusy, "The reader is busy.") }
        guard let local = localIntents[intent.sdkHandle], local.intent.status == .requiresPaymentMethod else {
            return fail(.confirmInvalidPaymentIntent, "The PaymentIntent cannot collect a payment method now.")
        }
        if collectConfig.updatePaymentIntent, local.intent.stripeId == nil {
            return fail(Stripe.ErrorCode.Code("updatePaymentIntentUnavailableWhileOffline"),
                        "updatePaymentIntent is not available for a PaymentIntent created offline.")
        }
        setPaymentStatus(.waitingForInput)
        let offline = local.intent.stripeId == nil || network.reportedStatus == .offline
        current.delegate?.didRequestReaderInput(offline ? [.insertCard, .tapCard] : [.swipeCard, .insertCard, .tapCard])
        if configuration.cardPresentation == .waitForPresentCard {
            pendingCollection = PendingCollection(handle: intent.sdkHandle, cancelable: cancelable, completion: once)
            cancelable.setCancelAction {
                once.fire(.failure(Stripe.ErrorCode(.canceled, message: "collectPaymentMethod was canceled.",
                                                    paymentIntent: intent)))
            }
        } else {
            finishCollection(handle: intent.sdkHandle, completion: once, cancelable: cancelable)
        }
        return cancelable
    }

    /// `confirmPaymentIntent`: authorizes online, or stores offline (an offline-created intent, or a
    /// `preferOnline` one when the network fails), following the documented failure rules.
    public func confirmPaymentIntent(_ intent: Stripe.PaymentIntent) async throws(Stripe.ErrorCode)
        -> Stripe.PaymentIntent {
        normalize()
        guard var local = localIntents[intent.sdkHandle] else {
            if let stored = state.storedPayments.first(where: { $0.intent.sdkHandle == intent.sdkHandle }) {
                return stored.intent
            }
            throw Stripe.ErrorCode(.confirmInvalidPaymentIntent, message: "Unknown PaymentIntent.",
                                   paymentIntent: intent)
        }
        if local.intent.status == .requiresCapture || local.intent.status == .succeeded { return local.intent }
        guard local.intent.status == .requiresConfirmation, let card = local.card else {
            throw Stripe.ErrorCode(.confirmInvalidPaymentIntent,
                                   message: "The PaymentIntent is \(local.intent.status.rawValue), not requiresConfirmation.",
                                   paymentIntent: local.intent)
        }
        guard connection != nil, currentConnectionStatus == .connected else {
            throw Stripe.ErrorCode(.notConnectedToReader, message: "No reader is connected.", paymentIntent: local.intent)
        }
        setPaymentStatus(.processing)
        defer { setPaymentStatus(.ready) }
        guard let stripeId = local.intent.stripeId else {
            return try confirmOffline(&local, card: card)
        }
        switch attemptRequest() {
        case .reached:
            return try confirmOnline(&local, stripeId: stripeId, card: card)
        case .failedFast:
            if local.behavior == .preferOnline, configuration.offlineEnabled {
                return try confirmOffline(&local, card: card)
            }
            let code: Stripe.ErrorCode.Code = local.behavior == .requireOnline
                ? .notConnectedToInternetAndOfflineBehaviorRequireOnline : .notConnectedToInternet
            throw Stripe.ErrorCode(code, message: "The SDK is not connected to the internet.",
                                   paymentIntent: local.intent)
        case .timedOut:
            if configuration.timeoutOutcome == .processedResponseLost {
                _ = authorizeOnServer(local.intent, stripeId: stripeId, card: card, readMethod: local.readMethod)
            }
            log("confirm \(stripeId) timed out; outcome unknown")
            throw Stripe.ErrorCode(.requestTimedOut, message: "The request timed out.", paymentIntent: nil)
        }
    }

    /// `cancelPaymentIntent`. An intent already stored for forwarding cannot be canceled.
    public func cancelPaymentIntent(_ intent: Stripe.PaymentIntent) async throws(Stripe.ErrorCode)
        -> Stripe.PaymentIntent {
        normalize()
        guard var local = localIntents[intent.sdkHandle] else {
            throw Stripe.ErrorCode(.unexpectedOperationError,
                                   message: "The PaymentIntent is stored for forwarding or unknown; it cannot be canceled.",
                                   paymentIntent: intent)
        }
        if let stripeId = local.intent.stripeId {
            guard attemptRequest() == .reached else {
                throw Stripe.ErrorCode(.notConnectedToInternet, message: "The SDK is not connected to the internet.",
                                       paymentIntent: local.intent)
            }
            try cancelOnServer(stripeId: stripeId)
        }
        local.intent.status = .canceled
        localIntents[intent.sdkHandle] = local
        return local.intent
    }

    /// The SDK's local intents (this session) and stored payments with this metadata, oldest first.
    public func localPaymentIntents(metadataKey key: String, value: String) -> [Stripe.PaymentIntent] {
        normalize()
        let local = localIntents.values.map(\.intent).filter { $0.metadata[key] == value }
            .sorted { ($0.created, $0.sdkHandle) < ($1.created, $1.sdkHandle) }
        return local + state.storedPayments.map(\.intent).filter { $0.metadata[key] == value }
    }

    /// Stripe's server-side intents with this metadata, as the app's backend would find them; throws
    /// `notConnectedToInternet` when the network does not let the request through.
    public func serverPaymentIntents(metadataKey key: String, value: String) async throws(Stripe.ErrorCode)
        -> [Stripe.PaymentIntent] {
        guard attemptRequest() == .reached else {
            throw Stripe.ErrorCode(.notConnectedToInternet, message: "The SDK is not connected to the internet.")
        }
        return state.serverIntents.filter { $0.metadata[key] == value }
    }

    // MARK: - Network

    private var network: SimulatedNetwork {
        switch offlineMode {
        case .disabled: .online
        case .offlineImmediate: .offline
        case .offlineTimeout: .timingOut
        case .offlineIntermittent: .flaky(failureRate: configuration.intermittentFailureRate)
        }
    }

    private func attemptRequest() -> RequestOutcome {
        let network = self.network
        if sdkNetworkStatus == .unknown { setNetworkStatus(network.reportedStatus == .online ? .online : .offline) }
        if network == .timingOut { return .timedOut }
        return network.requestSucceeds(using: &random) ? .reached : .failedFast
    }

    private func setNetworkStatus(_ status: Stripe.NetworkStatus) {
        guard status != sdkNetworkStatus else { return }
        sdkNetworkStatus = status
        notifyOfflineStatus()
    }

    // MARK: - Payment internals

    private func nextID(_ prefix: String) -> String {
        var generator = SeededGenerator(seed: state.seed &+ 0x5354_5249_5045 &+ state.issuedIdentifiers)
        state.issuedIdentifiers += 1
        return generator.identifier(prefix: prefix, length: 14)
    }

    private func createOnline(_ parameters: Stripe.PaymentIntentParameters, behavior: Stripe.OfflineBehavior)
        -> Stripe.PaymentIntent {
        let intent = createOnServer(parameters)
        localIntents[intent.sdkHandle] = LocalIntent(intent: intent, behavior: behavior)
        log("created \(intent.stripeId ?? "") online")
        return intent
    }

    private func createLocal(_ parameters: Stripe.PaymentIntentParameters, behavior: Stripe.OfflineBehavior)
        throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        guard connection != nil else {
            throw Stripe.ErrorCode(.notConnectedToReader, message: "An offline PaymentIntent needs a connected reader.")
        }
        let intent = Stripe.PaymentIntent(
            sdkHandle: nextID("sdk_"), stripeId: nil, status: .requiresPaymentMethod, amount: parameters.amount,
            currency: parameters.currency, captureMethod: parameters.captureMethod, created: clock.now(),
            metadata: parameters.metadata)
        localIntents[intent.sdkHandle] = LocalIntent(intent: intent, behavior: behavior)
        log("created a PaymentIntent offline")
        return intent
    }

    private func finishCollection(handle: String, completion: OneShot<Result<Stripe.PaymentIntent, Stripe.ErrorCode>>,
                                  cancelable: Stripe.Cancelable) {
        cancelable.markCompleted()
        guard var local = localIntents[handle] else { return }
        let delegate = connection?.delegate
        if let failure = nextCollectionFailure {
            nextCollectionFailure = nil
            setPaymentStatus(.ready)
            delegate?.didRequestReaderDisplayMessage(.tryAnotherReadMethod)
            completion.fire(.failure(Stripe.ErrorCode(failure, message: "The card could not be read.",
                                                      paymentIntent: local.intent)))
            return
        }
        let readMethod = configuration.simulatedReadMethod
        if readMethod == .contactEMV { delegate?.didReportReaderEvent(.cardInserted) }
        local.card = configuration.simulatedCard
        local.readMethod = readMethod
        local.intent.status = .requiresConfirmation
        local.intent.amountTip = configuration.simulatedTipAmount
        localIntents[handle] = local
        if readMethod == .contactEMV {
            delegate?.didRequestReaderDisplayMessage(.removeCard)
            delegate?.didReportReaderEvent(.cardRemoved)
        }
        setPaymentStatus(.ready)
        completion.fire(.success(local.intent))
    }

    private func cardPresentDetails(_ card: Stripe.SimulatedCardType, readMethod: Stripe.ReadMethod,
                                    online: Bool) -> Stripe.CardPresentDetails {
        let aid: String = switch card.brand {
        case .visa: "A0000000031010"
        case .masterCard: "A0000000041010"
        case .amex: "A000000025010801"
        case .interac: "A0000002771010"
        default: "A0000001523010"
        }
        let receipt = Stripe.ReceiptDetails(
            accountType: online ? "credit" : nil, applicationPreferredName: "\(card.brand.rawValue.uppercased()) CREDIT",
            dedicatedFileName: aid, authorizationCode: online ? "123456" : nil,
            authorizationResponseCode: online ? "3030" : nil, applicationCryptogram: "3F1A2B3C4D5E6F70",
            terminalVerificationResults: "0000008000", transactionStatusInformation: "E800",
            cardholderVerificationMethod: card == .offlinePinCvm ? "offline_pin" : "signature")
        return Stripe.CardPresentDetails(brand: card.brand, last4: card.last4, expMonth: 12, expYear: 2030,
                                         readMethod: readMethod, receiptDetails: receipt)
    }

    private func confirmOffline(_ local: inout LocalIntent, card: Stripe.SimulatedCardType)
        throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        let readMethod = local.readMethod ?? .contactEMV
        func recollect(_ code: Stripe.ErrorCode.Code, _ message: String) -> Stripe.ErrorCode {
            local.intent.status = .requiresPaymentMethod
            local.card = nil
            localIntents[local.intent.sdkHandle] = local
            return Stripe.ErrorCode(code, message: message, paymentIntent: local.intent)
        }
        if readMethod.isSwipe {
            throw recollect(.cardSwipeNotAvailable, "Swipe is not allowed offline; retry collectPaymentMethod.")
        }
        if card == .interac {
            throw recollect(.interacNotSupportedOffline, "Interac is not supported offline; retry collectPaymentMethod.")
        }
        if card.requiresOnlinePin {
            throw recollect(.onlinePinNotSupportedOffline, "Online PIN is not supported offline; use another card.")
        }
        let total = local.intent.amount + (local.intent.amountTip ?? 0)
        guard let maximum = configuration.offlineMaximumByCurrency[local.intent.currency] else {
            throw Stripe.ErrorCode(.invalidOfflineCurrency,
                                   message: "\(local.intent.currency) is not configured for offline payments.",
                                   paymentIntent: local.intent)
        }
        guard total <= maximum else {
            throw Stripe.ErrorCode(.amountExceedsMaxOfflineAmount,
                                   message: "The amount exceeds the maximum offline amount (\(maximum)).",
                                   paymentIntent: local.intent)
        }
        if let limit = configuration.offlineStoredPaymentsMaximum, state.storedPayments.count >= limit {
            throw Stripe.ErrorCode(.offlinePaymentsDatabaseTooLarge,
                                   message: "Too many offline payments are stored; go online to forward them.",
                                   paymentIntent: local.intent)
        }
        local.intent.offlineDetails = Stripe.OfflineDetails(
            storedAt: clock.now(), requiresUpload: true,
            cardPresentDetails: cardPresentDetails(card, readMethod: readMethod, online: false))
        local.intent.status = local.intent.captureMethod == .automatic ? .succeeded : .requiresCapture
        localIntents[local.intent.sdkHandle] = nil
        state.storedPayments.append(StoredPayment(intent: local.intent, card: card))
        paymentsCountCleared = false
        log("stored a payment offline")
        notifyOfflineStatus()
        return local.intent
    }

    private func confirmOnline(_ local: inout LocalIntent, stripeId: String, card: Stripe.SimulatedCardType)
        throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        let (server, declineCode) = authorizeOnServer(local.intent, stripeId: stripeId, card: card,
                                                      readMethod: local.readMethod)
        var updated = server
        updated.sdkHandle = local.intent.sdkHandle
        local.intent = updated
        if let declineCode {
            local.card = nil
            localIntents[local.intent.sdkHandle] = local
            throw Stripe.ErrorCode(.declinedByStripeAPI, message: "The card was declined.", declineCode: declineCode,
                                   paymentIntent: local.intent)
        }
        localIntents[local.intent.sdkHandle] = local
        return local.intent
    }

    /// Authorizes on Stripe's side, idempotently: an intent already authorized is returned as it is.
    private func authorizeOnServer(_ intent: Stripe.PaymentIntent, stripeId: String, card: Stripe.SimulatedCardType,
                                   readMethod: Stripe.ReadMethod?) -> (Stripe.PaymentIntent, String?) {
        guard let index = state.serverIntents.firstIndex(where: { $0.stripeId == stripeId }) else {
            return (intent, nil)
        }
        var server = state.serverIntents[index]
        if server.status == .requiresCapture || server.status == .succeeded { return (server, nil) }
        server.amountTip = intent.amountTip
        server.metadata = intent.metadata
        let charge = recordCharge(for: server, card: card, collectedOffline: false)
        server.charges.append(charge)
        if let declineCode = self.declineCode(card: card, amount: server.amount) {
            server.status = .requiresPaymentMethod
            state.serverIntents[index] = server
            return (server, declineCode)
        }
        server.status = server.captureMethod == .automatic ? .succeeded : .requiresCapture
        server.cardPresentDetails = cardPresentDetails(card, readMethod: readMethod ?? .contactEMV, online: true)
        state.serverIntents[index] = server
        log("authorized \(stripeId)")
        return (server, nil)
    }

    private func recordCharge(for intent: Stripe.PaymentIntent, card: Stripe.SimulatedCardType,
                              collectedOffline: Bool) -> Stripe.Charge {
        let declineCode = self.declineCode(card: card, amount: intent.amount)
        let amount = intent.amount + (intent.amountTip ?? 0)
        let charge = Stripe.Charge(stripeId: nextID("ch_"), amount: amount, currency: intent.currency,
                                   status: declineCode == nil ? .succeeded : .failed, declineCode: declineCode)
        state.charges.append(ServerCharge(
            stripeId: charge.stripeId, paymentIntentId: intent.stripeId ?? "",
            reference: intent.metadata[StripeMapping.referenceMetadataKey], metadata: intent.metadata,
            amount: amount, currency: intent.currency, status: charge.status, declineCode: declineCode,
            captured: declineCode == nil && intent.captureMethod == .automatic, released: false,
            collectedOffline: collectedOffline))
        return charge
    }

    /// The decline code Stripe's API answers with: the card's, or (when enabled) the test amount's.
    private func declineCode(card: Stripe.SimulatedCardType, amount: UInt) -> String? {
        if let code = card.declineCode { return code }
        guard configuration.declinesByTestAmount else { return nil }
        return Stripe.SimulatorConfiguration.testAmountDeclineCode(amount)
    }

    private func forward(_ stored: StoredPayment) -> (Stripe.PaymentIntent, Stripe.ErrorCode?) {
        if let failure = configuration.forwardingFailure {
            return (stored.intent, Stripe.ErrorCode(failure, message: "The payment could not be forwarded."))
        }
        var server = stored.intent
        if let existing = server.stripeId, let index = state.serverIntents.firstIndex(where: { $0.stripeId == existing }) {
            state.serverIntents.remove(at: index)
        } else {
            server.stripeId = nextID("pi_")
        }
        server.offlineDetails?.requiresUpload = false
        let charge = recordCharge(for: server, card: stored.card, collectedOffline: true)
        server.charges.append(charge)
        var error: Stripe.ErrorCode?
        if let declineCode = self.declineCode(card: stored.card, amount: stored.intent.amount) {
            server.status = .requiresPaymentMethod
            error = Stripe.ErrorCode(.declinedByStripeAPI, message: "The card was declined when forwarded.",
                                     declineCode: declineCode, paymentIntent: server)
        } else {
            server.status = server.captureMethod == .automatic ? .succeeded : .requiresCapture
        }
        state.serverIntents.append(server)
        return (server, error)
    }

    // MARK: - Reader internals

    private func normalize() {
        if let pending = pendingDiscovery, pending.cancelable.isCanceled || pending.completion.hasFired {
            pendingDiscovery = nil
            pending.cancelable.markCompleted()
            if currentConnectionStatus == .discovering { setConnectionStatus(.notConnected) }
        }
        if let pending = pendingCollection, pending.cancelable.isCanceled || pending.completion.hasFired {
            pendingCollection = nil
            pending.cancelable.markCompleted()
            if currentPaymentStatus == .waitingForInput { setPaymentStatus(connection == nil ? .notReady : .ready) }
        }
    }

    private func ensureSessionToken() async throws(Stripe.ErrorCode) {
        guard !hasSessionToken else { return }
        let token: String
        do {
            token = try await tokenProvider.fetchConnectionToken()
        } catch {
            throw Stripe.ErrorCode(.connectionTokenProviderCompletedWithError,
                                   message: "The connection token provider failed: \(error)")
        }
        guard !token.isEmpty else {
            throw Stripe.ErrorCode(.connectionTokenProviderCompletedWithNothing,
                                   message: "The connection token provider returned neither a token nor an error.")
        }
        hasSessionToken = true
    }

    /// Seed 000's connect-while-offline rules. Which `ErrorCode` goes with each of the seed's three messages is an
    /// inference from the reference's descriptions of 9000, 2870/2871 and 2872.
    private func checkOfflineConnection(_ reader: Stripe.Reader, locationId: String) throws(Stripe.ErrorCode) {
        let now = clock.now()
        let recent = state.onlineConnections.filter { now.timeIntervalSince($0.at) <= Self.offlineWindow }
        guard configuration.offlineEnabled, !recent.isEmpty else {
            throw Stripe.ErrorCode(.notConnectedToInternet, message: "The SDK isn’t connected to the internet")
        }
        let pairedMessage = "The selected reader must be paired online at this location before it can be used to collect payments offline."
        let sameType = recent.filter { $0.deviceType == reader.deviceType }
        guard !sameType.isEmpty else {
            throw Stripe.ErrorCode(.readerConnectionNotAvailableOffline, message: pairedMessage)
        }
        guard sameType.contains(where: { $0.locationId == locationId }) else {
            throw Stripe.ErrorCode(.readerConnectionOfflineLocationMismatch, message: pairedMessage)
        }
        let updateMessage = "The selected reader requires a software update before it can be used to collect payments offline."
        if configuration.testReaderUpdate == .requiredOffline, !state.updatedReaders.contains(reader.serialNumber) {
            throw Stripe.ErrorCode(.readerConnectionOfflineNeedsUpdate, message: updateMessage)
        }
        if let current = state.softwareCurrentAt[reader.serialNumber], now.timeIntervalSince(current) > Self.offlineWindow {
            throw Stripe.ErrorCode(.readerConnectionOfflineNeedsUpdate, message: updateMessage)
        }
    }

    private func testUpdate(for reader: Stripe.Reader) -> Stripe.ReaderSoftwareUpdate? {
        guard configuration.testReaderUpdate != .none, !state.updatedReaders.contains(reader.serialNumber) else {
            return nil
        }
        let reportedAt = optionalUpdateReportedAt[reader.serialNumber] ?? clock.now()
        let required = configuration.testReaderUpdate != .available
        return Stripe.ReaderSoftwareUpdate(
            deviceSoftwareVersion: (reader.deviceSoftwareVersion ?? "0") + ".1",
            durationEstimate: required ? .estimate1To2Minutes : .lessThan1Minute,
            requiredAt: required ? clock.now() : reportedAt.addingTimeInterval(Self.optionalUpdateGrace))
    }

    private func requiredUpdate(for reader: Stripe.Reader, online: Bool) -> Stripe.ReaderSoftwareUpdate? {
        guard let update = testUpdate(for: reader) else { return nil }
        if configuration.testReaderUpdate == .requiredOffline { return online ? update : nil }
        return update.requiredAt <= clock.now() ? update : nil
    }

    private func optionalUpdate(for reader: Stripe.Reader) -> Stripe.ReaderSoftwareUpdate? {
        guard configuration.testReaderUpdate == .available, let update = testUpdate(for: reader),
              update.requiredAt > clock.now() else { return nil }
        if optionalUpdateReportedAt[reader.serialNumber] == nil { optionalUpdateReportedAt[reader.serialNumber] = clock.now() }
        return update
    }

    private func install(_ update: Stripe.ReaderSoftwareUpdate, on reader: inout Stripe.Reader, required: Bool,
                         delegate: (any Stripe.MobileReaderDelegate)?) async throws(Stripe.ErrorCode) {
        let cancelable = Stripe.Cancelable()
        delegate?.didStartInstallingUpdate(update, cancelable: cancelable)
        let testType = configuration.testReaderUpdate
        let battery = testType == .lowBattery || testType == .lowBatterySucceedConnect ? 0.3 : (reader.batteryLevel ?? 1)
        if battery < 0.5 {
            cancelable.markCompleted()
            let error = Stripe.ErrorCode(.readerSoftwareUpdateFailedBatteryLow,
                                         message: "The reader's battery is too low to install the update.")
            delegate?.didFinishInstallingUpdate(update, error: error)
            // Seed 004: a failed required update still connects if the reader ran the latest software within
            // 30 days; `lowBatterySucceedConnect` simulates exactly that.
            let recent = state.softwareCurrentAt[reader.serialNumber].map {
                clock.now().timeIntervalSince($0) <= Self.offlineWindow } ?? false
            if required, testType == .lowBatterySucceedConnect || (testType != .lowBattery && recent) { return }
            throw error
        }
        for progress in [0.25, 0.5, 0.75, 1.0] {
            if cancelable.isCanceled {
                cancelable.markCompleted()
                let canceled = Stripe.ErrorCode(.canceled, message: "The update was canceled.")
                delegate?.didFinishInstallingUpdate(update, error: canceled)
                if required {
                    throw Stripe.ErrorCode(.unsupportedReaderVersion,
                                           message: "The required update was canceled; the reader cannot be used.")
                }
                throw canceled
            }
            delegate?.didReportReaderSoftwareUpdateProgress(progress)
        }
        cancelable.markCompleted()
        reader.deviceSoftwareVersion = update.deviceSoftwareVersion
        state.updatedReaders.insert(reader.serialNumber)
        state.softwareCurrentAt[reader.serialNumber] = clock.now()
        delegate?.didFinishInstallingUpdate(update, error: nil)
        log("installed \(update.deviceSoftwareVersion) on \(reader.serialNumber)")
    }

    private func dropConnection(reason: Stripe.DisconnectReason) {
        guard let current = connection else { return }
        let delegate = current.delegate
        setPaymentStatus(.notReady)
        if current.autoReconnect {
            setConnectionStatus(.reconnecting)
            let cancelable = Stripe.Cancelable()
            delegate?.didStartReconnect(cancelable, disconnectReason: reason)
            let inRange = configuration.readersInRange.contains { $0.serialNumber == current.reader.serialNumber }
            cancelable.markCompleted()
            if !cancelable.isCanceled, configuration.reconnectionSucceeds, inRange {
                setConnectionStatus(.connected)
                setPaymentStatus(.ready)
                delegate?.didSucceedReconnect()
                return
            }
            connection = nil
            setConnectionStatus(.notConnected)
            delegate?.didFailReconnect()
            delegate?.didDisconnect(reason)
        } else {
            connection = nil
            setConnectionStatus(.notConnected)
            delegate?.didDisconnect(reason)
        }
    }

    // MARK: - Notifications

    private func setConnectionStatus(_ status: Stripe.ConnectionStatus) {
        guard status != currentConnectionStatus else { return }
        currentConnectionStatus = status
        delegates.current.terminal?.didChangeConnectionStatus(status)
    }

    private func setPaymentStatus(_ status: Stripe.PaymentStatus) {
        guard status != currentPaymentStatus else { return }
        currentPaymentStatus = status
        delegates.current.terminal?.didChangePaymentStatus(status)
    }

    private func notifyOfflineStatus() {
        let status = offlineStatus
        delegates.current.offline?.didChangeOfflineStatus(status)
    }

    private func reportForwardingError(_ error: Stripe.ErrorCode) {
        log("forwarding error: \(error)")
        delegates.current.offline?.didReportForwardingError(error)
    }

    private func log(_ message: String) { delegates.current.log?("[stripe-sim] " + message) }
}

// MARK: - Simulator configuration and records

extension Stripe {
    /// `SCPSimulatorConfiguration` (`Terminal.shared.simulatorConfiguration`) plus the knobs the SDK's simulated
    /// reader and `SimulatedOfflineModeConfiguration` give, and a few this simulator adds to reach documented
    /// behaviour deterministically. Items the reference marks unverified (†) or that are inferences are
    /// configurable and say so.
    public struct SimulatorConfiguration: Hashable, Sendable {
        /// ⚑ `offlineEnabled`: simulates a Terminal configuration with offline mode on (`offline[enabled]=true`).
        public var offlineEnabled: Bool
        /// `simulatedCard`: the card the simulated reader reads.
        public var simulatedCard: SimulatedCardType
        /// How the simulated card is read (the SDK's simulator has no UI; this picks chip, tap or swipe).
        public var simulatedReadMethod: ReadMethod
        /// `simulatedTipAmount`, minor units.
        public var simulatedTipAmount: UInt?
        /// `testReaderUpdate` on the connection configuration (5.5), or `none`.
        public var testReaderUpdate: TestReaderUpdate
        /// The readers in range of the device.
        public var readersInRange: [Reader]
        /// When the simulated customer presents the card: at once, or when ``StripeSimulator/presentCard()`` is
        /// called (so a test can cancel, or disconnect the reader, while the reader waits).
        public var cardPresentation: CardPresentation
        /// The offline maximum per lowercase currency, minor units. Stripe enforces "10,000 USD or equivalent in
        /// your operating currency"; only USD is given by the source, so other currencies are configurable, and a
        /// currency missing here is refused offline (`invalidOfflineCurrency`).
        public var offlineMaximumByCurrency: [String: UInt]
        /// The most payments the SDK stores before `offlinePaymentsDatabaseTooLarge` (2860). Stripe publishes no
        /// number; nil means no limit. Configurable for that reason.
        public var offlineStoredPaymentsMaximum: Int?
        /// † The failure rate of `offlineIntermittent` ("about 50 %" in the reference).
        public var intermittentFailureRate: Double
        /// What happened to a confirm whose response timed out (`offlineTimeout`): Stripe cannot say, so both are
        /// simulated. The default is the dangerous one: Stripe authorized the card and the answer was lost.
        public var timeoutOutcome: TimeoutOutcome
        /// Whether an automatic reconnection after an unexpected disconnect succeeds.
        public var reconnectionSucceeds: Bool
        /// Whether setting the network back online forwards the stored payments at once (the SDK forwards
        /// "when Internet access is restored"). Off lets a test drive ``StripeSimulator/forwardPendingPayments(maxCount:)``.
        public var forwardsWhenNetworkReturns: Bool
        /// A forwarding error to report for each stored payment instead of forwarding it (e.g.
        /// `forwardingTestModePaymentInLiveMode`); nil forwards normally.
        public var forwardingFailure: ErrorCode.Code?
        /// † Whether the amount's final two digits decide declines, as Stripe's physical test card does (seed 002: "an
        /// amount ending in 00 results in an approved payment"; the other endings come from a third-party copy of
        /// Stripe's testing page, and the reference says they apply to the physical card, not the simulator). Off by
        /// default for that reason. A Stripe maintainer tests offline declines this way (RN PR #564).
        public var declinesByTestAmount: Bool
        /// Inference: whether `clearCachedCredentials` loses the stored, unforwarded payments. The reference says only
        /// that `paymentsCount` becomes nil and the amounts empty; seed 000 warns that clearing the SDK's storage loses
        /// them. Configurable for that reason.
        public var clearCachedCredentialsDropsStoredPayments: Bool

        /// Creates a configuration; the defaults are an online, offline-capable-off account with one Stripe M2
        /// reader, a Chipper 2X and a WisePad 3 in range, reading a Visa by chip.
        public init(offlineEnabled: Bool = false, simulatedCard: SimulatedCardType = .visa,
                    simulatedReadMethod: ReadMethod = .contactEMV, simulatedTipAmount: UInt? = nil,
                    testReaderUpdate: TestReaderUpdate = .none,
                    readersInRange: [Reader] = SimulatorConfiguration.defaultReaders,
                    cardPresentation: CardPresentation = .immediate,
                    offlineMaximumByCurrency: [String: UInt] = ["usd": 1_000_000],
                    offlineStoredPaymentsMaximum: Int? = nil, intermittentFailureRate: Double = 0.5,
                    timeoutOutcome: TimeoutOutcome = .processedResponseLost, reconnectionSucceeds: Bool = true,
                    forwardsWhenNetworkReturns: Bool = true, forwardingFailure: ErrorCode.Code? = nil,
                    clearCachedCredentialsDropsStoredPayments: Bool = true, declinesByTestAmount: Bool = false) {
            self.offlineEnabled = offlineEnabled
            self.simulatedCard = simulatedCard
            self.simulatedReadMethod = simulatedReadMethod
            self.simulatedTipAmount = simulatedTipAmount
            self.testReaderUpdate = testReaderUpdate
            self.readersInRange = readersInRange
            self.cardPresentation = cardPresentation
            self.offlineMaximumByCurrency = offlineMaximumByCurrency
            self.offlineStoredPaymentsMaximum = offlineStoredPaymentsMaximum
            self.intermittentFailureRate = intermittentFailureRate
            self.timeoutOutcome = timeoutOutcome
            self.reconnectionSucceeds = reconnectionSucceeds
            self.forwardsWhenNetworkReturns = forwardsWhenNetworkReturns
            self.forwardingFailure = forwardingFailure
            self.clearCachedCredentialsDropsStoredPayments = clearCachedCredentialsDropsStoredPayments
            self.declinesByTestAmount = declinesByTestAmount
        }

        /// † The decline code of a test amount by its final two digits (minor units): .01 `call_issuer`,
        /// .05 `generic_decline`, .55 `incorrect_pin`, .65 `withdrawal_count_limit_exceeded`, .75 `pin_try_exceeded`;
        /// nil (approved) otherwise, including .00 and the PIN-prompt endings .02 and .03.
        public static func testAmountDeclineCode(_ amount: UInt) -> String? {
            switch amount % 100 {
            case 1: "call_issuer"
            case 5: "generic_decline"
            case 55: "incorrect_pin"
            case 65: "withdrawal_count_limit_exceeded"
            case 75: "pin_try_exceeded"
            default: nil
            }
        }

        /// The simulated readers in range by default.
        public static let defaultReaders: [Reader] = [
            Reader(serialNumber: "STRM2-SIM-0001", deviceType: .stripeM2, deviceSoftwareVersion: "2.01.00.17",
                   batteryLevel: 0.9, batteryStatus: .nominal, isCharging: false, simulated: true),
            Reader(serialNumber: "CHB2X-SIM-0001", deviceType: .chipper2X, deviceSoftwareVersion: "1.00.03.34",
                   batteryLevel: 0.8, batteryStatus: .nominal, isCharging: false, simulated: true),
            Reader(serialNumber: "WP3-SIM-0001", deviceType: .wisePad3, deviceSoftwareVersion: "3.00.00.12",
                   batteryLevel: 0.7, batteryStatus: .nominal, isCharging: true, simulated: true),
        ]
    }

    /// When the simulated customer presents the card: the core's ``SimulatedCardPresentation``.
    public typealias CardPresentation = SimulatedCardPresentation

    /// What a timed-out confirm did on Stripe's side.
    public enum TimeoutOutcome: String, Hashable, Sendable, Codable, CaseIterable {
        /// Stripe authorized the card; the response was lost.
        case processedResponseLost
        /// The request never reached Stripe.
        case notReceived
    }
}

extension Stripe.SimulatedCardType {
    /// Picks the card type for one of Stripe's documented test card numbers, or nil. The number is only read:
    /// it is matched by BIN, last four and length, and never stored.
    /// Numbers marked † in the reference come from a third-party copy of Stripe's testing page.
    public init?(testCardNumber: String) {
        let digits = testCardNumber.filter(\.isNumber)
        guard digits.count >= 10 else { return nil }
        let key = "\(digits.prefix(6))…\(digits.suffix(4))/\(digits.count)"
        let table: [String: Stripe.SimulatedCardType] = [
            "424242…4242/16": .visa, "400005…5556/16": .visaDebit, "555555…4444/16": .mastercard,
            "520082…8210/16": .masterDebit, "510510…5100/16": .mastercardPrepaid, "378282…0005/15": .amex,
            "371449…8431/15": .amex2, "601111…1117/16": .discover, "601100…9424/16": .discover2,
            "305693…0004/16": .diners, "362272…1667/14": .diners14Digit, "356600…0505/16": .jcb,
            "620000…0005/16": .unionPay, "450644…1933/16": .interac,
            // † from a third-party copy of Stripe's testing page.
            "400000…0002/16": .chargeDeclined, "400000…9995/16": .chargeDeclinedInsufficientFunds,
            "400000…9987/16": .chargeDeclinedLostCard, "400000…9979/16": .chargeDeclinedStolenCard,
            "400000…0069/16": .chargeDeclinedExpiredCard, "400000…0119/16": .chargeDeclinedProcessingError,
            "400000…5126/16": .refundFailed, "400100…0002/16": .offlinePinCvm, "400000…0075/16": .offlinePinScaRetry,
            "400100…0005/16": .onlinePinCvm, "400000…0008/16": .onlinePinScaRetry,
        ]
        guard let type = table[key] else { return nil }
        self = type
    }

    /// The brand the simulated reader reports.
    public var brand: Stripe.CardBrand {
        switch self {
        case .visa, .visaDebit, .visaUsCommonDebit, .chargeDeclined, .chargeDeclinedInsufficientFunds,
             .chargeDeclinedLostCard, .chargeDeclinedStolenCard, .chargeDeclinedExpiredCard,
             .chargeDeclinedProcessingError, .refundFailed, .onlinePinCvm, .onlinePinScaRetry, .offlinePinCvm,
             .offlinePinScaRetry:
            .visa
        case .mastercard, .masterDebit, .mastercardPrepaid: .masterCard
        case .amex, .amex2: .amex
        case .discover, .discover2: .discover
        case .diners, .diners14Digit: .dinersClub
        case .jcb: .JCB
        case .unionPay: .unionPay
        case .interac: .interac
        case .eftposAuDebit, .eftposAuVisaDebit, .eftposAuDebitMastercard: .eftposAu
        }
    }

    /// The last four digits of the documented test number (nil where the reference gives no number).
    public var last4: String? {
        switch self {
        case .visa: "4242"
        case .visaDebit: "5556"
        case .mastercard: "4444"
        case .masterDebit: "8210"
        case .mastercardPrepaid: "5100"
        case .amex: "0005"
        case .amex2: "8431"
        case .discover: "1117"
        case .discover2: "9424"
        case .diners: "0004"
        case .diners14Digit: "1667"
        case .jcb: "0505"
        case .unionPay: "0005"
        case .interac: "1933"
        case .chargeDeclined, .offlinePinCvm: "0002"
        case .chargeDeclinedInsufficientFunds: "9995"
        case .chargeDeclinedLostCard: "9987"
        case .chargeDeclinedStolenCard: "9979"
        case .chargeDeclinedExpiredCard: "0069"
        case .chargeDeclinedProcessingError: "0119"
        case .refundFailed: "5126"
        case .onlinePinCvm: "0005"
        case .onlinePinScaRetry: "0008"
        case .offlinePinScaRetry: "0075"
        case .visaUsCommonDebit, .eftposAuDebit, .eftposAuVisaDebit, .eftposAuDebitMastercard: nil
        }
    }

    /// The decline code Stripe's API returns for this card (online at confirm, offline at forwarding), or nil if
    /// it is approved.
    public var declineCode: String? {
        switch self {
        case .chargeDeclined: "card_declined"
        case .chargeDeclinedInsufficientFunds: "insufficient_funds"
        case .chargeDeclinedLostCard: "lost_card"
        case .chargeDeclinedStolenCard: "stolen_card"
        case .chargeDeclinedExpiredCard: "expired_card"
        case .chargeDeclinedProcessingError: "processing_error"
        case .visa, .visaDebit, .visaUsCommonDebit, .mastercard, .masterDebit, .mastercardPrepaid, .amex, .amex2,
             .discover, .discover2, .diners, .diners14Digit, .jcb, .unionPay, .interac, .eftposAuDebit,
             .eftposAuVisaDebit, .eftposAuDebitMastercard, .refundFailed, .onlinePinCvm, .onlinePinScaRetry,
             .offlinePinCvm, .offlinePinScaRetry:
            nil
        }
    }

    /// Whether the card authenticates with an online PIN, which cannot be done offline (6905).
    public var requiresOnlinePin: Bool { self == .onlinePinCvm || self == .onlinePinScaRetry }

    /// Every `chargeDeclined…` card.
    public static let declineCards: [Stripe.SimulatedCardType] = allCases.filter { $0.declineCode != nil }
}

extension StripeSimulator {
    /// A charge as Stripe's servers hold it: the processor-side truth tests compare the ledger with.
    public struct ServerCharge: Hashable, Sendable, Codable {
        /// `ch_…`.
        public var stripeId: String
        /// The PaymentIntent's `pi_…`.
        public var paymentIntentId: String
        /// The app's reference, from metadata `tender_reference`.
        public var reference: String?
        /// The intent's metadata.
        public var metadata: [String: String]
        /// Amount including tip, minor units.
        public var amount: UInt
        /// Lowercase currency.
        public var currency: String
        /// `succeeded` (authorized), or `failed` (declined).
        public var status: Stripe.ChargeStatus
        /// The decline code of a failed charge.
        public var declineCode: String?
        /// Whether the funds were captured.
        public var captured: Bool
        /// Whether the authorization was released (the intent canceled before capture).
        public var released: Bool
        /// Whether the card was collected offline and forwarded.
        public var collectedOffline: Bool
    }

    /// A payment the SDK stores on the device, waiting to be forwarded ⚑. Holds the simulated card *type* (to
    /// decide the outcome at forwarding), never card data.
    public struct StoredPayment: Hashable, Sendable, Codable {
        /// The local intent, `offlineDetails.requiresUpload == true`.
        public var intent: Stripe.PaymentIntent
        /// The simulated card that was read.
        public var card: Stripe.SimulatedCardType
    }

    /// An online connection the SDK remembers, for the connect-while-offline rules.
    public struct OnlineConnection: Hashable, Sendable, Codable {
        /// The reader's serial number.
        public var serialNumber: String
        /// Its type.
        public var deviceType: Stripe.DeviceType
        /// The location.
        public var locationId: String
        /// When.
        public var at: Date
    }

    /// What ``StripeSimulator/persist(to:)`` writes: Stripe's servers and the device's SDK store, enough to
    /// re-create the simulator after a simulated app restart.
    public struct PersistedState: Hashable, Sendable, Codable {
        /// The seed.
        public var seed: UInt64
        /// How many ids were issued (ids are derived from the seed and this counter).
        public var issuedIdentifiers: UInt64
        /// Every PaymentIntent on Stripe's servers.
        public var serverIntents: [Stripe.PaymentIntent]
        /// Every charge on Stripe's servers.
        public var charges: [ServerCharge]
        /// The device's offline store.
        public var storedPayments: [StoredPayment]
        /// The online connections the SDK remembers.
        public var onlineConnections: [OnlineConnection]
        /// When each reader (by serial) last ran the latest software.
        public var softwareCurrentAt: [String: Date]
        /// Readers (by serial) that installed the simulated test update.
        public var updatedReaders: Set<String>
    }
}

/// Delivers a completion exactly once, whoever comes first (the operation or a cancel).
final class OneShot<Value: Sendable>: Sendable {
    private let handler: Locked<(@Sendable (Value) -> Void)?>

    init(_ handler: @escaping @Sendable (Value) -> Void) { self.handler = Locked(handler) }

    /// Calls the handler if it has not been called; returns whether it did.
    @discardableResult
    func fire(_ value: Value) -> Bool {
        let taken = handler.withLock { h -> (@Sendable (Value) -> Void)? in
            let current = h
            h = nil
            return current
        }
        taken?(value)
        return taken != nil
    }

    /// Whether the handler was already called.
    var hasFired: Bool { handler.withLock { $0 == nil } }
}
