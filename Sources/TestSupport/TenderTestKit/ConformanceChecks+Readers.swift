import Foundation

// MARK: - Reader checks

/// How long (wall time) a cancelled or timed-out discovery may take to end before the check calls it hung.
private let discoveryGrace: Double = 5

/// Consumes `stream` in a task; returns whether the task ended within `seconds` of wall time after `trigger` ran.
private func ends(_ stream: AsyncThrowingStream<Reader, any Error>, within seconds: Double,
                  after trigger: @Sendable (Task<Int, any Error>) async -> Void) async -> (ended: Bool, count: Int?) {
    let consumer = Task { () throws -> Int in
        var count = 0
        for try await _ in stream { count += 1 }
        return count
    }
    await trigger(consumer)
    let finished = Locked<Int??>(nil)
    let watcher = Task {
        let count = try? await consumer.value
        finished.withLock { $0 = .some(count) }
    }
    let deadline = Date().addingTimeInterval(seconds)
    while finished.current == nil, Date() < deadline { try? await Task.sleep(nanoseconds: 5_000_000) }
    watcher.cancel()
    guard let outcome = finished.current else { return (false, nil) }
    return (true, outcome)
}

/// A discovery with no timeout ends when the consuming task is cancelled (the adapter stops its vendor's discovery);
/// one with a timeout ends on its own. Every kind the processor offers is tried; a kind it does not offer must
/// throw `featureUnavailable`, not hang.
func readerDiscoveryCancellation(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    var offered: [ReaderKind] = []
    for kind in ReaderKind.allCases {
        // Until cancelled: wait for the first reader (or the end), then cancel the consumer.
        let (ended, _) = await ends(env.processor.readerDiscovery(kind, timeout: 0), within: discoveryGrace) { consumer in
            try? await Task.sleep(nanoseconds: 50_000_000)
            consumer.cancel()
        }
        c.expect(ended, "a \(kind.rawValue) discovery without a timeout did not end when its task was cancelled")
        do {
            // With a timeout: it ends on its own (the environment's clock is moved past it for adapters that wait).
            let (timedOut, _) = await ends(env.processor.readerDiscovery(kind, timeout: 2), within: discoveryGrace) { _ in
                for _ in 0..<4 {
                    try? await Task.sleep(nanoseconds: 20_000_000)
                    await env.advanceClock(by: 1)
                }
            }
            c.expect(timedOut, "a \(kind.rawValue) discovery with a 2-second timeout did not end")
            if try await !env.processor.discoverReaders(kind, timeout: 2).isEmpty { offered.append(kind) }
        } catch let error as PaymentError {
            // It ended, which is the rule; the code should say why (an unwired bridge may refuse another way).
            if error.code != .featureUnavailable {
                c.note("\(kind.rawValue) discovery refused with \(error.code), not featureUnavailable")
            }
        }
    }
    c.expect(!offered.isEmpty, "no discovery of any kind found a reader")
    c.note("readers found by \(offered.map(\.rawValue).joined(separator: ", "))")
}

