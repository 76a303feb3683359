import Foundation
import Tender

extension Stripe {
    /// `SCPErrorKey` (Swift `ErrorKey`): the `userInfo` keys of errors in Stripe's `ErrorDomain` that carry text.
    /// The SDK's string values are not published; these raw values are the case names. A bridge reads
    /// `userInfo[ErrorKey.x.rawValue]` on the SDK's side and stores it under the key of the same name here.
    package struct ErrorKey: RawRepresentable, Hashable, Sendable, Codable {
        /// The key's name.
        package let rawValue: String
        /// Creates a key.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// `message`: the developer-facing message.
        package static let message = ErrorKey(rawValue: "message")
        /// `stripeAPIDeclineCode`: the issuer's decline code.
        package static let stripeAPIDeclineCode = ErrorKey(rawValue: "stripeAPIDeclineCode")
        /// `stripeAPIErrorCode`: Stripe's API error code (`payment_intent_unexpected_state`…).
        package static let stripeAPIErrorCode = ErrorKey(rawValue: "stripeAPIErrorCode")
        /// `stripeAPIFailureReason`: why a refund failed.
        package static let stripeAPIFailureReason = ErrorKey(rawValue: "stripeAPIFailureReason")
        /// `stripeAPIRequestId`.
        package static let stripeAPIRequestId = ErrorKey(rawValue: "stripeAPIRequestId")
        /// `offlineDeclineReason`: why the card declined while offline (6903).
        package static let offlineDeclineReason = ErrorKey(rawValue: "offlineDeclineReason")
        /// `readerMessage`.
        package static let readerMessage = ErrorKey(rawValue: "readerMessage")
    }

    /// `SCPApiError` (5.4): Stripe's API error behind a failed request.
    package struct ApiError: Hashable, Sendable, Codable {
        /// `type`, `code` (`card_declined`, `payment_intent_unexpected_state`…), `message`.
        package var type: String?, code: String?, message: String?
        /// `declineCode` (`insufficient_funds`…).
        package var declineCode: String?
        /// `charge`: the failed charge's id.
        package var charge: String?

        /// Creates an API error.
        package init(type: String? = nil, code: String? = nil, message: String? = nil, declineCode: String? = nil,
                    charge: String? = nil) {
            self.type = type
            self.code = code
            self.message = message
            self.declineCode = declineCode
            self.charge = charge
        }
    }

    /// An error in Stripe's `ErrorDomain` (Swift `ErrorCode`), with what the SDK attaches to it:
    /// - text under ``ErrorKey``s, as the SDK's `userInfo` holds it;
    /// - ``paymentIntent``: `ConfirmPaymentIntentError.paymentIntent` for a confirmation (the updated intent, `nil`
    ///   when the request timed out and the outcome is unknown), `userInfo[ErrorKey.stripeAPIPaymentIntent]` for
    ///   other calls;
    /// - ``apiError``: `ConfirmPaymentIntentError.apiError` / `userInfo[ErrorKey.stripeAPIError]`;
    /// - ``refund``: `ConfirmRefundError.refund` (`nil` when the request timed out).
    ///
    /// Bridge: build it from the `NSError`: the code by case name (an exhaustive `switch` over `ErrorCode.Code`,
    /// never the raw value), the text keys, and the objects above (an intent through the handle registry).
    package struct ErrorCode: Error, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The case: its Swift name and numeric code.
        package struct Code: Hashable, Sendable, Codable, CustomStringConvertible {
            /// The Swift case name, e.g. `"declinedByStripeAPI"`. Lookups go by this name.
            package var name: String
            /// The numeric code, e.g. 6000 (informational).
            package var numericCode: Int?

            /// A code the table knows, by name; its numeric code comes from ``Stripe/errorTable``.
            package init(_ name: String) {
                self.name = name
                self.numericCode = Stripe.errorTable.mapping(named: name)?.numericCode
            }

            /// Any code, including ones a future SDK adds.
            package init(name: String, numericCode: Int?) {
                self.name = name
                self.numericCode = numericCode
            }

            /// `declinedByStripeAPI (6000)`.
            package var description: String { numericCode.map { "\(name) (\($0))" } ?? name }
        }

