package import Foundation

/// The error a ``CrashingLedger`` throws once it has "crashed".
public struct SimulatedCrash: Error, Hashable, Sendable, CustomStringConvertible {
    /// The write at which the crash happened (1 = the first write).
    public var atWrite: Int
    /// "simulated crash at write 3".
    public var description: String { "simulated crash at write \(atWrite)" }
}

/// A ledger that dies at its k-th write: that write and every call after it throw ``SimulatedCrash``, as if the
/// process had been killed just before the write reached the disk. Wrap a durable ledger, let a payment crash
/// half-way, then open a new facade on the underlying ledger and recover: the crash-recovery check does exactly that
/// at every write of a payment.
public actor CrashingLedger: PaymentLedger {
    private let inner: any PaymentLedger
    private let crashAtWrite: Int
    private var writes = 0
    /// Whether the crash has happened.
    public private(set) var crashed = false

    /// Wraps `inner`, crashing at write number `crashAtWrite` (1-based; 0 or less never crashes).
    package init(wrapping inner: any PaymentLedger, crashAtWrite: Int) {
        self.inner = inner
        self.crashAtWrite = crashAtWrite
    }

    /// How many writes were attempted.
    public var attemptedWrites: Int { writes }

    private func write() throws {
        if crashed { throw SimulatedCrash(atWrite: crashAtWrite) }
        writes += 1
        if writes == crashAtWrite {
            crashed = true
            throw SimulatedCrash(atWrite: crashAtWrite)
        }
    }

    private func read() throws { if crashed { throw SimulatedCrash(atWrite: crashAtWrite) } }

    /// Counts a write; may crash.
    public func insert(_ session: PaymentSession) async throws {
        try write()
        try await inner.insert(session)
    }
    /// Passes through until crashed.
    public func session(reference: String, scope: LedgerScope, includingHistory: Bool) async throws -> PaymentSession? {
        try read()
        return try await inner.session(reference: reference, scope: scope, includingHistory: includingHistory)
    }
    /// Passes through until crashed.
    public func session(localID: String?, processorPaymentID: String?, scope: LedgerScope) async throws -> PaymentSession? {
        try read()
        return try await inner.session(localID: localID, processorPaymentID: processorPaymentID, scope: scope)
    }
    /// Counts a write; may crash.
    package func record(_ change: SessionChange, scope: LedgerScope) async throws -> PaymentSession {
        try write()
        return try await inner.record(change, scope: scope)
    }
    /// Counts one write for the whole batch; may crash.
    package func record(_ changes: [SessionChange], scope: LedgerScope) async throws -> [PaymentSession] {
        try write()
        return try await inner.record(changes, scope: scope)
    }
    /// Passes through until crashed.
    public func sessions(references: [String], scope: LedgerScope) async throws -> [String: PaymentSession] {
        try read()
        return try await inner.sessions(references: references, scope: scope)
    }
    /// Passes through until crashed.
    public func sessions(in states: Set<PaymentState>, scope: LedgerScope) async throws -> [PaymentSession] {
        try read()
        return try await inner.sessions(in: states, scope: scope)
    }
    /// Passes through until crashed.
    public func allSessions(scope: LedgerScope) async throws -> [PaymentSession] {
        try read()
        return try await inner.allSessions(scope: scope)
    }
    /// Passes through until crashed.
    package func storedSummary(scope: LedgerScope) async throws -> StoredPaymentSummary {
        try read()
        return try await inner.storedSummary(scope: scope)
    }
    /// Passes through until crashed.
    public func scopes() async throws -> [LedgerScope] {
        try read()
        return try await inner.scopes()
    }
    /// Counts as a write; crashes instead of the write numbered `crashAtWrite`.
    package func insertRefund(reference: String, scope: LedgerScope,
                              make: @Sendable (PaymentSession) throws -> RefundRecord) async throws -> RefundRecord {
        try write()
        return try await inner.insertRefund(reference: reference, scope: scope, make: make)
    }
    /// Counts as a write; crashes instead of the write numbered `crashAtWrite`.
    package func recordRefund(_ change: RefundChange, scope: LedgerScope) async throws -> RefundRecord {
        try write()
        return try await inner.recordRefund(change, scope: scope)
    }
    /// Passes through until crashed.
    public func refunds(reference: String, scope: LedgerScope) async throws -> [RefundRecord] {
        try read()
        return try await inner.refunds(reference: reference, scope: scope)
    }
    /// Passes through until crashed.
    public func refunds(in statuses: Set<RefundStatus>, scope: LedgerScope) async throws -> [RefundRecord] {
        try read()
        return try await inner.refunds(in: statuses, scope: scope)
    }
}

