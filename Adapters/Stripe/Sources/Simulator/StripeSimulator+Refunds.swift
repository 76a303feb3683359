import Foundation
import Tender
package import TenderStripe

// Refunds: the SDK's in-person refunds (Interac: "the cardholder must present the Interac card to the card reader;
// these payments cannot be refunded via the dashboard or the API"), and Stripe's `POST /v1/refunds` behind
// ``StripeSimulatorServer``. Never more than was captured; idempotent by key (the same key with another payment or
// amount is `idempotency_error`, never the earlier refund); partial refunds allowed; the `refundFailed` test card's
// refunds begin `succeeded` and fail later ("asynchronously, with `expired_or_canceled_card`"), on the clock.
extension StripeSimulator {
    /// `collectRefundPaymentMethod(_:refundConfig:completion:)`: the reader asks for the card to refund (at once, or
    /// when ``presentCard()`` is called); the completion gets nil or an error.
    package func collectRefundPaymentMethod(_ refundParams: Stripe.RefundParameters,
                                           refundConfig: Stripe.CollectRefundConfiguration?,
                                           completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await runDueWork()
        normalize()
        let cancelable = SimulatedCancelable()
        let once = OneShot(completion)
        guard let current = connection, currentConnectionStatus == .connected else {
            cancelable.markCompleted()
            once.fire(Stripe.ErrorCode(.notConnectedToReader, message: "No reader is connected."))
            return cancelable
        }
        guard currentPaymentStatus == .ready else {
            cancelable.markCompleted()
            once.fire(Stripe.ErrorCode(.readerBusy, message: "The reader is busy."))
            return cancelable
        }
        collectedRefund = nil
        setPaymentStatus(.waitingForInput)
        current.delegate?.didRequestReaderInput([.insertCard, .tapCard])
        let pending = PendingRefundCollection(parameters: refundParams, cancelable: cancelable, completion: once)
        if configuration.cardPresentation == .waitForPresentCard || holdNextCard {
            holdNextCard = false
            pendingRefundCollection = pending
            cancelable.setCancelAction {
                once.fire(Stripe.ErrorCode(.canceled, message: "collectRefundPaymentMethod was canceled."))
                return nil
            }
        } else {
            finishRefundCollection(pending)
        }
        return cancelable
    }

    func finishRefundCollection(_ pending: PendingRefundCollection) {
        pending.cancelable.markCompleted()
        setPaymentStatus(.ready)
        collectedRefund = CollectedRefund(parameters: pending.parameters, card: configuration.simulatedCard)
        pending.completion.fire(nil)
    }