        /// The case.
        package var code: Code
        /// The text the SDK put in `userInfo`.
        package var userInfo: [ErrorKey: String]
        /// The intent the error carries (see the type's documentation).
        package var paymentIntent: PaymentIntent?
        /// Stripe's API error, when a request failed at Stripe.
        package var apiError: ApiError?
        /// The refund the error carries (`ConfirmRefundError.refund`).
        package var refund: Refund?

        /// Creates an error.
        package init(_ code: Code, message: String, declineCode: String? = nil, offlineDeclineReason: String? = nil,
                    paymentIntent: PaymentIntent? = nil, apiError: ApiError? = nil, refund: Refund? = nil,
                    userInfo: [ErrorKey: String] = [:]) {
            self.code = code
            var info = userInfo
            info[.message] = message
            if let declineCode { info[.stripeAPIDeclineCode] = declineCode }
            if let offlineDeclineReason { info[.offlineDeclineReason] = offlineDeclineReason }
            if let apiCode = apiError?.code, info[.stripeAPIErrorCode] == nil { info[.stripeAPIErrorCode] = apiCode }
            self.userInfo = info
            self.paymentIntent = paymentIntent
            self.apiError = apiError
            self.refund = refund
        }

        /// `userInfo[ErrorKey.message]`.
        package var message: String { userInfo[.message] ?? "" }
        /// The decline code: the API error's, else `userInfo[ErrorKey.stripeAPIDeclineCode]`.
        package var declineCode: String? { apiError?.declineCode ?? userInfo[.stripeAPIDeclineCode] }
        /// `userInfo[ErrorKey.offlineDeclineReason]`.
        package var offlineDeclineReason: String? { userInfo[.offlineDeclineReason] }
        /// `userInfo[ErrorKey.stripeAPIFailureReason]`, or the refund's `failureReason`.
        package var failureReason: String? { userInfo[.stripeAPIFailureReason] ?? refund?.failureReason }

        /// `declinedByStripeAPI (6000): message`.
        package var description: String { "\(code): \(message)" }
    }
}

