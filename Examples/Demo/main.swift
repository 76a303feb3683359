// tender-demo: a scripted day at a shop, on simulated Stripe and Square readers, through Tender's one API,
// with an embedded SQLite ledger, then the server half through TenderServer. It exits non-zero if the ledger and a
// processor disagree on anything.
import Foundation
import Tender
import TenderTesting

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

let path: DemoPath = options.throughSDKSurface ? .sdkSurface : .direct
var results: [DayResult] = []
var server: ServerHalfResult?
var failure: String?

/// The scripted day on the simulated readers, then the server half through TenderServer.
@MainActor func runDay() async {
    do {
        let ledger = try await SQLitePaymentLedger.open(url: ledgerURL)
        out.heading("Tender demo — seed \(options.seed), \(options.payments) sales per processor, ledger \(options.ledgerPath ?? "(temporary)")")
        if path == .sdkSurface {
            out.note("through the SDK surface: StripeProcessor → StripeTerminalBridge → Stripe Terminal's API (mirror) → simulator; SquareProcessor → SquareMobilePaymentsBridge → Square's SDK API (mirror) → simulator")
        }
        let clock = ManualClock()
        var index = 0
        for choice in [Options.ProcessorChoice.stripe, .square] where options.processor == choice || options.processor == .both {
            // Each rig is made when its day starts (the surface's backend slot holds one at a time), on the shared clock.
            let rig: any DemoRig = choice == .stripe
                ? await StripeRig(seed: options.seed, clock: clock, path: path)
                : try await SquareRig(seed: options.seed, clock: clock, path: path)
            // Each shop gets its own stream of amounts, reproducible under the seed.
            let day = try await Shop.nextDay(in: ledger, scope: rig.scope)
            var shop = Shop(rig: rig, ledger: ledger, payments: options.payments, seed: options.seed &+ UInt64(index) &* 7_919,
                            clock: clock, out: out, day: day)
            if options.bluetoothOnly { shop.skipOtherCounters = (true, nil) }
            do {
                results.append(try await shop.run())
                await rig.finish()
            } catch {
                await rig.finish()
                throw error
            }
            index += 1
        }
        await ledger.close()
        server = await ServerHalf.run(seed: options.seed, out: out, environment: ProcessInfo.processInfo.environment)
    } catch {
        failure = "\(error)"
    }
}

if let url = options.server {
    server = await ServerMode.run(server: url, code: options.code, seed: options.seed, out: out,
                                  environment: ProcessInfo.processInfo.environment)
} else {
    await runDay()
}

let mismatches = results.flatMap(\.mismatches) + (server?.mismatches ?? [])
if options.json {
    var summary: [String: Any] = ["seed": options.seed, "payments_per_processor": options.payments,
                                  "processors": results.map(\.json), "through_sdk_surface": options.throughSDKSurface,
                                  "consistent": mismatches.isEmpty && failure == nil]
    if let server { summary["server_half"] = server.json }
    if let failure { summary["error"] = failure }
    let data = try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} else if let failure {
    out.bad("the demo stopped: \(failure)")
} else {
    let peers = server.map { $0.localstripe || $0.squarePeer } ?? false
    if options.server != nil {
        out.heading(mismatches.isEmpty ? "The merchant server's device reconciles with the peers."
            : "The merchant server's device: \(mismatches.count) mismatch(es).")
    } else {
        out.heading(mismatches.isEmpty
            ? "Day closed: every processor reconciles with the ledger\(peers ? ", and TenderServer's calls with the peers" : "")."
            : "Day closed with \(mismatches.count) mismatch(es).")
    }
}
exit(failure == nil && mismatches.isEmpty ? 0 : 1)
