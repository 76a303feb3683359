import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderTesting

/// Days at a shop through `PaymentTerminal`, the Square adapter and simulator, and the SQLite ledger, counting every
/// sync the ledger asks of the operating system (SQLite's VFS counts them; nothing is timed). The ledger file is
/// created first (counted apart), then each day the app launches, opens the ledger and recovers (counted as
/// opening), takes the day's payments (the figure), and closes the ledger (counted as closing):
/// online sales with two declines and two delayed-capture sales, an outage with offline sales (one declined when
/// forwarded), the network back and every stored payment forwarded, the captures, two refunds, more sales.
struct SyncDay {
    let directory: URL
    var days = 3

    /// What one part of the day cost, summed over the days.
    struct Phase {
        let name: String
        /// How many operations (sales, forwarded payments, captures, refunds) it had over the days.
        var operations: Int
        var syncs: Int
        var perOperation: Double { operations > 0 ? Double(syncs) / Double(operations) : Double(syncs) }
    }

    struct Result {
        let days: Int
        /// Syncs of creating the file (the switch to WAL in a rollback journal, then the schema).
        let creationSyncs: Int
        /// Syncs of each day's opening: the file opened (with a checkpoint when its WAL has grown past 4 MiB),
        /// recovery, the reader connected.
        let openingSyncs: [Int]
        /// Syncs of each day's closing.
        let closingSyncs: [Int]
        /// The day's payments, phase by phase, summed over the days.
        let phases: [Phase]
        let sales: Int
        let refunds: Int
        /// WAL pages written per payment during the days (a page and its 24-byte frame header).
        let walPagesPerPayment: Double
        /// Directory syncs `strace` shows besides: SQLite syncs the directory inside the first sync of a `-journal`
        /// it creates and of every `-wal` a connection opens (counted once in the VFS, as the file's sync).
        /// Creation makes one of each; each opening one (the WAL synced at opening).
        var directorySyncs: Int { 2 + days }

        /// Sales and refunds: each is a payment with its own write-ahead record and outcome.
        var payments: Int { sales + refunds }
        /// Syncs during the days' payments.
        var syncs: Int { phases.reduce(0) { $0 + $1.syncs } }
        /// The figure: syncs during the days' payments per payment.
        var perPayment: Double { Double(syncs) / Double(payments) }
        /// Every sync of the run: creation, openings, payments, closings.
        var allSyncs: Int { creationSyncs + openingSyncs.reduce(0, +) + syncs + closingSyncs.reduce(0, +) }
        /// Every sync of the run per payment.
        var allInPerPayment: Double { Double(allSyncs) / Double(payments) }
    }

    func run() async throws -> Result {
        let url = directory.appendingPathComponent("day.sqlite")
        let clock = ManualClock()
        let created = try await SQLitePaymentLedger.openCountingSyncs(url: url)
        await created.close()
        let creationSyncs = created.durableSyncCount

        let shop = SyncShop(clock: clock)
        var totals: [Phase] = []
        var openings: [Int] = [], closings: [Int] = []
        var sales = 0, refunds = 0, walBytes = 0
        for day in 1...days {
            let ledger = try await SQLitePaymentLedger.openCountingSyncs(url: url)
            let processor = try await shop.launch(firstTime: day == 1)
            let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: shop.scope,
                                           limits: SyncShop.limits, clock: clock)
            let loop = Task { await terminal.run() }
            defer { loop.cancel() }
            await shop.simulator.setNetwork(.online)
            await terminal.handle(.networkStatusChanged(.online))
            _ = await terminal.recover()
            guard let reader = try await terminal.discoverReaders(timeout: 5).first else { throw BenchError("no reader") }
            _ = try await terminal.connectReader(reader)
            openings.append(ledger.durableSyncCount)
            let walAtOpening = ledger.walBytesWritten

            var mix = DayMix(prefix: "d\(day)-", shop: shop, processor: processor, terminal: terminal, ledger: ledger)
            let phases = try await mix.run()
            for phase in phases {
                if let index = totals.firstIndex(where: { $0.name == phase.name }) {
                    totals[index].operations += phase.operations
                    totals[index].syncs += phase.syncs
                } else {
                    totals.append(phase)
                }
            }
            sales += mix.sales
            refunds += mix.refunds
            walBytes += ledger.walBytesWritten - walAtOpening
            loop.cancel()
            let beforeClosing = ledger.durableSyncCount
            await ledger.close()
            closings.append(ledger.durableSyncCount - beforeClosing)
            clock.advance(by: 12 * 3_600)
        }
        return Result(days: days, creationSyncs: creationSyncs, openingSyncs: openings, closingSyncs: closings,
                      phases: totals, sales: sales, refunds: refunds,
                      walPagesPerPayment: Double(walBytes) / Double(4_096 + 24) / Double(sales + refunds))
    }
}

