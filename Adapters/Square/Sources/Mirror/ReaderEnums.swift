import Foundation

// The enums of readers. Cases are in the order the reference lists them (DocC's alphabetical order).

/// Square's `ReaderChange`: what changed about a reader (`ReaderObserver.readerDidChange(_:change:)`).
///
/// Mirror: `@objc(SQMPReaderChange)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's own
/// (Square does not publish them): never persist or map by them.
public enum ReaderChange: Int {
    /// The battery began charging.
    case batteryDidBeginCharging
    /// The battery stopped charging.
    case batteryDidEndCharging
    /// The battery level changed.
    case batteryLevelDidChange
    /// A card was inserted.
    case cardInserted
    /// A card was removed.
    case cardRemoved
    /// A blocking firmware update failed.
    case firmwareUpdateDidFail
    /// Firmware update progress changed.
    case firmwareUpdatePercentDidChange
    /// The firmware update status changed.
    case firmwareUpdateStatusDidChange
    /// The scheduled firmware update time changed.
    case firmwareUpdateTimeDidChange
    /// `statusInfo` changed.
    case readerStatusDidChange
}

extension ReaderChange: SurfaceEnum {
    static var surfaceTypeName: String { "ReaderChange" }
    static var surfaceCases: [ReaderChange] {
        [.batteryDidBeginCharging, .batteryDidEndCharging, .batteryLevelDidChange, .cardInserted, .cardRemoved,
         .firmwareUpdateDidFail, .firmwareUpdatePercentDidChange, .firmwareUpdateStatusDidChange,
         .firmwareUpdateTimeDidChange, .readerStatusDidChange]
    }
    var surfaceCaseName: String {
        switch self {
        case .batteryDidBeginCharging: "batteryDidBeginCharging"
        case .batteryDidEndCharging: "batteryDidEndCharging"
        case .batteryLevelDidChange: "batteryLevelDidChange"
        case .cardInserted: "cardInserted"
        case .cardRemoved: "cardRemoved"
        case .firmwareUpdateDidFail: "firmwareUpdateDidFail"
        case .firmwareUpdatePercentDidChange: "firmwareUpdatePercentDidChange"
        case .firmwareUpdateStatusDidChange: "firmwareUpdateStatusDidChange"
        case .firmwareUpdateTimeDidChange: "firmwareUpdateTimeDidChange"
        case .readerStatusDidChange: "readerStatusDidChange"
        }
    }
}

/// Square's `ReaderModel`: a reader's model.
///
/// Mirror: `@objc(SQMPReaderModel)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's own
/// (Square does not publish them): never persist or map by them.
public enum ReaderModel: Int, CustomStringConvertible {
    /// Square Reader (contactless and chip).
    case contactlessAndChip
    /// Square Reader for magstripe.
    case magstripe
    /// Square Stand.
    case stand
    /// Tap to Pay on iPhone.
    case tapToPay
    /// Unknown.
    case unknown

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
}

extension ReaderModel: SurfaceEnum {
    static var surfaceTypeName: String { "ReaderModel" }
    static var surfaceCases: [ReaderModel] { [.contactlessAndChip, .magstripe, .stand, .tapToPay, .unknown] }
    var surfaceCaseName: String {
        switch self {
        case .contactlessAndChip: "contactlessAndChip"
        case .magstripe: "magstripe"
        case .stand: "stand"
        case .tapToPay: "tapToPay"
        case .unknown: "unknown"
        }
    }
}

/// Square's `ReaderStatus`: a reader's status (`ReaderInfo.statusInfo.status`); 2.5 has no separate reader *state*
/// type.
///
/// Mirror: `@objc(SQMPReaderStatus)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's own
/// (Square does not publish them): never persist or map by them.
public enum ReaderStatus: UInt, CustomStringConvertible {
    /// Connecting to the device.
    case connectingToDevice
    /// Establishing the secure connection to Square.
    case connectingToSquare
    /// In an unrecoverable state; it may need replacing.
    case faulty
    /// Unavailable; see `unavailableReasonInfo`.
    case readerUnavailable
    /// Ready to take payments.
    case ready

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
}

