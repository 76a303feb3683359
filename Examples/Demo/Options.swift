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

    static let usage = """
        usage: tender-demo [--processor stripe|square|both] [--payments N] [--seed N] [--json] [--ledger PATH]
                           [--through-sdk-surface] [--bluetooth-only]

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
            case "--help", "-h": throw UsageError(nil)
            default: throw UsageError("unknown option \"\(argument)\"")
            }
        }
        return options
    }
}

struct UsageError: Error {
    let message: String?
    init(_ message: String?) { self.message = message }
}
