public import Foundation

/// `SCPErrorDomain` (`NS_SWIFT_NAME(ErrorDomain)`): the domain of the SDK's errors; also ``ErrorCode/errorDomain``.
///
/// The headers do not state its value. `com.stripe-terminal` is what public logs of SDK errors print
/// (`Error Domain=com.stripe-terminal Code=1110 …`) and what public integrations compare against; compare with this
/// constant, never with the string.
public let ErrorDomain: String = "com.stripe-terminal"

/// `SCPError` as Swift imports an `NS_ERROR_ENUM` named `ErrorCode`: a struct wrapping the `NSError`, with the codes in
/// the nested ``Code`` enum and a static member per code, so that `catch ErrorCode.canceled`, `error.code == .canceled`
/// and `(error as NSError).code == ErrorCode.canceled.rawValue` all work.
///
/// Like the imported struct, it adopts Foundation's `_BridgedStoredNSError`, which supplies the pattern match and
/// `NSError` conversion. Difference to know: Linux cannot bridge an arbitrary `NSError` to this struct, so `error as?
/// ErrorCode` and `catch ErrorCode.canceled` match only errors created as ``ErrorCode`` (which is what a backend
/// reports outside confirm); `(error as NSError)` with `.domain` / `.code` works for every SDK error on both platforms.
public struct ErrorCode: _BridgedStoredNSError {
    /// The wrapped error (`_BridgedStoredNSError`).
    public let _nsError: NSError

    /// Wraps an error of ``ErrorDomain`` (`_BridgedStoredNSError`).
    public init(_nsError error: NSError) {
        precondition(error.domain == ErrorDomain, "StripeTerminalSurface: ErrorCode wraps only errors in ErrorDomain")
        self._nsError = error
    }

    /// The domain (`__BridgedNSError`).
    public static var _nsErrorDomain: String {
        ErrorDomain
    }

    /// `CustomNSError`: ``ErrorDomain``.
    public static var errorDomain: String {
        ErrorDomain
    }

    /// An error with this code and `userInfo` (keys from ``ErrorKey``).
    public init(_ code: ErrorCode.Code, userInfo: [String: Any] = [:]) {
        self._nsError = NSError(domain: ErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    /// The error's code. An `NSError` whose code the reference does not list cannot be wrapped as `ErrorCode` here.
    public var code: ErrorCode.Code {
        guard let code = Code(rawValue: _nsError.code) else {
            preconditionFailure("StripeTerminalSurface: \(_nsError.code) is not an ErrorCode.Code")
        }
        return code
    }

    /// The error's `userInfo` (keys from ``ErrorKey``).
    public var userInfo: [String: Any] {
        _nsError.userInfo
    }
}
