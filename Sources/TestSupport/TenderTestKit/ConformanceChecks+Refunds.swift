import Foundation

// MARK: - Refunds that change after they were final; idempotency keys across locations

/// A facade for these checks: like ``facade(_:processor:ledger:)``, scoped to `locationID` of the kit's merchant, and
/// looking succeeded refunds up again every minute.
func facade(_ env: any ConformanceEnvironment, locationID: String, ledger: any PaymentLedger = InMemoryPaymentLedger())
    async -> PaymentTerminal {
    let terminal = PaymentTerminal(
        processor: env.processor, ledger: ledger,
        scope: LedgerScope(merchantID: "conformance", locationID: locationID),
        limits: .single(perPayment: usd(50_000), storedTotal: usd(500_000), storedCount: 100),
        polling: QueuePolling(interval: 5, maximumInterval: 5, refundCheckInterval: 60), clock: env.clock)
    await terminal.refreshNetworkStatus()
    return terminal
}

/// Polls the facade, moving the clock 5 seconds at a time, until `condition` holds or `seconds` have passed.
func pollUntil(_ env: any ConformanceEnvironment, _ terminal: PaymentTerminal, seconds: Double = 150,
               _ condition: () async -> Bool) async -> Bool {
    var waited = 0.0
    while true {
        _ = await terminal.pollOnce()
        if await condition() { return true }
        guard waited < seconds else { return false }
        await env.advanceClock(by: 5)
        waited += 5
    }
}

/// Stripe documents refunds that move from `succeeded` to `failed` later (a refund to an expired or canceled card):
/// the ledger must follow the refund until the processor can no longer change it, record the failure with an event,
/// and let the amount be refunded again.
func refundFailsAfterSuccess(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    guard await env.processor.capabilities().supportsRefunds else {
        return c.notRun("\(env.processor.name) takes no refunds")
    }
    let failsAfter = 600.0
    await env.presentNextCard(.approve)
    switch await env.failNextRefundAfterSuccess(after: failsAfter) {
    case nil:
        return c.fail("the environment does not say whether its vendor can fail a refund after success: implement failNextRefundAfterSuccess(after:), returning .unsupported(reason) if it cannot")
    case .unsupported(let reason)?:
        return c.notRun(reason)
    case .supported?:
        break
    }
    let window = await env.processor.capabilities().refundChangeWindow
    c.expect(window > failsAfter,
             "the adapter follows a succeeded refund for \(window) s, but its vendor fails one \(failsAfter) s after success")
    try await connect(env)
    let terminal = await facade(env, locationID: env.locationID)
    let events = Locked<[RefundRecord]>([])
    let subscription = terminal.events
    let listener = Task {
        for await event in subscription {
            if case .refundChanged(let record) = event { events.withLock { $0.append(record) } }
        }
    }
    defer { listener.cancel() }
    let sale = PaymentRequest(amount: usd(3_000), reference: "conf-refund-fails-later")
    let paid = try await terminal.takePayment(sale)
    guard paid.state == .succeeded else { return c.fail("the payment to refund ended \(paid.state)") }
    let first = try await terminal.refund(reference: sale.reference, amount: usd(1_000))
    c.expect(first.status != .failed, "the refund failed at once: \(String(describing: first.error))")
    func recorded() async -> RefundRecord? {
        try? await terminal.session(reference: sale.reference)?.refunds.first { $0.id == first.id }
    }
    let succeeded = await pollUntil(env, terminal, seconds: 120) { await recorded()?.status == .succeeded }
    let current = await recorded()
    c.expect(succeeded, "the refund never succeeded: \(String(describing: current))")
    guard succeeded else { return }
    c.expect(try await terminal.session(reference: sale.reference)?.refundableAmount == usd(2_000),
             "a succeeded refund of 10.00 does not count against the refundable amount")
    // The vendor fails it later: the poller's next look after that records it.
    let failed = await pollUntil(env, terminal, seconds: failsAfter + 300) { await recorded()?.status == .failed }
    let after = await recorded()
    c.expect(failed, "a refund the vendor failed after success is still \(String(describing: after?.status)) in the ledger")
    guard failed, let after else { return }
    c.expect(after.error?.code == .refundFailed, "the failure is recorded as \(String(describing: after.error?.code))")
    c.expect(after.processorRefundID == first.processorRefundID || first.processorRefundID == nil,
             "the failed refund changed its processor id")
    _ = await eventually { events.current.contains { $0.id == first.id && $0.status == .failed } }
    c.expect(events.current.contains { $0.id == first.id && $0.status == .failed },
             "no refundChanged event reported the failure")
    let session = try await terminal.session(reference: sale.reference)
    c.expect(session?.refundableAmount == usd(3_000),
             "after the failure \(String(describing: session?.refundableAmount)) is refundable, expected all 30.00")
    if let atProcessor = await env.refunded(reference: sale.reference) {
        c.expect(atProcessor == 0, "the processor still counts \(atProcessor) of the failed refund")
    }
    // It can be refunded again, under a new key.
    let again = try await terminal.refund(reference: sale.reference, amount: usd(3_000))
    c.expect(again.status != .failed && again.id != first.id,
             "refunding again after the failure was \(again.status) (\(String(describing: again.error)))")
}

