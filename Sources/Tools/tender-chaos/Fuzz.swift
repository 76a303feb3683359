import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator

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
    /// Refunds accepted beyond what was captured, or of a bad amount: must be 0.
    var overRefundsAccepted = 0
    var seconds = 0.0
    var tally = Tally()
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

private func text(_ length: Int, wild: Bool, _ random: inout SeededGenerator) -> String {
    String((0..<length).map { _ -> Character in
        if wild, random.chance(0.3) { return wildScalars.randomElement(using: &random)! }
        return plainAlphabet.randomElement(using: &random)!
    })
}

/// The documented validation rules, written independently of `PaymentRequest.validate()`.
private func expectedValid(_ request: PaymentRequest) -> Bool {
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

private func randomRequest(_ index: Int, _ random: inout SeededGenerator) -> PaymentRequest {
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

private func fuzzRequests(iterations: Int, random: inout SeededGenerator, report: inout FuzzReport) async {
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
                report.tally.mismatches += 1
                report.tally.note("fuzz: invalid request accepted by validate(): \(request.reference.debugDescription)")
            }
        } catch {
            if valid {
                report.tally.mismatches += 1
                report.tally.note("fuzz: valid request refused: \(error.message)")
            } else if error.phase != .validation || error.recovery != .fixRequest {
                report.tally.mismatches += 1
                report.tally.note("fuzz: validation error in phase \(error.phase), recovery \(error.recovery)")
            }
        }
        // Through the facade (every tenth, to keep it quick).
        guard index % 10 == 0 else { continue }
        do {
            _ = try await terminal.takePayment(request)
        } catch let error as PaymentError {
            if valid, error.phase == .validation {
                report.tally.mismatches += 1
                report.tally.note("fuzz: facade refused a valid request: \(error.message)")
            } else if ![.validation, .routing].contains(error.phase) {
                report.tally.mismatches += 1
                report.tally.note("fuzz: facade threw in phase \(error.phase): \(error.message)")
            } else if !valid, error.phase != .validation {
                report.tally.mismatches += 1
                report.tally.note("fuzz: invalid request refused in phase \(error.phase), not validation")
            }
        } catch {
            report.tally.crashes += 1
            report.tally.note("fuzz: facade threw a non-PaymentError: \(error)")
        }
    }
}

private func fuzzCurrencies(iterations: Int, random: inout SeededGenerator, report: inout FuzzReport) {
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0 -é€\u{0}")
    for _ in 0..<iterations {
        let code = String((0..<random.int(0...5)).map { _ in letters.randomElement(using: &random)! })
        report.currencies += 1
        do throws(PaymentError) {
            let currency = try Currency(code: code)
            if currency.code.count != 3 || currency.code != currency.code.uppercased()
                || !(0...4).contains(currency.minorUnitExponent) {
                report.tally.mismatches += 1
                report.tally.note("fuzz: Currency(code: \(code.debugDescription)) gave \(currency.code)")
            }
            // Round trip.
            if (try? Currency(code: currency.code)) != currency {
                report.tally.mismatches += 1
                report.tally.note("fuzz: currency \(currency.code) does not round-trip")
            }
        } catch {
            if error.phase != .validation {
                report.tally.mismatches += 1
                report.tally.note("fuzz: Currency error in phase \(error.phase)")
            }
        }
    }
}

