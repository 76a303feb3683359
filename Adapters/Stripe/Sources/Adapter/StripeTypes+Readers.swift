package import Foundation

// MARK: - Reader enums

extension Stripe {
    /// `SCPConnectionStatus`.
    package enum ConnectionStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// No reader connected.
        case notConnected
        /// Discovering readers (4.0).
        case discovering
        /// Connecting (also while a required update installs).
        case connecting
        /// Connected.
        case connected
        /// Reconnecting automatically after an unexpected disconnect (5.0).
        case reconnecting
    }

    /// `SCPReaderDisplayMessage`.
    package enum ReaderDisplayMessage: String, Hashable, Sendable, Codable, CaseIterable {
        /// Retry the card.
        case retryCard
        /// Insert the card.
        case insertCard
        /// Insert or swipe the card.
        case insertOrSwipeCard
        /// Swipe the card.
        case swipeCard
        /// Remove the card.
        case removeCard
        /// More than one contactless card.
        case multipleContactlessCardsDetected
        /// Try another read method.
        case tryAnotherReadMethod
        /// Try another card (unsupported cards report this since 3.6).
        case tryAnotherCard
        /// The card was removed too early.
        case cardRemovedTooEarly
    }

    /// `SCPReaderInputOptions` (an `NS_OPTIONS` set). The bits are this type's own; a bridge converts option by
    /// option.
    package struct ReaderInputOptions: OptionSet, Hashable, Sendable, Codable {
        /// The bits.
        package let rawValue: Int
        /// Creates options from bits.
        package init(rawValue: Int) { self.rawValue = rawValue }
        /// `swipeCard`.
        package static let swipeCard = ReaderInputOptions(rawValue: 1 << 0)
        /// `insertCard`.
        package static let insertCard = ReaderInputOptions(rawValue: 1 << 1)
        /// `tapCard`.
        package static let tapCard = ReaderInputOptions(rawValue: 1 << 2)
    }

    /// `SCPReaderEvent`.
    package enum ReaderEvent: String, Hashable, Sendable, Codable, CaseIterable {
        /// A card was inserted.
        case cardInserted
        /// The card was removed.
        case cardRemoved
    }

    /// `SCPDisconnectReason`.
    package enum DisconnectReason: String, Hashable, Sendable, Codable, CaseIterable {
        /// Unexpected.
        case unknown
        /// The app asked (`disconnectReader`).
        case disconnectRequested
        /// The app asked for a reboot (`rebootReader`).
        case rebootRequested
        /// The reader rebooted after 24 h uptime.
        case securityReboot
        /// The battery is critically low.
        case criticallyLowBattery
        /// The reader was powered off.
        case poweredOff
        /// Bluetooth was disabled on the device.
        case bluetoothDisabled
        /// Powered down after 10 h idle, not charging.
        case idlePowerDown
        /// The USB cable was disconnected.
        case usbDisconnected
        /// The Bluetooth signal was lost.
        case bluetoothSignalLost
        /// The reader removed this device's pairing.
        case peerRemovedPairingInformation
    }

    /// `SCPDeviceType` (5.5), with the Swift case names of `sdk-surface/stripe-terminal-ios.json`.
    package enum DeviceType: String, Hashable, Sendable, Codable, CaseIterable {
        /// BBPOS Chipper 2X BT.
        case chipper2X
        /// BBPOS WisePad 3.
        case wisePad3
        /// Stripe Reader M2.
        case stripeM2
        /// Stripe U200.
        case stripeU200
        /// BBPOS WisePOS E and its dev kit.
        case wisePosE, wisePosEDevKit
        /// `:nodoc:` in the header.
        case etna, chipper1X, wiseCube
        /// Stripe S700 / S710 and their dev kits.
        case stripeS700, stripeS700DevKit, stripeS710, stripeS710DevKit
        /// Verifone readers.
        case verifoneV660p, verifoneV660pDevKit, verifoneM425, verifoneM450, verifoneP630, verifoneUX700,
             verifoneUX700DevKit, verifoneVM100, verifoneVP100, verifoneVL110, verifoneVM110, verifoneVP110
        /// Tap to Pay on iPhone.
        case tapToPay
        /// Stripe T600 / T610 and their dev kits.
        case stripeT600, stripeT600DevKit, stripeT610, stripeT610DevKit

        /// Bluetooth mobile readers (found by a Bluetooth scan; the POS device stores and forwards offline payments).
        package var isMobileReader: Bool {
            switch self {
            case .chipper2X, .wisePad3, .stripeM2, .chipper1X, .wiseCube, .etna: true
            default: false
            }
        }
    }

    /// `SCPDiscoveryMethod` (`usb` exists only under `SCP_USB_ENABLED` and is left out).
    package enum DiscoveryMethod: String, Hashable, Sendable, Codable, CaseIterable {
        /// All nearby Bluetooth readers, optionally for a limited time.
        case bluetoothScan
        /// The closest Bluetooth reader (Chipper 2X BT only); reported twice, serial number first.
        case bluetoothProximity
        /// Internet (smart) readers.
        case internet
        /// Tap to Pay on iPhone.
        case tapToPay
    }

    /// `SCPBatteryStatus`.
    package enum BatteryStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Unknown.
        case unknown
        /// At most 5 %.
        case critical
        /// Low.
        case low
        /// Above 20 %.
        case nominal
    }

    /// `UpdateTimeEstimate` (ObjC `SCPUpdateDurationEstimate`; the Swift cases keep the `estimate` prefix).
    package enum UpdateTimeEstimate: String, Hashable, Sendable, Codable, CaseIterable {
        /// Less than a minute.
        case estimateLessThan1Minute
        /// One to two minutes.
        case estimate1To2Minutes
        /// Two to five minutes.
        case estimate2To5Minutes
        /// Five to fifteen minutes.
        case estimate5To15Minutes
    }
}

