import Foundation
import Tender
import TenderSquare

/// A faithful, deterministic model of the Mobile Payments SDK 2.5 on one device, and of Square's servers behind it.
///
/// What it models, from the reference and the offline-payments seed:
/// - sellers with their own ``Square/PaymentSettings`` (offline opt-in, per-payment and stored-total limits) and
///   environment (Sandbox refuses offline);
/// - `onlineOnly` / `autoDetect` / `offlineOnly`; the offline queue with `localID`, statuses moving queued →
///   uploaded → processed or failedToProcess, and failedToUpload; processed payments removed from the device;
/// - the offline window and the per-device payment cap (both in ``Configuration``); the queue scoped to the
///   authorized account and location; `paymentAttemptIdReused`; `paymentAlreadyInProgress`;
/// - declines that surface only at processing time; the network on, off, flaky or timing out; reader status,
///   battery and firmware changes, and the rule that a *new* reader must be connected while online.
///
/// It is driven, never timed: an injected ``TenderClock`` and a seed make every run the same. Uploads happen only in
/// ``syncOfflinePayments(maxCount:)``, which the tests and the demo call. ``serverPayments`` is the processor-side
/// truth, and ``persist(to:)`` / ``init(restoringFrom:clock:network:)`` simulate an app restart.
public actor SquareSimulator: SquareClient, Square.AuthorizationManager, Square.PaymentManager,
    Square.OfflinePaymentQueue, Square.ReaderManager, Square.SettingsManager, Square.NetworkMonitor {

    // MARK: Configuration

    /// A Square seller account the simulated servers know.
    public struct Seller: Hashable, Sendable, Codable {
        /// The merchant id.
        public var merchantID: String
        /// The access token that authorizes it.
        public var accessToken: String
        /// Its locations.
        public var locations: [Square.Location]
        /// Locations that are not activated for card processing.
        public var inactiveLocationIDs: Set<String>
        /// Its offline settings.
        public var paymentSettings: Square.PaymentSettings
        /// Production or Sandbox.
        public var environment: Square.Environment

        /// Creates a seller.
        public init(merchantID: String, accessToken: String, locations: [Square.Location],
                    inactiveLocationIDs: Set<String> = [], paymentSettings: Square.PaymentSettings = .notOptedIn,
                    environment: Square.Environment = .production) {
            self.merchantID = merchantID
            self.accessToken = accessToken
            self.locations = locations
            self.inactiveLocationIDs = inactiveLocationIDs
            self.paymentSettings = paymentSettings
            self.environment = environment
        }
    }

    /// How the simulated reader gets a card: the core's ``SimulatedCardPresentation``.
    public typealias CardPresentation = SimulatedCardPresentation

    /// What happens to an Interac card offline. The reference says only "Interac debit always fails offline";
    /// how it fails is UNVERIFIED, so both readings are offered.
    public enum InteracOfflineBehavior: String, Hashable, Sendable, Codable {
        /// The reader will not take it offline: the buyer is asked for another card and the cashier cancels
        /// (`didCancel`). The default.
        case refusedAtReader
        /// It is stored, then fails to process at upload (`failedToProcess`).
        case failsToProcess
    }

    /// The simulator's settings, including the facts the reference marks UNVERIFIED.
    public struct Configuration: Hashable, Sendable, Codable {
        /// How long payments may be taken and held offline before the reader stops and queued payments expire.
        /// 24 hours: the MPSDK page's sentence was cut off in the corpus; the POS API and Square help 8106 say 24 h.
        public var offlineWindow: TimeInterval = 24 * 60 * 60
        /// The most offline payments a device may hold before the reader fails to connect. The seed says 1000;
        /// the reference marks the figure UNVERIFIED, hence configurable.
        public var deviceOfflinePaymentCap: Int = 1000
        /// Whether `deauthorize()` drops the signed-out seller's queued payments. UNVERIFIED: the seed says queued
        /// payments "remain on the device when … a seller logs out", so the default is `false`.
        public var deauthorizeDropsQueue: Bool = false
        /// Whether payments of an account or location that is not authorized now still upload. UNVERIFIED; default
        /// `false` (only the authorized account and location sync).
        public var uploadsOtherAccounts: Bool = false
        /// What happens to Interac offline (UNVERIFIED).
        public var interacOffline: InteracOfflineBehavior = .refusedAtReader
        /// When the card is presented.
        public var cardPresentation: CardPresentation = .immediate

        /// The defaults.
        public init() {}
    }

    /// The card the simulated reader is shown. Square documents no card or amount that makes its mock reader
    /// decline (reference §6, UNVERIFIED), so the card, and how its issuer answers, is set by the test. It holds
    /// what a receipt may show (brand, last four, expiry), never a full number, track data or PIN.
    public struct SimulatedCard: Hashable, Sendable, Codable {
        /// How the issuer answers when the payment reaches Square (online at once, offline at processing).
        public enum IssuerResponse: Hashable, Sendable, Codable {
            /// Approved.
            case approve
            /// Declined, with the issuer's reason.
            case decline(reason: String)
        }

        /// The brand.
        public var brand: Square.CardBrand
        /// The last four digits (anything but four digits is replaced by "0000": never a full number).
        public var last4: String
        /// How it is read.
        public var entryMethod: Square.CardEntryMethod
        /// Expiry month.
        public var expMonth: UInt
        /// Expiry year (an expired card is declined by the issuer).
        public var expYear: UInt
        /// The issuer's answer.
        public var issuerResponse: IssuerResponse
        /// The EMV application name.
        public var applicationName: String?

        /// Creates a card.
        public init(brand: Square.CardBrand, last4: String, entryMethod: Square.CardEntryMethod, expMonth: UInt = 12,
                    expYear: UInt = 2030, issuerResponse: IssuerResponse = .approve, applicationName: String? = nil) {
            self.brand = brand
            self.last4 = Square.lastFour(last4) ?? "0000"
            self.entryMethod = entryMethod
            self.expMonth = expMonth
            self.expYear = expYear
            self.issuerResponse = issuerResponse
            self.applicationName = applicationName
        }

        /// A Visa inserted, approved.
        public static let visaChip = SimulatedCard(brand: .visa, last4: "1111", entryMethod: .emv,
                                                   applicationName: "VISA CREDIT")
        /// A Mastercard tapped, approved.
        public static let mastercardContactless = SimulatedCard(brand: .mastercard, last4: "5100",
                                                                entryMethod: .contactless, applicationName: "MASTERCARD")
        /// A Visa declined by its issuer.
        public static let declined = SimulatedCard(brand: .visa, last4: "0002", entryMethod: .emv,
                                                   issuerResponse: .decline(reason: "GENERIC_DECLINE"))
        /// A Mastercard declined for insufficient funds.
        public static let insufficientFunds = SimulatedCard(brand: .mastercard, last4: "9995", entryMethod: .contactless,
                                                            issuerResponse: .decline(reason: "INSUFFICIENT_FUNDS"))
        /// An Amex that expired in 2020 (declined by the issuer as expired).
        public static let expired = SimulatedCard(brand: .americanExpress, last4: "0009", entryMethod: .emv,
                                                  expMonth: 1, expYear: 2020)
        /// An Interac debit card tapped (approved online; never offline).
        public static let interac = SimulatedCard(brand: .interac, last4: "4242", entryMethod: .contactless,
                                                  applicationName: "INTERAC")
        /// A Visa swiped (magstripe; not available offline).
        public static let swipedVisa = SimulatedCard(brand: .visa, last4: "1111", entryMethod: .swiped)
    }

    /// A fault injected into the next payment.
    public enum Fault: Hashable, Sendable {
        /// Square's servers take the payment, but the SDK reports `timedOut` (the outcome is unknown to the app).
        case timeoutAfterServerCharge
        /// The SDK reports `timedOut` before anything reaches Square.
        case timeoutBeforeServerCharge
        /// `startPayment` fails at once with this error.
        case error(Square.PaymentError)
        /// `startPayment` fails with an error that is not a 2.5 `PaymentError` (a future SDK's code).
        case unrecognizedError(String)
    }

    /// A fault injected into the next upload in ``SquareSimulator/syncOfflinePayments(maxCount:)``.
    public enum UploadFault: String, Hashable, Sendable, Codable {
        /// The upload fails with an unrecoverable error: `failedToUpload`.
        case rejected
        /// The SDK cannot verify the upload: `unknown` for one step, then `uploaded`.
        case unverifiable
    }

    /// An error a future SDK might report; not a ``Square/PaymentError``.
    public struct UnrecognizedSDKError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The error's name.
        public var name: String
        /// The name.
        public var description: String { name }
    }

    // MARK: Processor-side truth

    /// One payment on Square's servers: the processor-side truth tests compare with.
    public struct ServerPayment: Hashable, Sendable, Codable {
        /// The Square payment id.
        public var id: String
        /// The seller.
        public var merchantID: String
        /// The location.
        public var locationID: String
        /// The app's payment attempt id.
        public var paymentAttemptID: String
        /// The idempotency key the SDK used.
        public var idempotencyKey: String
        /// The app's reference id.
        public var referenceID: String?
        /// The amount, excluding the tip.
        public var amountMoney: Square.Money
        /// The tip.
        public var tipMoney: Square.Money?
        /// The status.
        public var status: Square.PaymentStatus
        /// The card part.
        public var cardDetails: Square.CardPaymentDetails
        /// When Square created it.
        public var createdAt: Date
        /// When Square applies ``delayAction`` if it is still approved.
        public var delayedUntil: Date?
        /// What Square does when the delay ends.
        public var delayAction: Square.DelayAction
        /// The device-local id, when it was taken offline.
        public var localID: String?
        /// The issuer's decline reason, for failed payments.
        public var declineReason: String?

        /// Money was taken, or is held for capture.
        public var isCharge: Bool { status == .approved || status == .completed }

        /// The payment as the SDK and the Payments API show it.
        public var onlinePayment: Square.OnlinePayment {
            Square.OnlinePayment(id: id, status: status, amountMoney: amountMoney, tipMoney: tipMoney,
                                 createdAt: createdAt, updatedAt: createdAt, locationID: locationID,
                                 referenceID: referenceID, cardDetails: cardDetails)
        }
    }

    /// One offline payment on the device, with what the simulator needs to process it later.
    public struct DevicePayment: Hashable, Sendable, Codable {
        /// The seller it belongs to.
        public var merchantID: String
        /// The location it belongs to.
        public var locationID: String
        /// The app's payment attempt id.
        public var paymentAttemptID: String
        /// The idempotency key.
        public var idempotencyKey: String
        /// Whether it completes at processing.
        public var autocomplete: Bool
        /// The delay action for delayed capture.
        public var delayAction: Square.DelayAction
        /// The delay, in seconds (0 = Square's 36-hour default).
        public var delayDuration: TimeInterval
        /// The payment as the SDK shows it.
        public var payment: Square.OfflinePayment
        /// How the issuer will answer at processing.
        public var issuerResponse: SimulatedCard.IssuerResponse
        /// Whether the card expired before it was taken.
        public var cardExpired: Bool
    }

    /// What the SDK remembers of a payment attempt id.
    public struct AttemptRecord: Hashable, Sendable, Codable {
        /// What came of the attempt, as far as the device knows.
        public enum Outcome: String, Hashable, Sendable, Codable {
            /// Started; the device did not learn the outcome (a timeout or a crash).
            case started
            /// Charged online.
            case charged
            /// Stored offline.
            case stored
            /// Ended without a charge (declined, canceled, failed); the id may be used again with a new key.
            case ended
        }
        /// The idempotency key.
        public var idempotencyKey: String
        /// The outcome.
        public var outcome: Outcome
    }

    /// A reader the device has paired.
    public struct SimulatedReader: Hashable, Sendable, Codable {
        /// What the SDK reports.
        public var info: Square.ReaderInfo
        /// Whether it has ever connected while online (a new reader must; see the offline-payments doc).
        public var hasConnectedOnline: Bool
    }

    /// Everything the simulator persists: the servers' truth and the device's SDK store.
    public struct PersistedState: Hashable, Sendable, Codable {
        /// The seed of every id and draw.
        public var seed: UInt64
        /// The settings.
        public var configuration: Configuration
        /// The sellers Square knows.
        public var sellers: [Seller]
        /// The authorized seller's merchant id.
        public var authorizedMerchantID: String?
        /// The authorized location id.
        public var authorizedLocationID: String?
        /// Square's servers.
        public var serverPayments: [ServerPayment] = []
        /// The device's offline store, for every account.
        public var devicePayments: [DevicePayment] = []
        /// The SDK's payment attempt ids.
        public var attempts: [String: AttemptRecord] = [:]
        /// Paired readers.
        public var readers: [SimulatedReader] = []
        /// Readers in range, not yet paired.
        public var nearbyReaders: [Square.ReaderInfo] = []
        /// When the device last went offline.
        public var offlineSince: Date?
        /// How many random draws were made (so a restored simulator continues the same sequence).
        public var draws: UInt64 = 0
        /// The next reader id.
        public var nextReaderID: UInt = 1
    }

    // MARK: Stored properties

    private var store: PersistedState
    private let clock: any TenderClock
    private var network: SimulatedNetwork
    private var presentedCard: SimulatedCard = .visaChip
    private var pendingFaults: [Fault] = []
    private var uploadFaults: [UploadFault] = []
    private var current: InFlight?
    private var authorizationObservers: [any Square.AuthorizationStateObserver] = []
    private var readerObservers: [any Square.ReaderObserver] = []
    private var networkObservers: [any Square.NetworkObserver] = []

    private struct InFlight {
        var parameters: Square.PaymentParameters
        var delegate: any Square.PaymentManagerDelegate
        var idempotencyKey: String
        var merchantID: String
        var location: Square.Location
        var mayStoreOffline: Bool
        var mustStoreOffline: Bool
    }

    // MARK: Life cycle

    /// Creates a simulator.
    /// - Parameters:
    ///   - sellers: the accounts Square knows.
    ///   - configuration: the settings, including the UNVERIFIED facts.
    ///   - seed: the seed of every id and every flaky-network draw.
    ///   - clock: the clock (use ``ManualClock`` in tests).
    ///   - network: the network at start.
    public init(sellers: [Seller], configuration: Configuration = Configuration(), seed: UInt64 = 1,
                clock: any TenderClock = ManualClock(), network: SimulatedNetwork = .online) {
        self.store = PersistedState(seed: seed, configuration: configuration, sellers: sellers)
        self.clock = clock
        self.network = network
        if network.reportedStatus == .offline { store.offlineSince = clock.now() }
    }

    /// Re-creates a simulator from a file written by ``persist(to:)``: a simulated app restart. Square's servers,
    /// the device's offline store, the attempt ids, the authorization and the paired readers survive; the payment
    /// in progress, observers and injected faults do not. Ids continue the seed's sequence, so none collide.
    /// - Throws: if the file is missing or unreadable.
    public init(restoringFrom file: SimulatorStateFile<PersistedState>, clock: any TenderClock = ManualClock(),
                network: SimulatedNetwork = .online) throws {
        guard let saved = try file.load() else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: file.url.path])
        }
        self.store = saved
        self.clock = clock
        self.network = network
        if network.reportedStatus == .offline { store.offlineSince = store.offlineSince ?? clock.now() }
    }

    /// Writes Square's servers and the device's store to `file` (atomically, owner-only).
    public func persist(to file: SimulatorStateFile<PersistedState>) throws { try file.save(store) }

    /// The persisted state now.
    public var persistedState: PersistedState { store }

    // MARK: Test controls

    /// Sets the network. Observers hear of a change in reachability; coming back online lifts the offline window.
    public func setNetwork(_ network: SimulatedNetwork) {
        let was = self.network.reportedStatus
        self.network = network
        let now = network.reportedStatus
        guard was != now else { return }
        store.offlineSince = now == .offline ? clock.now() : nil
        if now == .online { restoreReadersAfterOutage() }
        for observer in networkObservers { observer.networkDidChange(isConnected: now == .online) }
    }

    /// Sets the card the reader is shown next (and for every payment after, until changed).
    public func setPresentedCard(_ card: SimulatedCard) { presentedCard = card }

    /// Changes the configuration.
    public func configure(_ change: (inout Configuration) -> Void) { change(&store.configuration) }

    /// Changes a seller's settings on Square's side.
    public func updateSeller(_ merchantID: String, _ change: (inout Seller) -> Void) {
        guard let index = store.sellers.firstIndex(where: { $0.merchantID == merchantID }) else { return }
        change(&store.sellers[index])
    }

    /// Injects a fault into the next payment (faults queue up, one per payment).
    public func injectFault(_ fault: Fault) { pendingFaults.append(fault) }

    /// Injects a fault into the next upload (faults queue up, one per upload).
    public func injectUploadFault(_ fault: UploadFault) { uploadFaults.append(fault) }

    /// Puts a reader in range, to be paired by ``startPairing()``.
    @discardableResult
    public func addNearbyReader(model: Square.ReaderModel = .contactlessAndChip, batteryPercentage: Int = 80)
        -> Square.ReaderInfo {
        let id = store.nextReaderID
        store.nextReaderID += 1
        let methods: Square.CardInputMethods = model == .magstripe ? [.swipe] : [.chip, .contactless, .swipe]
        let info = Square.ReaderInfo(
            id: id, name: "Square Reader \(id)", serialNumber: "SQR-\(1000 + id)", model: model,
            supportedInputMethods: methods, firmwareInfo: Square.FirmwareInfo(version: "2.5.0"),
            statusInfo: Square.ReaderStatusInfo(status: .connectingToDevice),
            batteryStatus: Square.BatteryStatus(isCharging: false, percentage: batteryPercentage),
            cardInsertionStatus: model == .magstripe ? .unknown : .notInserted)
        store.nearbyReaders.append(info)
        return info
    }

    /// Sets a reader's status and tells the observers (`readerStatusDidChange`).
    public func setReaderStatus(_ readerID: UInt, _ status: Square.ReaderStatus,
                                reason: Square.ReaderUnavailableReason? = nil) {
        updateReader(readerID, change: .readerStatusDidChange) {
            $0.statusInfo = Square.ReaderStatusInfo(status: status, unavailableReason: reason)
        }
    }

    /// The first ready reader becomes unavailable for `reason`. A payment waiting for a card then fails with
    /// `timedOut`, the SDK's payment timeout, with nothing charged: how the SDK reports a reader lost mid-payment
    /// is UNVERIFIED.
    public func disconnectReader(reason: Square.ReaderUnavailableReason = .bluetoothFailure) {
        guard let reader = store.readers.first(where: { $0.info.statusInfo.status == .ready }) else { return }
        setReaderStatus(reader.info.id, .readerUnavailable, reason: reason)
        if current != nil { failCurrent(.timedOut, outcome: .ended) }
    }

    /// Sets the battery of a reader and tells the observers.
    public func setBattery(_ readerID: UInt, percentage: Int, isCharging: Bool) {
        let wasCharging = store.readers.first { $0.info.id == readerID }?.info.batteryStatus?.isCharging
        let change: Square.ReaderChange = wasCharging == isCharging ? .batteryLevelDidChange
            : (isCharging ? .batteryDidBeginCharging : .batteryDidEndCharging)
        updateReader(readerID, change: change) {
            $0.batteryStatus = Square.BatteryStatus(isCharging: isCharging, percentage: percentage)
        }
    }

    /// Announces a firmware update (`firmwareUpdateStatusDidChange`: none → pending); a blocking one makes the
    /// reader unavailable (`blockingFirmwareUpdate`) until it finishes.
    public func announceFirmwareUpdate(_ readerID: UInt, blocking: Bool) {
        if blocking { setReaderStatus(readerID, .readerUnavailable, reason: .blockingFirmwareUpdate) }
        updateReader(readerID, change: .firmwareUpdateStatusDidChange) {
            $0.firmwareInfo?.updateStatus = .pending
        }
    }

    /// Moves a firmware update to `percent`; at 100 the reader installs it and becomes ready.
    public func advanceFirmwareUpdate(_ readerID: UInt, toPercent percent: Int) {
        updateReader(readerID, change: .firmwareUpdatePercentDidChange) {
            $0.firmwareInfo?.updateStatus = .inProgress
            $0.firmwareInfo?.updatePercentage = min(100, max(0, percent))
        }
        guard percent >= 100 else { return }
        updateReader(readerID, change: .firmwareUpdateStatusDidChange) {
            $0.firmwareInfo = Square.FirmwareInfo(version: "2.5.1")
        }
        setReaderStatus(readerID, .ready)
    }

    /// Fails a blocking firmware update (`firmwareUpdateDidFail`); the reader stays unavailable.
    public func failFirmwareUpdate(_ readerID: UInt) {
        updateReader(readerID, change: .firmwareUpdateDidFail) { $0.firmwareInfo?.updateStatus = .failed }
    }

    /// Presents a card to the payment waiting for one (``CardPresentation/waitForPresentCard``).
    public func presentCard(_ card: SimulatedCard? = nil) {
        if let card { presentedCard = card }
        processCurrent()
    }

    // MARK: Truth, for tests

    /// Every payment on Square's servers.
    public var serverPayments: [ServerPayment] { store.serverPayments }

    /// Every offline payment on the device, for every account (the SDK itself shows only the authorized one's).
    public var devicePayments: [DevicePayment] { store.devicePayments }

    /// How many times Square took money (approved or completed) for this payment attempt id.
    public func chargeCount(paymentAttemptID: String) -> Int {
        store.serverPayments.filter { $0.paymentAttemptID == paymentAttemptID && $0.isCharge }.count
    }

    // MARK: SquareClient

    /// The simulator itself.
    public nonisolated var authorizationManager: any Square.AuthorizationManager { self }
    /// The simulator itself.
    public nonisolated var paymentManager: any Square.PaymentManager { self }
    /// The simulator itself.
    public nonisolated var readerManager: any Square.ReaderManager { self }
    /// The simulator itself.
    public nonisolated var settingsManager: any Square.SettingsManager { self }
    /// The simulator itself.
    public nonisolated var networkMonitor: any Square.NetworkMonitor { self }
    /// The simulator itself.
    public nonisolated var offlinePaymentQueue: any Square.OfflinePaymentQueue { self }
    /// Square's servers, as the app's backend reaches them: `CompletePayment` / `CancelPayment` for capture and
    /// void, and `ListPayments` by reference for recovery.
    public nonisolated var server: Server { Server(simulator: self) }

    // MARK: AuthorizationManager

    /// Authorizes a seller at a location, checking what Square checks, in order.
    public func authorize(withAccessToken accessToken: String, locationID: String)
        async throws(Square.AuthorizationError) {
        if accessToken.isEmpty { throw .emptyAccessToken }
        if locationID.isEmpty { throw .emptyLocationID }
        if store.authorizedMerchantID != nil { throw .alreadyAuthorized }
        guard reachesSquare() else { throw .noNetwork }
        guard let seller = store.sellers.first(where: { $0.accessToken == accessToken }) else {
            throw .invalidAccessToken
        }
        guard seller.locations.contains(where: { $0.id == locationID }) else { throw .invalidLocationID }
        if seller.inactiveLocationIDs.contains(locationID) { throw .locationNotActivatedForCardProcessing }
        store.authorizedMerchantID = seller.merchantID
        store.authorizedLocationID = locationID
        for observer in authorizationObservers { observer.authorizationStateDidChange(.authorized) }
    }

    /// Signs out. Drops the seller's queued payments only if ``Configuration/deauthorizeDropsQueue``.
    public func deauthorize() async {
        if store.configuration.deauthorizeDropsQueue, let merchant = store.authorizedMerchantID {
            let location = store.authorizedLocationID
            store.devicePayments.removeAll {
                $0.merchantID == merchant && $0.locationID == location && $0.payment.status == .queued
            }
        }
        store.authorizedMerchantID = nil
        store.authorizedLocationID = nil
        for observer in authorizationObservers { observer.authorizationStateDidChange(.notAuthorized) }
    }

    /// The authorization state.
    public var state: Square.AuthorizationState { store.authorizedMerchantID == nil ? .notAuthorized : .authorized }

    /// The authorized location.
    public var location: Square.Location? { authorized?.location }

    /// Adds an authorization observer.
    public func add(_ observer: any Square.AuthorizationStateObserver) { authorizationObservers.append(observer) }

    // MARK: SettingsManager

    /// The authorized seller's settings (not opted in when nobody is authorized).
    public var paymentSettings: Square.PaymentSettings { authorized?.seller.paymentSettings ?? .notOptedIn }

    /// The authorized seller's environment.
    public var environment: Square.Environment { authorized?.seller.environment ?? .production }

    // MARK: NetworkMonitor

    /// Whether the device reaches Square (a flaky network counts as connected).
    public var isConnected: Bool { network.reportedStatus == .online }

    /// Adds a network observer.
    public func add(_ observer: any Square.NetworkObserver) { networkObservers.append(observer) }

    // MARK: ReaderManager

    /// The paired readers. The offline window and the device cap are applied first: past them, readers stop.
    public var readers: [Square.ReaderInfo] {
        enforceOfflineLimits()
        return store.readers.map(\.info)
    }

    /// Adds a reader observer.
    public func add(_ observer: any Square.ReaderObserver) { readerObservers.append(observer) }

    /// Pairs the first reader in range. A reader that has never connected online cannot get ready offline
    /// (`readerUnavailable` / `notConnectedToInternet`).
    public func startPairing() async throws(Square.ReaderPairingError) -> Square.ReaderInfo {
        guard let seller = authorized?.seller else { throw .notAuthorized }
        if seller.environment == .sandbox { throw .sandboxNotSupported }
        guard !store.nearbyReaders.isEmpty else { throw .timedOut }
        var info = store.nearbyReaders.removeFirst()
        let online = reachesSquare()
        info.statusInfo = online ? .ready : Square.ReaderStatusInfo(status: .readerUnavailable,
                                                                     unavailableReason: .notConnectedToInternet)
        store.readers.append(SimulatedReader(info: info, hasConnectedOnline: online))
        for observer in readerObservers { observer.readerWasAdded(info) }
        return info
    }

    /// Retries a reader's connection: it gets ready unless it is updating, or is new and the device is offline.
    public func retryConnection(_ reader: Square.ReaderInfo) async -> Square.RetryConnectionResult {
        guard let index = store.readers.firstIndex(where: { $0.info.id == reader.id }) else { return .readerNotFound }
        let info = store.readers[index].info
        if info.statusInfo.status == .connectingToSquare { return .readerAlreadyConnectingToSquare }
        if info.statusInfo.unavailableReasonInfo?.reason == .blockingFirmwareUpdate || info.statusInfo.status == .faulty {
            return .unableToRetry
        }
        let online = reachesSquare()
        guard online || (store.readers[index].hasConnectedOnline && !offlineLimitsReached()) else {
            setReaderStatus(reader.id, .readerUnavailable, reason: .notConnectedToInternet)
            return .startingReconnection
        }
        if online { store.readers[index].hasConnectedOnline = true }
        setReaderStatus(reader.id, .ready)
        return .startingReconnection
    }

    /// Forgets a reader.
    public func forget(_ reader: Square.ReaderInfo) async {
        guard let index = store.readers.firstIndex(where: { $0.info.id == reader.id }) else { return }
        let removed = store.readers.remove(at: index)
        for observer in readerObservers { observer.readerWasRemoved(removed.info) }
    }

    // MARK: PaymentManager

    /// The handle of the payment in progress.
    public var currentPaymentHandle: (any Square.PaymentHandle)? {
        current.map { Handle(simulator: self, paymentParameters: $0.parameters) }
    }

    /// The idempotency key stored for an attempt id, or `nil`.
    public func getIdempotencyKey(withPaymentAttemptId paymentAttemptID: String) async -> String? {
        store.attempts[paymentAttemptID]?.idempotencyKey
    }

    /// The ready readers' input methods; swipe is not available offline.
    public func availableCardInputMethods() async -> Square.CardInputMethods {
        enforceOfflineLimits()
        var methods = store.readers.filter { $0.info.statusInfo.status == .ready }
            .reduce(into: Square.CardInputMethods()) { $0.formUnion($1.info.supportedInputMethods) }
        if network.reportedStatus == .offline { methods.remove(.swipe) }
        return methods
    }

    /// Starts a payment: Square's checks, in order, then the card (at once, or when presented).
    public func startPayment(_ parameters: Square.PaymentParameters, promptParameters: Square.PromptParameters,
                             delegate: any Square.PaymentManagerDelegate) async -> (any Square.PaymentHandle)? {
        func refuse(_ error: any Error) -> (any Square.PaymentHandle)? {
            delegate.paymentManager(self, didFail: nil, withError: error)
            return nil
        }
        guard let (seller, location) = authorized.map({ ($0.seller, $0.location) }) else {
            return refuse(Square.PaymentError.notAuthorized)
        }
        if !pendingFaults.isEmpty {
            switch pendingFaults[0] {
            case .error(let error): pendingFaults.removeFirst(); return refuse(error)
            case .unrecognizedError(let name): pendingFaults.removeFirst(); return refuse(UnrecognizedSDKError(name: name))
            case .timeoutAfterServerCharge, .timeoutBeforeServerCharge: break
            }
        }
        if current != nil { return refuse(Square.PaymentError.paymentAlreadyInProgress) }
        guard parametersAreValid(parameters, location: location) else {
            return refuse(Square.PaymentError.invalidPaymentParameters)
        }
        if attemptIsReused(parameters.paymentAttemptID) { return refuse(Square.PaymentError.paymentAttemptIdReused) }

        let mode = parameters.processingMode
        let settings = seller.paymentSettings
        let eligible: Square.PaymentError? = {
            if seller.environment == .sandbox { return .sandboxUnsupportedForOfflineProcessing }
            if !settings.isOfflineProcessingAllowed { return .merchantNotOptedIntoOfflineProcessing }
            let total = parameters.totalMoney.amount
            if total > settings.offlineTransactionAmountLimit?.amount ?? 0 { return .offlineTransactionAmountExceeded }
            if storedTotal(merchantID: seller.merchantID, locationID: location.id) + total
                > settings.offlineTotalStoredAmountLimit?.amount ?? 0 { return .offlineStoredAmountExceeded }
            return nil
        }()
        switch mode {
        case .onlineOnly: break
        case .offlineOnly:
            if let eligible { return refuse(eligible) }
        case .autoDetect:
            if seller.environment == .sandbox { return refuse(Square.PaymentError.sandboxUnsupportedForOfflineProcessing) }
            if let eligible, network.reportedStatus == .offline, settings.isOfflineProcessingAllowed {
                return refuse(eligible)
            }
        }
        let key = nextIdentifier(prefix: "idem-", length: 20)
        store.attempts[parameters.paymentAttemptID] = AttemptRecord(idempotencyKey: key, outcome: .started)
        current = InFlight(parameters: parameters, delegate: delegate, idempotencyKey: key,
                           merchantID: seller.merchantID, location: location,
                           mayStoreOffline: mode != .onlineOnly && eligible == nil,
                           mustStoreOffline: mode == .offlineOnly)
        let now = clock.now()
        delegate.paymentManager(self, didStart: .online(Square.OnlinePayment(
            id: nil, status: .initialized, amountMoney: parameters.amountMoney, tipMoney: parameters.tipMoney,
            createdAt: now, updatedAt: now, locationID: location.id, referenceID: parameters.referenceID,
            cardDetails: nil, note: parameters.note)))
        let handle = Handle(simulator: self, paymentParameters: parameters)
        if store.configuration.cardPresentation == .immediate { processCurrent() }
        return handle
    }

    /// Cancels the payment with this attempt id if it has not read a card yet.
    func cancel(paymentAttemptID: String) -> Bool {
        guard let flight = current, flight.parameters.paymentAttemptID == paymentAttemptID else { return false }
        current = nil
        store.attempts[paymentAttemptID]?.outcome = .ended
        flight.delegate.paymentManager(self, didCancel: nil)
        return true
    }

    /// Whether the payment with this attempt id is still waiting for a card.
    func isCancelable(paymentAttemptID: String) -> Bool { current?.parameters.paymentAttemptID == paymentAttemptID }

    /// Square's `PaymentHandle` for a simulated payment.
    public struct Handle: Square.PaymentHandle {
        let simulator: SquareSimulator
        /// The parameters the payment started with.
        public let paymentParameters: Square.PaymentParameters
        /// Whether the payment can still be canceled.
        public var isPaymentCancelable: Bool {
            get async { await simulator.isCancelable(paymentAttemptID: paymentParameters.paymentAttemptID) }
        }
        /// Cancels the payment.
        public func cancelPayment() async -> Bool {
            await simulator.cancel(paymentAttemptID: paymentParameters.paymentAttemptID)
        }
    }

    // MARK: OfflinePaymentQueue

    /// The offline payments of the authorized account and location.
    public func getPayments() async throws(Square.OfflinePaymentQueueError) -> [Square.OfflinePayment] {
        let (seller, location) = try queueScope()
        return store.devicePayments.filter { $0.merchantID == seller.merchantID && $0.locationID == location.id }
            .map(\.payment)
    }

    /// The total of queued payments of the authorized account and location.
    public func getTotalStoredPaymentsAmount() async throws(Square.OfflinePaymentQueueError) -> Square.Money {
        let (seller, location) = try queueScope()
        return Square.Money(amount: storedTotal(merchantID: seller.merchantID, locationID: location.id),
                            currency: location.currency)
    }

    // MARK: Sync (driven, never timed)

    /// One step of the SDK's background sync, only while the network is on: processed payments from the previous
    /// step are removed from the device, then up to `maxCount` payments each move one step: queued → uploaded (or
    /// failedToUpload once older than the offline window, or with an injected ``UploadFault``), unknown →
    /// uploaded, uploaded → processed or failedToProcess. On a flaky network each payment's request may fail and
    /// wait for the next step. How long Square waits before expiring a payment, and that expiry shows as
    /// `failedToUpload`, are UNVERIFIED (help 8106 says unuploaded payments "expire" after 24 hours).
    /// - Returns: how many payments changed status.
    @discardableResult
    public func syncOfflinePayments(maxCount: Int = .max) -> Int {
        guard network.reportedStatus == .online else { return 0 }
        store.devicePayments.removeAll { $0.payment.status == .processed }
        let now = clock.now()
        var changed = 0
        for index in store.devicePayments.indices where changed < maxCount {
            let entry = store.devicePayments[index]
            guard isInSyncScope(entry), Self.syncing.contains(entry.payment.status) else { continue }
            guard reachesSquare() else { continue }
            var payment = entry.payment
            if payment.status == .queued || payment.status == .unknown {
                let expired = now.timeIntervalSince(payment.createdAt) > store.configuration.offlineWindow
                let fault = payment.status == .queued && !uploadFaults.isEmpty ? uploadFaults.removeFirst() : nil
                switch (expired, fault) {
                case (true, _), (false, .rejected?): payment.status = .failedToUpload
                case (false, .unverifiable?): payment.status = .unknown
                case (false, nil):
                    payment.status = .uploaded
                    payment.uploadedAt = now
                }
            } else {
                let server = charge(entry, at: now)
                payment.status = server.isCharge ? .processed : .failedToProcess
                payment.id = server.isCharge ? server.id : nil
            }
            payment.updatedAt = now
            store.devicePayments[index].payment = payment
            changed += 1
        }
        return changed
    }

    /// Runs ``syncOfflinePayments(maxCount:)`` while payments in scope are queued or uploaded (at most `limit`
    /// steps). Processed payments stay visible until the next sync step, so the app can read their `id`.
    @discardableResult
    public func syncUntilIdle(limit: Int = 10) -> Int {
        var total = 0
        for _ in 0..<limit {
            let pending = store.devicePayments.contains { Self.syncing.contains($0.payment.status) && isInSyncScope($0) }
            guard pending else { break }
            let changed = syncOfflinePayments()
            total += changed
            if changed == 0 { break }
        }
        return total
    }

    /// The statuses a sync step moves on.
    private static let syncing: Set<Square.OfflineStatus> = [.queued, .unknown, .uploaded]

    private func isInSyncScope(_ entry: DevicePayment) -> Bool {
        store.configuration.uploadsOtherAccounts
            || (entry.merchantID == store.authorizedMerchantID && entry.locationID == store.authorizedLocationID)
    }

    // MARK: Server side

    /// Square's servers as the app's backend reaches them (through the device's network).
    public struct Server: PaymentCaptureService, SquareServerLookup {
        let simulator: SquareSimulator

        /// `CompletePayment`: an approved payment becomes completed. The amount must be the approved total.
        public func capture(processor: String, reference: String, processorPaymentID: String, amount: Tender.Money) async throws {
            try await simulator.serverComplete(processorPaymentID, amount: amount)
        }

        /// `CancelPayment`: an approved payment becomes canceled.
        public func void(processor: String, reference: String, processorPaymentID: String) async throws {
            try await simulator.serverCancel(processorPaymentID)
        }

        /// `ListPayments` filtered by `reference_id`.
        public func payments(referenceID: String, locationID: String) async throws -> [Square.OnlinePayment] {
            try await simulator.serverPayments(referenceID: referenceID, locationID: locationID)
        }

        /// `CancelPaymentByIdempotencyKey`: voids the payment with that key if one exists; succeeds either way.
        public func cancelPayment(byIdempotencyKey key: String) async throws {
            try await simulator.serverCancel(idempotencyKey: key)
        }
    }

    func serverComplete(_ id: String, amount: Tender.Money) throws {
        let index = try serverIndex(id)
        let payment = store.serverPayments[index]
        let total = payment.amountMoney.amount + (payment.tipMoney?.amount ?? 0)
        guard payment.status == .approved else {
            throw serverError(.invalidState, "Payment \(id) is \(payment.status.caseName), not approved.")
        }
        guard let currency = SquareMapping.squareCurrency(amount.currency), currency == payment.amountMoney.currency,
              amount.minorUnits == Int64(total) else {
            throw serverError(.invalidRequest, "Payment \(id) was approved for \(total) minor units, not \(amount).")
        }
        store.serverPayments[index].status = .completed
        store.serverPayments[index].cardDetails.status = .captured
    }

    func serverCancel(_ id: String) throws {
        let index = try serverIndex(id)
        guard store.serverPayments[index].status == .approved else {
            throw serverError(.invalidState, "Payment \(id) is \(store.serverPayments[index].status.caseName), not approved.")
        }
        store.serverPayments[index].status = .canceled
        store.serverPayments[index].cardDetails.status = .voided
    }

    func serverCancel(idempotencyKey: String) throws {
        guard reachesSquare() else { throw serverError(.networkUnavailable, "The server cannot be reached.") }
        applyDelayedActions()
        guard let id = store.serverPayments.first(where: { $0.idempotencyKey == idempotencyKey && $0.status == .approved })?.id
        else { return }
        try serverCancel(id)
    }

    func serverPayments(referenceID: String, locationID: String) throws -> [Square.OnlinePayment] {
        guard reachesSquare() else { throw serverError(.networkUnavailable, "The server cannot be reached.") }
        applyDelayedActions()
        return store.serverPayments.filter { $0.referenceID == referenceID && $0.locationID == locationID }
            .map(\.onlinePayment)
    }

    private func serverIndex(_ id: String) throws -> Int {
        guard reachesSquare() else { throw serverError(.networkUnavailable, "The server cannot be reached.") }
        applyDelayedActions()
        guard let index = store.serverPayments.firstIndex(where: { $0.id == id }) else {
            throw serverError(.unknownReference, "Square has no payment \(id).")
        }
        return index
    }

    private func serverError(_ code: PaymentError.Code, _ message: String) -> PaymentError {
        PaymentError(code == .networkUnavailable ? code : .captureFailed,
                     recovery: code == .networkUnavailable ? .goOnline : .none, phase: .capture, message: message,
                     vendor: .init(processor: SquareErrorTable.processor, name: code.rawValue))
    }

    /// Square applies `delay_action` to approved payments whose delay has passed.
    private func applyDelayedActions() {
        let now = clock.now()
        for index in store.serverPayments.indices {
            let payment = store.serverPayments[index]
            guard payment.status == .approved, let until = payment.delayedUntil, until <= now else { continue }
            let complete = payment.delayAction == .complete
            store.serverPayments[index].status = complete ? .completed : .canceled
            store.serverPayments[index].cardDetails.status = complete ? .captured : .voided
        }
    }

    // MARK: Internals

    private var authorized: (seller: Seller, location: Square.Location)? {
        guard let merchant = store.authorizedMerchantID,
              let seller = store.sellers.first(where: { $0.merchantID == merchant }),
              let location = seller.locations.first(where: { $0.id == store.authorizedLocationID }) else { return nil }
        return (seller, location)
    }

    private func queueScope() throws(Square.OfflinePaymentQueueError) -> (Seller, Square.Location) {
        guard let scope = authorized else { throw .notAuthorized }
        if scope.seller.environment == .sandbox { throw .unsupportedSandboxEnvironment }
        return (scope.seller, scope.location)
    }

    private func storedTotal(merchantID: String, locationID: String) -> UInt {
        store.devicePayments
            .filter { $0.merchantID == merchantID && $0.locationID == locationID && $0.payment.status == .queued }
            .reduce(0) { $0 + $1.payment.totalMoney.amount }
    }

    private func nextGenerator() -> SeededGenerator {
        store.draws += 1
        return SeededGenerator(seed: store.seed ^ (store.draws &* 0x9E37_79B9_7F4A_7C15))
    }

    private func nextIdentifier(prefix: String, length: Int = 22) -> String {
        var generator = nextGenerator()
        return generator.identifier(prefix: prefix, length: length)
    }

    /// One request to Square: drawn from the seeded generator on a flaky network.
    private func reachesSquare() -> Bool {
        var generator = nextGenerator()
        return network.requestSucceeds(using: &generator)
    }

    private func parametersAreValid(_ parameters: Square.PaymentParameters, location: Square.Location) -> Bool {
        let amount = parameters.amountMoney
        guard amount.amount > 0, amount.currency == location.currency, !parameters.paymentAttemptID.isEmpty else {
            return false
        }
        if let tip = parameters.tipMoney, tip.currency != amount.currency { return false }
        if let locationID = parameters.locationID, locationID != location.id { return false }
        if parameters.delayDuration != 0 && (parameters.delayDuration < 60 || parameters.autocomplete) { return false }
        if parameters.autocomplete && parameters.acceptPartialAuthorization { return false }
        if parameters.delayAction == .complete && parameters.orderID != nil { return false }
        if (parameters.referenceID?.count ?? 0) > 40 || (parameters.note?.count ?? 0) > 500 { return false }
        return true
    }

    /// An attempt id is refused when the device knows it charged or stored a payment, or when Square's servers
    /// hold a charge under its current key (the device did not learn the outcome). An attempt that ended without a
    /// charge may be used again: the SDK makes a new key ("repeated requests in the same attempt"). Which earlier
    /// outcomes Square refuses is UNVERIFIED; this is the reading that never charges twice.
    private func attemptIsReused(_ attemptID: String) -> Bool {
        guard let record = store.attempts[attemptID] else { return false }
        switch record.outcome {
        case .charged, .stored: return true
        case .ended: return false
        case .started:
            guard store.serverPayments.contains(where: { $0.idempotencyKey == record.idempotencyKey && $0.isCharge })
            else { return false }
            store.attempts[attemptID]?.outcome = .charged
            return true
        }
    }

    private func processCurrent() {
        guard let flight = current else { return }
        let card = presentedCard
        enforceOfflineLimits()
        guard store.readers.contains(where: { $0.info.statusInfo.status == .ready }) else {
            // No reader can read the card: the SDK's payment timeout fires (2.2.3), nothing is charged.
            return failCurrent(.timedOut, outcome: .ended)
        }
        let chipReader = card.entryMethod == .emv
            ? store.readers.first(where: { $0.info.statusInfo.status == .ready })?.info.id : nil
        if let chipReader { updateReader(chipReader, change: .cardInserted) { $0.cardInsertionStatus = .inserted } }
        defer {
            if let chipReader { updateReader(chipReader, change: .cardRemoved) { $0.cardInsertionStatus = .notInserted } }
        }
        if flight.mustStoreOffline { return storeCurrentOffline(card) }
        var fault: Fault?
        if let first = pendingFaults.first, first == .timeoutAfterServerCharge || first == .timeoutBeforeServerCharge {
            fault = pendingFaults.removeFirst()
        }
        if case .timingOut = network { return failCurrent(.timedOut, outcome: .started) }
        guard fault != .timeoutBeforeServerCharge else { return failCurrent(.timedOut, outcome: .started) }
        guard reachesSquare() else {
            if flight.mayStoreOffline { return storeCurrentOffline(card) }
            return failCurrent(.noNetwork, outcome: .ended)
        }
        let now = clock.now()
        let parameters = flight.parameters
        var server = ServerPayment(
            id: nextIdentifier(prefix: "sqpay_"), merchantID: flight.merchantID, locationID: flight.location.id,
            paymentAttemptID: parameters.paymentAttemptID, idempotencyKey: flight.idempotencyKey,
            referenceID: parameters.referenceID, amountMoney: parameters.amountMoney, tipMoney: parameters.tipMoney,
            status: .failed, cardDetails: onlineCardDetails(card, status: .failed), createdAt: now,
            delayedUntil: nil, delayAction: parameters.delayAction)
        settle(&server, response: card.issuerResponse, expired: isExpired(card, at: now),
               autocomplete: parameters.autocomplete, delay: parameters.delayDuration, at: now)
        store.serverPayments.append(server)
        current = nil
        if fault == .timeoutAfterServerCharge {
            flight.delegate.paymentManager(self, didFail: nil, withError: Square.PaymentError.timedOut)
            return
        }
        store.attempts[parameters.paymentAttemptID]?.outcome = server.isCharge ? .charged : .ended
        // An online decline: Square's docs give no PaymentError for it; the simulator finishes with a `failed`
        // payment whose card part failed (UNVERIFIED how the real SDK reports it).
        flight.delegate.paymentManager(self, didFinish: .online(server.onlinePayment))
    }

    private func storeCurrentOffline(_ card: SimulatedCard) {
        guard let flight = current else { return }
        // The reader takes only chip and contactless offline, and never Interac unless configured to store it.
        if card.entryMethod == .swiped
            || (card.brand == .interac && store.configuration.interacOffline == .refusedAtReader) {
            current = nil
            store.attempts[flight.parameters.paymentAttemptID]?.outcome = .ended
            flight.delegate.paymentManager(self, didCancel: nil)
            return
        }
        let now = clock.now()
        let parameters = flight.parameters
        let payment = Square.OfflinePayment(
            localID: uuid(), status: .queued, amountMoney: parameters.amountMoney, tipMoney: parameters.tipMoney,
            createdAt: now, updatedAt: now, locationID: flight.location.id, referenceID: parameters.referenceID,
            cardDetails: Square.OfflineCardPaymentDetails(
                entryMethod: card.entryMethod,
                card: Square.OfflineCard(cardBrand: card.brand, last4: card.last4),
                applicationIdentifier: card.entryMethod == .swiped ? nil : "A000000003101001",
                applicationName: card.applicationName))
        let interacFails = card.brand == .interac
        store.devicePayments.append(DevicePayment(
            merchantID: flight.merchantID, locationID: flight.location.id,
            paymentAttemptID: parameters.paymentAttemptID, idempotencyKey: flight.idempotencyKey,
            autocomplete: parameters.autocomplete, delayAction: parameters.delayAction,
            delayDuration: parameters.delayDuration, payment: payment,
            issuerResponse: interacFails ? .decline(reason: "INTERAC_OFFLINE") : card.issuerResponse,
            cardExpired: isExpired(card, at: now)))
        store.attempts[parameters.paymentAttemptID]?.outcome = .stored
        current = nil
        flight.delegate.paymentManager(self, didFinish: .offline(payment))
        enforceOfflineLimits()
    }

    private func failCurrent(_ error: Square.PaymentError, outcome: AttemptRecord.Outcome) {
        guard let flight = current else { return }
        current = nil
        store.attempts[flight.parameters.paymentAttemptID]?.outcome = outcome
        flight.delegate.paymentManager(self, didFail: nil, withError: error)
    }

    /// Processes an uploaded offline payment on Square's servers.
    private func charge(_ entry: DevicePayment, at now: Date) -> ServerPayment {
        let payment = entry.payment
        let card = payment.cardDetails
        let details = Square.CardPaymentDetails(
            status: .failed, entryMethod: card?.entryMethod ?? .unknown,
            card: card?.card.map { Square.Card(cardBrand: $0.cardBrand, last4: $0.last4, expMonth: 0, expYear: 0) },
            applicationIdentifier: card?.applicationIdentifier, applicationName: card?.applicationName)
        var server = ServerPayment(
            id: nextIdentifier(prefix: "sqpay_"), merchantID: entry.merchantID, locationID: entry.locationID,
            paymentAttemptID: entry.paymentAttemptID, idempotencyKey: entry.idempotencyKey,
            referenceID: payment.referenceID, amountMoney: payment.amountMoney, tipMoney: payment.tipMoney,
            status: .failed, cardDetails: details, createdAt: now, delayedUntil: nil, delayAction: entry.delayAction,
            localID: payment.localID)
        settle(&server, response: entry.issuerResponse, expired: entry.cardExpired, autocomplete: entry.autocomplete,
               delay: entry.delayDuration, at: now)
        store.serverPayments.append(server)
        return server
    }

    private func settle(_ server: inout ServerPayment, response: SimulatedCard.IssuerResponse, expired: Bool,
                        autocomplete: Bool, delay: TimeInterval, at now: Date) {
        if expired {
            server.declineReason = "EXPIRED_CARD"
            return
        }
        switch response {
        case .decline(let reason):
            server.declineReason = reason
        case .approve:
            server.status = autocomplete ? .completed : .approved
            server.cardDetails.status = autocomplete ? .captured : .authorized
            server.cardDetails.authResultCode = String(nextIdentifier(prefix: "", length: 6).uppercased())
            if !autocomplete { server.delayedUntil = now.addingTimeInterval(delay == 0 ? 36 * 60 * 60 : delay) }
        }
    }

    private func onlineCardDetails(_ card: SimulatedCard, status: Square.CardPaymentStatus)
        -> Square.CardPaymentDetails {
        Square.CardPaymentDetails(
            status: status, entryMethod: card.entryMethod,
            card: Square.Card(cardBrand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear),
            applicationIdentifier: card.entryMethod == .swiped ? nil : "A000000003101001",
            applicationName: card.applicationName)
    }

    private func isExpired(_ card: SimulatedCard, at now: Date) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: now)
        let (year, month) = (UInt(parts.year ?? 0), UInt(parts.month ?? 0))
        return card.expYear < year || (card.expYear == year && card.expMonth < month)
    }

    private func uuid() -> String {
        var generator = nextGenerator()
        return generator.uuidString()
    }

    private func updateReader(_ readerID: UInt, change: Square.ReaderChange, _ body: (inout Square.ReaderInfo) -> Void) {
        guard let index = store.readers.firstIndex(where: { $0.info.id == readerID }) else { return }
        body(&store.readers[index].info)
        let info = store.readers[index].info
        for observer in readerObservers { observer.readerDidChange(info, change: change) }
    }

    /// Past the offline window, or at the device cap, while offline: "the reader fails to connect" (seed). The
    /// reason reported, `notConnectedToInternet`, is the simulator's choice (UNVERIFIED).
    private func offlineLimitsReached() -> Bool {
        guard network.reportedStatus == .offline else { return false }
        let queued = store.devicePayments.filter { $0.payment.status == .queued }.count
        if queued >= store.configuration.deviceOfflinePaymentCap { return true }
        guard let since = store.offlineSince else { return false }
        return clock.now().timeIntervalSince(since) >= store.configuration.offlineWindow
    }

    private func enforceOfflineLimits() {
        guard offlineLimitsReached() else { return }
        for reader in store.readers where reader.info.statusInfo.status == .ready {
            setReaderStatus(reader.info.id, .readerUnavailable, reason: .notConnectedToInternet)
        }
    }

    private func restoreReadersAfterOutage() {
        for index in store.readers.indices {
            let reason = store.readers[index].info.statusInfo.unavailableReasonInfo?.reason
            guard reason == .notConnectedToInternet else { continue }
            store.readers[index].hasConnectedOnline = true
            setReaderStatus(store.readers[index].info.id, .ready)
        }
    }
}