private func fuzzStateMachine(iterations: Int, random: inout SeededGenerator, report: inout FuzzReport) {
    let states = PaymentState.allCases
    let base = PaymentSession(request: PaymentRequest(amount: Money(minorUnits: 100, currency: .usd), reference: "sm"),
                              scope: LedgerScope(merchantID: "m", locationID: "l"), processor: "memory", route: .online,
                              at: Accounts.epoch)
    var session = base
    for index in 0..<iterations {
        if index % 12 == 0 { session = base }
        let from = session.state
        let to = states.randomElement(using: &random)!
        report.transitions += 1
        let legal = PaymentStateMachine.canTransition(from: from, to: to)
        do {
            let result = try PaymentStateMachine.transition(from: from, to: to)
            if !legal || result != to {
                report.tally.mismatches += 1
                report.tally.note("fuzz: transition \(from)→\(to) accepted")
            }
        } catch {
            if legal {
                report.tally.mismatches += 1
                report.tally.note("fuzz: legal transition \(from)→\(to) refused")
            }
        }
        // A change expecting the wrong state must also throw and leave the session as it was.
        let expected = random.chance(0.1) ? states.randomElement(using: &random)! : from
        let change = SessionChange(reference: "sm", expectedState: expected, newState: to,
                                   at: Accounts.epoch.addingTimeInterval(Double(index)))
        let before = session
        do {
            try change.apply(to: &session)
            if expected != from || (!legal && to != from) || session.state != to {
                report.tally.mismatches += 1
                report.tally.note("fuzz: SessionChange \(expected)→\(to) applied to a \(from) session")
            }
        } catch {
            if session != before {
                report.tally.mismatches += 1
                report.tally.note("fuzz: a refused SessionChange \(from)→\(to) changed the session")
            }
            if expected == from, legal || to == from {
                report.tally.mismatches += 1
                report.tally.note("fuzz: legal SessionChange \(from)→\(to) refused")
            }
        }
    }
}

/// Random forwarding results (any state, known and unknown references, duplicates) through
/// `applyForwardingResults`: every state a session reaches must be legal from the one before.
private func fuzzForwardingSequences(iterations: Int, random: inout SeededGenerator, report: inout FuzzReport) async {
    let ledger: any PaymentLedger = InMemoryPaymentLedger()
    let scope = LedgerScope(merchantID: "m", locationID: "l")
    let terminal = PaymentTerminal(processor: InMemoryPaymentProcessor(name: "memory"), ledger: ledger, scope: scope,
                                   clock: ManualClock(start: Accounts.epoch))
    let states = PaymentState.allCases
    for round in 0..<iterations {
        var references: [String] = []
        for index in 0..<5 {
            let reference = "seq\(round)-\(index)"
            let request = PaymentRequest(amount: Money(minorUnits: 500, currency: .usd), reference: reference,
                                         offlinePolicy: .forceOffline)
            var session = PaymentSession(request: request, scope: scope, processor: "memory", route: .offline,
                                         at: Accounts.epoch)
            session.state = states.randomElement(using: &random)!
            do { try await ledger.insert(session) } catch { continue }
            references.append(reference)
        }
        for _ in 0..<6 {
            report.eventSequences += 1
            let updates = (0..<random.int(1...6)).map { _ in
                ProcessorPaymentUpdate(reference: random.chance(0.1) ? "nobody" : references.randomElement(using: &random)!,
                                       state: states.randomElement(using: &random)!,
                                       processorPaymentID: random.chance(0.3) ? "pi_\(random.int(0...9))" : nil)
            }
            var before: [String: PaymentState] = [:]
            for reference in references {
                before[reference] = try? await ledger.session(reference: reference, scope: scope, includingHistory: false)?.state
            }
            do {
                _ = try await terminal.applyForwardingResults(updates)
            } catch {
                report.tally.mismatches += 1
                report.tally.note("fuzz: applyForwardingResults threw: \(error)")
            }
            for reference in references {
                guard let session = try? await ledger.session(reference: reference, scope: scope) else { continue }
                // Every recorded transition must be legal, and the history must end where the state is.
                for transition in session.transitions.dropFirst() {
                    guard let from = transition.from, PaymentStateMachine.canTransition(from: from, to: transition.to)
                    else {
                        report.tally.mismatches += 1
                        report.tally.note("fuzz: ledger recorded illegal \(transition.from?.rawValue ?? "nil")→\(transition.to)")
                        continue
                    }
                }
                if let previous = before[reference], previous != session.state,
                   !reachable(from: previous, to: session.state) {
                    report.tally.mismatches += 1
                    report.tally.note("fuzz: \(reference) jumped \(previous)→\(session.state)")
                }
            }
        }
    }
}

