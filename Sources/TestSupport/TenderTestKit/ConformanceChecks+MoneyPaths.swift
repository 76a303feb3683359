import Foundation

// MARK: - The facade's money paths over any adapter (issue 18): scope switches in flight, a ledger that fails after
// the vendor charged, partial captures, the processor's amount ceiling.

func scopeSwitchInFlight(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let terminal = await facade(env)
    let home = await terminal.scope
    let other = LedgerScope(merchantID: home.merchantID, locationID: home.locationID + "-other")
    let sale = PaymentRequest(amount: usd(1_300), reference: "conf-switch")
    await env.presentNextCard(.approve)
    await env.inject(.holdNextAuthorization)
    let payment = Task { try await terminal.takePayment(sale) }
    guard await eventually(attempts: 5_000, { await env.isHolding() }) else {
        c.fail("the authorization was never held: the payment could not be caught in flight")
        await env.releaseHeld()
        _ = try? await payment.value
        return
    }
    // While the vendor authorizes, nothing may leave the scope the payment is recorded in, acknowledged or not.
    for acknowledged in [false, true] {
        do {
            try await terminal.switchScope(to: other, acknowledgingLossOfStoredPayments: acknowledged)
            c.fail("the scope was switched while payment \(sale.reference) was in flight (acknowledged: \(acknowledged))")
        } catch let error as PaymentError {
            c.expect(error.code == .unforwardedPaymentsAtRisk, "a switch in flight was refused with \(error.code)")
            c.expect(error.message.contains(sale.reference), "the refusal does not name the payment in flight: \(error.message)")
        }
    }
    do {
        try await terminal.signOut()
        c.fail("signing out was allowed while payment \(sale.reference) was in flight")
    } catch let error as PaymentError {
        c.expect(error.code == .unforwardedPaymentsAtRisk, "a sign-out in flight was refused with \(error.code)")
    }
    c.expect(await terminal.scope == home, "the scope changed while a payment was in flight")
    await env.releaseHeld()
    let done = try await payment.value
    c.expect(done.state == .succeeded, "the payment caught in flight ended \(done.state), expected succeeded")
    c.expect(try await terminal.session(reference: sale.reference)?.state == done.state,
             "the payment is not recorded in the scope it was taken in")
    c.expect(await env.charges(reference: sale.reference) == 1, "the payment caught in flight was not charged once")
    do {
        try await terminal.switchScope(to: other)
    } catch {
        c.fail("with nothing unfinished the switch was still refused: \(error)")
    }
    // In the new scope: a payment whose answer was lost blocks sign-out until its outcome is known.
    await env.presentNextCard(.approve)
    await env.inject(.answerLostAfterCharge)
    let lost = try await terminal.takePayment(PaymentRequest(amount: usd(1_400), reference: "conf-switch-lost"))
    guard !lost.state.isFinal else {
        return c.note("the adapter settled a lost answer at once (\(lost.state)): sign-out with an unknown outcome not exercised")
    }
    do {
        try await terminal.signOut()
        c.fail("signing out was allowed with payment conf-switch-lost \(lost.state)")
    } catch let error as PaymentError {
        c.expect(error.message.contains("conf-switch-lost"), "the refusal does not name the unfinished payment: \(error.message)")
    }
}

func ledgerFailureAfterCharge(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let ledger = FaultInjectingLedger(wrapping: InMemoryPaymentLedger())
    let terminal = await facade(env, ledger: ledger)
    let sale = PaymentRequest(amount: usd(1_600), reference: "conf-ledger-fails")
    // The disk fails exactly when the vendor's approval is to be recorded: the card is charged, the ledger knows
    // only the write-ahead record.
    ledger.failWrites(times: 1) { $0.newState == .succeeded }
    await env.presentNextCard(.approve)
    do {
        let session = try await terminal.takePayment(sale)
        c.fail("takePayment returned \(session.state) although the charge's outcome could not be recorded")
    } catch let error as PaymentError {
        c.expect(error.code == .outcomeUnknown, "a ledger failure after the charge answered \(error.code), expected outcome_unknown")
        c.expect(error.recovery == .retrySamePayment,
                 "a ledger failure after the charge advises \(error.recovery), expected retrySamePayment")
        c.expect(error.message.contains("may have been charged"), "the message does not say the card may have been charged")
    }
    c.expect(ledger.failedWrites == 1, "the outcome's write was never attempted (\(ledger.failedWrites) failed)")
    c.expect(await env.charges(reference: sale.reference) == 1, "the vendor did not charge once")
    let left = try await terminal.session(reference: sale.reference)
    c.expect(left.map { !$0.state.isFinal } ?? false,
             "the write-ahead record is missing or final: \(String(describing: left?.state))")
    // recover() repairs the record from the write-ahead row once the vendor's search can see the payment.
    await env.advanceClock(by: 180)
    _ = await terminal.recover()
    let repaired = try await terminal.session(reference: sale.reference)
    c.expect(repaired?.state == .succeeded, "recover() left the payment \(String(describing: repaired?.state))")
    // The cashier retries the same reference, as the error said: the same payment, never a second charge.
    await env.presentNextCard(.approve)
    let retried = try await takeAgainAfterWaits(env, terminal, sale, c)
    c.expect(retried.state == .succeeded, "retrying the same reference ended \(retried.state)")
    c.expect(await env.charges(reference: sale.reference) == 1, "the retry charged again")
}

