import Foundation

// MARK: - Races between recovery, a retry and a scope switch; amounts after a lost capture answer (issue 28: 1–3)
//
// Each interleaving is forced with latches (``FaultInjectingLedger``'s holds, ``TestLatch``), never with sleeps.

/// Recovery decides `created → failed` for a leftover session (the vendor never heard of it) and is held before it
/// commits; meanwhile the cashier takes the reference again: its own reconcile records the failure, starts attempt 2
/// and the card is being read. Recovery's verdict was for attempt 1: committing it onto attempt 2 would make the
/// charge's outcome fail its compare-and-set and the next retry charge again.
func recoveryVerdictForEarlierAttempt(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let ledger = FaultInjectingLedger(wrapping: InMemoryPaymentLedger())
    let terminal = await facade(env, ledger: ledger)
    let scope = await terminal.scope
    let sale = PaymentRequest(amount: usd(2_100), reference: "conf-recover-race")
    // What a kill right after the write-ahead record leaves: the session created, the vendor never asked.
    try await ledger.insert(PaymentSession(request: sale, scope: scope, processor: env.processor.name, route: .online,
                                           at: env.clock.now()))
    _ = try? await env.processor.queueSnapshot()  // the adapter sees its store empty from now on
    await env.advanceClock(by: 180)  // past any search consistency window: "not found" is proof
    let commit = TestLatch()
    ledger.holdNextRecord(where: { $0.reference == sale.reference && $0.newState == .failed }) { await commit.wait() }
    let recovering = Task { await terminal.recover() }
    guard await eventually({ await commit.arrived }) else {
        await commit.open()
        _ = await recovering.value
        return c.fail("recovery never decided that \(sale.reference) failed: the race could not be set up")
    }
    // The cashier takes the reference again: its own reconcile records the failure and starts attempt 2; as attempt
    // 2's first record after its write-ahead (the vendor's id, or the outcome) reaches the ledger — the card is
    // being read — recovery commits what it decided for attempt 1.
    let recovered = Locked<RecoveryReport?>(nil)
    ledger.holdNextRecord(where: { $0.reference == sale.reference && $0.expectedState == .created
                                    && !$0.startsNewAttempt && $0.newState != .failed }) {
        await commit.open()
        let report = await recovering.value
        recovered.withLock { $0 = report }
    }
    await env.presentNextCard(.approve)
    do {
        let taken = try await terminal.takePayment(sale)
        c.expect(taken.state == .succeeded, "the retry approved at the vendor ended \(taken.state), expected succeeded")
        c.expect(taken.paymentAttempt == 2, "the retry is on payment attempt \(taken.paymentAttempt), expected 2")
    } catch {
        c.fail("the retry approved at the vendor was not recorded: \(error)")
    }
    await commit.open()
    let report = await recovering.value
    c.expect(recovered.current != nil, "recovery did not commit while attempt 2 was running: the race was not forced")
    c.expect(!report.resolved.contains { $0.reference == sale.reference },
             "recovery reports \(sale.reference) resolved by a verdict decided for its earlier attempt")
    let recorded = try await terminal.session(reference: sale.reference)
    c.expect(recorded?.state == .succeeded,
             "recovery's verdict for attempt 1 was committed onto attempt 2: the ledger says \(String(describing: recorded?.state)) for a charged card")
    await env.presentNextCard(.approve)
    let again = try? await terminal.takePayment(sale)
    c.expect(again?.state == .succeeded, "taking the reference again after the race ended \(String(describing: again?.state))")
    let charges = await env.charges(reference: sale.reference)
    c.expect(charges == 1, "a leftover session recovered while the cashier retried it was charged \(charges) times")
}

