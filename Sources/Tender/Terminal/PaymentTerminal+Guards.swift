import Foundation

extension PaymentTerminal {
    // MARK: Guarded destructive actions

    /// What leaving the current scope now would leave unfinished: payments and refunds whose call is running,
    /// payments interrupted mid-flight or whose outcome is not known, refunds pending, and stored payments not yet
    /// forwarded — counted by the larger of this scope's ledger and the processor's own queue. Each entry of the
    /// processor's queue is attributed to the scope whose ledger records it (matched by reference, device-local id
    /// or processor id); an entry no scope records, and what the processor counts beyond the entries it lists, count
    /// against the current scope. When the processor's queue cannot be read, the ledger alone decides.
    public func unfinishedWork() async throws -> UnfinishedWork {
        try await unfinishedWork(deviceWide: false)
    }

    /// ``unfinishedWork()``; with `deviceWide`, for an action that wipes the vendor SDK's whole store on the device
    /// (signing out, upgrading): every stored payment counts, whichever scope it belongs to — every entry of the
    /// processor's queue (another scope's named with its scope), or, when the queue cannot be read, every scope's
    /// ledger records of stored payments.
    package func unfinishedWork(deviceWide: Bool) async throws -> UnfinishedWork {
        let leaving = scope
        var work = UnfinishedWork(scope: leaving)
        work.deviceWide = deviceWide
        work.paymentsInFlight = inFlight.sorted()
        work.refundsInFlight = refundsInFlight.sorted()
        let unfinished = try await ledger.sessions(
            in: [.created, .collecting, .processing, .outcomeUnknown, .storedOffline, .failedToForward], scope: leaving)
        var recorded = OfflineQueueSnapshot(networkStatus: networkStatus)
        var stored: [String] = []
        for session in unfinished where !inFlight.contains(session.reference) {
            switch session.state {
            case .outcomeUnknown: work.outcomeUnknown.append(session.reference)
            case .storedOffline, .failedToForward:
                stored.append(session.reference)
                recorded.storedCount += 1
                recorded.storedAmounts[session.total.currency, default: 0] += session.total.minorUnits
            default: work.interrupted.append(session.reference)
            }
        }
        work.pendingRefunds = try await ledger.refunds(in: [.pending], scope: leaving).map(\.id)
        var atRisk = recorded
        if let snapshot = try? await processor.queueSnapshot() {
            let (vendor, references) = try await vendorHeld(against: leaving, in: snapshot, deviceWide: deviceWide)
            work.storedInVendorQueue = vendor.storedCount
            atRisk = recorded.atRisk(combinedWith: vendor)
            stored += references.filter { !stored.contains($0) }
        } else if deviceWide {
            // The queue cannot be read: what every scope's ledger records as stored may still be on the device.
            for other in try await ledger.scopes() where other != leaving {
                for session in try await ledger.sessions(in: [.storedOffline, .failedToForward], scope: other) {
                    stored.append("\(session.reference) (\(other))")
                    recorded.storedCount += 1
                    recorded.storedAmounts[session.total.currency, default: 0] += session.total.minorUnits
                }
            }
            atRisk = recorded
        }
        work.storedInLedger = recorded.storedCount
        work.stored = stored
        work.storedAtRisk = atRisk
        return work
    }

