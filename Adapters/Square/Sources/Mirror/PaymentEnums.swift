import Foundation

// The enums of payment parameters and payments. Cases are in the order the reference lists them (DocC's alphabetical
// order).

/// Square's `ProcessingMode`: how a payment is processed: online, offline, or chosen by the SDK. Required by
/// `PaymentParameters` since 2.2.0.
///
/// Mirror: `@objc(SQMPProcessingMode)` is dropped (no Objective-C runtime on Linux). Raw values are Square's
/// (`onlineOnly = 0`, `offlineOnly = 1`, `autoDetect = 2`, reference §1); still map by case.
public enum ProcessingMode: Int, CustomStringConvertible {
    /// Online or offline by likely success, when the seller has opted into offline; otherwise online. Not in Sandbox.
    case autoDetect = 2
    /// Stored on the device first and uploaded later. Not in Sandbox.
    case offlineOnly = 1
    /// Processed over the network in real time; the only mode Sandbox supports.
    case onlineOnly = 0

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
}

extension ProcessingMode: SurfaceEnum {
    static var surfaceTypeName: String { "ProcessingMode" }
    static var surfaceCases: [ProcessingMode] { [.autoDetect, .offlineOnly, .onlineOnly] }
    var surfaceCaseName: String {
        switch self {
        case .autoDetect: "autoDetect"
        case .offlineOnly: "offlineOnly"
        case .onlineOnly: "onlineOnly"
        }
    }
}

/// Square's `DelayAction`: what Square does to a delayed-capture payment that is still open when its `delayDuration`
/// ends.
///
/// Mirror: `@objc(SQMPDelayAction)` is dropped (no Objective-C runtime on Linux). Raw values as inferred in reference
/// §1 (`cancel = 0`, `complete = 1`); still map by case.
public enum DelayAction: Int, CustomStringConvertible {
    /// Cancel (void) the payment. The default.
    case cancel = 0
    /// Complete (capture) the payment. Invalid together with an `orderID`.
    case complete = 1

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
}

extension DelayAction: SurfaceEnum {
    static var surfaceTypeName: String { "DelayAction" }
    static var surfaceCases: [DelayAction] { [.cancel, .complete] }
    var surfaceCaseName: String {
        switch self {
        case .cancel: "cancel"
        case .complete: "complete"
        }
    }
}

/// Square's `PromptMode`: whether Square's payment UI (`default`) or the app's own UI (`custom`) prompts the buyer.
///
/// Mirror: `@objc(SQMPPromptMode)` is dropped (no Objective-C runtime on Linux). `default = 0` is inferred in reference
/// §1; `custom = 1` is this mirror's choice. Map by case.
public enum PromptMode: Int, CustomStringConvertible {
    /// The app presents its own prompt.
    case custom = 1
    /// Square's payment UI prompts the buyer. A Swift keyword: write ``PromptMode/default`` as `` .`default` ``.
    case `default` = 0

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
}

extension PromptMode: SurfaceEnum {
    static var surfaceTypeName: String { "PromptMode" }
    static var surfaceCases: [PromptMode] { [.custom, .`default`] }
    var surfaceCaseName: String {
        switch self {
        case .custom: "custom"
        case .`default`: "default"
        }
    }
}

/// Square's `AdditionalPaymentMethodType`: the kind of an ``AdditionalPaymentMethod`` offered during a payment.
///
/// Mirror: `@objc(SQMPAdditionalPaymentMethodType)` is dropped (no Objective-C runtime on Linux). Raw values are this
/// mirror's own (Square does not publish them): never persist or map by them.
public enum AdditionalPaymentMethodType: UInt {
    /// Cash.
    case cash
    /// A manually keyed card.
    case keyed
    /// Tap to Pay on iPhone.
    case tapToPay
}

extension AdditionalPaymentMethodType: SurfaceEnum {
    static var surfaceTypeName: String { "AdditionalPaymentMethodType" }
    static var surfaceCases: [AdditionalPaymentMethodType] { [.cash, .keyed, .tapToPay] }
    var surfaceCaseName: String {
        switch self {
        case .cash: "cash"
        case .keyed: "keyed"
        case .tapToPay: "tapToPay"
        }
    }
}