    /// `confirmRefund(completion:)`: refunds the collected card at Stripe. Refused without a collected card
    /// (`nilRefundPaymentMethod`); offline nothing is sent; a timeout leaves the refund unknown (nil refund).
    package func confirmRefund(completion: @escaping @Sendable (Stripe.Refund?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await runDueWork()
        let cancelable = SimulatedCancelable()
        defer { cancelable.markCompleted() }
        guard let collected = collectedRefund else {
            completion(nil, Stripe.ErrorCode(.nilRefundPaymentMethod,
                                             message: "confirmRefund was called without collectRefundPaymentMethod."))
            return cancelable
        }
        collectedRefund = nil
        let lost = takeFault(.refundAnswerLost)
        switch lost ? .timedOut : attemptRequest() {
        case .failedFast:
            completion(nil, Self.offlineError())
        case .timedOut:
            if lost || configuration.timeoutOutcome == .processedResponseLost { _ = try? refundInPerson(collected) }
            completion(nil, Stripe.ErrorCode(.requestTimedOut, message: "The request timed out."))
        case .reached:
            do {
                let refund = try refundInPerson(collected)
                let error: Stripe.ErrorCode? = refund.status == .failed
                    ? Stripe.ErrorCode(.refundFailed, message: "The refund failed.", refund: refund,
                                       userInfo: [.stripeAPIFailureReason: refund.failureReason ?? ""]) : nil
                completion(refund, error)
            } catch {
                completion(nil, Stripe.ErrorCode(.stripeAPIError, message: error.message,
                                                 apiError: Stripe.ApiError(code: error.code, message: error.message)))
            }
        }
        return cancelable
    }

    private func refundInPerson(_ collected: CollectedRefund) throws(StripeSimulatorServer.APIError) -> Stripe.Refund {
        let parameters = collected.parameters
        let chargeID = parameters.chargeId
            ?? serverIntent(stripeId: parameters.paymentIntentId ?? "")?.authorizedCharge?.stripeId ?? ""
        guard let charge = state.charges.first(where: { $0.stripeId == chargeID }) else {
            throw StripeSimulatorServer.APIError(code: "resource_missing", message: "No such charge: \(chargeID).")
        }
        // † The card presented must be the one that paid (how Stripe reports a mismatch is not published).
        let mismatch = charge.card != collected.card
        let refund = try createRefund(charge: charge, amount: parameters.amount, currency: parameters.currency,
                                      idempotencyKey: nil, metadata: parameters.metadata, inPerson: true,
                                      failure: mismatch ? "card_mismatch" : nil)
        return Self.sdkRefund(refund)
    }

    // MARK: - Stripe's side

    /// `POST /v1/refunds` for the app's server (as TenderServer makes it): idempotent under the request's key — the
    /// same key for the same payment and amount returns the same refund; the key already used for another refund is
    /// refused with `idempotency_error` (TenderServer finds the key in the refunds' metadata, so this holds after
    /// Stripe's 24-hour key window too) — at most what was captured and not yet refunded, never for Interac (in
    /// person only).
    func refundOnServer(_ request: RefundRequest) throws(StripeSimulatorServer.APIError) -> RefundResult {
        if let earlier = state.refunds.first(where: { $0.idempotencyKey == request.idempotencyKey }) {
            guard earlier.paymentIntentId == request.processorPaymentID,
                  earlier.amount == (try? request.amount.unsignedMinorUnits()),
                  earlier.currency == request.amount.currency.lowercasedCode else {
                throw StripeSimulatorServer.APIError(
                    code: "idempotency_error",
                    message: "Keys for idempotent requests can only be used with the same parameters they were first used with: refund \(earlier.stripeId) was made under \(request.idempotencyKey) for \(earlier.amount) \(earlier.currency) of \(earlier.paymentIntentId).")
            }
            return Self.result(earlier)
        }
        guard let charge = serverIntent(stripeId: request.processorPaymentID)?.authorizedCharge
            .flatMap({ found in state.charges.first { $0.stripeId == found.stripeId } }) else {
            throw StripeSimulatorServer.APIError(code: "resource_missing",
                                                 message: "No charge to refund for \(request.processorPaymentID).")
        }
        guard charge.card != .interac else {
            throw StripeSimulatorServer.APIError(code: "charge_not_refundable",
                                                 message: "Interac payments are refunded in person, through the reader.")
        }
        let refund = try createRefund(charge: charge, amount: try? request.amount.unsignedMinorUnits(),
                                      currency: request.amount.currency.lowercasedCode,
                                      idempotencyKey: request.idempotencyKey,
                                      metadata: [StripeMapping.referenceMetadataKey: request.reference], inPerson: false,
                                      failure: nil)
        return Self.result(refund)
    }

    /// The refund made under `idempotencyKey` (API key, or Tender's key in an in-person refund's metadata) or with
    /// this id, or nil when Stripe has none.
    func refundResult(idempotencyKey: String, refundID: String?) -> RefundResult? {
        state.refunds.first {
            $0.idempotencyKey == idempotencyKey || $0.metadata[StripeMapping.refundMetadataKey] == idempotencyKey
                || (refundID != nil && $0.stripeId == refundID)
        }.map(Self.result)
    }

    private func createRefund(charge: ServerCharge, amount: UInt?, currency: String, idempotencyKey: String?,
                              metadata: [String: String], inPerson: Bool, failure: String?)
        throws(StripeSimulatorServer.APIError) -> ServerRefund {
        guard charge.captured, !charge.released else {
            throw StripeSimulatorServer.APIError(code: "charge_not_captured", message: "Only a captured charge can be refunded.")
        }
        let refunded = state.refunds.filter { $0.chargeId == charge.stripeId && $0.status != .failed }.map(\.amount).reduce(0, +)
        let amount = amount ?? (charge.amountCaptured - refunded)
        guard currency == charge.currency, amount > 0, refunded + amount <= charge.amountCaptured else {
            throw StripeSimulatorServer.APIError(code: "amount_too_large",
                                                 message: "Refund of \(amount) exceeds the \(charge.amountCaptured - refunded) left to refund.")
        }
        let failsLater = charge.card == .refundFailed
        let refund = ServerRefund(
            stripeId: nextID("re_"), chargeId: charge.stripeId, paymentIntentId: charge.paymentIntentId, amount: amount,
            currency: currency,
            status: failure != nil ? .failed : (failsLater ? configuration.refundFailedCardStartsAs : .succeeded),
            idempotencyKey: idempotencyKey, metadata: metadata, inPerson: inPerson, failureReason: failure,
            failsAt: failsLater ? clock.now().addingTimeInterval(configuration.refundFailureDelay) : nil)
        state.refunds.append(refund)
        log("refund \(refund.stripeId) of \(amount) \(refund.status.rawValue)")
        return refund
    }

    /// Fails the refunds whose failure fell due (the `refundFailed` card), pending or already succeeded: their amount
    /// is refundable again.
    func settleRefunds() {
        let now = clock.now()
        for i in state.refunds.indices where state.refunds[i].status == .pending || state.refunds[i].status == .succeeded {
            guard let due = state.refunds[i].failsAt, due <= now else { continue }
            state.refunds[i].status = .failed
            state.refunds[i].failureReason = "expired_or_canceled_card"
        }
    }

    private static func result(_ refund: ServerRefund) -> RefundResult {
        let status: RefundStatus = switch refund.status {
        case .succeeded: .succeeded
        case .failed: .failed
        case .pending, .unknown: .pending
        }
        let error = status == .failed ? Stripe.errorTable.error(
            named: "refundFailed", numericCode: 6800, vendorMessage: refund.failureReason,
            declineCode: refund.failureReason, phase: .refund) : nil
        return RefundResult(processorRefundID: refund.stripeId, status: status, error: error)
    }

    private static func sdkRefund(_ refund: ServerRefund) -> Stripe.Refund {
        Stripe.Refund(stripeId: refund.stripeId, amount: refund.amount, currency: refund.currency,
                      charge: refund.chargeId, status: refund.status, metadata: refund.metadata,
                      failureReason: refund.failureReason)
    }
}
