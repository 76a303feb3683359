package import Foundation
package import Tender
public import TenderSquare
package import TenderTesting

/// A faithful, deterministic model of the Mobile Payments SDK 2.5 on one device, and of Square's servers behind it.
///
/// What it models, from the reference and the offline-payments seed, including the unkind parts:
/// - sellers with their own ``Square/PaymentSettings`` (offline opt-in, per-payment and stored-total limits),
///   environment (Sandbox refuses offline) and card surcharge;
/// - `onlineOnly` / `autoDetect` / `offlineOnly`; the offline queue with `localID`, statuses moving queued →
///   uploaded → processed or failedToProcess, and failedToUpload; processed payments deleted from the device on the
///   SDK's schedule, read or not (``Configuration/processedRetention``);
/// - the 24-hour window counted from when the device was last online and the 1,000-payment cap counted across
///   every account and location (``Configuration``); the queue scoped to the authorized account and location and
///   kept across a sign-out; `paymentAttemptIdReused`; `paymentAlreadyInProgress`;
/// - declines that surface only at processing time; Interac and swiped cards refused offline; the network on, off,
///   flaky or timing out; reader status, battery and firmware changes, and the rule that a *new* reader must be
///   connected while online;
/// - faults: a request that never reaches Square, an answer lost after Square charged, a card presentation or an
///   authorization held mid-payment, a search that lags (``SquareSimulator/Fault``, ``Configuration/searchLag``);
/// - a relaunch that forgets every handle, delegate and observer the SDK handed out while keeping what the SDK
///   persists (``relaunch()``);
/// - Square's servers: `CompletePayment`, `CancelPayment`, `CancelPaymentByIdempotencyKey`, `ListPayments` with
///   lag, `GetPayment`, delayed capture on the clock (`delay_duration`, `delay_action`), and `RefundPayment`
///   (``server``).
///
/// It is driven, never timed: an injected ``TenderClock`` and a seed make every run the same. Uploads happen only in
/// ``syncOfflinePayments(maxCount:)``, which the tests and the demo call; time-based rules (deletion of processed
/// payments, delayed capture, search lag, refund settlement) are applied against the clock whenever the simulator
/// is used. ``serverPayments`` is the processor-side truth, and ``persist(to:)`` / ``init(restoringFrom:clock:network:)``
/// simulate a process restart.
public actor SquareSimulator: SquareClient, Square.AuthorizationManager, Square.PaymentManager,
    Square.OfflinePaymentQueue, Square.ReaderManager, Square.SettingsManager, Square.NetworkMonitor {

    /// What the SDK remembers of a payment attempt id (it persists it with the idempotency key).
    package struct AttemptRecord: Hashable, Sendable, Codable {
        /// What came of the attempt, as far as the device knows.
        package enum Outcome: String, Hashable, Sendable, Codable {
            /// Started; the device did not learn the outcome (a timeout, a crash, a relaunch).
            case started
            /// Charged online.
            case charged
            /// Stored offline.
            case stored
            /// Ended without a charge (declined, canceled, failed); the id may be used again with a new key.
            case ended
        }
        /// The idempotency key of the latest request of the attempt.
        package var idempotencyKey: String
        /// The outcome.
        package var outcome: Outcome
    }

    /// A reader the device has paired.
    package struct SimulatedReader: Hashable, Sendable, Codable {
        /// What the SDK reports.
        package var info: Square.ReaderInfo
        /// Whether it has ever connected while online (a new reader must; see the offline-payments doc).
        package var hasConnectedOnline: Bool
    }

    /// Everything the simulator persists: the servers' truth and the device's SDK store.
    package struct PersistedState: Hashable, Sendable, Codable {
        /// The seed of every id and draw.
        package var seed: UInt64
        /// The settings.
        package var configuration: Configuration
        /// The sellers Square knows.
        package var sellers: [Seller]
        /// The authorized seller's merchant id.
        package var authorizedMerchantID: String?
        /// The authorized location id.
        package var authorizedLocationID: String?
        /// Square's servers: payments.
        package var serverPayments: [ServerPayment] = []
        /// Square's servers: refunds.
        package var serverRefunds: [ServerRefund] = []
        /// The device's offline store, for every account.
        package var devicePayments: [DevicePayment] = []
        /// The SDK's payment attempt ids.
        package var attempts: [String: AttemptRecord] = [:]
        /// Paired readers.
        package var readers: [SimulatedReader] = []
        /// Readers in range, not yet paired.
        package var nearbyReaders: [Square.ReaderInfo] = []
        /// When the device was last online as the SDK counts it (``Configuration/offlineWindowRestart``).
        package var lastOnlineAt: Date?
        /// How many random draws were made (so a restored simulator continues the same sequence).
        package var draws: UInt64 = 0
        /// The next reader id.
        package var nextReaderID: UInt = 1
    }

    /// The payment the SDK is running now.
    struct InFlight {
        var parameters: Square.PaymentParameters
        var promptParameters: Square.PromptParameters
        var delegate: any Square.PaymentManagerDelegate
        var idempotencyKey: String
        var merchantID: String
        var location: Square.Location
        var surchargeBasisPoints: UInt
        var mayStoreOffline: Bool
        var mustStoreOffline: Bool
        var startedAt: Date
        var generation: Int
        /// Held by ``Fault``'s card hold until ``releaseHeld()``.
        var cardHeld = false
    }

    /// An authorization request that reached Square and waits for ``releaseHeld()`` before Square acts on it.
    struct HeldAuthorization {
        var flight: InFlight
        var card: SimulatedCard
        /// Square charges, but the answer is lost (``Fault/answerLostAfterCharge``).
        var answerLost: Bool
    }

    // MARK: State

    var store: PersistedState
    let clock: any TenderClock
    var network: SimulatedNetwork
    var presentedCard: SimulatedCard = .visaChip
    var pendingFaults: [Fault] = []
    /// Tap to Pay's device and Apple-account state, and blocking firmware updates in progress.
    var readerKinds = SquareReaderKindState()
    var uploadFaults: [UploadFault] = []
    /// How many of the next reads of the offline queue fail with `unexpected` (``injectQueueReadFailures(_:)``).
    var queueReadFailures = 0
    var refundFaults: [Square.PaymentRefundStatus] = []
    var completedRefundFailures: [TimeInterval] = []
    var holdNextCard = false
    var holdNextAuthorization = false
    var current: InFlight?
    var heldAuthorization: HeldAuthorization?
    /// Authorization requests on their way to Square when the app relaunched: the new process has no payment in
    /// progress, but Square still acts on them when released (``releaseHeld()``), with nobody to tell.
    var orphanedAuthorizations: [HeldAuthorization] = []
    /// Increases at every ``relaunch()``: handles and delegates of an earlier generation are dead.
    var generation = 0
    var pairingDelegate: (any Square.ReaderPairingDelegate)?
    var authorizationObservers: [any Square.AuthorizationStateObserver] = []
    var readerObservers: [any Square.ReaderObserver] = []
    var networkObservers: [any Square.NetworkObserver] = []
    var inputMethodObservers: [any Square.AvailableCardInputMethodsObserver] = []
    /// The card input methods the observers last heard of (none before any reader is ready).
    var announcedInputMethods: Square.CardInputMethods = []
    /// The presentation context of the latest payment (the simulator presents nothing; tests check it arrived).
    var lastPresentation: String?

    // MARK: Life cycle

    /// Creates a simulator.
    /// - Parameters:
    ///   - sellers: the accounts Square knows.
    ///   - configuration: the settings, including the unverified facts.
    ///   - seed: the seed of every id and every flaky-network draw.
    ///   - clock: the clock (use ``ManualClock`` in tests).
    ///   - network: the network at start.
    package init(sellers: [Seller], configuration: Configuration = Configuration(), seed: UInt64 = 1,
                clock: any TenderClock = ManualClock(), network: SimulatedNetwork = .online) {
        self.store = PersistedState(seed: seed, configuration: configuration, sellers: sellers)
        self.clock = clock
        self.network = network
        if network == .online { store.lastOnlineAt = clock.now() }
    }

    /// Re-creates a simulator from a file written by ``persist(to:)``: a simulated process restart. Square's
    /// servers, the device's offline store, the attempt ids, the authorization and the paired readers survive; the
    /// payment in progress, handles, observers and injected faults do not. Ids continue the seed's sequence.
    /// - Throws: if the file is missing or unreadable.
    package init(restoringFrom file: SimulatorStateFile<PersistedState>, clock: any TenderClock = ManualClock(),
                network: SimulatedNetwork = .online) throws {
        guard let saved = try file.load() else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: file.url.path])
        }
        self.store = saved
        self.clock = clock
        self.network = network
        if network == .online { store.lastOnlineAt = clock.now() }
    }

    /// Writes Square's servers and the device's store to `file` (atomically, owner-only).
    package func persist(to file: SimulatorStateFile<PersistedState>) throws { try file.save(store) }

    /// The persisted state now (after the clock's rules are applied).
    package var persistedState: PersistedState {
        applyTimedRules()
        return store
    }

    /// Applies every rule that runs on the clock: Square's delayed capture actions, refund settlement, and the
    /// SDK's deletion of processed payments.
    func applyTimedRules() {
        applyDelayedActions()
        settleRefunds()
        deleteProcessedPayments()
    }

    // MARK: Test controls

    /// Sets the card the reader is shown next (and for every payment after, until changed).
    package func setPresentedCard(_ card: SimulatedCard) { presentedCard = card }

    /// Changes the configuration.
    package func configure(_ change: (inout Configuration) -> Void) { change(&store.configuration) }

    /// Changes a seller's settings on Square's side.
    package func updateSeller(_ merchantID: String, _ change: (inout Seller) -> Void) {
        guard let index = store.sellers.firstIndex(where: { $0.merchantID == merchantID }) else { return }
        change(&store.sellers[index])
    }

    /// Presents a card to the payment waiting for one (``CardPresentation/waitForPresentCard`` or a held card).
    package func presentCard(_ card: SimulatedCard? = nil) {
        if let card { presentedCard = card }
        current?.cardHeld = false
        processCurrent()
    }

    /// The presentation context's name of the latest payment started.
    package var lastPresentationName: String? { lastPresentation }

    // MARK: Truth, for tests

    /// Every payment on Square's servers (the truth, not the lagging search).
    package var serverPayments: [ServerPayment] {
        applyTimedRules()
        return store.serverPayments
    }

    /// Every refund on Square's servers.
    package var serverRefunds: [ServerRefund] {
        applyTimedRules()
        return store.serverRefunds
    }

    /// Every offline payment on the device, for every account (the SDK itself shows only the authorized one's).
    package var devicePayments: [DevicePayment] {
        applyTimedRules()
        return store.devicePayments
    }

    /// How many times Square took money (approved or completed) under this payment attempt id.
    package func chargeCount(paymentAttemptID: String) -> Int {
        serverPayments.filter { $0.paymentAttemptID == paymentAttemptID && $0.isCharge }.count
    }

    /// How many times Square took money (approved or completed) for this reference, over every payment attempt of
    /// it (`referenceID`).
    package func chargeCount(referenceID: String) -> Int {
        serverPayments.filter { $0.referenceID == referenceID && $0.isCharge }.count
    }

    // MARK: SquareClient

    /// The simulator itself.
    package nonisolated var authorizationManager: any Square.AuthorizationManager { self }
    /// The simulator itself.
    package nonisolated var paymentManager: any Square.PaymentManager { self }
    /// The simulator itself.
    package nonisolated var readerManager: any Square.ReaderManager { self }
    /// The simulator itself.
    package nonisolated var settingsManager: any Square.SettingsManager { self }
    /// The simulator itself.
    package nonisolated var networkMonitor: any Square.NetworkMonitor { self }
    /// The simulator itself.
    package nonisolated var offlinePaymentQueue: any Square.OfflinePaymentQueue { self }
    /// Square's servers, as the app's backend reaches them: capture and void, the lookups, refunds.
    package nonisolated var server: Server { Server(simulator: self) }

    // MARK: SettingsManager

    /// The authorized seller's settings (not opted in when nobody is authorized).
    package var paymentSettings: Square.PaymentSettings { authorized?.seller.paymentSettings ?? .notOptedIn }

    /// The authorized seller's environment.
    package var sdkSettings: Square.SDKSettings {
        Square.SDKSettings(environment: authorized?.seller.environment ?? .production)
    }

    // MARK: Internals shared by the extensions

    /// The authorized seller and location.
    var authorized: (seller: Seller, location: Square.Location)? {
        guard let merchant = store.authorizedMerchantID,
              let seller = store.sellers.first(where: { $0.merchantID == merchant }),
              let location = seller.locations.first(where: { $0.id == store.authorizedLocationID }) else { return nil }
        return (seller, location)
    }

    func nextGenerator() -> SeededGenerator {
        store.draws += 1
        return SeededGenerator(seed: store.seed ^ (store.draws &* 0x9E37_79B9_7F4A_7C15))
    }

    func nextIdentifier(prefix: String, length: Int = 22) -> String {
        var generator = nextGenerator()
        return generator.identifier(prefix: prefix, length: length)
    }

    func uuid() -> String {
        var generator = nextGenerator()
        return generator.uuidString()
    }
}