private func reachable(from: PaymentState, to: PaymentState) -> Bool {
    var seen: Set<PaymentState> = [from]
    var frontier = [from]
    while let next = frontier.popLast() {
        for target in PaymentStateMachine.transitions[next, default: []] where seen.insert(target).inserted {
            if target == to { return true }
            frontier.append(target)
        }
    }
    return false
}

private func checkTable(_ table: VendorErrorTable, names: [String], random: inout SeededGenerator,
                        report: inout FuzzReport) {
    for name in names {
        report.vendorNames += 1
        let phase: PaymentError.Phase? = random.chance(0.5) ? .processing : nil
        let error = table.error(named: name, phase: phase)
        let known = table.mapping(named: name)
        if error.vendor?.name != name || error.vendor?.processor != table.processor {
            report.tally.mismatches += 1
            report.tally.note("fuzz: \(table.processor) \(table.vendorType).\(name) lost the vendor name")
        }
        if let known {
            if error.code != known.code || error.recovery != known.recovery || error.phase != (phase ?? known.phase) {
                report.tally.mismatches += 1
                report.tally.note("fuzz: \(table.processor) \(name) mapped differently from its row")
            }
        } else if error.code != .unrecognizedVendorError {
            report.tally.mismatches += 1
            report.tally.note("fuzz: unknown \(table.processor) name \(name.debugDescription) gave \(error.code)")
        }
    }
}

private func fuzzVendorNames(iterations: Int, random: inout SeededGenerator, report: inout FuzzReport) {
    let tables = [Stripe.errorTable, SquareErrorTable.paymentError, SquareErrorTable.authorizationError,
                  SquareErrorTable.offlinePaymentQueueError, SquareErrorTable.readerUnavailableReason,
                  SquareErrorTable.readerPairingError]
    for table in tables {
        var names = table.rows.map(\.name)
        for _ in 0..<max(1, iterations / 10) {
            switch random.int(0...3) {
            case 0: names.append(text(random.int(0...30), wild: true, &random))
            case 1: names.append((table.rows.randomElement(using: &random)?.name ?? "") + text(random.int(1...3), wild: false, &random))
            case 2: names.append((table.rows.randomElement(using: &random)?.name ?? "").uppercased())
            default: names.append(table.rows.randomElement(using: &random)?.name ?? "")
            }
        }
        checkTable(table, names: names, random: &random, report: &report)
    }
    // Every case of Square's error enums maps through its table to a recognized error.
    func recognized(_ error: PaymentError, _ what: String) {
        report.enumValues += 1
        if error.code == .unrecognizedVendorError {
            report.tally.mismatches += 1
            report.tally.note("fuzz: Square \(what) is not in its error table")
        }
    }
    for value in Square.PaymentError.allCases { recognized(value.tenderError, "PaymentError.\(value.rawValue)") }
    for value in Square.AuthorizationError.allCases { recognized(value.tenderError, "AuthorizationError.\(value.rawValue)") }
    for value in Square.OfflinePaymentQueueError.allCases {
        recognized(value.tenderError, "OfflinePaymentQueueError.\(value.rawValue)")
    }
    for value in Square.ReaderPairingError.allCases { recognized(value.tenderError, "ReaderPairingError.\(value.rawValue)") }
}

