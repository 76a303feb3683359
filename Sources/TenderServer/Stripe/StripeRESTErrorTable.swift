import Foundation
package import TenderWire

/// Stripe's REST error codes in Tender's terms. Codes are an open set: a code not listed here keeps its text in
/// ``TenderWire/PaymentError/VendorError/name`` and is mapped by its HTTP status (401/403 → not authorized, 402 → card
/// declined, 404 → unknown reference, 409 → in progress, 429 → rate limited, 5xx → outcome unknown, others →
/// ``TenderWire/PaymentError/Code/unrecognizedVendorError``, retry the same request).
package enum StripeRESTErrorTable {
    /// One row: a Stripe `code` (or `type`), and Tender's code and recovery.
    package struct Row: Hashable, Sendable {
        /// Tender's code.
        package var code: PaymentError.Code
        /// What to do next.
        package var recovery: PaymentError.Recovery
    }

    /// The known codes. Keys are Stripe `code` values, or `type:` + a `type` for rows matched by type.
    package static let rows: [String: Row] = {
        var rows: [String: Row] = [:]
        func add(_ codes: [String], _ code: PaymentError.Code, _ recovery: PaymentError.Recovery) {
            for name in codes { rows[name] = Row(code: code, recovery: recovery) }
        }
        add(["card_declined", "insufficient_funds", "incorrect_cvc", "invalid_cvc", "incorrect_number",
             "invalid_number", "incorrect_zip", "card_decline_rate_limit_exceeded", "authentication_required",
             "payment_intent_authentication_failure", "payment_intent_payment_attempt_failed"],
            .cardDeclined, .collectAnotherCard)
        add(["expired_card", "invalid_expiry_month", "invalid_expiry_year"], .cardExpired, .collectAnotherCard)
        add(["invalid_card_type", "payment_method_unsupported_type"], .cardNotSupported, .collectAnotherCard)
        add(["processing_error"], .unexpected, .retrySamePayment)
        add(["payment_intent_unexpected_state", "intent_invalid_state", "charge_already_captured",
             "charge_already_refunded", "charge_expired_for_capture", "capture_charge_authorization_expired",
             "capture_unauthorized_payment", "charge_not_refundable", "charge_disputed", "refund_disputed_payment",
             "status_transition_invalid"], .invalidState, .none)
        add(["amount_too_large", "amount_too_small", "invalid_charge_amount", "charge_exceeds_source_limit",
             "charge_exceeds_transaction_limit"], .invalidAmount, .fixRequest)
        add(["parameter_missing", "parameter_unknown", "parameter_invalid_empty", "parameter_invalid_integer",
             "parameter_invalid_string_blank", "parameter_invalid_string_empty", "parameters_exclusive",
             "payment_intent_invalid_parameter", "invalid_characters", "url_invalid"], .integrationError, .fixIntegration)
        add(["resource_missing"], .unknownReference, .fixRequest)
        add(["livemode_mismatch", "testmode_charges_only"], .accountMismatch, .fixIntegration)
        add(["api_key_expired", "secret_key_required", "platform_api_key_expired", "type:authentication_error"],
            .notAuthorized, .fixIntegration)
        add(["rate_limit", "lock_timeout", "payment_intent_rate_limit_exceeded", "type:rate_limit_error"],
            .rateLimited, .waitAndRetry)
        add(["idempotency_key_in_use"], .paymentInProgress, .waitAndRetry)
        add(["type:idempotency_error"], .duplicateReference, .fixRequest)
        add(["terminal_location_country_unsupported", "terminal_reader_invalid_location_for_payment",
             "terminal_reader_invalid_location_for_activation", "account_invalid", "no_account"],
            .configurationError, .fixIntegration)
        add(["terminal_reader_offline", "terminal_reader_timeout"], .readerConnectionFailed, .reconnectReader)
        add(["terminal_reader_busy"], .readerBusy, .waitAndRetry)
        return rows
    }()

    /// The ``TenderWire/PaymentError`` for a failed Stripe request.
    /// - Parameters:
    ///   - operation: what was being done, for the message ("Capturing pi_123").
    ///   - phase: the payment phase.
    static func paymentError(_ failure: ServerFailure, operation: String, phase: PaymentError.Phase) -> PaymentError {
        var error = ServerErrorMapping.generic(failure, processor: StripeServerClient.processor, operation: operation,
                                               phase: phase)
        guard case .api(_, let details) = failure else { return error }
        let row = details.code.flatMap { rows[$0] } ?? details.category.flatMap { rows["type:" + $0] }
        if let row {
            error.code = row.code
            error.recovery = row.recovery
            if row.code == .cardDeclined, let reason = details.declineCode {
                error.message += " Reason: \(reason.replacingOccurrences(of: "_", with: " "))."
            }
        }
        return error
    }
}
