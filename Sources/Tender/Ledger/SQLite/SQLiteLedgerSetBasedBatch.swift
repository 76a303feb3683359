import Foundation

// Forwarding at the floor: a batch of changes of distinct payments (forwarding results, captures, recovery) is
// applied with a fixed number of set-based statements instead of a read, an update and an insert per payment. The
// changes are shown to SQL as the rows of `tender_batch` (``SQLiteBatchRows``, read in place: nothing encoded):
//   1. one SELECT reads the payments (through the unique (merchant, location, reference) index, then by row id);
//   2. in Swift, each change is applied to its payment with ``SessionChange/apply(to:)`` — the compare-and-set on the
//      expected state and the legal transitions, the very semantics of the row path and of the in-memory ledger —
//      which gives the sessions returned to the caller and the values written;
//   3. one UPDATE writes every payment by row id, in the columns some change of the batch carries (an index on a
//      column no change touches is left alone), with the compare-and-set again, and one INSERT … SELECT appends the
//      history rows straight from the batch;
//   4. the stored aggregates move once per currency, by the summed totals (an UPDATE, and a DELETE if emptied).
// All of it in the caller's one write transaction. If a payment is missing or not in its expected state, the batch
// is abandoned (rolled back) and the row path runs instead, failing with exactly the error it gives alone.

/// A batch the set-based path applies: at least two changes, each to a different payment, none starting a new
/// payment attempt, each a legal transition or a change that keeps the state. Other batches take the row path.
struct SetBasedBatch {
    /// The set-based statements did not match every payment: roll back and take the row path.
    struct Mismatch: Error {}

    /// The optional columns some change of the batch carries: the UPDATE sets only those.
    struct Columns: OptionSet, Hashable {
        let rawValue: UInt16
        static let route = Columns(rawValue: 1 << 0)
        static let processorPaymentID = Columns(rawValue: 1 << 1)
        static let localID = Columns(rawValue: 1 << 2)
        static let card = Columns(rawValue: 1 << 3)
        static let error = Columns(rawValue: 1 << 4)
        static let attempts = Columns(rawValue: 1 << 5)
        static let storedAt = Columns(rawValue: 1 << 6)
        static let captureBefore = Columns(rawValue: 1 << 7)
        /// Some payment enters, stays in or leaves ``PaymentState/storedOffline``: `stored_since` (and its index)
        /// must be set.
        static let storedSince = Columns(rawValue: 1 << 8)
        static let capturedAmount = Columns(rawValue: 1 << 9)
    }

    let changes: [SessionChange]
    let columns: Columns

    /// The batch, or `nil` when the set-based path does not cover it.
    init?(_ changes: [SessionChange]) {
        guard changes.count >= 2 else { return nil }
        var references = Set<String>(minimumCapacity: changes.count)
        var columns: Columns = []
        for change in changes {
            guard references.insert(change.reference).inserted, !change.startsNewAttempt, change.tip == nil,
                  change.newState == change.expectedState
                    || PaymentStateMachine.canTransition(from: change.expectedState, to: change.newState)
            else { return nil }
            if change.route != nil { columns.insert(.route) }
            if change.processorPaymentID != nil { columns.insert(.processorPaymentID) }
            if change.localID != nil { columns.insert(.localID) }
            if change.card != nil { columns.insert(.card) }
            if change.error != nil { columns.insert(.error) }
            if change.incrementsAttempts { columns.insert(.attempts) }
            if change.captureBefore != nil { columns.insert(.captureBefore) }
            if change.capturedAmount != nil { columns.insert(.capturedAmount) }
            let entersStored = change.newState == .storedOffline && change.expectedState != .storedOffline
            if change.storedAt != nil || entersStored { columns.insert(.storedAt) }
            if change.newState == .storedOffline || change.expectedState == .storedOffline {
                columns.insert(.storedSince)
            }
        }
        self.changes = changes
        self.columns = columns
    }
}

