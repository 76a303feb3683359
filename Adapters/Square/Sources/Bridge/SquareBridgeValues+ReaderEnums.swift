#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import TenderSquare

/// The SDK's reader enums to the adapter's: a `switch` per enum, each case mapped to the case of the same name. A
/// case a newer SDK adds reads as the value each function documents (`@unknown default`).
extension SquareBridgeValues {
    /// `ReaderStatus` → ``Square/ReaderStatus``; a status this SDK version adds reads as `readerUnavailable` (not
    /// ready).
    static func value(_ status: ReaderStatus) -> Square.ReaderStatus {
        switch status {
        case .connectingToDevice: .connectingToDevice
        case .connectingToSquare: .connectingToSquare
        case .faulty: .faulty
        case .readerUnavailable: .readerUnavailable
        case .ready: .ready
        @unknown default: .readerUnavailable
        }
    }

    /// `ReaderUnavailableReason` → ``Square/ReaderUnavailableReason``; a reason this SDK version adds reads as
    /// `internalError`.
    static func value(_ reason: ReaderUnavailableReason) -> Square.ReaderUnavailableReason {
        switch reason {
        case .blockingFirmwareUpdate: .blockingFirmwareUpdate
        case .bluetoothDisabled: .bluetoothDisabled
        case .bluetoothFailure: .bluetoothFailure
        case .internalError: .internalError
        case .maxReadersConnected: .maxReadersConnected
        case .notConnectedToInternet: .notConnectedToInternet
        case .readerTimeout: .readerTimeout
        case .revokedByDevice: .revokedByDevice
        case .secureConnectionNetworkFailure: .secureConnectionNetworkFailure
        case .secureConnectionToSquareFailure: .secureConnectionToSquareFailure
        case .tapToPayError: .tapToPayError
        case .tapToPayIsNotLinked: .tapToPayIsNotLinked
        @unknown default: .internalError
        }
    }

    /// `ReaderModel` → ``Square/ReaderModel``; a model this SDK version adds reads as `unknown`.
    static func value(_ model: ReaderModel) -> Square.ReaderModel {
        switch model {
        case .contactlessAndChip: .contactlessAndChip
        case .magstripe: .magstripe
        case .stand: .stand
        case .tapToPay: .tapToPay
        case .unknown: .unknown
        @unknown default: .unknown
        }
    }

    /// `ReaderChange` → ``Square/ReaderChange``; `nil` for a change this SDK version adds (2.7's `warningRaised`, say):
    /// the bridge does not forward it.
    static func value(_ change: ReaderChange) -> Square.ReaderChange? {
        switch change {
        case .batteryDidBeginCharging: .batteryDidBeginCharging
        case .batteryDidEndCharging: .batteryDidEndCharging
        case .batteryLevelDidChange: .batteryLevelDidChange
        case .cardInserted: .cardInserted
        case .cardRemoved: .cardRemoved
        case .firmwareUpdateDidFail: .firmwareUpdateDidFail
        case .firmwareUpdatePercentDidChange: .firmwareUpdatePercentDidChange
        case .firmwareUpdateStatusDidChange: .firmwareUpdateStatusDidChange
        case .firmwareUpdateTimeDidChange: .firmwareUpdateTimeDidChange
        case .readerStatusDidChange: .readerStatusDidChange
        @unknown default: nil
        }
    }

    /// `FirmwareUpdateStatus` → ``Square/FirmwareUpdateStatus``; a status this SDK version adds reads as `inProgress`,
    /// which reports nothing new.
    static func value(_ status: FirmwareUpdateStatus) -> Square.FirmwareUpdateStatus {
        switch status {
        case .failed: .failed
        case .inProgress: .inProgress
        case .none: .none
        case .pending: .pending
        @unknown default: .inProgress
        }
    }

    /// `ReaderBatteryLevel` → ``Square/ReaderBatteryLevel``; `nil` for a level this SDK version adds (the level is then
    /// derived from the percentage).
    static func value(_ level: ReaderBatteryLevel) -> Square.ReaderBatteryLevel? {
        switch level {
        case .criticallyLow: .criticallyLow
        case .full: .full
        case .high: .high
        case .low: .low
        case .mid: .mid
        @unknown default: nil
        }
    }

    /// `ReaderConnectionType` → ``Square/ReaderConnectionType``; a type this SDK version adds reads as `unknown`.
    static func value(_ type: ReaderConnectionType) -> Square.ReaderConnectionType {
        switch type {
        case .audio: .audio
        case .bluetooth: .bluetooth
        case .embedded: .embedded
        case .unknown: .unknown
        case .usb: .usb
        @unknown default: .unknown
        }
    }

    /// `CardInsertionStatus` → ``Square/CardInsertionStatus``; a status this SDK version adds reads as `unknown`.
    static func value(_ status: CardInsertionStatus) -> Square.CardInsertionStatus {
        switch status {
        case .inserted: .inserted
        case .notInserted: .notInserted
        case .unknown: .unknown
        @unknown default: .unknown
        }
    }

    /// `RetryConnectionResult` → ``Square/RetryConnectionResult``; a result this SDK version adds reads as
    /// `unableToRetry`.
    static func value(_ result: RetryConnectionResult) -> Square.RetryConnectionResult {
        switch result {
        case .readerAlreadyConnectingToSquare: .readerAlreadyConnectingToSquare
        case .readerNotFound: .readerNotFound
        case .startingReconnection: .startingReconnection
        case .unableToRetry: .unableToRetry
        @unknown default: .unableToRetry
        }
    }
}
#endif
