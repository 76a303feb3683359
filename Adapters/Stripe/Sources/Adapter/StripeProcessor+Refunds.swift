import Foundation
public import Tender

extension StripeProcessor {
    /// Refunds a captured payment through the app's ``PaymentRefundService`` (`POST /v1/refunds`, idempotent under
    /// ``RefundRequest/idempotencyKey``), or, for payments Stripe refunds only in person (Interac: "these payments
    /// cannot be refunded via the dashboard or the API"), through the reader: `collectRefundPaymentMethod` (the
    /// cardholder presents the card again) then `confirmRefund`.
    ///
    /// The SDK's in-person refunds take no idempotency key: the key travels in the refund's metadata
    /// (``StripeMapping/refundMetadataKey``), and the app's server is asked first whether a refund under it exists,
    /// so a retry after a lost answer never refunds twice.
    /// - Throws: ``PaymentError/Code/featureUnavailable`` without a refund service; a ``PaymentError`` when Stripe
    ///   refused the refund before anything was refunded, or when its outcome is not known (the core keeps it
    ///   pending and calls ``lookUpRefund(_:processorPaymentID:)``).
    public func refundPayment(_ request: RefundRequest, throughReader: Bool) async throws -> RefundResult {
        guard let refundService else {
            throw PaymentError(.featureUnavailable, recovery: .fixIntegration, phase: .refund,
                               message: "Refunds need the app's refund service (StripeProcessor(refundService:)).")
        }
        guard throughReader else {
            do { return try await refundService.refund(request) } catch { throw Self.refundError(error) }
        }
        do {
            if let earlier = try await refundService.lookUpRefund(
                processor: name, processorPaymentID: request.processorPaymentID,
                idempotencyKey: request.idempotencyKey, processorRefundID: nil), earlier.status != .failed {
                return earlier
            }
        } catch {
            throw Self.refundError(error)
        }
        return try await refundInPerson(request)
    }

    /// What the app's server holds of a refund (by its idempotency key or id); `nil` only when Stripe has none.
    public func lookUpRefund(_ refund: RefundRecord, processorPaymentID: String) async throws -> RefundResult? {
        guard let refundService else {
            throw PaymentError(.featureUnavailable, recovery: .fixIntegration, phase: .refund,
                               message: "Refund lookups need the app's refund service.")
        }
        do {
            return try await refundService.lookUpRefund(processor: name, processorPaymentID: processorPaymentID,
                                                        idempotencyKey: refund.id,
                                                        processorRefundID: refund.processorRefundID)
        } catch {
            throw Self.refundError(error)
        }
    }

    private func refundInPerson(_ request: RefundRequest) async throws -> RefundResult {
        guard let serverLookup else {
            throw PaymentError(.featureUnavailable, recovery: .fixIntegration, phase: .refund,
                               message: "An in-person refund needs the app's server lookup to find the charge.")
        }
        let intent: Stripe.PaymentIntent?
        do { intent = try await serverLookup.paymentIntent(id: request.processorPaymentID) } catch {
            throw Self.refundError(error)
        }
        guard let charge = intent?.authorizedCharge else {
            throw PaymentError(.invalidState, recovery: .none, phase: .refund,
                               message: "PaymentIntent \(request.processorPaymentID) has no charge to refund.")
        }
        let parameters = Stripe.RefundParameters(
            chargeId: charge.stripeId, amount: try request.amount.unsignedMinorUnits(),
            currency: request.amount.currency.lowercasedCode,
            metadata: [StripeMapping.refundMetadataKey: request.idempotencyKey,
                       StripeMapping.referenceMetadataKey: request.reference])
        let key = "refund:" + request.idempotencyKey
        let (_, collectError): (Bool?, Stripe.ErrorCode?) = await run(key) { done in
            await client.collectRefundPaymentMethod(parameters, refundConfig: nil,
                                                    completion: { done.resume((nil, $0)) })
        }
        if let collectError { throw StripeMapping.paymentError(collectError, phase: .refund) }
        let (refund, confirmError) = await run(key) { done in
            await client.confirmRefund(completion: { done.resume(($0, $1)) })
        }
        if let refund { return Self.result(refund, error: confirmError) }
        let error = confirmError ?? Stripe.ErrorCode(Stripe.ErrorCode.Code("unexpectedSdkError"),
                                                     message: "confirmRefund completed with neither refund nor error.")
        var mapped = StripeMapping.paymentError(error, phase: .refund)
        if error.code != .notConnectedToInternet, error.code != .canceled, error.apiError == nil {
            // `ConfirmRefundError.refund` nil: "the request to Stripe's servers timed out and the refund's status is
            // unknown". The core keeps it pending and looks it up (by the key in its metadata).
            mapped.code = .outcomeUnknown
            mapped.recovery = .waitAndRetry
            mapped.message = "Stripe did not answer the refund in time; whether it was refunded is looked up, never "
                + "refunded twice."
        }
        throw mapped
    }

    private static func result(_ refund: Stripe.Refund, error: Stripe.ErrorCode?) -> RefundResult {
        let status: RefundStatus = switch refund.status {
        case .succeeded: .succeeded
        case .failed: .failed
        case .pending, .unknown: .pending
        }
        var mapped: PaymentError?
        if status == .failed {
            mapped = Stripe.errorTable.error(named: Stripe.ErrorCode.Code.refundFailed.name, numericCode: 6800,
                                             vendorMessage: error?.message ?? refund.failureReason,
                                             declineCode: refund.failureReason, phase: .refund)
        }
        return RefundResult(processorRefundID: refund.stripeId, status: status, error: mapped)
    }

    private static func refundError(_ error: any Error) -> PaymentError {
        (error as? PaymentError) ?? PaymentError(.networkUnavailable, recovery: .waitAndRetry, phase: .refund,
                                                 message: "The app's refund service could not be reached: \(error).")
    }
}