func partialCapture(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    let capabilities = await env.processor.capabilities()
    guard capabilities.supportsManualCapture else {
        return c.note("not checked: \(env.processor.name) takes no manual capture")
    }
    try await connect(env)
    let terminal = await facade(env)
    let tip = capabilities.supportsTips ? usd(200) : nil
    let sale = PaymentRequest(amount: usd(1_800), reference: "conf-partial", captureMode: .manual, tip: tip)
    let total = usd(1_800 + (tip?.minorUnits ?? 0))
    await env.presentNextCard(.approve)
    let held = try await terminal.takePayment(sale)
    c.expect(held.state == .authorized, "a manual-capture payment ended \(held.state), expected authorized")
    guard held.state == .authorized else { return }
    c.expect(held.captured == usd(0) && held.refundableAmount == usd(0), "an authorization counts as captured")
    let part = usd(total.minorUnits * 3 / 4)
    guard capabilities.supportsPartialCapture else {
        c.note("\(env.processor.name) cannot capture part of an authorization: checked that a partial capture is refused before the vendor and that the whole, tip included, is recorded as captured")
        do {
            _ = try await terminal.capture(reference: sale.reference, amount: part)
            c.fail("a partial capture was accepted by a processor that captures only the whole")
        } catch let error as PaymentError {
            c.expect(error.code == .invalidAmount, "a partial capture was refused with \(error.code), expected invalid_amount")
        }
        c.expect(try await terminal.session(reference: sale.reference)?.state == .authorized,
                 "a refused partial capture changed the payment")
        if let atVendor = await env.captured(reference: sale.reference) {
            c.expect(atVendor == 0, "a refused partial capture captured \(atVendor) at the vendor")
        }
        let full = try await terminal.capture(reference: sale.reference)
        c.expect(full.state == .succeeded, "capturing the whole ended \(full.state)")
        c.expect(full.captured == total && full.refundableAmount == total,
                 "the whole capture recorded \(full.captured) captured, \(full.refundableAmount) refundable of \(total)")
        if let atVendor = await env.captured(reference: sale.reference) {
            c.expect(atVendor == total.minorUnits, "the vendor captured \(atVendor), the ledger says \(total.minorUnits)")
        }
        return
    }
    let captured = try await terminal.capture(reference: sale.reference, amount: part)
    c.expect(captured.state == .succeeded, "a partial capture ended \(captured.state)")
    c.expect(captured.capturedAmount == part && captured.captured == part,
             "a partial capture of \(part) recorded \(String(describing: captured.capturedAmount))")
    c.expect(captured.refundableAmount == part, "after capturing \(part) the refundable amount is \(captured.refundableAmount)")
    let reread = try await terminal.session(reference: sale.reference)
    c.expect(reread?.captured == part, "the ledger reads back \(String(describing: reread?.captured)) captured")
    if let atVendor = await env.captured(reference: sale.reference) {
        c.expect(atVendor == part.minorUnits, "the vendor captured \(atVendor), the ledger says \(part.minorUnits)")
    } else {
        c.note("the environment does not report the vendor's captured amount: checked the ledger's side only")
    }
    guard capabilities.supportsRefunds, await env.refunded(reference: sale.reference) != nil else {
        return c.note("no refunds in this environment: the default refund of a partial capture not exercised")
    }
    let refund = try await terminal.refund(reference: sale.reference)
    c.expect(refund.amount == part, "the default refund after a partial capture asked \(refund.amount), expected \(part)")
    c.expect(refund.status != .failed, "the default refund after a partial capture failed: \(String(describing: refund.error))")
    do {
        _ = try await terminal.refund(reference: sale.reference, amount: usd(1))
        c.fail("a refund beyond the partial capture was accepted")
    } catch let error as PaymentError {
        c.expect(error.code == .invalidAmount, "a refund beyond the capture was refused with \(error.code)")
    }
}

func amountAboveMaximum(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    guard let limits = await env.processor.capabilities().amountLimits, let maximum = limits.maximum(for: .usd) else {
        return c.note("\(env.processor.name) declares no USD maximum: only Tender's own ceiling applies")
    }
    guard maximum < PaymentRequest.maximumMajorUnits * 100 else {
        return c.note("\(env.processor.name)'s USD maximum is above Tender's own ceiling, which refuses first")
    }
    try await connect(env)
    let terminal = await facade(env)
    let over = PaymentRequest(amount: usd(maximum + 1), reference: "conf-too-large")
    do {
        let session = try await terminal.takePayment(over)
        c.fail("\(over.amount) above \(env.processor.name)'s maximum was taken: \(session.state)")
    } catch let error as PaymentError {
        c.expect(error.code == .invalidAmount && error.phase == .validation,
                 "an amount above the maximum was refused with \(error.code) during \(error.phase)")
        c.expect(error.message.contains(usd(maximum).description), "the refusal does not name the limit: \(error.message)")
    }
    c.expect(try await terminal.session(reference: over.reference) == nil, "a refused amount was recorded")
    c.expect(await env.charges(reference: over.reference) == 0, "a refused amount was charged")
}
