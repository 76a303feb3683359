import Foundation

// Rows of the SQLite ledger: writing a session, its transitions and the stored aggregates, applying one change on
// the row path, and decoding rows back into values. Everything here runs inside the caller's transaction.

extension SQLitePaymentLedger {
    /// Inserts a session, its transitions, its scope and its share of the stored aggregates.
    func insertRow(_ session: PaymentSession) throws {
        do {
            try db.execute(LedgerSQL.insertSession, [
                .text(session.scope.merchantID), .text(session.scope.locationID), .text(session.reference),
                .text(session.processor), .integer(session.amount.minorUnits), .text(session.amount.currency.code),
                .integer(Int64(session.amount.currency.minorUnitExponent)), .integer(session.tip?.minorUnits),
                .text(session.tip?.currency.code), .integer(session.tip.map { Int64($0.currency.minorUnitExponent) }),
                .text(session.captureMode.rawValue), .text(session.offlinePolicy.rawValue),
                .text(session.route?.rawValue), .text(session.state.rawValue), .text(session.processorPaymentID),
                .text(session.localID), .text(try json(session.card)), .text(try json(session.lastError)),
                .integer(Int64(session.attempts)), .date(session.createdAt), .date(session.updatedAt),
                .date(session.storedAt), .date(Self.storedSince(session)), .integer(Int64(session.paymentAttempt)),
                .date(session.captureBefore), .integer(session.capturedAmount?.minorUnits),
                .integer(Int64(session.keyScheme.rawValue)),
            ])
        } catch let error as SQLiteError where error.extendedCode == SQLiteError.constraintUnique {
            throw PaymentError(.duplicateReference, recovery: .fixRequest, phase: .ledger,
                               message: "Reference \(session.reference) is already in the ledger.")
        }
        let rowID = db.lastInsertRowID
        for transition in session.transitions { try insertTransition(transition, sessionRowID: rowID) }
        try db.execute(LedgerSQL.insertScope, [.text(session.scope.merchantID), .text(session.scope.locationID)])
        if session.state == .storedOffline { try addToAggregates(session) }
    }

    func insertTransition(_ transition: PaymentTransition, sessionRowID: Int64) throws {
        try db.execute(LedgerSQL.insertTransition, [
            .integer(sessionRowID), .text(transition.from?.rawValue), .text(transition.to.rawValue),
            .date(transition.at), .text(try json(transition.error)), .integer(Int64(transition.attempt)),
            .text(transition.note),
        ])
    }

    /// Applies one change on the row path, inside the caller's write transaction: reads the session, applies
    /// ``SessionChange/apply(to:)`` (compare-and-set on the expected state, legal transitions only), writes the new
    /// columns with the expected state as a condition, appends the new history rows and moves the aggregates.
    func applyRow(_ change: SessionChange, scope: LedgerScope, history: Bool) throws -> PaymentSession {
        guard let (rowID, before) = try loadSession(reference: change.reference, scope: scope, history: history) else {
            throw unknown(change.reference, scope: scope)
        }
        var after = before
        try change.apply(to: &after)
        // `apply(to:)` appends exactly the new transitions after whatever history was loaded.
        try writeRow(rowID: rowID, reference: change.reference, before: before, after: after,
                     newTransitions: after.transitions.dropFirst(before.transitions.count),
                     cardChanged: change.card != nil, errorChanged: change.error != nil,
                     clearsCard: change.startsNewAttempt && change.card == nil, scope: scope)
        return after
    }

