public import Foundation

// The authorization and reader-pairing error enums. Cases are in the order the reference lists them (DocC's
// alphabetical order).

/// Square's `AuthorizationError`: why `AuthorizationManager.authorize` failed.
///
/// Mirror: `@objc(SQMPAuthorizationError)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's
/// own (Square does not publish them): never persist or map by them.
/// The conformance to Square's `MPSDKErrors.SquareError` is not mirrored (that module is not); its `debugInfo`
/// is declared on the enum, as the reference lists it. Bridged to `NSError`, the code is the raw value.
public enum AuthorizationError: Int, Error, CustomNSError, LocalizedError {
    /// The device is already authorized.
    case alreadyAuthorized
    /// An authorization is already running.
    case alreadyInProgress
    /// The authorization code was already used.
    case authorizationCodeAlreadyRedeemed
    /// A deauthorization is running.
    case deauthorizationInProgress
    /// The device clock is out of sync with Square's.
    case deviceTimeDoesNotMatchServerTime
    /// No access token was given.
    case emptyAccessToken
    /// No location ID was given.
    case emptyLocationID
    /// The authorization code expired.
    case expiredAuthorizationCode
    /// The access token is invalid.
    case invalidAccessToken
    /// The authorization code is invalid.
    case invalidAuthorizationCode
    /// The location ID is invalid.
    case invalidLocationID
    /// The location cannot process cards.
    case locationNotActivatedForCardProcessing
    /// No network.
    case noNetwork
    /// An unexpected error.
    case unexpected
    /// The seller's country is not supported.
    case unsupportedCountry

    /// `CustomNSError`: `"MobilePaymentsSDKAPI.AuthorizationError"`.
    public static var errorDomain: String { surfaceErrorDomain }
    /// The SDK's message for this error, from the ``SurfaceBackend``.
    public var errorDescription: String? { surfaceErrorDescription }
    /// Square's debug code and message for this error, from the ``SurfaceBackend``.
    public var debugInfo: (code: String, message: String) { surfaceDebugInfo }
}

extension AuthorizationError: SurfaceErrorEnum {
    static var surfaceTypeName: String { "AuthorizationError" }
    static var surfaceCases: [AuthorizationError] {
        [.alreadyAuthorized, .alreadyInProgress, .authorizationCodeAlreadyRedeemed, .deauthorizationInProgress,
         .deviceTimeDoesNotMatchServerTime, .emptyAccessToken, .emptyLocationID, .expiredAuthorizationCode,
         .invalidAccessToken, .invalidAuthorizationCode, .invalidLocationID, .locationNotActivatedForCardProcessing,
         .noNetwork, .unexpected, .unsupportedCountry]
    }
    var surfaceCaseName: String {
        switch self {
        case .alreadyAuthorized: "alreadyAuthorized"
        case .alreadyInProgress: "alreadyInProgress"
        case .authorizationCodeAlreadyRedeemed: "authorizationCodeAlreadyRedeemed"
        case .deauthorizationInProgress: "deauthorizationInProgress"
        case .deviceTimeDoesNotMatchServerTime: "deviceTimeDoesNotMatchServerTime"
        case .emptyAccessToken: "emptyAccessToken"
        case .emptyLocationID: "emptyLocationID"
        case .expiredAuthorizationCode: "expiredAuthorizationCode"
        case .invalidAccessToken: "invalidAccessToken"
        case .invalidAuthorizationCode: "invalidAuthorizationCode"
        case .invalidLocationID: "invalidLocationID"
        case .locationNotActivatedForCardProcessing: "locationNotActivatedForCardProcessing"
        case .noNetwork: "noNetwork"
        case .unexpected: "unexpected"
        case .unsupportedCountry: "unsupportedCountry"
        }
    }
}