extension Stripe.ErrorCode.Code {
    /// 1010.
    package static let cancelFailedAlreadyCompleted = Self("cancelFailedAlreadyCompleted")
    /// 1011.
    package static let cancelFailedUnavailable = Self("cancelFailedUnavailable")
    /// 1100.
    package static let notConnectedToReader = Self("notConnectedToReader")
    /// 1110.
    package static let alreadyConnectedToReader = Self("alreadyConnectedToReader")
    /// 1510.
    package static let connectionTokenProviderCompletedWithNothing = Self("connectionTokenProviderCompletedWithNothing")
    /// 1511 (offline).
    package static let connectionTokenProviderCompletedWithNothingWhileForwarding =
        Self("connectionTokenProviderCompletedWithNothingWhileForwarding")
    /// 1530.
    package static let confirmInvalidPaymentIntent = Self("confirmInvalidPaymentIntent")
    /// 1550.
    package static let nilRefundPaymentMethod = Self("nilRefundPaymentMethod")
    /// 1555.
    package static let invalidRefundParameters = Self("invalidRefundParameters")
    /// 1560.
    package static let invalidClientSecret = Self("invalidClientSecret")
    /// 1591.
    package static let invalidConnectionConfiguration = Self("invalidConnectionConfiguration")
    /// 1910.
    package static let bluetoothConnectionInvalidLocationIdParameter =
        Self("bluetoothConnectionInvalidLocationIdParameter")
    /// 1930 (offline).
    package static let accountIdMismatchWhileForwarding = Self("accountIdMismatchWhileForwarding")
    /// 1937 (offline).
    package static let forwardingTestModePaymentInLiveMode = Self("forwardingTestModePaymentInLiveMode")
    /// 1938 (offline).
    package static let forwardingLiveModePaymentInTestMode = Self("forwardingLiveModePaymentInTestMode")
    /// 2020.
    package static let canceled = Self("canceled")
    /// 2330.
    package static let bluetoothScanTimedOut = Self("bluetoothScanTimedOut")
    /// 2650.
    package static let readerSoftwareUpdateFailedBatteryLow = Self("readerSoftwareUpdateFailedBatteryLow")
    /// 2830.
    package static let cardReadTimedOut = Self("cardReadTimedOut")
    /// 2860 (offline).
    package static let offlinePaymentsDatabaseTooLarge = Self("offlinePaymentsDatabaseTooLarge")
    /// 2870 (offline).
    package static let readerConnectionNotAvailableOffline = Self("readerConnectionNotAvailableOffline")
    /// 2871 (offline).
    package static let readerConnectionOfflineLocationMismatch = Self("readerConnectionOfflineLocationMismatch")
    /// 2872 (offline).
    package static let readerConnectionOfflineNeedsUpdate = Self("readerConnectionOfflineNeedsUpdate")
    /// 2873 (offline).
    package static let readerConnectionOfflinePairingUnseenDisabled =
        Self("readerConnectionOfflinePairingUnseenDisabled")
    /// 2890 (offline).
    package static let amountExceedsMaxOfflineAmount = Self("amountExceedsMaxOfflineAmount")
    /// 2891 (offline).
    package static let invalidOfflineCurrency = Self("invalidOfflineCurrency")
    /// 2940.
    package static let invalidAmount = Self("invalidAmount")
    /// 2950.
    package static let invalidCurrency = Self("invalidCurrency")
    /// 3010.
    package static let readerBusy = Self("readerBusy")
    /// 3210.
    package static let bluetoothConnectTimedOut = Self("bluetoothConnectTimedOut")
    /// 3230.
    package static let bluetoothDisconnected = Self("bluetoothDisconnected")
    /// 3850.
    package static let unsupportedReaderVersion = Self("unsupportedReaderVersion")
    /// 5002 (offline).
    package static let encryptionKeyFailure = Self("encryptionKeyFailure")
    /// 5008.
    package static let unexpectedOperationError = Self("unexpectedOperationError")
    /// 6000.
    package static let declinedByStripeAPI = Self("declinedByStripeAPI")
    /// 6800.
    package static let refundFailed = Self("refundFailed")
    /// 6900 (offline).
    package static let cardSwipeNotAvailable = Self("cardSwipeNotAvailable")
    /// 6901 (offline).
    package static let interacNotSupportedOffline = Self("interacNotSupportedOffline")
    /// 6902 (offline).
    package static let offlineAndCardExpired = Self("offlineAndCardExpired")
    /// 6903 (offline).
    package static let offlineTransactionDeclined = Self("offlineTransactionDeclined")
    /// 6904 (offline).
    package static let offlineCollectAndConfirmMismatch = Self("offlineCollectAndConfirmMismatch")
    /// 6905 (offline).
    package static let onlinePinNotSupportedOffline = Self("onlinePinNotSupportedOffline")
    /// 9000.
    package static let notConnectedToInternet = Self("notConnectedToInternet")
    /// 9010.
    package static let requestTimedOut = Self("requestTimedOut")
    /// 9020.
    package static let stripeAPIError = Self("stripeAPIError")
    /// 9040.
    package static let internalNetworkError = Self("internalNetworkError")
    /// 9041: the Tap to Pay network error, 9040's counterpart.
    package static let tapToPayInternalNetworkError = Self("tapToPayInternalNetworkError")
    /// 9050.
    package static let connectionTokenProviderCompletedWithError = Self("connectionTokenProviderCompletedWithError")
    /// 9051 (offline).
    package static let connectionTokenProviderCompletedWithErrorWhileForwarding =
        Self("connectionTokenProviderCompletedWithErrorWhileForwarding")
    /// 10106 (offline).
    package static let notConnectedToInternetAndOfflineBehaviorRequireOnline =
        Self("notConnectedToInternetAndOfflineBehaviorRequireOnline")
    /// 10107 (offline).
    package static let offlineBehaviorForceOfflineWithFeatureDisabled =
        Self("offlineBehaviorForceOfflineWithFeatureDisabled")
}