/// Square's `PaymentStatus`: the status of an ``OnlinePayment``.
///
/// Mirror: `@objc(SQMPPaymentStatus)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's own
/// (Square does not publish them): never persist or map by them.
public enum PaymentStatus: UInt, CustomStringConvertible, Codable {
    /// Approved and not yet completed (delayed capture).
    case approved
    /// Canceled.
    case canceled
    /// Completed.
    case completed
    /// Failed.
    case failed
    /// Started, with no action taken yet.
    case initialized
    /// Pending (added in 2.2.4).
    case pending
    /// The status could not be verified.
    case unknown

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
    /// Decodes a value by case name through the ``SurfaceBackend`` (Square's representation is not documented).
    public init(from decoder: any Decoder) throws { self = try Self.surfaceDecode(from: decoder) }
    /// Encodes the value by case name through the ``SurfaceBackend``.
    public func encode(to encoder: any Encoder) throws { try surfaceEncode(to: encoder) }
}

extension PaymentStatus: SurfaceEnum {
    static var surfaceTypeName: String { "PaymentStatus" }
    static var surfaceCases: [PaymentStatus] {
        [.approved, .canceled, .completed, .failed, .initialized, .pending, .unknown]
    }
    var surfaceCaseName: String {
        switch self {
        case .approved: "approved"
        case .canceled: "canceled"
        case .completed: "completed"
        case .failed: "failed"
        case .initialized: "initialized"
        case .pending: "pending"
        case .unknown: "unknown"
        }
    }
}

/// Square's `OfflineStatus`: the status of an ``OfflinePayment`` (unrelated to Stripe's type of the same name).
///
/// Mirror: `@objc(SQMPOfflineStatus)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's own
/// (Square does not publish them): never persist or map by them.
public enum OfflineStatus: UInt, CustomStringConvertible, Codable {
    /// Square's processing failed, for example a decline.
    case failedToProcess
    /// The upload failed with an unrecoverable error.
    case failedToUpload
    /// Processed by Square and visible in the Seller Dashboard.
    case processed
    /// Held on the device, waiting for the SDK to upload it.
    case queued
    /// The status could not be verified.
    case unknown
    /// Uploaded to Square; the funds are secured.
    case uploaded

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
    /// Decodes a value by case name through the ``SurfaceBackend`` (Square's representation is not documented).
    public init(from decoder: any Decoder) throws { self = try Self.surfaceDecode(from: decoder) }
    /// Encodes the value by case name through the ``SurfaceBackend``.
    public func encode(to encoder: any Encoder) throws { try surfaceEncode(to: encoder) }
}

extension OfflineStatus: SurfaceEnum {
    static var surfaceTypeName: String { "OfflineStatus" }
    static var surfaceCases: [OfflineStatus] {
        [.failedToProcess, .failedToUpload, .processed, .queued, .unknown, .uploaded]
    }
    var surfaceCaseName: String {
        switch self {
        case .failedToProcess: "failedToProcess"
        case .failedToUpload: "failedToUpload"
        case .processed: "processed"
        case .queued: "queued"
        case .unknown: "unknown"
        case .uploaded: "uploaded"
        }
    }
}

/// Square's `SourceType`: what a payment was taken with.
///
/// Mirror: `@objc(SQMPSourceType)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's own
/// (Square does not publish them): never persist or map by them.
public enum SourceType: Int, CustomStringConvertible {
    /// A bank account.
    case bankAccount
    /// A card.
    case card
    /// Cash.
    case cash
    /// An external tender.
    case external
    /// A Square account balance.
    case squareAccount
    /// Unknown.
    case unknown
    /// A digital wallet.
    case wallet

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
}

extension SourceType: SurfaceEnum {
    static var surfaceTypeName: String { "SourceType" }
    static var surfaceCases: [SourceType] { [.bankAccount, .card, .cash, .external, .squareAccount, .unknown, .wallet] }
    var surfaceCaseName: String {
        switch self {
        case .bankAccount: "bankAccount"
        case .card: "card"
        case .cash: "cash"
        case .external: "external"
        case .squareAccount: "squareAccount"
        case .unknown: "unknown"
        case .wallet: "wallet"
        }
    }
}
