import Foundation
import Tender

/// Counts compared between a ledger and the processors' truth.
struct Tally: Codable, Sendable {
    var lost = 0
    var duplicated = 0
    var crashes = 0
    var mismatches = 0
    var chargesChecked = 0
    var payments = 0
    /// Refunds the ledger records, compared one by one with the processor's.
    var refundsChecked = 0
    var notes: [String] = []
    /// For failing payments: the ledger's history and what the processor holds (up to 10; printed with --verbose).
    var histories: [String] = []
    /// The app could not start on these files (the kill test then starts a fresh world).
    var worldUnusable = false

    var failures: Int { lost + duplicated + crashes + mismatches }

    /// Adds only the failures and notes of `other` (a second look at payments already counted).
    mutating func addFailures(_ other: Tally) {
        lost += other.lost
        duplicated += other.duplicated
        crashes += other.crashes
        mismatches += other.mismatches
        for note in other.notes { self.note(note) }
        for history in other.histories where histories.count < 10 { histories.append(history) }
    }

    mutating func add(_ other: Tally) {
        addFailures(other)
        chargesChecked += other.chargesChecked
        payments += other.payments
        refundsChecked += other.refundsChecked
    }

    /// Counts a mismatch and notes why.
    mutating func mismatch(_ text: String) {
        mismatches += 1
        note(text)
    }

    /// Keeps up to 20 distinct notes.
    mutating func note(_ text: String) { if notes.count < 20, !notes.contains(text) { notes.append(text) } }
}

/// States in which the ledger says money was taken or is held (stored payments are charged when forwarded).
let ledgerTakenStates: Set<PaymentState> = [.authorized, .succeeded, .forwarded, .storedOffline]
/// Final states, and authorizations waiting for capture: nothing left for the processor to tell.
let settledOrHeldStates: Set<PaymentState> = [.authorized, .succeeded, .forwarded, .declined, .declinedAfterForwarding,
                                              .failed, .canceled, .failedToForward]

/// Compares every reference of both scopes starting with `prefix` with the processors' truth.
///
/// Payments: a session the ledger shows as taken (authorized, succeeded, forwarded, stored) without a charge is lost;
/// more than one accepted authorization for a reference, over all its vendor payments, is duplicated; a charge the
/// ledger does not show as taken (or does not know), a different amount, or a session not final is a mismatch.
/// Stored payments left on a device are lost.
///
/// Refunds: every refund the processor made (by idempotency key) is recorded as succeeded with its amount, every
/// refund recorded as succeeded was made, nothing is pending on either side, and neither side ever refunded more
/// than was captured.
func compare(world: World, label: String, prefix: String = "") async -> Tally {
    var tally = Tally()
    let sides: [(String, PaymentTerminal, [String: ProcessorFact])] = [
        ("stripe", world.stripeTerminal, await world.stripeTruth()),
        ("square", world.squareTerminal, await world.squareTruth()),
    ]
    for (name, terminal, truth) in sides {
        let sessions: [PaymentSession]
        let refunds: [RefundRecord]
        do {
            sessions = try await terminal.sessions().filter { $0.reference.hasPrefix(prefix) }
            refunds = try await terminal.ledger.refunds(in: [.pending, .succeeded, .failed], scope: await terminal.scope)
        } catch {
            tally.crashes += 1
            tally.note("\(label) \(name): ledger unreadable: \(error)")
            continue
        }
        let refundsByReference = Dictionary(grouping: refunds, by: \.reference)
        tally.payments += sessions.count
        var seen = Set<String>()
        for session in sessions {
            let failuresBefore = tally.failures
            seen.insert(session.reference)
            let fact = truth[session.reference] ?? ProcessorFact()
            let where_ = "\(label) \(name) \(session.reference)"
            tally.chargesChecked += fact.charges
            if fact.charges > 1 {
                tally.duplicated += fact.charges - 1
                tally.note("\(where_): charged \(fact.charges) times")
            }
            let ledgerTaken = ledgerTakenStates.contains(session.state)
            if ledgerTaken, fact.charges == 0 {
                tally.lost += 1
                tally.note("\(where_): ledger \(session.state), processor has no charge")
            } else if !ledgerTaken, fact.charges > 0 {
                tally.mismatch("\(where_): authorized at the processor (\(fact.amountHeld) held) but ledger \(session.state)")
            } else if ledgerTaken, fact.charges == 1, fact.amountHeld != session.total.minorUnits {
                tally.mismatch("\(where_): amount \(session.total.minorUnits) vs held \(fact.amountHeld) (\(session.state))")
            }
            if !settledOrHeldStates.contains(session.state) {
                tally.mismatch("\(where_): left \(session.state) with the processor reachable")
            }
            let records = refundsByReference[session.reference] ?? []
            tally.refundsChecked += records.count
            tally.addFailures(auditRefunds(records, session: session, fact: fact, label: where_))
            if tally.failures > failuresBefore, tally.histories.count < 10 {
                let full = try? await terminal.session(reference: session.reference)
                tally.histories.append(describe(full ?? session, fact, label: where_)
                    + describe(records, fact))
            }
        }
        for (reference, fact) in truth where fact.charges > 0 && reference.hasPrefix(prefix) && !seen.contains(reference) {
            tally.mismatches += 1
            tally.chargesChecked += fact.charges
            tally.note("\(label) \(name) \(reference): charged, unknown to the ledger")
        }
    }
    let left = await world.storedOnDevices()
    if left.stripe + left.square > 0 {
        tally.lost += left.stripe + left.square
        tally.note("\(label): \(left.stripe) Stripe and \(left.square) Square payments still stored on the device")
    }
    return tally
}