    /// Applies changes in order on the row path, inside the caller's write transaction. Consecutive changes of one
    /// payment (a payment's intermediate states recorded with its outcome), none starting a new payment attempt, read
    /// and write its row once: one SELECT, one UPDATE, and a history row for each transition. Returns the session after
    /// each change, without history (each with the transitions its change appended, as ``applyRow(_:scope:history:)``
    /// returns them).
    func applyRows(_ changes: [SessionChange], scope: LedgerScope) throws -> [PaymentSession] {
        var results: [PaymentSession] = []
        results.reserveCapacity(changes.count)
        var start = 0
        while start < changes.count {
            let reference = changes[start].reference
            var end = start + 1
            while end < changes.count, changes[end].reference == reference { end += 1 }
            let run = changes[start..<end]
            if run.count == 1 || run.contains(where: \.startsNewAttempt) {
                for change in run { results.append(try applyRow(change, scope: scope, history: false)) }
            } else {
                results += try applyRun(run, scope: scope)
            }
            start = end
        }
        return results
    }

    /// Consecutive changes of one payment, none starting a new attempt, applied to its row at once.
    private func applyRun(_ run: ArraySlice<SessionChange>, scope: LedgerScope) throws -> [PaymentSession] {
        let reference = run[run.startIndex].reference
        guard let (rowID, before) = try loadSession(reference: reference, scope: scope, history: false) else {
            throw unknown(reference, scope: scope)
        }
        var after = before
        var appended: [PaymentTransition] = []
        var results: [PaymentSession] = []
        results.reserveCapacity(run.count)
        for change in run {
            after.transitions = []
            try change.apply(to: &after)
            appended += after.transitions
            results.append(after)
        }
        try writeRow(rowID: rowID, reference: reference, before: before, after: after, newTransitions: appended[...],
                     cardChanged: run.contains { $0.card != nil }, errorChanged: run.contains { $0.error != nil },
                     clearsCard: false, scope: scope)
        return results
    }

    private func unknown(_ reference: String, scope: LedgerScope) -> PaymentError {
        PaymentError(.unknownReference, recovery: .fixRequest, phase: .ledger,
                     message: "No payment \(reference) in \(scope).")
    }

    /// Writes a session's row from `before` to `after` (compare-and-set on `before`'s state), appends
    /// `newTransitions`, and moves the stored aggregates.
    private func writeRow(rowID: Int64, reference: String, before: PaymentSession, after: PaymentSession,
                          newTransitions: ArraySlice<PaymentTransition>, cardChanged: Bool, errorChanged: Bool,
                          clearsCard: Bool, scope: LedgerScope) throws {
        // Only the columns that change are set: SQLite rewrites every index on a column the UPDATE sets, changed or
        // not (the processor id's index page at every outcome, when the id came with an earlier change). Card and
        // error change only when a change carries them (`SessionChange.apply`), which also spares their JSON.
        var columns = LedgerSQL.SessionUpdate()
        var values: [SQLiteValue] = []
        values.reserveCapacity(15)
        func set(_ column: LedgerSQL.SessionUpdate, _ value: @autoclosure () throws -> SQLiteValue,
                 if changed: Bool) rethrows {
            guard changed else { return }
            columns.insert(column)
            values.append(try value())
        }
        set(.route, .text(after.route?.rawValue), if: after.route != before.route)
        set(.state, .text(after.state.rawValue), if: true)
        set(.processorPaymentID, .text(after.processorPaymentID), if: after.processorPaymentID != before.processorPaymentID)
        set(.localID, .text(after.localID), if: after.localID != before.localID)
        try set(.card, .text(try json(after.card)), if: cardChanged)
        try set(.lastError, .text(try json(after.lastError)), if: errorChanged)
        set(.attempts, .integer(Int64(after.attempts)), if: after.attempts != before.attempts)
        set(.updatedAt, .date(after.updatedAt), if: true)
        set(.storedAt, .date(after.storedAt), if: after.storedAt != before.storedAt)
        let storedSince = Self.storedSince(after)
        set(.storedSince, .date(storedSince), if: storedSince != Self.storedSince(before))
        set(.paymentAttempt, .integer(Int64(after.paymentAttempt)), if: after.paymentAttempt != before.paymentAttempt)
        set(.captureBefore, .date(after.captureBefore), if: after.captureBefore != before.captureBefore)
        set(.capturedAmount, .integer(after.capturedAmount?.minorUnits), if: after.capturedAmount != before.capturedAmount)
        values += [.integer(rowID), .text(before.state.rawValue)]
        try db.execute(updateSQL(columns), values)
        guard db.changes == 1 else {
            throw PaymentError(.invalidState, recovery: .retrySamePayment, phase: .ledger,
                               message: "\(reference) changed while it was being recorded.")
        }
        if clearsCard { try db.execute(LedgerSQL.clearCard, [.integer(rowID)]) }
        // A tip is recorded once, on a session without one (the customer's on-reader choice).
        if before.tip == nil, let tip = after.tip {
            try db.execute(LedgerSQL.recordTip, [.integer(tip.minorUnits), .text(tip.currency.code),
                                                 .integer(Int64(tip.currency.minorUnitExponent)), .integer(rowID)])
        }
        for transition in newTransitions { try insertTransition(transition, sessionRowID: rowID) }
        if before.state == .storedOffline { try removeFromAggregates(currency: before.total.currency, count: 1,
                                                                     amount: before.total.minorUnits, scope: scope) }
        if after.state == .storedOffline { try addToAggregates(after) }
    }

