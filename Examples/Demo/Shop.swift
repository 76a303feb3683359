import Foundation
import Tender
import TenderTesting

/// What the shop keeps track of during its day.
struct DayState {
    var random: SeededGenerator
    var result: DayResult
    /// How many sales were rung up.
    var sale = 0
    /// The manual-capture payments the shop captured itself.
    var capturedByShop: Set<String> = []
    /// The authorization left uncaptured at close.
    var held: String?
    /// Refunds the processor had not settled when they were made.
    var pendingRefunds: [RefundRecord] = []
}

/// A scripted day at a shop, on one processor, through Tender's public API.
struct Shop {
    let rig: any DemoRig
    let ledger: any PaymentLedger
    let payments: Int
    let seed: UInt64
    let clock: ManualClock
    let out: Output
    /// Prefix of this run's references ("d1-", "d2-"…), so a ledger reused with `--ledger` keeps earlier days apart.
    let day: String
    /// Whether to skip the other counters (smart reader, Tap to Pay), and why, when the run says so.
    var skipOtherCounters: (skip: Bool, because: String?) = (false, nil)

    /// The shop's offline risk limits: 150.00 per payment, 500.00 stored, 20 payments, 12 hours.
    static let limits = OfflineRiskLimits(perPaymentMaximum: [.usd: 150_00], storedTotalMaximum: [.usd: 500_00],
                                          storedCountMaximum: 20, oldestStoredAgeMaximum: 12 * 3_600)

    static var describeLimits: String { "150.00 USD per payment, 500.00 USD stored, 20 payments, 12 hours" }

    var online: Int { payments / 3 }
    var offline: Int { payments / 3 }
    var afterwards: Int { payments - online - offline }

    func run() async throws -> DayResult {
        var state = DayState(random: SeededGenerator(seed: seed), result: DayResult(processor: rig.title))
        let terminal = PaymentTerminal(processor: rig.processor, ledger: ledger, scope: rig.scope, limits: Self.limits,
                                       clock: clock)
        let loop = Task { await terminal.run() }
        defer { loop.cancel() }
        await terminal.handle(.networkStatusChanged(.online))

        try await open(terminal)
        try await morning(terminal, &state)
        try await outage(terminal, &state)
        try await forward(terminal)
        if skipOtherCounters.skip {
            if let because = skipOtherCounters.because { out.note(because) }
        } else {
            try await otherCounters(terminal, &state)
        }
        try await afternoon(terminal, &state)
        try await nextMorning(terminal, &state)
        try await reconcile(terminal, &state)
        return state.result
    }

    func nextReference(_ state: inout DayState) -> String {
        state.sale += 1
        return "\(day)sale-\(String(format: "%04d", state.sale))"
    }

    func amount(_ range: ClosedRange<Int64>, _ state: inout DayState) -> Money {
        let span = UInt64(range.upperBound - range.lowerBound + 1)
        return Money(minorUnits: range.lowerBound + Int64(state.random.next() % span), currency: .usd)
    }

    private func open(_ terminal: PaymentTerminal) async throws {
        out.heading("\(rig.title): opening")
        let recovery = await terminal.recover()
        out.line("recovery: \(recovery.examined) unfinished payment(s) found, \(recovery.resolved.count) resolved")
        let readers = try await terminal.discoverReaders(timeout: 10)
        guard let reader = readers.first else { throw DemoError("no reader found") }
        let connected = try await terminal.connectReader(reader)
        out.good("reader \(connected.model) \(connected.serialNumber ?? connected.id) connected at \(rig.scope.locationID)")
    }

    private func morning(_ terminal: PaymentTerminal, _ state: inout DayState) async throws {
        out.heading("\(rig.title): morning, online")
        for index in 0..<online {
            let card: DemoCard = index == 2 ? .decline("generic decline") : index == 5 ? .decline("insufficient funds") : .approve
            let capture: CaptureMode = index % 4 == 3 ? .manual : .automatic
            await rig.present(card)
            let request = PaymentRequest(amount: amount(5_00...90_00, &state), reference: nextReference(&state),
                                         captureMode: capture)
            report(try await terminal.takePayment(request))
        }
    }

