import Foundation
import Tender
import TenderTesting

/// What the kill test did and found.
struct KillReport: Codable, Sendable {
    var rounds = 0
    var lives = 0
    var killed = 0
    var killedDuringBurst = 0
    var killedDuringStartup = 0
    var finishedBeforeKill = 0
    var seconds = 0.0
    /// What the children's sales, retries, "another card" attempts and cancelled payments returned (killed lives
    /// included, up to the kill).
    var childOutcomes: [String: Int] = [:]
    /// Faults the children injected, by processor and kind (search lags: one per processor per life).
    var faults: [String: Int] = [:]
    /// What the children's refunds returned (`succeeded`, `pending`, `failed`, `refused CODE`).
    var refunds: [String: Int] = [:]
    /// Refunds asked for more than could ever be left (beyond the total less what was refunded for good).
    var overRefundAttempts = 0
    /// Of those, accepted: must be 0.
    var overRefundsAccepted = 0
    var verifier = VerifierStats()
    /// Worlds the next life could not open (kept on disk under the work directory).
    var brokenWorlds: [String] = []
    var tally = Tally()
    /// With --power-loss: how the power was cut, and where.
    var powerLoss: PowerLossReport?

    /// Counts the outcome and fault lines of a child's output.
    mutating func count(_ output: String) {
        for line in output.split(separator: "\n").map(String.init) {
            let words = line.split(separator: " ").map(String.init)
            guard let first = words.first else { continue }
            switch first {
            case "sale", "retry", "another", "cancel", "relaunched":
                childOutcomes[words.prefix(2).joined(separator: " "), default: 0] += 1
                if first == "sale", words.count > 1, words[1] == "failed" {
                    examples.withLock { if $0.count < 5 { $0.append(line) } }
                }
                if words.count > 1, words[1] == "threw-non-payment-error" {
                    tally.crashes += 1
                    tally.note("a child's facade threw a non-PaymentError: \(line)")
                }
            case "fault":
                faults[words.dropFirst().joined(separator: " "), default: 0] += 1
            case "refund":
                refunds[words.dropFirst().prefix(2).joined(separator: " "), default: 0] += 1
                if words.count > 1, words[1] == "threw-non-payment-error" {
                    tally.crashes += 1
                    tally.note("a child's refund threw a non-PaymentError: \(line)")
                }
            case "overrefund":
                overRefundAttempts += 1
                if words.count > 1, words[1] == "ACCEPTED" {
                    overRefundsAccepted += 1
                    tally.mismatch("a refund beyond what was left was accepted: \(line)")
                }
            default:
                break
            }
        }
    }
}

/// A few first attempts that ended `failed` (processor, reference, error code, vendor name), for --verbose.
let examples = Locked<[String]>([])

