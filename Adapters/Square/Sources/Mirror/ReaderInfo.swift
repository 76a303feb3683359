public import Foundation

// The reader objects the SDK hands out (`ReaderManager.readers`, `ReaderObserver`). Each protocol's `@objc(SQMP…)`
// attribute is dropped; all refine `NSObjectProtocol`, as Square's do. A backend builds them with the `package`
// classes in SurfaceObjectsReaders.swift.

/// Square's `ReaderInfo`: a reader and its state.
public protocol ReaderInfo: NSObjectProtocol {
    /// The battery, if the reader has one.
    var batteryStatus: (any ReaderBatteryStatus)? { get }
    /// Whether a card is inserted.
    var cardInsertionStatus: CardInsertionStatus { get }
    /// How the reader is connected.
    var connectionType: ReaderConnectionType { get }
    /// Firmware and its update, if known.
    var firmwareInfo: (any ReaderFirmwareInfo)? { get }
    /// The reader's identifier.
    var id: UInt { get }
    /// Whether ``ReaderManager/blink(_:)`` works on it.
    var isBlinkable: Bool { get }
    /// Whether ``ReaderManager/retryConnection(_:)`` may work on it.
    var isConnectionRetryable: Bool { get }
    /// Whether ``ReaderManager/forget(_:)`` works on it.
    var isForgettable: Bool { get }
    /// Whether ``ReaderManager/rebootReader(_:)`` works on it.
    var isRebootable: Bool { get }
    /// The model.
    var model: ReaderModel { get }
    /// A display name.
    var name: String { get }
    /// The serial number, if known.
    var serialNumber: String? { get }
    /// The reader's status and, when unavailable, why.
    var statusInfo: any ReaderStatusInfo { get }
    /// How this reader can read cards.
    var supportedInputMethods: CardInputMethods { get }
}

/// Square's `ReaderStatusInfo`: a reader's status and, when it is unavailable, the reason. (2.5 has no separate
/// reader *state* type.)
public protocol ReaderStatusInfo: NSObjectProtocol {
    /// All of the fields as a dictionary.
    var dictionaryRepresentation: [String: Any] { get }
    /// The status.
    var status: ReaderStatus { get }
    /// Why the reader is unavailable; set only when ``status`` is `readerUnavailable`.
    var unavailableReasonInfo: (any ReaderUnavailableReasonInfo)? { get }
}

extension ReaderStatusInfo {
    /// The SDK's localized description of this status for a reader model, from the ``SurfaceBackend``. (A protocol
    /// extension in the SDK, not a requirement.)
    public func localizedDescription(for model: ReaderModel) -> String {
        SurfaceBackendSlot.current.text(.readerStatusDescription(
            status: status.surfaceCase,
            reason: unavailableReasonInfo?.reason.surfaceCase,
            model: model.surfaceCase
        ))
    }

    /// The SDK's localized title of this status for a reader model, from the ``SurfaceBackend``. (A protocol
    /// extension in the SDK, not a requirement.)
    public func localizedTitle(for model: ReaderModel) -> String {
        SurfaceBackendSlot.current.text(.readerStatusTitle(
            status: status.surfaceCase,
            reason: unavailableReasonInfo?.reason.surfaceCase,
            model: model.surfaceCase
        ))
    }
}

/// Square's `ReaderUnavailableReasonInfo`: why a reader is unavailable.
public protocol ReaderUnavailableReasonInfo: NSObjectProtocol {
    /// A non-localized detail text.
    var detail: String { get }
    /// All of the fields as a dictionary.
    var dictionaryRepresentation: [String: Any] { get }
    /// The reason.
    var reason: ReaderUnavailableReason { get }
    /// A non-localized title.
    var title: String { get }
}

/// Square's `ReaderBatteryStatus`: a reader's battery.
public protocol ReaderBatteryStatus: NSObjectProtocol {
    /// Whether it is charging.
    var isCharging: Bool { get }
    /// The level, in bands.
    var level: ReaderBatteryLevel { get }
    /// The level in percent.
    var percentage: UInt { get }
}

/// Square's `ReaderFirmwareInfo`: a reader's firmware and its update.
public protocol ReaderFirmwareInfo: NSObjectProtocol {
    /// Why the last update failed, if it did.
    var failureReason: NSError? { get }
    /// Update progress, 0 to 100.
    var updatePercentage: UInt { get }
    /// The update's status.
    var updateStatus: FirmwareUpdateStatus { get }
    /// When the update is scheduled, if it is.
    var updateTime: Date? { get }
    /// The firmware version.
    var version: String { get }
}
