import Foundation
import Tender

/// One processor's result of the day.
struct DayResult {
    var processor: String
    var taken = 0
    var approvedOnline = 0
    var declined = 0
    var refusedByLimits: [String] = []
    var stored = 0
    var forwarded = 0
    var declinedAfterForwarding = 0
    var captured = 0
    var outcomeUnknown = 0
    var amountsByCurrency: [String: Int64] = [:]
    var mismatches: [String] = []

    var json: [String: Any] {
        ["processor": processor, "taken": taken, "approved_online": approvedOnline, "declined": declined,
         "refused_by_limits": refusedByLimits.count, "stored_offline": stored, "forwarded": forwarded,
         "declined_after_forwarding": declinedAfterForwarding, "captured": captured,
         "outcome_unknown": outcomeUnknown, "amounts_by_currency": amountsByCurrency, "mismatches": mismatches]
    }
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

    /// The shop's offline risk limits: 150.00 per payment, 500.00 stored, 20 payments, 12 hours.
    static let limits = OfflineRiskLimits(perPaymentMaximum: [.usd: 150_00], storedTotalMaximum: [.usd: 500_00],
                                          storedCountMaximum: 20, oldestStoredAgeMaximum: 12 * 3_600)

    func run() async throws -> DayResult {
        var random = SeededGenerator(seed: seed)
        var result = DayResult(processor: rig.title)
        let terminal = PaymentTerminal(processor: rig.processor, ledger: ledger, scope: rig.scope, limits: Self.limits,
                                       clock: clock)
        let loop = Task { await terminal.run() }
        defer { loop.cancel() }
        await terminal.handle(.networkStatusChanged(.online))

        out.heading("\(rig.title): opening")
        let recovery = await terminal.recover()
        out.line("recovery: \(recovery.examined) unfinished payment(s) found, \(recovery.resolved.count) resolved")
        let readers = try await terminal.discoverReaders(timeout: 10)
        guard let reader = readers.first else { throw DemoError("no reader found") }
        let connected = try await terminal.connectReader(reader)
        out.good("reader \(connected.model) \(connected.serialNumber ?? connected.id) connected at \(rig.scope.locationID)")

        let online = payments / 3, offline = payments / 3, afterwards = payments - online - offline
        var sale = 0
        func nextReference() -> String {
            sale += 1
            return "\(day)sale-\(String(format: "%04d", sale))"
        }
        func amount(_ range: ClosedRange<Int64>) -> Money {
            Money(minorUnits: range.lowerBound + Int64(random.next() % UInt64(range.upperBound - range.lowerBound + 1)),
                  currency: .usd)
        }

        out.heading("\(rig.title): morning, online")
        for index in 0..<online {
            let card: DemoCard = index == 2 ? .decline("generic decline") : index == 5 ? .decline("insufficient funds") : .approve
            let capture: CaptureMode = index % 4 == 3 ? .manual : .automatic
            await rig.present(card)
            let request = PaymentRequest(amount: amount(5_00...90_00), reference: nextReference(), captureMode: capture)
            let session = try await terminal.takePayment(request)
            report(session)
        }

        out.heading("\(rig.title): the network goes down")
        await rig.setNetwork(online: false)
        await terminal.handle(.networkStatusChanged(.offline))
        out.note("offline: sales are stored on the device under the risk limits (\(Self.describeLimits))")
        for index in 0..<offline {
            let card: DemoCard = index == 1 ? .declineWhenForwarded : .approve
            await rig.present(card)
            let big = index == 3 || index == 6
            let request = PaymentRequest(amount: big ? amount(160_00...240_00) : amount(20_00...140_00),
                                         reference: nextReference(), captureMode: index == 4 ? .manual : .automatic,
                                         offlinePolicy: .preferOnline)
            do {
                let session = try await terminal.takePayment(request)
                report(session)
            } catch let error as PaymentError {
                result.refusedByLimits.append(request.reference)
                out.bad("\(request.reference) \(request.amount) refused: \(error.message)")
            }
            clock.advance(by: 600)
        }
        let queue = try await terminal.queueStatus()
        out.line("queue: \(queue.storedCount) stored, \(queue.storedAmount(in: .usd)) (network \(queue.networkStatus))")

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

        out.heading("\(rig.title): afternoon, captures and more sales")
        for session in try await terminal.sessions() where session.isReadyToCapture {
            let captured = try await terminal.capture(reference: session.reference)
            out.good("captured \(captured.reference) \(captured.total)\(captured.route == .offline ? " (after forwarding)" : "")")
        }
        for _ in 0..<afterwards {
            await rig.present(.approve)
            let session = try await terminal.takePayment(PaymentRequest(amount: amount(3_00...60_00), reference: nextReference()))
            report(session)
        }
        // A retry of a finished sale returns the recorded session and never charges again.
        await rig.present(.approve)
        let first = "\(day)sale-0001"
        let retried = try await terminal.takePayment(PaymentRequest(amount: try await terminal.session(reference: first)!.amount,
                                                                    reference: first))
        out.line("retrying \(first) returns the recorded session: \(retried.state)")

        try await reconcile(terminal, into: &result)
        return result
    }

