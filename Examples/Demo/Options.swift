import Foundation

/// The demo's command line.
struct Options {
    enum ProcessorChoice: String, CaseIterable { case stripe, square, both }

    var processor: ProcessorChoice = .both
    var payments = 24
    var seed: UInt64 = 42
    var json = false
    var ledgerPath: String?
    var throughSDKSurface = false
    var bluetoothOnly = false
    var server: URL?
    var code: String?

    static let usage = """
        usage: tender-demo [--processor stripe|square|both] [--payments N] [--seed N] [--json] [--ledger PATH]
                           [--through-sdk-surface] [--bluetooth-only]
               tender-demo --server URL [--code CODE] [--seed N] [--json]

        A scripted day at a shop on simulated Stripe and Square readers, through Tender's one API, with an SQLite
        ledger: online sales, an outage and offline sales under risk limits, declines, forwarding, captures, refunds
        (one in part, one in full, an over-refund refused), a deposit left uncaptured until the vendor's deadline
        passes, and a closing reconciliation of the ledger against each processor's own records. Then the server
        half: captures and refunds through TenderServer against the loopback peers when they run
        (Scripts/peers/peers.sh start; . .build/peers/env). Exits 1 on any mismatch.

          --processor            which simulated processor(s) to run (default: both)
          --payments             how many sales per processor, 9...1000 (default: 24)
          --seed                 seed for amounts and cards; the same seed gives the same output (default: 42)
          --json                 print only the summary, as one JSON object
          --ledger               the SQLite ledger file (default: a fresh temporary file, removed afterwards)
          --through-sdk-surface  run each adapter over its bridge to the vendor SDK (StripeTerminalBridge,
                                 SquareMobilePaymentsBridge) compiled against the SDK's surface mirror, whose
                                 backend is the same simulator; it tells the same day as the direct run, the
                                 smart-reader and Tap to Pay sales included
          --bluetooth-only       skip the other counters (smart reader, Tap to Pay): the counter's Bluetooth
                                 reader only
          --server               instead of the day: act as a device of the merchant server at URL
                                 (swift run --package-path Examples/MerchantServer merchant-server): enrol with a
                                 code, take a payment on each loopback peer the server runs against, capture and
                                 refund it through the server, reconcile; with MERCHANT_ADMIN_TOKEN set, make the
                                 code and at the end revoke the device and show its next request refused
          --code                 the one-time enrolment code for --server (default: one made with
                                 MERCHANT_ADMIN_TOKEN)
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var iterator = arguments.makeIterator()
        func value(_ flag: String) throws -> String {
            guard let next = iterator.next() else { throw UsageError("\(flag) needs a value") }
            return next
        }
        while let argument = iterator.next() {
            switch argument {
            case "--processor":
                let text = try value(argument)
                guard let choice = ProcessorChoice(rawValue: text) else { throw UsageError("unknown processor \"\(text)\"") }
                options.processor = choice
            case "--payments":
                let text = try value(argument)
                guard let count = Int(text), (9...1_000).contains(count) else {
                    throw UsageError("--payments takes a number from 9 to 1000, not \"\(text)\"")
                }
                options.payments = count
            case "--seed":
                let text = try value(argument)
                guard let seed = UInt64(text) else { throw UsageError("--seed takes a non-negative integer, not \"\(text)\"") }
                options.seed = seed
            case "--json": options.json = true
            case "--ledger": options.ledgerPath = try value(argument)
            case "--through-sdk-surface": options.throughSDKSurface = true
            case "--bluetooth-only": options.bluetoothOnly = true
            case "--server":
                let text = try value(argument)
                guard let url = URL(string: text), ["http", "https"].contains(url.scheme), url.host != nil else {
                    throw UsageError("--server takes the merchant server's URL (http://127.0.0.1:8080), not \"\(text)\"")
                }
                options.server = url
            case "--code": options.code = try value(argument)
            case "--help", "-h": throw UsageError(nil)
            default: throw UsageError("unknown option \"\(argument)\"")
            }
        }
        if options.code != nil && options.server == nil { throw UsageError("--code goes with --server") }
        return options
    }
}

struct UsageError: Error {
    let message: String?
    init(_ message: String?) { self.message = message }
}
