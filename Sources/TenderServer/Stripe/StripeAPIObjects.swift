import Foundation
package import TenderWire

extension StripeAPI {
    /// `refund`.
    package struct Refund: Codable, Hashable, Sendable, DeclaredFields {
        /// `id` (`re_…`).
        package var id: String
        /// `amount`.
        package var amount: Int64
        /// `charge`.
        package var charge: String?
        /// `created`.
        package var created: Int64
        /// `currency`.
        package var currency: String
        /// `failure_reason`: `lost_or_stolen_card`, `expired_or_canceled_card`, `declined`, `unknown`…
        package var failureReason: String?
        /// `metadata`: TenderServer stores the refund's idempotency key and the payment's reference here.
        package var metadata: [String: String]
        /// `payment_intent`.
        package var paymentIntent: String?
        /// `reason`: `duplicate`, `fraudulent`, `requested_by_customer`, `expired_uncaptured_charge`.
        package var reason: String?
        /// `status`: `pending`, `requires_action`, `succeeded`, `failed`, `canceled`.
        package var status: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, amount, charge, created, currency, metadata, reason, status
            case failureReason = "failure_reason", paymentIntent = "payment_intent"
        }

        /// The wire names of the declared fields.
        package static var declaredFields: [String] { CodingKeys.allCases.map(\.rawValue) }
    }

    /// `terminal.connection_token`. Its ``secret`` is a credential for the reader SDK: it never appears in a
    /// `description`.
    package struct ConnectionToken: Codable, Hashable, Sendable, DeclaredFields, CustomStringConvertible,
        CustomDebugStringConvertible, CustomReflectable {
        /// `secret`: hand it to the Terminal SDK's token provider, nowhere else.
        package var secret: String
        /// `location`: the location it is scoped to, if any.
        package var location: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case secret, location }

        /// The wire names of the declared fields.
        package static var declaredFields: [String] { CodingKeys.allCases.map(\.rawValue) }
        /// `ConnectionToken(location: …, secret: redacted)`.
        package var description: String { "ConnectionToken(location: \(location ?? "none"), secret: redacted)" }
        /// The same as ``description``.
        package var debugDescription: String { description }
        /// Reflection shows the location only.
        package var customMirror: Mirror { Mirror(self, children: ["location": location as Any], displayStyle: .struct) }
    }

    /// `terminal.location`.
    package struct Location: Codable, Hashable, Sendable, DeclaredFields {
        /// `id` (`tml_…`).
        package var id: String
        /// `display_name`.
        package var displayName: String
        /// `livemode`.
        package var livemode: Bool
        /// `metadata`.
        package var metadata: [String: String]

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, livemode, metadata
            case displayName = "display_name"
        }

        /// The wire names of the declared fields.
        package static var declaredFields: [String] { CodingKeys.allCases.map(\.rawValue) }
    }

    /// A list page (`object: "list"`).
    package struct List<Element: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
        /// `data`.
        package var data: [Element]
        /// `has_more`.
        package var hasMore: Bool

        enum CodingKeys: String, CodingKey {
            case data
            case hasMore = "has_more"
        }
    }

    /// A search page (`object: "search_result"`).
    package struct SearchResult<Element: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
        /// `data`.
        package var data: [Element]
        /// `has_more`.
        package var hasMore: Bool
        /// `next_page`: the cursor for the next page.
        package var nextPage: String?

        enum CodingKeys: String, CodingKey {
            case data
            case hasMore = "has_more"
            case nextPage = "next_page"
        }
    }

    /// `{"error": {…}}`.
    struct ErrorEnvelope: Codable {
        var error: APIError
    }
}
