// tender-bench: Tender's performance, as ratios against baselines measured in the same run, and the ledger's syncs.
//   swift run -c release tender-bench            the full run (100,000-payment ledgers)
//   swift run -c release tender-bench --quick    a small, fast run that checks everything works (CI)
//   add --json for one JSON object on stdout; --syncs runs only the counted day (to check it against strace);
//   --only WORD runs only the ratios whose names contain WORD (e.g. --only forwarding)
import Foundation
import Tender

/// The command line: flags, and the word after `--only`.
func parseArguments() -> (flags: Set<String>, only: String?) {
    var flags: Set<String> = []
    var only: String?
    var iterator = CommandLine.arguments.dropFirst().makeIterator()
    while let argument = iterator.next() {
        if argument == "--only", let word = iterator.next() { only = word } else { flags.insert(argument) }
    }
    return (flags, only)
}
let (arguments, only) = parseArguments()
let quick = arguments.contains("--quick")
let json = arguments.contains("--json")
let syncsOnly = arguments.contains("--syncs")
let unknown = arguments.subtracting(["--quick", "--json", "--syncs"])
guard unknown.isEmpty else {
    FileHandle.standardError.write(Data("unknown option(s): \(unknown.sorted().joined(separator: " "))\nusage: tender-bench [--quick] [--json] [--syncs] [--only WORD]\n".utf8))
    exit(2)
}
/// Whether the ratios named `names` are to be measured in this run.
func runs(_ names: String...) -> Bool {
    guard let only else { return true }
    return names.contains { $0.contains(only) }
}

let large = quick ? 5_000 : 100_000
let small = quick ? 100 : 1_000
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tender-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

func progress(_ text: String) { if !json { FileHandle.standardError.write(Data("… \(text)\n".utf8)) } }

progress("days of payments through the facade and the SQLite ledger, counting syncs")
let day = try await SyncDay(directory: directory).run()
if syncsOnly {
    print("syncs counted in SQLite's VFS over \(day.days) days: \(day.syncs) during the payments "
          + "(\(day.payments): \(day.sales) sales, \(day.refunds) refunds), \(day.creationSyncs) creating the file, "
          + "\(day.openingSyncs) opening it each day, \(day.closingSyncs) closing it each day: "
          + "\(day.allSyncs) in all; strace also sees \(day.directorySyncs) directory syncs, "
          + "\(day.allSyncs + day.directorySyncs) expected")
    for phase in day.phases { print("  \(phase.name): \(phase.operations) operations, \(phase.syncs) syncs") }
    try? FileManager.default.removeItem(at: directory)  // exit() skips the deferred removal
    exit(0)
}

var report = Report(quick: quick, day: day)
let ledgers = LedgerBenchmarks(directory: directory, quick: quick)

if runs("overhead_ratio", "adapter_only_ratio") {
    progress("adapter overhead (facade + adapter, and adapter alone, vs the simulator's client protocol)")
    let overhead = try await AdapterOverhead(quick: quick).measure()
    report.ratios += [overhead.facade, overhead.adapter]
}
if runs("payment_floor_ratio", "payment_floor_indexed_ratio") {
    progress("a payment through the facade and the SQLite ledger vs the simulator's calls and two raw durable commits")
    report.ratios += try await PaymentFloor(directory: directory, quick: quick).measure()
}
if runs("cold_start_ratio") {
    progress("opening a ledger of \(large) payments and recovering to ready vs a raw open and read")
    report.ratios.append(try await ledgers.coldStart(count: large))
}
if runs("ledger_commit_ratio", "ledger_commit_nondurable_ratio") {
    progress("ledger commit vs raw insert, durable and not")
    report.ratios.append(try await ledgers.ledgerCommit(durable: true))
    report.ratios.append(try await ledgers.ledgerCommit(durable: false))
}
if runs("queue_status_scaling") {
    progress("queue status with \(large) vs \(small) stored payments")
    let memoryBefore = currentMemoryBytes()
    report.ratios.append(try await ledgers.queueStatusScaling(small: small, large: large))
    let memoryPeak = peakMemoryBytes()
    report.peakMemoryMiB = Double(memoryPeak) / 1_048_576
    report.memoryPerStoredPayment = Double(max(0, memoryPeak - memoryBefore)) / Double(large + small)
    report.storedPayments = large + small
}
if runs("recovery_ratio") {
    progress("recovery of \(large) sessions, 1% mid-flight, vs a raw read")
    report.ratios.append(try await ledgers.recovery(count: large))
}
if runs("forwarding_ratio", "forwarding_unsynced_ratio", "forwarding_same_writes_ratio", "forwarding_facade_ratio") {
    progress("1,000 forwarding results: the ledger's batch vs raw updates (synced, not synced), vs the same writes by "
             + "hand, and the facade")
    let forwarding = ForwardingBenchmark(directory: directory, quick: quick)
    report.ratios.append(try await forwarding.measure(throughFacade: false, baseline: .minimalTable(synced: true)))
    report.ratios.append(try await forwarding.measure(throughFacade: false, baseline: .minimalTable(synced: false)))
    report.ratios.append(try await forwarding.measure(throughFacade: false, baseline: .sameWrites))
    report.ratios.append(try await forwarding.measure(throughFacade: true, baseline: .minimalTable(synced: true)))
}

if json { try report.printJSON() } else { report.printTable() }
