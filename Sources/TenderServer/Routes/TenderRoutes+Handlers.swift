import Foundation
import TenderWire

extension TenderRoutes {
    // MARK: - Sign-in

    /// A connection token scoped to the caller's location. The secret goes to this answer only.
    func connectionToken(_ caller: LedgerScope) async throws -> HTTPResponse {
        let stripe = try stripeClient(phase: .authorization)
        try await authorize(caller, for: caller.locationID, processor: StripeServerClient.processor,
                            phase: .authorization, what: "a connection token for this location")
        let token = try await stripe.createConnectionToken(location: caller.locationID)
        return RouteJSON.response(200, RouteBodies.ConnectionToken(secret: token.secret),
                                  headers: ["Cache-Control": "no-store"])
    }

    /// The seller's OAuth access token and the caller's location id. The token goes to this answer only.
    func squareAuthorization(_ caller: LedgerScope) async throws -> HTTPResponse {
        guard let squareSignIn else {
            throw RouteFailure.notConfigured("This server does not hand over Square's authorization.",
                                             phase: .authorization)
        }
        try await authorize(caller, for: caller.locationID, processor: SquareServerClient.processor,
                            phase: .authorization, what: "Square's authorization for this location")
        let token: Credential
        do {
            token = try await squareSignIn(caller)
        } catch {
            // The sign-in closure's error is not shown: it could carry anything.
            throw RouteFailure(status: 502, error: PaymentError(
                .notAuthorized, recovery: .waitAndRetry, phase: .authorization,
                message: "The server could not get the seller's access token."))
        }
        guard !token.isEmpty else {
            throw RouteFailure.notConfigured("The server has no access token for this seller.", phase: .authorization)
        }
        return RouteJSON.response(200, RouteBodies.SquareAuthorization(accessToken: token.secret,
                                                                       locationID: caller.locationID),
                                  headers: ["Cache-Control": "no-store"])
    }

    // MARK: - Capture, void, refunds

    /// Captures after checking the payment belongs to the caller; the device's idempotency key goes on unchanged.
    /// The key must be derived in the caller's scope, the amount in the payment's currency.
    func capture(_ request: CaptureRequest, caller: LedgerScope) async throws {
        try await checkKey(request.idempotencyKey, reference: request.reference, processor: request.processor,
                           caller: caller, phase: .capture)
        let currency = try await ownedPaymentCurrency(request.processor, request.processorPaymentID, caller: caller,
                                                      phase: .capture)
        try checkCurrency(request.amount, paymentCurrency: currency, id: request.processorPaymentID, phase: .capture)
        do { try await service(request.processor, phase: .capture).capture(request) } catch {
            throw RouteFailure.vendor(PaymentError(capturing: error))
        }
    }

    /// Voids after checking the payment belongs to the caller.
    func void(_ request: VoidRequest, caller: LedgerScope) async throws {
        try await checkKey(request.idempotencyKey, reference: request.reference, processor: request.processor,
                           caller: caller, phase: .capture)
        try await checkPayment(request.processor, request.processorPaymentID, caller: caller, phase: .capture)
        do { try await service(request.processor, phase: .capture).void(request) } catch {
            throw RouteFailure.vendor(PaymentError(capturing: error))
        }
    }

    /// Refunds after checking the payment belongs to the caller.
    func refund(_ request: RefundRequest, caller: LedgerScope) async throws -> RefundResult {
        try await checkKey(request.idempotencyKey, reference: request.reference, processor: request.processor,
                           caller: caller, phase: .refund)
        let currency = try await ownedPaymentCurrency(request.processor, request.processorPaymentID, caller: caller,
                                                      phase: .refund)
        try checkCurrency(request.amount, paymentCurrency: currency, id: request.processorPaymentID, phase: .refund)
        return try await service(request.processor, phase: .refund).refund(request)
    }

    /// Looks a refund up after checking the payment belongs to the caller and the refund (named by id) to the payment.
    func lookUpRefund(_ request: RouteBodies.RefundLookup, caller: LedgerScope) async throws -> RefundResult? {
        try await checkPayment(request.processor, request.processorPaymentID, caller: caller, phase: .refund)
        try await checkRefundBelongs(request)
        return try await service(request.processor, phase: .refund).lookUpRefund(
            processor: request.processor, processorPaymentID: request.processorPaymentID,
            idempotencyKey: request.idempotencyKey, processorRefundID: request.processorRefundID)
    }

    // MARK: - Stripe lookups

