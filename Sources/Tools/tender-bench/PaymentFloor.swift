import Foundation
import Tender
@_spi(Testing) import TenderStripe
import TenderStripeSimulator
import TenderTesting

/// The least a durable payment can cost: the vendor's calls (the simulator's `StripeClient` methods, called
/// directly) and two durable commits (`synchronous=FULL`) of plain SQLite — the write-ahead record before the
/// vendor is asked, the outcome after — writing the same bytes the ledger records for the payment (the session at
/// creation and at its outcome, encoded as the ledger encodes them).
///
/// `indexed`: the same, with the two secondary indexes any ledger of this design needs and the plain floor does not
/// have — payments by state (what recovery and the queue poller look for) and by processor payment id (what a
/// forwarding result names) — and those two columns written. Reported as `payment_floor_indexed_ratio`: what those
/// indexes alone cost, measured against the floor, to show how much of `payment_floor_ratio`'s target any ledger
/// that can answer those queries leaves.
final class PaymentFloorBaseline {
    private let simulator: StripeSimulator
    private let raw: RawSQLite
    private let insert: OpaquePointer
    private let update: OpaquePointer
    private var index = 0
    private let indexed: Bool
    /// The two records, the session's reference replaced by `{ref}`.
    let created: String
    let outcome: String
    /// The records cut at each `{ref}`: a payment's bytes are the pieces joined by its reference (a concatenation,
    /// not a search-and-replace through Foundation, whose cost the floor would otherwise count as its own).
    private let createdPieces: [String]
    private let outcomePieces: [String]

    init(simulator: StripeSimulator, path: String, created: String, outcome: String, indexed: Bool = false)
        async throws {
        self.simulator = simulator
        self.indexed = indexed
        self.created = created
        self.outcome = outcome
        createdPieces = created.components(separatedBy: "{ref}")
        outcomePieces = outcome.components(separatedBy: "{ref}")
        raw = try RawSQLite(path: path, durable: true)
        if indexed {
            try raw.exec("""
                CREATE TABLE payments (reference TEXT PRIMARY KEY, state TEXT NOT NULL, processor_id TEXT,
                                       session TEXT NOT NULL);
                CREATE INDEX payments_by_state ON payments (state);
                CREATE INDEX payments_by_processor_id ON payments (processor_id) WHERE processor_id IS NOT NULL;
                """)
            insert = try raw.prepare("INSERT INTO payments (reference, state, session) VALUES (?, 'created', ?)")
            update = try raw.prepare(
                "UPDATE payments SET session = ?, state = 'succeeded', processor_id = ? WHERE reference = ?")
        } else {
            try raw.exec("CREATE TABLE payments (reference TEXT PRIMARY KEY, session TEXT NOT NULL)")
            insert = try raw.prepare("INSERT INTO payments (reference, session) VALUES (?, ?)")
            update = try raw.prepare("UPDATE payments SET session = ? WHERE reference = ?")
        }
        let reader = Stripe.SimulatorConfiguration.defaultReaders[0]
        _ = try await simulator.connectReader(reader, connectionConfig: Stripe.BluetoothConnectionConfiguration(
            locationId: "tml_bench", autoReconnectOnUnexpectedDisconnect: true, delegate: SilentReaderDelegate()))
    }

    deinit {
        RawSQLite.finalize(insert)
        RawSQLite.finalize(update)
    }

    /// One payment: the durable record, the vendor's three calls, the durable outcome.
    func pay() async throws {
        index += 1
        let reference = "floor-\(index)"
        try raw.run(insert, [reference, createdPieces.joined(separator: reference)])
        let parameters = Stripe.PaymentIntentParameters(amount: 1_000, currency: "usd", captureMethod: .automatic,
                                                        metadata: ["tender_reference": reference])
        let created = try await simulator.createPaymentIntent(parameters, createConfig: .init(offlineBehavior: .requireOnline))
        let box = Locked<Stripe.PaymentIntent?>(nil)
        _ = await simulator.collectPaymentMethod(created, collectConfig: .init(skipTipping: true)) { intent, _ in
            box.withLock { $0 = intent }
        }
        guard let collected = box.current else { throw BenchError("collect failed") }
        box.withLock { $0 = nil }
        _ = await simulator.confirmPaymentIntent(collected, confirmConfig: nil) { intent, _ in box.withLock { $0 = intent } }
        guard let confirmed = box.current, confirmed.status == .succeeded else {
            throw BenchError("floor payment ended \(String(describing: box.current?.status))")
        }
        let outcome = outcomePieces.joined(separator: reference)
        try raw.run(update, indexed ? [outcome, confirmed.stripeId ?? reference, reference] : [outcome, reference])
    }
}

