// tender-chaos: Tender's durability harness. See `usage` below, or run with --help.
import Foundation
import Tender

let usage = """
    tender-chaos: payments killed mid-flight, a flapping network during forwarding, and fuzzed inputs.

    USAGE: tender-chaos [--kills N] [--lives L] [--seed S] [--flap N] [--fuzz N] [--only kill|flap|fuzz]
                        [--json] [--verbose] [--keep] [--workdir DIR] [--sabotage]

      --kills N     kill-test rounds (default 5). Each round runs a child process (this executable, hidden
                    --child flag) that restores both simulators and the SQLite ledger, recovers, and takes a seeded
                    burst of payments over Stripe and Square (online and offline sales, outages, lost answers and
                    retries of the same reference, forwarding steps, manual captures); the parent sends it SIGKILL
                    at a seeded random moment, then runs the app's next life itself (recover, forward everything,
                    retry sales left in flight, capture) and compares the ledger with the processors' truth.
      --lives L     child lives per round before the verifying life (default 2, at most 8): each life after the
                    first starts from the previous one's wreck, and is killed too (one kill in five lands while
                    the app starts and recovers, one in two on a world's first launch; the rest in the burst).
      --seed S      the seed of everything (default 1). The same seed gives the same payments and kill offsets;
                    where a kill lands still depends on the machine's speed.
      --flap N      stored payments in the flapping test (default 400; 2000 is the full test). They are forwarded
                    while both simulated networks toggle between on, off and intermittent at seeded random steps.
      --fuzz N      fuzz iterations per family (default 4000): requests (validate() and a facade), currency codes,
                    state-machine transitions and SessionChange.apply, forwarding-result batches through
                    applyForwardingResults, vendor error names through every error table, vendor lifecycles
                    through the mappings, every vendor enum value, and N/10 requests through both adapters.
      --only T      run only one test.
      --json        print one JSON object (counts and per-test details) on stdout instead of the table, followed
                    by the summary line: the last line is always the summary below, in both modes.
      --verbose     print the details of every failing kill round on stderr, and a few sales that ended failed.
      --keep        keep what was written (default: removed at the end).
      --workdir D   where the worlds are written (in D/kill and D/flap; default: a fresh directory under the
                    temporary directory).
      --sabotage    self-check of the harness: the kill test's children never persist processor state (as if the
                    processor forgot what it did), so lost payments must be reported. Here the exit status is
                    inverted: 0 when the harness saw the damage, 1 when it did not.

    The last line on stdout is exactly
      lost=L duplicated=D crashes=C mismatches=M
    lost:        payments the ledger records as taken (authorized, succeeded, forwarded, stored) that the processor
                 does not hold as a charge, or stored payments left on a device after forwarding everything.
    duplicated:  extra accepted charges for one reference.
    crashes:     child lives that died other than by the harness's SIGKILL or exited non-zero; harness steps that
                 could not run; non-PaymentError errors thrown by the facade.
    mismatches:  charges the ledger does not record as taken (or does not know), amounts that differ, sessions
                 left unfinished or outcomeUnknown after recovery with the processor reachable, fuzz violations.
    Exit status: 0 only when all four are zero.
    """