    /// The caller's intents carrying `metadata[key] == value`: intents of other locations are left out (a complete
    /// list without the caller's is still a proof of absence; an incomplete one is not).
    func stripeIntents(metadataKey key: String, value: String, caller: LedgerScope) async throws
        -> RouteBodies.StripeLookup {
        let stripe = try stripeClient(phase: .reconciliation)
        try await authorize(caller, for: caller.locationID, processor: StripeServerClient.processor,
                            phase: .reconciliation, what: "this location's payments")
        let found = try await stripe.findPaymentIntents(metadataKey: key, value: value)
        var mine: [StripeAPI.PaymentIntent] = []
        for intent in found.intents where await owns(caller, intent) { mine.append(intent) }
        switch found {
        case .found(_, let complete) where !mine.isEmpty:
            return .init(result: "found", complete: complete, paymentIntents: mine)
        case .found(_, complete: true), .absent:
            return .init(result: "absent", complete: true, paymentIntents: [])
        default:
            return .init(result: "unknown", complete: false, paymentIntents: [])
        }
    }

    /// The intent, when it belongs to the caller.
    func ownedStripeIntent(_ id: String, caller: LedgerScope, phase: PaymentError.Phase) async throws
        -> StripeAPI.PaymentIntent {
        let stripe = try stripeClient(phase: phase)
        guard let intent = try await stripe.retrievePaymentIntent(id: id) else {
            throw RouteFailure.notFound("Stripe has no PaymentIntent \(id).", phase: phase)
        }
        guard await owns(caller, intent) else { throw refusal(id, phase: phase) }
        return intent
    }

    /// Cancels an abandoned attempt's intent that belongs to the caller.
    func abandonStripeIntent(_ id: String, caller: LedgerScope) async throws -> StripeAPI.PaymentIntent {
        _ = try await ownedStripeIntent(id, caller: caller, phase: .cancellation)
        return try await stripeClient(phase: .cancellation).cancelAbandonedPaymentIntent(id: id)
    }

    // MARK: - Square lookups

    /// The payments with the reference at `locationID`, which the caller must be allowed to act for.
    func squarePayments(referenceID: String, locationID: String, caller: LedgerScope) async throws
        -> [SquareAPI.Payment] {
        let square = try squareClient(phase: .reconciliation)
        try await authorize(caller, for: locationID, processor: SquareServerClient.processor,
                            phase: .reconciliation, what: "location \(locationID)'s payments")
        return try await square.payments(referenceID: referenceID, locationID: locationID)
            .filter { $0.locationID == locationID }
    }

    /// The payment, when it belongs to the caller.
    func ownedSquarePayment(_ id: String, caller: LedgerScope, phase: PaymentError.Phase) async throws
        -> SquareAPI.Payment {
        let square = try squareClient(phase: phase)
        guard let payment = try await square.getPayment(id: id) else {
            throw RouteFailure.notFound("Square has no payment \(id).", phase: phase)
        }
        guard let location = payment.locationID,
              await allows(caller, owner: owner(location, processor: SquareServerClient.processor, caller: caller),
                           processor: SquareServerClient.processor) else { throw refusal(id, phase: phase) }
        return payment
    }

    /// Voids the payment created under the key, when the key was derived in a scope the caller may act for
    /// (`<merchant>/<location>/…`, ``TenderWire/IdempotencyKey``), or is the opaque key Square's SDK generated for
    /// the caller's own attempt (``checkOpaqueCancelKey(_:caller:)``): Square cannot tell whose payment it is before.
    func cancelSquarePayment(idempotencyKey: String, caller: LedgerScope) async throws {
        let square = try squareClient(phase: .cancellation)
        // Square requires a key (CancelPaymentByIdempotencyKey: minLength 1): an empty one is the device's mistake.
        guard !idempotencyKey.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw RouteFailure.badRequest("idempotencyKey is empty: name the attempt's key to cancel its payment.",
                                          phase: .cancellation)
        }
        let parts = idempotencyKey.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 5, let merchant = parts[0].removingPercentEncoding,
              let location = parts[1].removingPercentEncoding else {
            try await checkOpaqueCancelKey(idempotencyKey, caller: caller)
            return try await square.cancelPayment(idempotencyKey: idempotencyKey)
        }
        try checkMerchant(caller, processor: SquareServerClient.processor, phase: .cancellation)
        guard await allows(caller, owner: LedgerScope(merchantID: merchant, locationID: location),
                           processor: SquareServerClient.processor) else {
            throw RouteFailure.forbidden("The idempotency key was not derived for this device's location.",
                                         phase: .cancellation)
        }
        try await square.cancelPayment(idempotencyKey: idempotencyKey)
    }
}