/// Every vendor enum value through the mappings: nothing traps, and payment states a vendor reports can be
/// reached from where a payment is when it reports them.
private func fuzzMappings(report: inout FuzzReport) {
    func check(_ ok: Bool, _ what: @autoclosure () -> String) {
        report.enumValues += 1
        if !ok {
            report.tally.mismatches += 1
            report.tally.note("fuzz: mapping \(what())")
        }
    }
    for status in Square.OfflineStatus.allCases {
        let state = SquareMapping.paymentState(status)
        check(state.map { $0 == .storedOffline || reachable(from: .storedOffline, to: $0) } ?? true,
              "Square.OfflineStatus.\(status.rawValue) → \(String(describing: state)) not reachable from storedOffline")
        _ = SquareMapping.offlinePaymentStatus(status)
    }
    for status in Square.PaymentStatus.allCases {
        let state = SquareMapping.paymentState(status)
        check(state == .processing || reachable(from: .processing, to: state),
              "Square.PaymentStatus.\(status.rawValue) → \(state) not reachable from processing")
    }
    for status in Square.CardPaymentStatus.allCases {
        let state = SquareMapping.paymentState(status)
        check(state == .processing || reachable(from: .processing, to: state),
              "Square.CardPaymentStatus.\(status.rawValue) → \(state) not reachable from processing")
    }
    for currency in Square.Currency.allCases {
        let mapped = SquareMapping.currency(currency)
        check(mapped.map { SquareMapping.squareCurrency($0) == currency } ?? true,
              "Square.Currency.\(currency.rawValue) does not round-trip")
    }
    for method in Square.CardEntryMethod.allCases { _ = SquareMapping.entryMethod(method); report.enumValues += 1 }
    for brand in Square.CardBrand.allCases { _ = SquareMapping.cardBrand(brand); report.enumValues += 1 }
    for status in Square.ReaderStatus.allCases { _ = SquareMapping.connectionStatus(status); report.enumValues += 1 }
    for reason in Square.ReaderUnavailableReason.allCases {
        _ = SquareMapping.disconnectReason(reason)
        report.enumValues += 1
    }
    for mode in Square.ProcessingMode.allCases { _ = SquareMapping.offlinePolicy(for: mode); report.enumValues += 1 }

    for status in Stripe.PaymentStatus.allCases { _ = StripeMapping.paymentState(status); report.enumValues += 1 }
    for status in Stripe.NetworkStatus.allCases { _ = StripeMapping.networkStatus(status); report.enumValues += 1 }
    for status in Stripe.ConnectionStatus.allCases { _ = StripeMapping.connectionStatus(status); report.enumValues += 1 }
    for method in Stripe.ReadMethod.allCases { _ = StripeMapping.entryMethod(method); report.enumValues += 1 }
    for brand in Stripe.CardBrand.allCases { _ = StripeMapping.cardBrand(brand); report.enumValues += 1 }
    for reason in Stripe.DisconnectReason.allCases { _ = StripeMapping.disconnectReason(reason); report.enumValues += 1 }
    for message in Stripe.ReaderDisplayMessage.allCases { _ = StripeMapping.displayMessage(message); report.enumValues += 1 }
    for event in Stripe.ReaderEvent.allCases { _ = StripeMapping.displayMessage(event); report.enumValues += 1 }
    for method in Stripe.CaptureMethod.allCases { _ = method; report.enumValues += 1 }
    for behavior in Stripe.OfflineBehavior.allCases {
        let policy = StripeMapping.offlinePolicy(behavior)
        check(OfflinePolicy.allCases.contains(policy), "Stripe.OfflineBehavior.\(behavior.rawValue)")
    }
    for decision in [RoutingDecision.online, .onlineWithOfflineFallback, .offline] {
        check(StripeMapping.offlineBehavior(decision) != nil, "Stripe offlineBehavior(\(decision)) is nil")
        check(SquareMapping.processingMode(for: decision) != nil, "Square processingMode(\(decision)) is nil")
    }
    for mode in CaptureMode.allCases { _ = StripeMapping.captureMethod(mode); report.enumValues += 1 }
}

