import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator

/// The fixed accounts every life of the harness uses.
enum Accounts {
    static let stripeScope = LedgerScope(merchantID: "acct_chaos_stripe", locationID: "tml_chaos")
    static let squareScope = LedgerScope(merchantID: "MLQ_CHAOS", locationID: "L_CHAOS")
    static let squareToken = "EAAA_chaos"

    static let seller = SquareSimulator.Seller(
        merchantID: "MLQ_CHAOS", accessToken: squareToken,
        locations: [Square.Location(id: "L_CHAOS", name: "Chaos Shop", currency: .USD)],
        paymentSettings: Square.PaymentSettings(
            isOfflineProcessingAllowed: true,
            offlineTransactionAmountLimit: Square.Money(amount: 200_00, currency: .USD),
            offlineTotalStoredAmountLimit: Square.Money(amount: 100_000_000, currency: .USD)))

    static var stripeConfiguration: Stripe.SimulatorConfiguration {
        var configuration = Stripe.SimulatorConfiguration(offlineEnabled: true)
        configuration.forwardsWhenNetworkReturns = false  // forwarding is driven step by step
        configuration.backgroundForwardingDelay = nil
        configuration.timeoutOutcome = .processedResponseLost
        return configuration
    }

    static var squareConfiguration: SquareSimulator.Configuration {
        var configuration = SquareSimulator.Configuration()
        configuration.deviceOfflinePaymentCap = 100_000
        return configuration
    }

    /// The app's own offline limits (the processors' are merged in by the facade).
    static let limits = OfflineRiskLimits.single(perPayment: Money(minorUnits: 150_00, currency: .usd),
                                                 storedTotal: Money(minorUnits: 100_000_000, currency: .usd))

    /// Simulated time at the start of everything (1 Jan 2026).
    static let epoch = Date(timeIntervalSince1970: 1_767_225_600)
}

/// Both processors, their simulators (persisted in `directory` when given) and their facades over one ledger.
final class World: @unchecked Sendable {
    let clock: ManualClock
    let ledger: any PaymentLedger
    let sqlite: SQLitePaymentLedger?
    let stripeStore: StripeStore
    let squareStore: SquareStore
    let stripeClient: PersistingStripeClient
    let squareClient: PersistingSquareClient
    let stripe: StripeProcessor
    let square: SquareProcessor
    let stripeTerminal: PaymentTerminal
    let squareTerminal: PaymentTerminal
    private var pumps: [Task<Void, Never>] = []

    var stripeSimulator: StripeSimulator { stripeStore.simulator }
    var squareSimulator: SquareSimulator { squareStore.simulator }

    /// Opens (or creates) the world in `directory`: simulators restored from their files, the SQLite ledger opened.
    init(directory: URL, seed: UInt64, clock: ManualClock, persistsSimulators: Bool = true) throws {
        self.clock = clock
        let stripeFile = SimulatorStateFile<StripeSimulator.PersistedState>(url: directory.appendingPathComponent("stripe.json"))
        let squareFile = SimulatorStateFile<SquareSimulator.PersistedState>(url: directory.appendingPathComponent("square.json"))
        let stripeSimulator: StripeSimulator
        if FileManager.default.fileExists(atPath: stripeFile.url.path) {
            stripeSimulator = try StripeSimulator(restoringFrom: stripeFile, configuration: Accounts.stripeConfiguration,
                                                  clock: clock)
        } else {
            stripeSimulator = StripeSimulator(configuration: Accounts.stripeConfiguration, seed: seed, clock: clock)
        }
        let squareSimulator: SquareSimulator
        if FileManager.default.fileExists(atPath: squareFile.url.path) {
            squareSimulator = try SquareSimulator(restoringFrom: squareFile, clock: clock)
        } else {
            squareSimulator = SquareSimulator(sellers: [Accounts.seller], configuration: Accounts.squareConfiguration,
                                              seed: seed &+ 7, clock: clock)
        }
        stripeStore = StripeStore(simulator: stripeSimulator, file: persistsSimulators ? stripeFile : nil)
        squareStore = SquareStore(simulator: squareSimulator, file: persistsSimulators ? squareFile : nil)
        stripeClient = PersistingStripeClient(store: stripeStore)
        squareClient = PersistingSquareClient(store: squareStore)
        let stripeServer = PersistingStripeServer(store: stripeStore)
        stripe = StripeProcessor(client: stripeClient, captureService: stripeServer, serverLookup: stripeServer,
                                 clock: clock, simulatedReaders: true)
        var squareConfiguration = SquareProcessor.Configuration()
        squareConfiguration.readersAreSimulated = true
        squareConfiguration.deviceOfflinePaymentCap = 100_000
        let squareServer = PersistingSquareServer(store: squareStore)
        square = SquareProcessor(client: squareClient, captureService: squareServer, lookup: squareServer,
                                 configuration: squareConfiguration, clock: clock)
        let opened = try SQLitePaymentLedger(url: directory.appendingPathComponent("ledger.sqlite"))
        sqlite = opened
        ledger = opened
        stripeTerminal = PaymentTerminal(processor: stripe, ledger: ledger, scope: Accounts.stripeScope,
                                         limits: Accounts.limits, clock: clock)
        squareTerminal = PaymentTerminal(processor: square, ledger: ledger, scope: Accounts.squareScope,
                                         limits: Accounts.limits, clock: clock)
    }

