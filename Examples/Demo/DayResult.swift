import Foundation
import Tender

/// One processor's result of the day: the closing reconciliation's figures, from the ledger, and every way the
/// ledger and the processor's own records disagree.
struct DayResult {
    var processor: String
    var taken = 0
    var approvedOnline = 0
    var declined = 0
    var refusedByLimits: [String] = []
    var stored = 0
    var forwarded = 0
    var declinedAfterForwarding = 0
    var captured = 0
    var outcomeUnknown = 0
    var amountsByCurrency: [String: Int64] = [:]
    /// Refunds the processor settled as refunded, and their amounts by currency.
    var refunds = 0
    var refundedByCurrency: [String: Int64] = [:]
    /// Refunds refused before the processor was asked (more than was left to refund).
    var refusedRefunds: [String] = []
    /// Refunds still pending in the ledger at close (must be zero).
    var pendingRefunds = 0
    /// Manual-capture authorizations the processor released when its window passed.
    var expiredAuthorizations = 0
    /// Manual-capture authorizations the processor completed (captured) by itself when its delay passed.
    var completedByProcessor = 0
    var mismatches: [String] = []

    var json: [String: Any] {
        ["processor": processor, "taken": taken, "approved_online": approvedOnline, "declined": declined,
         "refused_by_limits": refusedByLimits.count, "stored_offline": stored, "forwarded": forwarded,
         "declined_after_forwarding": declinedAfterForwarding, "captured": captured,
         "outcome_unknown": outcomeUnknown, "amounts_by_currency": amountsByCurrency, "refunds": refunds,
         "refunded_by_currency": refundedByCurrency, "refunds_refused": refusedRefunds.count,
         "refunds_pending": pendingRefunds, "authorizations_expired": expiredAuthorizations,
         "authorizations_completed_by_processor": completedByProcessor, "mismatches": mismatches]
    }

    /// The closing table's rows.
    var rows: [[String]] {
        var rows: [[String]] = [
            ["payments taken", "\(taken)"],
            ["approved online", "\(approvedOnline)"],
            ["declined at the counter", "\(declined)"],
            ["refused by risk limits", "\(refusedByLimits.count)"],
            ["stored offline", "\(stored)"],
            ["forwarded", "\(forwarded)"],
            ["declined after forwarding", "\(declinedAfterForwarding)"],
            ["captured (manual)", "\(captured)"],
            ["authorizations expired", "\(expiredAuthorizations)"],
            ["completed by the processor", "\(completedByProcessor)"],
            ["outcome unknown", "\(outcomeUnknown)"],
            ["refunds", "\(refunds)"],
            ["refunds refused", "\(refusedRefunds.count)"],
            ["refunds pending", "\(pendingRefunds)"],
        ]
        for code in Set(amountsByCurrency.keys).union(refundedByCurrency.keys).sorted() {
            let collected = amountsByCurrency[code] ?? 0, refunded = refundedByCurrency[code] ?? 0
            rows.append(["collected \(code)", Self.decimal(collected, code)])
            rows.append(["refunded \(code)", Self.decimal(refunded, code)])
            rows.append(["net \(code)", Self.decimal(collected - refunded, code)])
        }
        return rows
    }

    static func decimal(_ minor: Int64, _ code: String) -> String {
        (try? Money(minorUnits: minor, currency: Currency(code: code)).decimalString) ?? "\(minor)"
    }
}
