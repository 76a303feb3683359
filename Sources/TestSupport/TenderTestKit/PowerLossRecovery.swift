public import Foundation
@_exported import TenderPowerLoss

/// Cuts the power at every write a payment makes to its SQLite ledger, relaunches the app (a new ledger over the
/// same file, a relaunched processor that forgot every handle), recovers, and checks that nothing was lost or charged
/// twice against what the processor really holds.
///
/// A power cut is harder than the kill of ``CrashRecoveryCheck``: a kill keeps every write in the operating
/// system's cache, a power cut keeps only what was synced. The ledger is opened through a ``PowerLossVFS``, which
/// holds every unsynced write in memory; at the cut they are lost (whole pages, or with the last one torn). Tender
/// syncs the write-ahead record and the outcome of each payment, and recovery must be right from those alone.
///
/// Each run: the first life takes the payment through a ``CrashingLedger`` that fails at write `k` (so write `k`
/// and everything after it never reach the ledger, while the vendor goes on with what it was asked); then the power
/// is cut, dropping every write since the last sync. The next life reopens the file, relaunches the processor,
/// recovers, lets simulated time pass the adapter's consistency windows, retries the reference as an app does,
/// forwards what is stored, and compares the ledger with the processor.
public struct PowerLossRecoveryCheck: Sendable {
    /// One cut's outcome.
    public struct Outcome: Hashable, Sendable, CustomStringConvertible {
        /// The scenario (``CrashRecoveryCheck/Scenario``'s raw value).
        public var scenario: String
        /// The ledger write before which the power was cut (0: after the payment, everything written).
        public var cutAtWrite: Int
        /// Whether the cut tore the last unsynced write.
        public var torn: Bool
        /// The final ledger state.
        public var finalState: PaymentState?
        /// The processor-side charges for the reference.
        public var charges: Int
        /// What is wrong; empty when consistent.
        public var problems: [String]
        /// "online cut@3 torn → succeeded, 1 charge".
        public var description: String {
            "\(scenario) cut@\(cutAtWrite)\(torn ? " torn" : "") → \(finalState.map(\.rawValue) ?? "none"), "
                + "\(charges) charge(s)" + (problems.isEmpty ? "" : " ✘ " + problems.joined(separator: "; "))
        }
    }

    /// The subject whose environments lose power.
    public let subject: any ConformanceSubject
    /// Opens the first life's ledger through the run's VFS (default: ``PowerLossVFS/openLedger(at:busyTimeout:)``).
    public let ledger: @Sendable (PowerLossVFS, URL) async throws -> SQLitePaymentLedger

    /// Creates the check. `ledger` opens the first life's ledger through the given VFS; the default is Tender's
    /// ledger as apps get it (a self-check passes one that breaks the promise, and expects problems).
    public init(subject: any ConformanceSubject,
                ledger: @escaping @Sendable (PowerLossVFS, URL) async throws -> SQLitePaymentLedger = { try await $0.openLedger(at: $1) }) {
        self.subject = subject
        self.ledger = ledger
    }

    /// Runs every scenario with the power cut before each ledger write (whole pages, then a torn last write), and
    /// once after the payment.
    public func run() async -> [Outcome] {
        var outcomes: [Outcome] = []
        for scenario in CrashRecoveryCheck.Scenario.allCases {
            var cutAt = 0
            while cutAt <= 12 {
                var writes = 0
                for torn in [false, true] {
                    let (outcome, attempted) = await runOnce(scenario, cutAt: cutAt, torn: torn)
                    outcomes.append(outcome)
                    writes = attempted
                }
                if cutAt > 0 && cutAt > writes { break }
                cutAt += 1
            }
        }
        return outcomes
    }

    /// The scratch directory and VFS of one run.
    struct Device {
        let directory: URL
        let vfs: PowerLossVFS
        var url: URL { directory.appendingPathComponent("ledger.sqlite") }

        init() throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("tender-power-loss-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            vfs = try PowerLossVFS()
        }

        /// Cuts the power (the last unsynced write torn, or not), closes the dead ledger, and turns the power back on.
        func cut(_ ledger: SQLitePaymentLedger, torn: Bool, seed: Int) async throws {
            vfs.cutPower(torn ? .tornWrite(seed: UInt64(seed)) : .wholePages)
            await ledger.close()
            try vfs.restorePower()
        }