/// Random walks along each vendor's own payment lifecycle, mapped through the adapters' mappings: every state the
/// mapping reports next must be the same state or a legal transition in Tender's state machine.
private func fuzzVendorLifecycles(iterations: Int, random: inout SeededGenerator, report: inout FuzzReport) {
    func step(_ current: inout PaymentState, _ next: PaymentState?, _ what: String) {
        guard let next else { return }
        if next != current, !PaymentStateMachine.canTransition(from: current, to: next) {
            report.tally.mismatches += 1
            report.tally.note("fuzz: \(what.split(separator: " ").first ?? "") lifecycle ending "
                + "\(what.split(separator: ">").last ?? ""): \(current) → \(next) is illegal")
            return
        }
        current = next
    }
    // Square's offline lifecycle (OfflineStatus), from a stored payment.
    let squareNext: [Square.OfflineStatus: [Square.OfflineStatus]] = [
        .queued: [.queued, .uploaded, .failedToUpload, .unknown],
        .unknown: [.unknown, .uploaded],
        .uploaded: [.uploaded, .processed, .failedToProcess],
        .processed: [], .failedToProcess: [], .failedToUpload: [],
    ]
    /// Walks random paths through a vendor's status graph, checking each mapped step against the state machine.
    func walk<Status: RawRepresentable & Hashable>(_ graph: [Status: [Status]], from start: Status,
                                                   state initial: PaymentState,
                                                   _ map: (Status) -> PaymentState?) where Status.RawValue == String {
        for _ in 0..<max(1, iterations / 4) {
            report.vendorSequences += 1
            var vendor = start
            var state = initial
            var path = [start.rawValue]
            while let next = graph[vendor]?.randomElement(using: &random) {
                vendor = next
                path.append(next.rawValue)
                step(&state, map(next), "Square " + path.joined(separator: ">"))
            }
        }
    }
    walk(squareNext, from: .queued, state: .storedOffline) { SquareMapping.paymentState($0) }
    // Square's online payment, after the card was read.
    let squareOnline: [Square.PaymentStatus: [Square.PaymentStatus]] = [
        .initialized: [.pending, .approved, .completed, .failed, .canceled, .unknown],
        .pending: [.approved, .completed, .failed, .unknown],
        .unknown: [.approved, .completed, .failed, .canceled],
        .approved: [.completed, .canceled],
        .completed: [], .failed: [], .canceled: [],
    ]
    walk(squareOnline, from: .initialized, state: .processing) { SquareMapping.paymentState($0) }
    // Stripe: an intent after confirm (online), or stored offline then forwarded, with random forwarding errors.
    let names = Stripe.errorTable.rows.map(\.name) + ["notARealError", "", "declinedByStripeAPI"]
    for index in 0..<max(1, iterations / 4) {
        report.vendorSequences += 1
        let offline = random.chance(0.5)
        let manual = random.chance(0.4)
        var intent = Stripe.PaymentIntent(
            sdkHandle: "h\(index)", stripeId: offline ? nil : "pi_\(index)", status: .processing, amount: 500,
            currency: "usd", captureMethod: manual ? .manual : .automatic, created: Accounts.epoch,
            metadata: [StripeMapping.referenceMetadataKey: "s\(index)"])
        var state = PaymentState.processing
        var path: [String] = []
        func set(_ change: (inout Stripe.PaymentIntent) -> Void, _ label: String) {
            change(&intent)
            path.append(label)
            step(&state, StripeMapping.paymentState(intent), "Stripe " + path.joined(separator: ">"))
        }
        if offline {
            set({
                $0.status = manual ? .requiresCapture : .succeeded
                $0.offlineDetails = Stripe.OfflineDetails(storedAt: Accounts.epoch, requiresUpload: true,
                                                          cardPresentDetails: nil)
            }, "stored")
            // Forwarding attempts: errors (known or not), then maybe success.
            for _ in 0..<random.int(0...3) {
                let name = names.randomElement(using: &random)!
                let error = Stripe.ErrorCode(Stripe.ErrorCode.Code(name), message: "fuzz")
                if let update = StripeMapping.forwardingUpdate(intent, error: error) {
                    path.append("forwardError(\(name))")
                    step(&state, update.state, "Stripe " + path.joined(separator: ">"))
                    // The SDK retries a payment it keeps (still stored); any other answer is its last word.
                    if update.state != .storedOffline { break }
                }
            }
            guard state == .storedOffline || state == .failedToForward else { continue }
            var forwarded = intent
            forwarded.stripeId = "pi_f\(index)"
            forwarded.offlineDetails?.requiresUpload = false
            if let update = StripeMapping.forwardingUpdate(forwarded, error: nil) {
                path.append("forwarded")
                step(&state, update.state, "Stripe " + path.joined(separator: ">"))
            }
            intent = forwarded
        } else {
            switch random.int(0...4) {
            case 0: set({ $0.status = manual ? .requiresCapture : .succeeded }, "confirmed")
            case 1: set({
                $0.status = .requiresPaymentMethod
                $0.charges = [Stripe.Charge(stripeId: "ch", amount: 500, currency: "usd", status: .failed)]
            }, "declined")
            case 2: set({ $0.status = .requiresAction }, "requiresAction")
            case 3: set({ $0.status = .processing }, "processing")
            default: set({ $0.status = .canceled }, "canceled")
            }
            if state == .outcomeUnknown {
                set({ $0.status = manual ? .requiresCapture : .succeeded }, "resolved")
            }
        }
        if manual, state == .authorized || state == .forwarded {
            switch random.int(0...2) {
            case 0: set({ $0.status = .succeeded }, "captured")
            case 1: set({ $0.status = .canceled }, "voided")
            default: set({ $0.status = .requiresReauthorization }, "reauthorization")
            }
        }
    }
}

