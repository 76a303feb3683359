#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
public import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import Foundation
package import TenderSquare

/// Square's error enums to the adapter's, by case name: every function is a `switch` over the SDK's cases, each
/// mapped to the case of the same name. Square publishes no raw values, so none is used to map; an `NSError` of the
/// SDK's own domain is read back into the SDK's enum with the SDK's own `init(rawValue:)`, as Square's
/// handling-errors guide and sample do (`PaymentError(rawValue: (error as NSError).code)`), without relying on the
/// enums' `CustomNSError` conformance.
///
/// A case a newer SDK adds (`@unknown default`):
/// - `PaymentError` and `ReaderPairingError`: the error is handed to the adapter as it came, and the adapter applies
///   its documented fallback for an unknown error (a payment's outcome is then unknown, never assumed failed);
/// - `AuthorizationError` and `OfflinePaymentQueueError`: `unexpected`, as ``SquareClient`` documents.
package enum SquareBridgeErrors {
    /// The error a `PaymentManagerDelegate` callback hands the adapter: the mapped ``Square/PaymentError``, or the
    /// SDK's error as it came when it is not a `PaymentError` this SDK version knows.
    package static func payment(_ error: any Error) -> any Error {
        sdkError(error, as: PaymentError.self).flatMap(value) ?? error
    }

    /// The error a `ReaderPairingDelegate` hands the adapter: the mapped ``Square/ReaderPairingError``, or the SDK's
    /// error as it came.
    package static func pairing(_ error: any Error) -> any Error {
        sdkError(error, as: ReaderPairingError.self).flatMap(value) ?? error
    }

    /// The ``Square/AuthorizationError`` for an authorization completion's error (`unexpected` when it is not one).
    package static func authorization(_ error: any Error) -> Square.AuthorizationError {
        sdkError(error, as: AuthorizationError.self).map(value) ?? .unexpected
    }

    /// The ``Square/OfflinePaymentQueueError`` for an offline queue completion's error (`unexpected` when it is not
    /// one).
    package static func offlineQueue(_ error: any Error) -> Square.OfflinePaymentQueueError {
        sdkError(error, as: OfflinePaymentQueueError.self).map(value) ?? .unexpected
    }

    /// The SDK's error enum `type` in `error`: the enum itself, or the `NSError` it was bridged to, read back as
    /// Square's example and its React Native and Flutter plugins read it (`(error as NSError).code` into the enum's
    /// `init(rawValue:)`), whether or not the enum conforms to `CustomNSError`. The domain must be the one that case
    /// bridges to (its `errorDomain` when it declares one, Swift's module-qualified type name otherwise), so another
    /// domain's error with the same code is never taken for the SDK's.
    static func sdkError<SDKError: Error & RawRepresentable>(_ error: any Error, as type: SDKError.Type)
        -> SDKError? where SDKError.RawValue == Int {
        if let typed = error as? SDKError { return typed }
        let bridged = error as NSError
        guard let candidate = SDKError(rawValue: bridged.code) else { return nil }
        let expected = candidate as NSError
        return expected.domain == bridged.domain && expected.code == bridged.code ? candidate : nil
    }

    /// The SDK's `PaymentError` → ``Square/PaymentError``; `nil` for a case this SDK version adds.
    static func value(_ error: PaymentError) -> Square.PaymentError? {
        switch error {
        case .deviceTimeDoesNotMatchServerTime: .deviceTimeDoesNotMatchServerTime
        case .invalidPaymentParameters: .invalidPaymentParameters
        case .invalidPaymentSource: .invalidPaymentSource
        case .locationPermissionNeeded: .locationPermissionNeeded
        case .merchantNotOptedIntoOfflineProcessing: .merchantNotOptedIntoOfflineProcessing
        case .noNetwork: .noNetwork
        case .notAuthorized: .notAuthorized
        case .offlineStoredAmountExceeded: .offlineStoredAmountExceeded
        case .offlineTransactionAmountExceeded: .offlineTransactionAmountExceeded
        case .paymentAlreadyInProgress: .paymentAlreadyInProgress
        case .paymentAttemptIdReused: .paymentAttemptIdReused
        case .sandboxUnsupportedForOfflineProcessing: .sandboxUnsupportedForOfflineProcessing
        case .timedOut: .timedOut
        case .trackingConsentIsPending: .trackingConsentIsPending
        case .unexpected: .unexpected
        case .unsupportedMode: .unsupportedMode
        @unknown default: nil
        }
    }

    /// The SDK's `AuthorizationError` → ``Square/AuthorizationError``; a case this SDK version adds reads as
    /// `unexpected`.
    static func value(_ error: AuthorizationError) -> Square.AuthorizationError {
        switch error {
        case .alreadyAuthorized: .alreadyAuthorized
        case .alreadyInProgress: .alreadyInProgress
        case .authorizationCodeAlreadyRedeemed: .authorizationCodeAlreadyRedeemed
        case .deauthorizationInProgress: .deauthorizationInProgress
        case .deviceTimeDoesNotMatchServerTime: .deviceTimeDoesNotMatchServerTime
        case .emptyAccessToken: .emptyAccessToken
        case .emptyLocationID: .emptyLocationID
        case .expiredAuthorizationCode: .expiredAuthorizationCode
        case .invalidAccessToken: .invalidAccessToken
        case .invalidAuthorizationCode: .invalidAuthorizationCode
        case .invalidLocationID: .invalidLocationID
        case .locationNotActivatedForCardProcessing: .locationNotActivatedForCardProcessing
        case .noNetwork: .noNetwork
        case .unexpected: .unexpected
        case .unsupportedCountry: .unsupportedCountry
        @unknown default: .unexpected
        }
    }

    /// The SDK's `OfflinePaymentQueueError` → ``Square/OfflinePaymentQueueError``; a case this SDK version adds reads
    /// as `unexpected`.
    static func value(_ error: OfflinePaymentQueueError) -> Square.OfflinePaymentQueueError {
        switch error {
        case .notAuthorized: .notAuthorized
        case .unexpected: .unexpected
        case .unsupportedSandboxEnvironment: .unsupportedSandboxEnvironment
        @unknown default: .unexpected
        }
    }

    /// The SDK's `ReaderPairingError` → ``Square/ReaderPairingError``; `nil` for a case this SDK version adds.
    static func value(_ error: ReaderPairingError) -> Square.ReaderPairingError? {
        switch error {
        case .bluetoothDisabled: .bluetoothDisabled
        case .bluetoothNotReady: .bluetoothNotReady
        case .bluetoothNotSupported: .bluetoothNotSupported
        case .bluetoothPermissionDenied: .bluetoothPermissionDenied
        case .bluetoothPermissionNotDetermined: .bluetoothPermissionNotDetermined
        case .bluetoothPermissionRestricted: .bluetoothPermissionRestricted
        case .bluetoothPermissionUnknownCase: .bluetoothPermissionUnknownCase
        case .bluetoothResetting: .bluetoothResetting
        case .bluetoothUnknownError: .bluetoothUnknownError
        case .bondingRemoved: .bondingRemoved
        case .failedToConnect: .failedToConnect
        case .notAuthorized: .notAuthorized
        case .readerAlreadyPairing: .readerAlreadyPairing
        case .sandboxNotSupported: .sandboxNotSupported
        case .simulatorNotSupported: .simulatorNotSupported
        case .timedOut: .timedOut
        case .updateRequired: .updateRequired
        @unknown default: nil
        }
    }
}
#endif
