// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
import Foundation

// Clang imports each `NS_ENUM` as a Swift enum with its raw type and `@unchecked Sendable`, and each `NS_OPTIONS` as an
// `OptionSet` struct; these declarations say the same. Case names and raw values are the reference's.
// Difference to know: the SDK's enums are open (non-frozen), so on iOS a `switch` needs `@unknown default`; this module
// is not built with library evolution, so on Linux that clause is accepted silently but not required.

/// `SCPConnectionStatus` (`NS_ENUM`), imported with raw type `UInt`.
public enum ConnectionStatus: UInt, @unchecked Sendable {
    /// `SCPConnectionStatusNotConnected` = 0.
    case notConnected = 0
    /// `SCPConnectionStatusDiscovering` = 1.
    case discovering = 1
    /// `SCPConnectionStatusConnecting` = 2.
    case connecting = 2
    /// `SCPConnectionStatusConnected` = 3.
    case connected = 3
    /// `SCPConnectionStatusReconnecting` = 4.
    case reconnecting = 4
}

/// `SCPReaderDisplayMessage` (`NS_ENUM`), imported with raw type `UInt`.
public enum ReaderDisplayMessage: UInt, @unchecked Sendable {
    /// `SCPReaderDisplayMessageRetryCard` = 0.
    case retryCard = 0
    /// `SCPReaderDisplayMessageInsertCard` = 1.
    case insertCard = 1
    /// `SCPReaderDisplayMessageInsertOrSwipeCard` = 2.
    case insertOrSwipeCard = 2
    /// `SCPReaderDisplayMessageSwipeCard` = 3.
    case swipeCard = 3
    /// `SCPReaderDisplayMessageRemoveCard` = 4.
    case removeCard = 4
    /// `SCPReaderDisplayMessageMultipleContactlessCardsDetected` = 5.
    case multipleContactlessCardsDetected = 5
    /// `SCPReaderDisplayMessageTryAnotherReadMethod` = 6.
    case tryAnotherReadMethod = 6
    /// `SCPReaderDisplayMessageTryAnotherCard` = 7.
    case tryAnotherCard = 7
    /// `SCPReaderDisplayMessageCardRemovedTooEarly` = 8.
    case cardRemovedTooEarly = 8
}

/// `SCPReaderInputOptions` (`NS_OPTIONS`), imported as an option set with raw type `UInt`. NS_OPTIONS. The header
/// also declares SCPReaderInputOptionNone = 0; Swift does not offer zero-valued options as members (use []).
public struct ReaderInputOptions: OptionSet, @unchecked Sendable {
    /// The option bits.
    public let rawValue: UInt

    /// Wraps option bits.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// `SCPReaderInputOptionSwipeCard` = 1.
    public static let swipeCard = ReaderInputOptions(rawValue: 1)

    /// `SCPReaderInputOptionInsertCard` = 2.
    public static let insertCard = ReaderInputOptions(rawValue: 2)

    /// `SCPReaderInputOptionTapCard` = 4.
    public static let tapCard = ReaderInputOptions(rawValue: 4)
}

/// `SCPDisconnectReason` (`NS_ENUM`), imported with raw type `UInt`.
public enum DisconnectReason: UInt, @unchecked Sendable {
    /// `SCPDisconnectReasonUnknown` = 0.
    case unknown = 0
    /// `SCPDisconnectReasonDisconnectRequested` = 1.
    case disconnectRequested = 1
    /// `SCPDisconnectReasonRebootRequested` = 2.
    case rebootRequested = 2
    /// `SCPDisconnectReasonSecurityReboot` = 3.
    case securityReboot = 3
    /// `SCPDisconnectReasonCriticallyLowBattery` = 4.
    case criticallyLowBattery = 4
    /// `SCPDisconnectReasonPoweredOff` = 5.
    case poweredOff = 5
    /// `SCPDisconnectReasonBluetoothDisabled` = 6.
    case bluetoothDisabled = 6
    /// `SCPDisconnectReasonIdlePowerDown` = 7.
    case idlePowerDown = 7
    /// `SCPDisconnectReasonUsbDisconnected` = 8.
    case usbDisconnected = 8
    /// `SCPDisconnectReasonBluetoothSignalLost` = 9.
    case bluetoothSignalLost = 9
    /// `SCPDisconnectReasonPeerRemovedPairingInformation` = 10.
    case peerRemovedPairingInformation = 10
}

