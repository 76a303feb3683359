import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator

extension ChildLife {
    /// A sale: a seeded request and card, perhaps a fault on its way to the processor, perhaps a task cancelled
    /// mid-collect or mid-confirm; then the app's rules for what came back (an outcome not known: the same reference
    /// again; a decline, sometimes a cancellation or failure: "another card" for the same reference).
    func sale(_ isStripe: Bool) async {
        number += 1
        let reference = "r\(round)-\(life)-\(number)"
        let online = isOnline(isStripe)
        // An Interac card is refunded in person, through the reader; it is taken online only.
        let interac = isStripe && online && random.chance(0.08)
        let roll = random.int(0...9)
        let policy: OfflinePolicy = interac || (5..<7).contains(roll) ? .requireOnline
            : roll < 5 || online ? .preferOnline : .forceOffline
        let capture: CaptureMode = !interac && random.chance(0.2) ? .manual : .automatic
        let amount = Int64(random.int(1...120)) * 100 + Int64(random.int(0...99))
        let declines = random.chance(0.12)
        if isStripe {
            // The `refundFailed` card pays, and its refunds fail later (asynchronously, at Stripe).
            let card: Stripe.SimulatedCardType = declines ? .chargeDeclinedInsufficientFunds
                : interac ? .interac : random.chance(0.06) ? .refundFailed : .visa
            await world.stripeSimulator.configure { $0.simulatedCard = card }
        } else {
            await world.squareSimulator.setPresentedCard(declines ? .insufficientFunds : .visaChip)
        }
        if online, random.chance(0.2) { await injectConfirmationFault(isStripe) }
        let request = PaymentRequest(amount: Money(minorUnits: amount, currency: .usd), reference: reference,
                                     captureMode: capture, offlinePolicy: policy,
                                     metadata: isStripe ? ["round": "\(round)"] : [:])
        let midway = online ? random.int(0...99) : 99
        var session = midway < 12 ? await cancelMidway(request, isStripe)
            : midway < 22 ? await relaunchMidway(request, isStripe)
            : await attempt("sale", request, isStripe)
        for _ in 0..<3 {
            guard let current = session else { break }
            if unfinishedStates.contains(current.state) {
                advance(Double(random.int(1...10)))
                session = await attempt("retry", request, isStripe)
            } else if current.state == .declined && random.chance(0.6)
                        || [.canceled, .failed].contains(current.state) && random.chance(0.3) {
                // Another card for the same order.
                if isStripe {
                    await world.stripeSimulator.configure { $0.simulatedCard = .visa }
                } else {
                    await world.squareSimulator.setPresentedCard(.visaChip)
                }
                session = await attempt("another", request, isStripe)
            } else {
                break
            }
        }
        if capture == .manual, let session, session.state == .authorized {
            manual.append((isStripe, reference))
        }
    }

    /// A timeout on the way to the processor: the request never arrives, or the processor charges and the answer is
    /// lost.
    private func injectConfirmationFault(_ isStripe: Bool) async {
        let lost = random.chance(0.5)
        if isStripe {
            await world.stripeSimulator.inject(lost ? .answerLostAfterCharge : .confirmNotReceived)
        } else {
            await world.squareSimulator.inject(lost ? .answerLostAfterCharge : .confirmNotReceived)
        }
        progress("fault \(Self.name(isStripe)) \(lost ? "answer-lost-after-charge" : "confirm-not-received")")
    }

    /// One call of `takePayment`, printed as `LABEL STATE` (`LABEL refused` when refused before the processor).
    func attempt(_ label: String, _ request: PaymentRequest, _ isStripe: Bool) async -> PaymentSession? {
        let terminal = world.terminal(stripe: isStripe)
        return report(label, await drive(isStripe) { try await terminal.takePayment(request) }, isStripe)
    }

    func report(_ label: String, _ result: Result<PaymentSession, any Error>, _ isStripe: Bool)
        -> PaymentSession? {
        switch result {
        case .success(let session):
            let detail = session.state == .failed || session.state == .outcomeUnknown
                ? " \(Self.name(isStripe)) \(session.reference) \(session.lastError?.code.rawValue ?? "-") \(session.lastError?.vendor?.name ?? "-")"
                : ""
            progress("\(label) \(session.state)\(detail)")
            return session
        case .failure(let error as PaymentError):
            progress("\(label) refused \(error.code.rawValue)")
        case .failure(let error):
            // The facade throws only PaymentError: anything else is a crash of the contract.
            progress("\(label) threw-non-payment-error \(error)")
        }
        return nil
    }