    private func outage(_ terminal: PaymentTerminal, _ state: inout DayState) async throws {
        out.heading("\(rig.title): the network goes down")
        await rig.setNetwork(online: false)
        await terminal.handle(.networkStatusChanged(.offline))
        out.note("offline: sales are stored on the device under the risk limits (\(Self.describeLimits))")
        for index in 0..<offline {
            let card: DemoCard = index == 1 ? .declineWhenForwarded : .approve
            await rig.present(card)
            let big = index == 3 || index == 6
            let request = PaymentRequest(amount: big ? amount(160_00...240_00, &state) : amount(20_00...140_00, &state),
                                         reference: nextReference(&state), captureMode: index == 4 ? .manual : .automatic,
                                         offlinePolicy: .preferOnline)
            do {
                report(try await terminal.takePayment(request))
            } catch let error as PaymentError {
                state.result.refusedByLimits.append(request.reference)
                out.bad("\(request.reference) \(request.amount) refused: \(error.message)")
            }
            clock.advance(by: 600)
        }
        let queue = try await terminal.queueStatus()
        out.line("queue: \(queue.storedCount) stored, \(queue.storedAmount(in: .usd)) (network \(queue.networkStatus))")
    }

    private func forward(_ terminal: PaymentTerminal) async throws {
        out.heading("\(rig.title): the network is back, forwarding")
        await rig.setNetwork(online: true)
        await terminal.handle(.networkStatusChanged(.online))
        let toForward = await rig.storedOnDevice()
        var remaining = toForward
        var steps = 0
        while remaining > 0 && steps < toForward * 3 + 10 {
            let before = remaining
            remaining = await rig.forwardOne()
            steps += 1
            if remaining != before { out.progress("forwarding", done: toForward - remaining, total: toForward) }
        }
        if remaining > 0 { out.bad("\(remaining) payment(s) could not be forwarded yet") }
        try await waitUntilForwardingRecorded(terminal)
        for session in try await terminal.sessions() where session.route == .offline && session.state != .storedOffline {
            if session.state == .declinedAfterForwarding {
                out.bad("\(session.reference) \(session.total) declined when forwarded: the shop bears this loss")
            }
        }
    }

    func report(_ session: PaymentSession) {
        let what = "\(session.reference) \(session.total)"
        switch session.state {
        case .succeeded: out.good("\(what) approved (\(session.card?.brand.rawValue ?? "card") •••• \(session.card?.last4 ?? "----"))")
        case .authorized: out.good("\(what) authorized, to capture later")
        case .storedOffline: out.note("\(what) stored offline")
        default: out.bad("\(what) \(session.state): \(session.lastError?.description ?? "")")
        }
    }

    /// Waits until the ledger has recorded every forwarding result (the event loop runs in the background).
    private func waitUntilForwardingRecorded(_ terminal: PaymentTerminal) async throws {
        for _ in 0..<2_000 {
            if try await terminal.queueStatus().storedCount == (await rig.storedOnDevice()) { return }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        throw DemoError("forwarding results were not all recorded")
    }
}

struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Shop {
    /// The next day's prefix for a ledger that may hold earlier runs of the demo.
    static func nextDay(in ledger: any PaymentLedger, scope: LedgerScope) async throws -> String {
        let days = try await ledger.allSessions(scope: scope).compactMap { session -> Int? in
            guard session.reference.hasPrefix("d"), let dash = session.reference.firstIndex(of: "-") else { return nil }
            return Int(session.reference[session.reference.index(after: session.reference.startIndex)..<dash])
        }
        return "d\((days.max() ?? 0) + 1)-"
    }
}