    var terminals: [(name: String, terminal: PaymentTerminal)] {
        [("stripe", stripeTerminal), ("square", squareTerminal)]
    }

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
        for (_, terminal) in terminals {
            let readers = try await terminal.discoverReaders(timeout: 1)
            guard let reader = readers.first else {
                throw PaymentError(.readerNotConnected, recovery: .reconnectReader, phase: .readerConnection,
                                   message: "no reader found")
            }
            _ = try await terminal.connectReader(reader)
        }
    }

    /// Starts consuming both processors' events (forwarding results) into the facades.
    func startEventPumps() {
        for (_, terminal) in terminals {
            pumps.append(Task { await terminal.run() })
        }
    }

    func stopEventPumps() {
        for pump in pumps { pump.cancel() }
        pumps.removeAll()
    }

    func setStripeNetwork(_ mode: Stripe.SimulatedOfflineMode) async {
        await stripeSimulator.setSimulatedOfflineMode(mode)
    }

    func setSquareNetwork(_ network: SimulatedNetwork) async {
        await squareSimulator.setNetwork(network)
        await squareStore.persist()  // the offline window's start is device state
    }

    func close() async {
        stopEventPumps()
        await sqlite?.close()
    }

    // MARK: Processor-side truth

    struct Truth {
        var acceptedCharges = 0
        var amount: Int64 = 0
    }

    /// What Stripe's servers hold as money taken, by reference.
    func stripeTruth() async -> [String: Truth] {
        var truth: [String: Truth] = [:]
        for charge in await stripeSimulator.serverCharges {
            guard let reference = charge.reference else { continue }
            var entry = truth[reference] ?? Truth()
            if charge.status == .succeeded, !charge.released {
                entry.acceptedCharges += 1
                entry.amount += Int64(charge.amount)
            }
            truth[reference] = entry
        }
        return truth
    }

    /// What Square's servers hold as money taken, by reference.
    func squareTruth() async -> [String: Truth] {
        var truth: [String: Truth] = [:]
        for payment in await squareSimulator.serverPayments {
            // Every vendor payment (attempt) of a reference counts: `ref`, `ref#2`… share its referenceID.
            let reference = payment.referenceID ?? payment.paymentAttemptID
            var entry = truth[reference] ?? Truth()
            if payment.status == .approved || payment.status == .completed {
                entry.acceptedCharges += 1
                entry.amount += Int64(payment.amountMoney.amount) + Int64(payment.tipMoney?.amount ?? 0)
            }
            truth[reference] = entry
        }
        return truth
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
}

/// Counts compared between a ledger and the processors' truth.
struct Tally: Codable, Sendable {
    var lost = 0
    var duplicated = 0
    var crashes = 0
    var mismatches = 0
    var chargesChecked = 0
    var payments = 0
    var notes: [String] = []
    /// The app could not start on these files (the kill test then starts a fresh world).
    var worldUnusable = false

