// tender-demo: a scripted day at a shop, on simulated Stripe and Square readers, through Tender's one API,
// with an embedded SQLite ledger. It exits non-zero if the ledger and a processor disagree on anything.
import Foundation
import Tender

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch let error as UsageError {
    if let message = error.message { FileHandle.standardError.write(Data("tender-demo: \(message)\n".utf8)) }
    FileHandle.standardError.write(Data((Options.usage + "\n").utf8))
    exit(error.message == nil ? 0 : 2)
}

let out = Output(quiet: options.json)
let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("tender-demo-\(UUID().uuidString)")
let ledgerURL: URL
if let path = options.ledgerPath {
    ledgerURL = URL(fileURLWithPath: path)
} else {
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    ledgerURL = temporary.appendingPathComponent("ledger.sqlite")
}
defer { if options.ledgerPath == nil { try? FileManager.default.removeItem(at: temporary) } }

var results: [DayResult] = []
var failure: String?
do {
    let ledger = try SQLitePaymentLedger(url: ledgerURL)
    out.heading("Tender demo — seed \(options.seed), \(options.payments) sales per processor, ledger \(options.ledgerPath ?? "(temporary)")")
    let clock = ManualClock()
    var rigs: [any DemoRig] = []
    if options.processor != .square { rigs.append(StripeRig(seed: options.seed, clock: clock)) }
    if options.processor != .stripe { rigs.append(try await SquareRig(seed: options.seed, clock: clock)) }
    for (index, rig) in rigs.enumerated() {
        // Each shop gets its own stream of amounts, reproducible under the seed.
        let day = try await Shop.nextDay(in: ledger, scope: rig.scope)
        let shop = Shop(rig: rig, ledger: ledger, payments: options.payments, seed: options.seed &+ UInt64(index) &* 7_919,
                        clock: clock, out: out, day: day)
        results.append(try await shop.run())
    }
    await ledger.close()
} catch {
    failure = "\(error)"
}

let mismatches = results.flatMap(\.mismatches)
if options.json {
    var summary: [String: Any] = ["seed": options.seed, "payments_per_processor": options.payments,
                                  "processors": results.map(\.json), "consistent": mismatches.isEmpty && failure == nil]
    if let failure { summary["error"] = failure }
    let data = try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} else if let failure {
    out.bad("the demo stopped: \(failure)")
} else {
    out.heading(mismatches.isEmpty ? "Day closed: every processor reconciles with the ledger." : "Day closed with \(mismatches.count) mismatch(es).")
}
exit(failure == nil && mismatches.isEmpty ? 0 : 1)