struct Options {
    var kills = 5
    var seed: UInt64 = 1
    var flap = 400
    var fuzz = 4000
    var only: String?
    var json = false
    var verbose = false
    var keep = false
    var workdir: String?
    var child = false
    var sabotage = false
    var round = 0
    var life = 0
    var lives = 2
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = Array(CommandLine.arguments.dropFirst())
    func value(_ flag: String) -> String {
        guard !arguments.isEmpty else {
            FileHandle.standardError.write(Data("tender-chaos: \(flag) needs a value\n\n\(usage)\n".utf8))
            exit(64)
        }
        return arguments.removeFirst()
    }
    func number<T: FixedWidthInteger>(_ flag: String) -> T {
        let text = value(flag)
        guard let parsed = T(text), parsed >= 0 else {
            FileHandle.standardError.write(Data("tender-chaos: \(flag) expects a non-negative number, got \(text)\n".utf8))
            exit(64)
        }
        return parsed
    }
    while !arguments.isEmpty {
        let flag = arguments.removeFirst()
        switch flag {
        case "--kills": options.kills = number(flag)
        case "--seed": options.seed = number(flag)
        case "--flap": options.flap = number(flag)
        case "--fuzz": options.fuzz = number(flag)
        case "--only": options.only = value(flag)
        case "--json": options.json = true
        case "--verbose": options.verbose = true
        case "--keep": options.keep = true
        case "--workdir": options.workdir = value(flag)
        case "--child": options.child = true
        case "--sabotage": options.sabotage = true
        case "--round": options.round = number(flag)
        case "--life": options.life = number(flag)
        case "--lives": options.lives = min(8, max(1, number(flag)))
        case "--help", "-h":
            print(usage)
            exit(0)
        default:
            FileHandle.standardError.write(Data("tender-chaos: unknown argument \(flag)\n\n\(usage)\n".utf8))
            exit(64)
        }
    }
    if let only = options.only, !["kill", "flap", "fuzz"].contains(only) {
        FileHandle.standardError.write(Data("tender-chaos: --only expects kill, flap or fuzz\n".utf8))
        exit(64)
    }
    return options
}

let options = parseOptions()

if options.child {
    guard let workdir = options.workdir else { exit(64) }
    let status = await runChildLife(directory: URL(fileURLWithPath: workdir), seed: options.seed, round: options.round,
                                  life: options.life)
    exit(status)
}

struct FullReport: Codable {
    var seed: UInt64
    var kill: KillReport?
    var flap: FlapReport?
    var fuzz: FuzzReport?
    var lost = 0
    var duplicated = 0
    var crashes = 0
    var mismatches = 0
}

