import Foundation

/// Records one payment's updates as its adapter reports them, in order, without a hop to the facade's actor for
/// each: the adapter awaits every update, so they never overlap.
///
/// What recovery does not need is not written on its own: a change the ledger would commit without syncing it
/// (``SessionChange/requiresDurableSync`` false: the intermediate ``PaymentState/collecting`` and
/// ``PaymentState/processing``) is applied to the session in memory and announced as an event at once, and reaches
/// the ledger in the same commit as the next durable change — the outcome — with a history row for every state.
/// The exception is a change that brings an id the vendor issued (a Stripe PaymentIntent's id as collection starts):
/// it is committed at once, unsynced, with the changes kept before it, so that a process killed before the outcome
/// leaves the id for recovery to look the payment up by (a power cut may still take it, as before: recovery then
/// works from the write-ahead record and the reference). A payment is thus two commits, both synced (the write-ahead
/// record and the outcome), and one more, unsynced, when the vendor issues its id before the outcome. A process
/// killed before the outcome leaves the last committed state — ``PaymentState/created`` or the state that brought
/// the id — and an unfinished session is reconciled with the processor before anything else (recovery, a retry of
/// the reference, a cancellation).
final class PaymentRecorder: Sendable {
    private let scope: LedgerScope
    private let ledger: any PaymentLedger
    private let clock: any TenderClock
    private let hub: EventHub
    /// The session as the payment last left it (in memory ahead of the ledger by `pending`), and the changes not
    /// yet written, in order.
    private let state: Locked<(session: PaymentSession, pending: [SessionChange])>

    init(session: PaymentSession, scope: LedgerScope, ledger: any PaymentLedger, clock: any TenderClock, hub: EventHub) {
        self.scope = scope
        self.ledger = ledger
        self.clock = clock
        self.hub = hub
        state = Locked((session, []))
    }

    /// The session as last recorded (after ``finish(_:)``; before, with the changes kept in memory applied).
    var session: PaymentSession { state.current.session }

    /// Records an intermediate update of this payment (an update naming another reference is reported, never
    /// applied): in memory until the next durable change, which writes them all in one commit.
    func record(_ update: ProcessorPaymentUpdate) async throws {
        try await record(update, final: false)
    }

    /// Records the payment's outcome together with every change kept in memory, in one commit.
    func finish(_ outcome: ProcessorPaymentUpdate) async throws {
        try await record(outcome, final: true)
    }

    private func record(_ update: ProcessorPaymentUpdate, final: Bool) async throws {
        let (session, pending) = state.current
        guard update.reference == session.reference else {
            hub.send(.unmatchedForwardingResult(update))
            if final, !pending.isEmpty { try await write(pending, expected: session) }
            return
        }
        let change = PaymentTerminal.change(recording: update, on: session, clock: clock, hub: hub)
        if !final, let change, !change.requiresDurableSync, !Self.bringsVendorID(change, to: session) {
            var updated = session
            try change.apply(to: &updated)
            state.withLock { $0 = (updated, pending + [change]) }
            PaymentTerminal.announce(change, of: session, hub: hub)
            return
        }
        guard let change else {
            if final, !pending.isEmpty { try await write(pending, expected: session) }
            return
        }
        var expected = session
        try change.apply(to: &expected)
        try await write(pending + [change], expected: expected)
        PaymentTerminal.announce(change, of: session, hub: hub)
    }

    /// Whether `change` records an id the vendor issued that the session does not have yet: it is committed at
    /// once (unsynced, like every intermediate change before), so that a process killed before the outcome leaves
    /// recovery the id to look the payment up by, not only the reference.
    static func bringsVendorID(_ change: SessionChange, to session: PaymentSession) -> Bool {
        (change.processorPaymentID != nil && change.processorPaymentID != session.processorPaymentID)
            || (change.localID != nil && change.localID != session.localID)
    }

    /// Writes `changes` in one commit; `expected` is the session in memory with all of them applied.
    private func write(_ changes: [SessionChange], expected: PaymentSession) async throws {
        let updated: PaymentSession
        if changes.count == 1 {
            updated = try await ledger.record(changes[0], scope: scope)
        } else {
            // A batch comes back without history: the history is the session's in memory (it started from the
            // ledger's full history, and every change since was applied to it by the rules the ledger applies).
            var last = try await ledger.record(changes, scope: scope).last ?? expected
            last.transitions = expected.transitions
            updated = last
        }
        state.withLock { $0 = (updated, []) }
    }
}