        func remove() {
            vfs.unregister()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private func runOnce(_ scenario: CrashRecoveryCheck.Scenario, cutAt: Int, torn: Bool) async -> (Outcome, Int) {
        if scenario == .refund { return await runRefundOnce(cutAt: cutAt, torn: torn) }
        let reference = "power-\(scenario.rawValue)-\(cutAt)\(torn ? "-torn" : "")"
        var outcome = Outcome(scenario: scenario.rawValue, cutAtWrite: cutAt, torn: torn, finalState: nil, charges: 0,
                              problems: [])
        var writes = 0
        var device: Device?
        defer { device?.remove() }
        do {
            device = try Device()
            let env = try await subject.makeEnvironment()
            let scope = LedgerScope(merchantID: "power", locationID: env.locationID)
            let limits = OfflineRiskLimits(perPaymentMaximum: [.usd: 100_000], storedTotalMaximum: [.usd: 1_000_000])
            let request = PaymentRequest(amount: Money(minorUnits: 2_500, currency: .usd), reference: reference,
                                         offlinePolicy: scenario == .online ? .requireOnline : .forceOffline)

            // First life: the ledger fails at write `cutAt`; then the power goes.
            let ledger = try await self.ledger(device!.vfs, device!.url)
            let crashing = CrashingLedger(wrapping: ledger, crashAtWrite: cutAt)
            let pump = EventPump(env.processor.events())
            let first = PaymentTerminal(processor: env.processor, ledger: crashing, scope: scope, limits: limits,
                                        clock: env.clock)
            await first.handle(.networkStatusChanged(.online))
            try await connect(env)
            await env.presentNextCard(.approve)
            _ = try? await first.takePayment(request)
            if scenario == .offlineThenForwarded, !(await crashing.crashed) {
                await env.forwardStoredPayments()
                for event in await pump.takeAll() { await first.handle(event) }
            }
            pump.stop()
            writes = await crashing.attemptedWrites
            try await device!.cut(ledger, torn: torn, seed: cutAt)

            // Next life: the app and the SDK relaunched, the ledger reopened from what was synced.
            let charged = await env.charges(reference: reference)
            let reopened = try await SQLitePaymentLedger.open(url: device!.url)
            defer { Task { await reopened.close() } }
            if charged > 0, try await reopened.session(reference: reference, scope: scope) == nil {
                outcome.problems.append("charged before the cut, and the write-ahead record did not survive it")
            }
            let processor = try await env.relaunch()
            let second = PaymentTerminal(processor: processor, ledger: reopened, scope: scope, limits: limits,
                                         clock: env.clock)
            let session = try await settle(second, env: env, request: request)
            outcome.finalState = session?.state
            outcome.charges = await env.charges(reference: reference)
            outcome.problems += CrashRecoveryCheck.problems(state: session?.state, charges: outcome.charges)
            if !outcome.problems.isEmpty, let session {
                // The ledger's story, for whoever reads the failure.
                outcome.problems.append("history " + session.transitions.map { step in
                    "\(step.from?.rawValue ?? "-")→\(step.to.rawValue) #\(step.attempt)"
                        + (step.error.map { " [\($0.code.rawValue)]" } ?? "") + (step.note.map { " (\($0))" } ?? "")
                }.joined(separator: " | "))
            }
        } catch {
            outcome.problems.append("threw \(error)")
        }
        return (outcome, writes)
    }

    /// The next life, as an app runs it: recover, retry the reference, forward, and let the processor's consistency
    /// windows pass while polling, recovering and retrying what is still unfinished.
    private func settle(_ terminal: PaymentTerminal, env: any ConformanceEnvironment, request: PaymentRequest)
        async throws -> PaymentSession? {
        let pump = EventPump(env.processor.events())
        defer { pump.stop() }
        await terminal.handle(.networkStatusChanged(.online))
        try await connect(env)
        _ = await terminal.recover()
        for round in 0..<8 {
            if round > 0 { await env.advanceClock(by: 30) }
            // The app retries the reference once as the crash check does (a payment recovery found failed may be
            // paid again, as a new vendor payment), then whatever is still unfinished.
            let current = try await terminal.session(reference: request.reference)
            if round == 0 || current.map({ powerLossUnfinishedStates.contains($0.state) }) ?? true {
                await env.presentNextCard(.approve)
                _ = try? await terminal.takePayment(request)
            }
            await env.forwardStoredPayments()
            for event in await pump.takeAll() { await terminal.handle(event) }
            _ = await terminal.pollOnce()
            _ = await terminal.recover()
            let state = try await terminal.session(reference: request.reference)?.state
            if let state, !powerLossUnfinishedStates.contains(state), state != .storedOffline { break }
        }
        return try await terminal.session(reference: request.reference)
    }
}

/// States in which a payment has no outcome yet: the app retries the reference.
let powerLossUnfinishedStates: Set<PaymentState> = [.created, .collecting, .processing, .outcomeUnknown]

extension CrashRecoveryCheck {
    /// What is wrong between a final ledger state and the processor's charges for one reference.
    static func problems(state: PaymentState?, charges: Int) -> [String] {
        var problems: [String] = []
        if charges > 1 { problems.append("charged \(charges) times") }
        let moneyTaken: Set<PaymentState> = [.succeeded, .authorized, .forwarded]
        if let state {
            if moneyTaken.contains(state) && charges != 1 { problems.append("ledger says \(state) but \(charges) charges") }
            if !moneyTaken.contains(state) && charges != 0 { problems.append("charged but the ledger says \(state): lost") }
            if state == .storedOffline { problems.append("still stored after forwarding") }
        } else if charges != 0 {
            problems.append("charged but not in the ledger: lost")
        }
        return problems
    }
}
