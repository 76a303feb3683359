import Foundation
import Tender

extension Stripe {
    /// `SCPErrorKey` (Swift `ErrorKey`): the `userInfo` keys of errors in Stripe's `ErrorDomain` that carry text.
    /// The SDK's string values are not published; these raw values are the case names. A bridge reads
    /// `userInfo[ErrorKey.x.rawValue]` on the SDK's side and stores it under the key of the same name here.
    public struct ErrorKey: RawRepresentable, Hashable, Sendable, Codable {
        /// The key's name.
        public let rawValue: String
        /// Creates a key.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `message`: the developer-facing message.
        public static let message = ErrorKey(rawValue: "message")
        /// `stripeAPIDeclineCode`: the issuer's decline code.
        public static let stripeAPIDeclineCode = ErrorKey(rawValue: "stripeAPIDeclineCode")
        /// `stripeAPIErrorCode`: Stripe's API error code (`payment_intent_unexpected_state`…).
        public static let stripeAPIErrorCode = ErrorKey(rawValue: "stripeAPIErrorCode")
        /// `stripeAPIFailureReason`: why a refund failed.
        public static let stripeAPIFailureReason = ErrorKey(rawValue: "stripeAPIFailureReason")
        /// `stripeAPIRequestId`.
        public static let stripeAPIRequestId = ErrorKey(rawValue: "stripeAPIRequestId")
        /// ⚑ `offlineDeclineReason`: why the card declined while offline (6903).
        public static let offlineDeclineReason = ErrorKey(rawValue: "offlineDeclineReason")
        /// `readerMessage`.
        public static let readerMessage = ErrorKey(rawValue: "readerMessage")
    }

    /// `SCPApiError` (5.4): Stripe's API error behind a failed request.
    public struct ApiError: Hashable, Sendable, Codable {
        /// `type`, `code` (`card_declined`, `payment_intent_unexpected_state`…), `message`.
        public var type: String?, code: String?, message: String?
        /// `declineCode` (`insufficient_funds`…).
        public var declineCode: String?
        /// `charge`: the failed charge's id.
        public var charge: String?

