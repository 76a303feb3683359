import Foundation

extension PaymentTerminal {
    // MARK: Offline queue

    /// The offline queue as the ledger records it: network status and the stored count, amounts and oldest time,
    /// read from the ledger's aggregates without scanning sessions; with `includingPayments`, also each offline
    /// payment's status (``OfflineQueueSnapshot/payments``; this scans the offline sessions). See
    /// ``vendorQueueStatus()`` for the processor's own view.
    public func queueStatus(includingPayments: Bool = false) async throws -> OfflineQueueSnapshot {
        guard !includingPayments else { return try await queueStatusWithPayments() }
        let summary = try await ledger.storedSummary(scope: scope)
        return OfflineQueueSnapshot(networkStatus: networkStatus, storedCount: summary.count,
                                    storedAmounts: summary.amounts, oldestStoredAt: summary.oldestStoredAt)
    }

    /// Sends the current queue as ``TenderEvent/queueChanged(_:)``. Reads overlap (the actor is reentrant while the
    /// ledger answers): each read takes a ticket first, and one that finishes after a newer snapshot was sent is
    /// dropped, so the events never show the queue going back in time.
    func publishQueueStatus() async {
        queueSnapshots.issued += 1
        let ticket = queueSnapshots.issued
        guard let snapshot = try? await queueStatus(), ticket > queueSnapshots.sent else { return }
        queueSnapshots.sent = ticket
        hub.send(.queueChanged(snapshot))
    }

    /// The processor's own view of its offline queue (the vendor's counts, amounts, per-payment statuses and stored
    /// times). Reading it also lets vendors that report results only when read (Square) deliver them.
    public func vendorQueueStatus() async throws -> OfflineQueueSnapshot {
        let snapshot = try await processor.queueSnapshot()
        if snapshot.networkStatus != .unknown { learnNetworkStatus(snapshot.networkStatus) }
        return snapshot
    }

    /// The offline queue with each offline payment's status (scans the offline sessions).
    private func queueStatusWithPayments() async throws -> OfflineQueueSnapshot {
        var snapshot = try await queueStatus()
        let offline = try await ledger.allSessions(scope: scope).filter { $0.route == .offline }
        snapshot.payments = offline.compactMap { session in
            let status: OfflinePaymentStatus? = switch session.state {
            case .storedOffline: .stored
            case .forwarded, .succeeded: .forwarded
            case .declinedAfterForwarding: .declinedAfterForwarding
            case .failedToForward: .failedToForward
            case .outcomeUnknown: .unknown
            default: nil
            }
            return status.map {
                QueuedPayment(reference: session.reference, localID: session.localID,
                              processorPaymentID: session.processorPaymentID, amount: session.total,
                              storedAt: session.storedAt ?? session.createdAt, status: $0)
            }
        }
        return snapshot
    }

    /// Records many forwarding results in one ledger commit (all or none), then emits their events. Results naming
    /// no known session, or an illegal transition, are reported as events and skipped; results that bring nothing
    /// new are skipped silently.
    /// - Returns: the sessions changed.
    @discardableResult
    package func applyForwardingResults(_ updates: [ProcessorPaymentUpdate]) async throws -> [PaymentSession] {
        try await applyResults(updates, skippingStale: false)
    }

    /// ``applyForwardingResults(_:)``; with `skippingStale`, a result that cannot apply to the session's current
    /// state (a queue read older than what the ledger already knows) is skipped without an event.
    func applyResults(_ updates: [ProcessorPaymentUpdate], skippingStale: Bool) async throws -> [PaymentSession] {
        guard !updates.isEmpty else { return [] }
        var changes: [SessionChange] = []
        var latest: [String: PaymentSession] = [:]  // each reference's session after the changes planned so far
        let known = try await ledger.sessions(references: updates.map(\.reference), scope: scope)
        let now = clock.now()
        for update in updates {
            var session = latest[update.reference] ?? known[update.reference]
            if session == nil, update.localID != nil || update.processorPaymentID != nil {
                session = try await ledger.session(localID: update.localID, processorPaymentID: update.processorPaymentID,
                                                   scope: scope)
            }
            // Only the session's current vendor payment: never another attempt's, device payment's or total's.
            guard var session, Self.attributionMismatch(update, to: session) == nil else {
                if !skippingStale { hub.send(.unmatchedForwardingResult(update)) }
                continue
            }
            let current = session.state
            guard update.state == current || PaymentStateMachine.canTransition(from: current, to: update.state) else {
                if !skippingStale {
                    hub.send(.transitionRejected(reference: session.reference,
                                                 from: current, to: update.state))
                }
                continue
            }
            guard update.state != current || Self.brings(update, newsTo: session) else { continue }
            let change = SessionChange(update, expectedState: current, reference: session.reference, at: now,
                                       decidedFor: session.generation)
            try? change.apply(to: &session)
            latest[session.reference] = session
            changes.append(change)
        }
        guard !changes.isEmpty else { return [] }
        let recorded = try await ledger.record(changes, scope: scope)
        sendStateChanges(changes)
        await publishQueueStatus()
        return recorded
    }
}