extension SQLitePaymentLedger {
    /// Applies a set-based batch inside the caller's write transaction and returns the sessions after it, in the
    /// order of the changes, without history.
    /// - Throws: ``SetBasedBatch/Mismatch`` when a payment is missing or not in its expected state.
    func applySetBased(_ batch: SetBasedBatch, scope: LedgerScope) throws -> [PaymentSession] {
        let changes = batch.changes
        defer { batchRows.clear() }
        // 1. The payments as they are, each with its row id.
        batchRows.show(references: changes.map(\.reference))
        var sessions = [PaymentSession?](repeating: nil, count: changes.count)
        var sessionIDs = [Int64](repeating: 0, count: changes.count)
        try db.query(BatchSQL.selectSessions, [.text(scope.merchantID), .text(scope.locationID)]) { row in
            let index = Int(row.integer(Int32(LedgerSQL.sessionColumnCount)))
            guard changes.indices.contains(index), sessions[index] == nil else { throw SetBasedBatch.Mismatch() }
            (sessionIDs[index], sessions[index]) = try decodeSession(row, scope: scope,
                                                                     reference: changes[index].reference)
        }
        // 2. Each change applied to its payment, with the shared semantics (compare-and-set, legal transitions);
        //    the payments and their history as `SessionChange.apply(to:)` leaves them are what is written.
        var after: [PaymentSession] = []
        after.reserveCapacity(changes.count)
        var history = 0
        var aggregates: [Currency: (entering: (count: Int, amount: Int64), leaving: (count: Int, amount: Int64))] = [:]
        for (index, change) in changes.enumerated() {
            guard var session = sessions[index], session.state == change.expectedState else {
                throw SetBasedBatch.Mismatch()
            }
            do { try change.apply(to: &session) } catch { throw SetBasedBatch.Mismatch() }
            history += session.transitions.count  // loaded without history: what `apply` appended
            if (change.expectedState == .storedOffline) != (session.state == .storedOffline) {
                let total = session.total
                if session.state == .storedOffline {
                    aggregates[total.currency, default: ((0, 0), (0, 0))].entering.count += 1
                    aggregates[total.currency, default: ((0, 0), (0, 0))].entering.amount += total.minorUnits
                } else {
                    aggregates[total.currency, default: ((0, 0), (0, 0))].leaving.count += 1
                    aggregates[total.currency, default: ((0, 0), (0, 0))].leaving.amount += total.minorUnits
                }
            }
            session.transitions = []  // batches return the sessions without their history
            after.append(session)
        }
        batchRows.show(changes, sessionIDs: sessionIDs, after: after, cards: try changes.map { try json($0.card) },
                       errors: try changes.map { try json($0.error) })
        // 3. One UPDATE and one history INSERT for the whole batch.
        try db.execute(BatchSQL.update(batch.columns))
        guard db.changes == changes.count else { throw SetBasedBatch.Mismatch() }
        try db.execute(BatchSQL.insertTransitions)
        guard db.changes == history else { throw SetBasedBatch.Mismatch() }
        // 4. The stored aggregates, once per currency.
        for (currency, moved) in aggregates.sorted(by: { $0.key.code < $1.key.code }) {
            if moved.entering.count > 0 {
                try addToAggregates(currency: currency, count: moved.entering.count, amount: moved.entering.amount,
                                    scope: scope)
            }
            if moved.leaving.count > 0 {
                try removeFromAggregates(currency: currency, count: moved.leaving.count, amount: moved.leaving.amount,
                                         scope: scope)
            }
        }
        return after
    }

    /// The query plans of the set-based statements (tests check that each walks the batch and seeks each payment).
    func explainSetBasedBatch(scope: LedgerScope, columns: SetBasedBatch.Columns) throws -> [String] {
        try guarded("explain the set-based batch") {
            try explain([BatchSQL.selectSessions], [.text(scope.merchantID), .text(scope.locationID)])
                + explain([BatchSQL.update(columns), BatchSQL.insertTransitions], [])
        }
    }
}
