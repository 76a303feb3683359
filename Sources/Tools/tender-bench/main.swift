// tender-bench: Tender's performance, as ratios against baselines measured in the same run.
//   swift run -c release tender-bench            the full run (100,000-payment ledgers)
//   swift run -c release tender-bench --quick    a small run that only checks everything works (CI)
//   add --json for one JSON object on stdout
import Foundation
import Tender

let arguments = Set(CommandLine.arguments.dropFirst())
let quick = arguments.contains("--quick")
let json = arguments.contains("--json")
let unknown = arguments.subtracting(["--quick", "--json"])
guard unknown.isEmpty else {
    FileHandle.standardError.write(Data("unknown option(s): \(unknown.sorted().joined(separator: " "))\nusage: tender-bench [--quick] [--json]\n".utf8))
    exit(2)
}

let large = quick ? 5_000 : 100_000
let small = quick ? 100 : 1_000
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tender-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

func progress(_ text: String) { if !json { FileHandle.standardError.write(Data("… \(text)\n".utf8)) } }

func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }

struct Figure {
    let name: String
    let value: Double
    let target: Double?
    let detail: String
    var met: Bool? { target.map { value <= $0 } }
}
var figures: [Figure] = []
var extras: [String: Double] = [:]

let ledgers = LedgerBenchmarks(directory: directory, quick: quick)

progress("adapter overhead (facade + adapter vs the simulator's client protocol)")
let overhead = try await AdapterOverhead(trials: quick ? 20 : 300).measure()
figures.append(Figure(name: "overhead_ratio", value: overhead.facade / overhead.direct, target: 1.10,
                      detail: String(format: "%.1f µs vs %.1f µs per payment", overhead.facade * 1e6, overhead.direct * 1e6)))
figures.append(Figure(name: "adapter_only_ratio", value: overhead.adapter / overhead.direct, target: nil,
                      detail: String(format: "%.1f µs: the adapter alone, without facade or ledger", overhead.adapter * 1e6)))

progress("ledger commit vs raw insert")
let commit = try await ledgers.ledgerCommit()
figures.append(Figure(name: "ledger_commit_ratio", value: commit.ledger / commit.raw, target: 1.25,
                      detail: String(format: "%.3f ms vs %.3f ms", commit.ledger * 1e3, commit.raw * 1e3)))

progress("queue status with \(large) vs \(small) stored payments")
let memoryBefore = currentMemoryBytes()
let queue = try await ledgers.queueStatusScaling(small: small, large: large)
let memoryPeak = peakMemoryBytes()
figures.append(Figure(name: "queue_status_scaling", value: queue.large / queue.small, target: 2,
                      detail: String(format: "%.1f µs vs %.1f µs", queue.large * 1e6, queue.small * 1e6)))

progress("recovery of \(large) sessions, 1% mid-flight")
let recovery = try await ledgers.recovery(count: large)
figures.append(Figure(name: "recovery_ratio", value: recovery.recovery / recovery.raw, target: 3,
                      detail: String(format: "%.3f s vs %.3f s raw read; %d resolved", recovery.recovery, recovery.raw, recovery.resolved)))
extras["recovery_seconds"] = recovery.recovery

progress("1,000 forwarding results vs 1,000 raw updates")
let forwarding = try await ledgers.forwarding(count: 1_000)
figures.append(Figure(name: "forwarding_ratio", value: forwarding.forwarding / forwarding.raw, target: 1.5,
                      detail: String(format: "%.1f ms vs %.1f ms", forwarding.forwarding * 1e3, forwarding.raw * 1e3)))

extras["peak_memory_mb"] = Double(memoryPeak) / 1_048_576
extras["memory_per_stored_payment_bytes"] = Double(max(0, memoryPeak - memoryBefore)) / Double(large + small)

if json {
    var object: [String: Any] = ["quick": quick, "stored_payments": large]
    for figure in figures {
        object[figure.name] = (figure.value * 1000).rounded() / 1000
        if let met = figure.met { object[figure.name + "_target_met"] = met }
    }
    for (key, value) in extras { object[key] = (value * 1000).rounded() / 1000 }
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} else {
    print("tender-bench\(quick ? " (quick: small sizes, figures not meaningful)" : "") — ratios against baselines measured in this run, medians")
    print("")
    print("figure                  ratio   target  met   detail")
    for figure in figures {
        let target = figure.target.map { String(format: "≤ %.2f", $0) } ?? "-"
        let met = figure.met.map { $0 ? "yes" : "NO" } ?? "-"
        print(pad(figure.name, 22) + " " + pad(String(format: "%7.3f", figure.value), 7) + "  " + pad(target, 7) + " "
              + pad(met, 5) + " " + figure.detail)
    }
    print("")
    print(String(format: "recovery: %.3f s for %d sessions", recovery.recovery, large))
    print(String(format: "peak memory: %.1f MiB; %.0f bytes per stored payment (RSS growth while %d were stored)",
                 extras["peak_memory_mb"]!, extras["memory_per_stored_payment_bytes"]!, large + small))
}