/// Crashes a payment at every write of its life and checks that recovery leaves the ledger and the processor in
/// agreement: at most one charge per reference, a charge exactly when the ledger says the money was taken, and no
/// stored payment unaccounted for.
public struct CrashRecoveryCheck: Sendable {
    /// A payment scenario.
    public enum Scenario: String, Sendable, CaseIterable {
        /// Online, automatic capture.
        case online
        /// Stored offline, then forwarded.
        case offlineThenForwarded
        /// Paid online, then refunded in part; the crash lands in the refund (only for processors with refunds).
        case refund
    }

    /// One crash point's outcome.
    public struct Outcome: Hashable, Sendable, CustomStringConvertible {
        /// The scenario.
        public var scenario: String
        /// The write that crashed (0: no crash).
        public var crashAtWrite: Int
        /// The final ledger state.
        public var finalState: PaymentState?
        /// The processor-side charges for the reference.
        public var charges: Int
        /// What is wrong; empty when consistent.
        public var problems: [String]
        /// "online crash@3 → succeeded, 1 charge".
        public var description: String {
            "\(scenario) crash@\(crashAtWrite) → \(finalState.map(\.rawValue) ?? "none"), \(charges) charge(s)"
                + (problems.isEmpty ? "" : " ✘ " + problems.joined(separator: "; "))
        }
    }

    /// The subject whose environments are crashed.
    public let subject: any ConformanceSubject
    /// Makes the durable ledger for one run; called again after the crash with the same `URL` to reopen it.
    package let ledger: @Sendable (URL) async throws -> any PaymentLedger

    /// Creates the check. By default each run uses an ``SQLitePaymentLedger`` in a fresh temporary file.
    package init(subject: any ConformanceSubject,
                ledger: @escaping @Sendable (URL) async throws -> any PaymentLedger = { try await SQLitePaymentLedger.open(url: $0) }) {
        self.subject = subject
        self.ledger = ledger
    }

    /// Runs every scenario, crashing at every write (and once without crashing).
    public func run() async -> [Outcome] {
        var outcomes: [Outcome] = []
        for scenario in Scenario.allCases {
            var crashAt = 0
            while crashAt <= 12 {
                let (outcome, writes) = await runOnce(scenario, crashAt: crashAt)
                outcomes.append(outcome)
                if crashAt > 0 && crashAt > writes { break }
                crashAt += 1
            }
        }
        return outcomes
    }

    private func runOnce(_ scenario: Scenario, crashAt: Int) async -> (Outcome, Int) {
        if scenario == .refund { return await runRefundOnce(crashAt: crashAt) }
        let reference = "crash-\(scenario.rawValue)-\(crashAt)"
        var outcome = Outcome(scenario: scenario.rawValue, crashAtWrite: crashAt, finalState: nil, charges: 0, problems: [])
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tender-crash-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var writes = 0
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let url = directory.appendingPathComponent("ledger.sqlite")
            let env = try await subject.makeEnvironment()
            let pump = EventPump(env.processor.events())
            defer { pump.stop() }
            let scope = LedgerScope(merchantID: "crash", locationID: env.locationID)
            let limits = OfflineRiskLimits(perPaymentMaximum: [.usd: 100_000], storedTotalMaximum: [.usd: 1_000_000])
            let request = PaymentRequest(amount: Money(minorUnits: 2_500, currency: .usd), reference: reference,
                                         offlinePolicy: scenario == .online ? .requireOnline : .forceOffline)

            // First life: crashes at write `crashAt`.
            let crashing = CrashingLedger(wrapping: try await ledger(url), crashAtWrite: crashAt)
            let first = PaymentTerminal(processor: env.processor, ledger: crashing, scope: scope, limits: limits)
            await first.handle(.networkStatusChanged(.online))
            try await connect(env)
            await env.presentNextCard(.approve)
            _ = try? await first.takePayment(request)
            if scenario == .offlineThenForwarded, !(await crashing.crashed) {
                await env.forwardStoredPayments()
                await drain(pump, into: first)
            }
            writes = await crashing.attemptedWrites

            // Second life: reopen the same file, recover, let the app retry, forward, and compare.
            let second = PaymentTerminal(processor: env.processor, ledger: try await ledger(url), scope: scope, limits: limits)
            await second.handle(.networkStatusChanged(.online))
            _ = await second.recover()
            await env.presentNextCard(.approve)
            _ = try? await second.takePayment(request)
            await env.forwardStoredPayments()
            await drain(pump, into: second)

            let session = try await second.session(reference: reference)
            let charges = await env.charges(reference: reference)
            outcome.finalState = session?.state
            outcome.charges = charges
            if charges > 1 { outcome.problems.append("charged \(charges) times") }
            let moneyTaken: Set<PaymentState> = [.succeeded, .authorized, .forwarded]
            if let state = session?.state {
                if moneyTaken.contains(state) && charges != 1 { outcome.problems.append("ledger says \(state) but \(charges) charges") }
                if !moneyTaken.contains(state) && charges != 0 { outcome.problems.append("charged but the ledger says \(state): lost") }
                if state == .storedOffline { outcome.problems.append("still stored after forwarding") }
            } else if charges != 0 {
                outcome.problems.append("charged but not in the ledger: lost")
            }
        } catch {
            outcome.problems.append("threw \(error)")
        }
        return (outcome, writes)
    }

    /// Feeds every processor event received so far to the facade (the simulators emit synchronously, so a short
    /// quiet period means nothing more is coming).
    private func drain(_ pump: EventPump, into terminal: PaymentTerminal) async {
        for event in await pump.takeAll() { await terminal.handle(event) }
    }
}