/// The kill test: rounds of child lives killed at random moments, each round verified by the app's next life.
///
/// With `powerLoss`, every child's ledger opens through the power-loss VFS (PowerLoss.swift): the parent's SIGKILL
/// then loses every unsynced write, and half the killed lives instead cut their own power at a write drawn over the
/// writes a life makes (whole pages, torn or reordered).
func runKillTest(kills: Int, livesPerRound: Int, seed: UInt64, workRoot: URL, executable: URL, verbose: Bool,
                 sabotage: Bool = false, keepWorlds: Bool = false, powerLoss: Bool = false) async -> KillReport {
    var report = KillReport()
    if powerLoss { report.powerLoss = PowerLossReport() }
    var lifeWrites: [Int] = []
    let start = Date()
    var random = SeededGenerator(seed: seed ^ 0x4B49_4C4C)
    // Calibrate: how long startup (launch → ready) and the burst (ready → exit) take on this machine, so kill
    // moments cover both. Readiness is read from the child's output, so a slow disk only stretches the times.
    let calibration = workRoot.appendingPathComponent("calibration")
    try? FileManager.default.createDirectory(at: calibration, withIntermediateDirectories: true)
    var startups: [Double] = []
    var bursts: [Double] = []
    for index in 0..<3 {
        let run = runChild(executable: executable, directory: calibration, seed: seed &+ 99, round: index, life: 0,
                           plan: .never, powerLoss: powerLoss)
        if let startup = run.startup { startups.append(startup) }
        if let burst = run.burst { bursts.append(burst) }
        if case .finished(let output) = run.end, let writes = writesOfLife(output) { lifeWrites.append(writes) }
    }
    var startupTime = max(0.005, startups.sorted().dropFirst(startups.count / 2).first ?? 0.05)
    var burstTime = max(0.005, bursts.sorted().dropFirst(bursts.count / 2).first ?? 0.1)
    try? FileManager.default.removeItem(at: calibration)

    // A world (simulator files + ledger) lives for 10 rounds, so files stay small; a world the next life cannot
    // start on is counted once (a crash) and replaced (kept on disk with --keep).
    let roundsPerDirectory = 10
    var worldIndex = -1
    var directory = workRoot
    var roundsInWorld = roundsPerDirectory
    for round in 0..<kills {
        if roundsInWorld >= roundsPerDirectory {
            if worldIndex >= 0, report.brokenWorlds.last != directory.lastPathComponent {
                report.tally.addFailures(await auditWorld(directory: directory, seed: seed))
            }
            if worldIndex >= 0, !keepWorlds { try? FileManager.default.removeItem(at: directory) }
            worldIndex += 1
            roundsInWorld = 0
            directory = workRoot.appendingPathComponent("world-\(worldIndex)")
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        roundsInWorld += 1
        report.rounds += 1
        var worldBroken = false
        for life in 0..<livesPerRound {
            // Of the kills, one in five lands while the app starts and recovers (one in two on a world's first
            // launch, when the ledger file is created); the rest during the burst.
            let fraction = Double(random.next() % 10_000) / 10_000
            let firstLaunch = roundsInWorld == 1 && life == 0
            // One life in ten is not killed: it runs to its end, so a life that hangs is caught (its watchdog ends
            // it with status 4, a crash) instead of being hidden by the kill.
            let roll = random.int(0...99)
            var plan: KillPlan = roll < 10 ? .never
                : random.chance(firstLaunch ? 0.5 : 0.2) ? .afterLaunch(startupTime * 1.1 * fraction)
                : .afterReady(burstTime * fraction)
            // Under --power-loss, half the lives to be killed cut their own power at a write instead.
            var selfCut: SelfCut?
            if powerLoss, roll >= 10, random.chance(0.5) {
                let writes = lifeWrites.sorted().dropFirst(lifeWrites.count / 2).first ?? 400
                let mode: CutMode = switch random.int(0...9) {
                case 0..<4: .whole
                case 4..<8: .torn
                default: .reordered
                }
                selfCut = SelfCut(atWrite: 1 + random.int(0...max(1, writes + writes / 10)), mode: mode,
                                  seed: random.next())
                plan = .never
            }
            report.lives += 1
            let run = runChild(executable: executable, directory: directory, seed: seed, round: round, life: life,
                               plan: plan, sabotage: sabotage, powerLoss: powerLoss, selfCut: selfCut)
            // Follow the machine's speed (the worlds grow within a directory; the disk may be busy).
            if let startup = run.startup { startupTime = 0.8 * startupTime + 0.2 * startup }
            if let burst = run.burst { burstTime = 0.8 * burstTime + 0.2 * burst }
            switch run.end {
            case .killed(let output):
                report.count(output)
                report.killed += 1
                if let selfCut {
                    report.powerLoss?.cutsAtWrite[selfCut.mode.rawValue, default: 0] += 1
                } else {
                    report.powerLoss?.timedCuts += 1
                }
                report.powerLoss?.notePhase(output)
                if output.split(separator: "\n").contains("ready") { report.killedDuringBurst += 1 } else {
                    report.killedDuringStartup += 1
                }
            case .finished(let output):
                report.count(output)
                report.finishedBeforeKill += 1
                if selfCut != nil { report.powerLoss?.cutsNotReached += 1 }
                if let writes = writesOfLife(output) { lifeWrites.append(writes) }
            case .setupFailed(let why):
                // The app cannot start on what the killed life left: counted once, and the world is replaced.
                report.tally.crashes += 1
                report.tally.note("round \(round) life \(life): the app could not start: \(why)")
                worldBroken = true
            case .crashed(let why):
                report.tally.crashes += 1
                report.tally.note("round \(round) life \(life): child crashed: \(why)")
            }
            if worldBroken { break }
        }
        if worldBroken {
            report.brokenWorlds.append(directory.lastPathComponent)
            roundsInWorld = roundsPerDirectory
            continue
        }
        var verdict = await verifyAfterKill(directory: directory, seed: seed, round: round, stats: &report.verifier)
        if verdict.worldUnusable {
            report.brokenWorlds.append(directory.lastPathComponent)
            roundsInWorld = roundsPerDirectory  // the next round starts a fresh world (kept on disk with --keep)
            verdict.worldUnusable = false
        }
        if verbose, verdict.failures > 0 {
            FileHandle.standardError.write(Data("round \(round): \(verdict.notes.joined(separator: "; "))\n".utf8))
            // Every failing round's histories (the table keeps only the first ten of the run).
            for history in verdict.histories { FileHandle.standardError.write(Data("  ? \(history)\n".utf8)) }
        }
        report.tally.add(verdict)
    }
    if worldIndex >= 0, report.brokenWorlds.last != directory.lastPathComponent {
        report.tally.addFailures(await auditWorld(directory: directory, seed: seed))
    }
    if !keepWorlds { try? FileManager.default.removeItem(at: directory) }
    report.seconds = Date().timeIntervalSince(start)
    report.powerLoss?.writesPerLife = lifeWrites.sorted().dropFirst(lifeWrites.count / 2).first ?? 0
    return report
}