// MARK: - Reader objects and configurations

extension Stripe {
    /// `SCPReaderSoftwareUpdate`.
    package struct ReaderSoftwareUpdate: Hashable, Sendable, Codable {
        /// `deviceSoftwareVersion`.
        package var deviceSoftwareVersion: String
        /// `durationEstimate`.
        package var durationEstimate: UpdateTimeEstimate
        /// `requiredAt`: in the past means it installs on connect.
        package var requiredAt: Date
        /// `isTestUpdate` (5.5).
        package var isTestUpdate: Bool

        /// Creates an update.
        package init(deviceSoftwareVersion: String, durationEstimate: UpdateTimeEstimate, requiredAt: Date,
                    isTestUpdate: Bool = true) {
            self.deviceSoftwareVersion = deviceSoftwareVersion
            self.durationEstimate = durationEstimate
            self.requiredAt = requiredAt
            self.isTestUpdate = isTestUpdate
        }
    }

    /// `SCPReader`. Bluetooth proximity first reports one with only ``serialNumber``; the other fields follow. The
    /// serial number is the handle: a bridge passes back the `SCPReader` it last discovered with that serial.
    package struct Reader: Hashable, Sendable, Codable {
        /// `serialNumber`.
        package var serialNumber: String
        /// `deviceType`.
        package var deviceType: DeviceType
        /// `deviceSoftwareVersion`, when known.
        package var deviceSoftwareVersion: String?
        /// `batteryLevel` (a boxed `Float`, 0...1), when known.
        package var batteryLevel: Float?
        /// `batteryStatus`.
        package var batteryStatus: BatteryStatus
        /// `isCharging`, when known.
        package var isCharging: Bool?
        /// `locationId`, once connected.
        package var locationId: String?
        /// `availableUpdate`.
        package var availableUpdate: ReaderSoftwareUpdate?
        /// `simulated`.
        package var simulated: Bool

        /// Creates a reader.
        package init(serialNumber: String, deviceType: DeviceType, deviceSoftwareVersion: String? = nil,
                    batteryLevel: Float? = nil, batteryStatus: BatteryStatus = .unknown, isCharging: Bool? = nil,
                    locationId: String? = nil, availableUpdate: ReaderSoftwareUpdate? = nil, simulated: Bool = false) {
            self.serialNumber = serialNumber
            self.deviceType = deviceType
            self.deviceSoftwareVersion = deviceSoftwareVersion
            self.batteryLevel = batteryLevel
            self.batteryStatus = batteryStatus
            self.isCharging = isCharging
            self.locationId = locationId
            self.availableUpdate = availableUpdate
            self.simulated = simulated
        }
    }

    /// `SCPDiscoveryConfiguration`: one value for the SDK's per-method classes (`BluetoothScanDiscoveryConfiguration`
    /// …), which a bridge builds with their builders. Like the SDK's builders, it looks for real readers unless
    /// ``simulated`` is set.
    package struct DiscoveryConfiguration: Hashable, Sendable {
        /// The discovery method (the class a bridge builds).
        package var method: DiscoveryMethod
        /// `timeout` in seconds (Bluetooth scan); 0, the SDK's default, scans until connected or canceled.
        package var timeout: UInt
        /// `setSimulated(_:)`; default false.
        package var simulated: Bool

        /// Creates a configuration.
        package init(method: DiscoveryMethod = .bluetoothScan, timeout: UInt = 0, simulated: Bool = false) {
            self.method = method
            self.timeout = timeout
            self.simulated = simulated
        }
    }

