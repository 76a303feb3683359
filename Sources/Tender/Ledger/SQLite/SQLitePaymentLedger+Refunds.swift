package import Foundation

// Refunds in the SQLite ledger: recorded write-ahead (before the processor is asked), each status change kept in an
// append-only history, and never more than was captured: the refundable amount is checked under the same write lock
// as the insert.

extension SQLitePaymentLedger {
    /// Records a new refund in one durable transaction: under its write lock (`BEGIN IMMEDIATE`, which another
    /// process on the same file waits for) it reads the session with every refund already recorded for it, makes the
    /// record with `make` from that, checks that no refund has its id and ``RefundRecord/checkRefundable(_:of:)``,
    /// this one included, then inserts it with its first history entry: two refunds recorded at the same time, even
    /// from two processes, never share a number nor together exceed what was captured.
    /// - Throws: ``PaymentError/Code/unknownReference``, ``PaymentError/Code/duplicateReference``, the errors of
    ///   `make` and of ``RefundRecord/checkRefundable(_:of:)`` (nothing is written), or
    ///   ``PaymentError/Code/ledgerUnavailable``.
    package func insertRefund(reference: String, scope: LedgerScope,
                              make: @Sendable (PaymentSession) throws -> RefundRecord) throws -> RefundRecord {
        try guarded("record a refund of \(reference)") {
            try db.writeTransaction(durable: options.syncsWriteAhead) {
                guard let (sessionRowID, loaded) = try loadSession(reference: reference, scope: scope,
                                                                   history: false) else {
                    throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .refund,
                                       message: "No payment \(reference) in \(scope) to refund.")
                }
                let session = try withRefunds(loaded, sessionRowID: sessionRowID)
                let refund = try make(session)
                guard refund.reference == reference else {
                    throw PaymentError(.invalidRequest, recovery: .fixIntegration, phase: .refund,
                                       message: "Refund \(refund.id) names payment \(refund.reference), not \(reference).")
                }
                let key: [SQLiteValue] = [.text(scope.merchantID), .text(scope.locationID), .text(refund.id)]
                guard try db.scalarInteger(RefundSQL.selectRowIDByKey, key) == nil else {
                    throw PaymentError(.duplicateReference, recovery: .fixRequest, phase: .refund,
                                       message: "Refund \(refund.id) is already in the ledger.")
                }
                try RefundRecord.checkRefundable(refund, of: session)
                try db.execute(RefundSQL.insert, [
                    .integer(sessionRowID), .text(scope.merchantID), .text(scope.locationID), .text(refund.id),
                    .integer(Int64(refund.number)), .integer(refund.amount.minorUnits),
                    .text(refund.amount.currency.code), .integer(Int64(refund.amount.currency.minorUnitExponent)),
                    .text(refund.reason?.rawValue), .text(refund.status.rawValue), .text(refund.processorRefundID),
                    .bool(refund.throughReader), .date(refund.createdAt), .date(refund.updatedAt),
                    .text(try json(refund.error)),
                ])
                try appendRefundHistory(refundRowID: db.lastInsertRowID, from: nil, to: refund.status,
                                        at: refund.createdAt, processorRefundID: refund.processorRefundID,
                                        error: refund.error)
                return refund
            }
        }
    }

    /// Applies a change to a refund in one transaction: ``RefundChange/apply(to:)`` (compare-and-set on its status;
    /// a final refund never changes status again), the new columns written with the expected status as a
    /// condition, and a history entry appended. Returns the updated record.
    ///
    /// Synced to disk before it returns unless the ledger already holds the processor's id of the refund and the
    /// change brings no other: once that id is on disk, what the processor does with the refund (it settles,
    /// fails) can be looked up by it again — recovery and the queue poller do — so the change is committed and
    /// synced with the next durable commit, like the results of payments the vendor holds
    /// (``SessionChange/requiresDurableSync``). The first answer, which brings the id (or a failure without one), is
    /// durable: a refund is not idempotent once the processor forgets its key, so it must be found by its id. So is a
    /// succeeded refund that failed later (the amount becomes refundable again), although a lookup inside the
    /// processor's change window would find it again.
    /// - Throws: ``PaymentError/Code/unknownReference`` when no refund has this id in the scope,
    ///   ``PaymentError/Code/invalidState`` (nothing is written), or ``PaymentError/Code/ledgerUnavailable``.
    package func recordRefund(_ change: RefundChange, scope: LedgerScope) throws -> RefundRecord {
        try guarded("record a change of refund \(change.refundID)") {
            var durable = true
            // `synchronous` cannot change inside a transaction, and durability depends on the row: commit without a
            // sync, then sync the WAL (the same frames on disk as a synchronous commit) when it must be durable.
            let recorded = try db.writeTransaction(durable: false) {
                var found: (Int64, RefundRecord)?
                try db.query(RefundSQL.selectByKey, [.text(scope.merchantID), .text(scope.locationID),
                                                     .text(change.refundID)]) { found = try decodeRefund($0) }
                guard let (rowID, before) = found else {
                    throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .refund,
                                       message: "No refund \(change.refundID) in \(scope).")
                }
                durable = before.processorRefundID == nil
                    || (change.processorRefundID.map { $0 != before.processorRefundID } ?? false)
                var after = before
                try change.apply(to: &after)
                if before.status == .succeeded, after.status == .failed { durable = true }
                try db.execute(RefundSQL.update, [
                    .text(after.status.rawValue), .text(after.processorRefundID), .date(after.updatedAt),
                    .text(change.error == nil ? nil : try json(after.error)),
                    .integer(rowID), .text(before.status.rawValue),
                ])
                guard db.changes == 1 else {
                    throw PaymentError(.invalidState, recovery: .retrySamePayment, phase: .refund,
                                       message: "Refund \(change.refundID) changed while it was being recorded.")
                }
                try appendRefundHistory(refundRowID: rowID, from: before.status, to: after.status, at: change.at,
                                        processorRefundID: change.processorRefundID, error: change.error)
                return after
            }
            if durable { try db.syncWAL() }
            return recorded
        }
    }

    /// The refunds of the session with this reference, oldest first (none if there is no such session).
    package func refunds(reference: String, scope: LedgerScope) throws -> [RefundRecord] {
        try guarded("read the refunds of \(reference)") {
            try db.readTransaction {
                guard let (rowID, session) = try loadSession(reference: reference, scope: scope, history: false)
                else { return [] }
                return try withRefunds(session, sessionRowID: rowID).refunds
            }
        }
    }

    /// Every refund of the scope with one of these statuses, oldest first (recovery reads the pending ones).
    package func refunds(in statuses: Set<RefundStatus>, scope: LedgerScope) throws -> [RefundRecord] {
        guard !statuses.isEmpty else { return [] }
        return try guarded("list refunds") {
            let sorted = statuses.map(\.rawValue).sorted()
            var result: [RefundRecord] = []
            try db.query(RefundSQL.selectInStatuses(count: sorted.count),
                         [.text(scope.merchantID), .text(scope.locationID)] + sorted.map { .text($0) }) {
                result.append(try decodeRefund($0).1)
            }
            return result
        }
    }

    /// The refunds of the scope with one of these statuses changed at or after `updatedSince`, oldest first,
    /// through the index by scope, status and time (schema version 6).
    package func refunds(in statuses: Set<RefundStatus>, updatedSince: Date, scope: LedgerScope) throws
        -> [RefundRecord] {
        guard !statuses.isEmpty else { return [] }
        return try guarded("list recent refunds") {
            let sorted = statuses.map(\.rawValue).sorted()
            var result: [RefundRecord] = []
            try db.query(RefundSQL.selectInStatusesSince(count: sorted.count),
                         [.text(scope.merchantID), .text(scope.locationID)] + sorted.map { .text($0) }
                            + [.date(updatedSince)]) {
                result.append(try decodeRefund($0).1)
            }
            return result
        }
    }

    /// One entry of a refund's append-only history.
    struct RefundHistoryEntry: Hashable {
        var from: RefundStatus?
        var to: RefundStatus
        var at: Date
        var processorRefundID: String?
        var error: PaymentError?
    }

    /// Every recorded status of a refund, oldest first (empty if there is no such refund).
    func refundHistory(id: String, scope: LedgerScope) throws -> [RefundHistoryEntry] {
        try guarded("read the history of refund \(id)") {
            var entries: [RefundHistoryEntry] = []
            try db.query(RefundSQL.selectHistory, [.text(scope.merchantID), .text(scope.locationID), .text(id)]) { row in
                entries.append(RefundHistoryEntry(
                    from: row.optionalText(0).map(RefundStatus.init(rawValue:)), to: RefundStatus(rawValue: row.text(1)),
                    at: row.date(2), processorRefundID: row.optionalText(3),
                    error: try decodeJSON(PaymentError.self, row.optionalText(4))))
            }
            return entries
        }
    }

    /// `session` with its refunds, read inside the caller's transaction.
    func withRefunds(_ session: PaymentSession, sessionRowID: Int64) throws -> PaymentSession {
        var session = session
        session.refunds = []
        try db.query(RefundSQL.selectBySession, [.integer(sessionRowID)]) {
            session.refunds.append(try decodeRefund($0).1)
        }
        return session
    }

    private func appendRefundHistory(refundRowID: Int64, from: RefundStatus?, to: RefundStatus, at: Date,
                                     processorRefundID: String?, error: PaymentError?) throws {
        try db.execute(RefundSQL.insertHistory, [
            .integer(refundRowID), .text(from?.rawValue), .text(to.rawValue), .date(at), .text(processorRefundID),
            .text(try json(error)),
        ])
    }

    /// Decodes a row of ``RefundSQL/columns``.
    private func decodeRefund(_ row: SQLiteRow) throws -> (Int64, RefundRecord) {
        let currency = try currencies.currency(code: row.text(5), minorUnitExponent: Int(row.integer(6)))
        let record = RefundRecord(
            id: row.text(1), reference: row.text(2), number: Int(row.integer(3)),
            amount: Money(minorUnits: row.integer(4), currency: currency),
            reason: row.optionalText(7).map(RefundReason.init(rawValue:)), status: RefundStatus(rawValue: row.text(8)),
            processorRefundID: row.optionalText(9), throughReader: row.bool(10), createdAt: row.date(11),
            updatedAt: row.date(12), error: try decodeJSON(PaymentError.self, row.optionalText(13)))
        return (row.integer(0), record)
    }
}

