import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SeededGenerator {
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func chance(_ probability: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < probability }
}

/// Writes one progress line to stdout at once (the parent reads it after the child ends, killed or not).
func progress(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

// MARK: - The child: one life of the app

/// One life of the point-of-sale app: restore, recover, then a seeded burst of payments over both processors. The
/// parent kills it with SIGKILL at a random moment. Prints `ready` after recovery, `step N` before each step and
/// `done` at the end.
///
/// Simulated time needs no file of its own: each life's `ManualClock` starts at a time derived from its round and
/// life (round × 600 s + life × 70 s; the verifying life at + 590 s), later than anything an earlier life can have
/// reached (a burst advances at most ~66 s), so restored simulators always see time move forward.
func runChildLife(directory: URL, seed: UInt64, round: Int, life: Int) async -> Int32 {
    let clock = ManualClock(start: Accounts.epoch.addingTimeInterval(Double(round) * 600 + Double(life) * 70))
    let world: World
    do {
        world = try World(directory: directory, seed: seed, clock: clock)
        try await world.connectReaders()
    } catch {
        FileHandle.standardError.write(Data("child setup failed: \(error)\n".utf8))
        return 3
    }
    for (_, terminal) in world.terminals { _ = await terminal.recover() }
    world.startEventPumps()
    progress("ready")

    var random = SeededGenerator(seed: seed ^ (UInt64(round * 8 + life) &* 0x9E37_79B9_7F4A_7C15) ^ 0xC4A0_5000)
    var stripeOnline = true
    var squareOnline = true
    var manual: [(Bool, String)] = []
    let steps = random.int(14...22)
    var number = 0

    func request(_ reference: String, policy: OfflinePolicy, capture: CaptureMode, amount: Int64) -> PaymentRequest {
        PaymentRequest(amount: Money(minorUnits: amount, currency: .usd), reference: reference, captureMode: capture,
                       offlinePolicy: policy, metadata: ["round": "\(round)"])
    }

    for step in 0..<steps {
        progress("step \(step)")
        clock.advance(by: 1)
        let isStripe = random.chance(0.5)
        let terminal = isStripe ? world.stripeTerminal : world.squareTerminal
        let roll = random.int(0...99)
        switch roll {
        case 0..<12:  // outage toggle
            if isStripe {
                stripeOnline.toggle()
                await world.setStripeNetwork(stripeOnline ? .disabled : .offlineImmediate)
            } else {
                squareOnline.toggle()
                await world.setSquareNetwork(squareOnline ? .online : .offline)
            }
        case 12..<22:  // a forwarding step
            if isStripe, stripeOnline {
                await world.stripeClient.forward(maxCount: random.int(1...3))
            } else if !isStripe, squareOnline {
                await world.squareClient.sync(maxCount: random.int(1...3), processor: world.square)
            }
        case 22..<28:  // a manual capture of an earlier authorized payment
            if let (stripeSide, reference) = manual.randomElement(using: &random) {
                let target = stripeSide ? world.stripeTerminal : world.squareTerminal
                _ = try? await target.capture(reference: reference)
            }
        default:  // a sale
            number += 1
            let reference = "r\(round)-\(life)-\(number)"
            let online = isStripe ? stripeOnline : squareOnline
            let policy: OfflinePolicy = switch random.int(0...9) {
            case 0..<5: .preferOnline
            case 5..<7: .requireOnline
            default: online ? .preferOnline : .forceOffline
            }
            let capture: CaptureMode = random.chance(0.2) ? .manual : .automatic
            let amount = Int64(random.int(1...120)) * 100 + Int64(random.int(0...99))
            // The customer's card.
            let declines = random.chance(0.12)
            if isStripe {
                let card: Stripe.SimulatedCardType = declines ? .chargeDeclinedInsufficientFunds : .visa
                await world.stripeSimulator.updateConfiguration { $0.simulatedCard = card }
            } else {
                await world.squareSimulator.setPresentedCard(declines ? .insufficientFunds : .visaChip)
            }
            // Now and then the answer is lost in the network (after or before the processor acted).
            if online, random.chance(0.15) {
                if isStripe {
                    world.stripeClient.confirmTimeouts.withLock { $0 = 1 }
                } else {
                    await world.squareSimulator.injectFault(random.chance(0.5) ? .timeoutAfterServerCharge
                                                                              : .timeoutBeforeServerCharge)
                }
            }
            let sale = request(reference, policy: policy, capture: capture, amount: amount)
            func attempt(_ label: String) async -> PaymentSession? {
                do {
                    let session = try await terminal.takePayment(sale)
                    let detail = session.state == .failed || session.state == .outcomeUnknown
                        ? " \(isStripe ? "stripe" : "square") \(reference) \(session.lastError?.code.rawValue ?? "-") \(session.lastError?.vendor?.name ?? "-")"
                        : ""
                    progress("\(label) \(session.state)\(detail)")
                    return session
                } catch {
                    progress("\(label) refused")
                    return nil
                }
            }
            var session = await attempt("sale")
            // An unknown outcome: retry the same reference (never a new one), up to twice.
            var retries = 0
            while let current = session, current.state == .outcomeUnknown || current.state == .processing
                || current.state == .collecting, retries < 2 {
                retries += 1
                clock.advance(by: 1)
                session = await attempt("retry")
            }
            if capture == .manual, let session, session.state == .authorized {
                manual.append((isStripe, reference))
            }
        }
    }
    progress("done")
    await world.close()
    return 0
}

// MARK: - The verifier: the next life after a kill

/// The app's next launch after a kill, run in the parent: restore, recover, network on, forward everything, let
/// recovery record the results, retry the same reference for sales left in flight, capture what waits for
/// capture, then compare the ledger with both processors' truth.
struct VerifierStats: Codable, Sendable {
    var resolvedByRecovery = 0
    var retriedInFlight = 0
    var captured = 0
}

func verifyAfterKill(directory: URL, seed: UInt64, round: Int, stats: inout VerifierStats) async -> Tally {
    var tally = Tally()
    let clock = ManualClock(start: Accounts.epoch.addingTimeInterval(Double(round) * 600 + 590))
    let world: World
    do {
        world = try World(directory: directory, seed: seed, clock: clock)
        try await world.connectReaders()
    } catch {
        tally.crashes += 1
        tally.worldUnusable = true
        tally.note("round \(round): the next life could not start: \(error)")
        return tally
    }
    for (_, terminal) in world.terminals { stats.resolvedByRecovery += await terminal.recover().resolved.count }
    await world.forwardEverything()
    clock.advance(by: 1)
    for (name, terminal) in world.terminals {
        let report = await terminal.recover()
        stats.resolvedByRecovery += report.resolved.count
        for reference in report.unresolved {
            tally.mismatches += 1
            tally.note("round \(round) \(name) \(reference): outcomeUnknown after recovery with the processor reachable")
        }
    }
    // Sales left mid-flight (the processor has an unfinished payment): the app retries the same reference.
    for (_, terminal) in world.terminals {
        let sessions = (try? await terminal.sessions()) ?? []
        for session in sessions where [.created, .collecting, .processing, .outcomeUnknown].contains(session.state) {
            let retry = PaymentRequest(amount: session.amount, reference: session.reference,
                                       captureMode: session.captureMode, offlinePolicy: .requireOnline,
                                       tip: session.tip)
            stats.retriedInFlight += 1
            _ = try? await terminal.takePayment(retry)
        }
    }
    // Payments waiting for capture are captured.
    for (_, terminal) in world.terminals {
        let sessions = (try? await terminal.sessions()) ?? []
        for session in sessions where session.isReadyToCapture {
            if (try? await terminal.capture(reference: session.reference)) != nil { stats.captured += 1 }
        }
    }
    tally.add(await compare(world: world, label: "round \(round)", prefix: "r\(round)-"))
    await world.close()
    return tally
}

// MARK: - The parent loop

struct KillReport: Codable, Sendable {
    var rounds = 0
    var lives = 0
    var killed = 0
    var killedDuringBurst = 0
    var killedDuringStartup = 0
    var finishedBeforeKill = 0
    var seconds = 0.0
    /// What the children's sales and retries returned (killed lives included, up to the kill).
    var childOutcomes: [String: Int] = [:]
    var verifier = VerifierStats()
    /// Worlds the next life could not open (kept on disk under the work directory).
    var brokenWorlds: [String] = []
    var tally = Tally()
}

/// When the parent kills a child: a delay after launch (startup and recovery), or after the child said `ready`
/// (the burst).
enum KillPlan { case never, afterLaunch(Double), afterReady(Double) }

/// How a child life ended, with its output and timings (launch → ready, ready → end).
enum ChildEnd { case killed(output: String), finished(output: String), setupFailed(String), crashed(String) }

struct ChildRun {
    var end: ChildEnd
    var startup: Double?
    var burst: Double?
}

func runChild(executable: URL, directory: URL, seed: UInt64, round: Int, life: Int, plan: KillPlan,
              sabotage: Bool = false) -> ChildRun {
    let process = Process()
    if sabotage {
        var environment = ProcessInfo.processInfo.environment
        environment["TENDER_CHAOS_SABOTAGE"] = "skip-persist"
        process.environment = environment
    }
    process.executableURL = executable
    process.arguments = ["--child", "--workdir", directory.path, "--seed", "\(seed)", "--round", "\(round)",
                         "--life", "\(life)"]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let launched = Date()
    do { try process.run() } catch { return ChildRun(end: .crashed("cannot launch: \(error)")) }
    var sent = false
    var early = Data()
    var readyAt: Date?
    func killNow() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            sent = true
        }
    }
    func awaitReady() {
        // Blocks until the child reports `ready` (or ends).
        while !String(decoding: early, as: UTF8.self).contains("ready\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            early.append(chunk)
        }
        readyAt = Date()
    }
    switch plan {
    case .never:
        awaitReady()
    case .afterLaunch(let delay):
        usleep(useconds_t(max(0, delay) * 1_000_000))
        killNow()
    case .afterReady(let delay):
        awaitReady()
        usleep(useconds_t(max(0, delay) * 1_000_000))
        killNow()
    }
    process.waitUntilExit()
    let ended = Date()
    early.append(output.fileHandleForReading.readDataToEndOfFile())
    let text = String(decoding: early, as: UTF8.self)
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    var run = ChildRun(end: .crashed("unknown termination"))
    if let readyAt, text.contains("ready\n") {
        run.startup = readyAt.timeIntervalSince(launched)
        if !sent { run.burst = ended.timeIntervalSince(readyAt) }
    }
    switch process.terminationReason {
    case .uncaughtSignal:
        if sent, process.terminationStatus == SIGKILL {
            run.end = .killed(output: text)
        } else {
            run.end = .crashed("signal \(process.terminationStatus): \(errorText.suffix(300))")
        }
    case .exit:
        switch process.terminationStatus {
        case 0: run.end = .finished(output: text)
        case 3: run.end = .setupFailed(errorText.trimmingCharacters(in: .whitespacesAndNewlines))
        default: run.end = .crashed("exit \(process.terminationStatus): \(errorText.suffix(300))")
        }
    @unknown default:
        break
    }
    return run
}

