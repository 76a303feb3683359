import Foundation

/// The app's server-side view of Stripe's PaymentIntents API, for recovery and for abandoned payments: the SDK
/// keeps no listing of the intents it handed out, so after a timeout, a relaunch or a crash the intent of an
/// earlier attempt is found on the server — by id when the adapter recorded one, otherwise by Tender's reference
/// in its metadata.
///
/// Stripe documents Search as eventually consistent: a new or updated intent can take about a minute to appear.
/// An empty search is therefore "not seen yet", never "never created"; retrieving by id is consistent.
///
/// `TenderServer`'s Stripe client implements it over the REST API; ``StripeSimulator``'s server does in tests.
package protocol StripeServerLookup: Sendable {
    /// `GET /v1/payment_intents/search?query=metadata['key']:'value'`: the intents whose `metadata[key] == value`,
    /// oldest first, as Stripe's search index has them now.
    /// - Throws: when the server cannot be reached (the adapter then answers "unknown").
    func paymentIntents(metadataKey key: String, value: String) async throws -> [Stripe.PaymentIntent]

    /// `GET /v1/payment_intents/:id`: the intent, or `nil` when Stripe has no intent with this id.
    /// - Throws: when the server cannot be reached.
    func paymentIntent(id: String) async throws -> Stripe.PaymentIntent?

    /// `POST /v1/payment_intents/:id/cancel`: cancels an intent that is not captured or canceled yet (an abandoned
    /// attempt's intent, so nothing is left that could still charge). Returns the intent as Stripe now has it.
    /// - Throws: when the server cannot be reached or Stripe refuses (an intent that already succeeded).
    func cancelPaymentIntent(id: String) async throws -> Stripe.PaymentIntent
}
