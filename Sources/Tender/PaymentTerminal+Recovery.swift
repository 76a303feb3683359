import Foundation

extension PaymentTerminal {
    /// Reconciles every session the processor may still act on — created, collecting, processing, outcome unknown,
    /// stored offline, failed to forward, and authorizations awaiting capture (which can expire) — with what the
    /// processor holds, settles refunds a crash left pending, and looks up once more every succeeded refund the
    /// processor may still fail (``ProcessorCapabilities/refundChangeWindow``). Call it after every launch, before
    /// taking payments. Sessions whose outcome cannot be established stay ``PaymentState/outcomeUnknown``; stored payments
    /// the processor still holds stay ``PaymentState/storedOffline``.
    ///
    /// The processor is asked about every session first; the changes are then committed to the ledger in one
    /// batch, so recovering a thousand sessions costs one commit.
    public func recover() async -> RecoveryReport {
        var report = RecoveryReport()
        await refreshNetworkStatus()
        do {
            let pending = try await ledger.sessions(in: PaymentTerminal.awaitingVendor, scope: scope)
                .filter { !($0.state == .forwarded && $0.captureMode == .automatic) }
            report.examined = pending.count
            var changes: [SessionChange] = []
            var finalStates: [String: (from: PaymentState, to: PaymentState)] = [:]
            for session in pending where !inFlight.contains(session.reference) {
                let planned = plan(session, await lookUp(session))
                changes += planned
                let to = planned.last?.newState ?? session.state
                finalStates[session.reference] = (session.state, to)
            }
            _ = try await ledger.record(changes, scope: scope)
            sendStateChanges(changes)
            for session in pending {
                guard let (from, to) = finalStates[session.reference] else { continue }
                if to != from {
                    report.resolved.append(PaymentStateChange(reference: session.reference, from: from, to: to,
                                                              at: clock.now()))
                }
                if to == .outcomeUnknown { report.unresolved.append(session.reference) }
            }
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
    func lookUp(_ session: PaymentSession) async -> ProcessorLookup {
        do {
            return try await processor.lookUpPayment(PaymentLookupQuery(session))
        } catch {
            return .unknown
        }
    }

    /// Brings one session in line with the processor, in one commit.
    func reconcile(_ session: PaymentSession) async throws -> PaymentSession {
        let changes = plan(session, await lookUp(session))
        guard !changes.isEmpty else { return session }
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
    func plan(_ session: PaymentSession, _ lookup: ProcessorLookup) -> [SessionChange] {
        let now = clock.now()
        let inFlightStates: Set<PaymentState> = [.created, .collecting, .processing]
        var changes: [SessionChange] = []
        var current = session.state
        func move(_ to: PaymentState, _ update: ProcessorPaymentUpdate? = nil, error: PaymentError? = nil) {
            if let update {
                changes.append(SessionChange(update, expectedState: current, reference: session.reference, at: now,
                                             error: error).with(newState: to))
            } else {
                changes.append(SessionChange(reference: session.reference, expectedState: current, newState: to,
                                             at: now, error: error))
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
                                                 transition: IllegalTransition(from: current, to: update.state)))
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
                                       newState: session.state, at: clock.now(), note: note)
            live[session.reference] = try await ledger.record(change, scope: scope)
        } catch {
            hub.send(.processor(.forwardingError((error as? PaymentError) ?? PaymentError(
                .unexpected, recovery: .waitAndRetry, phase: .reconciliation,
                message: "Could not cancel what payment \(session.reference) left at \(processor.name): \(error)"))))
        }
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
            guard let session else {
                hub.send(.unmatchedForwardingResult(update))
                return
            }
            try await apply(update, to: session)
            if let snapshot = try? await queueStatus() { hub.send(.queueChanged(snapshot)) }
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
