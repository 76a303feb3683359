import Foundation

/// A ledger in memory, for tests, previews and benchmarks. Not durable.
///
/// A lock-protected class rather than an actor: every operation is short and never suspends, so callers pay no
/// executor hop for it. Each scope's sessions live in boxes, so recording a change touches one session in place
/// instead of moving a large value through nested dictionaries.
package final class InMemoryPaymentLedger: PaymentLedger, @unchecked Sendable {
    /// One session, boxed so that updates happen in place.
    private final class Box {
        var session: PaymentSession
        init(_ session: PaymentSession) { self.session = session }
    }

    /// Everything recorded under one scope.
    private final class ScopeStore {
        var sessions: [String: Box] = [:]
        var order: [String] = []
        var aggregates = StoredAggregates()
        var refunds: [RefundRecord] = []
    }

    private let stores = Locked<[LedgerScope: ScopeStore]>([:])

    /// Creates an empty ledger.
    package init() {}

    private func store(_ scope: LedgerScope, in stores: inout [LedgerScope: ScopeStore]) -> ScopeStore {
        if let store = stores[scope] { return store }
        let store = ScopeStore()
        stores[scope] = store
        return store
    }

    /// Records a new session.
    package func insert(_ session: PaymentSession) throws {
        try stores.withLock { stores in
            let store = store(session.scope, in: &stores)
            guard store.sessions[session.reference] == nil else {
                throw PaymentError(.duplicateReference, recovery: .fixRequest, phase: .ledger,
                                   message: "Reference \(session.reference) is already in the ledger.")
            }
            store.sessions[session.reference] = Box(session)
            store.order.append(session.reference)
            store.aggregates.apply(before: nil, after: session)
        }
    }

    /// The session with this reference, always with its refunds.
    package func session(reference: String, scope: LedgerScope, includingHistory: Bool) -> PaymentSession? {
        stores.withLock { stores -> PaymentSession? in
            guard let store = stores[scope], var session = store.sessions[reference]?.session else { return nil }
            if !includingHistory { session.transitions = [] }
            session.refunds = store.refunds.filter { $0.reference == reference }
            return session
        }
    }

    /// The session with this local id or processor id.
    package func session(localID: String?, processorPaymentID: String?, scope: LedgerScope) -> PaymentSession? {
        stores.withLock { stores in
            stores[scope]?.sessions.values.first { box in
                (localID != nil && box.session.localID == localID)
                    || (processorPaymentID != nil && box.session.processorPaymentID == processorPaymentID)
            }?.session
        }
    }

    /// Applies a change atomically.
    package func record(_ change: SessionChange, scope: LedgerScope) throws -> PaymentSession {
        try stores.withLock { stores in
            guard let box = stores[scope]?.sessions[change.reference], let store = stores[scope] else {
                throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .ledger,
                                   message: "No payment \(change.reference) in \(scope).")
            }
            var session = box.session
            try change.apply(to: &session)
            store.aggregates.apply(before: box.session, after: session)
            box.session = session
            return session
        }
    }

    /// Applies the changes atomically: each is checked against the result of the ones before it, and nothing is
    /// written unless all of them apply.
    package func record(_ changes: [SessionChange], scope: LedgerScope) throws -> [PaymentSession] {
        try stores.withLock { stores in
            let store = store(scope, in: &stores)
            var pending: [String: PaymentSession] = [:]
            var results: [PaymentSession] = []
            results.reserveCapacity(changes.count)
            for change in changes {
                guard var session = pending[change.reference] ?? store.sessions[change.reference]?.session else {
                    throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .ledger,
                                       message: "No payment \(change.reference) in \(scope).")
                }
                try change.apply(to: &session)
                pending[change.reference] = session
                results.append(session)
            }
            for (reference, session) in pending {
                let box = store.sessions[reference]!
                store.aggregates.apply(before: box.session, after: session)
                box.session = session
            }
            return results
        }
    }

    /// The sessions with these references, without history.
    package func sessions(references: [String], scope: LedgerScope) -> [String: PaymentSession] {
        stores.withLock { stores in
            var found: [String: PaymentSession] = [:]
            guard let store = stores[scope] else { return found }
            for reference in references {
                guard var session = store.sessions[reference]?.session else { continue }
                session.transitions = []
                found[reference] = session
            }
            return found
        }
    }

    /// Sessions in the given states.
    package func sessions(in states: Set<PaymentState>, scope: LedgerScope) -> [PaymentSession] {
        stores.withLock { stores in
            guard let store = stores[scope] else { return [] }
            return store.order.compactMap { reference -> PaymentSession? in
                guard let session = store.sessions[reference]?.session, states.contains(session.state) else { return nil }
                var copy = session
                copy.transitions = []
                return copy
            }
        }
    }

    /// Every session of the scope.
    package func allSessions(scope: LedgerScope) -> [PaymentSession] {
        stores.withLock { stores in
            guard let store = stores[scope] else { return [] }
            return store.order.compactMap { reference -> PaymentSession? in
                guard var session = store.sessions[reference]?.session else { return nil }
                session.transitions = []
                return session
            }
        }
    }

    /// The stored aggregates.
    package func storedSummary(scope: LedgerScope) -> StoredPaymentSummary {
        stores.withLock { $0[scope]?.aggregates.summary ?? StoredPaymentSummary() }
    }

    /// Every scope with sessions.
    package func scopes() -> [LedgerScope] {
        stores.withLock { stores in
            stores.filter { !$0.value.sessions.isEmpty }.keys.sorted { $0.description < $1.description }
        }
    }

    /// Records a new refund made from the session as held now, checking the refundable amount, under the lock.
    package func insertRefund(reference: String, scope: LedgerScope,
                              make: @Sendable (PaymentSession) throws -> RefundRecord) throws -> RefundRecord {
        try stores.withLock { stores in
            guard let store = stores[scope], var session = store.sessions[reference]?.session else {
                throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .refund,
                                   message: "No payment \(reference) in \(scope) to refund.")
            }
            session.transitions = []
            session.refunds = store.refunds.filter { $0.reference == reference }
            let refund = try make(session)
            guard refund.reference == reference else {
                throw PaymentError(.invalidRequest, recovery: .fixIntegration, phase: .refund,
                                   message: "Refund \(refund.id) names payment \(refund.reference), not \(reference).")
            }
            guard !store.refunds.contains(where: { $0.id == refund.id }) else {
                throw PaymentError(.duplicateReference, recovery: .fixRequest, phase: .refund,
                                   message: "Refund \(refund.id) is already in the ledger.")
            }
            try RefundRecord.checkRefundable(refund, of: session)
            store.refunds.append(refund)
            return refund
        }
    }

    /// Records `refund` as made (its number and id chosen by the caller), synchronously.
    package func insertRefund(_ refund: RefundRecord, scope: LedgerScope) throws {
        _ = try insertRefund(reference: refund.reference, scope: scope) { _ in refund }
    }

    /// Applies a change to a refund.
    package func recordRefund(_ change: RefundChange, scope: LedgerScope) throws -> RefundRecord {
        try stores.withLock { stores in
            guard let store = stores[scope], let index = store.refunds.firstIndex(where: { $0.id == change.refundID }) else {
                throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .refund,
                                   message: "No refund \(change.refundID) in \(scope).")
            }
            var record = store.refunds[index]
            try change.apply(to: &record)
            store.refunds[index] = record
            return record
        }
    }

    /// The refunds of one session.
    package func refunds(reference: String, scope: LedgerScope) -> [RefundRecord] {
        stores.withLock { ($0[scope]?.refunds ?? []).filter { $0.reference == reference } }
    }

    /// The refunds with these statuses.
    package func refunds(in statuses: Set<RefundStatus>, scope: LedgerScope) -> [RefundRecord] {
        stores.withLock { ($0[scope]?.refunds ?? []).filter { statuses.contains($0.status) } }
    }
}
