#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
package import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
public import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import Foundation
package import TenderSquare

extension SquareBridgeValues {
    // MARK: Readers

    /// An SDK `ReaderInfo` → ``Square/ReaderInfo``. The firmware's failure (an `NSError`) is kept as its
    /// `localizedDescription`; the battery keeps the SDK's level (derived from the percentage only for a level this SDK
    /// version does not know).
    package static func reader(_ reader: any ReaderInfo) -> Square.ReaderInfo {
        let firmware = reader.firmwareInfo.map { firmware in
            Square.ReaderFirmwareInfo(version: firmware.version, updatePercentage: firmware.updatePercentage,
                                      updateStatus: value(firmware.updateStatus), updateTime: firmware.updateTime,
                                      failureReason: firmware.failureReason?.localizedDescription)
        }
        let battery = reader.batteryStatus.map { battery in
            var copied = Square.ReaderBatteryStatus(isCharging: battery.isCharging, percentage: battery.percentage)
            if let level = value(battery.level) { copied.level = level }
            return copied
        }
        return Square.ReaderInfo(
            id: reader.id, name: reader.name, serialNumber: reader.serialNumber, model: value(reader.model),
            supportedInputMethods: value(reader.supportedInputMethods), firmwareInfo: firmware,
            statusInfo: statusInfo(reader.statusInfo), batteryStatus: battery,
            cardInsertionStatus: value(reader.cardInsertionStatus), connectionType: value(reader.connectionType),
            isConnectionRetryable: reader.isConnectionRetryable, isBlinkable: reader.isBlinkable,
            isForgettable: reader.isForgettable, isRebootable: reader.isRebootable)
    }

    /// An SDK `ReaderStatusInfo` → ``Square/ReaderStatusInfo``, with the unavailable reason's title and detail as
    /// the SDK gives them (the reason is kept only with `readerUnavailable`, as Square documents it).
    static func statusInfo(_ info: any ReaderStatusInfo) -> Square.ReaderStatusInfo {
        let status = value(info.status)
        var copied = Square.ReaderStatusInfo(status: status, unavailableReason: info.unavailableReasonInfo.map {
            value($0.reason)
        })
        if status == .readerUnavailable, let reason = info.unavailableReasonInfo {
            copied.unavailableReasonInfo = Square.ReaderUnavailableReasonInfo(reason: value(reason.reason),
                                                                              title: reason.title,
                                                                              detail: reason.detail)
        }
        return copied
    }

    // MARK: Session and settings

    /// An SDK `Location` → ``Square/Location``.
    package static func location(_ location: any Location) -> Square.Location {
        Square.Location(id: location.id, name: location.name, mcc: location.mcc, currency: value(location.currency))
    }

    /// An SDK `PaymentSettings` → ``Square/PaymentSettings``.
    package static func paymentSettings(_ settings: any PaymentSettings) -> Square.PaymentSettings {
        Square.PaymentSettings(isOfflineProcessingAllowed: settings.isOfflineProcessingAllowed,
                               offlineTransactionAmountLimit: settings.offlineTransactionAmountLimit.map(money),
                               offlineTotalStoredAmountLimit: settings.offlineTotalStoredAmountLimit.map(money))
    }

    /// An SDK `SDKSettings` → ``Square/SDKSettings`` (`securityComplianceVersion` is not kept).
    package static func sdkSettings(_ settings: any SDKSettings) -> Square.SDKSettings {
        Square.SDKSettings(environment: value(settings.environment), version: settings.version)
    }
}
#endif
