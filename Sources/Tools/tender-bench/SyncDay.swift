import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator

/// The simulated Stripe server's capture and void, for the day's manual captures.
private struct SimulatorServer: PaymentCaptureService {
    let simulator: StripeSimulator
    func capture(processor: String, reference: String, processorPaymentID: String, amount: Money) async throws {
        try await simulator.capture(stripeId: processorPaymentID, amount: UInt(amount.minorUnits))
    }
    func void(processor: String, reference: String, processorPaymentID: String) async throws {
        try await simulator.cancelOnServer(stripeId: processorPaymentID)
    }
}

/// A realistic day at a shop through `PaymentTerminal`, the Stripe adapter and simulator, and the SQLite ledger,
/// counting every sync the ledger asks of the operating system (SQLite's VFS counts them; nothing is timed): online
/// sales with two declines and two manual-capture sales, an outage with offline sales, the network back and every
/// stored payment forwarded, the captures, more sales, and closing the ledger. The ledger file is the previous day's
/// (created and closed first), as on a device.
struct SyncDay {
    let directory: URL

    /// What one part of the day cost.
    struct Phase {
        let name: String
        /// How many operations (sales, forwarded payments, captures) it had; 0 for the close.
        let operations: Int
        let syncs: Int
        var perOperation: Double { operations > 0 ? Double(syncs) / Double(operations) : Double(syncs) }
    }

    struct Result {
        /// Syncs of the previous day's ledger, made before the day (not part of the figure; for checking the count
        /// against `strace`, which sees the whole process).
        let preparationSyncs: Int
        let payments: Int
        let syncs: Int
        let phases: [Phase]
        var perPayment: Double { Double(syncs) / Double(payments) }
    }

    func run() async throws -> Result {
        let scope = LedgerScope(merchantID: "acct_day", locationID: "tml_day")
        let url = directory.appendingPathComponent("day.sqlite")
        let clock = ManualClock()
        let yesterday = try SQLitePaymentLedger(url: url)
        try await yesterday.insertBatch(fixtureSessions(50, state: .succeeded, scope: scope, prefix: "yesterday", clock: clock))
        await yesterday.close()
        let preparationSyncs = yesterday.durableSyncCount

        var configuration = Stripe.SimulatorConfiguration(offlineEnabled: true)
        configuration.forwardsWhenNetworkReturns = true
        let simulator = StripeSimulator(configuration: configuration, seed: 7, clock: clock)
        let processor = StripeProcessor(client: simulator, captureService: SimulatorServer(simulator: simulator), clock: clock,
                                        simulatedReaders: true)
        let ledger = try SQLitePaymentLedger(url: url)
        let limits = OfflineRiskLimits(perPaymentMaximum: [.usd: 150_00], storedTotalMaximum: [.usd: 500_00],
                                       storedCountMaximum: 20, oldestStoredAgeMaximum: 12 * 3_600)
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: scope, limits: limits, clock: clock)
        let loop = Task { await terminal.run() }
        defer { loop.cancel() }
        await terminal.handle(.networkStatusChanged(.online))
        _ = await terminal.recover()
        guard let reader = try await terminal.discoverReaders(timeout: 5).first else { throw BenchError("no reader") }
        _ = try await terminal.connectReader(reader)

        var phases: [Phase] = []
        var mark = ledger.durableSyncCount
        func phase(_ name: String, _ operations: Int) {
            phases.append(Phase(name: name, operations: operations, syncs: ledger.durableSyncCount - mark))
            mark = ledger.durableSyncCount
        }
        phase("opening and recovery", 0)

        var payments = 0
        var manual: [String] = []
        func sale(_ amount: Int64, card: Stripe.SimulatedCardType = .visa, capture: CaptureMode = .automatic,
                  expect: PaymentState) async throws {
            payments += 1
            await simulator.updateConfiguration { $0.simulatedCard = card }
            let session = try await terminal.takePayment(PaymentRequest(
                amount: Money(minorUnits: amount, currency: .usd), reference: "sale-\(payments)", captureMode: capture,
                offlinePolicy: .preferOnline))
            guard session.state == expect else { throw BenchError("sale-\(payments) ended \(session.state), not \(expect)") }
            if capture == .manual { manual.append(session.reference) }
            clock.advance(by: 300)
        }

        for index in 0..<20 { try await sale(500 + Int64(index) * 37, expect: .succeeded) }
        phase("online sales, approved", 20)
        try await sale(1_250, card: .chargeDeclined, expect: .declined)
        try await sale(4_000, card: .chargeDeclinedInsufficientFunds, expect: .declined)
        phase("online sales, declined", 2)
        try await sale(6_400, capture: .manual, expect: .authorized)
        try await sale(8_100, capture: .manual, expect: .authorized)
        phase("online sales, authorized for a later capture", 2)

        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        await terminal.handle(.networkStatusChanged(.offline))
        for index in 0..<12 { try await sale(900 + Int64(index) * 53, expect: .storedOffline) }
        phase("offline sales, stored", 12)

        await simulator.setSimulatedOfflineMode(.disabled)  // forwards every stored payment, one result each
        await terminal.handle(.networkStatusChanged(.online))
        for _ in 0..<5_000 where try await ledger.storedSummary(scope: scope).count > 0 {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        guard try await ledger.storedSummary(scope: scope).count == 0 else { throw BenchError("forwarding not recorded") }
        phase("forwarding results, one per stored payment", 12)

        for reference in manual { _ = try await terminal.capture(reference: reference) }
        phase("manual captures", manual.count)
        for index in 0..<12 { try await sale(300 + Int64(index) * 71, expect: .succeeded) }
        phase("online sales, afternoon", 12)

        await ledger.close()
        phase("closing (checkpoint)", 0)
        return Result(preparationSyncs: preparationSyncs, payments: payments, syncs: phases.reduce(0) { $0 + $1.syncs }, phases: phases)
    }
}