func runKillTest(kills: Int, livesPerRound: Int, seed: UInt64, workRoot: URL, executable: URL, verbose: Bool,
                 sabotage: Bool = false, keepWorlds: Bool = false) async -> KillReport {
    var report = KillReport()
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
                           plan: .never)
        if let startup = run.startup { startups.append(startup) }
        if let burst = run.burst { bursts.append(burst) }
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
                report.tally.addFailures(await auditWorld(directory: directory, seed: seed, round: round))
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
            // One kill in five lands while the app starts and recovers (one in two on a world's first launch,
            // when the ledger file is created); the rest during the burst.
            let fraction = Double(random.next() % 10_000) / 10_000
            let firstLaunch = roundsInWorld == 1 && life == 0
            let plan: KillPlan = random.chance(firstLaunch ? 0.5 : 0.2) ? .afterLaunch(startupTime * 1.1 * fraction)
                : .afterReady(burstTime * fraction)
            report.lives += 1
            let run = runChild(executable: executable, directory: directory, seed: seed, round: round, life: life,
                               plan: plan, sabotage: sabotage)
            // Follow the machine's speed (the worlds grow within a directory; the disk may be busy).
            if let startup = run.startup { startupTime = 0.8 * startupTime + 0.2 * startup }
            if let burst = run.burst { burstTime = 0.8 * burstTime + 0.2 * burst }
            switch run.end {
            case .killed(let output):
                count(output, into: &report.childOutcomes)
                report.killed += 1
                if output.split(separator: "\n").contains("ready") { report.killedDuringBurst += 1 } else {
                    report.killedDuringStartup += 1
                }
            case .finished(let output):
                count(output, into: &report.childOutcomes)
                report.finishedBeforeKill += 1
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
        if verbose, verdict.lost + verdict.duplicated + verdict.crashes + verdict.mismatches > 0 {
            FileHandle.standardError.write(Data("round \(round): \(verdict.notes.joined(separator: "; "))\n".utf8))
        }
        report.tally.add(verdict)
    }
    if worldIndex >= 0, report.brokenWorlds.last != directory.lastPathComponent {
        report.tally.addFailures(await auditWorld(directory: directory, seed: seed, round: kills))
    }
    if !keepWorlds { try? FileManager.default.removeItem(at: directory) }
    report.seconds = Date().timeIntervalSince(start)
    return report
}