/// `SCPDeviceType` (`NS_ENUM`), imported with raw type `UInt`. etna, chipper1X and wiseCube are marked :nodoc: in the
/// header (hidden from the published docs) but are Swift-visible; the example app switches on them.
public enum DeviceType: UInt, @unchecked Sendable {
    /// `SCPDeviceTypeChipper2X` = 0.
    case chipper2X = 0
    /// `SCPDeviceTypeWisePad3` = 1.
    case wisePad3 = 1
    /// `SCPDeviceTypeStripeM2` = 2.
    case stripeM2 = 2
    /// `SCPDeviceTypeStripeU200` = 3.
    case stripeU200 = 3
    /// `SCPDeviceTypeWisePosE` = 4.
    case wisePosE = 4
    /// `SCPDeviceTypeWisePosEDevKit` = 5.
    case wisePosEDevKit = 5
    /// `SCPDeviceTypeEtna` = 6. Marked :nodoc: in the header; name by Swift prefix stripping, used as such by the
    /// example app.
    case etna = 6
    /// `SCPDeviceTypeChipper1X` = 7. Marked :nodoc: in the header; name by Swift prefix stripping, used as such by
    /// the example app.
    case chipper1X = 7
    /// `SCPDeviceTypeWiseCube` = 8. Marked :nodoc: in the header; name by Swift prefix stripping, used as such by the
    /// example app.
    case wiseCube = 8
    /// `SCPDeviceTypeStripeS700` = 9.
    case stripeS700 = 9
    /// `SCPDeviceTypeStripeS700DevKit` = 10.
    case stripeS700DevKit = 10
    /// `SCPDeviceTypeStripeS710` = 11.
    case stripeS710 = 11
    /// `SCPDeviceTypeStripeS710DevKit` = 12.
    case stripeS710DevKit = 12
    /// `SCPDeviceTypeVerifoneV660p` = 13.
    case verifoneV660p = 13
    /// `SCPDeviceTypeVerifoneV660pDevKit` = 14.
    case verifoneV660pDevKit = 14
    /// `SCPDeviceTypeVerifoneM425` = 15.
    case verifoneM425 = 15
    /// `SCPDeviceTypeVerifoneM450` = 16.
    case verifoneM450 = 16
    /// `SCPDeviceTypeVerifoneP630` = 17.
    case verifoneP630 = 17
    /// `SCPDeviceTypeVerifoneUX700` = 18.
    case verifoneUX700 = 18
    /// `SCPDeviceTypeVerifoneUX700DevKit` = 19.
    case verifoneUX700DevKit = 19
    /// `SCPDeviceTypeVerifoneVM100` = 20.
    case verifoneVM100 = 20
    /// `SCPDeviceTypeVerifoneVP100` = 21.
    case verifoneVP100 = 21
    /// `SCPDeviceTypeVerifoneVL110` = 22.
    case verifoneVL110 = 22
    /// `SCPDeviceTypeVerifoneVM110` = 23.
    case verifoneVM110 = 23
    /// `SCPDeviceTypeVerifoneVP110` = 24.
    case verifoneVP110 = 24
    /// `SCPDeviceTypeTapToPay` = 25.
    case tapToPay = 25
    /// `SCPDeviceTypeStripeT600` = 26.
    case stripeT600 = 26
    /// `SCPDeviceTypeStripeT600DevKit` = 27.
    case stripeT600DevKit = 27
    /// `SCPDeviceTypeStripeT610` = 28.
    case stripeT610 = 28
    /// `SCPDeviceTypeStripeT610DevKit` = 29.
    case stripeT610DevKit = 29
}