/// `payment_floor_ratio`: a payment through `PaymentTerminal`, `StripeProcessor` and the SQLite ledger (its durable
/// commits at `synchronous=FULL`) against ``PaymentFloorBaseline``.
struct PaymentFloor {
    let directory: URL
    let quick: Bool
    private let block = 5
    /// Payments each side takes before the measured trials.
    static let warmUpPayments = 700
    private let scope = LedgerScope(merchantID: "acct_bench", locationID: "tml_bench")

    private func simulator() -> StripeSimulator {
        var configuration = Stripe.SimulatorConfiguration(offlineEnabled: true)
        configuration.forwardsWhenNetworkReturns = false
        return StripeSimulator(configuration: configuration, seed: 11, clock: ManualClock())
    }

    /// The session as the ledger encodes it, with its reference as `{ref}`.
    private func encoded(_ session: PaymentSession) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(session), as: UTF8.self)
            .replacingOccurrences(of: session.reference, with: "{ref}")
    }

    func measure() async throws -> [RatioResult] {
        let processor = StripeProcessor(client: simulator(), captureService: NoCaptureService(), configuration: .withSimulatedReaders)
        guard let found = try await processor.discoverReaders(timeout: 5).first else { throw BenchError("no reader") }
        _ = try await processor.connectReader(found, locationID: "tml_bench")
        let ledger = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("floor.sqlite"))
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: scope)
        await terminal.handle(.networkStatusChanged(.online))
        var index = 0
        func pay() async throws -> PaymentSession {
            index += 1
            let session = try await terminal.takePayment(PaymentRequest(
                amount: Money(minorUnits: 1_000, currency: .usd), reference: "facade-\(index)"))
            guard session.state == .succeeded else { throw BenchError("facade payment ended \(session.state)") }
            return session
        }
        // The bytes the baseline writes: this payment's session when it was created and when it ended.
        let sample = try await pay()
        var created = sample
        created.state = .created
        created.transitions = Array(sample.transitions.prefix(1))
        created.processorPaymentID = nil
        let baseline = try await PaymentFloorBaseline(
            simulator: simulator(), path: directory.appendingPathComponent("floor-raw.sqlite").path,
            created: try encoded(created), outcome: try encoded(sample))
        let indexedBaseline = try await PaymentFloorBaseline(
            simulator: simulator(), path: directory.appendingPathComponent("floor-indexed.sqlite").path,
            created: try encoded(created), outcome: try encoded(sample), indexed: true)

        // A shop's steady state, not a new file's first hour: both sides first take enough payments to pass the
        // first restart of their WAL (the ledger's after 8,000 pages, about 550 payments; plain SQLite's after its
        // default 1,000, about 300), after which each reuses its WAL file in place. Until then the ledger also
        // writes the zeros that allocate its WAL, once in the file's life (see `SQLiteWALSpace.swift`).
        for _ in 0..<Self.warmUpPayments {
            _ = try await pay()
            try await baseline.pay()
            try await indexedBaseline.pay()
        }

        let trials = Interleaved(minTrials: quick ? 10 : 100, maxTrials: quick ? 40 : 3_000, timeCap: quick ? 1 : 25)
        let result = try await trials.measure(
            "payment_floor_ratio", target: 1.10,
            detail: { String(format: "%.3f ms vs %.3f ms per payment: facade + SQLite ledger vs the simulator's calls "
                             + "and two raw durable commits", $0 * 1e3, $1 * 1e3) },
            baseline: { try await timed { for _ in 0..<block { try await baseline.pay() } } / Double(block) },
            subject: { try await timed { for _ in 0..<block { _ = try await pay() } } / Double(block) })
        await ledger.close()
        let indexes = try await trials.measure(
            "payment_floor_indexed_ratio", target: nil,
            detail: { String(format: "%.3f ms vs %.3f ms per payment: the floor with indexes by state and by "
                             + "processor id (what recovery and forwarding look up) vs the floor", $0 * 1e3, $1 * 1e3) },
            baseline: { try await timed { for _ in 0..<block { try await baseline.pay() } } / Double(block) },
            subject: { try await timed { for _ in 0..<block { try await indexedBaseline.pay() } } / Double(block) })
        return [result, indexes]
    }
}
