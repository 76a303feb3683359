import Foundation

/// `SCPErrorKey` (`NS_STRING_ENUM`): the `userInfo` keys of errors in ``ErrorDomain``. Read them as
/// `error.userInfo[ErrorKey.message.rawValue]`.
///
/// The string values are not in the headers. Those used here follow the pattern `com.stripe-terminal:<Name>` that public
/// logs show for `SCPErrorKeyMessage` and `SCPErrorKeyStripeAPICharge`; the other values are assumed. Bridge code must
/// use the constants, never the strings.
///
/// Deviation: Swift also gives an imported string enum `_ObjectiveCBridgeable` and `_SwiftNewtypeWrapper` conformances
/// (underscored, bridging only, unusable by name); this struct is `Hashable`, `RawRepresentable` and `Sendable` without
/// them.
public struct ErrorKey: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
    /// The key string.
    public private(set) var rawValue: String

    /// Wraps a key string.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `SCPErrorKeyMessage`. Developer-facing message.
    public static let message = ErrorKey(rawValue: "com.stripe-terminal:Message")

    /// `SCPErrorKeyHttpStatusCode`. HTTP status code.
    public static let httpStatusCode = ErrorKey(rawValue: "com.stripe-terminal:HttpStatusCode")

    /// `SCPErrorKeyReaderMessage`.
    public static let readerMessage = ErrorKey(rawValue: "com.stripe-terminal:ReaderMessage")

    /// `SCPErrorKeyDeviceBannedUntilDate`. Date (Tap to Pay device ban).
    public static let deviceBannedUntilDate = ErrorKey(rawValue: "com.stripe-terminal:DeviceBannedUntilDate")

    /// `SCPErrorKeyPrepareFailedReason`.
    public static let prepareFailedReason = ErrorKey(rawValue: "com.stripe-terminal:PrepareFailedReason")

    /// `SCPErrorKeyStripeAPIError`. ApiError object (5.4.0).
    public static let stripeAPIError = ErrorKey(rawValue: "com.stripe-terminal:StripeAPIError")

    /// `SCPErrorKeyStripeAPIRequestId`.
    public static let stripeAPIRequestId = ErrorKey(rawValue: "com.stripe-terminal:StripeAPIRequestId")

    /// `SCPErrorKeyStripeAPIDeclineCode`. Stripe API decline code.
    public static let stripeAPIDeclineCode = ErrorKey(rawValue: "com.stripe-terminal:StripeAPIDeclineCode")

    /// `SCPErrorKeyStripeAPIErrorCode`.
    public static let stripeAPIErrorCode = ErrorKey(rawValue: "com.stripe-terminal:StripeAPIErrorCode")

    /// `SCPErrorKeyStripeAPIErrorParameter`.
    public static let stripeAPIErrorParameter = ErrorKey(rawValue: "com.stripe-terminal:StripeAPIErrorParameter")

    /// `SCPErrorKeyStripeAPIErrorType`.
    public static let stripeAPIErrorType = ErrorKey(rawValue: "com.stripe-terminal:StripeAPIErrorType")

    /// `SCPErrorKeyStripeAPIPaymentIntent`. Holds the PaymentIntent associated with a failed Stripe API request.
    public static let stripeAPIPaymentIntent = ErrorKey(rawValue: "com.stripe-terminal:StripeAPIPaymentIntent")

    /// `SCPErrorKeyStripeAPICharge`.
    public static let stripeAPICharge = ErrorKey(rawValue: "com.stripe-terminal:StripeAPICharge")

    /// `SCPErrorKeyStripeAPIDocUrl`.
    public static let stripeAPIDocUrl = ErrorKey(rawValue: "com.stripe-terminal:StripeAPIDocUrl")

    /// `SCPErrorKeyStripeAPIFailureReason`. Refund failure reason.
    public static let stripeAPIFailureReason = ErrorKey(rawValue: "com.stripe-terminal:StripeAPIFailureReason")

    /// `SCPErrorKeyOfflineDeclineReason`. Reason for a decline while offline.
    public static let offlineDeclineReason = ErrorKey(rawValue: "com.stripe-terminal:OfflineDeclineReason")

    /// `SCPErrorKeyTapToPayReaderErrorName`.
    public static let tapToPayReaderErrorName = ErrorKey(rawValue: "com.stripe-terminal:TapToPayReaderErrorName")
}