    /// Adds only the failures and notes of `other` (a second look at payments already counted).
    mutating func addFailures(_ other: Tally) {
        lost += other.lost
        duplicated += other.duplicated
        crashes += other.crashes
        mismatches += other.mismatches
        for note in other.notes { self.note(note) }
    }

    mutating func add(_ other: Tally) {
        lost += other.lost
        duplicated += other.duplicated
        crashes += other.crashes
        mismatches += other.mismatches
        chargesChecked += other.chargesChecked
        payments += other.payments
        for note in other.notes { self.note(note) }
    }

    /// Keeps up to 20 distinct notes.
    mutating func note(_ text: String) { if notes.count < 20, !notes.contains(text) { notes.append(text) } }
}

/// Compares every reference of both scopes with the processors' truth. A session money-taken in the ledger
/// (authorized, succeeded, forwarded, stored) without a charge is lost; more than one charge is duplicated; a
/// charge the ledger does not show as taken, a different amount, or a session not final (outcome unknown,
/// stored, in flight) is a mismatch. Stored payments left on a device are lost.
func compare(world: World, label: String, prefix: String = "") async -> Tally {
    var tally = Tally()
    let taken: Set<PaymentState> = [.authorized, .succeeded, .forwarded]
    let settledOrHeld: Set<PaymentState> = [.authorized, .succeeded, .forwarded, .declined, .declinedAfterForwarding,
                                             .failed, .canceled, .failedToForward]
    let sides: [(String, PaymentTerminal, [String: World.Truth])] = [
        ("stripe", world.stripeTerminal, await world.stripeTruth()),
        ("square", world.squareTerminal, await world.squareTruth()),
    ]
    for (name, terminal, truth) in sides {
        let sessions: [PaymentSession]
        do { sessions = try await terminal.sessions() } catch {
            tally.crashes += 1
            tally.note("\(label) \(name): ledger unreadable: \(error)")
            continue
        }
        tally.payments += sessions.filter { $0.reference.hasPrefix(prefix) }.count
        var seen = Set<String>()
        for session in sessions where session.reference.hasPrefix(prefix) {
            seen.insert(session.reference)
            let fact = truth[session.reference] ?? World.Truth()
            tally.chargesChecked += fact.acceptedCharges
            if fact.acceptedCharges > 1 {
                tally.duplicated += fact.acceptedCharges - 1
                tally.note("\(label) \(name) \(session.reference): charged \(fact.acceptedCharges) times")
            }
            let ledgerTaken = taken.contains(session.state) || session.state == .storedOffline
            if ledgerTaken, fact.acceptedCharges == 0 {
                tally.lost += 1
                tally.note("\(label) \(name) \(session.reference): ledger \(session.state), processor has no charge")
            } else if !ledgerTaken, fact.acceptedCharges > 0 {
                tally.mismatches += 1
                tally.note("\(label) \(name) \(session.reference): charged but ledger \(session.state)")
            } else if ledgerTaken, fact.amount != session.total.minorUnits * Int64(max(1, fact.acceptedCharges)) {
                tally.mismatches += 1
                tally.note("\(label) \(name) \(session.reference): amount \(session.total.minorUnits) vs charged \(fact.amount)")
            }
            if !settledOrHeld.contains(session.state) {
                tally.mismatches += 1
                tally.note("\(label) \(name) \(session.reference): left \(session.state) with the processor reachable")
            }
        }
        for (reference, fact) in truth where fact.acceptedCharges > 0 && reference.hasPrefix(prefix) && !seen.contains(reference) {
            tally.mismatches += 1
            tally.chargesChecked += fact.acceptedCharges
            tally.note("\(label) \(name) \(reference): charged, unknown to the ledger")
        }
    }
    let left = await world.storedOnDevices()
    if left.stripe + left.square > 0 {
        tally.lost += left.stripe + left.square
        tally.note("\(label): \(left.stripe) Stripe and \(left.square) Square payments still stored on the device")
    }
    return tally
}