/// Random and malformed requests through both real adapters on their simulators (any offline policy, the network
/// toggling): every refusal is a `PaymentError` of the validation or routing phase; afterwards, with everything
/// forwarded and recovered, the ledger must agree with both processors.
private func fuzzThroughAdapters(iterations: Int, random: inout SeededGenerator, report: inout FuzzReport) async {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("tender-chaos-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.removeItem(at: directory)
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let clock = ManualClock(start: Accounts.epoch)
    let world: World
    do {
        world = try World(directory: directory, seed: random.next(), clock: clock, persistsSimulators: false)
        try await world.connectReaders()
    } catch {
        report.tally.crashes += 1
        report.tally.note("fuzz: adapters setup failed: \(error)")
        return
    }
    world.startEventPumps()
    var stripeOnline = true
    var squareOnline = true
    for index in 0..<iterations {
        clock.advance(by: 1)
        if random.chance(0.1) {
            stripeOnline.toggle()
            await world.setStripeNetwork(stripeOnline ? .disabled : .offlineImmediate)
        }
        if random.chance(0.1) {
            squareOnline.toggle()
            await world.setSquareNetwork(squareOnline ? .online : .offline)
        }
        var request = randomRequest(100_000 + index, &random)
        request.offlinePolicy = OfflinePolicy.allCases.randomElement(using: &random)!
        let terminal = random.chance(0.5) ? world.stripeTerminal : world.squareTerminal
        report.adapterRequests += 1
        do {
            _ = try await terminal.takePayment(request)
        } catch let error as PaymentError {
            if ![.validation, .routing].contains(error.phase) {
                report.tally.mismatches += 1
                report.tally.note("fuzz: \(terminal.processor.name) refused in phase \(error.phase): \(error.message)")
            } else if expectedValid(request), error.phase == .validation, error.code != .invalidCurrency,
                      error.code != .invalidRequest, error.code != .invalidMetadata {
                // A request valid for Tender may still be one the processor cannot take (currency, manual
                // capture, tip, metadata for Square, which keeps none); anything else refused at validation is a
                // violation.
                report.tally.mismatches += 1
                report.tally.note("fuzz: \(terminal.processor.name) refused a valid request: \(error.code) \(error.message)")
            }
        } catch {
            report.tally.crashes += 1
            report.tally.note("fuzz: \(terminal.processor.name) threw a non-PaymentError: \(error)")
        }
    }
    await world.forwardEverything()
    world.stopEventPumps()
    for (_, terminal) in world.terminals { _ = await terminal.recover() }
    for (_, terminal) in world.terminals {
        for session in (try? await terminal.sessions()) ?? [] where session.isReadyToCapture {
            _ = try? await terminal.capture(reference: session.reference)
        }
    }
    var tally = await compare(world: world, label: "fuzz adapters", prefix: "z")
    tally.payments = 0
    tally.chargesChecked = 0
    report.tally.add(tally)
    await world.close()
}