/// Before a world is dropped: every round's payments, compared again, so a later life that damaged an earlier
/// round's sessions (or charged them again) is caught.
func auditWorld(directory: URL, seed: UInt64, round: Int) async -> Tally {
    let clock = ManualClock(start: Accounts.epoch.addingTimeInterval(Double(round) * 600 + 595))
    guard let world = try? World(directory: directory, seed: seed, clock: clock) else {
        var tally = Tally()
        tally.crashes += 1
        tally.note("audit of \(directory.lastPathComponent): the world could not be opened")
        return tally
    }
    let tally = await compare(world: world, label: "audit \(directory.lastPathComponent)", prefix: "r")
    await world.close()
    return tally
}

/// A few first attempts that ended `failed` (processor, reference, error code, vendor name), for --verbose.
let examples = Locked<[String]>([])

/// Counts the `sale STATE` / `retry STATE` lines of a child's output.
private func count(_ output: String, into outcomes: inout [String: Int]) {
    for line in output.split(separator: "\n") where line.hasPrefix("sale failed") {
        examples.withLock { if $0.count < 5 { $0.append(String(line)) } }
    }
    for line in output.split(separator: "\n") where line.hasPrefix("sale ") || line.hasPrefix("retry ") {
        outcomes[line.split(separator: " ").prefix(2).joined(separator: " "), default: 0] += 1
    }
}
