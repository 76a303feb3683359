import Foundation

// Attribution: which vendor payment is which session's, and what a lookup that cannot see the vendor's device store
// does not prove. Vendor-neutral: every adapter inherits it, supplying what its vendor documents (the vendor's total
// and the attempt its record names on each update; its queue's counts, amounts and named entries).

extension PaymentTerminal {
    /// Why `update` cannot be `session`'s current vendor payment, or `nil` when it can be.
    ///
    /// A vendor payment is attributed to a session only when it matches it: the reference (the caller's lookup),
    /// the vendor payment (``ProcessorPaymentUpdate/paymentAttempt`` when the vendor records one), the device payment
    /// (``ProcessorPaymentUpdate/localID`` once the session has one), and the total and currency
    /// (``ProcessorPaymentUpdate/amount`` when the vendor reports one). A payment for another total under the same
    /// reference is another sale's: ``PaymentError/Code/duplicateReference``, never this session's outcome.
    static func attributionMismatch(_ update: ProcessorPaymentUpdate, to session: PaymentSession) -> PaymentError? {
        // An on-reader tip the update reports is part of the total it carries.
        let total = session.tip == nil ? update.tip.flatMap { try? session.amount.adding($0) } ?? session.total
            : session.total
        if let amount = update.amount, amount != total {
            return PaymentError(.duplicateReference, recovery: .fixRequest, phase: .reconciliation,
                                message: "The processor holds a payment of \(amount) for reference \(session.reference), not the \(session.total) of this sale: the reference was used for another sale (a reinstall restarting the order numbers, say). It is not recorded as this sale's payment, and this sale is not charged under the reference; take it again with a new reference.")
        }
        if let attempt = update.paymentAttempt, attempt != session.paymentAttempt {
            return PaymentError(.outcomeUnknown, recovery: .none, phase: .reconciliation,
                                message: "The processor reported payment attempt \(attempt) of \(session.reference), while the ledger is on attempt \(session.paymentAttempt); it is not applied to the later attempt.")
        }
        if let localID = update.localID, let recorded = session.localID, localID != recorded {
            return PaymentError(.outcomeUnknown, recovery: .none, phase: .reconciliation,
                                message: "The processor reported device payment \(localID) for \(session.reference), while the ledger records \(recorded); it is not applied.")
        }
        return nil
    }

    /// `update` with what cannot be attributed taken out: a mismatched payment becomes an unknown outcome carrying
    /// the reason and none of the other payment's ids, so nothing of another sale is recorded on this one (for a
    /// session that can no longer become unknown, an update that changes nothing).
    static func attributed(_ update: ProcessorPaymentUpdate, to session: PaymentSession) -> ProcessorPaymentUpdate {
        guard let mismatch = attributionMismatch(update, to: session) else { return update }
        guard session.state == .outcomeUnknown
            || PaymentStateMachine.canTransition(from: session.state, to: .outcomeUnknown) else {
            return ProcessorPaymentUpdate(reference: session.reference, state: session.state)
        }
        return ProcessorPaymentUpdate(reference: session.reference, state: .outcomeUnknown, error: mismatch)
    }

    // MARK: What the vendor stores and Tender cannot attribute

    /// The part of the vendor's own offline queue that names no payment: the vendor's stored count and amounts
    /// per currency less the entries it lists (Square lists every payment; Stripe's SDK lists none, so after a
    /// relaunch its whole `offlineStatus.sdk` count is unnamed). `nil` when the queue cannot be read.
    ///
    /// The ledger's own stored records are deliberately not used to attribute the unnamed rest: after a power loss
    /// they may be stale (a forwarding result lost together with the stored record of another payment), and would
    /// then hide the very payment whose record was lost.
    func unattributedVendorStore() async -> UnattributedStore? {
        guard let snapshot = try? await processor.queueSnapshot() else { return nil }
        let named = snapshot.payments.filter(\.status.countsAsStored)
        var amounts = snapshot.storedAmounts
        for payment in named { amounts[payment.amount.currency, default: 0] -= payment.amount.minorUnits }
        return UnattributedStore(count: max(0, snapshot.storedCount - named.count), amounts: amounts,
                                 reportsAmounts: !snapshot.storedAmounts.isEmpty,
                                 namedReferences: Set(named.map(\.reference)))
    }

    /// Whether the vendor may hold `session`'s payment stored on the device where a lookup cannot see it: the
    /// session could have been stored (its policy allows offline) and the vendor's queue cannot be read, names it,
    /// or holds unnamed payments whose amount in its currency could include its total.
    func vendorStoreDoubt(_ session: PaymentSession) async -> StoredPaymentDoubt? {
        guard session.offlinePolicy != .requireOnline else { return nil }
        guard let store = await unattributedVendorStore() else { return .unreadable }
        return store.mayHold(session) ? .unattributed(store) : nil
    }

    /// The refusal of a retry whose earlier vendor payment left no trace Tender can follow while the vendor holds
    /// stored payments Tender cannot attribute: a new vendor payment could charge the card a second time when the
    /// stored one is forwarded. `nil` when the retry may go on.
    func storedPaymentWait(_ session: PaymentSession) async -> PaymentError? {
        guard session.processorPaymentID == nil, session.localID == nil,
              let doubt = await vendorStoreDoubt(session) else { return nil }
        let what = switch doubt {
        case .unreadable:
            "\(processor.name)'s offline queue cannot be read, so Tender cannot tell whether it stored the earlier attempt"
        case .unattributed(let store):
            "\(processor.name) holds \(store.count) stored payment(s) it does not name"
                + (store.reportsAmounts ? " (\(store.amount(in: session.total.currency)) in all)" : "")
                + ", and Tender's ledger has no record of where the earlier attempt went"
        }
        return PaymentError(.outcomeUnknown, recovery: .waitAndRetry, phase: .reconciliation,
                            message: "A stored payment for this order may still be forwarded: \(what). Taking \(session.reference) again now could charge the card twice; try again once the device is online and has forwarded its stored payments (a forwarded payment of \(session.reference) is then recorded on it).")
    }
}

/// Why a lookup's "not found" proves nothing for a session that may have been stored offline.
enum StoredPaymentDoubt: Sendable {
    /// The vendor's queue cannot be read.
    case unreadable
    /// The vendor holds stored payments it does not name, with room for the session's total.
    case unattributed(UnattributedStore)
}

/// The vendor's stored payments that its queue does not name (see ``PaymentTerminal/unattributedVendorStore()``).
struct UnattributedStore: Sendable {
    /// How many stored payments the vendor counts beyond those it names.
    var count: Int
    /// Their amounts per currency, in minor units (the vendor's per-currency totals less the named entries).
    var amounts: [Currency: Int64]
    /// Whether the vendor reports amounts at all (when it does not, amounts prove nothing).
    var reportsAmounts: Bool
    /// The references of the stored payments it names.
    var namedReferences: Set<String>

    /// The unnamed amount in one currency.
    func amount(in currency: Currency) -> Money { Money(minorUnits: max(0, amounts[currency] ?? 0), currency: currency) }

    /// Whether `session`'s payment can be among the vendor's stored payments: named by its reference, or unnamed
    /// with room for its total in its currency.
    func mayHold(_ session: PaymentSession) -> Bool {
        if namedReferences.contains(session.reference) { return true }
        guard count > 0 else { return false }
        guard reportsAmounts else { return true }
        return (amounts[session.total.currency] ?? 0) >= session.total.minorUnits
    }
}
