import Foundation

// MARK: - Refunds have an identity: never merged, reserved atomically, reported as the ledger holds them

/// Two ledgers on one new SQLite file: two terminals of one shop sharing the ledger file. Each connection wrapped in a
/// ``FaultInjectingLedger`` so that a check can hold a terminal's refund answers.
private func twoConnections() async throws -> (FaultInjectingLedger, FaultInjectingLedger, URL) {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("tender-conformance-refunds-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("ledger.sqlite")
    let first = try await SQLitePaymentLedger.open(url: url)
    let second = try await SQLitePaymentLedger.open(url: url)
    return (FaultInjectingLedger(wrapping: first), FaultInjectingLedger(wrapping: second), directory)
}

private func close(_ ledgers: FaultInjectingLedger...) async {
    for ledger in ledgers { await (ledger.inner as? SQLitePaymentLedger)?.close() }
}

private func paymentError(_ error: any Error) -> PaymentError {
    (error as? PaymentError) ?? PaymentError(.unexpected, recovery: .none, phase: .refund, message: "\(error)")
}

/// Three refunds of 8.00 of a 20.00 payment asked for at the same time must give two refunds and one clear
/// `invalid_amount` refusal whatever the timing: the amount is reserved atomically in the ledger, in memory and on
/// one SQLite file shared by two terminals. Each refund's answer is held (a latch, never a sleep) until the third
/// request has been decided, so all three are in flight together.
func concurrentRefundsReserveAtomically(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    guard await env.processor.capabilities().supportsRefunds else {
        return c.notRun("\(env.processor.name) takes no refunds")
    }
    try await connect(env)
    let memory = FaultInjectingLedger(wrapping: InMemoryPaymentLedger())
    let one = await facade(env, locationID: env.locationID, ledger: memory)
    try await threeRefunds(env, c, on: [one, one, one], holding: [memory], reference: "conf-refund-3x",
                           label: "one terminal")
    let (fileA, fileB, directory) = try await twoConnections()
    defer { try? FileManager.default.removeItem(at: directory) }
    let a = await facade(env, locationID: env.locationID, ledger: fileA)
    let b = await facade(env, locationID: env.locationID, ledger: fileB)
    try await threeRefunds(env, c, on: [a, b, a], holding: [fileA, fileB], reference: "conf-refund-3x-file",
                           label: "two terminals on one ledger file")
    await close(fileA, fileB)
}

private func threeRefunds(_ env: any ConformanceEnvironment, _ c: FailureCollector, on terminals: [PaymentTerminal],
                          holding ledgers: [FaultInjectingLedger], reference: String, label: String) async throws {
    await env.presentNextCard(.approve)
    let paid = try await terminals[0].takePayment(PaymentRequest(amount: usd(2_000), reference: reference))
    guard paid.state == .succeeded else { return c.fail("\(label): the payment to refund ended \(paid.state)") }
    let latch = TestLatch()
    for ledger in ledgers { ledger.holdRefundWrites { _ in await latch.wait() } }
    let results = await withTaskGroup(of: Result<RefundRecord, PaymentError>.self) { group in
        for terminal in terminals {
            group.addTask {
                do { return .success(try await terminal.refund(reference: reference, amount: usd(800))) } catch {
                    return .failure(paymentError(error))
                }
            }
        }
        var results: [Result<RefundRecord, PaymentError>] = []
        for await result in group {
            results.append(result)
            await latch.open()  // the first decided (the refusal, while the other two wait): let the rest through
        }
        return results
    }
    for ledger in ledgers { ledger.releaseRefundWrites() }
    let made = results.compactMap { try? $0.get() }
    let refused = results.compactMap { if case .failure(let error) = $0 { error } else { nil } }
    c.expect(made.count == 2, "\(label): \(made.count) of three concurrent 8.00 refunds of 20.00 were made, expected 2 (refused: \(refused.map { "\($0.code.rawValue): \($0.message)" }))")
    c.expect(Set(made.map(\.id)).count == made.count, "\(label): two requests were answered with the same refund \(made.map(\.id))")
    c.expect(made.allSatisfy { $0.status != .failed }, "\(label): a refund failed: \(made.map { String(describing: $0.error) })")
    c.expect(refused.count == 1 && refused.first?.code == .invalidAmount,
             "\(label): the third refund was refused with \(refused.map(\.code.rawValue)), expected one invalid_amount")
    if let refusal = refused.first, refusal.code == .invalidAmount {
        c.expect(refusal.message.contains(usd(400).description),
                 "\(label): the refusal does not say what is left to refund (4.00): \(refusal.message)")
    }
    let settled = await pollUntil(env, terminals[0]) {
        (try? await terminals[0].session(reference: reference))?.refunds.allSatisfy { $0.status == .succeeded } ?? false
    }
    let recorded = try await terminals[0].session(reference: reference)?.refunds ?? []
    c.expect(settled && recorded.count == 2, "\(label): the ledger holds \(recorded.map { "\($0.amount) \($0.status)" })")
    if let atProcessor = await env.refunded(reference: reference) {
        c.expect(atProcessor == 1_600, "\(label): the processor refunded \(atProcessor), expected 16.00")
    }
}

/// Issue 28, item 11: two terminals on one ledger file. Terminal A refunds 8.00; before A records the processor's
/// answer (held), terminal B refunds 8.00 of the same order (a second item) and its poller settles A's refund. B's
/// refund is a new refund, never A's continued; A's answer then reports what the ledger holds, never "outcome
/// unknown… it stays pending" for a refund the ledger has settled. 16.00 refunded in all.
func secondRefundIsNeverMerged(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    guard await env.processor.capabilities().supportsRefunds else {
        return c.notRun("\(env.processor.name) takes no refunds")
    }
    try await connect(env)
    let (fileA, fileB, directory) = try await twoConnections()
    defer { try? FileManager.default.removeItem(at: directory) }
    let a = await facade(env, locationID: env.locationID, ledger: fileA)
    let b = await facade(env, locationID: env.locationID, ledger: fileB)
    let reference = "conf-refund-two-items"
    await env.presentNextCard(.approve)
    let paid = try await a.takePayment(PaymentRequest(amount: usd(2_000), reference: reference))
    guard paid.state == .succeeded else { return c.fail("the payment to refund ended \(paid.state)") }

    let latch = TestLatch()
    let reached = TestLatch()
    fileA.holdRefundWrites { _ in
        await reached.open()
        await latch.wait()
    }
    let first = Task { try await a.refund(reference: reference, amount: usd(800)) }
    await reached.wait()  // A's answer is back from the processor, not yet recorded
    let second: RefundRecord
    do {
        second = try await b.refund(reference: reference, amount: usd(800))
    } catch {
        await latch.open()
        return c.fail("terminal B's refund of a second 8.00 item was refused: \(error)")
    }
    c.expect(second.number == 2, "terminal B's refund of a second 8.00 item is refund \(second.number) (\(second.id)): it continued terminal A's pending refund instead of making its own")
    _ = await b.pollOnce()  // B's poller settles A's pending refund meanwhile
    await latch.open()
    fileA.releaseRefundWrites()
    switch await first.result {
    case .success(let record):
        c.expect(record.id != second.id, "terminals A and B were answered with the same refund \(record.id)")
        let held = try await a.session(reference: reference)?.refunds.first { $0.id == record.id }
        c.expect(held?.status == record.status,
                 "terminal A answered \(record.status) for refund \(record.id); the ledger holds \(String(describing: held?.status))")
    case .failure(let error):
        let held = try await a.session(reference: reference)?.refunds.first { $0.number == 1 }
        c.fail("terminal A's refund threw although the ledger holds it \(String(describing: held?.status)): \(error)")
    }
    let settled = await pollUntil(env, b) {
        (try? await b.session(reference: reference))?.refunds.allSatisfy { $0.status == .succeeded } ?? false
    }
    let recorded = try await b.session(reference: reference)?.refunds ?? []
    c.expect(settled && recorded.count == 2 && recorded.allSatisfy { $0.amount == usd(800) },
             "the ledger holds \(recorded.map { "\($0.id) \($0.amount) \($0.status)" }), expected two 8.00 refunds")
    if let atProcessor = await env.refunded(reference: reference) {
        c.expect(atProcessor == 1_600, "the processor refunded \(atProcessor) for two 8.00 items, expected 16.00")
    }
    await close(fileA, fileB)
}
