import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator
import TenderTesting

struct FuzzReport: Codable, Sendable {
    var requests = 0
    var validRequests = 0
    var currencies = 0
    var transitions = 0
    var eventSequences = 0
    var vendorNames = 0
    var vendorSequences = 0
    var enumValues = 0
    /// Random requests taken through the Stripe and Square facades on their simulators.
    var adapterRequests = 0
    /// Refund attempts (partial, full, over the total, bad amounts, concurrent, with processor faults).
    var refundAttempts = 0
    /// Refunds the ledger recorded.
    var refundsRecorded = 0
    /// Refunds asked for more than the payment's total.
    var overRefundAttempts = 0
    /// Refunds accepted beyond what was captured, or of a bad amount: must be 0.
    var overRefundsAccepted = 0
    var seconds = 0.0
    var tally = Tally()

    /// Inputs over every family.
    var inputs: Int {
        requests + currencies + transitions + eventSequences + vendorNames + vendorSequences + enumValues
            + adapterRequests + refundAttempts
    }
}

/// Seeded input fuzz: requests through `validate()` and a facade, transitions through the state machine and
/// `SessionChange.apply`, random forwarding-result sequences through `applyForwardingResults`, vendor error names
/// through both adapters' tables, and every vendor enum value through the mappings.
func runFuzz(iterations: Int, seed: UInt64) async -> FuzzReport {
    var report = FuzzReport()
    let start = Date()
    var random = SeededGenerator(seed: seed ^ 0x4655_5A5A)
    await fuzzRequests(iterations: iterations, random: &random, report: &report)
    fuzzCurrencies(iterations: iterations, random: &random, report: &report)
    fuzzStateMachine(iterations: iterations, random: &random, report: &report)
    await fuzzForwardingSequences(iterations: max(10, iterations / 20), random: &random, report: &report)
    fuzzVendorNames(iterations: iterations, random: &random, report: &report)
    fuzzVendorLifecycles(iterations: iterations, random: &random, report: &report)
    fuzzMappings(report: &report)
    await fuzzThroughAdapters(iterations: max(20, iterations / 10), random: &random, report: &report)
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("tender-chaos-refunds-\(seed)-\(ProcessInfo.processInfo.processIdentifier)")
    await fuzzRefunds(iterations: max(50, iterations / 4), directory: directory, random: &random, report: &report)
    try? FileManager.default.removeItem(at: directory)
    report.seconds = Date().timeIntervalSince(start)
    return report
}

private let plainAlphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_#.")
private let wildScalars: [Character] = ["\u{0}", "\u{7}", "\n", "\t", " ", "\u{7F}", "\u{85}", "\u{200B}", "é", "€",
                                        "😀", "\u{301}", "\"", "'", "\\", "%", "\u{FEFF}", "\r\n", "\u{2028}"]

func text(_ length: Int, wild: Bool, _ random: inout SeededGenerator) -> String {
    String((0..<length).map { _ -> Character in
        if wild, random.chance(0.3) { return wildScalars.randomElement(using: &random)! }
        return plainAlphabet.randomElement(using: &random)!
    })
}

/// The documented validation rules, written independently of `PaymentRequest.validate()`.
func expectedValid(_ request: PaymentRequest) -> Bool {
    let maximum = PaymentRequest.maximumMajorUnits * request.amount.currency.minorUnitsPerMajorUnit
    guard request.amount.minorUnits > 0, request.amount.minorUnits <= maximum else { return false }
    if let tip = request.tip {
        guard tip.currency == request.amount.currency, tip.minorUnits >= 0 else { return false }
        let (total, overflow) = request.amount.minorUnits.addingReportingOverflow(tip.minorUnits)
        guard !overflow, total <= maximum else { return false }
    }
    let reference = request.reference
    guard !reference.isEmpty, let first = reference.first, let last = reference.last,
          !first.isWhitespace, !last.isWhitespace else { return false }
    guard reference.count <= PaymentRequest.maximumReferenceLength else { return false }
    guard !reference.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return false }
    guard request.metadata.count <= PaymentRequest.maximumMetadataKeys else { return false }
    for (key, value) in request.metadata {
        guard !key.isEmpty, key.count <= PaymentRequest.maximumMetadataKeyLength,
              value.count <= PaymentRequest.maximumMetadataValueLength,
              !key.hasPrefix(PaymentRequest.reservedMetadataPrefix) else { return false }
    }
    if let note = request.note, note.count > PaymentRequest.maximumNoteLength { return false }
    return true
}