extension CrashRecoveryCheck {
    /// The refund scenario: a payment taken without a crash, then a refund of part of it with the ledger crashing
    /// at write `crashAt`; the next life recovers and settles the refund. Consistent when the processor refunded
    /// exactly what the ledger records as refunded (pending refunds settled), never twice, never beyond the capture.
    func runRefundOnce(crashAt: Int) async -> (Outcome, Int) {
        let reference = "crash-refund-\(crashAt)"
        var outcome = Outcome(scenario: Scenario.refund.rawValue, crashAtWrite: crashAt, finalState: nil, charges: 0,
                              problems: [])
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tender-crash-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var writes = 0
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let url = directory.appendingPathComponent("ledger.sqlite")
            let env = try await subject.makeEnvironment()
            guard await env.processor.capabilities().supportsRefunds, await env.refunded(reference: reference) != nil
            else { return (outcome, 0) }  // no refunds here: nothing to crash
            let scope = LedgerScope(merchantID: "crash", locationID: env.locationID)
            let request = PaymentRequest(amount: Money(minorUnits: 2_500, currency: .usd), reference: reference)
            try await connect(env)
            await env.presentNextCard(.approve)
            let paying = PaymentTerminal(processor: env.processor, ledger: try await ledger(url), scope: scope,
                                         clock: env.clock)
            let paid = try await paying.takePayment(request)
            outcome.charges = await env.charges(reference: reference)
            guard paid.state == .succeeded else {
                outcome.problems.append("the payment to refund ended \(paid.state)")
                return (outcome, 0)
            }

            // The refund's life crashes at write `crashAt`.
            let crashing = CrashingLedger(wrapping: try await ledger(url), crashAtWrite: crashAt)
            let first = PaymentTerminal(processor: env.processor, ledger: crashing, scope: scope, clock: env.clock)
            _ = try? await first.refund(reference: reference, amount: Money(minorUnits: 1_000, currency: .usd))
            writes = await crashing.attemptedWrites

            // The next life recovers, lets the vendor settle, and compares.
            let second = PaymentTerminal(processor: env.processor, ledger: try await ledger(url), scope: scope,
                                         clock: env.clock)
            _ = await second.recover()
            var session = try await second.session(reference: reference)
            for _ in 0..<30 where session?.refunds.contains(where: { $0.status == .pending }) ?? false {
                await env.advanceClock(by: 5)
                _ = await second.pollOnce()
                session = try await second.session(reference: reference)
            }
            outcome.finalState = session?.state
            let recorded = session?.refunds.filter { $0.status == .succeeded }.reduce(Int64(0)) { $0 + $1.amount.minorUnits } ?? 0
            let atProcessor = await env.refunded(reference: reference) ?? 0
            if atProcessor > 1_000 { outcome.problems.append("refunded \(atProcessor) for one refund of 1000: twice") }
            if atProcessor != recorded {
                outcome.problems.append("the processor refunded \(atProcessor), the ledger records \(recorded)")
            }
            if session?.refunds.contains(where: { $0.status == .pending }) ?? false {
                outcome.problems.append("a refund is still pending after recovery")
            }
        } catch {
            outcome.problems.append("threw \(error)")
        }
        return (outcome, writes)
    }
}

/// Collects a processor's events in the background so a test can hand them to whichever facade is alive.
public final class EventPump: Sendable {
    private let buffer = Locked<[ProcessorEvent]>([])
    private let task: Task<Void, Never>

    /// Starts collecting `stream`.
    public init(_ stream: AsyncStream<ProcessorEvent>) {
        let buffer = self.buffer
        task = Task { for await event in stream { buffer.withLock { $0.append(event) } } }
    }

    /// Waits until no new event arrived for a few milliseconds, then returns (and forgets) everything collected.
    public func takeAll(quietMilliseconds: UInt64 = 20) async -> [ProcessorEvent] {
        var last = -1
        while true {
            let count = buffer.withLock { $0.count }
            if count == last { break }
            last = count
            try? await Task.sleep(nanoseconds: quietMilliseconds * 1_000_000)
        }
        return buffer.withLock { events in
            defer { events.removeAll() }
            return events
        }
    }

    /// Stops collecting.
    public func stop() { task.cancel() }
}