extension ReaderStatus: SurfaceEnum {
    static var surfaceTypeName: String { "ReaderStatus" }
    static var surfaceCases: [ReaderStatus] {
        [.connectingToDevice, .connectingToSquare, .faulty, .readerUnavailable, .ready]
    }
    var surfaceCaseName: String {
        switch self {
        case .connectingToDevice: "connectingToDevice"
        case .connectingToSquare: "connectingToSquare"
        case .faulty: "faulty"
        case .readerUnavailable: "readerUnavailable"
        case .ready: "ready"
        }
    }
}

/// Square's `ReaderUnavailableReason`: why a reader is `readerUnavailable`.
///
/// Mirror: `@objc(SQMPReaderUnavailableReason)` is dropped (no Objective-C runtime on Linux). Raw values are this
/// mirror's own (Square does not publish them): never persist or map by them.
public enum ReaderUnavailableReason: UInt, CustomStringConvertible {
    /// A blocking firmware update is being applied.
    case blockingFirmwareUpdate
    /// Bluetooth is off on the device.
    case bluetoothDisabled
    /// A Bluetooth error occurred while connecting.
    case bluetoothFailure
    /// An internal SDK or device error.
    case internalError
    /// The maximum number of readers is already connected.
    case maxReadersConnected
    /// The device is offline.
    case notConnectedToInternet
    /// The reader did not connect in time.
    case readerTimeout
    /// The device revoked access.
    case revokedByDevice
    /// The secure connection failed because of the network.
    case secureConnectionNetworkFailure
    /// The secure connection to Square failed.
    case secureConnectionToSquareFailure
    /// Tap to Pay failed.
    case tapToPayError
    /// Tap to Pay is not linked to the merchant.
    case tapToPayIsNotLinked

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
    /// The SDK's localized description of this reason for a reader model, from the ``SurfaceBackend``.
    public func localizedDescription(for model: ReaderModel) -> String {
        SurfaceBackendSlot.current.text(
            .readerUnavailableReasonDescription(reason: surfaceCase, model: model.surfaceCase)
        )
    }
}

extension ReaderUnavailableReason: SurfaceEnum {
    static var surfaceTypeName: String { "ReaderUnavailableReason" }
    static var surfaceCases: [ReaderUnavailableReason] {
        [.blockingFirmwareUpdate, .bluetoothDisabled, .bluetoothFailure, .internalError, .maxReadersConnected,
         .notConnectedToInternet, .readerTimeout, .revokedByDevice, .secureConnectionNetworkFailure,
         .secureConnectionToSquareFailure, .tapToPayError, .tapToPayIsNotLinked]
    }
    var surfaceCaseName: String {
        switch self {
        case .blockingFirmwareUpdate: "blockingFirmwareUpdate"
        case .bluetoothDisabled: "bluetoothDisabled"
        case .bluetoothFailure: "bluetoothFailure"
        case .internalError: "internalError"
        case .maxReadersConnected: "maxReadersConnected"
        case .notConnectedToInternet: "notConnectedToInternet"
        case .readerTimeout: "readerTimeout"
        case .revokedByDevice: "revokedByDevice"
        case .secureConnectionNetworkFailure: "secureConnectionNetworkFailure"
        case .secureConnectionToSquareFailure: "secureConnectionToSquareFailure"
        case .tapToPayError: "tapToPayError"
        case .tapToPayIsNotLinked: "tapToPayIsNotLinked"
        }
    }
}

/// Square's `ReaderBatteryLevel`: a reader's battery level, in bands.
///
/// Mirror: `@objc(SQMPReaderBatteryLevel)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's
/// own (Square does not publish them): never persist or map by them.
public enum ReaderBatteryLevel: Int {
    /// Critically low.
    case criticallyLow
    /// Full.
    case full
    /// High.
    case high
    /// Low.
    case low
    /// Middle.
    case mid
}

extension ReaderBatteryLevel: SurfaceEnum {
    static var surfaceTypeName: String { "ReaderBatteryLevel" }
    static var surfaceCases: [ReaderBatteryLevel] { [.criticallyLow, .full, .high, .low, .mid] }
    var surfaceCaseName: String {
        switch self {
        case .criticallyLow: "criticallyLow"
        case .full: "full"
        case .high: "high"
        case .low: "low"
        case .mid: "mid"
        }
    }
}