/// Square's `ReaderPairingError`: why reader pairing failed (`ReaderPairingDelegate.readerPairingDidFail(with:)`).
///
/// Mirror: `@objc(SQMPReaderPairingError)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's
/// own (Square does not publish them): never persist or map by them.
/// The conformance to Square's `MPSDKErrors.SquareError` is not mirrored (that module is not); its `debugInfo`
/// is declared on the enum, as the reference lists it. Bridged to `NSError`, the code is the raw value.
public enum ReaderPairingError: Int, Error, CustomNSError, LocalizedError {
    /// Bluetooth is off.
    case bluetoothDisabled
    /// Bluetooth is not ready.
    case bluetoothNotReady
    /// The device has no Bluetooth LE.
    case bluetoothNotSupported
    /// Bluetooth permission was denied.
    case bluetoothPermissionDenied
    /// Bluetooth permission has not been asked for.
    case bluetoothPermissionNotDetermined
    /// Bluetooth permission is restricted.
    case bluetoothPermissionRestricted
    /// An unknown Bluetooth permission state.
    case bluetoothPermissionUnknownCase
    /// Bluetooth is resetting.
    case bluetoothResetting
    /// An unknown Bluetooth error.
    case bluetoothUnknownError
    /// The bond was removed: forget the reader in the iOS Bluetooth settings.
    case bondingRemoved
    /// The reader failed to connect.
    case failedToConnect
    /// The SDK is not authorized.
    case notAuthorized
    /// A pairing is already in progress.
    case readerAlreadyPairing
    /// Bluetooth pairing is not possible in Sandbox.
    case sandboxNotSupported
    /// Pairing is not possible on the iOS Simulator.
    case simulatorNotSupported
    /// Pairing timed out.
    case timedOut
    /// The SDK is too old for this reader.
    case updateRequired

    /// `CustomNSError`: `"MobilePaymentsSDKAPI.ReaderPairingError"`.
    public static var errorDomain: String { surfaceErrorDomain }
    /// The SDK's message for this error, from the ``SurfaceBackend``.
    public var errorDescription: String? { surfaceErrorDescription }
    /// Square's debug code and message for this error, from the ``SurfaceBackend``.
    public var debugInfo: (code: String, message: String) { surfaceDebugInfo }
}

extension ReaderPairingError: SurfaceErrorEnum {
    static var surfaceTypeName: String { "ReaderPairingError" }
    static var surfaceCases: [ReaderPairingError] {
        [.bluetoothDisabled, .bluetoothNotReady, .bluetoothNotSupported, .bluetoothPermissionDenied,
         .bluetoothPermissionNotDetermined, .bluetoothPermissionRestricted, .bluetoothPermissionUnknownCase,
         .bluetoothResetting, .bluetoothUnknownError, .bondingRemoved, .failedToConnect, .notAuthorized,
         .readerAlreadyPairing, .sandboxNotSupported, .simulatorNotSupported, .timedOut, .updateRequired]
    }
    var surfaceCaseName: String {
        switch self {
        case .bluetoothDisabled: "bluetoothDisabled"
        case .bluetoothNotReady: "bluetoothNotReady"
        case .bluetoothNotSupported: "bluetoothNotSupported"
        case .bluetoothPermissionDenied: "bluetoothPermissionDenied"
        case .bluetoothPermissionNotDetermined: "bluetoothPermissionNotDetermined"
        case .bluetoothPermissionRestricted: "bluetoothPermissionRestricted"
        case .bluetoothPermissionUnknownCase: "bluetoothPermissionUnknownCase"
        case .bluetoothResetting: "bluetoothResetting"
        case .bluetoothUnknownError: "bluetoothUnknownError"
        case .bondingRemoved: "bondingRemoved"
        case .failedToConnect: "failedToConnect"
        case .notAuthorized: "notAuthorized"
        case .readerAlreadyPairing: "readerAlreadyPairing"
        case .sandboxNotSupported: "sandboxNotSupported"
        case .simulatorNotSupported: "simulatorNotSupported"
        case .timedOut: "timedOut"
        case .updateRequired: "updateRequired"
        }
    }
}
