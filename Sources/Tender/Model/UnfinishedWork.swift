import Foundation

/// What leaving a scope (signing out, switching merchant or location, upgrading the app or the vendor SDK) would
/// leave unfinished in it: payments and refunds in flight, payments whose outcome is not known yet, and stored
/// payments not yet forwarded. ``PaymentTerminal/unfinishedWork()`` measures it;
/// ``PaymentTerminal/switchScope(to:acknowledgingLossOfStoredPayments:)`` and the other guarded actions refuse while
/// it is not empty, listing it in their error.
public struct UnfinishedWork: Hashable, Sendable, CustomStringConvertible {
    /// The scope it was measured in.
    public var scope: LedgerScope
    /// References of payments whose ``PaymentTerminal/takePayment(_:)`` call is running now.
    public var paymentsInFlight: [String]
    /// References of payments recorded as created, collecting or processing with no call running: interrupted (a
    /// crash, a ledger failure); the processor may hold them.
    public var interrupted: [String]
    /// References of payments whose outcome is not known yet (``PaymentState/outcomeUnknown``).
    public var outcomeUnknown: [String]
    /// References of payments this scope's ledger records as stored and not forwarded (stored offline, or failed to
    /// forward while the vendor may still hold them), and of payments the vendor's queue holds that belong to this
    /// scope or to no scope Tender knows. For signing out and upgrading (which lose the vendor SDK's whole store),
    /// also those of other scopes, each followed by its scope: `"order-7 (acct_1/loc_2)"`.
    public var stored: [String]
    /// The stored, unforwarded total at risk: per figure the larger of this scope's ledger and the vendor's queue
    /// entries attributed to this scope (with entries that cannot be attributed to any scope, and what the vendor
    /// counts beyond the entries it lists): read its ``OfflineQueueSnapshot/storedCount`` and
    /// ``OfflineQueueSnapshot/storedAmounts``.
    public var storedAtRisk: OfflineQueueSnapshot
    /// How many stored payments this scope's ledger records.
    public var storedInLedger: Int
    /// How many stored payments of the vendor's queue count against this scope, or `nil` when the queue could not
    /// be read (the ledger's count alone decides then).
    public var storedInVendorQueue: Int?
    /// References of payments with a ``PaymentTerminal/refund(reference:amount:reason:)`` or
    /// ``PaymentTerminal/retryRefund(_:)`` call running now (each listed once, however many run).
    public var refundsInFlight: [String]
    /// Ids of refunds recorded as pending (their processor's answer not known or not settled yet).
    public var pendingRefunds: [String]
    /// Whether stored payments were counted for the whole device, every scope's (signing out, upgrading), rather
    /// than for ``scope`` alone.
    package var deviceWide = false

    /// Creates a description of unfinished work.
    package init(scope: LedgerScope, paymentsInFlight: [String] = [], interrupted: [String] = [],
                outcomeUnknown: [String] = [], stored: [String] = [], storedAtRisk: OfflineQueueSnapshot = .empty(.unknown),
                storedInLedger: Int = 0, storedInVendorQueue: Int? = nil, refundsInFlight: [String] = [],
                pendingRefunds: [String] = []) {
        self.scope = scope
        self.paymentsInFlight = paymentsInFlight
        self.interrupted = interrupted
        self.outcomeUnknown = outcomeUnknown
        self.stored = stored
        self.storedAtRisk = storedAtRisk
        self.storedInLedger = storedInLedger
        self.storedInVendorQueue = storedInVendorQueue
        self.refundsInFlight = refundsInFlight
        self.pendingRefunds = pendingRefunds
    }

    /// Whether nothing is unfinished: leaving the scope loses nothing.
    public var isEmpty: Bool {
        !hasRunningCalls && interrupted.isEmpty && outcomeUnknown.isEmpty && storedAtRisk.storedCount == 0
            && pendingRefunds.isEmpty
    }

    /// Whether a payment or refund call is running now: no acknowledgment can make leaving safe then (cancel it or
    /// let it finish).
    package var hasRunningCalls: Bool { !paymentsInFlight.isEmpty || !refundsInFlight.isEmpty }

    /// Whether the only unfinished work is stored payments waiting to be forwarded.
    package var isOnlyStoredPayments: Bool {
        !hasRunningCalls && interrupted.isEmpty && outcomeUnknown.isEmpty && pendingRefunds.isEmpty
    }

    /// "2 payments in flight (order-1, order-2); 1 refund pending (order-3/refund-1)", each list cut after ten.
    public var description: String {
        var parts: [String] = []
        func list(_ references: [String]) -> String {
            let shown = references.prefix(10).joined(separator: ", ")
            return references.count > 10 ? "\(shown) and \(references.count - 10) more" : shown
        }
        func add(_ references: [String], _ one: String, _ many: String) {
            guard !references.isEmpty else { return }
            parts.append("\(references.count) \(references.count == 1 ? one : many) (\(list(references)))")
        }
        add(paymentsInFlight, "payment in flight", "payments in flight")
        add(interrupted, "payment interrupted mid-flight", "payments interrupted mid-flight")
        add(outcomeUnknown, "payment whose outcome is not known yet", "payments whose outcome is not known yet")
        if storedAtRisk.storedCount > 0 {
            let sources = (deviceWide ? "on this device, every scope's; " : "")
                + (storedInVendorQueue.map { "Tender's ledger: \(storedInLedger); the processor's own queue: \($0)" }
                    ?? "Tender's ledger: \(storedInLedger); the processor's own queue could not be read")
            let names = stored.isEmpty ? "" : ", \(list(stored))"
            parts.append("\(StoredPaymentSummary(count: storedAtRisk.storedCount, amounts: storedAtRisk.storedAmounts).humanDescription) stored offline and not yet forwarded (\(sources)\(names))")
        }
        add(refundsInFlight, "refund in flight", "refunds in flight")
        add(pendingRefunds, "refund pending", "refunds pending")
        return parts.isEmpty ? "nothing unfinished" : parts.joined(separator: "; ")
    }
}
