package import Foundation
import Tender
package import TenderStripe

// Stripe's idempotency keys for the server calls that take one: capture and cancel. Keys belong to the account (one
// simulator is one account, however many locations its readers are at): a key reused within its lifetime with the
// same endpoint and parameters gets the first result again without acting twice; with others, `idempotency_error`
// ("Keys for idempotent requests can only be used with the same parameters they were first used with"). Refunds
// carry their key in the refund itself (``StripeSimulator/ServerRefund/idempotencyKey``).
extension StripeSimulator {
    /// What Stripe remembers of a request made under an idempotency key.
    package struct IdempotentRequest: Hashable, Sendable, Codable {
        /// The endpoint and parameters, e.g. `POST /v1/payment_intents/pi_1/capture amount_to_capture=500`.
        package var request: String
        /// When the key was first used.
        package var at: Date
        /// Whether the first request succeeded (a success is answered again without acting; an error is not saved).
        package var succeeded: Bool
    }

    /// Runs `body` under Stripe's idempotency rules for `key` (nothing is checked without a key).
    /// - Returns: `true` when `body` ran, `false` when the key's earlier success was answered again.
    /// - Throws: `idempotency_error` when the key is live for another request; whatever `body` throws.
    func idempotent(key: String?, request: String, _ body: () throws(StripeSimulatorServer.APIError) -> Void)
        throws(StripeSimulatorServer.APIError) -> Bool {
        guard let key else {
            try body()
            return true
        }
        let now = clock.now()
        var keys = state.idempotentRequests ?? [:]
        if let earlier = keys[key], now.timeIntervalSince(earlier.at) < configuration.idempotencyKeyLifetime {
            guard earlier.request == request else {
                throw StripeSimulatorServer.APIError(
                    code: "idempotency_error",
                    message: "Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '\(key)' if you meant to execute a different request.")
            }
            if earlier.succeeded { return false }
        }
        do {
            try body()
        } catch {
            keys[key] = nil
            state.idempotentRequests = keys
            throw error
        }
        keys[key] = IdempotentRequest(request: request, at: now, succeeded: true)
        state.idempotentRequests = keys
        return true
    }

    /// `POST /v1/payment_intents/:id/capture` (`amount_to_capture`, at most what is capturable): refused unless
    /// `requires_capture` (an expired authorization is canceled; one to renew is `requires_reauthorization`). Under
    /// an idempotency key, Stripe's rules apply (``idempotent(key:request:_:)``).
    package func capture(stripeId: String, amount: UInt? = nil, idempotencyKey: String? = nil)
        throws(StripeSimulatorServer.APIError) {
        _ = try idempotent(key: idempotencyKey,
                           request: "POST /v1/payment_intents/\(stripeId)/capture amount_to_capture=\(amount.map(String.init) ?? "")") {
            () throws(StripeSimulatorServer.APIError) in try captureNow(stripeId: stripeId, amount: amount)
        }
    }

    /// `POST /v1/payment_intents/:id/cancel`: releases an uncaptured authorization. Refused once succeeded or
    /// canceled. Under an idempotency key, Stripe's rules apply (``idempotent(key:request:_:)``): the same request
    /// again answers the canceled intent.
    @discardableResult
    package func cancelOnServer(stripeId: String, reason: String = "requested_by_customer", idempotencyKey: String?)
        throws(StripeSimulatorServer.APIError) -> Stripe.PaymentIntent {
        var canceled: Stripe.PaymentIntent?
        let ran = try idempotent(key: idempotencyKey,
                                 request: "POST /v1/payment_intents/\(stripeId)/cancel cancellation_reason=\(reason)") {
            () throws(StripeSimulatorServer.APIError) in canceled = try cancelOnServer(stripeId: stripeId, reason: reason)
        }
        if !ran, let current = serverIntent(stripeId: stripeId) { return current }
        guard let canceled else {
            throw StripeSimulatorServer.APIError(code: "resource_missing", message: "No such PaymentIntent: \(stripeId).")
        }
        return canceled
    }
}
