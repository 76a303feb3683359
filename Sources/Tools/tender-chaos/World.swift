import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
@_spi(Testing) import TenderStripe
import TenderStripeSimulator
import TenderTesting

/// Both processors, their simulators (persisted in `directory` when asked) and their facades over one SQLite ledger,
/// as one launch of the point-of-sale app has them. A simulator can be relaunched within the launch
/// (``relaunchStripe()``, ``relaunchSquare()``): the SDK forgets every handle, and the app builds a new adapter and a
/// new facade over the same ledger, as it would after the SDK's process was restarted.
final class World: @unchecked Sendable {
    let time: WorldTime
    var clock: ManualClock { time.clock }
    let ledger: any PaymentLedger
    let sqlite: SQLitePaymentLedger?
    let lags: SearchLags
    let stripeStore: StripeStore
    let squareStore: SquareStore
    let stripeServer: PersistingStripeServer
    let squareServer: PersistingSquareServer
    let squareClient: PersistingSquareClient
    private(set) var stripeClient: PersistingStripeClient
    private(set) var stripe: StripeProcessor
    private(set) var square: SquareProcessor
    private(set) var stripeTerminal: PaymentTerminal
    private(set) var squareTerminal: PaymentTerminal
    private var pumps: [String: Task<Void, Never>] = [:]

    var stripeSimulator: StripeSimulator { stripeStore.simulator }
    var squareSimulator: SquareSimulator { squareStore.simulator }

    /// Opens (or creates) the world in `directory`: its simulated time resumed `gap` seconds after the last launch
    /// stopped (``WorldTime``), simulators restored from their files with this launch's search lags, the SQLite
    /// ledger opened. With `persistsSimulators: false` neither the simulators nor the time are written.
    /// How the app opens its ledger unless told otherwise: Tender's SQLite ledger on SQLite's default VFS.
    static let defaultLedger: @Sendable (URL) async throws -> SQLitePaymentLedger = { try await SQLitePaymentLedger.open(url: $0) }

    init(directory: URL, seed: UInt64, gap: Double = 0, lags: SearchLags = .defaults,
         persistsSimulators: Bool = true,
         openLedger: @Sendable (URL) async throws -> SQLitePaymentLedger = World.defaultLedger) async throws {
        time = WorldTime(directory: directory, gap: gap, persists: persistsSimulators)
        let clock = time.clock
        self.lags = lags
        let stripeFile = SimulatorStateFile<StripeSimulator.PersistedState>(url: directory.appendingPathComponent("stripe.json"))
        let squareFile = SimulatorStateFile<SquareSimulator.PersistedState>(url: directory.appendingPathComponent("square.json"))
        let stripeConfiguration = Accounts.stripeConfiguration(searchLag: lags.stripe)
        let stripeSimulator: StripeSimulator
        if FileManager.default.fileExists(atPath: stripeFile.url.path) {
            stripeSimulator = try StripeSimulator(restoringFrom: stripeFile, configuration: stripeConfiguration,
                                                  clock: clock)
        } else {
            stripeSimulator = StripeSimulator(configuration: stripeConfiguration, seed: seed, clock: clock)
        }
        let squareSimulator: SquareSimulator
        if FileManager.default.fileExists(atPath: squareFile.url.path) {
            squareSimulator = try SquareSimulator(restoringFrom: squareFile, clock: clock)
        } else {
            squareSimulator = SquareSimulator(sellers: [Accounts.seller], configuration: Accounts.squareConfiguration,
                                              seed: seed &+ 7, clock: clock)
        }
        await squareSimulator.configure { $0.searchLag = lags.square }
        stripeStore = StripeStore(simulator: stripeSimulator, file: persistsSimulators ? stripeFile : nil)
        squareStore = SquareStore(simulator: squareSimulator, file: persistsSimulators ? squareFile : nil)
        stripeServer = PersistingStripeServer(store: stripeStore)
        squareServer = PersistingSquareServer(store: squareStore)
        stripeClient = PersistingStripeClient(store: stripeStore)
        squareClient = PersistingSquareClient(store: squareStore)
        let opened = try await openLedger(directory.appendingPathComponent("ledger.sqlite"))
        sqlite = opened
        ledger = opened
        stripe = Self.stripeProcessor(client: stripeClient, server: stripeServer, clock: clock)
        square = Self.squareProcessor(client: squareClient, server: squareServer, clock: clock)
        stripeTerminal = Self.terminal(stripe, ledger: opened, scope: Accounts.stripeScope, clock: clock)
        squareTerminal = Self.terminal(square, ledger: opened, scope: Accounts.squareScope, clock: clock)
    }

