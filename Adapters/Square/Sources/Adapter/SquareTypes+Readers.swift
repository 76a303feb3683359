package import Foundation

// MARK: - Readers

extension Square {
    /// Square's `ReaderStatus` (2.3.0+).
    package enum ReaderStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Connecting to the device.
        case connectingToDevice
        /// Establishing the secure connection to Square.
        case connectingToSquare
        /// Unavailable; see ``ReaderStatusInfo/unavailableReasonInfo``.
        case readerUnavailable
        /// Unrecoverable; the reader may need replacing.
        case faulty
        /// Ready to take payments.
        case ready
    }

    /// Square's `ReaderUnavailableReason` (12 cases).
    package enum ReaderUnavailableReason: String, Hashable, Sendable, Codable, CaseIterable {
        /// A blocking firmware update is being applied.
        case blockingFirmwareUpdate
        /// Bluetooth is off on the device.
        case bluetoothDisabled
        /// A Bluetooth error while connecting.
        case bluetoothFailure
        /// An internal SDK or device error.
        case internalError
        /// The maximum number of readers is connected.
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
    }

    /// Square's `ReaderUnavailableReasonInfo`.
    package struct ReaderUnavailableReasonInfo: Hashable, Sendable, Codable {
        /// The reason.
        package var reason: ReaderUnavailableReason
        /// A short, non-localized title.
        package var title: String
        /// A non-localized detail.
        package var detail: String

        /// Creates reason info.
        package init(reason: ReaderUnavailableReason, title: String? = nil, detail: String = "") {
            self.reason = reason
            self.title = title ?? reason.rawValue
            self.detail = detail
        }
    }

    /// Square's `ReaderStatusInfo`.
    package struct ReaderStatusInfo: Hashable, Sendable, Codable {
        /// The status.
        package var status: ReaderStatus
        /// Why it is unavailable; non-nil only when ``status`` is `readerUnavailable`.
        package var unavailableReasonInfo: ReaderUnavailableReasonInfo?

        /// Creates status info; the reason is dropped unless the status is `readerUnavailable`.
        package init(status: ReaderStatus, unavailableReason: ReaderUnavailableReason? = nil) {
            self.status = status
            self.unavailableReasonInfo = status == .readerUnavailable
                ? unavailableReason.map { ReaderUnavailableReasonInfo(reason: $0) } : nil
        }

        /// Ready to take payments.
        package static let ready = ReaderStatusInfo(status: .ready)
    }

    /// Square's `ReaderModel`.
    package enum ReaderModel: String, Hashable, Sendable, Codable, CaseIterable {
        /// Square Reader (contactless and chip).
        case contactlessAndChip
        /// Square Reader for magstripe.
        case magstripe
        /// Square Stand.
        case stand
        /// Tap to Pay on iPhone (`embedded` before 2.1.0).
        case tapToPay
        /// Unknown.
        case unknown
    }

    /// Square's `ReaderChange` (2.5), delivered by `ReaderObserver.readerDidChange(_:change:)`.
    package enum ReaderChange: String, Hashable, Sendable, Codable, CaseIterable {
        /// Charging started.
        case batteryDidBeginCharging
        /// Charging stopped.
        case batteryDidEndCharging
        /// The battery level changed.
        case batteryLevelDidChange
        /// A card was inserted.
        case cardInserted
        /// A card was removed.
        case cardRemoved
        /// A blocking firmware update failed.
        case firmwareUpdateDidFail
        /// The firmware update percentage changed.
        case firmwareUpdatePercentDidChange
        /// The firmware update status changed (e.g. none → pending).
        case firmwareUpdateStatusDidChange
        /// The scheduled firmware update time changed.
        case firmwareUpdateTimeDidChange
        /// ``ReaderInfo/statusInfo`` changed.
        case readerStatusDidChange
    }

    /// Square's `FirmwareUpdateStatus`.
    package enum FirmwareUpdateStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// No update.
        case none
        /// An update is pending.
        case pending
        /// Installing.
        case inProgress
        /// The update failed.
        case failed
    }

    /// Square's `ReaderFirmwareInfo`.
    package struct ReaderFirmwareInfo: Hashable, Sendable, Codable {
        /// The installed version.
        package var version: String
        /// Update progress, 0...100.
        package var updatePercentage: UInt
        /// The update status.
        package var updateStatus: FirmwareUpdateStatus
        /// When a scheduled update will run, if one is scheduled.
        package var updateTime: Date?
        /// Why the last update failed (the SDK's `NSError`, as its description), if it did.
        package var failureReason: String?

        /// Creates firmware info.
        package init(version: String, updatePercentage: UInt = 0, updateStatus: FirmwareUpdateStatus = .none,
                    updateTime: Date? = nil, failureReason: String? = nil) {
            self.version = version
            self.updatePercentage = updatePercentage
            self.updateStatus = updateStatus
            self.updateTime = updateTime
            self.failureReason = failureReason
        }
    }

    /// Square's `ReaderBatteryLevel`.
    package enum ReaderBatteryLevel: String, Hashable, Sendable, Codable, CaseIterable {
        /// Critically low.
        case criticallyLow
        /// Low.
        case low
        /// Middle.
        case mid
        /// High.
        case high
        /// Full.
        case full
    }

    /// Square's `ReaderBatteryStatus`.
    package struct ReaderBatteryStatus: Hashable, Sendable, Codable {
        /// Whether it is charging.
        package var isCharging: Bool
        /// The coarse level.
        package var level: ReaderBatteryLevel
        /// The percentage, 0...100.
        package var percentage: UInt

        /// Creates a battery status; the coarse level is derived from the percentage (Square does not publish
        /// its thresholds; these are the simulator's).
        package init(isCharging: Bool, percentage: UInt) {
            self.isCharging = isCharging
            self.percentage = min(100, percentage)
            switch self.percentage {
            case ..<5: level = .criticallyLow
            case ..<20: level = .low
            case ..<60: level = .mid
            case ..<95: level = .high
            default: level = .full
            }
        }
    }

    /// Square's `ReaderConnectionType`.
    package enum ReaderConnectionType: String, Hashable, Sendable, Codable, CaseIterable {
        /// Audio jack.
        case audio
        /// Bluetooth.
        case bluetooth
        /// Built in (Tap to Pay).
        case embedded
        /// USB.
        case usb
        /// Unknown.
        case unknown
    }

    /// Square's `CardInsertionStatus`.
    package enum CardInsertionStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// A card is inserted.
        case inserted
        /// No card is inserted.
        case notInserted
        /// Unknown (the default for magstripe).
        case unknown
    }

    /// Square's `RetryConnectionResult`.
    package enum RetryConnectionResult: String, Hashable, Sendable, Codable, CaseIterable {
        /// Reconnection started.
        case startingReconnection
        /// Already connecting to Square.
        case readerAlreadyConnectingToSquare
        /// No such reader.
        case readerNotFound
        /// Retrying is not possible.
        case unableToRetry
    }

    /// Square's `ReaderInfo` (a protocol in the SDK; a value here, copied by the bridge).
    package struct ReaderInfo: Hashable, Sendable, Codable, Identifiable {
        /// The reader id.
        package var id: UInt
        /// The name.
        package var name: String
        /// The serial number.
        package var serialNumber: String?
        /// The model.
        package var model: ReaderModel
        /// How it can read cards.
        package var supportedInputMethods: CardInputMethods
        /// The firmware.
        package var firmwareInfo: ReaderFirmwareInfo?
        /// The status.
        package var statusInfo: ReaderStatusInfo
        /// The battery.
        package var batteryStatus: ReaderBatteryStatus?
        /// Whether a card is inserted.
        package var cardInsertionStatus: CardInsertionStatus
        /// The connection type.
        package var connectionType: ReaderConnectionType
        /// Whether ``ReaderManager/retryConnection(_:)`` may help.
        package var isConnectionRetryable: Bool
        /// Whether the reader can blink to be found.
        package var isBlinkable: Bool
        /// Whether it can be forgotten.
        package var isForgettable: Bool
        /// Whether it can be rebooted.
        package var isRebootable: Bool

        /// Creates reader info.
        package init(id: UInt, name: String, serialNumber: String?, model: ReaderModel,
                    supportedInputMethods: CardInputMethods, firmwareInfo: ReaderFirmwareInfo?,
                    statusInfo: ReaderStatusInfo, batteryStatus: ReaderBatteryStatus?,
                    cardInsertionStatus: CardInsertionStatus = .notInserted,
                    connectionType: ReaderConnectionType = .bluetooth, isConnectionRetryable: Bool = true,
                    isBlinkable: Bool = true, isForgettable: Bool = true, isRebootable: Bool = false) {
            self.id = id
            self.name = name
            self.serialNumber = serialNumber
            self.model = model
            self.supportedInputMethods = supportedInputMethods
            self.firmwareInfo = firmwareInfo
            self.statusInfo = statusInfo
            self.batteryStatus = batteryStatus
            self.cardInsertionStatus = cardInsertionStatus
            self.connectionType = connectionType
            self.isConnectionRetryable = isConnectionRetryable
            self.isBlinkable = isBlinkable
            self.isForgettable = isForgettable
            self.isRebootable = isRebootable
        }
    }
}