        /// Creates an API error.
        public init(type: String? = nil, code: String? = nil, message: String? = nil, declineCode: String? = nil,
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
    public struct ErrorCode: Error, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The case: its Swift name and numeric code.
        public struct Code: Hashable, Sendable, Codable, CustomStringConvertible {
            /// The Swift case name, e.g. `"declinedByStripeAPI"`. Lookups go by this name.
            public var name: String
            /// The numeric code, e.g. 6000 (informational).
            public var numericCode: Int?

            /// A code the table knows, by name; its numeric code comes from ``Stripe/errorTable``.
            public init(_ name: String) {
                self.name = name
                self.numericCode = Stripe.errorTable.mapping(named: name)?.numericCode
            }

            /// Any code, including ones a future SDK adds.
            public init(name: String, numericCode: Int?) {
                self.name = name
                self.numericCode = numericCode
            }

            /// `declinedByStripeAPI (6000)`.
            public var description: String { numericCode.map { "\(name) (\($0))" } ?? name }
        }

        /// The case.
        public var code: Code
        /// The text the SDK put in `userInfo`.
        public var userInfo: [ErrorKey: String]
        /// The intent the error carries (see the type's documentation).
        public var paymentIntent: PaymentIntent?
        /// Stripe's API error, when a request failed at Stripe.
        public var apiError: ApiError?
        /// The refund the error carries (`ConfirmRefundError.refund`).
        public var refund: Refund?

        /// Creates an error.
        public init(_ code: Code, message: String, declineCode: String? = nil, offlineDeclineReason: String? = nil,
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
        public var message: String { userInfo[.message] ?? "" }
        /// The decline code: the API error's, else `userInfo[ErrorKey.stripeAPIDeclineCode]`.
        public var declineCode: String? { apiError?.declineCode ?? userInfo[.stripeAPIDeclineCode] }
        /// ⚑ `userInfo[ErrorKey.offlineDeclineReason]`.
        public var offlineDeclineReason: String? { userInfo[.offlineDeclineReason] }
        /// `userInfo[ErrorKey.stripeAPIFailureReason]`, or the refund's `failureReason`.
        public var failureReason: String? { userInfo[.stripeAPIFailureReason] ?? refund?.failureReason }

        /// `declinedByStripeAPI (6000): message`.
        public var description: String { "\(code): \(message)" }
    }
}

extension Stripe.ErrorCode.Code {
    /// 1010.
    public static let cancelFailedAlreadyCompleted = Self("cancelFailedAlreadyCompleted")
    /// 1011.
    public static let cancelFailedUnavailable = Self("cancelFailedUnavailable")
    /// 1100.
    public static let notConnectedToReader = Self("notConnectedToReader")
    /// 1110.
    public static let alreadyConnectedToReader = Self("alreadyConnectedToReader")
    /// 1510.
    public static let connectionTokenProviderCompletedWithNothing = Self("connectionTokenProviderCompletedWithNothing")
    /// 1511 ⚑.
    public static let connectionTokenProviderCompletedWithNothingWhileForwarding =
        Self("connectionTokenProviderCompletedWithNothingWhileForwarding")
    /// 1530.
    public static let confirmInvalidPaymentIntent = Self("confirmInvalidPaymentIntent")
    /// 1550.
    public static let nilRefundPaymentMethod = Self("nilRefundPaymentMethod")
    /// 1555.
    public static let invalidRefundParameters = Self("invalidRefundParameters")
    /// 1560.
    public static let invalidClientSecret = Self("invalidClientSecret")
    /// 1591.
    public static let invalidConnectionConfiguration = Self("invalidConnectionConfiguration")
    /// 1910.
    public static let bluetoothConnectionInvalidLocationIdParameter =
        Self("bluetoothConnectionInvalidLocationIdParameter")
    /// 1930 ⚑.
    public static let accountIdMismatchWhileForwarding = Self("accountIdMismatchWhileForwarding")
    /// 1937 ⚑.
    public static let forwardingTestModePaymentInLiveMode = Self("forwardingTestModePaymentInLiveMode")
    /// 1938 ⚑.
    public static let forwardingLiveModePaymentInTestMode = Self("forwardingLiveModePaymentInTestMode")
    /// 2020.
    public static let canceled = Self("canceled")
    /// 2330.
    public static let bluetoothScanTimedOut = Self("bluetoothScanTimedOut")
    /// 2650.
    public static let readerSoftwareUpdateFailedBatteryLow = Self("readerSoftwareUpdateFailedBatteryLow")
    /// 2830.
    public static let cardReadTimedOut = Self("cardReadTimedOut")
    /// 2860 ⚑.
    public static let offlinePaymentsDatabaseTooLarge = Self("offlinePaymentsDatabaseTooLarge")
    /// 2870 ⚑.
    public static let readerConnectionNotAvailableOffline = Self("readerConnectionNotAvailableOffline")
    /// 2871 ⚑.
    public static let readerConnectionOfflineLocationMismatch = Self("readerConnectionOfflineLocationMismatch")
    /// 2872 ⚑.
    public static let readerConnectionOfflineNeedsUpdate = Self("readerConnectionOfflineNeedsUpdate")
    /// 2873 ⚑.
    public static let readerConnectionOfflinePairingUnseenDisabled =
        Self("readerConnectionOfflinePairingUnseenDisabled")
    /// 2890 ⚑.
    public static let amountExceedsMaxOfflineAmount = Self("amountExceedsMaxOfflineAmount")
    /// 2891 ⚑.
    public static let invalidOfflineCurrency = Self("invalidOfflineCurrency")
    /// 2940.
    public static let invalidAmount = Self("invalidAmount")
    /// 2950.
    public static let invalidCurrency = Self("invalidCurrency")
    /// 3010.
    public static let readerBusy = Self("readerBusy")
    /// 3210.
    public static let bluetoothConnectTimedOut = Self("bluetoothConnectTimedOut")
    /// 3230.
    public static let bluetoothDisconnected = Self("bluetoothDisconnected")
    /// 3850.
    public static let unsupportedReaderVersion = Self("unsupportedReaderVersion")
    /// 5002 ⚑.
    public static let encryptionKeyFailure = Self("encryptionKeyFailure")
    /// 5008.
    public static let unexpectedOperationError = Self("unexpectedOperationError")
    /// 6000.
    public static let declinedByStripeAPI = Self("declinedByStripeAPI")
    /// 6800.
    public static let refundFailed = Self("refundFailed")
    /// 6900 ⚑.
    public static let cardSwipeNotAvailable = Self("cardSwipeNotAvailable")
    /// 6901 ⚑.
    public static let interacNotSupportedOffline = Self("interacNotSupportedOffline")
    /// 6902 ⚑.
    public static let offlineAndCardExpired = Self("offlineAndCardExpired")
    /// 6903 ⚑.
    public static let offlineTransactionDeclined = Self("offlineTransactionDeclined")
    /// 6904 ⚑.
    public static let offlineCollectAndConfirmMismatch = Self("offlineCollectAndConfirmMismatch")
    /// 6905 ⚑.
    public static let onlinePinNotSupportedOffline = Self("onlinePinNotSupportedOffline")
    /// 9000.
    public static let notConnectedToInternet = Self("notConnectedToInternet")
    /// 9010.
    public static let requestTimedOut = Self("requestTimedOut")
    /// 9020.
    public static let stripeAPIError = Self("stripeAPIError")
    /// 9040.
    public static let internalNetworkError = Self("internalNetworkError")
    /// 9050.
    public static let connectionTokenProviderCompletedWithError = Self("connectionTokenProviderCompletedWithError")
    /// 9051 ⚑.
    public static let connectionTokenProviderCompletedWithErrorWhileForwarding =
        Self("connectionTokenProviderCompletedWithErrorWhileForwarding")
    /// 10106 ⚑.
    public static let notConnectedToInternetAndOfflineBehaviorRequireOnline =
        Self("notConnectedToInternetAndOfflineBehaviorRequireOnline")
    /// 10107 ⚑.
    public static let offlineBehaviorForceOfflineWithFeatureDisabled =
        Self("offlineBehaviorForceOfflineWithFeatureDisabled")
}
