import Foundation
import TenderWire

/// Square's error codes in Tender's terms. Codes are an open set (the spec itself uses codes its `ErrorCode` enum
/// lacks, such as `VERSION_MISMATCH`): a code not listed keeps its text in ``TenderWire/PaymentError/VendorError/name``
/// and is mapped by its `category`, then by its HTTP status like Stripe's.
package enum SquareRESTErrorTable {
    /// Known codes → Tender's code and recovery.
    package static let codes: [String: StripeRESTErrorTable.Row] = {
        var rows: [String: StripeRESTErrorTable.Row] = [:]
        func add(_ names: [String], _ code: PaymentError.Code, _ recovery: PaymentError.Recovery) {
            for name in names { rows[name] = .init(code: code, recovery: recovery) }
        }
        add(["CARD_DECLINED", "GENERIC_DECLINE", "INSUFFICIENT_FUNDS", "CVV_FAILURE", "ADDRESS_VERIFICATION_FAILURE",
             "INVALID_ACCOUNT", "CARD_DECLINED_VERIFICATION_REQUIRED", "CARD_DECLINED_CALL_ISSUER", "TRANSACTION_LIMIT",
             "INVALID_PIN", "ALLOWABLE_PIN_TRIES_EXCEEDED", "VOICE_FAILURE", "PAN_FAILURE", "INVALID_CARD"],
            .cardDeclined, .collectAnotherCard)
        add(["CARD_EXPIRED", "INVALID_EXPIRATION", "EXPIRATION_FAILURE", "BAD_EXPIRATION"], .cardExpired, .collectAnotherCard)
        add(["CARD_NOT_SUPPORTED", "CHIP_INSERTION_REQUIRED"], .cardNotSupported, .collectAnotherCard)
        add(["UNAUTHORIZED", "ACCESS_TOKEN_EXPIRED", "ACCESS_TOKEN_REVOKED", "FORBIDDEN", "INSUFFICIENT_SCOPES",
             "INSUFFICIENT_PERMISSIONS", "APPLICATION_DISABLED", "V1_ACCESS_TOKEN", "V1_APPLICATION"],
            .notAuthorized, .fixIntegration)
        add(["RATE_LIMITED"], .rateLimited, .waitAndRetry)
        add(["IDEMPOTENCY_KEY_REUSED"], .duplicateReference, .fixRequest)
        add(["VERSION_MISMATCH", "CONFLICT"], .invalidState, .retrySamePayment)
        add(["NOT_FOUND"], .unknownReference, .fixRequest)
        add(["REFUND_AMOUNT_INVALID", "AMOUNT_TOO_HIGH", "AMOUNT_TOO_LOW"], .invalidAmount, .fixRequest)
        add(["CURRENCY_MISMATCH"], .currencyMismatch, .fixRequest)
        add(["PAYMENT_NOT_REFUNDABLE", "REFUND_ALREADY_PENDING", "CARD_PRESENCE_REQUIRED", "PAYMENT_AMOUNT_MISMATCH"],
            .invalidState, .none)
        add(["REFUND_DECLINED", "REFUND_ERROR_PAYMENT_NEEDS_COMPLETION"], .refundFailed, .none)
        add(["BAD_REQUEST"], .invalidRequest, .fixRequest)
        add(["MISSING_REQUIRED_PARAMETER", "UNKNOWN_QUERY_PARAMETER", "UNKNOWN_BODY_PARAMETER", "INVALID_ENUM_VALUE",
             "INVALID_VALUE", "INCORRECT_TYPE", "EXPECTED_JSON_BODY", "EXPECTED_STRING", "EXPECTED_INTEGER",
             "EXPECTED_BOOLEAN", "EXPECTED_OBJECT", "VALUE_TOO_LONG", "VALUE_TOO_SHORT", "VALUE_EMPTY",
             "INVALID_CURSOR", "INVALID_TIME", "INVALID_TIME_RANGE", "INVALID_SQUARE_VERSION_FORMAT",
             "API_VERSION_INCOMPATIBLE", "INVALID_CONTENT_TYPE"], .integrationError, .fixIntegration)
        add(["LOCATION_MISMATCH"], .configurationError, .fixIntegration)
        add(["INTERNAL_SERVER_ERROR", "SERVICE_UNAVAILABLE", "GATEWAY_TIMEOUT", "BAD_GATEWAY", "REQUEST_TIMEOUT"],
            .outcomeUnknown, .retrySamePayment)
        return rows
    }()

    /// Categories → Tender's code and recovery, for codes not in ``codes``.
    package static let categories: [String: StripeRESTErrorTable.Row] = [
        "AUTHENTICATION_ERROR": .init(code: .notAuthorized, recovery: .fixIntegration),
        "RATE_LIMIT_ERROR": .init(code: .rateLimited, recovery: .waitAndRetry),
        "PAYMENT_METHOD_ERROR": .init(code: .cardDeclined, recovery: .collectAnotherCard),
        "REFUND_ERROR": .init(code: .refundFailed, recovery: .none),
        "API_ERROR": .init(code: .outcomeUnknown, recovery: .retrySamePayment),
    ]

    /// The ``TenderWire/PaymentError`` for a failed Square request.
    static func paymentError(_ failure: ServerFailure, operation: String, phase: PaymentError.Phase) -> PaymentError {
        var error = ServerErrorMapping.generic(failure, processor: SquareServerClient.processor, operation: operation,
                                               phase: phase)
        guard case .api(_, let details) = failure else { return error }
        if let row = details.code.flatMap({ codes[$0] }) ?? details.category.flatMap({ categories[$0] }) {
            error.code = row.code
            error.recovery = row.recovery
        }
        return error
    }
}
