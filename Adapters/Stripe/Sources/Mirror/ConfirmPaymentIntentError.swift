public import Foundation

/// `SCPConfirmPaymentIntentError`: the `NSError` subclass `confirmPaymentIntent` completions deliver. Its domain is
/// ``ErrorDomain`` and its code an ``ErrorCode/Code`` raw value.
///
/// Difference to know: on iOS `error as? ErrorCode` (and `catch ErrorCode.x`) bridges this object to ``ErrorCode``; Linux
/// cannot bridge an `NSError` subclass to the struct, so read `.domain` / `.code` (with
/// ``ErrorCode/Code/init(rawValue:)``) instead, which works on both. `NSError` is `Sendable` on both platforms; this subclass's stored properties are set once, before it
/// is handed out, hence `@unchecked`.
public class ConfirmPaymentIntentError: NSError, @unchecked Sendable {
    /// `SCPConfirmPaymentIntentError.paymentIntent`: nil means the request timed out and the intent's status is unknown
    /// (confirm the same intent again); otherwise its status says whether to confirm again or collect again.
    public private(set) var paymentIntent: PaymentIntent?

    /// `SCPConfirmPaymentIntentError.requestError`: the underlying request error, if any.
    public private(set) var requestError: (any Error)?

    /// `SCPConfirmPaymentIntentError.declineCode`: the decline code, for a decline.
    public private(set) var declineCode: String?

    /// `SCPConfirmPaymentIntentError.apiError` (5.4.0; also in `userInfo[ErrorKey.stripeAPIError.rawValue]`).
    public private(set) var apiError: ApiError?

    /// Creates the error a backend reports for a failed confirm: ``ErrorDomain``, `code`, and the SDK's properties.
    package convenience init(
        surface: SurfaceConstruction, code: ErrorCode.Code, userInfo: [String: Any] = [:],
        paymentIntent: PaymentIntent?, requestError: (any Error)? = nil, declineCode: String? = nil,
        apiError: ApiError? = nil
    ) {
        self.init(domain: ErrorDomain, code: code.rawValue, userInfo: userInfo)
        self.paymentIntent = paymentIntent
        self.requestError = requestError
        self.declineCode = declineCode
        self.apiError = apiError
    }
}