    /// The processor's queue as it counts against `leaving`: the entries it still holds (stored, unknown, or failed
    /// to upload but kept) that `leaving`'s ledger records or that no scope's ledger records, plus what the processor
    /// counts beyond the entries it lists. An entry another scope's ledger records (same reference with no
    /// contradicting id, or the same device-local or processor id) belongs to that scope — except `deviceWide`,
    /// where every entry counts.
    func vendorHeld(against leaving: LedgerScope, in snapshot: OfflineQueueSnapshot, deviceWide: Bool = false)
        async throws -> (OfflineQueueSnapshot, [String]) {
        let kept = snapshot.payments.filter { $0.status == .stored || $0.status == .unknown || $0.status == .failedToForward }
        // What the processor counts beyond the entries it lists (Stripe lists only what this launch saw) cannot be
        // attributed: it counts against the scope being left.
        let listed = snapshot.payments.filter(\.status.countsAsStored)
        var counted = OfflineQueueSnapshot(networkStatus: snapshot.networkStatus,
                                           storedCount: max(0, snapshot.storedCount - listed.count))
        for (currency, amount) in snapshot.storedAmounts {
            let inEntries = listed.filter { $0.amount.currency == currency }.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
            if amount > inEntries { counted.storedAmounts[currency] = amount - inEntries }
        }
        guard !kept.isEmpty else { return (counted, []) }
        let others = try await ledger.scopes().filter { $0 != leaving }
        let references = kept.map(\.reference)
        let here = try await ledger.sessions(references: references, scope: leaving)
        var elsewhere: [[String: PaymentSession]] = []
        for other in others { elsewhere.append(try await ledger.sessions(references: references, scope: other)) }
        var against: [String] = []
        for entry in kept {
            func agrees(_ session: PaymentSession?) -> Bool {
                guard let session else { return false }
                let sameLocal = entry.localID == nil || session.localID == nil || entry.localID == session.localID
                let sameID = entry.processorPaymentID == nil || session.processorPaymentID == nil
                    || entry.processorPaymentID == session.processorPaymentID
                return sameLocal && sameID
            }
            var owner: LedgerScope?
            if !agrees(here[entry.reference]) {
                owner = zip(others, elsewhere).first { agrees($0.1[entry.reference]) }?.0
                if owner == nil, entry.localID != nil || entry.processorPaymentID != nil,
                   try await ledger.session(localID: entry.localID, processorPaymentID: entry.processorPaymentID,
                                            scope: leaving) == nil {
                    for other in others where owner == nil {
                        if try await ledger.session(localID: entry.localID, processorPaymentID: entry.processorPaymentID,
                                                    scope: other) != nil { owner = other }
                    }
                }
            }
            // Another scope's entry: the vendor keeps it across a switch, but not across a sign-out or an upgrade.
            if let owner {
                guard deviceWide else { continue }
                against.append("\(entry.reference) (\(owner))")
            } else {
                against.append(entry.reference)
            }
            counted.storedCount += 1
            counted.storedAmounts[entry.amount.currency, default: 0] += entry.amount.minorUnits
        }
        return (counted, against)
    }

    /// Throws unless leaving the current scope (`action`) leaves nothing unfinished (``unfinishedWork()``), or the
    /// caller acknowledged the loss. No acknowledgment covers a payment or refund whose call is running now: it is
    /// refused until that call ends (cancel it, or let it finish). The error
    /// (``PaymentError/Code/unforwardedPaymentsAtRisk``) lists what blocks the action.
    ///
    /// Used by ``switchScope(to:acknowledgingLossOfStoredPayments:)``, ``signOut(acknowledgingLossOfStoredPayments:)``
    /// and ``checkBeforeUpgrade(acknowledgingLossOfStoredPayments:)``.
    ///
    /// With `deviceWide` (signing out, upgrading: the vendor SDK's whole store on the device is lost), stored payments
    /// of every scope count, not only the current scope's (``unfinishedWork(deviceWide:)``).
    package func checkNoStoredPaymentsAtRisk(action: String, acknowledgingLoss: Bool, deviceWide: Bool = false)
        async throws {
        let work = try await unfinishedWork(deviceWide: deviceWide)
        if work.hasRunningCalls {
            throw PaymentError(.unforwardedPaymentsAtRisk, recovery: .waitAndRetry, phase: .reconciliation,
                               message: "\(action) is refused while calls are running in \(work.scope): \(work). Let them finish or cancel them first; acknowledging a loss cannot cover a call still running.")
        }
        guard !acknowledgingLoss, !work.isEmpty else { return }
        if work.isOnlyStoredPayments {
            throw PaymentError(.unforwardedPaymentsAtRisk, recovery: .goOnline, phase: .forwarding,
                               message: "\(action) would lose \(work). Go online and let them forward first, or acknowledge the loss explicitly.")
        }
        throw PaymentError(.unforwardedPaymentsAtRisk, recovery: .waitAndRetry, phase: .reconciliation,
                           message: "\(action) would leave unfinished in \(work.scope): \(work). Let them finish first (take an unknown or interrupted payment's reference again, or run recover(); go online so that stored payments forward and pending refunds settle), or acknowledge the loss explicitly.")
    }

