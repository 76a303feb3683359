import Foundation

extension PaymentTerminal {
    /// The background work of the facade, until the calling task is cancelled or the processor's event stream
    /// ends: records forwarding results in the ledger, tracks the network status, re-sends the processor's events
    /// as ``TenderEvent``s, and polls the processor's queue while any payment is stored offline or awaiting a
    /// result (see ``QueuePolling``), so no vendor result is missed.
    ///
    /// Call it once per launch, in a task of its own. It can be started again after its task was cancelled: the
    /// events that arrived meanwhile are kept and handled then. A second concurrent call returns at once.
    public func run() async {
        guard !isRunning else { return }
        isRunning = true
        defer { isRunning = false }
        startRelayIfNeeded()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.consumeEvents() }
            group.addTask { await self.pollWhilePending() }
            // The event stream ending (the processor is gone) ends the run; so does cancellation.
            await group.next()
            group.cancelAll()
        }
    }

    /// Starts copying the processor's events into the mailbox, once per facade.
    private func startRelayIfNeeded() {
        guard !relayStarted else { return }
        relayStarted = true
        let stream = processor.events()
        let mailbox = self.mailbox
        // An unstructured task on purpose: it must outlive a cancelled `run()` so the next one misses nothing.
        // It ends when the processor finishes its stream.
        Task {
            for await event in stream { mailbox.post(event) }
            mailbox.finish()
        }
    }

    private func consumeEvents() async {
        while let event = await mailbox.next() {
            await handle(event)
            if Task.isCancelled { return }
        }
    }

    /// Handles one processor event. Exposed so an app or test can feed events without ``run()``.
    package func handle(_ event: ProcessorEvent) async {
        switch event {
        case .networkStatusChanged(let status):
            let cameBack = status == .online && networkStatus != .online
            learnNetworkStatus(status)
            hub.send(.processor(event))
            // Vendors forward once back online, and Square reports results only when its queue is read: read it
            // now, so results arrive without the app asking.
            if cameBack { await pollOnce() }
        case .paymentForwarded(let update):
            hub.send(.processor(event))
            await reconcileForwarded(update)
        case .offlineQueueChanged:
            hub.send(.processor(event))
            await publishQueueStatus()
        default:
            readerState.learn(event)
            hub.send(.processor(event))
        }
    }

    // MARK: Polling

    /// Polls at once, then on the ``QueuePolling`` schedule while anything is pending; sleeps until woken (network
    /// back, settings changed) or the interval passes.
    private func pollWhilePending() async {
        var interval = polling.interval
        var pendingBefore = -1
        while !Task.isCancelled {
            let pending = await pendingCount()
            if pending > 0 {
                let changed = await pollOnce()
                interval = changed || pending != pendingBefore ? polling.interval
                    : min(interval * 2, polling.maximumInterval)
            } else {
                interval = polling.interval
            }
            pendingBefore = pending
            await sleepOrWake(seconds: interval)
        }
    }

    private func sleepOrWake(seconds: Double) async {
        let clock = self.clock
        let signal = pollSignal
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(seconds: seconds) }
            group.addTask { await signal.wait() }
            await group.next()
            group.cancelAll()
        }
    }

    /// How many sessions wait for something only the processor can tell: stored offline, failed to forward,
    /// unknown or interrupted outcomes, authorizations awaiting capture (authorized, or forwarded with manual
    /// capture), pending refunds, and succeeded refunds the processor may still fail that are due for a look
    /// (``QueuePolling/refundCheckInterval``). A forwarded automatic-capture payment is final: it is not counted,
    /// so the poller goes idle once nothing else waits.
    func pendingCount() async -> Int {
        let sessions = (try? await ledger.sessions(in: PaymentTerminal.awaitingVendor, scope: scope)) ?? []
        let refunds = (try? await ledger.refunds(in: [.pending], scope: scope)) ?? []
        let rechecks = await succeededRefundsDue(now: clock.now()).count
        let waiting = sessions.filter { !inFlight.contains($0.reference) && Self.waitsOnProcessor($0) }
        return waiting.count + refunds.count + rechecks
    }

    /// Whether a session in ``awaitingVendor`` still waits on the processor: all but a forwarded payment with
    /// automatic capture, which is final (``PaymentState/forwarded``).
    static func waitsOnProcessor(_ session: PaymentSession) -> Bool {
        !(session.state == .forwarded && session.captureMode == .automatic)
    }

    /// The states whose sessions wait on the processor.
    static let awaitingVendor: Set<PaymentState> = [
        .created, .collecting, .processing, .outcomeUnknown, .storedOffline, .failedToForward, .authorized, .forwarded,
    ]

    /// Reads the processor's queue once and reconciles what waits on it: applies the vendor's per-payment results,
    /// looks up sessions the queue cannot speak for (unknown outcomes, stored payments the vendor no longer lists,
    /// authorizations past their deadline), settles pending refunds, and looks up again succeeded refunds the
    /// processor may still fail.
    /// - Returns: whether anything changed in the ledger.
    @discardableResult
    public func pollOnce() async -> Bool {
        runningCalls += 1
        defer { runningCalls -= 1 }
        var changed = false
        let snapshot = try? await processor.queueSnapshot()
        if let snapshot {
            if snapshot.networkStatus != .unknown { networkStatus = snapshot.networkStatus }
            let results = snapshot.payments.compactMap(Self.forwardingUpdate)
                .filter { !inFlight.contains($0.reference) }
            if let recorded = try? await applyResults(results, skippingStale: true), !recorded.isEmpty {
                changed = true
            }
        }
        let waiting = (try? await ledger.sessions(in: PaymentTerminal.awaitingVendor, scope: scope)) ?? []
        let listed = Set(snapshot?.payments.map(\.reference) ?? [])
        let vendorHoldsFewer = snapshot.map { $0.storedCount < waiting.filter { $0.state == .storedOffline }.count }
            ?? false
        let now = clock.now()
        for session in waiting where !inFlight.contains(session.reference) {
            guard needsLookup(session, listed: listed, vendorHoldsFewer: vendorHoldsFewer, now: now) else { continue }
            if session.state == .authorized || session.state == .forwarded {
                lastAuthorizationCheck[session.reference] = now
            }
            if let resolved = try? await reconcile(session, yieldingToCalls: true),
               resolved.state != session.state || resolved != session {
                changed = true
            }
        }
        if await followRefunds() { changed = true }
        if changed { await publishQueueStatus() }
        return changed
    }

    private func needsLookup(_ session: PaymentSession, listed: Set<String>, vendorHoldsFewer: Bool, now: Date)
        -> Bool {
        switch session.state {
        case .created, .collecting, .processing, .outcomeUnknown:
            return true
        case .storedOffline, .failedToForward:
            // The queue speaks for what it lists; a stored payment it no longer holds has left the device.
            return !listed.contains(session.reference) && (vendorHoldsFewer || !listed.isEmpty
                || session.state == .failedToForward)
        case .authorized, .forwarded:
            guard session.captureMode == .manual || session.state == .authorized else { return false }
            if session.state == .forwarded, session.captureMode == .automatic { return false }
            if let deadline = session.captureBefore, deadline <= now { return true }
            let last = lastAuthorizationCheck[session.reference] ?? .distantPast
            return now.timeIntervalSince(last) >= polling.authorizationCheckInterval
        default:
            return false
        }
    }

    /// A queue entry as a forwarding result, when it reports one, with the vendor's total and attempt (an entry for
    /// another total or attempt under the same reference is not the session's current payment, and is not applied).
    static func forwardingUpdate(_ payment: QueuedPayment) -> ProcessorPaymentUpdate? {
        let state: PaymentState? = switch payment.status {
        case .forwarded: .forwarded
        case .declinedAfterForwarding: .declinedAfterForwarding
        case .failedToForward: .failedToForward
        case .stored, .uploaded: .storedOffline
        case .unknown: nil
        }
        return state.map {
            ProcessorPaymentUpdate(reference: payment.reference, state: $0, route: .offline,
                                   processorPaymentID: payment.processorPaymentID, localID: payment.localID,
                                   storedAt: payment.storedAt, amount: payment.amount,
                                   paymentAttempt: payment.paymentAttempt)
        }
    }
}
