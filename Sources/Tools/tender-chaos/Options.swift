// The command line of tender-chaos.
import Foundation
import Tender

let usage = """
    tender-chaos: payments killed mid-flight, a flapping network during forwarding, and fuzzed inputs.

    USAGE: tender-chaos [--kills N] [--lives L] [--seed S] [--flap N] [--fuzz N] [--only kill|flap|fuzz]
                        [--power-loss] [--json] [--verbose] [--keep] [--workdir DIR] [--sabotage]

      --kills N     kill-test rounds (default 5). Each round runs child processes (this executable, hidden --child
                    flag), each one life of the app: it restores both simulators and the SQLite ledger (a relaunch:
                    every SDK handle is forgotten), draws its own search lags (never zero), recovers, and takes a seeded
                    burst over Stripe and Square: online and offline sales, outages, forwarding steps, manual
                    captures; vendor faults at random points (a confirmation never received, an answer lost after the
                    charge), tasks cancelled mid-collect and mid-confirm, SDK relaunches within the life, retries of
                    the same reference by the app's rules (unknown: the same reference; declined: sometimes another
                    card); refunds, partial, full, repeated and too large, with refund faults. The parent sends it
                    SIGKILL at a seeded random moment, then runs the app's next life itself: it makes both processors
                    reachable and lets simulated time pass the adapters' consistency windows while polling, recovers,
                    retries what is left unfinished, captures, waits again, and compares the ledger with the
                    processors' truth, payments and refunds.
      --lives L     child lives per round before the verifying life (default 2, at most 8): each life after the
                    first starts from the previous one's wreck, and is killed too (one kill in five lands while
                    the app starts and recovers, one in two on a world's first launch; the rest in the burst).
      --power-loss  the kill test cuts the power instead: each child's ledger opens through the power-loss VFS
                    (TenderPowerLoss), which keeps every write SQLite has not synced in the child's memory, so what a
                    kill takes is what a power cut takes: every unsynced write (the intermediate records between the
                    synced write-ahead record and outcome). Half the killed lives get the parent's SIGKILL at a
                    random moment (whole pages lost); the other half cut their own power at a write drawn over the
                    life's writes (calibrated), mid-payment, mid-forwarding, mid-refund, mid-checkpoint (lives also
                    checkpoint the ledger now and then), letting the write in flight reach the disk in part (torn)
                    or part of the cache through (reordered) before they die. The vendors keep their own durability
                    (the simulators' files are the harness's, not the VFS's). The table's row is `power-loss`.
      --seed S      the seed of everything (default 1). The same seed gives the same payments and kill offsets;
                    where a kill lands still depends on the machine's speed.
      --flap N      stored payments in the flapping test (default 400; 2000 is the full test). They are forwarded
                    while both simulated networks toggle between on, off and intermittent at seeded random steps.
      --fuzz N      fuzz iterations per family (default 4000): requests (validate() and a facade), currency codes,
                    state-machine transitions and SessionChange.apply, forwarding-result batches through
                    applyForwardingResults, vendor error names through every error table, vendor lifecycles
                    through the mappings, every vendor enum value, N/10 requests through both adapters, and N/4
                    refund attempts (partial, full, over the total, bad amounts, concurrent, processor faults).
      --only T      run only one test.
      --json        print one JSON object (counts and per-test details) on stdout instead of the table, followed
                    by the summary line: the last line is always the summary below, in both modes.
      --verbose     print the details of every failing kill round on stderr, and a few sales that ended failed.
      --keep        keep what was written (default: removed at the end).
      --workdir D   where the worlds are written (in D/kill and D/flap; default: a fresh directory under the
                    temporary directory).
      --sabotage    self-check of the harness: the kill test's children never persist processor state (as if the
                    processor forgot what it did), so lost payments must be reported; with --power-loss, their
                    ledger skips the sync of the write-ahead records instead (invisible to a kill, fatal at a power
                    cut), so charges unknown to the ledger must be reported. Here the exit status is inverted: 0
                    when the harness saw the damage, 1 when it did not.

    The last line on stdout is exactly
      lost=L duplicated=D crashes=C mismatches=M
    lost:        payments the ledger records as taken (authorized, succeeded, forwarded, stored) that the processor
                 does not hold as a charge, or stored payments left on a device after forwarding everything.
    duplicated:  extra accepted charges for one reference.
    crashes:     child lives that died other than by the harness's SIGKILL or exited non-zero; harness steps that
                 could not run; non-PaymentError errors thrown by the facade.
    mismatches:  charges the ledger does not record as taken (or does not know), amounts that differ, sessions
                 left unfinished once the app's next life is done; outcomeUnknown after recovery although the
                 processor settled that vendor payment, with the processors reachable for longer than the adapters'
                 consistency windows plus the searches' lag; refunds the processor made that the ledger does not
                 record as succeeded (or the reverse), refunds still pending, more refunded than captured, refunds
                 beyond what was left accepted; fuzz violations.
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
    var powerLoss = false
    /// A child's own power cut (--cut-at-write, --cut, --cut-seed).
    var selfCut: SelfCut?
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
        case "--power-loss": options.powerLoss = true
        case "--cut-at-write": options.selfCut = SelfCut(atWrite: number(flag), mode: options.selfCut?.mode ?? .whole,
                                                         seed: options.selfCut?.seed ?? 0)
        case "--cut":
            let text = value(flag)
            guard let mode = CutMode(rawValue: text) else {
                FileHandle.standardError.write(Data("tender-chaos: --cut expects whole, torn or reordered\n".utf8))
                exit(64)
            }
            options.selfCut?.mode = mode
        case "--cut-seed": options.selfCut?.seed = number(flag)
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
