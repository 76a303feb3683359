import Foundation
import Tender
import TenderTesting

/// Fuzzes refunds: random captured payments, then random refund attempts (partial, full, over the total, zero,
/// negative, another currency, concurrent pairs, refused and lost answers at the processor), checked against what
/// the ledger and the processor hold. The invariant: no refund is ever accepted beyond what was captured, at the
/// processor or in the ledger, and every refund the processor made is recorded exactly once.
///
/// Runs over the SQLite ledger in `directory` (the refundable-amount check lives in the ledger's transaction) and
/// the in-memory processor, whose "server" refuses over-refunds itself as Stripe and Square do; an over-refund the
/// ledger let through would show as a processor refusal recorded as failed, and is counted as accepted.
func fuzzRefunds(iterations: Int, directory: URL, random: inout SeededGenerator, report: inout FuzzReport) async {
    let scope = LedgerScope(merchantID: "fuzz", locationID: "refunds")
    let ledger: SQLitePaymentLedger
    do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        ledger = try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("refunds.sqlite"))
    } catch {
        report.tally.crashes += 1
        report.tally.note("refund fuzz: cannot open a ledger: \(error)")
        return
    }
    let processor = InMemoryPaymentProcessor(name: "memory")
    let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: scope, clock: ManualClock())
    var payments: [(reference: String, total: Int64)] = []
    for index in 0..<max(4, iterations / 40) {
        let total = Int64(random.int(1...50_000))
        let reference = "fuzz-refund-\(index)"
        do {
            let session = try await terminal.takePayment(
                PaymentRequest(amount: Money(minorUnits: total, currency: .usd), reference: reference))
            if session.state == .succeeded { payments.append((reference, total)) }
        } catch {
            report.tally.note("refund fuzz: a payment threw \(error)")
        }
    }
    guard !payments.isEmpty else { return }
    for _ in 0..<iterations {
        let (reference, total) = payments[random.int(0...payments.count - 1)]
        let kind = random.int(0...9)
        let amount: Money? = switch kind {
        case 0: nil                                                                  // everything left
        case 1: Money(minorUnits: total + Int64(random.int(1...1_000)), currency: .usd)  // over the total
        case 2: Money(minorUnits: Int64(random.int(-100...0)), currency: .usd)          // zero or negative
        case 3: Money(minorUnits: Int64(random.int(1...1_000)), currency: .eur)         // another currency
        default: Money(minorUnits: Int64(random.int(1...Int(max(1, total / 3)))), currency: .usd)
        }
        switch random.int(0...19) {
        case 0: processor.injectRefundFault(.refused)
        case 1: processor.injectRefundFault(.answerLost)
        case 2: processor.injectRefundFault(.unreachable)
        default: break
        }
        report.refundAttempts += 1
        if kind == 1 { report.overRefundAttempts += 1 }
        var accepted: [RefundRecord] = []
        if random.chance(0.1) {
            // Two refunds of the same payment at once: each is its own refund; together they never exceed the total.
            async let one = try? terminal.refund(reference: reference, amount: amount)
            async let two = try? terminal.refund(reference: reference, amount: amount)
            let (first, second) = await (one, two)
            accepted = [first, second].compactMap { $0 }
        } else if let record = try? await terminal.refund(reference: reference, amount: amount) {
            accepted = [record]
        }
        if kind == 1, !accepted.isEmpty {
            // More than the whole payment must be refused before the processor hears of it.
            report.overRefundsAccepted += accepted.count
            report.tally.note("refund fuzz: \(reference) accepted a refund of \(amount?.minorUnits ?? 0) of \(total)")
        }
        if random.chance(0.05) { _ = await terminal.pollOnce() }
    }
    _ = await terminal.pollOnce()
    for (reference, total) in payments {
        guard let session = try? await ledger.session(reference: reference, scope: scope) else {
            report.tally.mismatches += 1
            continue
        }
        let recorded = session.refunds.filter { $0.status != .failed }.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
        if recorded > total {
            report.overRefundsAccepted += 1
            report.tally.note("refund fuzz: \(reference) has \(recorded) refunded of \(total)")
        }
        if session.refunds.contains(where: { $0.amount.minorUnits <= 0 || $0.amount.currency != .usd }) {
            report.overRefundsAccepted += 1
            report.tally.note("refund fuzz: \(reference) accepted a refund of a bad amount")
        }
        let refused = session.refunds.filter { $0.error?.code == .invalidAmount && $0.status == .failed }
        if !refused.isEmpty {
            // The processor had to refuse an over-refund the ledger let through.
            report.overRefundsAccepted += refused.count
            report.tally.note("refund fuzz: \(reference) sent an over-refund to the processor")
        }
        report.refundsRecorded += session.refunds.count
    }
    report.tally.mismatches += report.overRefundsAccepted
}
