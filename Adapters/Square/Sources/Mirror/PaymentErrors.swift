public import Foundation

// The payment and offline-queue error enums. Cases are in the order the reference lists them (DocC's alphabetical
// order).

/// Square's `PaymentError`: why a payment failed (the `Error` of
/// `PaymentManagerDelegate.paymentManager(_:didFail:withError:)`).
///
/// Mirror: `@objc(SQMPPaymentError)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's own
/// (Square does not publish them): never persist or map by them.
/// The conformance to Square's `MPSDKErrors.SquareError` is not mirrored (that module is not); its `debugInfo`
/// is declared on the enum, as the reference lists it. Bridged to `NSError`, the code is the raw value.
public enum PaymentError: Int, Error, CustomNSError, LocalizedError {
    /// The device clock is out of sync with Square's.
    case deviceTimeDoesNotMatchServerTime
    /// The `PaymentParameters` were invalid.
    case invalidPaymentParameters
    /// The payment source did not match the additional payment method.
    case invalidPaymentSource
    /// The app lacks location permission.
    case locationPermissionNeeded
    /// The seller has not opted into offline payments.
    case merchantNotOptedIntoOfflineProcessing
    /// No network; the payment could not be completed.
    case noNetwork
    /// The SDK is not authorized with a seller.
    case notAuthorized
    /// The total stored offline on the device would exceed its limit.
    case offlineStoredAmountExceeded
    /// The payment is over the offline per-transaction limit.
    case offlineTransactionAmountExceeded
    /// A payment is already in progress.
    case paymentAlreadyInProgress
    /// The payment attempt ID was used before: check for a duplicate.
    case paymentAttemptIdReused
    /// An offline payment was attempted in Sandbox.
    case sandboxUnsupportedForOfflineProcessing
    /// The SDK timed out waiting for the payment.
    case timedOut
    /// Tracking consent is required and still pending.
    case trackingConsentIsPending
    /// `startPayment` was used in an unexpected or unsupported way.
    case unexpected
    /// The device entered an unsupported mode, such as split screen.
    case unsupportedMode

    /// `CustomNSError`: `"MobilePaymentsSDKAPI.PaymentError"`.
    public static var errorDomain: String { surfaceErrorDomain }
    /// The SDK's message for this error, from the ``SurfaceBackend``.
    public var errorDescription: String? { surfaceErrorDescription }
    /// Square's debug code and message for this error, from the ``SurfaceBackend``.
    public var debugInfo: (code: String, message: String) { surfaceDebugInfo }
}

extension PaymentError: SurfaceErrorEnum {
    static var surfaceTypeName: String { "PaymentError" }
    static var surfaceCases: [PaymentError] {
        [.deviceTimeDoesNotMatchServerTime, .invalidPaymentParameters, .invalidPaymentSource, .locationPermissionNeeded,
         .merchantNotOptedIntoOfflineProcessing, .noNetwork, .notAuthorized, .offlineStoredAmountExceeded,
         .offlineTransactionAmountExceeded, .paymentAlreadyInProgress, .paymentAttemptIdReused,
         .sandboxUnsupportedForOfflineProcessing, .timedOut, .trackingConsentIsPending, .unexpected, .unsupportedMode]
    }
    var surfaceCaseName: String {
        switch self {
        case .deviceTimeDoesNotMatchServerTime: "deviceTimeDoesNotMatchServerTime"
        case .invalidPaymentParameters: "invalidPaymentParameters"
        case .invalidPaymentSource: "invalidPaymentSource"
        case .locationPermissionNeeded: "locationPermissionNeeded"
        case .merchantNotOptedIntoOfflineProcessing: "merchantNotOptedIntoOfflineProcessing"
        case .noNetwork: "noNetwork"
        case .notAuthorized: "notAuthorized"
        case .offlineStoredAmountExceeded: "offlineStoredAmountExceeded"
        case .offlineTransactionAmountExceeded: "offlineTransactionAmountExceeded"
        case .paymentAlreadyInProgress: "paymentAlreadyInProgress"
        case .paymentAttemptIdReused: "paymentAttemptIdReused"
        case .sandboxUnsupportedForOfflineProcessing: "sandboxUnsupportedForOfflineProcessing"
        case .timedOut: "timedOut"
        case .trackingConsentIsPending: "trackingConsentIsPending"
        case .unexpected: "unexpected"
        case .unsupportedMode: "unsupportedMode"
        }
    }
}

/// Square's `OfflinePaymentQueueError`: why an ``OfflinePaymentQueue`` call failed.
///
/// Mirror: `@objc(SQMPOfflinePaymentQueueError)` is dropped (no Objective-C runtime on Linux). Raw values are this
/// mirror's own (Square does not publish them): never persist or map by them.
/// The conformance to Square's `MPSDKErrors.SquareError` is not mirrored (that module is not); its `debugInfo`
/// is declared on the enum, as the reference lists it. Bridged to `NSError`, the code is the raw value.
public enum OfflinePaymentQueueError: Int, Error, CustomNSError, LocalizedError {
    /// The SDK is not authorized.
    case notAuthorized
    /// An unexpected error.
    case unexpected
    /// Offline payments are not supported in Sandbox.
    case unsupportedSandboxEnvironment

    /// `CustomNSError`: `"MobilePaymentsSDKAPI.OfflinePaymentQueueError"`.
    public static var errorDomain: String { surfaceErrorDomain }
    /// The SDK's message for this error, from the ``SurfaceBackend``.
    public var errorDescription: String? { surfaceErrorDescription }
    /// Square's debug code and message for this error, from the ``SurfaceBackend``.
    public var debugInfo: (code: String, message: String) { surfaceDebugInfo }
}

extension OfflinePaymentQueueError: SurfaceErrorEnum {
    static var surfaceTypeName: String { "OfflinePaymentQueueError" }
    static var surfaceCases: [OfflinePaymentQueueError] {
        [.notAuthorized, .unexpected, .unsupportedSandboxEnvironment]
    }
    var surfaceCaseName: String {
        switch self {
        case .notAuthorized: "notAuthorized"
        case .unexpected: "unexpected"
        case .unsupportedSandboxEnvironment: "unsupportedSandboxEnvironment"
        }
    }
}