    /// The time the in-memory ledger keys the oldest-stored aggregate by, or `nil` when not stored.
    static func storedSince(_ session: PaymentSession) -> Date? {
        session.state == .storedOffline ? (session.storedAt ?? session.updatedAt) : nil
    }

    func addToAggregates(_ session: PaymentSession) throws {
        let total = session.total
        try addToAggregates(currency: total.currency, count: 1, amount: total.minorUnits, scope: session.scope)
    }

    /// Adds `count` stored payments totalling `amount` of `currency` to the scope's aggregates.
    func addToAggregates(currency: Currency, count: Int, amount: Int64, scope: LedgerScope) throws {
        try db.execute(LedgerSQL.addAggregate, [
            .text(scope.merchantID), .text(scope.locationID), .text(currency.code),
            .integer(Int64(currency.minorUnitExponent)), .integer(Int64(count)), .integer(amount),
        ])
    }

    /// Removes `count` stored payments totalling `amount` of `currency` from the scope's aggregates.
    func removeFromAggregates(currency: Currency, count: Int, amount: Int64, scope: LedgerScope) throws {
        let key: [SQLiteValue] = [.text(scope.merchantID), .text(scope.locationID), .text(currency.code)]
        try db.execute(LedgerSQL.removeAggregates, [.integer(Int64(count)), .integer(amount)] + key)
        try db.execute(LedgerSQL.deleteEmptyAggregate, key)
    }

    func readStoredSummary(scope: LedgerScope) throws -> StoredPaymentSummary {
        try db.readTransaction { try storedSummaryRows(scope: scope) }
    }

    /// The stored-payment summary, inside the caller's transaction.
    func storedSummaryRows(scope: LedgerScope) throws -> StoredPaymentSummary {
        let key: [SQLiteValue] = [.text(scope.merchantID), .text(scope.locationID)]
        var summary = StoredPaymentSummary()
        try db.query(LedgerSQL.selectAggregates, key) { row in
            let currency = try Currency(code: row.text(0), minorUnitExponent: Int(row.integer(1)))
            summary.count += Int(row.integer(2))
            summary.amounts[currency] = row.integer(3)
        }
        if summary.count > 0 {
            try db.query(LedgerSQL.selectOldestStored, key) { summary.oldestStoredAt = $0.date(0) }
        }
        return summary
    }

    /// The session's row id and value (with its history if asked; never with its refunds), or `nil`.
    func loadSession(reference: String, scope: LedgerScope, history: Bool) throws -> (Int64, PaymentSession)? {
        var found: (Int64, PaymentSession)?
        try db.query(LedgerSQL.selectByReference, [.text(scope.merchantID), .text(scope.locationID), .text(reference)]) {
            found = try decodeSession($0)
        }
        guard let (rowID, loaded) = found else { return nil }
        var session = loaded
        if history {
            try db.query(LedgerSQL.selectTransitions, [.integer(rowID)]) { row in
                session.transitions.append(PaymentTransition(
                    from: try row.optionalText(0).map { try decodeEnum(PaymentState.self, $0) },
                    to: try decodeEnum(PaymentState.self, row.text(1)),
                    at: row.date(2),
                    error: try decodeJSON(PaymentError.self, row.optionalText(3)),
                    attempt: Int(row.integer(4)),
                    note: row.optionalText(5)))
            }
        }
        return (rowID, session)
    }

