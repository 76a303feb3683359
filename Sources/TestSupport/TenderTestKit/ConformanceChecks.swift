import Foundation

// MARK: - The checks

func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }


/// Starts a payment and records the intermediate updates.
func pay(_ env: any ConformanceEnvironment, _ request: PaymentRequest, routing: RoutingDecision = .online,
                 attempt: PaymentAttempt = PaymentAttempt(),
                 onUpdate: (@Sendable (ProcessorPaymentUpdate) async -> Void)? = nil) async throws
    -> (ProcessorPaymentUpdate, [PaymentState]) {
    let seen = Locked<[PaymentState]>([])
    let final = try await env.processor.startPayment(request, routing: routing, attempt: attempt) { update in
        seen.withLock { $0.append(update.state) }
        await onUpdate?(update)
    }
    return (final, seen.current)
}

func connect(_ env: any ConformanceEnvironment) async throws {
    _ = try await env.processor.connectReader(try await firstReader(env.processor), locationID: env.locationID)
}

/// The first reader the processor finds, of the first kind it offers (Bluetooth, then internet, Tap to Pay, USB).
func firstReader(_ processor: any PaymentProcessor) async throws -> Reader {
    for kind in [ReaderKind.bluetooth, .internet, .tapToPay, .usb] {
        guard let readers = try? await processor.discoverReaders(kind, timeout: 10) else { continue }
        if let reader = readers.first { return reader }
    }
    throw PaymentError(.readerNotConnected, recovery: .reconnectReader, phase: .readerConnection, message: "no reader discovered")
}

func capabilities(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    let caps = await env.processor.capabilities()
    c.expect(caps.processorName == env.processor.name, "capabilities name \(caps.processorName) ≠ processor name \(env.processor.name)")
    c.expect((caps.offlineLimits != nil) == env.supportsOffline,
             "offline limits \(caps.offlineLimits == nil ? "absent" : "present") but supportsOffline is \(env.supportsOffline)")
}

func onlineApprove(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    await env.presentNextCard(.approve)
    let (final, seen) = try await pay(env, PaymentRequest(amount: usd(1_234), reference: "conf-approve"))
    c.expect(final.state == .succeeded, "an approved automatic-capture payment ended \(final.state), expected succeeded")
    c.expect(final.reference == "conf-approve", "final update names reference \(final.reference)")
    c.expect(final.processorPaymentID != nil, "an online approval has no processor id")
    c.expect(final.error == nil, "an approval carries an error: \(String(describing: final.error))")
    c.expect(seen.first == .collecting, "first update was \(String(describing: seen.first)), expected collecting")
    c.expect(seen.contains(.processing), "no processing update was reported")
    if let collecting = seen.firstIndex(of: .collecting), let processing = seen.firstIndex(of: .processing) {
        c.expect(collecting < processing, "processing was reported before collecting")
    }
    c.expect(await env.charges(reference: "conf-approve") == 1, "expected exactly one charge")
}

func decline(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    await env.presentNextCard(.decline)
    let (final, _) = try await pay(env, PaymentRequest(amount: usd(500), reference: "conf-decline"))
    c.expect(final.state == .declined, "a declined card ended \(final.state), expected declined")
    c.expect(!final.state.isApprovedOrPending, "a declined card was reported as approved or pending (\(final.state))")
    c.expect(final.error?.code == .cardDeclined, "a decline's code is \(String(describing: final.error?.code)), expected card_declined")
    c.expect(final.error?.recovery == .collectAnotherCard,
             "a decline's recovery is \(String(describing: final.error?.recovery)), expected collectAnotherCard")
    c.expect(final.error?.vendor != nil, "a decline does not keep the vendor's raw error")
    c.expect(await env.charges(reference: "conf-decline") == 0, "a declined card was charged")
}

func manualCapture(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    await env.presentNextCard(.approve)
    let (final, _) = try await pay(env, PaymentRequest(amount: usd(2_000), reference: "conf-manual", captureMode: .manual))
    c.expect(final.state == .authorized, "a manual-capture approval ended \(final.state), expected authorized")
    guard let id = final.processorPaymentID else { return c.fail("an authorization has no processor id") }
    let captured = try await env.processor.capturePayment(reference: "conf-manual", processorPaymentID: id, amount: usd(2_000))
    c.expect(captured.state == .succeeded, "capture ended \(captured.state), expected succeeded")
}

func requireOnlineWhileOffline(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    await env.setNetwork(online: false)
    await env.presentNextCard(.approve)
    let request = PaymentRequest(amount: usd(700), reference: "conf-require-online", offlinePolicy: .requireOnline)
    let final: ProcessorPaymentUpdate
    do {
        final = try await pay(env, request, routing: .online).0
    } catch let error as PaymentError {
        c.expect(error.recovery != .collectAnotherCard, "a network failure asks for another card")
        return
    }
    c.expect(final.state == .failed || final.state == .declined || final.state == .canceled,
             "an online-only payment while offline ended \(final.state)")
    c.expect(final.state != .storedOffline, "an online-only payment was stored offline")
    c.expect(final.error.map { [.goOnline, .retrySamePayment, .waitAndRetry].contains($0.recovery) } ?? false,
             "an online-only payment while offline should say to go online, got \(String(describing: final.error?.recovery))")
    c.expect(await env.charges(reference: "conf-require-online") == 0, "an online-only payment while offline was charged")
}
