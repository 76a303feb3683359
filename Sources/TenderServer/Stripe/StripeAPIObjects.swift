import Foundation

extension StripeAPI {
    /// `refund`.
    public struct Refund: Codable, Hashable, Sendable, DeclaredFields {
        /// `id` (`re_…`).
        public var id: String
        /// `amount`.
        public var amount: Int64
        /// `charge`.
        public var charge: String?
        /// `created`.
        public var created: Int64
        /// `currency`.
        public var currency: String
        /// `failure_reason`: `lost_or_stolen_card`, `expired_or_canceled_card`, `declined`, `unknown`…
        public var failureReason: String?
        /// `metadata`: TenderServer stores the refund's idempotency key and the payment's reference here.
        public var metadata: [String: String]
        /// `payment_intent`.
        public var paymentIntent: String?
        /// `reason`: `duplicate`, `fraudulent`, `requested_by_customer`, `expired_uncaptured_charge`.
        public var reason: String?
        /// `status`: `pending`, `requires_action`, `succeeded`, `failed`, `canceled`.
        public var status: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, amount, charge, created, currency, metadata, reason, status
            case failureReason = "failure_reason", paymentIntent = "payment_intent"
        }

        /// The wire names of the declared fields.
        public static var declaredFields: [String] { CodingKeys.allCases.map(\.rawValue) }
    }

    /// `terminal.connection_token`. Its ``secret`` is a credential for the reader SDK: it never appears in a
    /// `description`.
    public struct ConnectionToken: Codable, Hashable, Sendable, DeclaredFields, CustomStringConvertible,
        CustomDebugStringConvertible, CustomReflectable {
        /// `secret`: hand it to the Terminal SDK's token provider, nowhere else.
        public var secret: String
        /// `location`: the location it is scoped to, if any.
        public var location: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case secret, location }

        /// The wire names of the declared fields.
        public static var declaredFields: [String] { CodingKeys.allCases.map(\.rawValue) }
        /// `ConnectionToken(location: …, secret: redacted)`.
        public var description: String { "ConnectionToken(location: \(location ?? "none"), secret: redacted)" }
        /// The same as ``description``.
        public var debugDescription: String { description }
        /// Reflection shows the location only.
        public var customMirror: Mirror { Mirror(self, children: ["location": location as Any], displayStyle: .struct) }
    }

    /// `terminal.location`.
    public struct Location: Codable, Hashable, Sendable, DeclaredFields {
        /// `id` (`tml_…`).
        public var id: String
        /// `display_name`.
        public var displayName: String
        /// `livemode`.
        public var livemode: Bool
        /// `metadata`.
        public var metadata: [String: String]

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, livemode, metadata
            case displayName = "display_name"
        }

        /// The wire names of the declared fields.
        public static var declaredFields: [String] { CodingKeys.allCases.map(\.rawValue) }
    }

    /// A list page (`object: "list"`).
    public struct List<Element: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
        /// `data`.
        public var data: [Element]
        /// `has_more`.
        public var hasMore: Bool

        enum CodingKeys: String, CodingKey {
            case data
            case hasMore = "has_more"
        }
    }

    /// A search page (`object: "search_result"`).
    public struct SearchResult<Element: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
        /// `data`.
        public var data: [Element]
        /// `has_more`.
        public var hasMore: Bool
        /// `next_page`: the cursor for the next page.
        public var nextPage: String?

        enum CodingKeys: String, CodingKey {
            case data
            case hasMore = "has_more"
            case nextPage = "next_page"
        }
    }

    /// The `error` object of a failed request (and `last_payment_error`).
    public struct APIError: Codable, Hashable, Sendable, DeclaredFields {
        /// `type`: `api_error`, `card_error`, `idempotency_error`, `invalid_request_error` (and, for failed
        /// requests, `authentication_error`, `rate_limit_error` in older documentation).
        public var type: String?
        /// `code`: an open set (`card_declined`, `payment_intent_unexpected_state`, `resource_missing`…).
        public var code: String?
        /// `decline_code`: the issuer's reason for a card decline.
        public var declineCode: String?
        /// `message`.
        public var message: String?
        /// `param`: the parameter at fault.
        public var param: String?
        /// `doc_url`.
        public var docURL: String?
        /// `charge`: the failed charge, for card errors.
        public var charge: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case type, code, message, param, charge
            case declineCode = "decline_code", docURL = "doc_url"
        }

        /// The wire names of the declared fields.
        public static var declaredFields: [String] { CodingKeys.allCases.map(\.rawValue) }

        /// Creates an error object.
        public init(type: String? = nil, code: String? = nil, declineCode: String? = nil, message: String? = nil,
                    param: String? = nil, docURL: String? = nil, charge: String? = nil) {
            self.type = type
            self.code = code
            self.declineCode = declineCode
            self.message = message
            self.param = param
            self.docURL = docURL
            self.charge = charge
        }
    }

    /// `{"error": {…}}`.
    struct ErrorEnvelope: Codable {
        var error: APIError
    }
}
