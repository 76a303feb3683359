#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
package import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
public import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import Foundation
package import TenderSquare

/// The SDK's objects copied into the adapter's values (``Square``), and the adapter's values built into the SDK's
/// objects where the bridge hands the SDK one. Called on the main actor, where Square's objects are read; nothing
/// here keeps an SDK object.
///
/// Dropped on the way in (the values do not carry them): `Payment.cashDetails`, `Payment.totalMoney` (the values
/// compute amount plus tip; Square's `amountMoney` already includes a surcharge it applied), the
/// `dictionaryRepresentation` of every model, and `PaymentParameters.createdAt` / `cardHandle`.
package enum SquareBridgeValues {
    // MARK: Money

    /// An SDK `MoneyAmount` → ``Square/Money``.
    package static func money(_ amount: any MoneyAmount) -> Square.Money {
        Square.Money(amount: amount.amount, currency: value(amount.currency))
    }

    /// ``Square/Money`` → the SDK's `Money`.
    package static func sdk(_ money: Square.Money) -> Money {
        Money(amount: money.amount, currency: sdk(money.currency))
    }

    // MARK: Payments

    /// A payment from a delegate callback, a handle or the offline queue: an ``Square/OnlinePayment`` or an
    /// ``Square/OfflinePayment``, as the SDK's object is an `OnlinePayment` or an `OfflinePayment`. A kind of payment
    /// this SDK version does not know becomes an online payment with status `unknown` and the fields every payment has.
    package static func payment(_ payment: any Payment) -> any Square.Payment {
        if let online = payment as? any OnlinePayment { return onlinePayment(online) }
        if let offline = payment as? any OfflinePayment { return offlinePayment(offline) }
        return Square.OnlinePayment(
            id: payment.id, status: .unknown, amountMoney: money(payment.amountMoney),
            tipMoney: payment.tipMoney.map(money), appFeeMoney: payment.appFeeMoney.map(money),
            createdAt: payment.createdAt, updatedAt: payment.updatedAt, locationID: payment.locationID,
            orderID: payment.orderID, referenceID: payment.referenceID, sourceType: value(payment.sourceType),
            cardDetails: nil)
    }

    /// An SDK `OnlinePayment` → ``Square/OnlinePayment``.
    package static func onlinePayment(_ payment: any OnlinePayment) -> Square.OnlinePayment {
        Square.OnlinePayment(
            id: payment.id, status: value(payment.status), amountMoney: money(payment.amountMoney),
            tipMoney: payment.tipMoney.map(money), appFeeMoney: payment.appFeeMoney.map(money),
            createdAt: payment.createdAt, updatedAt: payment.updatedAt, locationID: payment.locationID,
            orderID: payment.orderID, referenceID: payment.referenceID, sourceType: value(payment.sourceType),
            cardDetails: payment.cardDetails.map(cardDetails), customerID: payment.customerID, note: payment.note,
            teamMemberID: payment.teamMemberID)
    }

    /// An SDK `OfflinePayment` → ``Square/OfflinePayment``.
    package static func offlinePayment(_ payment: any OfflinePayment) -> Square.OfflinePayment {
        Square.OfflinePayment(
            localID: payment.localID, id: payment.id, status: value(payment.status),
            amountMoney: money(payment.amountMoney), tipMoney: payment.tipMoney.map(money),
            appFeeMoney: payment.appFeeMoney.map(money), createdAt: payment.createdAt, updatedAt: payment.updatedAt,
            uploadedAt: payment.uploadedAt, locationID: payment.locationID, orderID: payment.orderID,
            referenceID: payment.referenceID, sourceType: value(payment.sourceType),
            cardDetails: payment.cardDetails.map(offlineCardDetails))
    }

    /// An SDK `CardPaymentDetails` → ``Square/CardPaymentDetails`` (the card's last four digits only).
    static func cardDetails(_ details: any CardPaymentDetails) -> Square.CardPaymentDetails {
        let card = details.card.map { card in
            Square.Card(id: card.id, cardBrand: value(card.cardBrand), coBrand: value(card.coBrand), last4: card.last4,
                        expMonth: card.expMonth, expYear: card.expYear, cardholderName: card.cardholderName)
        }
        let surcharge = details.appliedCardSurchargeDetails.map { surcharge in
            Square.CardSurchargeDetails(cardSurchargeMoney: money(surcharge.cardSurchargeMoney),
                                        taxOnCardSurchargeMoney: surcharge.taxOnCardSurchargeMoney.map(money))
        }
        return Square.CardPaymentDetails(
            status: value(details.status), entryMethod: value(details.entryMethod), card: card,
            authResultCode: details.authResultCode, applicationIdentifier: details.applicationIdentifier,
            applicationName: details.applicationName, appliedCardSurchargeDetails: surcharge)
    }

    /// An SDK `OfflineCardPaymentDetails` → ``Square/OfflineCardPaymentDetails``.
    static func offlineCardDetails(_ details: any OfflineCardPaymentDetails) -> Square.OfflineCardPaymentDetails {
        let card = details.card.map { card in
            Square.OfflineCard(id: card.id, cardBrand: value(card.cardBrand), last4: card.last4,
                               cardholderName: card.cardholderName)
        }
        return Square.OfflineCardPaymentDetails(
            entryMethod: value(details.entryMethod), card: card, applicationIdentifier: details.applicationIdentifier,
            applicationName: details.applicationName)
    }

    // MARK: Parameters

    /// ``Square/PaymentParameters`` → the SDK's `PaymentParameters`, every field set (`autocomplete` too, whose SDK
    /// default Square does not state).
    package static func sdk(_ parameters: Square.PaymentParameters) -> PaymentParameters {
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

    /// The SDK's `PaymentParameters` → ``Square/PaymentParameters`` (`createdAt` and `cardHandle` are not kept).
    package static func value(_ parameters: PaymentParameters) -> Square.PaymentParameters {
        var copied = Square.PaymentParameters(paymentAttemptID: parameters.paymentAttemptID,
                                              amountMoney: money(parameters.amountMoney),
                                              processingMode: value(parameters.processingMode))
        copied.tipMoney = parameters.tipMoney.map(money)
        copied.appFeeMoney = parameters.appFeeMoney.map(money)
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

    /// ``Square/PromptParameters`` → the SDK's `PromptParameters`.
    package static func sdk(_ prompt: Square.PromptParameters) -> PromptParameters {
        var methods: [AdditionalPaymentMethods] = []
        if prompt.additionalMethods.contains(.keyed) { methods.append(.keyed) }
        if prompt.additionalMethods.contains(.cash) { methods.append(.cash) }
        if prompt.additionalMethods.contains(.tapToPay) { methods.append(.tapToPay) }
        return PromptParameters(mode: sdk(prompt.mode), additionalMethods: AdditionalPaymentMethods(methods))
    }

    /// The SDK's `CardInputMethods` → ``Square/CardInputMethods``, member by member.
    package static func value(_ methods: CardInputMethods) -> Square.CardInputMethods {
        var copied: Square.CardInputMethods = []
        if methods.contains(.chip) { copied.insert(.chip) }
        if methods.contains(.contactless) { copied.insert(.contactless) }
        if methods.contains(.swipe) { copied.insert(.swipe) }
        return copied
    }
}
#endif
