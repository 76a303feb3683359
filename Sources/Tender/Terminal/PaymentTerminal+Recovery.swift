import Foundation

extension PaymentTerminal {
    /// Reconciles every session the processor may still act on — created, collecting, processing, outcome unknown,
    /// stored offline, failed to forward, and authorizations awaiting capture (which can expire) — with what the
    /// processor holds, settles refunds a crash left pending, and looks up once more every succeeded refund the
    /// processor may still fail (``ProcessorCapabilities/refundChangeWindow``). Call it after every launch, before
    /// taking payments. Sessions whose outcome cannot be established stay ``PaymentState/outcomeUnknown``; stored payments
    /// the processor still holds stay ``PaymentState/storedOffline``.
    ///
    /// Each session is recovered on its own: the processor is asked about the sessions in turn and what it says is
    /// committed in batches (500 sessions, or what was learned within 5 seconds), so recovering a thousand sessions
    /// costs a few commits. A session that a concurrent
    /// call (a retry, a capture, the queue poller) moved after recovery read it fails only its own compare-and-set:
    /// that batch is committed session by session, the moved session is left as that call recorded it
    /// (``RecoveryReport/skipped``), and everything else is recorded. The report says exactly what was resolved,
    /// skipped, not recorded, and is still unknown. If the ledger itself fails, recovery stops and reports the
    /// sessions it could not record.
    public func recover() async -> RecoveryReport {
        runningCalls += 1
        defer { runningCalls -= 1 }
        var report = RecoveryReport()
        await refreshNetworkStatus()
        do {
            let pending = try await ledger.sessions(in: PaymentTerminal.awaitingVendor, scope: scope)
                .filter { !($0.state == .forwarded && $0.captureMode == .automatic) }
            report.examined = pending.count
            var batch = RecoveryBatch()
            for (index, session) in pending.enumerated() {
                guard !inFlight.contains(session.reference) else {
                    report.skipped.append(session.reference)  // its own call records its outcome
                    continue
                }
                let planned = plan(session, await lookUp(session))
                if planned.isEmpty {
                    if session.state == .outcomeUnknown { report.unresolved.append(session.reference) }
                    continue
                }
                batch.add(session, planned, at: clock.now())
                if batch.isFull(now: clock.now()), !(await commitRecovered(&batch, into: &report)) {
                    // The ledger failed: what is left is not recorded now (the poller and the next launch retry).
                    report.notRecorded += pending[(index + 1)...].map(\.reference)
                    break
                }
            }
            _ = await commitRecovered(&batch, into: &report)
            report.stillStored = try await ledger.storedSummary(scope: scope).count
        } catch {
            hub.send(.processor(.forwardingError((error as? PaymentError) ?? PaymentError(
                .ledgerUnavailable, recovery: .fixIntegration, phase: .reconciliation, message: "\(error)"))))
        }
        _ = await followRefunds(all: true)
        hub.send(.recoveryFinished(report))
        return report
    }

    /// The processor's answer for a session; a lookup that throws is ``ProcessorLookup/unknown``, never "absent".
    ///
    /// A lookup that cannot see where the payment may be is no proof: ``ProcessorLookup/notFound`` for an unfinished
    /// session that may have been stored offline is read as ``ProcessorLookup/unknown`` while the processor's own
    /// queue cannot be read, names the reference, or holds stored payments it does not name with room for the
    /// session's total in its currency (``vendorStoreDoubt(_:)``): a power loss can take the ledger's record of a
    /// payment the vendor's SDK stored durably, and a server search cannot see the SDK's store until it forwards.
    func lookUp(_ session: PaymentSession) async -> ProcessorLookup {
        let answer: ProcessorLookup
        do {
            answer = try await processor.lookUpPayment(PaymentLookupQuery(session))
        } catch {
            return .unknown
        }
        guard answer == .notFound, Self.unfinishedStates.contains(session.state) else { return answer }
        return await vendorStoreDoubt(session) == nil ? .notFound : .unknown
    }

    /// Brings one session in line with the processor, in one commit. With `yieldingToCalls` (the queue poller), a
    /// session whose reference went in flight while the processor was asked is left to that call: nothing decided
    /// before it started is recorded (and the ledger refuses a change decided for an earlier attempt anyway).
    func reconcile(_ session: PaymentSession, yieldingToCalls: Bool = false) async throws -> PaymentSession {
        let changes = plan(session, await lookUp(session))
        guard !changes.isEmpty else { return session }
        if yieldingToCalls, inFlight.contains(session.reference) { return session }
        let recorded = try await ledger.record(changes, scope: scope)
        sendStateChanges(changes)
        return recorded.last ?? session
    }