    static var describeLimits: String { "150.00 USD per payment, 500.00 USD stored, 20 payments, 12 hours" }

    private func report(_ session: PaymentSession) {
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

    /// The closing table, computed from the ledger and checked against the processor's own records.
    private func reconcile(_ terminal: PaymentTerminal, into result: inout DayResult) async throws {
        let sessions = try await terminal.sessions().filter { $0.reference.hasPrefix(day) }
        let truth = await rig.truth()
        result.taken = sessions.count
        for session in sessions {
            let isOffline = session.route == .offline
            switch session.state {
            case .succeeded, .authorized:
                if isOffline { result.forwarded += 1 } else { result.approvedOnline += 1 }
            case .forwarded: result.forwarded += 1
            case .declined: result.declined += 1
            case .declinedAfterForwarding: result.declinedAfterForwarding += 1
            case .outcomeUnknown: result.outcomeUnknown += 1
            default: break
            }
            if isOffline { result.stored += 1 }
            if session.captureMode == .manual && session.state == .succeeded { result.captured += 1 }
            let moneyTaken = [.succeeded, .authorized, .forwarded].contains(session.state)
            if moneyTaken { result.amountsByCurrency[session.total.currency.code, default: 0] += session.total.minorUnits }

            let held = truth[session.reference] ?? ProcessorTruth()
            if held.acceptedCharges > 1 { result.mismatches.append("\(session.reference): charged \(held.acceptedCharges) times") }
            if moneyTaken && held.acceptedCharges != 1 {
                result.mismatches.append("\(session.reference): ledger says \(session.state), processor holds \(held.acceptedCharges) charge(s)")
            }
            if !moneyTaken && held.acceptedCharges != 0 {
                result.mismatches.append("\(session.reference): ledger says \(session.state), processor charged it")
            }
            if moneyTaken && held.amount != session.total.minorUnits {
                result.mismatches.append("\(session.reference): ledger \(session.total.minorUnits), processor \(held.amount)")
            }
            if session.state == .succeeded && session.captureMode == .manual && !held.captured {
                result.mismatches.append("\(session.reference): captured in the ledger, not at the processor")
            }
        }
        for reference in truth.keys where truth[reference]!.acceptedCharges > 0 && !sessions.contains(where: { $0.reference == reference }) {
            result.mismatches.append("\(reference): charged by the processor, missing from the ledger")
        }

        out.heading("\(rig.title): closing reconciliation (ledger, checked against the processor)")
        let rows: [[String]] = [
            ["payments taken", "\(result.taken)"],
            ["approved online", "\(result.approvedOnline)"],
            ["declined at the counter", "\(result.declined)"],
            ["refused by risk limits", "\(result.refusedByLimits.count)"],
            ["stored offline", "\(result.stored)"],
            ["forwarded", "\(result.forwarded)"],
            ["declined after forwarding", "\(result.declinedAfterForwarding)"],
            ["captured (manual)", "\(result.captured)"],
            ["outcome unknown", "\(result.outcomeUnknown)"],
        ] + result.amountsByCurrency.sorted { $0.key < $1.key }.map { code, minor in
            ["collected \(code)", (try? Money(minorUnits: minor, currency: Currency(code: code)).decimalString) ?? "\(minor)"]
        }
        out.table(["", "count"], rows)
        if result.mismatches.isEmpty {
            out.good("ledger and processor agree: every reference charged at most once, nothing lost")
        } else {
            for mismatch in result.mismatches { out.bad("MISMATCH \(mismatch)") }
        }
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