    /// The payment's task is cancelled at a random point, most often while the simulator holds the card (mid-collect)
    /// or the authorization (mid-confirm, where the vendor can no longer cancel); then what is held is released and
    /// the answer recorded (`cancel STATE`).
    private func cancelMidway(_ request: PaymentRequest, _ isStripe: Bool) async -> PaymentSession? {
        let atConfirm = random.chance(0.5)
        if isStripe {
            await world.stripeSimulator.inject(atConfirm ? .holdNextAuthorization : .holdNextCard)
        } else if atConfirm {
            await world.squareSimulator.inject(.holdNextAuthorization)
        } else {
            await world.squareSimulator.inject(.holdNextCard)
        }
        injectedHold(isStripe)
        progress("fault \(Self.name(isStripe)) \(atConfirm ? "cancel-mid-confirm" : "cancel-mid-collect")")
        let terminal = world.terminal(stripe: isStripe)
        let finished = Locked(false)
        let task = Task {
            defer { finished.withLock { $0 = true } }
            return try await terminal.takePayment(request)
        }
        if random.chance(0.75) {
            // Until the simulator holds (or the payment ended without reaching the hold).
            let deadline = Date().addingTimeInterval(5)
            while !finished.current, Date() < deadline, !(await world.isHolding(stripe: isStripe)) {
                try? await Task.sleep(nanoseconds: 100_000)
            }
        }
        for _ in 0..<random.int(0...3) { await Task.yield() }
        task.cancel()
        for _ in 0..<random.int(0...4) { await Task.yield() }
        await release(isStripe, until: finished)
        return report("cancel", await task.result, isStripe)
    }
}

extension ChildLife {
    /// The SDK's process restarts while the authorization is on its way (held at the vendor): the app relaunches
    /// (a new adapter and facade over the same ledger, recovery), and the vendor acts on the request afterwards with
    /// nobody to tell: before, during or after the app's first retry of the same reference. Prints `relaunched
    /// STATE` (the session as the new facade has it) and the retries' outcomes through the app's rules.
    private func relaunchMidway(_ request: PaymentRequest, _ isStripe: Bool) async -> PaymentSession? {
        if isStripe {
            await world.stripeSimulator.inject(.holdNextAuthorization)
        } else {
            await world.squareSimulator.inject(.holdNextAuthorization)
        }
        injectedHold(isStripe)
        let terminal = world.terminal(stripe: isStripe)
        let finished = Locked(false)
        let task = Task {
            defer { finished.withLock { $0 = true } }
            return try await terminal.takePayment(request)
        }
        let deadline = Date().addingTimeInterval(5)
        while !finished.current, Date() < deadline, !(await world.isHolding(stripe: isStripe)) {
            try? await Task.sleep(nanoseconds: 100_000)
        }
        guard await world.isHolding(stripe: isStripe) else {
            // The payment ended without reaching the vendor (refused, stored, declined): nothing to relaunch over.
            await release(isStripe, until: finished)
            return report("sale", await task.result, isStripe)
        }
        progress("fault \(Self.name(isStripe)) relaunch-mid-confirm")
        do {
            _ = isStripe ? try await world.relaunchStripe() : try await world.relaunchSquare()
        } catch {
            progress("relaunch \(Self.name(isStripe)) could not reconnect: \(error)")
        }
        // The old task belongs to the process that is gone: Stripe never answers it, Square ends it unknown. The
        // hold was reached; a retry is driven only if another hold is still pending.
        _ = task
        consumedHold(isStripe)
        let newTerminal = world.terminal(stripe: isStripe)
        var session = try? await newTerminal.session(reference: request.reference)
        progress("relaunched \(session?.state.rawValue ?? "missing")")
        guard let current = session, unfinishedStates.contains(current.state) else {
            await world.releaseHeld(stripe: isStripe)
            return session
        }
        switch random.int(0...2) {
        case 0:  // the vendor acts, then the app retries (below, by the app's rules)
            await world.releaseHeld(stripe: isStripe)
            session = try? await newTerminal.session(reference: request.reference)
        case 1:  // the app retries first, then the vendor acts
            session = await attempt("retry", request, isStripe)  // driven only past another pending hold
            await world.releaseHeld(stripe: isStripe)
        default:  // the vendor acts while the app retries
            let retried = Locked(false)
            let retry = Task {
                defer { retried.withLock { $0 = true } }
                return try await newTerminal.takePayment(request)
            }
            for _ in 0..<random.int(0...6) { await Task.yield() }
            await world.releaseHeld(stripe: isStripe)
            await release(isStripe, until: retried)
            session = report("retry", await retry.result, isStripe)
        }
        return session
    }
}

/// States whose outcome is not definite: the app retries the same reference.
let unfinishedStates: Set<PaymentState> = [.created, .collecting, .processing, .outcomeUnknown]
