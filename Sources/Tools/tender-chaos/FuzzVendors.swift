import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator
import TenderTesting

func reachable(from: PaymentState, to: PaymentState) -> Bool {
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
            report.tally.mismatch("fuzz: \(table.processor) \(table.vendorType).\(name) lost the vendor name")
        }
        if let known {
            if error.code != known.code || error.recovery != known.recovery || error.phase != (phase ?? known.phase) {
                report.tally.mismatch("fuzz: \(table.processor) \(name) mapped differently from its row")
            }
        } else if error.code != .unrecognizedVendorError {
            report.tally.mismatch("fuzz: unknown \(table.processor) name \(name.debugDescription) gave \(error.code)")
        }
    }
}

func fuzzVendorNames(iterations: Int, random: inout SeededGenerator, report: inout FuzzReport) {
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
            report.tally.mismatch("fuzz: Square \(what) is not in its error table")
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
func fuzzMappings(report: inout FuzzReport) {
    func check(_ ok: Bool, _ what: @autoclosure () -> String) {
        report.enumValues += 1
        if !ok {
            report.tally.mismatch("fuzz: mapping \(what())")
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
func fuzzVendorLifecycles(iterations: Int, random: inout SeededGenerator, report: inout FuzzReport) {
    func step(_ current: inout PaymentState, _ next: PaymentState?, _ what: String) {
        guard let next else { return }
        if next != current, !PaymentStateMachine.canTransition(from: current, to: next) {
            report.tally.mismatch("fuzz: \(what.split(separator: " ").first ?? "") lifecycle ending "
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
