import Foundation
public import TenderWire

extension TenderBackendClient {
    /// `POST /v1/payments/capture` with the request as it is (its idempotency key unchanged).
    public func capture(_ request: CaptureRequest) async throws {
        _ = try await send("POST", ["v1", "payments", "capture"], body: request, phase: .capture)
    }

    /// `POST /v1/payments/void` with the request as it is.
    public func void(_ request: VoidRequest) async throws {
        _ = try await send("POST", ["v1", "payments", "void"], body: request, phase: .capture)
    }

    /// `POST /v1/refunds` with the request as it is.
    public func refund(_ request: RefundRequest) async throws -> RefundResult {
        guard let result = try await call("POST", ["v1", "refunds"], body: request, as: RefundResult.self,
                                          phase: .refund) else { throw Self.empty(.refund) }
        return result
    }

    /// `POST /v1/refunds/lookup`: `nil` only when the server says the processor certainly holds no such refund.
    public func lookUpRefund(processor: String, processorPaymentID: String, idempotencyKey: String,
                             processorRefundID: String?) async throws -> RefundResult? {
        let body = BackendBodies.RefundLookup(processor: processor, processorPaymentID: processorPaymentID,
                                              idempotencyKey: idempotencyKey, processorRefundID: processorRefundID)
        return try await call("POST", ["v1", "refunds", "lookup"], body: body, as: BackendBodies.RefundLookupAnswer.self,
                              phase: .refund)?.refund
    }

    // MARK: - Stripe

    /// `GET /v1/stripe/payment-intents?metadataKey=…&value=…`: found, unknown or absent, as the server says.
    public func findPaymentIntents(metadataKey key: String, value: String) async throws -> StripeReferenceLookup {
        guard let answer = try await call("GET", ["v1", "stripe", "payment-intents"],
                                          query: [URLQueryItem(name: "metadataKey", value: key),
                                                  URLQueryItem(name: "value", value: value)],
                                          as: BackendBodies.StripeLookup.self, phase: .reconciliation)
        else { throw Self.empty(.reconciliation) }
        switch answer.result {
        case "found" where !answer.paymentIntents.isEmpty: return .found(answer.paymentIntents, complete: answer.complete)
        case "absent": return .absent
        default: return .unknown
        }
    }

    /// `GET /v1/stripe/payment-intents/{id}`, or `nil` when Stripe has no such intent.
    public func retrievePaymentIntent(id: String) async throws -> StripeAPI.PaymentIntent? {
        try await call("GET", ["v1", "stripe", "payment-intents", id], as: StripeAPI.PaymentIntent.self,
                       phase: .reconciliation, absentOn404: true)
    }

    /// `POST /v1/stripe/payment-intents/{id}/abandon`: the intent as Stripe has it after the cancel.
    public func cancelAbandonedPaymentIntent(id: String) async throws -> StripeAPI.PaymentIntent {
        guard let intent = try await call("POST", ["v1", "stripe", "payment-intents", id, "abandon"],
                                          as: StripeAPI.PaymentIntent.self, phase: .cancellation)
        else { throw Self.empty(.cancellation) }
        return intent
    }

    // MARK: - Square

    /// `GET /v1/square/payments?referenceID=…&locationID=…`.
    public func payments(referenceID: String, locationID: String) async throws -> [SquareAPI.Payment] {
        try await call("GET", ["v1", "square", "payments"],
                       query: [URLQueryItem(name: "referenceID", value: referenceID),
                               URLQueryItem(name: "locationID", value: locationID)],
                       as: BackendBodies.SquarePayments.self, phase: .reconciliation)?.payments ?? []
    }

    /// `GET /v1/square/payments/{id}`, or `nil` when Square has no such payment.
    public func getPayment(id: String) async throws -> SquareAPI.Payment? {
        try await call("GET", ["v1", "square", "payments", id], as: BackendBodies.SquarePayment.self,
                       phase: .reconciliation, absentOn404: true)?.payment
    }

    /// `POST /v1/square/payments/cancel-by-idempotency-key` with the key as it is.
    public func cancelPayment(idempotencyKey: String) async throws {
        _ = try await send("POST", ["v1", "square", "payments", "cancel-by-idempotency-key"],
                           body: BackendBodies.CancelByKey(idempotencyKey: idempotencyKey), phase: .cancellation)
    }

    static func empty(_ phase: PaymentError.Phase) -> PaymentError {
        PaymentError(.unexpected, recovery: .retrySamePayment, phase: phase, message: "The server's answer was empty.")
    }
}
