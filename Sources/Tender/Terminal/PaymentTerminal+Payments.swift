import Foundation

extension PaymentTerminal {
    /// The routing decision this request would get now, without taking it.
    public func route(for request: PaymentRequest) async throws -> RoutingDecision {
        try request.validate()
        let capabilities = await processor.capabilities()
        try check(request, against: capabilities)
        await refreshNetworkStatus()
        return try await route(request, capabilities: capabilities)
    }

    /// Routes under the merged limits. For a policy that may go offline, the stored queue is the larger of the
    /// ledger's and the vendor's own (a payment the SDK holds counts even if Tender has not recorded it).
    func route(_ request: PaymentRequest, capabilities: ProcessorCapabilities) async throws -> RoutingDecision {
        let stored = try await ledger.storedSummary(scope: scope)
        let inputs = await routingInputs(request, capabilities: capabilities)
        return Self.decide(request, inputs: inputs, stored: stored, now: clock.now())
    }

    /// Takes a payment: validates, routes, records the intent, calls the processor, records each answer.
    ///
    /// With a reference already in the ledger: a payment whose outcome is not definite is reconciled with the
    /// processor and, if still unfinished, continued (the same vendor payment) — unless it left no vendor id and the
    /// processor holds stored payments Tender cannot attribute (or its queue cannot be read), when the retry is
    /// refused with ``PaymentError/Recovery/waitAndRetry`` ("a stored payment for this order may still be
    /// forwarded") rather than risk a second charge; a definite decline, failure or
    /// cancellation starts a new vendor payment for the same order (the old one is canceled at the vendor if it
    /// left anything behind); an approved, stored or forwarded payment is returned as it is. Never charges twice.
    ///
    /// Cancelling the calling task cancels through the processor: the session ends ``PaymentState/canceled`` only
    /// when the vendor confirms, otherwise with the vendor's real outcome or ``PaymentState/outcomeUnknown``
    /// (reconciled later).
    /// - Returns: the session as recorded, in the state the processor reported.
    /// - Throws: ``PaymentError`` when refused before the processor was called, or when the ledger fails. A ledger
    ///   that fails after the processor was asked (the card may have been charged) throws
    ///   ``PaymentError/Code/outcomeUnknown`` with ``PaymentError/Recovery/retrySamePayment``: take the same
    ///   reference again, never a new one.
    public func takePayment(_ request: PaymentRequest) async throws -> PaymentSession {
        do {
            return try await takePaymentChecked(request)
        } catch let error as PaymentError where error.phase == .validation || error.phase == .routing {
            hub.send(.paymentRefused(reference: request.reference, error: error))
            throw error
        }
    }