func randomRequest(_ index: Int, _ random: inout SeededGenerator) -> PaymentRequest {
    let currencies: [Currency] = [.usd, .usd, .usd, .eur, .jpy, .kwd, .gbp]
    let currency = currencies.randomElement(using: &random)!
    let amount: Int64 = switch random.int(0...9) {
    case 0: 0
    case 1: -Int64(random.int(1...1_000_000))
    case 2: Int64.max - Int64(random.int(0...10))
    case 3: PaymentRequest.maximumMajorUnits * currency.minorUnitsPerMajorUnit + Int64(random.int(-1...1))
    default: Int64(random.int(1...500_000))
    }
    let wild = random.chance(0.25)
    var reference = random.chance(0.05) ? "" : "z\(index)-" + text(random.int(0...(wild ? 45 : 20)), wild: wild, &random)
    if random.chance(0.04) { reference = " " + reference }
    var metadata: [String: String] = [:]
    let keys = random.chance(0.05) ? random.int(45...60) : random.int(0...6)
    for _ in 0..<keys {
        let key = random.chance(0.03) ? "tender_x" : text(random.int(random.chance(0.05) ? 0...50 : 1...20),
                                                              wild: random.chance(0.2), &random)
        metadata[key] = text(random.int(random.chance(0.05) ? 0...600 : 0...40), wild: random.chance(0.2), &random)
    }
    var tip: Money?
    if random.chance(0.2) {
        let tipCurrency = random.chance(0.9) ? currency : currencies.randomElement(using: &random)!
        tip = Money(minorUnits: random.chance(0.1) ? -5 : Int64(random.int(0...5_000)), currency: tipCurrency)
    }
    let note: String? = random.chance(0.2) ? text(random.int(0...520), wild: true, &random) : nil
    return PaymentRequest(amount: Money(minorUnits: amount, currency: currency), reference: reference,
                          captureMode: random.chance(0.2) ? .manual : .automatic,
                          offlinePolicy: .requireOnline, metadata: metadata, tip: tip, note: note)
}

func fuzzRequests(iterations: Int, random: inout SeededGenerator, report: inout FuzzReport) async {
    let processor = InMemoryPaymentProcessor(name: "memory")
    let terminal = PaymentTerminal(processor: processor, scope: LedgerScope(merchantID: "m", locationID: "l"),
                                   clock: ManualClock(start: Accounts.epoch))
    if let reader = try? await terminal.discoverReaders(timeout: 1).first { _ = try? await terminal.connectReader(reader) }
    for index in 0..<iterations {
        let request = randomRequest(index, &random)
        report.requests += 1
        let valid = expectedValid(request)
        if valid { report.validRequests += 1 }
        do throws(PaymentError) {
            try request.validate()
            if !valid {
                report.tally.mismatch("fuzz: invalid request accepted by validate(): \(request.reference.debugDescription)")
            }
        } catch {
            if valid {
                report.tally.mismatch("fuzz: valid request refused: \(error.message)")
            } else if error.phase != .validation || error.recovery != .fixRequest {
                report.tally.mismatch("fuzz: validation error in phase \(error.phase), recovery \(error.recovery)")
            }
        }
        // Through the facade (every tenth, to keep it quick).
        guard index % 10 == 0 else { continue }
        do {
            _ = try await terminal.takePayment(request)
        } catch let error as PaymentError {
            if valid, error.phase == .validation {
                report.tally.mismatch("fuzz: facade refused a valid request: \(error.message)")
            } else if ![.validation, .routing].contains(error.phase) {
                report.tally.mismatch("fuzz: facade threw in phase \(error.phase): \(error.message)")
            } else if !valid, error.phase != .validation {
                report.tally.mismatch("fuzz: invalid request refused in phase \(error.phase), not validation")
            }
        } catch {
            report.tally.crashes += 1
            report.tally.note("fuzz: facade threw a non-PaymentError: \(error)")
        }
    }
}

func fuzzCurrencies(iterations: Int, random: inout SeededGenerator, report: inout FuzzReport) {
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0 -é€\u{0}")
    for _ in 0..<iterations {
        let code = String((0..<random.int(0...5)).map { _ in letters.randomElement(using: &random)! })
        report.currencies += 1
        do throws(PaymentError) {
            let currency = try Currency(code: code)
            if currency.code.count != 3 || currency.code != currency.code.uppercased()
                || !(0...4).contains(currency.minorUnitExponent) {
                report.tally.mismatch("fuzz: Currency(code: \(code.debugDescription)) gave \(currency.code)")
            }
            // Round trip.
            if (try? Currency(code: currency.code)) != currency {
                report.tally.mismatch("fuzz: currency \(currency.code) does not round-trip")
            }
        } catch {
            if error.phase != .validation {
                report.tally.mismatch("fuzz: Currency error in phase \(error.phase)")
            }
        }
    }
}