    /// Switches to another merchant or location. Refused while anything in the current scope is unfinished (a
    /// payment or refund in flight, a payment interrupted or whose outcome is unknown, a refund pending, a stored
    /// payment not yet forwarded; see ``unfinishedWork()``), unless `acknowledgingLossOfStoredPayments` is true —
    /// which never covers a call still running. Stored payments are counted against the scope they belong to: going
    /// back to the scope that owns a stored payment is not refused for it.
    public func switchScope(to newScope: LedgerScope, acknowledgingLossOfStoredPayments: Bool = false) async throws {
        guard newScope != scope else { return }
        let action = "Switching from \(scope) to \(newScope)"
        try await checkNoStoredPaymentsAtRisk(action: action, acknowledgingLoss: acknowledgingLossOfStoredPayments)
        // Checked again with the assignment, no suspension point between: a call that started while the ledger and
        // the processor answered the check above keeps the scope it started in.
        try refuseWhileCallsRun(action)
        scope = newScope
        lastAuthorizationCheck = [:]
    }

    /// Checks that signing out is safe: refused while anything in the current scope is unfinished (as
    /// ``switchScope(to:acknowledgingLossOfStoredPayments:)``), or while stored payments of *any* scope are not yet
    /// forwarded — the vendor SDK's store is the whole device's, so a location switched away from still loses its
    /// stored payments — unless acknowledged. Call it before the vendor SDK's sign-out (Square `deauthorize`, Stripe
    /// `clearCachedCredentials`, which loses the SDK's stored payments).
    public func signOut(acknowledgingLossOfStoredPayments: Bool = false) async throws {
        try await checkNoStoredPaymentsAtRisk(action: "Signing out",
                                              acknowledgingLoss: acknowledgingLossOfStoredPayments, deviceWide: true)
        try refuseWhileCallsRun("Signing out")
    }

    /// Throws when any call runs now (a payment, capture, void, cancellation or refund with its reference claimed;
    /// recovery; a queue poll). Synchronous: the caller acts on the answer before anything else runs on the actor.
    func refuseWhileCallsRun(_ action: String) throws {
        guard !inFlight.isEmpty || !refundsInFlight.isEmpty || runningCalls > 0 else { return }
        let calls = inFlight.sorted() + refundsInFlight.sorted()
        let background = runningCalls > 0 ? "recovery or a queue poll" : nil
        let running = (calls + [background].compactMap { $0 }).joined(separator: ", ")
        throw PaymentError(.unforwardedPaymentsAtRisk, recovery: .waitAndRetry, phase: .reconciliation,
                           message: "\(action) is refused while calls are running in \(scope): \(running). Let them finish or cancel them first; acknowledging a loss cannot cover a call still running.")
    }

    /// The pre-upgrade check both vendors ask for: refused while anything in the current scope is unfinished, or
    /// while stored payments of *any* scope are not yet forwarded (an upgrade risks the SDK's whole store on the
    /// device), unless acknowledged.
    public func checkBeforeUpgrade(acknowledgingLossOfStoredPayments: Bool = false) async throws {
        try await checkNoStoredPaymentsAtRisk(action: "Upgrading the app or SDK",
                                              acknowledgingLoss: acknowledgingLossOfStoredPayments, deviceWide: true)
    }
}
