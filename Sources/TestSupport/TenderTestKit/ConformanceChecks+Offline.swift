import Foundation

// MARK: - Offline, cancellation, retries, lookups, concurrency, the facade

func storedPayment(_ env: any ConformanceEnvironment, _ c: FailureCollector, reference: String,
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

func forwardedUpdate(_ iterator: inout AsyncStream<ProcessorEvent>.AsyncIterator, reference: String) async
    -> ProcessorPaymentUpdate? {
    for _ in 0..<10_000 {
        guard let event = await iterator.next() else { return nil }
        if case .paymentForwarded(let update) = event, update.reference == reference { return update }
    }
    return nil
}

func offlineStoreAndForward(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    guard var iterator = try await storedPayment(env, c, reference: "conf-offline", card: .approve) else { return }
    guard let update = await forwardedUpdate(&iterator, reference: "conf-offline") else {
        return c.fail("no paymentForwarded event for the stored payment")
    }
    c.expect(update.state == .forwarded, "forwarding an approved card reported \(update.state)")
    c.expect(update.processorPaymentID != nil, "a forwarded payment has no processor id")
    c.expect(await env.charges(reference: "conf-offline") == 1, "expected exactly one charge after forwarding")
}

func declineWhenForwarded(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
    guard var iterator = try await storedPayment(env, c, reference: "conf-offline-decline", card: .declineWhenForwarded)
    else { return }
    guard let update = await forwardedUpdate(&iterator, reference: "conf-offline-decline") else {
        return c.fail("no paymentForwarded event for the stored payment")
    }
    c.expect(update.state == .declinedAfterForwarding, "a card declined at forwarding reported \(update.state)")
    c.expect(update.error?.code == .cardDeclined, "a decline at forwarding has code \(String(describing: update.error?.code))")
    c.expect(await env.charges(reference: "conf-offline-decline") == 0, "a card declined at forwarding was charged")
}

func cancellation(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
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

func retryNeverChargesTwice(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
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

func lookup(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
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
    // A reference never sent, asked about once the processor's consistency window (at most two minutes here) has
    // passed since it was recorded: the processor can prove it never received it.
    let never = PaymentLookupQuery(reference: "conf-never-seen", recordedState: .outcomeUnknown, since: env.clock.now())
    await env.advanceClock(by: 150)
    let missing = try await env.processor.lookUpPayment(never)
    c.expect(missing == .notFound, "lookup of a reference never sent, after the consistency window, answered \(missing), expected notFound")
}

func concurrency(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
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

func throughFacade(_ env: any ConformanceEnvironment, _ c: FailureCollector) async throws {
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