let executable = Bundle.main.executableURL
    ?? URL(fileURLWithPath: CommandLine.arguments[0], relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
let workRoot = options.workdir.map { URL(fileURLWithPath: $0) }
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("tender-chaos-\(ProcessInfo.processInfo.processIdentifier)")
try? FileManager.default.createDirectory(at: workRoot, withIntermediateDirectories: true)

var full = FullReport(seed: options.seed)
func runs(_ test: String) -> Bool { options.only == nil || options.only == test }

if runs("kill"), options.kills > 0 {
    full.kill = await runKillTest(kills: options.kills, livesPerRound: options.lives, seed: options.seed,
                                  workRoot: workRoot.appendingPathComponent("kill"), executable: executable,
                                  verbose: options.verbose, sabotage: options.sabotage,
                                  keepWorlds: options.keep)
}
if runs("flap"), options.flap > 0 {
    full.flap = await runFlapTest(count: options.flap, seed: options.seed,
                                  directory: workRoot.appendingPathComponent("flap"))
}
if runs("fuzz"), options.fuzz > 0 {
    full.fuzz = await runFuzz(iterations: options.fuzz, seed: options.seed)
}
for tally in [full.kill?.tally, full.flap?.tally, full.fuzz?.tally].compactMap({ $0 }) {
    full.lost += tally.lost
    full.duplicated += tally.duplicated
    full.crashes += tally.crashes
    full.mismatches += tally.mismatches
}
if !options.keep {
    // Only what this run wrote: a directory given with --workdir is kept, its kill/ and flap/ are removed.
    if options.workdir == nil {
        try? FileManager.default.removeItem(at: workRoot)
    } else {
        for part in ["kill", "flap"] { try? FileManager.default.removeItem(at: workRoot.appendingPathComponent(part)) }
    }
}

if options.json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    if let data = try? encoder.encode(full) { print(String(decoding: data, as: UTF8.self)) }
} else {
    func row(_ cells: [String]) -> String {
        let widths = [10, 7, 9, 9, 9, 5, 5, 5, 5, 8]
        return zip(cells, widths).map { cell, width in
            cell.count >= width ? cell : String(repeating: " ", count: width - cell.count) + cell
        }.joined(separator: " ")
    }
    print(row(["test", "rounds", "killed", "payments", "charges", "lost", "dup", "crash", "mism", "seconds"]))
    if let kill = full.kill {
        let t = kill.tally
        print(row(["kill", "\(kill.rounds)", "\(kill.killed)", "\(t.payments)", "\(t.chargesChecked)", "\(t.lost)",
                   "\(t.duplicated)", "\(t.crashes)", "\(t.mismatches)", String(format: "%.1f", kill.seconds)]))
    }
    if let flap = full.flap {
        let t = flap.tally
        print(row(["flapping", "\(flap.forwardingSteps)", "-", "\(t.payments)", "\(t.chargesChecked)", "\(t.lost)",
                   "\(t.duplicated)", "\(t.crashes)", "\(t.mismatches)", String(format: "%.1f", flap.seconds)]))
    }
    if let fuzz = full.fuzz {
        let t = fuzz.tally
        let inputs = fuzz.requests + fuzz.currencies + fuzz.transitions + fuzz.eventSequences + fuzz.vendorNames
            + fuzz.vendorSequences + fuzz.enumValues + fuzz.adapterRequests + fuzz.refundAttempts
        print(row(["fuzz", "\(inputs)", "-", "\(fuzz.requests)", "-", "\(t.lost)", "\(t.duplicated)", "\(t.crashes)",
                   "\(t.mismatches)", String(format: "%.1f", fuzz.seconds)]))
    }
    if let kill = full.kill {
        print("kill: \(kill.rounds) rounds, \(kill.killed) of \(kill.lives) child lives killed (\(kill.killedDuringBurst) during the burst, "
              + "\(kill.killedDuringStartup) while starting or recovering), \(kill.finishedBeforeKill) finished first")
        if !kill.brokenWorlds.isEmpty {
            print("  the app could not start again in: \(kill.brokenWorlds.joined(separator: ", "))")
        }
        let outcomes = kill.childOutcomes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        print("  child results: " + outcomes.joined(separator: " "))
        if options.verbose {
            for example in examples.current { print("    \(example)") }
        }
        print("  next lives: \(kill.verifier.resolvedByRecovery) sessions resolved by recovery, "
              + "\(kill.verifier.retriedInFlight) in-flight sales retried with the same reference, "
              + "\(kill.verifier.captured) captures")
    }
    if let flap = full.flap {
        print("flapping: \(flap.stored) stored, \(flap.toggles) network toggles over \(flap.forwardingSteps) forwarding steps, "
              + "\(flap.resolvedOnlyByRecovery) recorded only by recovery")
    }
    if let fuzz = full.fuzz {
        print("fuzz: \(fuzz.requests) requests (\(fuzz.validRequests) valid), \(fuzz.currencies) currency codes, "
              + "\(fuzz.transitions) transitions, \(fuzz.eventSequences) forwarding-result batches, "
              + "\(fuzz.vendorNames) vendor error names, \(fuzz.vendorSequences) vendor lifecycles, "
              + "\(fuzz.enumValues) vendor enum values, \(fuzz.adapterRequests) requests through the adapters, "
              + "\(fuzz.refundAttempts) refund attempts (\(fuzz.refundsRecorded) recorded, "
              + "\(fuzz.overRefundsAccepted) accepted beyond what was captured)")
    }
    let notes = (full.kill?.tally.notes ?? []) + (full.flap?.tally.notes ?? []) + (full.fuzz?.tally.notes ?? [])
    for note in notes.prefix(20) { print("  ! \(note)") }
}
print("lost=\(full.lost) duplicated=\(full.duplicated) crashes=\(full.crashes) mismatches=\(full.mismatches)")
let clean = full.lost + full.duplicated + full.crashes + full.mismatches == 0
if options.sabotage {
    // The self-check passes when the sabotage was seen.
    exit(full.lost + full.mismatches > 0 ? 0 : 1)
}
exit(clean ? 0 : 1)