/// `SCPUpdateDurationEstimate` (`NS_ENUM`), imported with raw type `UInt`. ObjC type SCPUpdateDurationEstimate;
/// NS_SWIFT_NAME is UpdateTimeEstimate; case names keep the "estimate" prefix.
public enum UpdateTimeEstimate: UInt, @unchecked Sendable {
    /// `SCPUpdateDurationEstimateLessThan1Minute` = 0.
    case estimateLessThan1Minute = 0
    /// `SCPUpdateDurationEstimate1To2Minutes` = 1.
    case estimate1To2Minutes = 1
    /// `SCPUpdateDurationEstimate2To5Minutes` = 2.
    case estimate2To5Minutes = 2
    /// `SCPUpdateDurationEstimate5To15Minutes` = 3.
    case estimate5To15Minutes = 3
}

/// `SCPUpdateComponent` (`NS_OPTIONS`), imported as an option set with raw type `UInt`. NS_OPTIONS.
public struct UpdateComponent: OptionSet, @unchecked Sendable {
    /// The option bits.
    public let rawValue: UInt

    /// Wraps option bits.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// `SCPUpdateComponentIncremental` = 1.
    public static let incremental = UpdateComponent(rawValue: 1)

    /// `SCPUpdateComponentFirmware` = 2.
    public static let firmware = UpdateComponent(rawValue: 2)

    /// `SCPUpdateComponentConfig` = 4.
    public static let config = UpdateComponent(rawValue: 4)

    /// `SCPUpdateComponentKeys` = 8.
    public static let keys = UpdateComponent(rawValue: 8)
}

/// `SCPDiscoveryMethod` (`NS_ENUM`), imported with raw type `UInt`. usb exists only when the app compiles with
/// SCP_USB_ENABLED defined (preprocessor #ifdef in the header; the example app defines SCP_USB_ENABLED=1).
public enum DiscoveryMethod: UInt, @unchecked Sendable {
    /// `SCPDiscoveryMethodBluetoothScan` = 0.
    case bluetoothScan = 0
    /// `SCPDiscoveryMethodBluetoothProximity` = 1.
    case bluetoothProximity = 1
    /// `SCPDiscoveryMethodInternet` = 2.
    case internet = 2
    /// `SCPDiscoveryMethodTapToPay` = 3.
    case tapToPay = 3
    /// `SCPDiscoveryMethodUsb` = 4. Name by Swift prefix stripping; the example app uses .usb.
    case usb = 4
}

/// `SCPBatteryStatus` (`NS_ENUM`), imported with raw type `UInt`.
public enum BatteryStatus: UInt, @unchecked Sendable {
    /// `SCPBatteryStatusUnknown` = 0.
    case unknown = 0
    /// `SCPBatteryStatusCritical` = 1.
    case critical = 1
    /// `SCPBatteryStatusLow` = 2.
    case low = 2
    /// `SCPBatteryStatusNominal` = 3.
    case nominal = 3
}

/// `SCPReaderEvent` (`NS_ENUM`), imported with raw type `UInt`.
public enum ReaderEvent: UInt, @unchecked Sendable {
    /// `SCPReaderEventCardInserted` = 0.
    case cardInserted = 0
    /// `SCPReaderEventCardRemoved` = 1.
    case cardRemoved = 1
}

/// `SCPLocationStatus` (`NS_ENUM`), imported with raw type `UInt`.
public enum LocationStatus: UInt, @unchecked Sendable {
    /// `SCPLocationStatusUnknown` = 0.
    case unknown = 0
    /// `SCPLocationStatusSet` = 1.
    case set = 1
    /// `SCPLocationStatusNotSet` = 2.
    case notSet = 2
}

/// `SCPReaderNetworkStatus` (`NS_ENUM`), imported with raw type `UInt`.
public enum ReaderNetworkStatus: UInt, @unchecked Sendable {
    /// `SCPReaderNetworkStatusOffline` = 0.
    case offline = 0
    /// `SCPReaderNetworkStatusOnline` = 1.
    case online = 1
    /// `SCPReaderNetworkStatusUnknown` = 2.
    case unknown = 2
}
