import Foundation

// The enums of authorization, money and settings. Cases are in the order the reference lists them (DocC's alphabetical
// order).

/// Square's `AuthorizationState`: whether the SDK is authorized with a seller (`AuthorizationManager.state`).
///
/// Mirror: `@objc(SQMPAuthorizationState)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's
/// own (Square does not publish them): never persist or map by them.
public enum AuthorizationState: UInt, CustomStringConvertible {
    /// Authorized with a seller and location.
    case authorized
    /// An authorization is in progress.
    case authorizing
    /// Not authorized.
    case notAuthorized

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
}

extension AuthorizationState: SurfaceEnum {
    static var surfaceTypeName: String { "AuthorizationState" }
    static var surfaceCases: [AuthorizationState] { [.authorized, .authorizing, .notAuthorized] }
    var surfaceCaseName: String {
        switch self {
        case .authorized: "authorized"
        case .authorizing: "authorizing"
        case .notAuthorized: "notAuthorized"
        }
    }
}

/// Square's `Currency`: the currencies the SDK accepts, plus `unknown`.
///
/// Mirror: `@objc(SQMPCurrency)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's own (Square
/// does not publish them): never persist or map by them.
public enum Currency: UInt, CaseIterable, CustomStringConvertible, LosslessStringConvertible, Codable {
    /// Australian dollar.
    case AUD
    /// Canadian dollar.
    case CAD
    /// Euro.
    case EUR
    /// Pound sterling.
    case GBP
    /// Japanese yen.
    case JPY
    /// United States dollar.
    case USD
    /// A currency the SDK does not know.
    case unknown

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
    /// `LosslessStringConvertible`: the case whose ``description`` is `description`.
    public init?(_ description: String) {
        guard let match = Self.allCases.first(where: { $0.description == description }) else { return nil }
        self = match
    }
    /// The ISO 4217 code: the case name for the six currencies; `unknown`'s text comes from the backend.
    public var currencyCode: String {
        self == .unknown ? SurfaceBackendSlot.current.text(.currencyCode(surfaceCase)) : surfaceCaseName
    }
    /// Decodes a value by case name through the ``SurfaceBackend`` (Square's representation is not documented).
    public init(from decoder: any Decoder) throws { self = try Self.surfaceDecode(from: decoder) }
    /// Encodes the value by case name through the ``SurfaceBackend``.
    public func encode(to encoder: any Encoder) throws { try surfaceEncode(to: encoder) }
}

extension Currency: SurfaceEnum {
    static var surfaceTypeName: String { "Currency" }
    static var surfaceCases: [Currency] { [.AUD, .CAD, .EUR, .GBP, .JPY, .USD, .unknown] }
    var surfaceCaseName: String {
        switch self {
        case .AUD: "AUD"
        case .CAD: "CAD"
        case .EUR: "EUR"
        case .GBP: "GBP"
        case .JPY: "JPY"
        case .USD: "USD"
        case .unknown: "unknown"
        }
    }
}

/// Square's `Environment`: the environment the SDK runs in, derived from the application ID it was initialized with.
///
/// Mirror: `@objc(SQMPEnvironment)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's own
/// (Square does not publish them): never persist or map by them.
public enum Environment: UInt, CustomStringConvertible {
    /// Production.
    case production
    /// Sandbox: no offline payments, no Bluetooth pairing.
    case sandbox

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
}

extension Environment: SurfaceEnum {
    static var surfaceTypeName: String { "Environment" }
    static var surfaceCases: [Environment] { [.production, .sandbox] }
    var surfaceCaseName: String {
        switch self {
        case .production: "production"
        case .sandbox: "sandbox"
        }
    }
}

/// Square's `TrackingConsentState`: the state of the user's tracking consent.
///
/// Mirror: `@objc(SQMPTrackingConsentState)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's
/// own (Square does not publish them): never persist or map by them.
public enum TrackingConsentState: UInt {
    /// The user denied tracking.
    case denied
    /// The user granted tracking.
    case granted
    /// No consent is required.
    case notRequired
    /// Consent is required and not yet given.
    case pending
}

extension TrackingConsentState: SurfaceEnum {
    static var surfaceTypeName: String { "TrackingConsentState" }
    static var surfaceCases: [TrackingConsentState] { [.denied, .granted, .notRequired, .pending] }
    var surfaceCaseName: String {
        switch self {
        case .denied: "denied"
        case .granted: "granted"
        case .notRequired: "notRequired"
        case .pending: "pending"
        }
    }
}