/// One payment's refunds: the ledger's records against the processor's refunds.
private func auditRefunds(_ records: [RefundRecord], session: PaymentSession, fact: ProcessorFact, label: String)
    -> Tally {
    var tally = Tally()
    func mismatch(_ text: String) {
        tally.mismatch("\(label): \(text)")
    }
    let recorded = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    for record in records {
        let made = fact.refunds[record.id]
        switch record.status {
        case .pending:
            mismatch("refund \(record.number) still pending after recovery (processor: \(made?.status.rawValue ?? "none"))")
        case .succeeded:
            if made?.status != .succeeded || made?.amount != record.amount.minorUnits {
                mismatch("refund \(record.number) of \(record.amount.minorUnits) recorded as succeeded, processor has "
                    + (made.map { "\($0.status) \($0.amount)" } ?? "none"))
            }
        default:
            if made?.status == .succeeded { mismatch("refund \(record.number) recorded as \(record.status), processor refunded it") }
        }
    }
    for (key, made) in fact.refunds where recorded[key] == nil {
        mismatch("refund \(key) (\(made.status) \(made.amount)) at the processor, unknown to the ledger")
    }
    for (key, made) in fact.refunds where made.status == .pending && recorded[key]?.status != .pending {
        mismatch("refund \(key) still pending at the processor after recovery")
    }
    if fact.refunded > fact.captured {
        mismatch("the processor refunded \(fact.refunded) of \(fact.captured) captured")
    }
    let ledgerRefunded = records.filter { $0.status != .failed }.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
    if ledgerRefunded > session.total.minorUnits {
        mismatch("the ledger holds \(ledgerRefunded) refunded of \(session.total.minorUnits)")
    }
    return tally
}

/// A failing payment as the ledger recorded it (every transition, with its vendor payment, error and note) and as
/// the processor holds it.
private func describe(_ session: PaymentSession, _ fact: ProcessorFact, label: String) -> String {
    let steps = session.transitions.map { step in
        let seconds = step.at.timeIntervalSince(session.createdAt)
        return "\(step.from?.rawValue ?? "-")→\(step.to) #\(step.attempt) +\(String(format: "%.1f", seconds))s"
            + (step.error.map { " [\($0.code.rawValue): \($0.message.prefix(120))]" } ?? "")
            + (step.note.map { " (\($0.prefix(120)))" } ?? "")
    }
    return "\(label): ledger " + steps.joined(separator: " | ") + " || processor " + fact.vendorPayments.joined(separator: "; ")
}

/// A failing payment's refunds as the ledger recorded them and as the processor holds them (empty when none).
private func describe(_ records: [RefundRecord], _ fact: ProcessorFact) -> String {
    guard !records.isEmpty || !fact.refunds.isEmpty else { return "" }
    let recorded = records.map { record in
        "#\(record.number) \(record.id) \(record.amount.minorUnits) \(record.status.rawValue)"
            + (record.throughReader ? " reader" : "") + " id \(record.processorRefundID ?? "-")"
            + (record.error.map { " [\($0.code.rawValue): \($0.message.prefix(100))]" } ?? "")
    }
    let made = fact.refunds.map { "\($0.key) \($0.value.amount) \($0.value.status.rawValue)" }
    return " || refunds " + recorded.joined(separator: "; ") + " || processor refunds " + made.joined(separator: "; ")
}
