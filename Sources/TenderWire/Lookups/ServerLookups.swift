import Foundation

// What the app's server answers when the device asks what a processor holds of a payment: the vendor's own REST
// objects (``StripeAPI/PaymentIntent``, ``SquareAPI/Payment``), so a server can pass the vendor's answer through
// unchanged. `TenderServer`'s clients implement these protocols over the REST APIs; on the device, an app that asks its
// own server implements them over its HTTP calls, and the adapters turn either into their server lookups
// (`StripeRESTServerLookup`, `SquareRESTServerLookup`).

/// What a search for Tender's reference found. Stripe's Search is eventually consistent (an intent can take about
/// a minute to appear), so an empty search is ``unknown``, never ``absent``; only a complete, consistent list can
/// say ``absent``.
public enum StripeReferenceLookup: Hashable, Sendable, Codable {
    /// The intents carrying the reference, oldest first. `complete` is true when they came from a complete list
    /// (consistent); from Search an intent created in the last minute may still be missing.
    case found([StripeAPI.PaymentIntent], complete: Bool)
    /// Nothing found, and that proves nothing: Search has not indexed it yet, or the listing stopped at its page
    /// limit.
    case unknown
    /// A complete list (of the intents created since a server's creation bound, or all) holds no intent with the reference: Stripe had none when asked.
    case absent

    /// The intents found (empty for ``unknown`` and ``absent``).
    public var intents: [StripeAPI.PaymentIntent] {
        if case .found(let intents, _) = self { intents } else { [] }
    }
}

/// Stripe's PaymentIntents as the app's server reads them, for recovery and abandoned payments.
///
/// Stripe documents Search as eventually consistent: an empty search is "not seen yet", never "never created";
/// retrieving by id is consistent.
public protocol StripeRESTLookup: Sendable {
    /// The intents whose `metadata[key] == value` (found / unknown / absent), oldest first.
    /// - Throws: when the server cannot be reached.
    func findPaymentIntents(metadataKey key: String, value: String) async throws -> StripeReferenceLookup
    /// `GET /v1/payment_intents/:id`, or `nil` when Stripe has no intent with this id.
    /// - Throws: when the server cannot be reached.
    func retrievePaymentIntent(id: String) async throws -> StripeAPI.PaymentIntent?
    /// Cancels an abandoned attempt's intent (one not captured or canceled yet), returning it as Stripe now has it;
    /// an intent already canceled is returned as it is.
    /// - Throws: when the server cannot be reached or Stripe refuses (an intent that already succeeded).
    func cancelAbandonedPaymentIntent(id: String) async throws -> StripeAPI.PaymentIntent
}

/// Square's Payments API as the app's server reads it, for recovery and abandonment.
public protocol SquareRESTLookup: Sendable {
    /// The payments with this `reference_id` at the location, online and offline, oldest first. `ListPayments` is
    /// eventually consistent: an empty answer does not prove that no payment exists.
    /// - Throws: when the server cannot be reached, or the answer would be incomplete.
    func payments(referenceID: String, locationID: String) async throws -> [SquareAPI.Payment]
    /// `GetPayment`, or `nil` when Square answers `NOT_FOUND`.
    /// - Throws: when the server cannot be reached.
    func getPayment(id: String) async throws -> SquareAPI.Payment?
    /// `CancelPaymentByIdempotencyKey`: voids the payment created with this key, if there is one.
    /// - Throws: when the server cannot be reached, or Square refuses.
    func cancelPayment(idempotencyKey: String) async throws
}
