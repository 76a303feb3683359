import Foundation
package import TenderWire

extension SquareAPI {
    /// `PaymentRefund`.
    package struct PaymentRefund: Codable, Hashable, Sendable, DeclaredFields {
        /// `id`.
        package var id: String
        /// `status`: `PENDING`, `COMPLETED`, `REJECTED`, `FAILED`.
        package var status: String?
        /// `location_id`.
        package var locationID: String?
        /// `amount_money`.
        package var amountMoney: Money
        /// `payment_id`.
        package var paymentID: String?
        /// `order_id`.
        package var orderID: String?
        /// `reason`.
        package var reason: String?
        /// `created_at`.
        package var createdAt: String?
        /// `updated_at`.
        package var updatedAt: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, status, reason
            case locationID = "location_id", amountMoney = "amount_money", paymentID = "payment_id"
            case orderID = "order_id", createdAt = "created_at", updatedAt = "updated_at"
        }

        /// The wire names of the declared fields.
        package static var declaredFields: [String] { CodingKeys.allCases.map(\.rawValue) }
    }

    /// A response with a payment (`GetPayment`, `CompletePayment`, `CancelPayment`).
    struct PaymentResponse: Codable {
        var payment: Payment?
        var errors: [APIError]?
    }

    /// `ListPayments`' response.
    struct ListPaymentsResponse: Codable {
        var payments: [Payment]?
        var cursor: String?
        var errors: [APIError]?
    }

    /// A response with a refund (`RefundPayment`, `GetPaymentRefund`).
    struct RefundResponse: Codable {
        var refund: PaymentRefund?
        var errors: [APIError]?
    }

    /// A response with only errors (`CancelPaymentByIdempotencyKey`), or any error response.
    struct ErrorsResponse: Codable {
        var errors: [APIError]?
    }
}