    private func takePaymentChecked(_ request: PaymentRequest) async throws -> PaymentSession {
        try request.validate()
        let capabilities = await processor.capabilities()
        try check(request, against: capabilities)
        guard !inFlight.contains(request.reference) else {
            throw PaymentError(.paymentInProgress, recovery: .waitAndRetry, phase: .validation,
                               message: "Payment \(request.reference) is already in progress.")
        }
        inFlight.insert(request.reference)
        defer {
            inFlight.remove(request.reference)
            live[request.reference] = nil
        }
        // The payment's scope, fixed now: every record and vendor id below uses it (a scope switch is refused while
        // the reference is in flight, so the helpers' reads of `self.scope` agree with it).
        let scope = self.scope

        // What to do with the reference: a first payment (routed and recorded write-ahead by the same ledger call
        // that looks the reference up), a continuation, or a new vendor payment.
        var plan = AttemptPlan.first
        var opened: (session: PaymentSession, decision: RoutingDecision)?
        switch try await open(request, capabilities: capabilities) {
        case .created(let session, let decision): opened = (session, decision)
        case .existing(nil): break
        case .existing(let existing?):
            guard existing.matches(request) else {
                throw PaymentError(.duplicateReference, recovery: .fixRequest, phase: .validation,
                                   message: "Reference \(request.reference) was already used for \(existing.total); this request is for \(try request.total()).")
            }
            var current = existing
            if Self.unfinishedStates.contains(current.state) {
                // An earlier call did not finish: ask the processor first, continue only what has no outcome yet.
                current = try await reconcile(current)
            }
            if Self.unfinishedStates.contains(current.state) {
                // Nothing to continue, and the vendor may hold it stored where no lookup sees it: wait for it.
                if let wait = await storedPaymentWait(current) { throw wait }
                plan = .continuation(current)
            } else if PaymentStateMachine.newAttemptStates.contains(current.state) {
                plan = .newVendorPayment(current)
            } else {
                return try await ledger.session(reference: request.reference, scope: scope) ?? current
            }
        }

        let decision: RoutingDecision
        if let opened {
            decision = opened.decision
        } else {
            try await checkReader(for: request)
            await refreshNetworkStatus()
            decision = try await route(request, capabilities: capabilities)
            if case .refused(let error) = decision { throw error }
        }

        // Write-ahead: the intent to charge is durable before the processor hears of it.
        let attempt: PaymentAttempt
        switch plan {
        case .first:
            let session: PaymentSession
            if let opened {
                session = opened.session
            } else {
                session = PaymentSession(request: request, scope: scope, processor: processor.name,
                                         route: decision.initialRoute, at: clock.now())
                try await ledger.insert(session)
            }
            live[request.reference] = session
            attempt = PaymentAttempt(idScope: session.keyScheme.attemptIDScope(scope), scope: scope)
        case .continuation(let session):
            let lastRecordedAt = try await lastStateChange(of: session)
            let bumped = try await ledger.record(
                SessionChange(reference: session.reference, expectedState: session.state, newState: session.state,
                              at: clock.now(), incrementsAttempts: true, decidedFor: session.generation),
                scope: scope)
            live[request.reference] = bumped
            attempt = PaymentAttempt(number: bumped.attempts, paymentAttempt: bumped.paymentAttempt,
                                     processorPaymentID: bumped.processorPaymentID, localID: bumped.localID,
                                     previousState: bumped.state, lastRecordedAt: lastRecordedAt,
                                     idScope: bumped.keyScheme.attemptIDScope(scope), scope: scope)
        case .newVendorPayment(let session):
            // An attempt proven never sent needs nobody's permission to be replaced: closing it again would ask a
            // vendor's server that, offline, cannot answer.
            if !(try await provenNeverSent(session)) { try await abandonBeforeNewAttempt(session) }
            let restarted = try await ledger.record(
                SessionChange(reference: session.reference, expectedState: session.state, newState: .created,
                              at: clock.now(), route: decision.initialRoute, incrementsAttempts: true,
                              startsNewAttempt: true,
                              note: "Payment attempt \(session.paymentAttempt + 1) started after \(session.state).",
                              decidedFor: session.generation),
                scope: scope)
            hub.send(.paymentStateChanged(PaymentStateChange(reference: session.reference, from: session.state,
                                                             to: .created, at: restarted.updatedAt)))
            live[request.reference] = restarted
            attempt = PaymentAttempt(number: restarted.attempts, paymentAttempt: restarted.paymentAttempt,
                                     previousState: .created, idScope: restarted.keyScheme.attemptIDScope(scope),
                                     scope: scope)
        }

        let recorder = PaymentRecorder(session: live[request.reference]!, scope: scope, ledger: ledger, clock: clock,
                                       hub: hub)
        // From here on the processor may charge: a ledger that fails now must not read as "nothing happened".
        do {
            let outcome = try await runProcessor(request, routing: decision, attempt: attempt, recorder: recorder)
            try await recorder.finish(outcome)
        } catch {
            throw outcomeNotRecorded(request.reference, cause: error)
        }
        live[request.reference] = recorder.session
        var session = try await recordedSession(request.reference)
        if PaymentStateMachine.newAttemptStates.contains(session.state) {
            await abandon(session)
            session = try await recordedSession(request.reference, forceRead: true)
        }
        return session
    }