    /// One launch of the app in the kill test: the world opened a seeded pause after the last launch stopped, with
    /// seeded search lags (never zero), network on and both readers connected.
    static func launch(directory: URL, seed: UInt64, random: inout SeededGenerator,
                       openLedger: @Sendable (URL) async throws -> SQLitePaymentLedger = World.defaultLedger) async throws
        -> World {
        let lags = SearchLags.drawn(&random)
        let world = try await World(directory: directory, seed: seed, gap: WorldTime.gap(&random), lags: lags,
                                    openLedger: openLedger)
        try await world.connectReaders()
        return world
    }

    private static func stripeProcessor(client: PersistingStripeClient, server: PersistingStripeServer,
                                        clock: ManualClock) -> StripeProcessor {
        StripeProcessor(client: client, captureService: server, serverLookup: server, refundService: server,
                        configuration: .withSimulatedReaders, clock: clock)
    }

    private static func squareProcessor(client: PersistingSquareClient, server: PersistingSquareServer,
                                        clock: ManualClock) -> SquareProcessor {
        SquareProcessor(client: client, captureService: server, serverLookup: server, refundService: server,
                        configuration: Accounts.squareAdapterConfiguration, clock: clock)
    }

    private static func terminal(_ processor: any PaymentProcessor, ledger: any PaymentLedger, scope: LedgerScope,
                                 clock: ManualClock) -> PaymentTerminal {
        PaymentTerminal(processor: processor, ledger: ledger, scope: scope, limits: Accounts.limits, clock: clock)
    }

    /// Moves simulated time (recorded first, see ``WorldTime``).
    func advance(by seconds: Double) { time.advance(by: seconds) }

    var terminals: [(name: String, terminal: PaymentTerminal)] {
        [("stripe", stripeTerminal), ("square", squareTerminal)]
    }

    func terminal(stripe isStripe: Bool) -> PaymentTerminal { isStripe ? stripeTerminal : squareTerminal }

    /// The adapters' consistency windows: how long an empty search proves nothing.
    var longestConsistencyWindow: Double {
        max(stripe.configuration.searchConsistencyWindow, Accounts.squareAdapterConfiguration.searchConsistencyWindow)
    }

    // MARK: Launch

    /// Network on for both, Square authorized (first life only) and both readers connected.
    func connectReaders() async throws {
        await stripeSimulator.setSimulatedOfflineMode(.disabled)
        await squareSimulator.setNetwork(.online)
        if await squareSimulator.persistedState.authorizedMerchantID == nil {
            try await square.authorize(accessToken: Accounts.squareToken, locationID: Accounts.squareScope.locationID)
        }
        if await squareSimulator.persistedState.readers.isEmpty, await squareSimulator.persistedState.nearbyReaders.isEmpty {
            await squareSimulator.addNearbyReader()
            await squareStore.persist()
        }
        await square.startObserving()
        for (_, terminal) in terminals { try await connect(terminal) }
    }

    private func connect(_ terminal: PaymentTerminal) async throws {
        let readers = try await terminal.discoverReaders(timeout: 1)
        guard let reader = readers.first else {
            throw PaymentError(.readerNotConnected, recovery: .reconnectReader, phase: .readerConnection,
                               message: "no reader found")
        }
        _ = try await terminal.connectReader(reader)
    }

