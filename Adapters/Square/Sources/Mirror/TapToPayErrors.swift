public import Foundation

// Tap to Pay and reader firmware errors (Square 2.5.0 DocC, `gh-pages` 227876b). Cases in the reference's (DocC's
// alphabetical) order.

/// Square's `TapToPayReaderError`: why a `TapToPaySettings` call (linking the Apple account, checks) failed.
///
/// Mirror: `@objc(SQMPTapToPayReaderError)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's
/// own (Square does not publish them): never persist or map by them.
/// The conformance to Square's `MPSDKErrors.SquareError` is not mirrored (that module is not); its `debugInfo`
/// is declared on the enum, as the reference lists it. Bridged to `NSError`, the code is the raw value.
public enum TapToPayReaderError: Int, Error, CustomNSError, LocalizedError {
    /// `alreadyLinked`.
    case alreadyLinked
    /// `banned`.
    case banned
    /// `invalidToken`.
    case invalidToken
    /// `linkingCanceled`.
    case linkingCanceled
    /// `linkingFailed`.
    case linkingFailed
    /// `networkError`.
    case networkError
    /// `noNetwork`.
    case noNetwork
    /// `notAuthorized`.
    case notAuthorized
    /// `notAvailable`.
    case notAvailable
    /// `other`.
    case other
    /// `passcodeDisabled`.
    case passcodeDisabled
    /// `unexpected`.
    case unexpected
    /// `unsupportedDeviceModel`.
    case unsupportedDeviceModel
    /// `unsupportedOSVersion`.
    case unsupportedOSVersion

    /// `CustomNSError`: `"MobilePaymentsSDKAPI.TapToPayReaderError"`.
    public static var errorDomain: String { surfaceErrorDomain }
    /// The SDK's message for this error, from the ``SurfaceBackend``.
    public var errorDescription: String? { surfaceErrorDescription }
    /// Square's debug code and message for this error, from the ``SurfaceBackend``.
    public var debugInfo: (code: String, message: String) { surfaceDebugInfo }
}

extension TapToPayReaderError: SurfaceErrorEnum {
    static var surfaceTypeName: String { "TapToPayReaderError" }
    static var surfaceCases: [TapToPayReaderError] { [.alreadyLinked, .banned, .invalidToken, .linkingCanceled, .linkingFailed, .networkError, .noNetwork, .notAuthorized, .notAvailable, .other, .passcodeDisabled, .unexpected, .unsupportedDeviceModel, .unsupportedOSVersion] }
    var surfaceCaseName: String {
        switch self {
        case .alreadyLinked: "alreadyLinked"
        case .banned: "banned"
        case .invalidToken: "invalidToken"
        case .linkingCanceled: "linkingCanceled"
        case .linkingFailed: "linkingFailed"
        case .networkError: "networkError"
        case .noNetwork: "noNetwork"
        case .notAuthorized: "notAuthorized"
        case .notAvailable: "notAvailable"
        case .other: "other"
        case .passcodeDisabled: "passcodeDisabled"
        case .unexpected: "unexpected"
        case .unsupportedDeviceModel: "unsupportedDeviceModel"
        case .unsupportedOSVersion: "unsupportedOSVersion"
        }
    }
}

/// Square's `ReaderFirmwareUpdateError`: why a reader firmware update failed.
///
/// Mirror: `@objc(SQMPReaderFirmwareUpdateError)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's
/// own (Square does not publish them): never persist or map by them.
/// The conformance to Square's `MPSDKErrors.SquareError` is not mirrored (that module is not); its `debugInfo`
/// is declared on the enum, as the reference lists it. Bridged to `NSError`, the code is the raw value.
public enum ReaderFirmwareUpdateError: Int, Error, CustomNSError, LocalizedError {
    /// `connectionTimeout`.
    case connectionTimeout
    /// `firmwareFailure`.
    case firmwareFailure
    /// `readerDisconnected`.
    case readerDisconnected
    /// `serverCallFailure`.
    case serverCallFailure
    /// `unknownError`.
    case unknownError

    /// `CustomNSError`: `"MobilePaymentsSDKAPI.ReaderFirmwareUpdateError"`.
    public static var errorDomain: String { surfaceErrorDomain }
    /// The SDK's message for this error, from the ``SurfaceBackend``.
    public var errorDescription: String? { surfaceErrorDescription }
    /// Square's debug code and message for this error, from the ``SurfaceBackend``.
    public var debugInfo: (code: String, message: String) { surfaceDebugInfo }
}

extension ReaderFirmwareUpdateError: SurfaceErrorEnum {
    static var surfaceTypeName: String { "ReaderFirmwareUpdateError" }
    static var surfaceCases: [ReaderFirmwareUpdateError] { [.connectionTimeout, .firmwareFailure, .readerDisconnected, .serverCallFailure, .unknownError] }
    var surfaceCaseName: String {
        switch self {
        case .connectionTimeout: "connectionTimeout"
        case .firmwareFailure: "firmwareFailure"
        case .readerDisconnected: "readerDisconnected"
        case .serverCallFailure: "serverCallFailure"
        case .unknownError: "unknownError"
        }
    }
}