/// A scope switch that checked for running calls before a payment started, and assigns the scope while the payment
/// opens: the payment must keep the scope it started in, for its records and for the vendor's attempt id.
func scopeFixedAtPaymentStart(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let ledger = FaultInjectingLedger(wrapping: InMemoryPaymentLedger())
    let terminal = await facade(env, ledger: ledger)
    let home = await terminal.scope
    let other = LedgerScope(merchantID: home.merchantID, locationID: home.locationID + "-elsewhere")
    let sale = PaymentRequest(amount: usd(1_350), reference: "conf-switch-race")
    // The switch reads what is running (nothing), then waits in the ledger.
    let switchGate = TestLatch()
    ledger.holdNextSessionsInStates { await switchGate.wait() }
    let switching = Task { try await terminal.switchScope(to: other) }
    guard await eventually({ await switchGate.arrived }) else {
        await switchGate.open()
        _ = await switching.result
        return c.fail("the scope switch never reached the ledger: the race could not be set up")
    }
    // The payment starts; while it opens (the ledger reading the stored aggregates) the switch finishes.
    ledger.holdNextStoredSummary {
        await switchGate.open()
        _ = await switching.result
    }
    await env.presentNextCard(.approve)
    let taken: PaymentSession?
    do {
        taken = try await terminal.takePayment(sale)
    } catch {
        taken = nil
        c.fail("the payment that started during a scope switch threw: \(error)")
    }
    let switched = (try? await switching.value) != nil
    c.expect(taken?.state == .succeeded, "the payment ended \(String(describing: taken?.state)), expected succeeded")
    c.expect(taken.map { $0.scope == home } ?? true, "the payment's session is in \(String(describing: taken?.scope)), not \(home)")
    let atHome = try await ledger.session(reference: sale.reference, scope: home)
    c.expect(atHome?.state == .succeeded,
             "the payment started in \(home) is recorded there as \(String(describing: atHome?.state)) (switch \(switched ? "succeeded" : "refused")): its records went to the other scope")
    c.expect(try await ledger.session(reference: sale.reference, scope: other) == nil,
             "the payment started in \(home) has a record in \(other)")
    let charges = await env.charges(reference: sale.reference)
    c.expect(charges == 1, "the payment was charged \(charges) times")
    if switched {
        let now = await terminal.scope
        c.expect(now == other, "the switch succeeded but the scope is \(now)")
    }
}

/// A capture whose answer is lost: reconciliation (the queue poller, and recovery after a relaunch) records what the
/// vendor captured — a partial capture's amount, not the authorization's — so `captured` and `refundableAmount` are
/// the vendor's.
func lostCaptureAnswerAmount(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    let capabilities = await env.processor.capabilities()
    guard capabilities.supportsManualCapture else {
        return c.note("not checked: \(env.processor.name) takes no manual capture")
    }
    try await connect(env)
    let faulty = FaultInjectingProcessor(wrapping: env.processor)
    let ledger = InMemoryPaymentLedger()
    let terminal = await facade(env, processor: faulty, ledger: ledger)
    if !capabilities.supportsPartialCapture {
        c.note("\(env.processor.name) captures only the whole: checked that the whole is recorded from the vendor")
    }
    for (index, path) in ["poller", "recovery after a relaunch"].enumerated() {
        let reference = "conf-lost-capture-\(index)"
        let sale = PaymentRequest(amount: usd(2_000), reference: reference, captureMode: .manual)
        let part = capabilities.supportsPartialCapture ? usd(1_500) : usd(2_000)
        await env.presentNextCard(.approve)
        faulty.script(nil, .loseAnswer)  // the authorization goes through; the capture's answer is lost
        let held = try await terminal.takePayment(sale)
        guard held.state == .authorized else {
            c.fail("\(path): a manual-capture payment ended \(held.state), expected authorized")
            continue
        }
        do {
            let answered = try await terminal.capture(reference: reference, amount: part)
            c.fail("\(path): a capture whose answer was lost returned \(answered.state)")
        } catch {}
        let reconciled: PaymentSession?
        if index == 0 {
            await terminal.pollOnce()
            reconciled = try await terminal.session(reference: reference)
        } else {
            let relaunched = await facade(env, processor: faulty, ledger: ledger)
            _ = await relaunched.recover()
            reconciled = try await relaunched.session(reference: reference)
        }
        c.expect(reconciled?.state == .succeeded,
                 "\(path): a capture the vendor made, answer lost, is \(String(describing: reconciled?.state))")
        c.expect(reconciled?.captured == part && reconciled?.refundableAmount == part,
                 "\(path): after the vendor captured \(part) (answer lost) the ledger says captured \(String(describing: reconciled?.captured)), refundable \(String(describing: reconciled?.refundableAmount))")
        if let atVendor = await env.captured(reference: reference) {
            c.expect(atVendor == part.minorUnits, "\(path): the vendor captured \(atVendor), expected \(part.minorUnits)")
        }
    }
}
