import Foundation

/// What ``PaymentTerminal/recover()`` learned and has not committed yet: each session with the changes planned
/// for it, in order.
struct RecoveryBatch {
    private(set) var entries: [(session: PaymentSession, changes: [SessionChange])] = []
    private var startedAt: Date?

    /// Adds one session's planned changes.
    mutating func add(_ session: PaymentSession, _ changes: [SessionChange], at now: Date) {
        if entries.isEmpty { startedAt = now }
        entries.append((session, changes))
    }

    /// Whether it is time to commit: ``PaymentTerminal/recoveryBatchSize`` sessions, or the oldest answer is
    /// ``PaymentTerminal/recoveryBatchSeconds`` old (a slow processor's answers are not held back long, and a crash
    /// during recovery keeps what was already committed).
    func isFull(now: Date) -> Bool {
        guard let startedAt else { return false }
        return entries.count >= PaymentTerminal.recoveryBatchSize
            || now.timeIntervalSince(startedAt) >= PaymentTerminal.recoveryBatchSeconds
    }

    var isEmpty: Bool { entries.isEmpty }

    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        startedAt = nil
    }
}

extension PaymentTerminal {
    /// How many sessions ``recover()`` commits at once.
    static let recoveryBatchSize = 500
    /// How long ``recover()`` holds answers before committing them, in seconds.
    static let recoveryBatchSeconds: Double = 5

    /// Commits a recovery batch in one ledger commit; if any of its compare-and-sets fails (a concurrent call moved a
    /// session after recovery read it) or the commit fails, commits it session by session instead, so that only the
    /// sessions that cannot be recorded are left out. Adds each outcome to `report` and empties the batch.
    /// - Returns: `false` when the ledger itself failed (``PaymentError/Code/ledgerUnavailable``): the sessions not
    ///   yet recorded are in ``RecoveryReport/notRecorded`` and recovery should stop.
    func commitRecovered(_ batch: inout RecoveryBatch, into report: inout RecoveryReport) async -> Bool {
        guard !batch.isEmpty else { return true }
        defer { batch.removeAll() }
        // Re-checked at commit, not only at read: a session whose reference went in flight since recovery read it
        // (a retry, a capture, a cancellation) is that call's to record. A change decided before then that reaches
        // the ledger anyway is refused there when the call started a new attempt or continued this one.
        let entries = batch.entries.filter { !inFlight.contains($0.session.reference) }
        report.skipped += batch.entries.filter { inFlight.contains($0.session.reference) }.map(\.session.reference)
        guard !entries.isEmpty else { return true }
        let changes = entries.flatMap(\.changes)
        if (try? await ledger.record(changes, scope: scope)) != nil {
            sendStateChanges(changes)
            for entry in entries { note(entry.session, entry.changes, in: &report) }
            return true
        }
        for (index, entry) in entries.enumerated() {
            do {
                _ = try await ledger.record(entry.changes, scope: scope)
                sendStateChanges(entry.changes)
                note(entry.session, entry.changes, in: &report)
            } catch let error as PaymentError where error.code == .invalidState {
                // Moved by a concurrent call since recovery read it: that call's record is the current one.
                report.skipped.append(entry.session.reference)
            } catch {
                let paymentError = (error as? PaymentError) ?? PaymentError(
                    .ledgerUnavailable, recovery: .fixIntegration, phase: .reconciliation, message: "\(error)")
                hub.send(.processor(.forwardingError(PaymentError(
                    paymentError.code, recovery: paymentError.recovery, phase: .reconciliation,
                    message: "Recovery could not record what \(processor.name) said of \(entry.session.reference): \(paymentError.message)"))))
                guard paymentError.code == .ledgerUnavailable else {
                    report.notRecorded.append(entry.session.reference)
                    continue
                }
                report.notRecorded += entries[index...].map(\.session.reference)
                return false
            }
        }
        return true
    }

    /// Adds a recorded session's outcome to the report.
    private func note(_ session: PaymentSession, _ changes: [SessionChange], in report: inout RecoveryReport) {
        let to = changes.last?.newState ?? session.state
        // Resolved means settled from what the processor holds: a payment recovery could only mark unknown is
        // unresolved, and only that.
        if to != session.state, to != .outcomeUnknown {
            report.resolved.append(PaymentStateChange(reference: session.reference, from: session.state, to: to,
                                                      at: changes.last?.at ?? clock.now()))
        }
        if to == .outcomeUnknown { report.unresolved.append(session.reference) }
    }
}