    /// Starts consuming both processors' events (forwarding results) into the facades.
    func startEventPumps() {
        for (name, terminal) in terminals { startPump(name, terminal) }
    }

    private func startPump(_ name: String, _ terminal: PaymentTerminal) {
        pumps[name]?.cancel()
        pumps[name] = Task { await terminal.run() }
    }

    func stopEventPumps() {
        for pump in pumps.values { pump.cancel() }
        pumps.removeAll()
    }

    // MARK: Relaunching one SDK within the launch

    /// Stripe's SDK process restarts: it forgets every object handle, its reader connection and its delegates. The
    /// app builds a new adapter and facade over the same ledger, connects the reader again and recovers. Call it
    /// with no payment in flight (a process that is gone answers nobody).
    func relaunchStripe() async throws -> RecoveryReport {
        await stripeSimulator.relaunch()
        stripeClient = PersistingStripeClient(store: stripeStore)
        stripe = Self.stripeProcessor(client: stripeClient, server: stripeServer, clock: clock)
        stripeTerminal = Self.terminal(stripe, ledger: ledger, scope: Accounts.stripeScope, clock: clock)
        try await connect(stripeTerminal)
        let report = await stripeTerminal.recover()
        if pumps["stripe"] != nil { startPump("stripe", stripeTerminal) }
        return report
    }

    /// Square's SDK process restarts: handles, delegates and observers are forgotten; its store survives.
    func relaunchSquare() async throws -> RecoveryReport {
        await squareSimulator.relaunch()
        await square.stopObserving()
        square = Self.squareProcessor(client: squareClient, server: squareServer, clock: clock)
        squareTerminal = Self.terminal(square, ledger: ledger, scope: Accounts.squareScope, clock: clock)
        await square.startObserving()
        try await connect(squareTerminal)
        let report = await squareTerminal.recover()
        if pumps["square"] != nil { startPump("square", squareTerminal) }
        return report
    }

    // MARK: Network and forwarding

    func setStripeNetwork(_ mode: Stripe.SimulatedOfflineMode) async {
        await stripeSimulator.setSimulatedOfflineMode(mode)
    }

    func setSquareNetwork(_ network: SimulatedNetwork) async {
        await squareSimulator.setNetwork(network)
        await squareStore.persist()  // the offline window's start is device state
    }

    /// Payments still held on a device, not yet on the processor's servers.
    func storedOnDevices() async -> (stripe: Int, square: Int) {
        let stripe = await stripeSimulator.storedPayments.count
        let square = await squareSimulator.devicePayments.filter {
            [.queued, .uploaded, .unknown].contains($0.payment.status)
        }.count
        return (stripe, square)
    }

    /// Forwards everything still on the devices with the network on, persisting each step.
    func forwardEverything() async {
        await setStripeNetwork(.disabled)
        await setSquareNetwork(.online)
        await stripeClient.forward(maxCount: nil)
        for _ in 0..<8 {
            let left = await storedOnDevices().square
            await squareClient.sync(maxCount: .max, processor: square)
            if left == 0 { break }
        }
    }

    /// Lets a held card, confirmation or authorization proceed on one simulator, with no read of the vendor's
    /// state running (``VendorGate``), and persists before anything can read what the vendor did: an answer that
    /// reaches the adapter also comes after a persist of its own, but after a relaunch nobody hears the answer.
    /// Returns whether something was held.
    @discardableResult
    func releaseHeld(stripe isStripe: Bool) async -> Bool {
        if isStripe { return await stripeStore.act { await stripeSimulator.releaseHeld() } }
        return await squareStore.act {
            let holding = await squareSimulator.isHolding
            if holding { await squareSimulator.releaseHeld() }
            return holding
        }
    }

    /// Whether one simulator holds a card presentation or an authorization.
    func isHolding(stripe isStripe: Bool) async -> Bool {
        isStripe ? await stripeSimulator.isHolding : await squareSimulator.isHolding
    }

    func close() async {
        stopEventPumps()
        await sqlite?.close()
    }
}
