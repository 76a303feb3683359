import Foundation

/// The app's server-side view of Square's Payments API, for recovery and abandonment: the SDK only says whether it
/// stored an idempotency key for an attempt (`getIdempotencyKey(withPaymentAttemptId:)`); what Square holds is found on
/// the server. Optional: without it, unknown outcomes stay unknown and the core keeps the session for
/// reconciliation, never charging again.
///
/// `TenderServer`'s Square client implements it over the Payments API; ``SquareSimulator``'s server does in tests.
package protocol SquareServerLookup: Sendable {
    /// `ListPayments` at `locationID`, keeping the payments whose `reference_id` is `referenceID`, oldest first.
    /// `ListPayments` cannot filter by reference (the match is made client-side, page by page), and Square says its
    /// results "are eventually consistent, and new payments or changes to payments might take several seconds to
    /// appear": an empty answer does not prove that no payment exists.
    /// - Throws: when the server cannot be reached (the adapter then answers "unknown").
    func payments(referenceID: String, locationID: String) async throws -> [Square.APIPayment]

    /// `GetPayment`: the payment with this id, or `nil` when Square answers `NOT_FOUND`. Read by id, it is not
    /// subject to the search's lag (Square documents the lag for `ListPayments` only; unverified for `GetPayment`).
    /// - Throws: when the server cannot be reached.
    func payment(id: String) async throws -> Square.APIPayment?

    /// `CancelPaymentByIdempotencyKey` (`POST /v2/payments/cancel`): voids the payment created with this key if
    /// there is one; "if no payment with the specified idempotency key is found, no action is taken and the endpoint
    /// returns successfully". Square's answer for an unknown `CreatePayment` outcome (reference §5).
    /// - Throws: when the server cannot be reached, or when Square refuses (a payment that is already completed
    ///   cannot be voided).
    func cancelPayment(byIdempotencyKey key: String) async throws
}

extension Square {
    /// A `Payment` object of Square's Payments API (`v2/payments`), as the app's server reads it: what the SDK's
    /// ``OnlinePayment`` shows plus the server-only fields recovery needs (the delay, the offline details, refunds).
    package struct APIPayment: Hashable, Sendable, Codable {
        /// The Square payment id.
        package var id: String
        /// `APPROVED`, `PENDING`, `COMPLETED`, `CANCELED` or `FAILED` (the SDK's ``PaymentStatus`` cases of the
        /// same names).
        package var status: PaymentStatus
        /// The amount, excluding the tip (including a surcharge, if applied).
        package var amountMoney: Money
        /// The tip.
        package var tipMoney: Money?
        /// What has been refunded so far (`refunded_money`).
        package var refundedMoney: Money?
        /// `created_at`, Square's clock (for an offline payment: when Square processed it).
        package var createdAt: Date
        /// `updated_at`.
        package var updatedAt: Date
        /// `location_id`.
        package var locationID: String?
        /// `reference_id`: Tender's reference.
        package var referenceID: String?
        /// `note`.
        package var note: String?
        /// `card_details`.
        package var cardDetails: CardPaymentDetails?
        /// `delay_action`, for a delayed-capture payment.
        package var delayAction: DelayAction?
        /// `delayed_until`: when Square applies the delay action (`created_at` + `delay_duration`).
        package var delayedUntil: Date?
        /// `is_offline_payment`.
        package var isOfflinePayment: Bool
        /// `offline_payment_details.client_created_at`: when the device took an offline payment.
        package var offlineClientCreatedAt: Date?

        /// Creates a payment.
        package init(id: String, status: PaymentStatus, amountMoney: Money, tipMoney: Money? = nil,
                    refundedMoney: Money? = nil, createdAt: Date, updatedAt: Date, locationID: String?,
                    referenceID: String?, note: String? = nil, cardDetails: CardPaymentDetails?,
                    delayAction: DelayAction? = nil, delayedUntil: Date? = nil, isOfflinePayment: Bool = false,
                    offlineClientCreatedAt: Date? = nil) {
            self.id = id
            self.status = status
            self.amountMoney = amountMoney
            self.tipMoney = tipMoney
            self.refundedMoney = refundedMoney
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.locationID = locationID
            self.referenceID = referenceID
            self.note = note
            self.cardDetails = cardDetails
            self.delayAction = delayAction
            self.delayedUntil = delayedUntil
            self.isOfflinePayment = isOfflinePayment
            self.offlineClientCreatedAt = offlineClientCreatedAt
        }

        /// `total_money`: the amount plus the tip.
        package var totalMoney: Money { Money(totaling: amountMoney, tipMoney) }

        /// Money was taken, or is held for capture.
        package var isCharge: Bool { status == .approved || status == .completed }
    }

    /// `PaymentRefund.status` of Square's Refunds API.
    package enum PaymentRefundStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// `PENDING`: awaiting approval.
        case pending
        /// `COMPLETED`: refunded.
        case completed
        /// `REJECTED`: the refund was rejected.
        case rejected
        /// `FAILED`: an error occurred.
        case failed
    }
}
