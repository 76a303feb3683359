import Foundation

/// The result of one conformance check.
public struct ConformanceCheckResult: Hashable, Sendable, CustomStringConvertible {
    /// The check's name, e.g. `"decline"`.
    public var check: String
    /// What went wrong; empty when the check passed.
    public var failures: [String]
    /// Whether the check passed.
    public var passed: Bool { failures.isEmpty }
    /// `✔ decline` or `✘ decline: …`.
    public var description: String {
        passed ? "✔ \(check)" : "✘ \(check): " + failures.joined(separator: "; ")
    }
}

/// The outcome of a conformance run.
public struct ConformanceReport: Hashable, Sendable, CustomStringConvertible {
    /// The subject's name.
    public var subject: String
    /// One result per check, in run order.
    public var results: [ConformanceCheckResult]
    /// Whether every check passed.
    public var passed: Bool { results.allSatisfy(\.passed) }
    /// Every failure, prefixed by its check.
    public var failures: [String] { results.flatMap { r in r.failures.map { "\(r.check): \($0)" } } }
    /// One line per check.
    public var description: String {
        "Conformance of \(subject): \(results.filter(\.passed).count)/\(results.count) checks passed\n"
            + results.map(\.description).joined(separator: "\n")
    }
}

/// The checks every adapter must pass: lifecycle, offline policy, limits, forwarding, errors with recoveries,
/// event order, cancellation and concurrency. Framework-neutral: call ``run()`` from XCTest or Swift Testing and
/// assert that ``ConformanceReport/passed`` is true (print the report on failure).
///
/// ```swift
/// @Test func conforms() async throws {
///     let report = await ConformanceSuite(subject: MySubject()).run()
///     #expect(report.passed, "\(report)")
/// }
/// ```
public struct ConformanceSuite: Sendable {
    /// A named check.
    public struct Check: Sendable {
        /// The name.
        public var name: String
        /// Whether it needs offline support (skipped, and reported as passed with no assertions, otherwise).
        public var needsOffline: Bool
        /// The body: record failures into the collector.
        public var body: @Sendable (any ConformanceEnvironment, FailureCollector) async throws -> Void
    }

    /// The subject.
    public let subject: any ConformanceSubject

    /// Creates a suite for a subject.
    public init(subject: any ConformanceSubject) { self.subject = subject }

    /// Runs every check, each on a fresh environment.
    public func run() async -> ConformanceReport {
        var results: [ConformanceCheckResult] = []
        for check in ConformanceSuite.checks {
            let collector = FailureCollector()
            do {
                let environment = try await subject.makeEnvironment()
                if check.needsOffline && !environment.supportsOffline {
                    results.append(ConformanceCheckResult(check: check.name + " (skipped: no offline)", failures: []))
                    continue
                }
                try await check.body(environment, collector)
            } catch {
                collector.fail("threw \(error)")
            }
            results.append(ConformanceCheckResult(check: check.name, failures: collector.failures))
        }
        return ConformanceReport(subject: subject.name, results: results)
    }

    /// Every check, in order.
    public static let checks: [Check] = [
        Check(name: "capabilities", needsOffline: false, body: capabilities),
        Check(name: "online approve", needsOffline: false, body: onlineApprove),
        Check(name: "decline", needsOffline: false, body: decline),
        Check(name: "manual capture", needsOffline: false, body: manualCapture),
        Check(name: "require online while offline", needsOffline: false, body: requireOnlineWhileOffline),
        Check(name: "offline store and forward", needsOffline: true, body: offlineStoreAndForward),
        Check(name: "decline when forwarded", needsOffline: true, body: declineWhenForwarded),
        Check(name: "cancellation", needsOffline: false, body: cancellation),
        Check(name: "retry never charges twice", needsOffline: false, body: retryNeverChargesTwice),
        Check(name: "lookup for recovery", needsOffline: false, body: lookup),
        Check(name: "concurrent payments", needsOffline: false, body: concurrency),
        Check(name: "through the facade", needsOffline: false, body: throughFacade),
    ]
}

/// Collects failures of one check. Thread-safe.
public final class FailureCollector: Sendable {
    private let storage = Locked<[String]>([])
    /// Creates an empty collector.
    public init() {}
    /// Records a failure.
    public func fail(_ message: String) { storage.withLock { $0.append(message) } }
    /// Records a failure unless `condition` holds.
    public func expect(_ condition: Bool, _ message: @autoclosure () -> String) { if !condition { fail(message()) } }
    /// The failures so far.
    public var failures: [String] { storage.current }
}

// MARK: - The checks

private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }


/// Starts a payment and records the intermediate updates.
private func pay(_ env: any ConformanceEnvironment, _ request: PaymentRequest, routing: RoutingDecision = .online,
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

private func connect(_ env: any ConformanceEnvironment) async throws {
    let readers = try await env.processor.discoverReaders(timeout: 10)
    guard let reader = readers.first else { throw PaymentError(.readerNotConnected, recovery: .reconnectReader, phase: .readerConnection, message: "no reader discovered") }
    _ = try await env.processor.connectReader(reader, locationID: env.locationID)
}

private func capabilities(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    let caps = await env.processor.capabilities()
    c.expect(caps.processorName == env.processor.name, "capabilities name \(caps.processorName) ≠ processor name \(env.processor.name)")
    c.expect((caps.offlineLimits != nil) == env.supportsOffline,
             "offline limits \(caps.offlineLimits == nil ? "absent" : "present") but supportsOffline is \(env.supportsOffline)")
}

private func onlineApprove(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
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

private func decline(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
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

private func manualCapture(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    await env.presentNextCard(.approve)
    let (final, _) = try await pay(env, PaymentRequest(amount: usd(2_000), reference: "conf-manual", captureMode: .manual))
    c.expect(final.state == .authorized, "a manual-capture approval ended \(final.state), expected authorized")
    guard let id = final.processorPaymentID else { return c.fail("an authorization has no processor id") }
    let captured = try await env.processor.capturePayment(reference: "conf-manual", processorPaymentID: id, amount: usd(2_000))
    c.expect(captured.state == .succeeded, "capture ended \(captured.state), expected succeeded")
}

private func requireOnlineWhileOffline(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
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

private func storedPayment(_ env: any ConformanceEnvironment, _ c: FailureCollector, reference: String,
                           card: ConformanceCard) async throws -> AsyncStream<ProcessorEvent>.AsyncIterator? {
    let events = env.processor.events()
    try await connect(env)
    await env.presentNextCard(card)
    let (final, _) = try await pay(env, PaymentRequest(amount: usd(1_500), reference: reference, offlinePolicy: .forceOffline),
                                   routing: .offline)
    c.expect(final.state == .storedOffline, "a forced-offline payment ended \(final.state), expected storedOffline")
    c.expect(final.route == .offline, "a stored payment's route is \(String(describing: final.route))")
    c.expect(await env.charges(reference: reference) == 0, "a stored payment was charged before forwarding")
    guard final.state == .storedOffline else { return nil }
    let snapshot = try await env.processor.queueSnapshot()
    c.expect(snapshot.storedCount >= 1, "the processor's queue shows \(snapshot.storedCount) stored payments after storing one")
    await env.setNetwork(online: true)
    await env.forwardStoredPayments()
    return events.makeAsyncIterator()
}

private func forwardedUpdate(_ iterator: inout AsyncStream<ProcessorEvent>.AsyncIterator, reference: String) async
    -> ProcessorPaymentUpdate? {
    for _ in 0..<10_000 {
        guard let event = await iterator.next() else { return nil }
        if case .paymentForwarded(let update) = event, update.reference == reference { return update }
    }
    return nil
}

private func offlineStoreAndForward(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    guard var iterator = try await storedPayment(env, c, reference: "conf-offline", card: .approve) else { return }
    guard let update = await forwardedUpdate(&iterator, reference: "conf-offline") else {
        return c.fail("no paymentForwarded event for the stored payment")
    }
    c.expect(update.state == .forwarded, "forwarding an approved card reported \(update.state)")
    c.expect(update.processorPaymentID != nil, "a forwarded payment has no processor id")
    c.expect(await env.charges(reference: "conf-offline") == 1, "expected exactly one charge after forwarding")
}

private func declineWhenForwarded(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    guard var iterator = try await storedPayment(env, c, reference: "conf-offline-decline", card: .declineWhenForwarded)
    else { return }
    guard let update = await forwardedUpdate(&iterator, reference: "conf-offline-decline") else {
        return c.fail("no paymentForwarded event for the stored payment")
    }
    c.expect(update.state == .declinedAfterForwarding, "a card declined at forwarding reported \(update.state)")
    c.expect(update.error?.code == .cardDeclined, "a decline at forwarding has code \(String(describing: update.error?.code))")
    c.expect(await env.charges(reference: "conf-offline-decline") == 0, "a card declined at forwarding was charged")
}

private func cancellation(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    await env.presentNextCard(.approve)
    let processor = env.processor
    // Cancellation is best-effort in every vendor SDK: once the card is read it can no longer be canceled. The
    // contract: an accepted cancel ends the payment canceled and uncharged; a refused one says so (invalidState)
    // and the payment reports its true outcome.
    let refusal = Locked<PaymentError?>(nil)
    let (final, _) = try await pay(env, PaymentRequest(amount: usd(900), reference: "conf-cancel")) { update in
        guard update.state == .collecting else { return }
        do {
            try await processor.cancelPayment(reference: "conf-cancel")
        } catch let error as PaymentError {
            refusal.withLock { $0 = error }
        } catch {
            c.fail("cancelPayment threw a non-PaymentError: \(error)")
        }
    }
    let charges = await env.charges(reference: "conf-cancel")
    if let error = refusal.current {
        c.expect(error.code == .invalidState, "a refused cancel has code \(error.code), expected invalid_state")
        c.expect(final.state != .canceled, "the cancel was refused but the payment reports canceled")
        c.expect(final.state.isApprovedOrPending == (charges == 1), "after a refused cancel, \(final.state) with \(charges) charge(s)")
    } else {
        c.expect(final.state == .canceled, "an accepted cancel during collection ended \(final.state), expected canceled")
        c.expect(charges == 0, "a canceled payment was charged")
    }
}

private func retryNeverChargesTwice(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    await env.presentNextCard(.approve)
    let request = PaymentRequest(amount: usd(1_100), reference: "conf-retry")
    let (first, _) = try await pay(env, request)
    await env.presentNextCard(.approve)
    let second: ProcessorPaymentUpdate
    do {
        second = try await pay(env, request, attempt: PaymentAttempt(number: 2, processorPaymentID: first.processorPaymentID,
                                                                       localID: first.localID, previousState: .outcomeUnknown)).0
        c.expect(second.state == first.state, "a retry of a succeeded payment reported \(second.state)")
    } catch let error as PaymentError {
        c.expect(error.code == .duplicateReference || error.code == .outcomeUnknown,
                 "a retry failed with \(error.code) instead of reporting the existing payment")
    }
    c.expect(await env.charges(reference: "conf-retry") == 1, "a retry of the same reference charged again")
}

private func lookup(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    await env.presentNextCard(.approve)
    let (final, _) = try await pay(env, PaymentRequest(amount: usd(1_300), reference: "conf-lookup"))
    let found = try await env.processor.lookUpPayment(reference: "conf-lookup", localID: final.localID,
                                                      processorPaymentID: final.processorPaymentID)
    if case .found(let update) = found {
        c.expect(update.state == final.state, "lookup reports \(update.state), the payment ended \(final.state)")
    } else {
        c.fail("lookup of a succeeded payment answered \(found)")
    }
    let missing = try await env.processor.lookUpPayment(reference: "conf-never-seen", localID: nil, processorPaymentID: nil)
    c.expect(missing == .notFound, "lookup of a reference never sent answered \(missing), expected notFound")
}

private func concurrency(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let processor = env.processor
    let outcomes = await withTaskGroup(of: (String, Result<PaymentState, PaymentError>).self) { group in
        for index in 0..<2 {
            group.addTask {
                let reference = "conf-concurrent-\(index)"
                do {
                    let final = try await processor.startPayment(
                        PaymentRequest(amount: usd(100 + Int64(index)), reference: reference), routing: .online,
                        attempt: PaymentAttempt()) { _ in }
                    return (reference, .success(final.state))
                } catch let error as PaymentError {
                    return (reference, .failure(error))
                } catch {
                    return (reference, .failure(PaymentError(.unexpected, recovery: .none, phase: .unknown, message: "\(error)")))
                }
            }
        }
        var all: [(String, Result<PaymentState, PaymentError>)] = []
        for await outcome in group { all.append(outcome) }
        return all
    }
    for (reference, outcome) in outcomes {
        let charges = await env.charges(reference: reference)
        switch outcome {
        case .success(.succeeded): c.expect(charges == 1, "\(reference) succeeded with \(charges) charges")
        case .success(let state):
            c.expect(charges == 0, "\(reference) ended \(state) but was charged \(charges) times")
            c.expect(!state.isApprovedOrPending || state == .storedOffline, "\(reference) ended \(state)")
        case .failure(let error):
            c.expect(error.code == .paymentInProgress || error.code == .readerBusy,
                     "a concurrent payment failed with \(error.code), expected payment_in_progress or reader_busy")
            c.expect(charges == 0, "\(reference) failed but was charged")
        }
    }
}

private func throughFacade(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    try await connect(env)
    let terminal = PaymentTerminal(processor: env.processor,
                                   scope: LedgerScope(merchantID: "conformance", locationID: env.locationID))
    await terminal.handle(.networkStatusChanged(.online))
    await env.presentNextCard(.approve)
    let session = try await terminal.takePayment(PaymentRequest(amount: usd(4_200), reference: "conf-facade"))
    c.expect(session.state == .succeeded, "through the facade the payment ended \(session.state)")
    c.expect(session.transitions.map(\.to).first == .created, "the facade did not record the intent first")
    let again = try await terminal.takePayment(PaymentRequest(amount: usd(4_200), reference: "conf-facade"))
    c.expect(again.state == .succeeded, "retrying through the facade ended \(again.state)")
    c.expect(await env.charges(reference: "conf-facade") == 1, "the facade charged a reference twice")
}