/// Square's `FirmwareUpdateStatus`: the state of a reader's firmware update.
///
/// Mirror: `@objc(SQMPFirmwareUpdateStatus)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's
/// own (Square does not publish them): never persist or map by them.
public enum FirmwareUpdateStatus: UInt {
    /// The update failed.
    case failed
    /// An update is being applied.
    case inProgress
    /// No update.
    case none
    /// An update is pending.
    case pending
}

extension FirmwareUpdateStatus: SurfaceEnum {
    static var surfaceTypeName: String { "FirmwareUpdateStatus" }
    static var surfaceCases: [FirmwareUpdateStatus] { [.failed, .inProgress, .none, .pending] }
    var surfaceCaseName: String {
        switch self {
        case .failed: "failed"
        case .inProgress: "inProgress"
        case .none: "none"
        case .pending: "pending"
        }
    }
}

/// Square's `ReaderConnectionType`: how a reader is connected to the device.
///
/// Mirror: `@objc(SQMPReaderConnectionType)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's
/// own (Square does not publish them): never persist or map by them.
public enum ReaderConnectionType: Int, CustomStringConvertible {
    /// The audio jack.
    case audio
    /// Bluetooth.
    case bluetooth
    /// Built into the device (Tap to Pay).
    case embedded
    /// Unknown.
    case unknown
    /// USB.
    case usb

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
}

extension ReaderConnectionType: SurfaceEnum {
    static var surfaceTypeName: String { "ReaderConnectionType" }
    static var surfaceCases: [ReaderConnectionType] { [.audio, .bluetooth, .embedded, .unknown, .usb] }
    var surfaceCaseName: String {
        switch self {
        case .audio: "audio"
        case .bluetooth: "bluetooth"
        case .embedded: "embedded"
        case .unknown: "unknown"
        case .usb: "usb"
        }
    }
}

/// Square's `CardInsertionStatus`: whether a card is in a reader.
///
/// Mirror: `@objc(SQMPCardInsertionStatus)` is dropped (no Objective-C runtime on Linux). Raw values are this mirror's
/// own (Square does not publish them): never persist or map by them.
public enum CardInsertionStatus: UInt {
    /// A card is inserted.
    case inserted
    /// No card is inserted.
    case notInserted
    /// Unknown (always, for magstripe readers).
    case unknown
}

extension CardInsertionStatus: SurfaceEnum {
    static var surfaceTypeName: String { "CardInsertionStatus" }
    static var surfaceCases: [CardInsertionStatus] { [.inserted, .notInserted, .unknown] }
    var surfaceCaseName: String {
        switch self {
        case .inserted: "inserted"
        case .notInserted: "notInserted"
        case .unknown: "unknown"
        }
    }
}

/// Square's `RetryConnectionResult`: what `ReaderManager.retryConnection(_:)` did.
///
/// Mirror: `@objc(SQMPRetryConnectionResult)` is dropped (no Objective-C runtime on Linux). Raw values are this
/// mirror's own (Square does not publish them): never persist or map by them.
public enum RetryConnectionResult: Int {
    /// The reader is already connecting to Square.
    case readerAlreadyConnectingToSquare
    /// No such reader.
    case readerNotFound
    /// A reconnection started; changes arrive through ``ReaderObserver``.
    case startingReconnection
    /// The connection cannot be retried.
    case unableToRetry
}

extension RetryConnectionResult: SurfaceEnum {
    static var surfaceTypeName: String { "RetryConnectionResult" }
    static var surfaceCases: [RetryConnectionResult] {
        [.readerAlreadyConnectingToSquare, .readerNotFound, .startingReconnection, .unableToRetry]
    }
    var surfaceCaseName: String {
        switch self {
        case .readerAlreadyConnectingToSquare: "readerAlreadyConnectingToSquare"
        case .readerNotFound: "readerNotFound"
        case .startingReconnection: "startingReconnection"
        case .unableToRetry: "unableToRetry"
        }
    }
}
