import Foundation
import SquareMobilePaymentsSurface
import TenderSquare

extension SurfaceMapping {
    // MARK: Values → SDK objects

    /// ``Square/Money`` → the mirror's `Money`.
    static func sdk(_ money: Square.Money) -> Money { Money(amount: money.amount, currency: sdk(money.currency)) }

    /// A simulator payment → the SDK's `OnlinePayment` or `OfflinePayment` object.
    static func sdk(_ payment: any Square.Payment) -> any Payment {
        if let offline = payment as? Square.OfflinePayment { return sdk(offline) }
        let online = payment as? Square.OnlinePayment
        let fields = SurfacePaymentFields(
            id: payment.id, createdAt: payment.createdAt, updatedAt: payment.updatedAt,
            amountMoney: sdk(payment.amountMoney), tipMoney: payment.tipMoney.map(sdk),
            appFeeMoney: payment.appFeeMoney.map(sdk), totalMoney: sdk(payment.totalMoney),
            locationID: payment.locationID, orderID: payment.orderID, referenceID: payment.referenceID,
            sourceType: sdk(payment.sourceType))
        return SurfaceOnlinePayment(fields, status: sdk(online?.status ?? .unknown),
                                    cardDetails: online?.cardDetails.map(sdk), customerID: online?.customerID,
                                    note: online?.note, teamMemberID: online?.teamMemberID)
    }

    /// A simulator offline payment → the SDK's `OfflinePayment` object.
    static func sdk(_ payment: Square.OfflinePayment) -> SurfaceOfflinePayment {
        let fields = SurfacePaymentFields(
            id: payment.id, createdAt: payment.createdAt, updatedAt: payment.updatedAt,
            amountMoney: sdk(payment.amountMoney), tipMoney: payment.tipMoney.map(sdk),
            appFeeMoney: payment.appFeeMoney.map(sdk), totalMoney: sdk(payment.totalMoney),
            locationID: payment.locationID, orderID: payment.orderID, referenceID: payment.referenceID,
            sourceType: sdk(payment.sourceType))
        let details = payment.cardDetails.map { details in
            SurfaceOfflineCardPaymentDetails(
                entryMethod: sdk(details.entryMethod),
                card: details.card.map { SurfaceOfflineCard(cardBrand: sdk($0.cardBrand), last4: $0.last4,
                                                            cardholderName: $0.cardholderName, id: $0.id) },
                applicationIdentifier: details.applicationIdentifier, applicationName: details.applicationName)
        }
        return SurfaceOfflinePayment(fields, localID: payment.localID, status: sdk(payment.status),
                                     uploadedAt: payment.uploadedAt, cardDetails: details)
    }

    /// ``Square/CardPaymentDetails`` → the SDK's `CardPaymentDetails` object.
    static func sdk(_ details: Square.CardPaymentDetails) -> SurfaceCardPaymentDetails {
        let card = details.card.map { card in
            SurfaceCard(cardBrand: sdk(card.cardBrand), coBrand: sdk(card.coBrand), last4: card.last4,
                        expMonth: card.expMonth, expYear: card.expYear, cardholderName: card.cardholderName,
                        id: card.id)
        }
        let surcharge = details.appliedCardSurchargeDetails.map { surcharge in
            SurfaceCardSurchargeDetails(cardSurchargeMoney: sdk(surcharge.cardSurchargeMoney),
                                        taxOnCardSurchargeMoney: surcharge.taxOnCardSurchargeMoney.map(sdk))
        }
        return SurfaceCardPaymentDetails(
            status: sdk(details.status), entryMethod: sdk(details.entryMethod), card: card,
            applicationIdentifier: details.applicationIdentifier, applicationName: details.applicationName,
            authResultCode: details.authResultCode, appliedCardSurchargeDetails: surcharge)
    }

    /// ``Square/PaymentParameters`` → the SDK's `PaymentParameters` (for a payment in progress the SDK reports).
    static func sdk(_ parameters: Square.PaymentParameters) -> PaymentParameters {
        let built = PaymentParameters(paymentAttemptID: parameters.paymentAttemptID,
                                      amountMoney: sdk(parameters.amountMoney),
                                      processingMode: sdk(parameters.processingMode))
        built.tipMoney = parameters.tipMoney.map(sdk)
        built.appFeeMoney = parameters.appFeeMoney.map(sdk)
        built.autocomplete = parameters.autocomplete
        built.delayDuration = parameters.delayDuration
        built.delayAction = sdk(parameters.delayAction)
        built.acceptPartialAuthorization = parameters.acceptPartialAuthorization
        built.allowCardSurcharge = parameters.allowCardSurcharge
        built.referenceID = parameters.referenceID
        built.note = parameters.note
        built.orderID = parameters.orderID
        built.customerID = parameters.customerID
        built.locationID = parameters.locationID
        built.teamMemberID = parameters.teamMemberID
        built.statementDescriptionIdentifier = parameters.statementDescriptionIdentifier
        return built
    }

