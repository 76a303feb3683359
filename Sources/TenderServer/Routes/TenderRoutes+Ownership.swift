import Foundation
import TenderWire

/// The ownership rules that cover what the adapters really send (issue 28): Square's own idempotency keys, Stripe
/// intents recorded without a location, keys bound to the caller's scope, the currency of the payment, the size of a
/// body. See "Your server" in the documentation.
extension TenderRoutes {
    /// The largest request body the routes read (64 KiB; Tender's own bodies are a few hundred bytes): a larger one is
    /// answered `413` before it is decoded. Mount the routes behind your framework's own body limit as well.
    package static let maximumBodyBytes = 64 * 1024

    /// Refuses a body larger than ``maximumBodyBytes`` (`413`).
    func checkBodySize(_ request: HTTPRequest) throws(RouteFailure) {
        guard let body = request.body, body.count > Self.maximumBodyBytes else { return }
        throw RouteFailure(status: 413, error: PaymentError(
            .invalidRequest, recovery: .fixIntegration, phase: .validation,
            message: "The request body is \(body.count) bytes; these routes read at most \(Self.maximumBodyBytes)."))
    }

    /// The merchant and location a key of ``TenderWire/IdempotencyKey``'s form (`<merchant>/<location>/<reference>/
    /// <attempt>/<operation>`) was derived in, and its reference; nil for a key of another form.
    static func scopedKey(_ key: String) -> (scope: LedgerScope, reference: String)? {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 5, let merchant = parts[0].removingPercentEncoding,
              let location = parts[1].removingPercentEncoding, let reference = parts[2].removingPercentEncoding,
              !merchant.isEmpty, !location.isEmpty else { return nil }
        return (LedgerScope(merchantID: merchant, locationID: location), reference)
    }

    /// Refuses an idempotency key the caller may not spend (a device of one location could otherwise burn another
    /// location's next key for the vendor's 24 hours): a scoped key must be derived in a scope the caller may act for,
    /// for the request's reference; any other key must be a form a ledger recorded before keys were scoped
    /// (`<reference>/refund-<n>`, `<reference>[#<n>]/abandon`), naming the request's reference.
    func checkKey(_ key: String, reference: String, processor: String, caller: LedgerScope,
                  phase: PaymentError.Phase) async throws {
        guard processor == StripeServerClient.processor || processor == SquareServerClient.processor else {
            throw RouteFailure.badRequest("Unknown processor \(processor).", phase: phase)
        }
        let refused = RouteFailure.forbidden(
            "The idempotency key was not derived for this device's location and this payment's reference.", phase: phase)
        if let scoped = Self.scopedKey(key) {
            guard scoped.reference == reference,
                  await allows(caller, owner: scoped.scope, processor: processor) else { throw refused }
            return
        }
        guard let slash = key.lastIndex(of: "/") else { throw refused }
        let head = String(key[..<slash]), operation = key[key.index(after: slash)...]
        let legacyOperation = operation == "abandon" || (operation.hasPrefix("refund-")
            && Int(operation.dropFirst("refund-".count)) != nil)
        let sameReference = head == reference || (head.hasPrefix(reference + "#")
            && Int(head.dropFirst(reference.count + 1)) != nil)
        guard legacyOperation, sameReference else { throw refused }
    }

    /// Refuses an amount in another currency than the payment's (`400`, `currency_mismatch`).
    func checkCurrency(_ amount: Money, paymentCurrency: String?, id: String, phase: PaymentError.Phase)
        throws(RouteFailure) {
        guard let paymentCurrency, paymentCurrency.uppercased() != amount.currency.code.uppercased() else { return }
        throw RouteFailure(status: 400, error: PaymentError(
            .currencyMismatch, recovery: .fixRequest, phase: phase,
            message: "Payment \(id) is in \(paymentCurrency.uppercased()), not \(amount.currency.code)."))
    }

    /// The payment's currency, after checking it belongs to the caller (found by id, which is consistent at both
    /// vendors): before any capture, void or refund.
    func ownedPaymentCurrency(_ processor: String, _ id: String, caller: LedgerScope, phase: PaymentError.Phase)
        async throws -> String? {
        try Self.checkPaymentID(id, phase: phase)
        switch processor {
        case StripeServerClient.processor:
            return try await ownedStripeIntent(id, caller: caller, phase: phase).currency
        case SquareServerClient.processor:
            let payment = try await ownedSquarePayment(id, caller: caller, phase: phase)
            return payment.amountMoney?.currency ?? payment.totalMoney?.currency
        default: throw RouteFailure.badRequest("Unknown processor \(processor).", phase: phase)
        }
    }

    /// Refuses a refund id that is not a refund of the request's payment (another location's refund, found by its id,
    /// is never answered): the refund is read by id and its payment compared.
    func checkRefundBelongs(_ request: RouteBodies.RefundLookup) async throws {
        guard let refundID = request.processorRefundID else { return }
        let payment: String?
        switch request.processor {
        case StripeServerClient.processor:
            guard let refund = try await stripeClient(phase: .refund).retrieveRefund(id: refundID) else { return }
            payment = refund.paymentIntent
        case SquareServerClient.processor:
            guard let refund = try await squareClient(phase: .refund).getRefund(id: refundID) else { return }
            payment = refund.paymentID
        default: throw RouteFailure.badRequest("Unknown processor \(request.processor).", phase: .refund)
        }
        guard payment == request.processorPaymentID else {
            throw RouteFailure.forbidden("Refund \(refundID) is not a refund of payment \(request.processorPaymentID).",
                                         phase: .refund)
        }
    }

    /// Whether an opaque key (not of Tender's scoped form: the one Square's SDK generated for an attempt,
    /// `getIdempotencyKey(withPaymentAttemptId:)`) may be spent by the caller on `CancelPaymentByIdempotencyKey`.
    ///
    /// Square cannot tell whose payment such a key made (its Payment objects carry no idempotency key, and it has no
    /// lookup by key), so the proof is possession: the SDK generates the key on the device that makes the attempt
    /// and keeps it there; Square never returns it and no route answers it, so only that device can present it. The
    /// routes therefore accept it from a caller that may act for its own location (its merchant is the seller the
    /// routes serve), and refuse anything shaped like Tender's scoped keys that does not parse to such a scope.
    func checkOpaqueCancelKey(_ key: String, caller: LedgerScope) async throws {
        guard !key.contains("/"), key.utf8.count <= SquareServerClient.maximumIdempotencyKeyLength else {
            throw RouteFailure.forbidden("The idempotency key was not derived for this device's location.",
                                         phase: .cancellation)
        }
        try await authorize(caller, for: caller.locationID, processor: SquareServerClient.processor,
                            phase: .cancellation, what: "a void by idempotency key")
    }
}
