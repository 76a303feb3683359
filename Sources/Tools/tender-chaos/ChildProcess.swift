import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Running one child life as a process of its own, and killing it.

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

/// Runs one child life. With `powerLoss`, its ledger opens through the power-loss VFS (a kill is a power cut) and
/// `selfCut`, if any, has it cut its own power at a write and kill itself.
func runChild(executable: URL, directory: URL, seed: UInt64, round: Int, life: Int, plan: KillPlan,
              sabotage: Bool = false, powerLoss: Bool = false, selfCut: SelfCut? = nil) -> ChildRun {
    let process = Process()
    if sabotage {
        var environment = ProcessInfo.processInfo.environment
        environment["TENDER_CHAOS_SABOTAGE"] = powerLoss ? "skip-write-ahead-sync" : "skip-persist"
        process.environment = environment
    }
    process.executableURL = executable
    process.arguments = ["--child", "--workdir", directory.path, "--seed", "\(seed)", "--round", "\(round)",
                         "--life", "\(life)"]
        + (powerLoss ? ["--power-loss"] + (selfCut?.arguments ?? []) : [])
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
        // A child armed to cut its own power kills itself with SIGKILL.
        if sent || selfCut != nil, process.terminationStatus == SIGKILL {
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