    /// ``Square/CardInputMethods`` → the mirror's option set, member by member.
    static func sdk(_ methods: Square.CardInputMethods) -> CardInputMethods {
        var members: [CardInputMethods] = []
        if methods.contains(.chip) { members.append(.chip) }
        if methods.contains(.contactless) { members.append(.contactless) }
        if methods.contains(.swipe) { members.append(.swipe) }
        return CardInputMethods(members)
    }

    /// ``Square/ReaderStatusInfo`` → the SDK's `ReaderStatusInfo` object.
    static func sdk(_ info: Square.ReaderStatusInfo) -> SurfaceReaderStatusInfo {
        SurfaceReaderStatusInfo(status: sdk(info.status), unavailableReasonInfo: info.unavailableReasonInfo.map {
            SurfaceReaderUnavailableReasonInfo(reason: sdk($0.reason), title: $0.title, detail: $0.detail)
        })
    }

    /// Copies a simulator reader into the SDK's reader object for it (updated in place, as the SDK's are).
    static func update(_ object: SurfaceReaderInfo, from reader: Square.ReaderInfo) {
        object.name = reader.name
        object.serialNumber = reader.serialNumber
        object.model = sdk(reader.model)
        object.connectionType = sdk(reader.connectionType)
        object.supportedInputMethods = sdk(reader.supportedInputMethods)
        object.statusInfo = sdk(reader.statusInfo)
        object.batteryStatus = reader.batteryStatus.map {
            SurfaceReaderBatteryStatus(isCharging: $0.isCharging, level: sdk($0.level), percentage: $0.percentage)
        }
        object.firmwareInfo = reader.firmwareInfo.map { firmware in
            SurfaceReaderFirmwareInfo(
                version: firmware.version, updateStatus: sdk(firmware.updateStatus),
                updatePercentage: firmware.updatePercentage, updateTime: firmware.updateTime,
                failureReason: firmware.failureReason.map {
                    NSError(domain: "SquareMobilePaymentsSurfaceBackend.FirmwareUpdate", code: 1,
                            userInfo: [NSLocalizedDescriptionKey: $0])
                })
        }
        object.cardInsertionStatus = sdk(reader.cardInsertionStatus)
        object.isBlinkable = reader.isBlinkable
        object.isConnectionRetryable = reader.isConnectionRetryable
        object.isForgettable = reader.isForgettable
        object.isRebootable = reader.isRebootable
    }

    /// A new SDK reader object for a simulator reader.
    static func sdk(_ reader: Square.ReaderInfo) -> SurfaceReaderInfo {
        let object = SurfaceReaderInfo(id: reader.id, name: reader.name, model: sdk(reader.model),
                                       connectionType: sdk(reader.connectionType),
                                       supportedInputMethods: sdk(reader.supportedInputMethods),
                                       statusInfo: sdk(reader.statusInfo))
        update(object, from: reader)
        return object
    }

    // MARK: SDK objects → values

    /// The SDK's `MoneyAmount` → ``Square/Money``.
    static func value(_ money: any MoneyAmount) -> Square.Money {
        Square.Money(amount: money.amount, currency: value(money.currency))
    }

    /// The SDK's `PaymentParameters` (built by the bridge) → ``Square/PaymentParameters``, every field.
    static func value(_ parameters: PaymentParameters) -> Square.PaymentParameters {
        var copied = Square.PaymentParameters(paymentAttemptID: parameters.paymentAttemptID,
                                              amountMoney: value(parameters.amountMoney),
                                              processingMode: value(parameters.processingMode))
        copied.tipMoney = parameters.tipMoney.map(value)
        copied.appFeeMoney = parameters.appFeeMoney.map(value)
        copied.autocomplete = parameters.autocomplete
        copied.delayDuration = parameters.delayDuration
        copied.delayAction = value(parameters.delayAction)
        copied.acceptPartialAuthorization = parameters.acceptPartialAuthorization
        copied.allowCardSurcharge = parameters.allowCardSurcharge
        copied.referenceID = parameters.referenceID
        copied.note = parameters.note
        copied.orderID = parameters.orderID
        copied.customerID = parameters.customerID
        copied.locationID = parameters.locationID
        copied.teamMemberID = parameters.teamMemberID
        copied.statementDescriptionIdentifier = parameters.statementDescriptionIdentifier
        return copied
    }

    /// The SDK's `PromptParameters` → ``Square/PromptParameters``, member by member.
    static func value(_ prompt: PromptParameters) -> Square.PromptParameters {
        var methods: Square.AdditionalPaymentMethods = []
        if prompt.additionalMethods.contains(.keyed) { methods.insert(.keyed) }
        if prompt.additionalMethods.contains(.cash) { methods.insert(.cash) }
        if prompt.additionalMethods.contains(.tapToPay) { methods.insert(.tapToPay) }
        return Square.PromptParameters(mode: value(prompt.mode), additionalMethods: methods)
    }
}