    /// When the ledger last recorded a change of state of `session` (the latest moment an earlier call may have sent
    /// something to the vendor, or recovery found it interrupted): retries that changed nothing (an adapter asking
    /// to wait) do not count, so waiting is measured from the payment's last real step, not from the last retry.
    private func lastStateChange(of session: PaymentSession) async throws -> Date {
        let full = try await ledger.session(reference: session.reference, scope: scope) ?? session
        return full.transitions.last { $0.from != $0.to }?.at ?? full.updatedAt
    }

    /// The error of a payment whose processor may have charged but whose step or outcome the ledger could not
    /// record (a full disk, an I/O error, another process holding the file's lock): the outcome is unknown, and the
    /// same reference is the safe retry. The write-ahead record is in the ledger: a retry of the reference, the
    /// queue poller or ``recover()`` asks the processor and records what it did, never charging again.
    func outcomeNotRecorded(_ reference: String, cause: any Error) -> PaymentError {
        let detail = (cause as? PaymentError)?.message ?? "\(cause)"
        return PaymentError(
            .outcomeUnknown, recovery: .retrySamePayment, phase: .ledger,
            message: "The card may have been charged: \(processor.name) was asked to take payment \(reference), but Tender could not record what happened (\(detail)). Do not take the money another way or under a new order number: taking the same reference again is safe — it asks \(processor.name) and continues or returns the same payment, never a second charge; recover() repairs the record.")
    }

    /// What `takePayment` does with a reference.
    private enum AttemptPlan {
        case first
        case continuation(PaymentSession)
        case newVendorPayment(PaymentSession)
    }

    /// States whose outcome is not definite: a retry continues the same vendor payment.
    static let unfinishedStates: Set<PaymentState> = [.created, .collecting, .processing, .outcomeUnknown]