/// The refund statements.
private enum RefundSQL {
    /// The columns a refund is decoded from, with its payment's reference.
    static let columns = """
        r.id, r.idempotency_key, s.reference, r.number, r.amount, r.currency, r.currency_exponent, r.reason,
        r.status, r.processor_refund_id, r.through_reader, r.created_at, r.updated_at, r.error
        """

    static let insert = """
        INSERT INTO refunds (session_id, merchant_id, location_id, idempotency_key, number, amount, currency,
            currency_exponent, reason, status, processor_refund_id, through_reader, created_at, updated_at, error)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static let update = """
        UPDATE refunds SET status = ?, processor_refund_id = ?, updated_at = ?, error = COALESCE(?, error)
        WHERE id = ? AND status = ?
        """

    static let insertHistory = """
        INSERT INTO refund_history (refund_id, from_status, to_status, at, processor_refund_id, error)
        VALUES (?, ?, ?, ?, ?, ?)
        """

    static let selectRowIDByKey =
        "SELECT id FROM refunds WHERE merchant_id = ? AND location_id = ? AND idempotency_key = ?"

    static let selectByKey = """
        SELECT \(columns) FROM refunds r JOIN sessions s ON s.id = r.session_id
        WHERE r.merchant_id = ? AND r.location_id = ? AND r.idempotency_key = ?
        """

    static let selectBySession =
        "SELECT \(columns) FROM refunds r JOIN sessions s ON s.id = r.session_id WHERE r.session_id = ? ORDER BY r.id"

    /// One statement per number of statuses, each cached.
    static func selectInStatuses(count: Int) -> String {
        let placeholders = Array(repeating: "?", count: count).joined(separator: ", ")
        return "SELECT \(columns) FROM refunds r JOIN sessions s ON s.id = r.session_id "
            + "WHERE r.merchant_id = ? AND r.location_id = ? AND r.status IN (\(placeholders)) ORDER BY r.id"
    }

    /// ``selectInStatuses(count:)`` limited to refunds changed at or after a time.
    static func selectInStatusesSince(count: Int) -> String {
        let placeholders = Array(repeating: "?", count: count).joined(separator: ", ")
        return "SELECT \(columns) FROM refunds r JOIN sessions s ON s.id = r.session_id "
            + "WHERE r.merchant_id = ? AND r.location_id = ? AND r.status IN (\(placeholders)) AND r.updated_at >= ? "
            + "ORDER BY r.id"
    }

    static let selectHistory = """
        SELECT h.from_status, h.to_status, h.at, h.processor_refund_id, h.error
        FROM refund_history h JOIN refunds r ON r.id = h.refund_id
        WHERE r.merchant_id = ? AND r.location_id = ? AND r.idempotency_key = ? ORDER BY h.id
        """
}
