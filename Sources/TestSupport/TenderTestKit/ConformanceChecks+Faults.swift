import Foundation

// MARK: - The faults real vendors have (confirm not received, answer lost, search lag, relaunch, cancelled tasks)

/// A facade over the environment's adapter, on the environment's clock, with an in-memory ledger and generous
/// USD offline limits.
func facade(_ env: any ConformanceEnvironment, processor: (any PaymentProcessor)? = nil,
            ledger: any PaymentLedger = InMemoryPaymentLedger()) async -> PaymentTerminal {
    let terminal = PaymentTerminal(
        processor: processor ?? env.processor, ledger: ledger,
        scope: LedgerScope(merchantID: "conformance", locationID: env.locationID),
        limits: .single(perPayment: usd(50_000), storedTotal: usd(500_000), storedCount: 100),
        polling: QueuePolling(interval: 5, maximumInterval: 5), clock: env.clock)
    await terminal.refreshNetworkStatus()
    return terminal
}

/// Polls `condition` while letting other tasks run, for at most `attempts` rounds.
func eventually(attempts: Int = 2_000, _ condition: () async -> Bool) async -> Bool {
    for _ in 0..<attempts {
        if await condition() { return true }
        await Task.yield()
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return await condition()
}

func confirmNotReceived(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let terminal = await facade(env)
    let sale = PaymentRequest(amount: usd(1_700), reference: "conf-lost-confirm")
    await env.presentNextCard(.approve)
    await env.inject(.confirmNotReceived)
    let first = try await terminal.takePayment(sale)
    c.expect(first.state == .outcomeUnknown || !first.state.isFinal,
             "a confirm that never reached the vendor ended \(first.state): only the vendor can say, so it is unknown")
    c.expect(await env.charges(reference: sale.reference) == 0, "a confirm that never reached the vendor charged")
    await env.presentNextCard(.approve)
    let retried = try await takeAgainAfterWaits(env, terminal, sale, c)
    c.expect(retried.state == .succeeded, "retrying after a confirm that never reached the vendor ended \(retried.state), expected succeeded")
    let again = try await terminal.takePayment(sale)
    c.expect(again.state == retried.state, "a second retry changed the outcome to \(again.state)")
    let charges = await env.charges(reference: sale.reference)
    c.expect(charges == 1, "after a lost confirm and two retries the reference was charged \(charges) times")
}

/// Takes `request` again as an app following Tender's rules does: while the answer is an unknown outcome that asks
/// to wait (``RecoveryAction/waitAndRetry``: a vendor whose earlier request may still arrive), it checks that the
/// waiting retry charged nothing, lets three minutes pass, and takes it again (at most three times).
func takeAgainAfterWaits(_ env: any ConformanceEnvironment, _ terminal: PaymentTerminal, _ request: PaymentRequest,
                         _ c: FailureCollector) async throws -> PaymentSession {
    var session = try await terminal.takePayment(request)
    for _ in 0..<3 where session.state == .outcomeUnknown && session.lastError?.recovery == .waitAndRetry {
        let charges = await env.charges(reference: request.reference)
        c.expect(charges == 0, "a retry that asked to wait charged \(charges) times")
        await env.advanceClock(by: 180)
        session = try await terminal.takePayment(request)
    }
    return session
}

func answerLostAfterCharge(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let terminal = await facade(env)
    let sale = PaymentRequest(amount: usd(1_800), reference: "conf-lost-answer")
    await env.presentNextCard(.approve)
    await env.inject(.answerLostAfterCharge)
    let first = try await terminal.takePayment(sale)
    c.expect(first.state != .failed && first.state != .declined && first.state != .canceled,
             "a charge whose answer was lost was recorded \(first.state): the card was charged")
    await env.presentNextCard(.approve)
    let retried = try await terminal.takePayment(sale)
    c.expect(retried.state == .succeeded, "retrying after a lost answer ended \(retried.state), expected succeeded")
    c.expect(await env.charges(reference: sale.reference) == 1, "a lost answer and a retry charged twice")
}

func searchLag(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    await env.inject(.searchLag(seconds: 120))
    // Empty is unknown, not absent, inside the consistency window.
    let fresh = PaymentLookupQuery(reference: "conf-lag-never-seen", since: env.clock.now())
    let answer = try await env.processor.lookUpPayment(fresh)
    c.expect(answer != .notFound, "an empty lookup inside the search lag answered notFound, expected unknown")

    let terminal = await facade(env)
    let sale = PaymentRequest(amount: usd(1_900), reference: "conf-lag")
    await env.presentNextCard(.approve)
    await env.inject(.answerLostAfterCharge)
    _ = try await terminal.takePayment(sale)
    let recovered = await terminal.recover()
    let afterRecovery = try await terminal.session(reference: sale.reference)
    c.expect(afterRecovery?.state != .failed,
             "recovery during the search lag recorded \(String(describing: afterRecovery?.state)) for a charged payment (\(recovered))")
    await env.presentNextCard(.approve)
    let retried = try await terminal.takePayment(sale)
    c.expect(retried.state != .failed && retried.state != .declined,
             "a retry during the search lag ended \(retried.state) for a charged payment")
    await env.advanceClock(by: 180)
    let settled = try await terminal.takePayment(sale)
    c.expect(settled.state == .succeeded, "after the search lag the payment is \(settled.state), expected succeeded")
    let charges = await env.charges(reference: sale.reference)
    c.expect(charges == 1, "a lagging search led to \(charges) charges")
}

func relaunchForgetsHandles(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let ledger = InMemoryPaymentLedger()
    let terminal = await facade(env, ledger: ledger)
    let lost = PaymentRequest(amount: usd(2_100), reference: "conf-relaunch-unknown")
    await env.presentNextCard(.approve)
    await env.inject(.answerLostAfterCharge)
    _ = try await terminal.takePayment(lost)
    var stored: PaymentRequest?
    if env.supportsOffline {
        let request = PaymentRequest(amount: usd(2_200), reference: "conf-relaunch-stored", offlinePolicy: .forceOffline)
        await env.presentNextCard(.approve)
        let session = try await terminal.takePayment(request)
        c.expect(session.state == .storedOffline, "a forced-offline payment ended \(session.state)")
        stored = request
    }

    // The app is killed and relaunched: a new adapter over the same vendor, the same ledger.
    let processor = try await env.relaunch()
    try await connect(env)
    let next = await facade(env, processor: processor, ledger: ledger)
    _ = await next.recover()
    if let stored {
        let session = try await next.session(reference: stored.reference)
        c.expect(session?.state == .storedOffline || session?.state == .forwarded,
                 "after a relaunch a payment the vendor stored is \(String(describing: session?.state)), expected storedOffline (or forwarded)")
    }
    await env.presentNextCard(.approve)
    let resolved = try await next.takePayment(lost)
    c.expect(resolved.state == .succeeded, "after a relaunch the charged payment is \(resolved.state), expected succeeded")
    c.expect(await env.charges(reference: lost.reference) == 1, "a relaunch led to a second charge")
    if let stored {
        await env.setNetwork(online: true)
        await env.forwardStoredPayments()
        let forwarded = await eventually {
            await next.pollOnce()
            return (try? await next.session(reference: stored.reference))?.state == .forwarded
        }
        c.expect(forwarded, "after a relaunch the stored payment's forwarding was never recorded")
        let charges = await env.charges(reference: stored.reference)
        c.expect(charges == 1, "the stored payment was charged \(charges) times")
    }
}

func cancelledMidCollect(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let terminal = await facade(env)
    let sale = PaymentRequest(amount: usd(2_300), reference: "conf-task-collect")
    await env.presentNextCard(.approve)
    await env.inject(.holdNextCard)
    let task = Task { try await terminal.takePayment(sale) }
    guard await eventually({ await env.isHolding() }) else {
        task.cancel()
        await env.releaseHeld()
        return c.fail("the held card never reached the vendor")
    }
    task.cancel()
    let session: PaymentSession
    do { session = try await task.value } catch { return c.fail("a cancelled task's payment threw \(error)") }
    await env.releaseHeld()
    c.expect(session.state == .canceled || session.state == .outcomeUnknown,
             "a task cancelled while the card was awaited ended \(session.state), expected canceled (vendor confirmed) or outcomeUnknown")
    c.expect(await env.charges(reference: sale.reference) == 0, "a payment cancelled mid-collect was charged")
    await env.presentNextCard(.approve)
    let retried = try await terminal.takePayment(sale)
    c.expect(retried.state == .succeeded, "taking the reference again after a cancellation ended \(retried.state)")
    c.expect(await env.charges(reference: sale.reference) == 1, "the retry after a cancellation charged twice")
}

func cancelledMidConfirm(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let terminal = await facade(env)
    let sale = PaymentRequest(amount: usd(2_400), reference: "conf-task-confirm")
    await env.presentNextCard(.approve)
    await env.inject(.holdNextAuthorization)
    let task = Task { try await terminal.takePayment(sale) }
    guard await eventually({ await env.isHolding() }) else {
        task.cancel()
        await env.releaseHeld()
        return c.fail("the held authorization never reached the vendor")
    }
    task.cancel()
    await env.releaseHeld()
    let session: PaymentSession
    do { session = try await task.value } catch { return c.fail("a cancelled task's payment threw \(error)") }
    let charges = await env.charges(reference: sale.reference)
    c.expect(session.state != .canceled || charges == 0,
             "a task cancelled mid-confirm recorded canceled while the vendor charged")
    c.expect(session.state != .failed && session.state != .declined,
             "a task cancelled mid-confirm recorded \(session.state) for an approved card")
    _ = await terminal.recover()
    let settled = try await terminal.takePayment(sale)
    c.expect(settled.state == .succeeded, "after reconciliation the payment is \(settled.state), expected succeeded")
    let total = await env.charges(reference: sale.reference)
    c.expect(total == 1, "a cancelled confirm and a retry charged \(total) times")
}

func anotherCardAfterDecline(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let terminal = await facade(env)
    let sale = PaymentRequest(amount: usd(2_500), reference: "conf-another-card")
    await env.presentNextCard(.decline)
    let declined = try await terminal.takePayment(sale)
    c.expect(declined.state == .declined, "the first card ended \(declined.state), expected declined")
    await env.presentNextCard(.approve)
    let second = try await terminal.takePayment(sale)
    c.expect(second.state == .succeeded, "another card for the same reference ended \(second.state), expected succeeded")
    c.expect(second.paymentAttempt == 2, "the second card is payment attempt \(second.paymentAttempt), expected 2")
    c.expect(second.transitions.contains { $0.from == .declined && $0.to == .created },
             "the session's history does not show the new attempt after the decline")
    let third = try await terminal.takePayment(sale)
    c.expect(third.state == .succeeded && third.paymentAttempt == 2, "a retry after success started another attempt")
    let charges = await env.charges(reference: sale.reference)
    c.expect(charges == 1, "the reference was charged \(charges) times")
}