    func sendStateChanges(_ changes: [SessionChange]) {
        for change in changes where change.newState != change.expectedState {
            hub.send(.paymentStateChanged(PaymentStateChange(reference: change.reference, from: change.expectedState,
                                                             to: change.newState, at: change.at, error: change.error)))
        }
    }

    /// The changes that bring `session` in line with what the processor said. Pure: no I/O.
    ///
    /// - A found outcome is recorded (through ``PaymentState/outcomeUnknown`` when the session was interrupted
    ///   mid-flight and cannot move there directly).
    /// - A found payment that is not finished (collecting, processing) leaves the session to be continued: an
    ///   interrupted session becomes ``PaymentState/outcomeUnknown`` with the vendor's ids recorded.
    /// - ``ProcessorLookup/notFound`` is the processor's proof that it never received the payment: nothing was or
    ///   can be charged, so an unfinished session ends ``PaymentState/failed`` (a retry starts a new vendor payment).
    /// - ``ProcessorLookup/unknown`` changes nothing but marks an interrupted session
    ///   ``PaymentState/outcomeUnknown``.
    /// - A found payment that is not the session's (``attributionMismatch(_:to:)``: another total under the same
    ///   reference, another attempt, another device payment) is never recorded on it: it counts as
    ///   ``ProcessorLookup/unknown``, and another total is recorded as ``PaymentError/Code/duplicateReference``.
    func plan(_ session: PaymentSession, _ lookup: ProcessorLookup) -> [SessionChange] {
        if case .found(let update) = lookup, let mismatch = Self.attributionMismatch(update, to: session) {
            return planMismatch(session, mismatch)
        }
        let now = clock.now()
        let inFlightStates: Set<PaymentState> = [.created, .collecting, .processing]
        var changes: [SessionChange] = []
        var current = session.state
        func move(_ to: PaymentState, _ update: ProcessorPaymentUpdate? = nil, error: PaymentError? = nil) {
            if let update {
                changes.append(SessionChange(update, expectedState: current, reference: session.reference, at: now,
                                             error: error, decidedFor: session.generation).with(newState: to))
            } else {
                changes.append(SessionChange(reference: session.reference, expectedState: current, newState: to,
                                             at: now, error: error, decidedFor: session.generation))
            }
            current = to
        }
        switch lookup {
        case .found(let update) where Self.unfinishedStates.contains(update.state):
            if inFlightStates.contains(current) {
                move(.outcomeUnknown, update, error: interrupted)
            } else if Self.brings(update, newsTo: session) {
                move(current, update)
            }
        case .found(let update):
            if update.state == current {
                if Self.brings(update, newsTo: session) { move(current, update) }
            } else {
                if inFlightStates.contains(current), !PaymentStateMachine.canTransition(from: current, to: update.state) {
                    move(.outcomeUnknown, error: interrupted)
                }
                if PaymentStateMachine.canTransition(from: current, to: update.state) {
                    move(update.state, update)
                } else {
                    hub.send(.transitionRejected(reference: session.reference,
                                                 from: current, to: update.state))
                }
            }
        case .notFound:
            switch current {
            case .created, .collecting, .processing, .outcomeUnknown:
                if current != .created && current != .outcomeUnknown { move(.outcomeUnknown, error: interrupted) }
                move(.failed, error: PaymentError(.canceled, recovery: .none, phase: .reconciliation,
                                                  message: "The processor never received payment \(session.reference); nothing was charged. Taking the same reference again starts a new payment."))
            case .storedOffline:
                move(.failedToForward, error: PaymentError(.forwardingFailed, recovery: .fixIntegration, phase: .reconciliation,
                                                           message: "Stored payment \(session.reference) is no longer held by the processor."))
            default:
                break
            }
        case .unknown:
            if inFlightStates.contains(current) { move(.outcomeUnknown, error: interrupted) }
        }
        return changes
    }

    /// The changes for a found payment that is not the session's: an interrupted session becomes
    /// ``PaymentState/outcomeUnknown``, and a duplicate reference is recorded as its error (once).
    private func planMismatch(_ session: PaymentSession, _ mismatch: PaymentError) -> [SessionChange] {
        let inFlightStates: Set<PaymentState> = [.created, .collecting, .processing]
        let error = mismatch.code == .duplicateReference ? mismatch : interrupted
        if inFlightStates.contains(session.state) {
            return [SessionChange(reference: session.reference, expectedState: session.state,
                                  newState: .outcomeUnknown, at: clock.now(), error: error,
                                  decidedFor: session.generation)]
        }
        if session.state == .outcomeUnknown, mismatch.code == .duplicateReference, session.lastError != mismatch {
            return [SessionChange(reference: session.reference, expectedState: .outcomeUnknown,
                                  newState: .outcomeUnknown, at: clock.now(), error: mismatch,
                                  decidedFor: session.generation)]
        }
        return []
    }

