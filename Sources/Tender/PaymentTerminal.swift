import Foundation

/// The one type an app uses: takes payments through any ``PaymentProcessor``, applying the offline policy and the
/// risk limits before the processor is called, recording every step in a ``PaymentLedger`` before and after each
/// processor call, and reporting everything as ``TenderEvents``.
///
/// ```swift
/// let terminal = PaymentTerminal(processor: StripeProcessor(client: simulator, captureService: server),
///                                ledger: try SQLitePaymentLedger(url: ledgerURL),
///                                scope: LedgerScope(merchantID: "acct_1", locationID: "tml_1"),
///                                limits: .single(perPayment: Money(minorUnits: 10_000, currency: .usd),
///                                                storedTotal: Money(minorUnits: 100_000, currency: .usd)))
/// let recovery = await terminal.recover()          // after every launch
/// Task { await terminal.run() }                    // forwarding results, reader events
/// let sale = PaymentRequest(amount: Money(minorUnits: 1250, currency: .usd), reference: "order-1042",
///                           offlinePolicy: .preferOnline)
/// let session = try await terminal.takePayment(sale)
/// ```
///
/// `takePayment` throws only when the payment was refused before the processor was asked (validation, policy,
/// risk limits, a reference reused for a different sale) or the ledger failed. Every outcome the processor
/// reports, including declines, comes back as a ``PaymentSession`` whose ``PaymentSession/state`` and
/// ``PaymentSession/lastError`` say what happened. Retrying the same reference never charges twice: it returns the
/// recorded session, or continues the same vendor payment when its outcome is unknown.
public actor PaymentTerminal {
    /// The processor.
    public nonisolated let processor: any PaymentProcessor
    /// The ledger.
    public nonisolated let ledger: any PaymentLedger
    /// The merchant and location payments are recorded under.
    public private(set) var scope: LedgerScope
    /// The app's offline risk limits; the processor's are merged in at each payment.
    public var limits: OfflineRiskLimits
    /// The network status last reported by the processor.
    public private(set) var networkStatus: NetworkStatus = .unknown

    private let clock: any TenderClock
    private let hub = EventHub()
    private var inFlight: Set<String> = []
    private var live: [String: PaymentSession] = [:]
    private var isRunning = false

    /// Creates the facade. Does no work: call ``recover()`` after launch and ``run()`` for background events.
    /// - Parameters:
    ///   - processor: the adapter.
    ///   - ledger: where sessions are recorded (default: in memory, which is not durable).
    ///   - scope: the merchant and location.
    ///   - limits: the app's offline risk limits (default: no offline payments).
    ///   - clock: the time source (inject a ``ManualClock`` in tests).
    public init(processor: any PaymentProcessor, ledger: any PaymentLedger = InMemoryPaymentLedger(),
                scope: LedgerScope, limits: OfflineRiskLimits = .none, clock: any TenderClock = SystemClock()) {
        self.processor = processor
        self.ledger = ledger
        self.scope = scope
        self.limits = limits
        self.clock = clock
    }

    /// A new subscription to the facade's events.
    public nonisolated var events: TenderEvents { hub.subscribe() }

    /// Consumes the processor's events until its stream ends or the task is cancelled: records forwarding results
    /// in the ledger, tracks the network status, and re-sends everything as ``TenderEvent``s. Call it once.
    public func run() async {
        guard !isRunning else { return }
        isRunning = true
        for await event in processor.events() {
            if Task.isCancelled { break }
            await handle(event)
        }
    }

    /// Handles one processor event. Exposed so an app or test can feed events without ``run()``.
    public func handle(_ event: ProcessorEvent) async {
        switch event {
        case .networkStatusChanged(let status):
            let cameBack = status == .online && networkStatus != .online
            networkStatus = status
            hub.send(.processor(event))
            // Some vendors (Square) report forwarding results only when their queue is read: read it when the
            // network returns, so results arrive without the app asking.
            if cameBack { _ = try? await processor.queueSnapshot() }
        case .paymentForwarded(let update):
            hub.send(.processor(event))
            await reconcileForwarded(update)
        case .offlineQueueChanged:
            hub.send(.processor(event))
            if let snapshot = try? await queueStatus() { hub.send(.queueChanged(snapshot)) }
        default:
            hub.send(.processor(event))
        }
    }

    // MARK: Readers

    /// Looks for readers.
    public func discoverReaders(timeout: Double = 10) async throws -> [Reader] {
        try await processor.discoverReaders(timeout: timeout)
    }

    /// Connects a reader at the scope's location.
    public func connectReader(_ reader: Reader) async throws -> Reader {
        try await processor.connectReader(reader, locationID: scope.locationID)
    }

    /// Disconnects the reader.
    public func disconnectReader() async throws { try await processor.disconnectReader() }

    // MARK: Payments

    /// The routing decision this request would get now, without taking it.
    public func route(for request: PaymentRequest) async throws -> RoutingDecision {
        try request.validate()
        return try await route(request, capabilities: await processor.capabilities())
    }

    private func route(_ request: PaymentRequest, capabilities: ProcessorCapabilities) async throws -> RoutingDecision {
        let summary = try await ledger.storedSummary(scope: scope)
        let queue = OfflineQueueSnapshot(networkStatus: networkStatus, storedCount: summary.count,
                                         storedAmounts: summary.amounts, oldestStoredAt: summary.oldestStoredAt)
        let effective = capabilities.offlineLimits.map {
            limits.merged(with: $0, source: .processor(capabilities.processorName))
        }
        return OfflineRouter.decide(request: request, limits: effective, queue: queue, network: networkStatus,
                                    now: clock.now())
    }

    /// Takes a payment: validates, routes, records the intent, calls the processor, records each answer.
    /// - Returns: the session as recorded, in the state the processor reported.
    /// - Throws: ``PaymentError`` when refused before the processor was called, or when the ledger fails.
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
        if let currencies = capabilities.supportedCurrencies, !currencies.contains(request.amount.currency) {
            throw PaymentError(.invalidCurrency, recovery: .fixRequest, phase: .validation,
                               message: "\(processor.name) does not accept \(request.amount.currency.code) here.")
        }
        if request.captureMode == .manual, !capabilities.supportsManualCapture {
            throw PaymentError(.invalidRequest, recovery: .fixRequest, phase: .validation,
                               message: "\(processor.name) does not support manual capture.")
        }
        if request.tip != nil, !capabilities.supportsTips {
            throw PaymentError(.invalidRequest, recovery: .fixRequest, phase: .validation,
                               message: "\(processor.name) does not accept a tip on the request.")
        }
        guard !inFlight.contains(request.reference) else {
            throw PaymentError(.paymentInProgress, recovery: .waitAndRetry, phase: .validation,
                               message: "Payment \(request.reference) is already in progress.")
        }
        inFlight.insert(request.reference)
        defer {
            inFlight.remove(request.reference)
            live[request.reference] = nil
        }

        var attempt = PaymentAttempt()
        if let existing = try await ledger.session(reference: request.reference, scope: scope,
                                                   includingHistory: false) {
            guard existing.matches(request) else {
                throw PaymentError(.duplicateReference, recovery: .fixRequest, phase: .validation,
                                   message: "Reference \(request.reference) was already used for \(existing.total); this request is for \(try request.total()).")
            }
            guard [.created, .collecting, .processing, .outcomeUnknown].contains(existing.state) else {
                return try await ledger.session(reference: request.reference, scope: scope) ?? existing
            }
            // An earlier attempt did not finish. Ask the processor first; retry the same payment only if it has
            // no outcome yet.
            let resolved = try await reconcile(existing)
            live[request.reference] = resolved
            guard [.created, .collecting, .processing, .outcomeUnknown].contains(resolved.state) else {
                return try await ledger.session(reference: request.reference, scope: scope) ?? resolved
            }
            let bumped = try await ledger.record(
                SessionChange(reference: resolved.reference, expectedState: resolved.state,
                              newState: resolved.state, at: clock.now(), incrementsAttempts: true), scope: scope)
            live[request.reference] = bumped
            attempt = PaymentAttempt(number: bumped.attempts, processorPaymentID: bumped.processorPaymentID,
                                     localID: bumped.localID, previousState: bumped.state)
        }

        let decision = try await route(request, capabilities: capabilities)
        if case .refused(let error) = decision { throw error }

        if attempt.number == 1 {
            // Write-ahead: the intent to charge is durable before the processor hears of it.
            let session = PaymentSession(request: request, scope: scope, processor: processor.name,
                                         route: decision.initialRoute, at: clock.now())
            try await ledger.insert(session)
            live[request.reference] = session
        }

        let reference = request.reference
        let final: ProcessorPaymentUpdate
        do {
            final = try await processor.startPayment(request, routing: decision, attempt: attempt) { [weak self] update in
                guard let self else { return }
                try await self.applyDuringPayment(update, reference: reference)
            }
        } catch {
            let paymentError = (error as? PaymentError) ?? PaymentError(
                .outcomeUnknown, recovery: .retrySamePayment, phase: .processing,
                message: "The processor failed without saying whether the payment went through: \(error).")
            let unknown = ProcessorPaymentUpdate(reference: reference, state: .outcomeUnknown, error: paymentError)
            try await applyDuringPayment(unknown, reference: reference)
            return try await recordedSession(reference)
        }
        try await applyDuringPayment(final, reference: reference)
        return try await recordedSession(reference)
    }

    /// The session as last recorded during this payment, with its history (read back only if the ledger returned
    /// it without).
    private func recordedSession(_ reference: String) async throws -> PaymentSession {
        if let session = live[reference], session.transitions.first?.from == nil, !session.transitions.isEmpty {
            return session
        }
        return try await ledger.session(reference: reference, scope: scope) ?? live[reference]!
    }

    /// Applies an update reported by the processor during ``takePayment(_:)``.
    private func applyDuringPayment(_ update: ProcessorPaymentUpdate, reference: String) async throws {
        guard update.reference == reference else {
            hub.send(.unmatchedForwardingResult(update))
            return
        }
        let current: PaymentSession
        if let cached = live[reference] {
            current = cached
        } else if let stored = try await ledger.session(reference: reference, scope: scope, includingHistory: false) {
            current = stored
        } else {
            return
        }
        live[reference] = try await apply(update, to: current)
    }

    /// Records `update` against `session` if the transition is legal; otherwise reports it and keeps the state.
    @discardableResult
    private func apply(_ update: ProcessorPaymentUpdate, to session: PaymentSession) async throws -> PaymentSession {
        let target = update.state
        guard target == session.state || PaymentStateMachine.canTransition(from: session.state, to: target) else {
            hub.send(.transitionRejected(reference: session.reference,
                                         transition: IllegalTransition(from: session.state, to: target)))
            return session
        }
        let change = SessionChange(reference: session.reference, expectedState: session.state, newState: target,
                                   at: clock.now(), route: update.route, processorPaymentID: update.processorPaymentID,
                                   localID: update.localID, card: update.card, error: update.error)
        let updated = try await ledger.record(change, scope: scope)
        if target != session.state {
            hub.send(.paymentStateChanged(PaymentStateChange(reference: session.reference, from: session.state,
                                                             to: target, at: change.at, error: update.error)))
        }
        return updated
    }

    /// Cancels the payment in progress with this reference. A session the processor never heard of is recorded
    /// as canceled directly.
    public func cancelPayment(reference: String) async throws {
        guard let session = try await ledger.session(reference: reference, scope: scope, includingHistory: false)
        else {
            throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .cancellation,
                               message: "No payment \(reference) to cancel.")
        }
        if inFlight.contains(reference) || session.state == .collecting || session.state == .processing {
            try await processor.cancelPayment(reference: reference)
        } else if session.state == .created {
            try await apply(ProcessorPaymentUpdate(reference: reference, state: .canceled), to: session)
        } else {
            throw PaymentError(.invalidState, recovery: .none, phase: .cancellation,
                               message: "Payment \(reference) is \(session.state) and can no longer be canceled.")
        }
    }

    /// Captures a payment taken with manual capture: authorized online, or forwarded after being stored offline
    /// (Stripe's "ready to capture" rule: it requires capture and is no longer waiting to be uploaded).
    /// - Parameters:
    ///   - reference: the payment's reference.
    ///   - amount: the amount to capture; default the full total.
    public func capture(reference: String, amount: Money? = nil) async throws -> PaymentSession {
        let session = try await readyToCapture(reference)
        let update = try await processor.capturePayment(reference: reference,
                                                        processorPaymentID: session.processorPaymentID!,
                                                        amount: amount ?? session.total)
        return try await apply(update, to: session)
    }

    /// Voids a payment taken with manual capture and not yet captured.
    public func void(reference: String) async throws -> PaymentSession {
        let session = try await readyToCapture(reference)
        let update = try await processor.voidPayment(reference: reference,
                                                     processorPaymentID: session.processorPaymentID!)
        return try await apply(update, to: session)
    }

    private func readyToCapture(_ reference: String) async throws -> PaymentSession {
        guard let session = try await ledger.session(reference: reference, scope: scope, includingHistory: false)
        else {
            throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .capture,
                               message: "No payment \(reference) to capture.")
        }
        guard session.isReadyToCapture else {
            let why = switch session.state {
            case .storedOffline: "it is stored offline and must be forwarded first"
            case .succeeded: "it is already captured"
            default: session.captureMode == .automatic ? "it was taken with automatic capture" : "it is \(session.state)"
            }
            throw PaymentError(.invalidState, recovery: session.state == .storedOffline ? .goOnline : .none,
                               phase: .capture, message: "Payment \(reference) is not ready to capture: \(why).")
        }
        return session
    }

    /// The recorded session for a reference, with its history.
    public func session(reference: String) async throws -> PaymentSession? {
        try await ledger.session(reference: reference, scope: scope)
    }

    /// Every session of the current scope, oldest first.
    public func sessions() async throws -> [PaymentSession] { try await ledger.allSessions(scope: scope) }

    // MARK: Offline queue

    /// The offline queue: network status and the stored count, amounts and oldest time, read from the ledger's
    /// aggregates without scanning sessions.
    public func queueStatus() async throws -> OfflineQueueSnapshot {
        let summary = try await ledger.storedSummary(scope: scope)
        return OfflineQueueSnapshot(networkStatus: networkStatus, storedCount: summary.count,
                                    storedAmounts: summary.amounts, oldestStoredAt: summary.oldestStoredAt)
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
    /// no known session, or an illegal transition, are reported as events and skipped.
    /// - Returns: the sessions changed.
    @discardableResult
    public func applyForwardingResults(_ updates: [ProcessorPaymentUpdate]) async throws -> [PaymentSession] {
        var changes: [SessionChange] = []
        var latest: [String: PaymentState] = [:]  // each reference's state after the changes planned so far
        let known = try await ledger.sessions(references: updates.map(\.reference), scope: scope)
        for update in updates {
            var session = known[update.reference]
            if session == nil, update.localID != nil || update.processorPaymentID != nil {
                session = try await ledger.session(localID: update.localID, processorPaymentID: update.processorPaymentID,
                                                   scope: scope)
            }
            guard let session else {
                hub.send(.unmatchedForwardingResult(update))
                continue
            }
            let current = latest[session.reference] ?? session.state
            guard update.state == current || PaymentStateMachine.canTransition(from: current, to: update.state) else {
                hub.send(.transitionRejected(reference: session.reference,
                                             transition: IllegalTransition(from: current, to: update.state)))
                continue
            }
            latest[session.reference] = update.state
            changes.append(SessionChange(reference: session.reference, expectedState: current, newState: update.state,
                                         at: clock.now(), route: update.route,
                                         processorPaymentID: update.processorPaymentID, localID: update.localID,
                                         card: update.card, error: update.error))
        }
        guard !changes.isEmpty else { return [] }
        let recorded = try await ledger.record(changes, scope: scope)
        for change in changes where change.newState != change.expectedState {
            hub.send(.paymentStateChanged(PaymentStateChange(reference: change.reference, from: change.expectedState,
                                                             to: change.newState, at: change.at, error: change.error)))
        }
        if let snapshot = try? await queueStatus() { hub.send(.queueChanged(snapshot)) }
        return recorded
    }

    private func reconcileForwarded(_ update: ProcessorPaymentUpdate) async {
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

    // MARK: Recovery

    /// Reconciles every session left in a non-final state (created, collecting, processing, outcome unknown,
    /// stored offline, failed to forward) with what the processor holds. Call it after every launch, before
    /// taking payments. Sessions whose outcome cannot be established stay ``PaymentState/outcomeUnknown``.
    ///
    /// The processor is asked about every session first; the changes are then committed to the ledger in one
    /// batch, so recovering a thousand sessions costs one commit.
    public func recover() async -> RecoveryReport {
        var report = RecoveryReport()
        do {
            let pending = try await ledger.sessions(
                in: Set(PaymentState.allCases.filter(\.needsReconciliation)), scope: scope)
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
            for change in changes where change.newState != change.expectedState {
                hub.send(.paymentStateChanged(PaymentStateChange(reference: change.reference, from: change.expectedState,
                                                                 to: change.newState, at: change.at, error: change.error)))
            }
            for session in pending {
                guard let (from, to) = finalStates[session.reference] else { continue }
                if to != from { report.resolved.append(PaymentStateChange(reference: session.reference, from: from, to: to, at: clock.now())) }
                if to == .outcomeUnknown { report.unresolved.append(session.reference) }
            }
            report.stillStored = try await ledger.storedSummary(scope: scope).count
        } catch {
            hub.send(.processor(.forwardingError((error as? PaymentError) ?? PaymentError(
                .ledgerUnavailable, recovery: .fixIntegration, phase: .reconciliation, message: "\(error)"))))
        }
        hub.send(.recoveryFinished(report))
        return report
    }

    private func lookUp(_ session: PaymentSession) async -> ProcessorLookup {
        do {
            return try await processor.lookUpPayment(reference: session.reference, localID: session.localID,
                                                     processorPaymentID: session.processorPaymentID)
        } catch {
            return .unknown
        }
    }

    /// Brings one session in line with the processor, in one commit.
    private func reconcile(_ session: PaymentSession) async throws -> PaymentSession {
        let changes = plan(session, await lookUp(session))
        guard !changes.isEmpty else { return session }
        let recorded = try await ledger.record(changes, scope: scope)
        for change in changes where change.newState != change.expectedState {
            hub.send(.paymentStateChanged(PaymentStateChange(reference: change.reference, from: change.expectedState,
                                                             to: change.newState, at: change.at, error: change.error)))
        }
        return recorded.last ?? session
    }

    /// The changes that bring `session` in line with what the processor said. Pure: no I/O.
    private func plan(_ session: PaymentSession, _ lookup: ProcessorLookup) -> [SessionChange] {
        let now = clock.now()
        let inFlightStates: Set<PaymentState> = [.created, .collecting, .processing]
        var changes: [SessionChange] = []
        var current = session.state
        func move(_ to: PaymentState, _ update: ProcessorPaymentUpdate? = nil, error: PaymentError? = nil) {
            changes.append(SessionChange(reference: session.reference, expectedState: current, newState: to, at: now,
                                         route: update?.route, processorPaymentID: update?.processorPaymentID,
                                         localID: update?.localID, card: update?.card, error: error ?? update?.error))
            current = to
        }
        switch lookup {
        case .found(let update):
            if update.state == current {
                move(current, update)
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
                                                  message: "The processor never received payment \(session.reference); nothing was charged."))
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
                     message: "The payment was interrupted before its outcome was recorded.")
    }

    // MARK: Guarded destructive actions

    /// Throws unless no stored, unforwarded payments would be lost by `action`, or the caller acknowledged the
    /// loss. Used by ``switchScope(to:acknowledgingLossOfStoredPayments:)``, ``signOut(acknowledgingLossOfStoredPayments:)``
    /// and ``checkBeforeUpgrade(acknowledgingLossOfStoredPayments:)``.
    public func checkNoStoredPaymentsAtRisk(action: String, acknowledgingLoss: Bool) async throws {
        let summary = try await ledger.storedSummary(scope: scope)
        guard summary.count > 0, !acknowledgingLoss else { return }
        throw PaymentError(.unforwardedPaymentsAtRisk, recovery: .goOnline, phase: .forwarding,
                           message: "\(action) would lose \(summary.humanDescription) stored offline and not yet forwarded. Go online and let them forward first, or acknowledge the loss explicitly.")
    }

    /// Switches to another merchant or location. Refused while the current scope has stored, unforwarded
    /// payments, unless `acknowledgingLossOfStoredPayments` is true.
    public func switchScope(to newScope: LedgerScope, acknowledgingLossOfStoredPayments: Bool = false) async throws {
        guard newScope != scope else { return }
        try await checkNoStoredPaymentsAtRisk(action: "Switching from \(scope) to \(newScope)",
                                              acknowledgingLoss: acknowledgingLossOfStoredPayments)
        scope = newScope
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