    /// Decodes a row of ``LedgerSQL/sessionColumns``. The session comes back without history or refunds. A caller
    /// that selected the row by its scope and reference may pass them, to be used as they are instead of decoded.
    func decodeSession(_ row: SQLiteRow, scope: LedgerScope? = nil, reference: String? = nil) throws
        -> (Int64, PaymentSession) {
        let currency = try currencies.currency(code: row.text(6), minorUnitExponent: Int(row.integer(7)))
        let amount = Money(minorUnits: row.integer(5), currency: currency)
        var tip: Money?
        if let tipUnits = row.optionalInteger(8), let code = row.optionalText(9), let exponent = row.optionalInteger(10) {
            tip = Money(minorUnits: tipUnits, currency: try currencies.currency(code: code, minorUnitExponent: Int(exponent)))
        }
        let request = PaymentRequest(amount: amount, reference: reference ?? row.text(3),
                                     captureMode: try decodeEnum(CaptureMode.self, row.text(11)),
                                     offlinePolicy: try decodeEnum(OfflinePolicy.self, row.text(12)), tip: tip)
        var session = PaymentSession(request: request,
                                     scope: scope ?? LedgerScope(merchantID: row.text(1), locationID: row.text(2)),
                                     processor: row.text(4),
                                     route: try row.optionalText(13).map { try decodeEnum(PaymentRoute.self, $0) },
                                     at: row.date(20))
        session.state = try decodeEnum(PaymentState.self, row.text(14))
        session.processorPaymentID = row.optionalText(15)
        session.localID = row.optionalText(16)
        session.card = try decodeJSON(CardDetails.self, row.optionalText(17))
        session.lastError = try decodeJSON(PaymentError.self, row.optionalText(18))
        session.attempts = Int(row.integer(19))
        session.updatedAt = row.date(21)
        session.storedAt = row.optionalDate(22)
        session.paymentAttempt = Int(row.integer(23))
        session.captureBefore = row.optionalDate(24)
        session.capturedAmount = row.optionalInteger(25).map { Money(minorUnits: $0, currency: currency) }
        session.keyScheme = IdempotencyKeyScheme(rawValue: Int(row.integer(26)))
        session.transitions = []
        return (row.integer(0), session)
    }

    func decodeEnum<T: RawRepresentable>(_ type: T.Type, _ raw: String) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: raw) else {
            throw PaymentError(.ledgerUnavailable, recovery: .fixIntegration, phase: .ledger,
                               message: "The ledger \(url.path) holds an unknown \(T.self) \"\(raw)\".")
        }
        return value
    }

    func decodeJSON<T: Decodable>(_ type: T.Type, _ text: String?) throws -> T? {
        guard let text else { return nil }
        return try decoder.decode(T.self, from: Data(text.utf8))
    }

    func json<T: Encodable>(_ value: T?) throws -> String? {
        guard let value else { return nil }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// The currencies a ledger has decoded, so that reading a thousand rows in one currency validates its code once.
final class CurrencyCache {
    private var known: [Currency] = []

    /// The currency with this code and exponent (validated the first time it is seen).
    func currency(code: String, minorUnitExponent: Int) throws -> Currency {
        for currency in known where currency.minorUnitExponent == minorUnitExponent && currency.code == code {
            return currency
        }
        let currency = try Currency(code: code, minorUnitExponent: minorUnitExponent)
        if known.count < 16, currency.code == code { known.append(currency) }
        return currency
    }
}