    func check(_ request: PaymentRequest, against capabilities: ProcessorCapabilities) throws {
        if let currencies = capabilities.supportedCurrencies, !currencies.contains(request.amount.currency) {
            throw PaymentError(.invalidCurrency, recovery: .fixRequest, phase: .validation,
                               message: "\(processor.name) does not accept \(request.amount.currency.code) here.")
        }
        if let limits = capabilities.amountLimits, let maximum = limits.maximum(for: request.amount.currency),
           let total = try? request.total(), total.minorUnits > maximum {
            let ceiling = Money(minorUnits: maximum, currency: total.currency)
            throw PaymentError(.invalidAmount, recovery: .fixRequest, phase: .validation,
                               message: "\(total) is more than \(processor.name) accepts in one payment: at most \(ceiling) (\(limits.source)\(limits.isDocumented ? "" : "; the app's setting, not a figure the vendor documents")). Take it as several payments.")
        }
        if request.captureMode == .manual, !capabilities.supportsManualCapture {
            throw PaymentError(.invalidRequest, recovery: .fixRequest, phase: .validation,
                               message: "\(processor.name) does not support manual capture.")
        }
        if request.tip != nil, !capabilities.supportsTips {
            throw PaymentError(.invalidRequest, recovery: .fixRequest, phase: .validation,
                               message: "\(processor.name) does not accept a tip on the request.")
        }
        if !request.metadata.isEmpty, !capabilities.supportsMetadata {
            throw PaymentError(.invalidMetadata, recovery: .fixRequest, phase: .validation,
                               message: "\(processor.name) does not keep metadata with a payment; remove it from the request (keep it in your own records under the reference).")
        }
    }

    /// Calls the processor, cancelling through it if the calling task is cancelled. A processor that throws (it
    /// could not tell what happened, or it gave up waiting because of the cancellation) yields
    /// ``PaymentState/outcomeUnknown``: reconciliation finds the truth later.
    private func runProcessor(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                              recorder: PaymentRecorder) async throws -> ProcessorPaymentUpdate {
        let reference = request.reference
        let processor = self.processor
        do {
            return try await withTaskCancellationHandler {
                // The adapter's intermediate updates are recorded by the recorder directly: no hop back to the
                // facade's actor for each one.
                try await processor.startPayment(request, routing: routing, attempt: attempt) { update in
                    try await recorder.record(update)
                }
            } onCancel: {
                // The task is gone, not the payment: ask the vendor to cancel, and let the adapter report what the
                // vendor answers.
                Task { try? await processor.cancelPayment(reference: reference) }
            }
        } catch let error as PaymentError where error.phase == .ledger {
            throw error
        } catch {
            let paymentError = (error as? PaymentError) ?? PaymentError(
                .outcomeUnknown, recovery: .retrySamePayment, phase: .processing,
                message: error is CancellationError
                    ? "The payment's task was cancelled before the processor answered; Tender asked the processor to cancel and will reconcile what it did. Retrying the same reference continues the same payment."
                    : "The processor failed without saying whether the payment went through: \(error). Retrying the same reference continues the same payment.")
            return ProcessorPaymentUpdate(reference: reference, state: .outcomeUnknown, error: paymentError)
        }
    }

    /// The session as last recorded during this payment, with its history (read back only if needed).
    func recordedSession(_ reference: String, forceRead: Bool = false) async throws -> PaymentSession {
        if !forceRead, let session = live[reference], session.transitions.first?.from == nil,
           !session.transitions.isEmpty {
            return session
        }
        if let stored = try await ledger.session(reference: reference, scope: scope) { return stored }
        if let session = live[reference] { return session }
        throw PaymentError(.unknownReference, recovery: .none, phase: .ledger,
                           message: "Payment \(reference) is missing from the ledger.")
    }

    /// Records `update` against `session` if the transition is legal; otherwise reports it and keeps the state.
    @discardableResult
    func apply(_ update: ProcessorPaymentUpdate, to session: PaymentSession) async throws -> PaymentSession {
        try await Self.record(update, on: session, ledger: ledger, scope: scope, clock: clock, hub: hub)
    }

    /// The one place a processor's update is checked against the state machine and recorded (shared by the facade
    /// and ``PaymentRecorder``): an update that is not the session's vendor payment (``attributionMismatch(_:to:)``)
    /// is recorded as an unknown outcome with the reason and none of its ids; an illegal transition is an event and
    /// keeps the state; an update that brings nothing new costs no write.
    static func record(_ update: ProcessorPaymentUpdate, on session: PaymentSession, ledger: any PaymentLedger,
                       scope: LedgerScope, clock: any TenderClock, hub: EventHub) async throws -> PaymentSession {
        guard let change = change(recording: update, on: session, clock: clock, hub: hub) else { return session }
        let updated = try await ledger.record(change, scope: scope)
        announce(change, of: session, hub: hub)
        return updated
    }

    /// The change recording `update` on `session`, or `nil` when there is nothing to write: an illegal transition
    /// (reported as an event) or a same-state update that brings nothing new. An update that is not the session's
    /// vendor payment becomes an unknown outcome (``attributed(_:to:)``).
    static func change(recording update: ProcessorPaymentUpdate, on session: PaymentSession, clock: any TenderClock,
                       hub: EventHub) -> SessionChange? {
        let update = attributed(update, to: session)
        let target = update.state
        guard target == session.state || PaymentStateMachine.canTransition(from: session.state, to: target) else {
            hub.send(.transitionRejected(reference: session.reference,
                                         from: session.state, to: target))
            return nil
        }
        guard target != session.state || brings(update, newsTo: session) else { return nil }
        return SessionChange(update, expectedState: session.state, reference: session.reference, at: clock.now(),
                             decidedFor: session.generation)
    }

    /// Sends the state change `change` made to `session`, if it changed the state.
    static func announce(_ change: SessionChange, of session: PaymentSession, hub: EventHub) {
        guard change.newState != change.expectedState else { return }
        hub.send(.paymentStateChanged(PaymentStateChange(reference: session.reference, from: change.expectedState,
                                                         to: change.newState, at: change.at, error: change.error)))
    }

    /// Whether a same-state update carries something the session does not have yet (worth a ledger write).
    static func brings(_ update: ProcessorPaymentUpdate, newsTo session: PaymentSession) -> Bool {
        (update.route != nil && update.route != session.route)
            || (update.processorPaymentID != nil && update.processorPaymentID != session.processorPaymentID)
            || (update.localID != nil && update.localID != session.localID)
            || (update.card != nil && update.card != session.card)
            || (update.error != nil && update.error != session.lastError)
            || (update.storedAt != nil && update.storedAt != session.storedAt)
            || (update.captureBefore != nil && update.captureBefore != session.captureBefore)
            || (update.capturedAmount != nil && update.capturedAmount != session.capturedAmount)
            || (update.tip != nil && session.tip == nil)
    }

    /// Cancels the payment in progress with this reference, through the processor; the session ends
    /// ``PaymentState/canceled`` when the vendor confirms.
    ///
    /// A session recorded as created that no call of this launch is running (a crash or power cut took what came
    /// after its first record) is reconciled first: the vendor may have charged it. It is recorded as canceled only
    /// when the processor shows it never started; a charge found is recorded as such and the cancel refused (refund
    /// it instead), and an answer that cannot be had leaves it ``PaymentState/outcomeUnknown`` for recovery.
    public func cancelPayment(reference: String) async throws {
        let scope = self.scope
        guard let session = try await ledger.session(reference: reference, scope: scope, includingHistory: false)
        else {
            throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .cancellation,
                               message: "No payment \(reference) to cancel.")
        }
        if inFlight.contains(reference) || session.state == .collecting || session.state == .processing {
            try await processor.cancelPayment(reference: reference)
        } else if session.state == .created {
            // Claimed like a payment in flight while it is settled: a retry of the reference waits for it, and what
            // is recorded here was decided for this attempt (the ledger refuses it on a later one).
            inFlight.insert(reference)
            defer { inFlight.remove(reference) }
            let current = try await reconcile(session)
            switch current.state {
            case .created:
                try await apply(ProcessorPaymentUpdate(reference: reference, state: .canceled), to: current)
            case .failed, .canceled, .declined:
                return
            case .outcomeUnknown:
                throw PaymentError(.outcomeUnknown, recovery: .waitAndRetry, phase: .cancellation,
                                   message: "Payment \(reference) may have reached \(processor.name) before this launch and its outcome cannot be had now; recovery settles it before anything else is charged.")
            default:
                throw PaymentError(.invalidState, recovery: .none, phase: .cancellation,
                                   message: "Payment \(reference) reached \(processor.name) before this launch and is \(current.state); it can no longer be canceled.")
            }
        } else {
            throw PaymentError(.invalidState, recovery: .none, phase: .cancellation,
                               message: "Payment \(reference) is \(session.state) and can no longer be canceled.")
        }
    }
}

extension SessionChange {
    /// The change recording a processor's update against a session in `expectedState`.
    init(_ update: ProcessorPaymentUpdate, expectedState: PaymentState, reference: String, at: Date,
         error: PaymentError? = nil, note: String? = nil, decidedFor: SessionGeneration? = nil) {
        self.init(reference: reference, expectedState: expectedState, newState: update.state, at: at,
                  route: update.route, processorPaymentID: update.processorPaymentID, localID: update.localID,
                  card: update.card, error: error ?? update.error, storedAt: update.storedAt,
                  captureBefore: update.captureBefore, note: note, capturedAmount: update.capturedAmount,
                  tip: update.tip, decidedFor: decidedFor)
    }
}
