import Foundation

extension PaymentTerminal {
    /// Captures a payment taken with manual capture: authorized online, or forwarded after being stored offline
    /// (Stripe's "ready to capture" rule: it requires capture and is no longer waiting to be uploaded), under the
    /// idempotency key ``IdempotencyKey/capture(scope:reference:paymentAttempt:)``, which the adapter and the app's
    /// server pass to the vendor unchanged.
    ///
    /// The amount captured is recorded with the session (``PaymentSession/capturedAmount``): after a partial
    /// capture, ``PaymentSession/captured`` and ``PaymentSession/refundableAmount`` count what was captured, not what
    /// was authorized. A capture the vendor refuses because the authorization expired records the expiry at once
    /// (``PaymentState/canceled`` with ``PaymentError/Code/authorizationExpired``, and its
    /// ``TenderEvent/paymentStateChanged(_:)`` event), so the payment is never offered for capture again.
    /// - Parameters:
    ///   - reference: the payment's reference.
    ///   - amount: the amount to capture; default the full total (amount plus the tip that was authorized). It must
    ///     be in the payment's currency and at most the authorized total; a processor that cannot capture part of an
    ///     authorization (Square's `CompletePayment` takes no amount) accepts only the total.
    /// - Throws: ``PaymentError/Code/invalidState`` when the payment is not ready to capture (stored and not yet
    ///   forwarded, already captured or expired), ``PaymentError/Code/reauthorizationRequired`` when its
    ///   authorization must be renewed first, ``PaymentError/Code/invalidAmount`` for
    ///   an amount the processor cannot capture, ``PaymentError/Code/authorizationExpired`` when the vendor says the
    ///   authorization expired (recorded as such), or the processor's capture error.
    public func capture(reference: String, amount: Money? = nil) async throws -> PaymentSession {
        try claim(reference, for: "captured")
        defer { inFlight.remove(reference) }
        let scope = self.scope
        let session = try await readyToCapture(reference)
        let amount = amount ?? session.total
        try await checkCaptureAmount(amount, of: session)
        let key = IdempotencyKey.capture(scope: scope, reference: reference, paymentAttempt: session.paymentAttempt)
        var update: ProcessorPaymentUpdate
        do {
            update = try await processor.capturePayment(CaptureRequest(
                processor: processor.name, reference: reference, processorPaymentID: session.processorPaymentID!,
                amount: amount, idempotencyKey: key.rawValue))
        } catch let error as PaymentError where error.code == .authorizationExpired {
            await recordExpiry(of: session, error)
            throw error
        }
        if update.state == .succeeded, update.capturedAmount == nil { update.capturedAmount = amount }
        return try await apply(update, to: session)
    }

    /// Records what the vendor said when it refused a capture because the authorization expired: the state the
    /// expiry path of reconciliation records (canceled, with the vendor's error), and its event. Best effort: if the
    /// ledger cannot record it now, the queue poller and ``recover()`` find the expiry later.
    private func recordExpiry(of session: PaymentSession, _ error: PaymentError) async {
        let expired = ProcessorPaymentUpdate(reference: session.reference, state: .canceled,
                                             processorPaymentID: session.processorPaymentID,
                                             error: error.inPhase(.capture))
        _ = try? await apply(expired, to: session)
    }

    /// Voids a payment taken with manual capture and not yet captured, under the idempotency key
    /// ``IdempotencyKey/void(scope:reference:paymentAttempt:)``.
    public func void(reference: String) async throws -> PaymentSession {
        try claim(reference, for: "voided")
        defer { inFlight.remove(reference) }
        let scope = self.scope
        let session = try await readyToCapture(reference, voiding: true)
        let key = IdempotencyKey.void(scope: scope, reference: reference, paymentAttempt: session.paymentAttempt)
        let update = try await processor.voidPayment(VoidRequest(
            processor: processor.name, reference: reference, processorPaymentID: session.processorPaymentID!,
            idempotencyKey: key.rawValue))
        return try await apply(update, to: session)
    }

    /// Claims `reference` for a capture or void, as ``takePayment(_:)`` claims a payment: refused while another call
    /// on it runs (a payment, a capture, the queue poller's deadline check only looks at references not claimed).
    private func claim(_ reference: String, for action: String) throws {
        guard !inFlight.contains(reference) else {
            throw PaymentError(.paymentInProgress, recovery: .waitAndRetry, phase: .capture,
                               message: "Payment \(reference) cannot be \(action) now: another call on it is running.")
        }
        inFlight.insert(reference)
    }

    private func checkCaptureAmount(_ amount: Money, of session: PaymentSession) async throws {
        guard amount.currency == session.total.currency else {
            throw PaymentError(.currencyMismatch, recovery: .fixRequest, phase: .capture,
                               message: "Payment \(session.reference) is in \(session.total.currency.code), not \(amount.currency.code).")
        }
        guard amount.minorUnits > 0, amount.minorUnits <= session.total.minorUnits else {
            throw PaymentError(.invalidAmount, recovery: .fixRequest, phase: .capture,
                               message: "Capturing \(amount) of payment \(session.reference) is not possible: it must be more than zero and at most the authorized \(session.total).")
        }
        if amount != session.total, !(await processor.capabilities().supportsPartialCapture) {
            throw PaymentError(.invalidAmount, recovery: .fixRequest, phase: .capture,
                               message: "\(processor.name) captures exactly what was authorized (\(session.total)); it cannot capture \(amount). Capture the total, or void and take a new payment.")
        }
    }

    private func readyToCapture(_ reference: String, voiding: Bool = false) async throws -> PaymentSession {
        guard let session = try await ledger.session(reference: reference, scope: scope, includingHistory: false)
        else {
            throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .capture,
                               message: "No payment \(reference) to \(voiding ? "void" : "capture").")
        }
        guard session.isReadyToCapture else {
            let why = switch session.state {
            case .storedOffline: "it is stored offline and must be forwarded first"
            case .succeeded: "it is already captured"
            case .canceled where session.lastError?.code == .authorizationExpired:
                "its authorization expired and the funds went back to the customer; take a new payment if it is still owed"
            default: session.captureMode == .automatic ? "it was taken with automatic capture" : "it is \(session.state)"
            }
            throw PaymentError(.invalidState, recovery: session.state == .storedOffline ? .goOnline : .none,
                               phase: .capture, message: "Payment \(reference) is not ready to \(voiding ? "void" : "capture"): \(why).")
        }
        if !voiding, session.lastError?.code == .reauthorizationRequired {
            throw PaymentError(.reauthorizationRequired, recovery: .none, phase: .capture,
                               message: "Payment \(reference) must be reauthorized before it can be captured; renew the authorization on your server or take a new payment.")
        }
        return session
    }
}
