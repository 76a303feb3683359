package import Foundation

// `package` classes a backend uses to hand out readers (see SurfaceBackend.swift). ``SurfaceReaderInfo`` is mutable:
// the backend updates a reader in place and then tells `ReaderObserver`s what changed.

/// A ``ReaderInfo`` whose state the backend updates.
package final class SurfaceReaderInfo: NSObject, ReaderInfo {
    package let id: UInt
    package var name: String
    package var serialNumber: String?
    package var model: ReaderModel
    package var connectionType: ReaderConnectionType
    package var supportedInputMethods: CardInputMethods
    package var statusInfo: any ReaderStatusInfo
    package var batteryStatus: (any ReaderBatteryStatus)?
    package var firmwareInfo: (any ReaderFirmwareInfo)?
    package var cardInsertionStatus: CardInsertionStatus
    package var isBlinkable: Bool
    package var isConnectionRetryable: Bool
    package var isForgettable: Bool
    package var isRebootable: Bool

    /// A reader; the capability flags default to what a Bluetooth reader allows.
    package init(
        id: UInt, name: String, serialNumber: String? = nil, model: ReaderModel, connectionType: ReaderConnectionType,
        supportedInputMethods: CardInputMethods, statusInfo: any ReaderStatusInfo,
        batteryStatus: (any ReaderBatteryStatus)? = nil, firmwareInfo: (any ReaderFirmwareInfo)? = nil,
        cardInsertionStatus: CardInsertionStatus = .notInserted, isBlinkable: Bool = true,
        isConnectionRetryable: Bool = false, isForgettable: Bool = true, isRebootable: Bool = false
    ) {
        self.id = id
        self.name = name
        self.serialNumber = serialNumber
        self.model = model
        self.connectionType = connectionType
        self.supportedInputMethods = supportedInputMethods
        self.statusInfo = statusInfo
        self.batteryStatus = batteryStatus
        self.firmwareInfo = firmwareInfo
        self.cardInsertionStatus = cardInsertionStatus
        self.isBlinkable = isBlinkable
        self.isConnectionRetryable = isConnectionRetryable
        self.isForgettable = isForgettable
        self.isRebootable = isRebootable
        super.init()
    }
}

/// A ``ReaderStatusInfo``.
package final class SurfaceReaderStatusInfo: NSObject, ReaderStatusInfo {
    package let status: ReaderStatus
    package let unavailableReasonInfo: (any ReaderUnavailableReasonInfo)?
    package let dictionaryRepresentation: [String: Any]

    /// A status; give a reason exactly when `status` is `readerUnavailable`, as Square does.
    package init(
        status: ReaderStatus, unavailableReasonInfo: (any ReaderUnavailableReasonInfo)? = nil,
        dictionaryRepresentation: [String: Any] = [:]
    ) {
        self.status = status
        self.unavailableReasonInfo = unavailableReasonInfo
        self.dictionaryRepresentation = dictionaryRepresentation
        super.init()
    }
}

/// A ``ReaderUnavailableReasonInfo``.
package final class SurfaceReaderUnavailableReasonInfo: NSObject, ReaderUnavailableReasonInfo {
    package let reason: ReaderUnavailableReason
    package let title: String
    package let detail: String
    package let dictionaryRepresentation: [String: Any]

    /// A reason with its (non-localized) title and detail.
    package init(
        reason: ReaderUnavailableReason, title: String, detail: String, dictionaryRepresentation: [String: Any] = [:]
    ) {
        self.reason = reason
        self.title = title
        self.detail = detail
        self.dictionaryRepresentation = dictionaryRepresentation
        super.init()
    }
}

/// A ``ReaderBatteryStatus``.
package final class SurfaceReaderBatteryStatus: NSObject, ReaderBatteryStatus {
    package let isCharging: Bool
    package let level: ReaderBatteryLevel
    package let percentage: UInt

    /// A battery reading.
    package init(isCharging: Bool, level: ReaderBatteryLevel, percentage: UInt) {
        self.isCharging = isCharging
        self.level = level
        self.percentage = percentage
        super.init()
    }
}

/// A ``ReaderFirmwareInfo``.
package final class SurfaceReaderFirmwareInfo: NSObject, ReaderFirmwareInfo {
    package let version: String
    package let updateStatus: FirmwareUpdateStatus
    package let updatePercentage: UInt
    package let updateTime: Date?
    package let failureReason: NSError?

    /// Firmware and its update.
    package init(
        version: String, updateStatus: FirmwareUpdateStatus = .none, updatePercentage: UInt = 0,
        updateTime: Date? = nil, failureReason: NSError? = nil
    ) {
        self.version = version
        self.updateStatus = updateStatus
        self.updatePercentage = updatePercentage
        self.updateTime = updateTime
        self.failureReason = failureReason
        super.init()
    }
}
