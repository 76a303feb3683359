import Foundation
public import TenderWire

/// Both vendors' server clients behind one ``TenderWire/PaymentCaptureService`` and ``TenderWire/PaymentRefundService``,
/// dispatching on the processor name the adapter passes (`"stripe"`, `"square"`): what a server app that serves
/// both kinds of merchant hands to Tender.
///
/// ```swift
/// let server = TenderServer(
///     stripe: StripeServerClient(secretKey: Credential(env["STRIPE_SECRET_KEY"]!)),
///     square: SquareServerClient(accessToken: Credential(env["SQUARE_ACCESS_TOKEN"]!)))
/// ```
public struct TenderServer: PaymentCaptureService, PaymentRefundService, CustomStringConvertible {
    /// The Stripe client, if this server serves Stripe merchants.
    package let stripe: StripeServerClient?
    /// The Square client, if this server serves Square sellers.
    package let square: SquareServerClient?

    /// Creates the dispatcher.
    public init(stripe: StripeServerClient? = nil, square: SquareServerClient? = nil) {
        self.stripe = stripe
        self.square = square
    }

    /// `TenderServer(stripe: …, square: …)`: the clients' descriptions, never a credential.
    public var description: String {
        "TenderServer(stripe: \(stripe.map(String.init(describing:)) ?? "none"), square: \(square.map(String.init(describing:)) ?? "none"))"
    }

    private func service(_ processor: String, phase: PaymentError.Phase) throws(PaymentError)
        -> any PaymentCaptureService & PaymentRefundService {
        if processor == StripeServerClient.processor, let stripe { return stripe }
        if processor == SquareServerClient.processor, let square { return square }
        throw PaymentError(.configurationError, recovery: .fixIntegration, phase: phase,
                           message: "This server has no client for processor \(processor).")
    }

    /// Captures through the processor's client, with the device's idempotency key unchanged.
    public func capture(_ request: CaptureRequest) async throws {
        try await service(request.processor, phase: .capture).capture(request)
    }

    /// Voids through the processor's client, with the device's idempotency key unchanged.
    public func void(_ request: VoidRequest) async throws {
        try await service(request.processor, phase: .capture).void(request)
    }

    /// Refunds through the processor's client, with the device's idempotency key unchanged.
    public func refund(_ request: RefundRequest) async throws -> RefundResult {
        try await service(request.processor, phase: .refund).refund(request)
    }

    /// Looks a refund up through the processor's client.
    public func lookUpRefund(processor: String, processorPaymentID: String, idempotencyKey: String,
                             processorRefundID: String?) async throws -> RefundResult? {
        try await service(processor, phase: .refund).lookUpRefund(
            processor: processor, processorPaymentID: processorPaymentID, idempotencyKey: idempotencyKey,
            processorRefundID: processorRefundID)
    }
}