/// After a reader reports a required update, the facade refuses payments (`readerUpdateRequired`, nothing charged)
/// until ``PaymentTerminal/installReaderUpdate()`` installed it; then the payment goes through.
func requiredUpdateBlocksPayments(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let support = await env.injectReaderFault(.updateRequired)
    guard support == .supported else {
        if case .unsupported(let reason)? = support { return c.notRun(reason) }
        return c.fail("the environment has not said whether its vendor's readers can require an update (injectReaderFault)")
    }
    let terminal = PaymentTerminal(processor: env.processor,
                                   scope: LedgerScope(merchantID: "conformance", locationID: env.locationID),
                                   clock: env.clock)
    await terminal.handle(.networkStatusChanged(.online))
    let update = await terminal.connectedReader()?.availableUpdate
    c.expect(update?.isRequired == true, "the connected reader does not report the required update (\(String(describing: update)))")
    await env.presentNextCard(.approve)
    let request = PaymentRequest(amount: usd(2_100), reference: "conf-update")
    do {
        _ = try await terminal.takePayment(request)
        c.fail("a payment went ahead while the reader had a required update to install")
    } catch let error as PaymentError {
        c.expect(error.code == .readerUpdateRequired, "the refusal was \(error.code), not readerUpdateRequired")
    }
    c.expect(await env.charges(reference: "conf-update") == 0, "a payment refused for the update was charged")
    // Install it, moving the environment's clock for vendors that install on their own over time (Square).
    let install = Task { try await terminal.installReaderUpdate() }
    let done = Locked<Bool>(false)
    let watcher = Task { _ = try? await install.value; done.withLock { $0 = true } }
    for _ in 0..<200 where !done.current {
        try? await Task.sleep(nanoseconds: 5_000_000)
        await env.advanceClock(by: 5)
    }
    watcher.cancel()
    do { try await install.value } catch { c.fail("installing the required update failed: \(error)") }
    c.expect(await terminal.connectedReader()?.availableUpdate?.isRequired != true,
             "the reader still reports a required update after it was installed")
    await env.presentNextCard(.approve)
    let session = try await terminal.takePayment(request)
    c.expect(session.state == .succeeded, "after the update the payment ended \(session.state)")
    let charges = await env.charges(reference: "conf-update")
    c.expect(charges == 1, "after the update the reference was charged \(charges) times")
}

/// The connected reader's features are what the facade goes by: a cart is shown only on a reader with
/// `cartDisplay`, an on-reader tip asked only of one with `onReaderTipping`; what it lacks is refused with
/// `featureUnavailable` before the vendor is asked, and nothing is charged.
func readerCapabilitiesHonoured(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    let discovered = try await firstReader(env.processor)
    _ = try await env.processor.connectReader(discovered, locationID: env.locationID)
    let terminal = PaymentTerminal(processor: env.processor,
                                   scope: LedgerScope(merchantID: "conformance", locationID: env.locationID),
                                   clock: env.clock)
    await terminal.handle(.networkStatusChanged(.online))
    guard let reader = await terminal.connectedReader() else { return c.fail("no connected reader after connecting one") }
    c.expect(reader.id == discovered.id && reader.kind == discovered.kind,
             "the connected reader (\(reader.id), \(reader.kind)) is not the one connected (\(discovered.id), \(discovered.kind))")
    c.expect(reader.features == discovered.features,
             "the connected reader's features \(reader.features) differ from the discovered reader's \(discovered.features)")
    let cart = ReaderCart(lineItems: [.init("Flat white", amount: usd(450))], tax: usd(36))
    do {
        try await terminal.setReaderDisplay(cart)
        c.expect(reader.features.contains(.cartDisplay), "a reader without cartDisplay accepted a cart")
    } catch let error as PaymentError {
        c.expect(!reader.features.contains(.cartDisplay), "a reader with cartDisplay refused a cart: \(error)")
        c.expect(error.code == .featureUnavailable, "a cart on a reader without a screen was refused with \(error.code)")
    }
    if !reader.features.contains(.onReaderTipping) {
        var request = PaymentRequest(amount: usd(1_000), reference: "conf-reader-tip")
        request.tipEligibleAmount = usd(1_000)
        await env.presentNextCard(.approve)
        do {
            _ = try await terminal.takePayment(request)
            c.fail("a reader without onReaderTipping took a payment asking for an on-reader tip")
        } catch let error as PaymentError {
            c.expect(error.code == .featureUnavailable, "the on-reader tip was refused with \(error.code)")
        }
        c.expect(await env.charges(reference: "conf-reader-tip") == 0, "a refused on-reader tip payment was charged")
    }
    c.note("\(reader.kind.rawValue) reader \(reader.model): \(reader.features.map(\.rawValue).sorted().joined(separator: ", "))")
}
