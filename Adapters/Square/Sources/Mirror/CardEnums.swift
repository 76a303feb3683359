import Foundation

// The enums of card details. Cases are in the order the reference lists them (DocC's alphabetical order).

/// Square's `CardPaymentStatus`: the status of the card part of an online payment (`card_details.status`).
///
/// Mirror: `@objc(SQMPCardPaymentStatus)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's
/// own (Square does not publish them): never persist or map by them.
public enum CardPaymentStatus: UInt, CustomStringConvertible, Codable {
    /// Authorized, not yet captured.
    case authorized
    /// Authorized and captured.
    case captured
    /// Failed.
    case failed
    /// Unknown.
    case unknown
    /// Authorized and then voided.
    case voided

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
    /// Decodes a value by case name through the ``SurfaceBackend`` (Square's representation is not documented).
    public init(from decoder: any Decoder) throws { self = try Self.surfaceDecode(from: decoder) }
    /// Encodes the value by case name through the ``SurfaceBackend``.
    public func encode(to encoder: any Encoder) throws { try surfaceEncode(to: encoder) }
}

extension CardPaymentStatus: SurfaceEnum {
    static var surfaceTypeName: String { "CardPaymentStatus" }
    static var surfaceCases: [CardPaymentStatus] { [.authorized, .captured, .failed, .unknown, .voided] }
    var surfaceCaseName: String {
        switch self {
        case .authorized: "authorized"
        case .captured: "captured"
        case .failed: "failed"
        case .unknown: "unknown"
        case .voided: "voided"
        }
    }
}

/// Square's `CardBrand`: a card's brand.
///
/// Mirror: `@objc(SQMPCardBrand)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's own
/// (Square does not publish them): never persist or map by them.
public enum CardBrand: UInt, CustomStringConvertible, Codable {
    /// American Express.
    case americanExpress
    /// China UnionPay.
    case chinaUnionPay
    /// Discover.
    case discover
    /// Discover Diners.
    case discoverDiners
    /// EBT.
    case ebt
    /// eftpos.
    case eftpos
    /// FeliCa.
    case felica
    /// Interac (always refused offline).
    case interac
    /// JCB.
    case jcb
    /// Mastercard.
    case mastercard
    /// A brand not listed here.
    case otherBrand
    /// Square Capital card.
    case squareCapitalCard
    /// Square Gift Card.
    case squareGiftCard
    /// The brand could not be identified.
    case unknown
    /// Visa.
    case visa

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
    /// Decodes a value by case name through the ``SurfaceBackend`` (Square's representation is not documented).
    public init(from decoder: any Decoder) throws { self = try Self.surfaceDecode(from: decoder) }
    /// Encodes the value by case name through the ``SurfaceBackend``.
    public func encode(to encoder: any Encoder) throws { try surfaceEncode(to: encoder) }
}

extension CardBrand: SurfaceEnum {
    static var surfaceTypeName: String { "CardBrand" }
    static var surfaceCases: [CardBrand] {
        [.americanExpress, .chinaUnionPay, .discover, .discoverDiners, .ebt, .eftpos, .felica, .interac, .jcb,
         .mastercard, .otherBrand, .squareCapitalCard, .squareGiftCard, .unknown, .visa]
    }
    var surfaceCaseName: String {
        switch self {
        case .americanExpress: "americanExpress"
        case .chinaUnionPay: "chinaUnionPay"
        case .discover: "discover"
        case .discoverDiners: "discoverDiners"
        case .ebt: "ebt"
        case .eftpos: "eftpos"
        case .felica: "felica"
        case .interac: "interac"
        case .jcb: "jcb"
        case .mastercard: "mastercard"
        case .otherBrand: "otherBrand"
        case .squareCapitalCard: "squareCapitalCard"
        case .squareGiftCard: "squareGiftCard"
        case .unknown: "unknown"
        case .visa: "visa"
        }
    }
}

/// Square's `CardCoBrand`: a card's co-brand.
///
/// Mirror: `@objc(SQMPCardCoBrand)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's own
/// (Square does not publish them): never persist or map by them.
public enum CardCoBrand: UInt, CustomStringConvertible, Codable {
    /// Afterpay.
    case afterpay
    /// No co-brand.
    case none
    /// Unknown.
    case unknown

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
    /// Decodes a value by case name through the ``SurfaceBackend`` (Square's representation is not documented).
    public init(from decoder: any Decoder) throws { self = try Self.surfaceDecode(from: decoder) }
    /// Encodes the value by case name through the ``SurfaceBackend``.
    public func encode(to encoder: any Encoder) throws { try surfaceEncode(to: encoder) }
}

extension CardCoBrand: SurfaceEnum {
    static var surfaceTypeName: String { "CardCoBrand" }
    static var surfaceCases: [CardCoBrand] { [.afterpay, .none, .unknown] }
    var surfaceCaseName: String {
        switch self {
        case .afterpay: "afterpay"
        case .none: "none"
        case .unknown: "unknown"
        }
    }
}

/// Square's `CardEntryMethod`: how a card's details were read.
///
/// Mirror: `@objc(SQMPCardEntryMethod)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's own
/// (Square does not publish them): never persist or map by them.
public enum CardEntryMethod: UInt, CustomStringConvertible, Codable {
    /// Tapped (NFC).
    case contactless
    /// Inserted chip (EMV).
    case emv
    /// Keyed in by hand.
    case keyed
    /// A card on file.
    case onFile
    /// Swiped (magnetic stripe).
    case swiped
    /// Unknown.
    case unknown

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
    /// Decodes a value by case name through the ``SurfaceBackend`` (Square's representation is not documented).
    public init(from decoder: any Decoder) throws { self = try Self.surfaceDecode(from: decoder) }
    /// Encodes the value by case name through the ``SurfaceBackend``.
    public func encode(to encoder: any Encoder) throws { try surfaceEncode(to: encoder) }
}

extension CardEntryMethod: SurfaceEnum {
    static var surfaceTypeName: String { "CardEntryMethod" }
    static var surfaceCases: [CardEntryMethod] { [.contactless, .emv, .keyed, .onFile, .swiped, .unknown] }
    var surfaceCaseName: String {
        switch self {
        case .contactless: "contactless"
        case .emv: "emv"
        case .keyed: "keyed"
        case .onFile: "onFile"
        case .swiped: "swiped"
        case .unknown: "unknown"
        }
    }
}
