import Foundation

// MARK: - The vendor's queue is the truth (results never missed, guards, stored time)

func resultsNeverMissed(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let terminal = await facade(env)
    let run = Task { await terminal.run() }
    defer { run.cancel() }
    let sale = PaymentRequest(amount: usd(2_600), reference: "conf-results", offlinePolicy: .forceOffline)
    await env.presentNextCard(.approve)
    let stored = try await terminal.takePayment(sale)
    c.expect(stored.state == .storedOffline, "a forced-offline payment ended \(stored.state)")
    await env.setNetwork(online: true)
    await env.forwardStoredPayments()
    // Only time passes now: the facade's own polling must find the result, however the vendor reports it.
    var recorded = false
    for _ in 0..<40 {
        recorded = await eventually(attempts: 50) { (try? await terminal.session(reference: sale.reference))?.state == .forwarded }
        if recorded { break }
        await env.advanceClock(by: 6)
    }
    let state = try? await terminal.session(reference: sale.reference)?.state
    c.expect(recorded, "the vendor forwarded the payment but the facade never recorded it (state \(String(describing: state)))")
    let charges = await env.charges(reference: sale.reference)
    c.expect(charges == 1, "the forwarded payment was charged \(charges) times")
}

func guardsUseVendorQueue(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    // The vendor stores a payment Tender never recorded (a crash between the two).
    await env.presentNextCard(.approve)
    let (final, _) = try await pay(env, PaymentRequest(amount: usd(2_700), reference: "conf-guard", offlinePolicy: .forceOffline),
                                   routing: .offline)
    c.expect(final.state == .storedOffline, "a forced-offline payment ended \(final.state)")
    let terminal = await facade(env)
    do {
        try await terminal.signOut()
        c.fail("signing out was allowed while the vendor holds a stored payment the ledger does not know")
    } catch let error as PaymentError {
        c.expect(error.code == .unforwardedPaymentsAtRisk, "signing out was refused with \(error.code)")
    }
}

func storedTimeFromVendor(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let ledger = InMemoryPaymentLedger()
    let terminal = await facade(env, ledger: ledger)
    let request = PaymentRequest(amount: usd(2_800), reference: "conf-stored-time", offlinePolicy: .forceOffline)
    let storedAt = env.clock.now()
    // A crash between the vendor storing the payment and Tender recording it: the ledger has the write-ahead
    // record in processing; the vendor stored it at `storedAt`.
    var session = PaymentSession(request: request, scope: await terminal.scope, processor: env.processor.name,
                                 route: .offline, at: storedAt)
    try SessionChange(reference: request.reference, expectedState: .created, newState: .processing, at: storedAt)
        .apply(to: &session)
    try ledger.insert(session)
    await env.presentNextCard(.approve)
    // The attempt the facade would have sent (its vendor attempt id carries the scope).
    let attempt = PaymentAttempt(idScope: session.keyScheme.attemptIDScope(session.scope))
    let (final, _) = try await pay(env, request, routing: .offline, attempt: attempt)
    c.expect(final.state == .storedOffline, "a forced-offline payment ended \(final.state)")
    await env.advanceClock(by: 600)
    _ = await terminal.recover()
    _ = await terminal.pollOnce()
    guard let recorded = try await terminal.session(reference: request.reference) else { return c.fail("session vanished") }
    c.expect(recorded.state == .storedOffline,
             "a payment the vendor stored before a crash is \(recorded.state) after recovery, expected storedOffline")
    if let at = recorded.storedAt {
        c.expect(abs(at.timeIntervalSince(storedAt)) < 1,
                 "the stored time is Tender's recovery time (\(at)), not the vendor's (\(storedAt))")
    } else {
        c.fail("the recovered stored payment has no stored time")
    }
}

// MARK: - Refunds

func refunds(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    guard await env.processor.capabilities().supportsRefunds, await env.refunded(reference: "conf-refund") != nil else {
        return c.note("not checked: the environment takes no refunds")
    }
    try await connect(env)
    let terminal = await facade(env)
    await env.presentNextCard(.approve)
    let sale = PaymentRequest(amount: usd(3_000), reference: "conf-refund")
    let paid = try await terminal.takePayment(sale)
    c.expect(paid.state == .succeeded, "the payment to refund ended \(paid.state)")
    guard paid.state == .succeeded else { return }
    let first = try await terminal.refund(reference: sale.reference, amount: usd(1_000), reason: .requestedByCustomer)
    c.expect(first.status != .failed, "a partial refund failed: \(String(describing: first.error))")
    let second = try await terminal.refund(reference: sale.reference, amount: usd(2_000))
    c.expect(second.status != .failed, "a second partial refund failed: \(String(describing: second.error))")
    do {
        _ = try await terminal.refund(reference: sale.reference, amount: usd(1))
        c.fail("a refund beyond the captured amount was accepted")
    } catch let error as PaymentError {
        c.expect(error.code == .invalidAmount, "an over-refund was refused with \(error.code), expected invalid_amount")
    }
    // Pending refunds settle on the vendor's schedule: let time pass and the poller ask.
    var settled = false
    for _ in 0..<30 where !settled {
        _ = await terminal.pollOnce()
        settled = (try? await terminal.session(reference: sale.reference))?.refunds.allSatisfy { $0.status == .succeeded }
            ?? false
        if !settled { await env.advanceClock(by: 5) }
    }
    let session = try await terminal.session(reference: sale.reference)
    c.expect(settled, "the refunds never settled: \(String(describing: session?.refunds.map(\.status)))")
    c.expect(session?.refundedAmount == usd(3_000), "the ledger records \(String(describing: session?.refundedAmount)) refunded of 30.00")
    let atProcessor = await env.refunded(reference: sale.reference)
    c.expect(atProcessor == 3_000, "the processor refunded \(String(describing: atProcessor)), the ledger says 3000")
}