/// A reference is unique only per merchant and location: two locations of one vendor account taking the same
/// references must capture, void and refund their own payments, each under its own keys.
func keysAcrossLocations(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let first = await facade(env, locationID: env.locationID)
    let refunds = await env.processor.capabilities().supportsRefunds
    struct Sale { var reference: String; var capture: CaptureMode; var cents: Int64 }
    let sales = [Sale(reference: "conf-1001", capture: .manual, cents: 1_000),
                 Sale(reference: "conf-1002", capture: .manual, cents: 1_100),
                 Sale(reference: "conf-1003", capture: .automatic, cents: 1_200)]
    var firstIDs: [String: String] = [:]
    for sale in sales {
        await env.presentNextCard(.approve)
        let paid = try await first.takePayment(PaymentRequest(amount: usd(sale.cents), reference: sale.reference,
                                                              captureMode: sale.capture))
        firstIDs[sale.reference] = paid.processorPaymentID
        c.expect(paid.state == (sale.capture == .manual ? .authorized : .succeeded),
                 "\(sale.reference) at the first location ended \(paid.state)")
    }
    c.expect(try await first.capture(reference: "conf-1001").state == .succeeded, "the first capture failed")
    c.expect(try await first.void(reference: "conf-1002").state == .canceled, "the first void failed")
    if refunds {
        c.expect(try await first.refund(reference: "conf-1003", amount: usd(500)).status != .failed,
                 "the first location's refund failed")
    }

    let moved: ConformanceLocation?
    do { moved = try await env.moveToAnotherLocation() } catch { return c.fail("moving to another location threw \(error)") }
    let other: String
    switch moved {
    case nil:
        return c.fail("the environment does not say whether its vendor takes payments at a second location of one account: implement moveToAnotherLocation(), returning .unsupported(reason) if it cannot")
    case .unsupported(let reason)?:
        return c.notRun(reason)
    case .moved(let locationID)?:
        other = locationID
    }
    let second = await facade(env, locationID: other)
    guard let reader = try? await firstReader(env.processor) else { return c.fail("no reader at \(other)") }
    _ = try await second.connectReader(reader)
    // The same references (the same amounts for two of them: a vendor answering the first location's payment for
    // the same order number and amount would look like success).
    for sale in sales {
        await env.presentNextCard(.approve)
        let before = await env.charges(reference: sale.reference)
        let cents = sale.capture == .manual && sale.reference == "conf-1002" ? sale.cents : sale.cents + 1_000
        let paid = try await second.takePayment(PaymentRequest(amount: usd(cents), reference: sale.reference,
                                                               captureMode: sale.capture))
        c.expect(paid.state == (sale.capture == .manual ? .authorized : .succeeded),
                 "\(sale.reference) at the second location ended \(paid.state) (\(String(describing: paid.lastError)))")
        c.expect(paid.processorPaymentID == nil || paid.processorPaymentID != firstIDs[sale.reference],
                 "\(sale.reference) at the second location is the first location's vendor payment")
        let charged = await env.charges(reference: sale.reference)
        c.expect(charged == before + 1,
                 "taking \(sale.reference) at the second location charged \(charged - before) times, expected once")
    }
    do {
        let captured = try await second.capture(reference: "conf-1001")
        c.expect(captured.state == .succeeded, "the second location's capture ended \(captured.state)")
    } catch { c.fail("the second location's capture failed: \(error)") }
    do {
        let voided = try await second.void(reference: "conf-1002")
        c.expect(voided.state == .canceled, "the second location's void ended \(voided.state)")
    } catch { c.fail("the second location's void failed: \(error)") }
    guard refunds else { return }
    let refund = try await second.refund(reference: "conf-1003", amount: usd(700))
    c.expect(refund.status != .failed,
             "the second location's refund failed: \(String(describing: refund.error))")
    let settled = await pollUntil(env, second) {
        (try? await second.session(reference: "conf-1003"))?.refunds.allSatisfy { $0.status == .succeeded } ?? false
    }
    _ = await pollUntil(env, first) {
        (try? await first.session(reference: "conf-1003"))?.refunds.allSatisfy { $0.status == .succeeded } ?? false
    }
    c.expect(settled, "the second location's refund never settled")
    if let atProcessor = await env.refunded(reference: "conf-1003") {
        c.expect(atProcessor == 1_200, "the processor refunded \(atProcessor) of conf-1003, expected 5.00 + 7.00")
    }
}