/// One day's payments, phase by phase.
struct DayMix {
    let prefix: String
    let shop: SyncShop
    let processor: SquareProcessor
    let terminal: PaymentTerminal
    let ledger: SQLitePaymentLedger
    private(set) var sales = 0
    private(set) var refunds = 0
    private var phases: [SyncDay.Phase] = []
    private var mark = 0

    init(prefix: String, shop: SyncShop, processor: SquareProcessor, terminal: PaymentTerminal,
         ledger: SQLitePaymentLedger) {
        self.prefix = prefix
        self.shop = shop
        self.processor = processor
        self.terminal = terminal
        self.ledger = ledger
        mark = ledger.durableSyncCount
    }

    private mutating func phase(_ name: String, _ operations: Int) {
        phases.append(SyncDay.Phase(name: name, operations: operations, syncs: ledger.durableSyncCount - mark))
        mark = ledger.durableSyncCount
    }

    @discardableResult
    private mutating func sale(_ amount: Int64, card: SquareSimulator.SimulatedCard = .visaChip,
                               capture: CaptureMode = .automatic, expect: PaymentState) async throws -> String {
        sales += 1
        await shop.simulator.setPresentedCard(card)
        let reference = "\(prefix)sale-\(sales)"
        let session = try await terminal.takePayment(PaymentRequest(
            amount: Money(minorUnits: amount, currency: .usd), reference: reference, captureMode: capture,
            offlinePolicy: .preferOnline))
        guard session.state == expect else { throw BenchError("\(reference) ended \(session.state), not \(expect)") }
        shop.clock.advance(by: 300)
        return reference
    }

    mutating func run() async throws -> [SyncDay.Phase] {
        var approved: [String] = []
        for index in 0..<16 { approved.append(try await sale(500 + Int64(index) * 37, expect: .succeeded)) }
        phase("online sales, approved", 16)
        try await sale(1_250, card: .declined, expect: .declined)
        try await sale(4_000, card: .insufficientFunds, expect: .declined)
        phase("online sales, declined", 2)
        var manual = [try await sale(6_400, capture: .manual, expect: .authorized)]
        manual.append(try await sale(8_100, capture: .manual, expect: .authorized))
        phase("online sales, authorized for a later capture", 2)

        await shop.simulator.setNetwork(.offline)
        await terminal.handle(.networkStatusChanged(.offline))
        for index in 0..<8 {
            try await sale(900 + Int64(index) * 530, card: index == 5 ? .insufficientFunds : .visaChip,
                           expect: .storedOffline)
        }
        phase("offline sales, stored", 8)

        await shop.simulator.setNetwork(.online)
        await terminal.handle(.networkStatusChanged(.online))
        try await shop.forwardEverything(processor, terminal: terminal)
        let offline = try await terminal.sessions().filter { $0.reference.hasPrefix(prefix) && $0.route == .offline }
        guard offline.count == 8, offline.filter({ $0.state == .declinedAfterForwarding }).count == 1 else {
            throw BenchError("forwarding ended \(offline.map(\.state))")
        }
        phase("forwarding results, one per stored payment", 8)

        for reference in manual {
            let captured = try await terminal.capture(reference: reference)
            guard captured.state == .succeeded else { throw BenchError("\(reference) captured as \(captured.state)") }
        }
        phase("delayed captures", manual.count)

        try await refund(approved[0], amount: nil)
        try await refund(approved[2], amount: Money(minorUnits: 200, currency: .usd))
        phase("refunds (one whole, one partial)", 2)

        for index in 0..<10 { try await sale(300 + Int64(index) * 71, expect: .succeeded) }
        phase("online sales, afternoon", 10)
        return phases
    }

    /// Refunds through the facade; Square settles a refund some seconds later, which the facade's poll records.
    private mutating func refund(_ reference: String, amount: Money?) async throws {
        refunds += 1
        var record = try await terminal.refund(reference: reference, amount: amount)
        for _ in 0..<20 where record.status == .pending {
            shop.clock.advance(by: 15)
            _ = await terminal.pollOnce()
            record = try await ledger.refunds(reference: reference, scope: shop.scope).last ?? record
        }
        guard record.status == .succeeded else { throw BenchError("refund of \(reference) ended \(record.status)") }
    }
}