    /// `SCPBluetoothConnectionConfiguration` (built with `BluetoothConnectionConfigurationBuilder(delegate:locationId:)`).
    /// The SDK holds the delegate weakly: a bridge keeps it alive for the connection's lifetime.
    package struct BluetoothConnectionConfiguration: Sendable {
        /// `locationId`: required; the reader registers to this location.
        package var locationId: String
        /// `autoReconnectOnUnexpectedDisconnect`; defaults to true (4.0+).
        package var autoReconnectOnUnexpectedDisconnect: Bool
        /// The reader's delegate (required by the SDK's builder).
        package var delegate: (any MobileReaderDelegate)?

        /// Creates a configuration.
        package init(locationId: String, autoReconnectOnUnexpectedDisconnect: Bool = true,
                    delegate: (any MobileReaderDelegate)?) {
            self.locationId = locationId
            self.autoReconnectOnUnexpectedDisconnect = autoReconnectOnUnexpectedDisconnect
            self.delegate = delegate
        }
    }
}

// MARK: - Reader delegates

extension Stripe {
    /// `SCPDiscoveryDelegate`, passed to each discovery.
    package protocol DiscoveryDelegate: Sendable {
        /// `terminal(_:didUpdateDiscoveredReaders:)`: the latest full list of readers found.
        func didUpdateDiscoveredReaders(_ readers: [Reader])
    }

    /// `SCPMobileReaderDelegate` with the base `SCPReaderDelegate` (disconnect and reconnection callbacks, optional
    /// in the SDK, required here: a bridge forwards every one). Carried by the connection configuration.
    package protocol MobileReaderDelegate: Sendable {
        /// `reader(_:didReportAvailableUpdate:)`: an optional update, with its `requiredAt`.
        func didReportAvailableUpdate(_ update: ReaderSoftwareUpdate)
        /// `reader(_:didStartInstallingUpdate:cancelable:)`. Canceling a required update fails the connection.
        func didStartInstallingUpdate(_ update: ReaderSoftwareUpdate, cancelable: (any Cancelable)?)
        /// `reader(_:didReportReaderSoftwareUpdateProgress:)`, a `Float` in 0...1.
        func didReportReaderSoftwareUpdateProgress(_ progress: Float)
        /// `reader(_:didFinishInstallingUpdate:error:)`; `update` is nil when there was nothing to install.
        func didFinishInstallingUpdate(_ update: ReaderSoftwareUpdate?, error: ErrorCode?)
        /// `reader(_:didRequestReaderInput:)`.
        func didRequestReaderInput(_ inputOptions: ReaderInputOptions)
        /// `reader(_:didRequestReaderDisplayMessage:)`.
        func didRequestReaderDisplayMessage(_ displayMessage: ReaderDisplayMessage)
        /// `reader(_:didReportReaderEvent:info:)` (the `info` dictionary is not kept).
        func didReportReaderEvent(_ event: ReaderEvent)
        /// `reader(_:didReportBatteryLevel:status:isCharging:)`, the level a `Float` in 0...1.
        func didReportBatteryLevel(_ batteryLevel: Float, status: BatteryStatus, isCharging: Bool)
        /// `reader(_:didDisconnect:)`.
        func didDisconnect(_ reason: DisconnectReason)
        /// `reader(_:didStartReconnect:disconnectReason:)`; the cancelable stops the reconnection.
        func didStartReconnect(_ cancelable: any Cancelable, disconnectReason: DisconnectReason)
        /// `readerDidSucceedReconnect(_:)`.
        func didSucceedReconnect()
        /// `readerDidFailReconnect(_:)`; `didDisconnect` follows.
        func didFailReconnect()
        /// `readerDidReportLowBatteryWarning(_:)` (optional in the SDK; a default does nothing).
        func didReportLowBatteryWarning()
        /// `TapToPayReaderDelegate.tapToPayReaderDidAcceptTermsOfService(_:)` (Tap to Pay connections only; optional
        /// in the SDK; a default does nothing): Apple's terms were accepted during the connection.
        func didAcceptTermsOfService()
    }
}

extension Stripe.MobileReaderDelegate {
    /// The SDK's callback is optional: by default a low-battery warning is ignored.
    package func didReportLowBatteryWarning() {}
    /// The SDK's callback is optional: by default the terms' acceptance is not reported further.
    package func didAcceptTermsOfService() {}
}
