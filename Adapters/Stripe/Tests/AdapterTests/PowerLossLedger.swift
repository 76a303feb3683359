import Foundation
import Tender

/// A ledger that loses power. It forwards every call to an in-memory ledger and logs each write with whether Tender
/// asked for it to be synced to disk (a new session always; a change when ``SessionChange/requiresDurableSync``).
/// When `cutsPower` matches a change, that write never completes (the call throws, as a process that lost power
/// never returns) and every later write fails. ``afterPowerLoss()`` is the ledger the next launch opens: the writes
/// up to the last synced one, since a synced write syncs every write before it (SQLite's WAL, synchronous commits).
///
/// A stand-in for the power-loss VFS: it models what Tender's durability contract promises, not SQLite's files.
/// Refund writes are passed through and not replayed (the tests using it take no refunds).
final class PowerLossLedger: PaymentLedger, @unchecked Sendable {
    private enum Write {
        case insert(PaymentSession)
        case record([SessionChange], LedgerScope)
    }

    private struct Log {
        var writes: [Write] = []
        var synced = 0
        var powerLost = false
    }

    private let inner = InMemoryPaymentLedger()
    private let log = Locked(Log())
    private let cutsPower: @Sendable (SessionChange) -> Bool

    /// A ledger whose power fails on the first change `cutsPower` matches.
    init(cutsPower: @escaping @Sendable (SessionChange) -> Bool) { self.cutsPower = cutsPower }

    /// Whether the power failed.
    var powerLost: Bool { log.current.powerLost }

    /// The ledger as the next launch finds it: only what was synced before the power failed.
    func afterPowerLoss() throws -> InMemoryPaymentLedger {
        let survived = log.withLock { Array($0.writes.prefix($0.synced)) }
        let ledger = InMemoryPaymentLedger()
        for write in survived {
            switch write {
            case .insert(let session): try ledger.insert(session)
            case .record(let changes, let scope): _ = try ledger.record(changes, scope: scope)
            }
        }
        return ledger
    }

    private func write<T>(_ entry: Write, durable: Bool, cuts: Bool, _ body: () throws -> T) throws -> T {
        let dead = log.withLock { log -> Bool in
            if cuts { log.powerLost = true }
            return log.powerLost
        }
        if dead {
            throw PaymentError(.ledgerUnavailable, recovery: .fixIntegration, phase: .ledger,
                               message: "The power failed during this write.")
        }
        let result = try body()
        log.withLock { log in
            log.writes.append(entry)
            if durable { log.synced = log.writes.count }
        }
        return result
    }

    func insert(_ session: PaymentSession) throws {
        try write(.insert(session), durable: true, cuts: false) { try inner.insert(session) }
    }

    func record(_ change: SessionChange, scope: LedgerScope) throws -> PaymentSession {
        try write(.record([change], scope), durable: change.requiresDurableSync, cuts: cutsPower(change)) {
            try inner.record(change, scope: scope)
        }
    }

    func record(_ changes: [SessionChange], scope: LedgerScope) throws -> [PaymentSession] {
        try write(.record(changes, scope), durable: changes.contains(where: \.requiresDurableSync),
                  cuts: changes.contains(where: cutsPower)) {
            try inner.record(changes, scope: scope)
        }
    }

    func session(reference: String, scope: LedgerScope, includingHistory: Bool) -> PaymentSession? {
        inner.session(reference: reference, scope: scope, includingHistory: includingHistory)
    }

    func session(localID: String?, processorPaymentID: String?, scope: LedgerScope) -> PaymentSession? {
        inner.session(localID: localID, processorPaymentID: processorPaymentID, scope: scope)
    }

    func sessions(references: [String], scope: LedgerScope) -> [String: PaymentSession] {
        inner.sessions(references: references, scope: scope)
    }

    func sessions(in states: Set<PaymentState>, scope: LedgerScope) -> [PaymentSession] {
        inner.sessions(in: states, scope: scope)
    }

    func allSessions(scope: LedgerScope) -> [PaymentSession] { inner.allSessions(scope: scope) }

    func storedSummary(scope: LedgerScope) -> StoredPaymentSummary { inner.storedSummary(scope: scope) }

    func scopes() -> [LedgerScope] { inner.scopes() }

    func insertRefund(reference: String, scope: LedgerScope,
                      make: @Sendable (PaymentSession) throws -> RefundRecord) throws -> RefundRecord {
        try inner.insertRefund(reference: reference, scope: scope, make: make)
    }

    func recordRefund(_ change: RefundChange, scope: LedgerScope) throws -> RefundRecord {
        try inner.recordRefund(change, scope: scope)
    }

    func refunds(reference: String, scope: LedgerScope) -> [RefundRecord] { inner.refunds(reference: reference, scope: scope) }

    func refunds(in statuses: Set<RefundStatus>, scope: LedgerScope) -> [RefundRecord] {
        inner.refunds(in: statuses, scope: scope)
    }
}
