import Foundation

/// Stripe's REST objects as TenderServer reads them (API version 2023-08-16, TenderServer's `Stripe-Version`), mirroring the
/// API's own field names (`snake_case` on the wire). Enumerations the API documents as open (statuses, codes) are
/// kept as strings here and interpreted by the conversions, so a value Stripe adds later never fails decoding.
///
/// They are what a server answers the device's lookups with (``StripeRESTLookup``); the Stripe adapter's
/// `StripeRESTServerLookup` makes its SDK-shaped `Stripe.PaymentIntent` from them.
public enum StripeAPI {}

/// A Codable value whose coding keys are listed, so tests can check that every declared field is read.
package protocol DeclaredFields {
    /// The wire names of the fields the type declares.
    static var declaredFields: [String] { get }
}

extension DeclaredFields {
    /// Default: none listed.
    package static var declaredFields: [String] { [] }
}

extension StripeAPI {
    /// A field Stripe returns as an id, or as the object when expanded (`expand[]=latest_charge`).
    public enum Expandable<Object: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
        /// Not expanded: the id.
        case id(String)
        /// Expanded: the object.
        case object(Object)

        /// Decodes a string as an id, anything else as the object.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let id = try? container.decode(String.self) { self = .id(id) } else { self = .object(try container.decode(Object.self)) }
        }

        /// Encodes the id or the object.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .id(let id): try container.encode(id)
            case .object(let object): try container.encode(object)
            }
        }

        /// The expanded object, if expanded.
        public var object: Object? { if case .object(let object) = self { object } else { nil } }
    }

    /// `payment_intent`.
    public struct PaymentIntent: Codable, Hashable, Sendable, DeclaredFields {
        /// `id` (`pi_…`).
        public var id: String
        /// `amount`, minor units.
        public var amount: Int64
        /// `amount_capturable`.
        public var amountCapturable: Int64?
        /// `amount_received`.
        public var amountReceived: Int64?
        /// `amount_details` (the tip).
        public var amountDetails: AmountDetails?
        /// `canceled_at`, Unix seconds.
        public var canceledAt: Int64?
        /// `cancellation_reason`.
        public var cancellationReason: String?
        /// `capture_method`: `automatic`, `automatic_async` or `manual`.
        public var captureMethod: String
        /// `client_secret`.
        public var clientSecret: String?
        /// `created`, Unix seconds.
        public var created: Int64
        /// `currency`, lowercase.
        public var currency: String
        /// `description`.
        public var description: String?
        /// `last_payment_error`.
        public var lastPaymentError: APIError?
        /// `latest_charge`: an id, or the charge when expanded.
        public var latestCharge: Expandable<Charge>?
        /// `livemode`.
        public var livemode: Bool
        /// `metadata`.
        public var metadata: [String: String]
        /// `payment_method_types`.
        public var paymentMethodTypes: [String]?
        /// `status`: `requires_payment_method`, `requires_confirmation`, `requires_action`, `processing`,
        /// `requires_capture`, `canceled`, `succeeded`.
        public var status: String

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, amount, created, currency, description, livemode, metadata, status
            case amountCapturable = "amount_capturable", amountReceived = "amount_received"
            case amountDetails = "amount_details", canceledAt = "canceled_at"
            case cancellationReason = "cancellation_reason", captureMethod = "capture_method"
            case clientSecret = "client_secret", lastPaymentError = "last_payment_error"
            case latestCharge = "latest_charge", paymentMethodTypes = "payment_method_types"
        }

        /// The wire names of the declared fields.
        package static var declaredFields: [String] { CodingKeys.allCases.map(\.rawValue) }
    }

    /// `payment_intent.amount_details`.
    public struct AmountDetails: Codable, Hashable, Sendable, DeclaredFields {
        /// `tip`.
        public var tip: Tip?

        /// `amount_details.tip`.
        public struct Tip: Codable, Hashable, Sendable {
            /// `amount`, minor units.
            public var amount: Int64?
        }

        /// The wire names of the declared fields.
        package static var declaredFields: [String] { ["tip"] }
    }

    /// `charge`.
    public struct Charge: Codable, Hashable, Sendable, DeclaredFields {
        /// `id` (`ch_…`).
        public var id: String
        /// `amount`.
        public var amount: Int64
        /// `amount_captured`.
        public var amountCaptured: Int64?
        /// `amount_refunded`.
        public var amountRefunded: Int64?
        /// `captured`.
        public var captured: Bool
        /// `created`.
        public var created: Int64
        /// `currency`.
        public var currency: String
        /// `failure_code`.
        public var failureCode: String?
        /// `failure_message`.
        public var failureMessage: String?
        /// `livemode`.
        public var livemode: Bool
        /// `metadata`.
        public var metadata: [String: String]
        /// `paid`.
        public var paid: Bool?
        /// `payment_intent`.
        public var paymentIntent: String?
        /// `payment_method_details` (card-present details for Terminal payments).
        public var paymentMethodDetails: PaymentMethodDetails?
        /// `refunded`.
        public var refunded: Bool?
        /// `status`: `succeeded`, `pending`, `failed`.
        public var status: String

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, amount, captured, created, currency, livemode, metadata, paid, refunded, status
            case amountCaptured = "amount_captured", amountRefunded = "amount_refunded"
            case failureCode = "failure_code", failureMessage = "failure_message"
            case paymentIntent = "payment_intent", paymentMethodDetails = "payment_method_details"
        }

        /// The wire names of the declared fields.
        package static var declaredFields: [String] { CodingKeys.allCases.map(\.rawValue) }
    }

    /// `charge.payment_method_details`: the parts a receipt may show. Never a card number.
    public struct PaymentMethodDetails: Codable, Hashable, Sendable, DeclaredFields {
        /// `type`, e.g. `card_present`.
        public var type: String
        /// `card_present`.
        public var cardPresent: CardPresent?
        /// `card` (card-not-present payments; kept for completeness of the receipt fields).
        public var card: CardPresent?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case type, card
            case cardPresent = "card_present"
        }

        /// The wire names of the declared fields.
        package static var declaredFields: [String] { CodingKeys.allCases.map(\.rawValue) }
    }

    /// `payment_method_details.card_present` (and the receipt fields of `card`).
    public struct CardPresent: Codable, Hashable, Sendable, DeclaredFields {
        /// `brand`: `visa`, `mastercard`, `amex`, `discover`, `diners`, `jcb`, `unionpay`, `interac`, `eftpos_au`…
        public var brand: String?
        /// `cardholder_name`.
        public var cardholderName: String?
        /// `exp_month`.
        public var expMonth: Int?
        /// `exp_year`.
        public var expYear: Int?
        /// `last4`.
        public var last4: String?
        /// `read_method`: `contact_emv`, `contactless_emv`, `magnetic_stripe_fallback`, `magnetic_stripe_track2`,
        /// `contactless_magstripe_mode`.
        public var readMethod: String?
        /// `offline` (later API versions): set when the payment was collected offline.
        public var offline: Offline?
        /// `receipt`.
        public var receipt: Receipt?

        /// `card_present.offline`.
        public struct Offline: Codable, Hashable, Sendable {
            /// `stored_at`, Unix seconds.
            public var storedAt: Int64?
            enum CodingKeys: String, CodingKey { case storedAt = "stored_at" }
        }

        /// `card_present.receipt`: the EMV fields.
        public struct Receipt: Codable, Hashable, Sendable {
            /// `account_type`.
            public var accountType: String?
            /// `application_cryptogram`.
            public var applicationCryptogram: String?
            /// `application_preferred_name`.
            public var applicationPreferredName: String?
            /// `authorization_code`.
            public var authorizationCode: String?
            /// `authorization_response_code`.
            public var authorizationResponseCode: String?
            /// `cardholder_verification_method`.
            public var cardholderVerificationMethod: String?
            /// `dedicated_file_name`.
            public var dedicatedFileName: String?
            /// `terminal_verification_results`.
            public var terminalVerificationResults: String?
            /// `transaction_status_information`.
            public var transactionStatusInformation: String?

            enum CodingKeys: String, CodingKey {
                case accountType = "account_type", applicationCryptogram = "application_cryptogram"
                case applicationPreferredName = "application_preferred_name"
                case authorizationCode = "authorization_code"
                case authorizationResponseCode = "authorization_response_code"
                case cardholderVerificationMethod = "cardholder_verification_method"
                case dedicatedFileName = "dedicated_file_name"
                case terminalVerificationResults = "terminal_verification_results"
                case transactionStatusInformation = "transaction_status_information"
            }
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case brand, last4, offline, receipt
            case cardholderName = "cardholder_name", expMonth = "exp_month", expYear = "exp_year"
            case readMethod = "read_method"
        }

        /// The wire names of the declared fields.
        package static var declaredFields: [String] { CodingKeys.allCases.map(\.rawValue) }
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
        package static var declaredFields: [String] { CodingKeys.allCases.map(\.rawValue) }

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
}