    private var interrupted: PaymentError {
        PaymentError(.outcomeUnknown, recovery: .retrySamePayment, phase: .reconciliation,
                     message: "The payment was interrupted before its outcome was known; retrying the same reference continues the same payment.")
    }

    /// Cancels at the vendor what an ended vendor payment left behind, and records what was canceled in the
    /// session's history. Best effort: when the vendor cannot be reached the session keeps its state and the
    /// failure is reported as an event.
    func abandon(_ session: PaymentSession) async {
        do {
            guard let note = try await processor.abandonPayment(PaymentLookupQuery(session)) else { return }
            let change = SessionChange(reference: session.reference, expectedState: session.state,
                                       newState: session.state, at: clock.now(), note: note,
                                       decidedFor: session.generation)
            live[session.reference] = try await ledger.record(change, scope: scope)
        } catch {
            hub.send(.processor(.forwardingError((error as? PaymentError) ?? PaymentError(
                .unexpected, recovery: .waitAndRetry, phase: .reconciliation,
                message: "Could not cancel what payment \(session.reference) left at \(processor.name): \(error)"))))
        }
    }

    /// Cancels what the reference's last vendor payment left behind before a new one starts, and refuses to start
    /// one when that fails: an adapter throws from ``PaymentProcessor/abandonPayment(_:)`` when its vendor cannot be
    /// asked, still holds the payment on the device, or charged it after all (its error said otherwise), and a second
    /// vendor payment then could charge the card twice.
    /// - Throws: ``PaymentError`` with the adapter's code and advice; nothing new is recorded.
    func abandonBeforeNewAttempt(_ session: PaymentSession) async throws {
        let note: String?
        do {
            note = try await processor.abandonPayment(PaymentLookupQuery(session))
        } catch {
            let cause = error as? PaymentError
            throw PaymentError(
                cause?.code ?? .networkUnavailable, recovery: cause?.recovery ?? .waitAndRetry, phase: .reconciliation,
                message: "No new payment was started for \(session.reference): \(processor.name) could not close its earlier attempt (\(cause?.message ?? "\(error)")). Starting another now could charge the card twice.")
        }
        guard let note else { return }
        let change = SessionChange(reference: session.reference, expectedState: session.state,
                                   newState: session.state, at: clock.now(), note: note,
                                   decidedFor: session.generation)
        live[session.reference] = try await ledger.record(change, scope: scope)
    }

    /// Records one forwarding result reported as an event.
    func reconcileForwarded(_ update: ProcessorPaymentUpdate) async {
        // The payment's own flow records the outcome of a payment in progress; the queue poller picks up anything
        // else once it ends.
        guard !inFlight.contains(update.reference) else { return }
        do {
            var session = try await ledger.session(reference: update.reference, scope: scope, includingHistory: false)
            if session == nil, update.localID != nil || update.processorPaymentID != nil {
                session = try await ledger.session(localID: update.localID,
                                                   processorPaymentID: update.processorPaymentID, scope: scope)
            }
            guard let session, Self.attributionMismatch(update, to: session) == nil else {
                // No session, or not its current vendor payment (another attempt, device payment or total).
                hub.send(.unmatchedForwardingResult(update))
                return
            }
            // The reference may have gone in flight while the ledger answered: its own call records the outcome.
            guard !inFlight.contains(update.reference) else { return }
            do {
                try await apply(update, to: session)
            } catch let error as PaymentError where error.code == .invalidState {
                // Another path (the queue poller reading the vendor's queue) recorded this payment since it was read:
                // merge into what it recorded — the same final state gains the reason this result carries (the
                // error, the issuer's decline code) — instead of dropping it.
                guard !inFlight.contains(update.reference),
                      let fresh = try await ledger.session(reference: session.reference, scope: scope,
                                                           includingHistory: false),
                      Self.attributionMismatch(update, to: fresh) == nil else { return }
                try await apply(update, to: fresh)
            }
            await publishQueueStatus()
        } catch let error as PaymentError {
            hub.send(.processor(.forwardingError(error)))
        } catch {
            hub.send(.processor(.forwardingError(PaymentError(
                .unexpected, recovery: .retrySamePayment, phase: .forwarding, message: "\(error)"))))
        }
    }
}

extension SessionChange {
    /// A copy moving to another state.
    func with(newState: PaymentState) -> SessionChange {
        var copy = self
        copy.newState = newState
        return copy
    }
}
