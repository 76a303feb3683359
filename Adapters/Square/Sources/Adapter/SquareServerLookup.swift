import Foundation

/// The app's server-side view of Square's Payments API, for recovery: after a timeout or a
/// `paymentAttemptIdReused`, the SDK only says that an idempotency key exists; the payment itself is found on the
/// server (`ListPayments` filtered by `reference_id`). Optional: without it, the adapter answers "unknown" and the
/// core keeps the session for reconciliation, never charging again.
///
/// `TenderServer`'s Square client implements it over the Payments API; ``SquareSimulator``'s server does in tests.
public protocol SquareServerLookup: Sendable {
    /// The server's payments with this `reference_id` at this location, oldest first.
    /// - Throws: when the server cannot be reached (the adapter then answers "unknown").
    func payments(referenceID: String, locationID: String) async throws -> [Square.OnlinePayment]

    /// `CancelPaymentByIdempotencyKey`: voids the payment created with this key if there is one; succeeds either
    /// way. Square's answer for an unknown `CreatePayment` outcome (reference §5).
    /// - Throws: when the server cannot be reached.
    func cancelPayment(byIdempotencyKey key: String) async throws
}
