import Foundation

extension PaymentTerminal {
    // MARK: Offline queue

    /// The offline queue as the ledger records it: network status and the stored count, amounts and oldest time,
    /// read from the ledger's aggregates without scanning sessions. See ``vendorQueueStatus()`` for the
    /// processor's own view.
    public func queueStatus() async throws -> OfflineQueueSnapshot {
        let summary = try await ledger.storedSummary(scope: scope)
        return OfflineQueueSnapshot(networkStatus: networkStatus, storedCount: summary.count,
                                    storedAmounts: summary.amounts, oldestStoredAt: summary.oldestStoredAt)
    }

    /// The processor's own view of its offline queue (the vendor's counts, amounts, per-payment statuses and stored
    /// times). Reading it also lets vendors that report results only when read (Square) deliver them.
    public func vendorQueueStatus() async throws -> OfflineQueueSnapshot {
        let snapshot = try await processor.queueSnapshot()
        if snapshot.networkStatus != .unknown { learnNetworkStatus(snapshot.networkStatus) }
        return snapshot
    }

    /// The offline queue with each offline payment's status (scans the offline sessions).
    public func queueStatusWithPayments() async throws -> OfflineQueueSnapshot {
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
    public func applyForwardingResults(_ updates: [ProcessorPaymentUpdate]) async throws -> [PaymentSession] {
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
                                                 transition: IllegalTransition(from: current, to: update.state)))
                }
                continue
            }
            guard update.state != current || Self.brings(update, newsTo: session) else { continue }
            let change = SessionChange(update, expectedState: current, reference: session.reference, at: now)
            try? change.apply(to: &session)
            latest[session.reference] = session
            changes.append(change)
        }
        guard !changes.isEmpty else { return [] }
        let recorded = try await ledger.record(changes, scope: scope)
        sendStateChanges(changes)
        if let snapshot = try? await queueStatus() { hub.send(.queueChanged(snapshot)) }
        return recorded
    }

    // MARK: Guarded destructive actions

    /// Throws unless no stored, unforwarded payments would be lost by `action`, or the caller acknowledged the
    /// loss. Counts the larger of what the ledger records (stored offline, and failed-to-forward payments the
    /// vendor may still hold) and what the processor's own queue holds: the vendor's queue is the truth, and a
    /// payment the SDK stored but Tender never recorded (a crash in between) is at risk too. When the processor's
    /// queue cannot be read, the ledger's count alone decides.
    ///
    /// Used by ``switchScope(to:acknowledgingLossOfStoredPayments:)``, ``signOut(acknowledgingLossOfStoredPayments:)``
    /// and ``checkBeforeUpgrade(acknowledgingLossOfStoredPayments:)``.
    public func checkNoStoredPaymentsAtRisk(action: String, acknowledgingLoss: Bool) async throws {
        guard !acknowledgingLoss else { return }
        let ledgerView = try await queueStatus()
        let failedToForward = try await ledger.sessions(in: [.failedToForward], scope: scope)
        var recorded = ledgerView
        recorded.storedCount += failedToForward.count
        for session in failedToForward {
            recorded.storedAmounts[session.total.currency, default: 0] += session.total.minorUnits
        }
        let vendor = try? await processor.queueSnapshot()
        let vendorHeld = vendor.map(Self.heldByVendor)
        let atRisk = vendorHeld.map { recorded.atRisk(combinedWith: $0) } ?? recorded
        guard atRisk.storedCount > 0 else { return }
        let summary = StoredPaymentSummary(count: atRisk.storedCount, amounts: atRisk.storedAmounts)
        let sources = vendorHeld.map {
            " (Tender's ledger: \(recorded.storedCount); \(processor.name)'s own queue: \($0.storedCount))"
        } ?? " (Tender's ledger; \(processor.name)'s own queue could not be read)"
        throw PaymentError(.unforwardedPaymentsAtRisk, recovery: .goOnline, phase: .forwarding,
                           message: "\(action) would lose \(summary.humanDescription) stored offline and not yet forwarded\(sources). Go online and let them forward first, or acknowledge the loss explicitly.")
    }

    /// The vendor's snapshot counting every payment it still holds on the device (stored, unknown, or failed to
    /// upload but kept): only the vendor's own counts and entries.
    static func heldByVendor(_ snapshot: OfflineQueueSnapshot) -> OfflineQueueSnapshot {
        var held = snapshot
        let kept = snapshot.payments.filter { $0.status == .stored || $0.status == .unknown || $0.status == .failedToForward }
        if kept.count > held.storedCount {
            held.storedCount = kept.count
            var amounts: [Currency: Int64] = [:]
            for payment in kept { amounts[payment.amount.currency, default: 0] += payment.amount.minorUnits }
            for (currency, amount) in amounts { held.storedAmounts[currency] = max(held.storedAmounts[currency] ?? 0, amount) }
        }
        return held
    }

    /// Switches to another merchant or location. Refused while the current scope has stored, unforwarded
    /// payments, unless `acknowledgingLossOfStoredPayments` is true.
    public func switchScope(to newScope: LedgerScope, acknowledgingLossOfStoredPayments: Bool = false) async throws {
        guard newScope != scope else { return }
        try await checkNoStoredPaymentsAtRisk(action: "Switching from \(scope) to \(newScope)",
                                              acknowledgingLoss: acknowledgingLossOfStoredPayments)
        scope = newScope
        lastAuthorizationCheck = [:]
    }

    /// Checks that signing out is safe. Refused while stored payments are unforwarded, unless acknowledged. Call
    /// it before the vendor SDK's sign-out (Square `deauthorize`, Stripe `clearCachedCredentials`).
    public func signOut(acknowledgingLossOfStoredPayments: Bool = false) async throws {
        try await checkNoStoredPaymentsAtRisk(action: "Signing out",
                                              acknowledgingLoss: acknowledgingLossOfStoredPayments)
    }

    /// The pre-upgrade check both vendors ask for: refused while stored payments are unforwarded, unless
    /// acknowledged.
    public func checkBeforeUpgrade(acknowledgingLossOfStoredPayments: Bool = false) async throws {
        try await checkNoStoredPaymentsAtRisk(action: "Upgrading the app or SDK",
                                              acknowledgingLoss: acknowledgingLossOfStoredPayments)
    }
}
