// tender-chaos: Tender's durability harness. See `usage` in Options.swift, or run with --help.
import Foundation
import Tender

let options = parseOptions()

if options.child {
    guard let workdir = options.workdir else { exit(64) }
    let status = await runChildLife(directory: URL(fileURLWithPath: workdir), seed: options.seed, round: options.round,
                                    life: options.life, powerLoss: options.powerLoss, selfCut: options.selfCut)
    exit(status)
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
                                  keepWorlds: options.keep, powerLoss: options.powerLoss)
}
if runs("flap"), options.flap > 0 {
    full.flap = await runFlapTest(count: options.flap, seed: options.seed,
                                  directory: workRoot.appendingPathComponent("flap"))
}
if runs("fuzz"), options.fuzz > 0 {
    full.fuzz = await runFuzz(iterations: options.fuzz, seed: options.seed)
}
full.total()
if !options.keep {
    // Only what this run wrote: a directory given with --workdir is kept, its kill/ and flap/ are removed.
    if options.workdir == nil {
        try? FileManager.default.removeItem(at: workRoot)
    } else {
        for part in ["kill", "flap"] { try? FileManager.default.removeItem(at: workRoot.appendingPathComponent(part)) }
    }
}

if options.json {
    full.printJSON()
} else {
    full.printTable(verbose: options.verbose)
}
print("lost=\(full.lost) duplicated=\(full.duplicated) crashes=\(full.crashes) mismatches=\(full.mismatches)")
if options.sabotage {
    // The self-check passes when the sabotage was seen.
    exit(full.lost + full.mismatches > 0 ? 0 : 1)
}
exit(full.lost + full.duplicated + full.crashes + full.mismatches == 0 ? 0 : 1)
