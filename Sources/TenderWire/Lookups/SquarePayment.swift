package import Foundation

/// Square's Payments API objects (version 2025-08-20, TenderServer's `Square-Version`) as TenderServer reads them and
/// a server answers the device's lookups with them, under the
/// API's own field names. Statuses and codes stay strings (the API documents them as open sets); the conversions
/// interpret them.
public enum SquareAPI {}

extension SquareAPI {
    /// A Square time (RFC 3339), with or without fractional seconds; nil when absent or unreadable.
    package static func date(_ text: String?) -> Date? {
        guard let text else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

extension SquareAPI {
    /// `Money`.
    public struct Money: Codable, Hashable, Sendable {
        /// `amount`, minor units.
        public var amount: Int64?
        /// `currency`, ISO 4217.
        public var currency: String?

        /// Creates an amount.
        public init(amount: Int64?, currency: String?) {
            self.amount = amount
            self.currency = currency
        }
    }

    /// `Payment` (the fields TenderServer reads).
    public struct Payment: Codable, Hashable, Sendable, DeclaredFields {
        /// `id`.
        public var id: String
        /// `created_at`, RFC 3339.
        public var createdAt: String?
        /// `updated_at`, RFC 3339.
        public var updatedAt: String?
        /// `amount_money`: the amount, excluding the tip.
        public var amountMoney: Money?
        /// `tip_money`.
        public var tipMoney: Money?
        /// `total_money`: amount plus tip.
        public var totalMoney: Money?
        /// `approved_money`.
        public var approvedMoney: Money?
        /// `refunded_money`.
        public var refundedMoney: Money?
        /// `status`: `APPROVED`, `PENDING`, `COMPLETED`, `CANCELED`, `FAILED`.
        public var status: String?
        /// `delay_action`: `CANCEL` or `COMPLETE`.
        public var delayAction: String?
        /// `delayed_until`.
        public var delayedUntil: String?
        /// `source_type`: `CARD`, `BANK_ACCOUNT`, `WALLET`, `BUY_NOW_PAY_LATER`, `SQUARE_ACCOUNT`, `CASH`, `EXTERNAL`.
        public var sourceType: String?
        /// `card_details`.
        public var cardDetails: CardPaymentDetails?
        /// `location_id`.
        public var locationID: String?
        /// `order_id`.
        public var orderID: String?
        /// `reference_id`: Tender's reference.
        public var referenceID: String?
        /// `refund_ids`.
        public var refundIDs: [String]?
        /// `note`.
        public var note: String?
        /// `is_offline_payment`.
        public var isOfflinePayment: Bool?
        /// `offline_payment_details`.
        public var offlinePaymentDetails: OfflinePaymentDetails?
        /// `version_token`: optimistic concurrency for `CompletePayment`.
        public var versionToken: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, status, note
            case createdAt = "created_at", updatedAt = "updated_at", amountMoney = "amount_money"
            case tipMoney = "tip_money", totalMoney = "total_money", approvedMoney = "approved_money"
            case refundedMoney = "refunded_money", delayAction = "delay_action", delayedUntil = "delayed_until"
            case sourceType = "source_type", cardDetails = "card_details", locationID = "location_id"
            case orderID = "order_id", referenceID = "reference_id", refundIDs = "refund_ids"
            case isOfflinePayment = "is_offline_payment", offlinePaymentDetails = "offline_payment_details"
            case versionToken = "version_token"
        }

        /// The wire names of the declared fields.
        package static var declaredFields: [String] { CodingKeys.allCases.map(\.rawValue) }
    }

    /// `OfflinePaymentDetails`.
    public struct OfflinePaymentDetails: Codable, Hashable, Sendable {
        /// `client_created_at`: when the device took the card.
        public var clientCreatedAt: String?
        enum CodingKeys: String, CodingKey { case clientCreatedAt = "client_created_at" }
    }

    /// `CardPaymentDetails` (receipt fields; never a card number: the API has none).
    public struct CardPaymentDetails: Codable, Hashable, Sendable {
        /// `status`: `AUTHORIZED`, `CAPTURED`, `VOIDED`, `FAILED`.
        public var status: String?
        /// `card`.
        public var card: Card?
        /// `entry_method`: `KEYED`, `SWIPED`, `EMV`, `ON_FILE`, `CONTACTLESS`.
        public var entryMethod: String?
        /// `auth_result_code`.
        public var authResultCode: String?
        /// `application_identifier`.
        public var applicationIdentifier: String?
        /// `application_name`.
        public var applicationName: String?
        /// `errors`: why the card part failed.
        public var errors: [APIError]?

        enum CodingKeys: String, CodingKey {
            case status, card, errors
            case entryMethod = "entry_method", authResultCode = "auth_result_code"
            case applicationIdentifier = "application_identifier", applicationName = "application_name"
        }
    }

    /// `Card` (brand, last four, expiry, name).
    public struct Card: Codable, Hashable, Sendable {
        /// `card_brand`: `VISA`, `MASTERCARD`, `AMERICAN_EXPRESS`…
        public var cardBrand: String?
        /// `last_4`.
        public var last4: String?
        /// `exp_month`.
        public var expMonth: Int64?
        /// `exp_year`.
        public var expYear: Int64?
        /// `cardholder_name`.
        public var cardholderName: String?

        enum CodingKeys: String, CodingKey {
            case cardBrand = "card_brand", last4 = "last_4", expMonth = "exp_month", expYear = "exp_year"
            case cardholderName = "cardholder_name"
        }
    }

    /// `Error`: `category` and `code` are open sets (the spec's `ErrorCode` enum lacks codes it uses itself).
    public struct APIError: Codable, Hashable, Sendable {
        /// `category`: `API_ERROR`, `AUTHENTICATION_ERROR`, `INVALID_REQUEST_ERROR`, `RATE_LIMIT_ERROR`,
        /// `PAYMENT_METHOD_ERROR`, `REFUND_ERROR`, `MERCHANT_SUBSCRIPTION_ERROR`, `EXTERNAL_VENDOR_ERROR`.
        public var category: String
        /// `code`, e.g. `CARD_DECLINED`, `VERSION_MISMATCH`.
        public var code: String
        /// `detail`.
        public var detail: String?
        /// `field`.
        public var field: String?

        /// Creates an error.
        public init(category: String, code: String, detail: String? = nil, field: String? = nil) {
            self.category = category
            self.code = code
            self.detail = detail
            self.field = field
        }
    }
}
