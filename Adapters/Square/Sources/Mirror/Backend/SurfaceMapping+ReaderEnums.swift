import Foundation
import SquareMobilePaymentsSurface
import TenderSquare

extension SurfaceMapping {
    /// ``Square/ReaderStatus`` → the mirror's `ReaderStatus`, by case name.
    static func sdk(_ value: Square.ReaderStatus) -> ReaderStatus {
        switch value {
        case .connectingToDevice: .connectingToDevice
        case .connectingToSquare: .connectingToSquare
        case .faulty: .faulty
        case .readerUnavailable: .readerUnavailable
        case .ready: .ready
        }
    }

    /// ``Square/ReaderUnavailableReason`` → the mirror's `ReaderUnavailableReason`, by case name.
    static func sdk(_ value: Square.ReaderUnavailableReason) -> ReaderUnavailableReason {
        switch value {
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
        }
    }

    /// ``Square/ReaderModel`` → the mirror's `ReaderModel`, by case name.
    static func sdk(_ value: Square.ReaderModel) -> ReaderModel {
        switch value {
        case .contactlessAndChip: .contactlessAndChip
        case .magstripe: .magstripe
        case .stand: .stand
        case .tapToPay: .tapToPay
        case .unknown: .unknown
        }
    }

    /// ``Square/ReaderChange`` → the mirror's `ReaderChange`, by case name.
    static func sdk(_ value: Square.ReaderChange) -> ReaderChange {
        switch value {
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
        }
    }

    /// ``Square/FirmwareUpdateStatus`` → the mirror's `FirmwareUpdateStatus`, by case name.
    static func sdk(_ value: Square.FirmwareUpdateStatus) -> FirmwareUpdateStatus {
        switch value {
        case .failed: .failed
        case .inProgress: .inProgress
        case .none: .none
        case .pending: .pending
        }
    }

    /// ``Square/ReaderBatteryLevel`` → the mirror's `ReaderBatteryLevel`, by case name.
    static func sdk(_ value: Square.ReaderBatteryLevel) -> ReaderBatteryLevel {
        switch value {
        case .criticallyLow: .criticallyLow
        case .full: .full
        case .high: .high
        case .low: .low
        case .mid: .mid
        }
    }

    /// ``Square/ReaderConnectionType`` → the mirror's `ReaderConnectionType`, by case name.
    static func sdk(_ value: Square.ReaderConnectionType) -> ReaderConnectionType {
        switch value {
        case .audio: .audio
        case .bluetooth: .bluetooth
        case .embedded: .embedded
        case .unknown: .unknown
        case .usb: .usb
        }
    }

    /// ``Square/CardInsertionStatus`` → the mirror's `CardInsertionStatus`, by case name.
    static func sdk(_ value: Square.CardInsertionStatus) -> CardInsertionStatus {
        switch value {
        case .inserted: .inserted
        case .notInserted: .notInserted
        case .unknown: .unknown
        }
    }

    /// ``Square/RetryConnectionResult`` → the mirror's `RetryConnectionResult`, by case name.
    static func sdk(_ value: Square.RetryConnectionResult) -> RetryConnectionResult {
        switch value {
        case .readerAlreadyConnectingToSquare: .readerAlreadyConnectingToSquare
        case .readerNotFound: .readerNotFound
        case .startingReconnection: .startingReconnection
        case .unableToRetry: .unableToRetry
        }
    }

    /// ``Square/AuthorizationError`` → the mirror's `AuthorizationError`, by case name.
    static func sdk(_ value: Square.AuthorizationError) -> AuthorizationError {
        switch value {
        case .alreadyAuthorized: .alreadyAuthorized
        case .alreadyInProgress: .alreadyInProgress
        case .authorizationCodeAlreadyRedeemed: .authorizationCodeAlreadyRedeemed
        case .deauthorizationInProgress: .deauthorizationInProgress
        case .deviceTimeDoesNotMatchServerTime: .deviceTimeDoesNotMatchServerTime
        case .emptyAccessToken: .emptyAccessToken
        case .emptyLocationID: .emptyLocationID
        case .expiredAuthorizationCode: .expiredAuthorizationCode
        case .invalidAccessToken: .invalidAccessToken
        case .invalidAuthorizationCode: .invalidAuthorizationCode
        case .invalidLocationID: .invalidLocationID
        case .locationNotActivatedForCardProcessing: .locationNotActivatedForCardProcessing
        case .noNetwork: .noNetwork
        case .unexpected: .unexpected
        case .unsupportedCountry: .unsupportedCountry
        }
    }

    /// ``Square/OfflinePaymentQueueError`` → the mirror's `OfflinePaymentQueueError`, by case name.
    static func sdk(_ value: Square.OfflinePaymentQueueError) -> OfflinePaymentQueueError {
        switch value {
        case .notAuthorized: .notAuthorized
        case .unexpected: .unexpected
        case .unsupportedSandboxEnvironment: .unsupportedSandboxEnvironment
        }
    }

    /// ``Square/ReaderPairingError`` → the mirror's `ReaderPairingError`, by case name.
    static func sdk(_ value: Square.ReaderPairingError) -> ReaderPairingError {
        switch value {
        case .bluetoothDisabled: .bluetoothDisabled
        case .bluetoothNotReady: .bluetoothNotReady
        case .bluetoothNotSupported: .bluetoothNotSupported
        case .bluetoothPermissionDenied: .bluetoothPermissionDenied
        case .bluetoothPermissionNotDetermined: .bluetoothPermissionNotDetermined
        case .bluetoothPermissionRestricted: .bluetoothPermissionRestricted
        case .bluetoothPermissionUnknownCase: .bluetoothPermissionUnknownCase
        case .bluetoothResetting: .bluetoothResetting
        case .bluetoothUnknownError: .bluetoothUnknownError
        case .bondingRemoved: .bondingRemoved
        case .failedToConnect: .failedToConnect
        case .notAuthorized: .notAuthorized
        case .readerAlreadyPairing: .readerAlreadyPairing
        case .sandboxNotSupported: .sandboxNotSupported
        case .simulatorNotSupported: .simulatorNotSupported
        case .timedOut: .timedOut
        case .updateRequired: .updateRequired
        }
    }

}
