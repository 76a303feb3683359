import Foundation
import Tender
import TenderSquare

/// REST payments as the adapter's SDK-shaped ``TenderSquare/Square/OnlinePayment`` and as the
/// ``TenderSquare/Square/APIPayment`` that ``TenderSquare/SquareServerLookup`` returns. Values are mapped by name; one
/// the SDK type lacks becomes its `unknown` case, never a guess.
extension SquareServerClient {
    /// The adapter's server-side value for a REST payment: the SDK's fields plus the delay, the offline details and
    /// what was refunded.
    package static func apiPayment(_ payment: SquareAPI.Payment) -> Square.APIPayment {
        let id = payment.id
        let online = onlinePayment(payment)
        let delayAction: Square.DelayAction? = switch payment.delayAction {
        case "CANCEL": .cancel
        case "COMPLETE": .complete
        default: nil
        }
        return Square.APIPayment(
            id: id, status: online.status, amountMoney: online.amountMoney, tipMoney: online.tipMoney,
            refundedMoney: money(payment.refundedMoney), createdAt: online.createdAt, updatedAt: online.updatedAt,
            locationID: online.locationID, referenceID: online.referenceID, note: online.note,
            cardDetails: online.cardDetails, delayAction: delayAction, delayedUntil: date(payment.delayedUntil),
            isOfflinePayment: payment.isOfflinePayment ?? false,
            offlineClientCreatedAt: date(payment.offlinePaymentDetails?.clientCreatedAt))
    }

    /// The adapter's value for a REST payment.
    package static func onlinePayment(_ payment: SquareAPI.Payment) -> Square.OnlinePayment {
        let created = date(payment.createdAt) ?? Date(timeIntervalSince1970: 0)
        return Square.OnlinePayment(
            id: payment.id, status: paymentStatus(payment.status),
            amountMoney: money(payment.amountMoney) ?? Square.Money(amount: 0, currency: .unknown),
            tipMoney: money(payment.tipMoney), createdAt: created, updatedAt: date(payment.updatedAt) ?? created,
            locationID: payment.locationID, orderID: payment.orderID, referenceID: payment.referenceID,
            sourceType: sourceType(payment.sourceType), cardDetails: payment.cardDetails.map(cardDetails),
            note: payment.note)
    }

    /// `Payment.status` by name.
    package static func paymentStatus(_ status: String?) -> Square.PaymentStatus {
        switch status {
        case "APPROVED": .approved
        case "PENDING": .pending
        case "COMPLETED": .completed
        case "CANCELED": .canceled
        case "FAILED": .failed
        default: .unknown
        }
    }

    static func money(_ money: SquareAPI.Money?) -> Square.Money? {
        guard let money, let amount = money.amount, amount >= 0 else { return nil }
        return Square.Money(amount: UInt(amount), currency: money.currency.flatMap { Square.Currency($0) } ?? .unknown)
    }

    static func sourceType(_ type: String?) -> Square.SourceType {
        switch type {
        case "CARD": .card
        case "CASH": .cash
        case "EXTERNAL": .external
        case "WALLET": .wallet
        case "BANK_ACCOUNT": .bankAccount
        case "SQUARE_ACCOUNT": .squareAccount
        default: .unknown
        }
    }

    static func cardDetails(_ details: SquareAPI.CardPaymentDetails) -> Square.CardPaymentDetails {
        let status: Square.CardPaymentStatus = switch details.status {
        case "AUTHORIZED": .authorized
        case "CAPTURED": .captured
        case "VOIDED": .voided
        case "FAILED": .failed
        default: .unknown
        }
        let entry: Square.CardEntryMethod = switch details.entryMethod {
        case "EMV": .emv
        case "CONTACTLESS": .contactless
        case "SWIPED": .swiped
        case "KEYED": .keyed
        case "ON_FILE": .onFile
        default: .unknown
        }
        let card = details.card.map {
            Square.Card(cardBrand: cardBrand($0.cardBrand), last4: $0.last4, expMonth: UInt(max(0, $0.expMonth ?? 0)),
                        expYear: UInt(max(0, $0.expYear ?? 0)), cardholderName: $0.cardholderName)
        }
        return Square.CardPaymentDetails(status: status, entryMethod: entry, card: card,
                                         authResultCode: details.authResultCode,
                                         applicationIdentifier: details.applicationIdentifier,
                                         applicationName: details.applicationName)
    }

    static func cardBrand(_ brand: String?) -> Square.CardBrand {
        switch brand {
        case "VISA": .visa
        case "MASTERCARD": .mastercard
        case "AMERICAN_EXPRESS": .americanExpress
        case "DISCOVER": .discover
        case "DISCOVER_DINERS": .discoverDiners
        case "JCB": .jcb
        case "CHINA_UNIONPAY": .chinaUnionPay
        case "SQUARE_GIFT_CARD": .squareGiftCard
        case "SQUARE_CAPITAL_CARD": .squareCapitalCard
        case "INTERAC": .interac
        case "EFTPOS": .eftpos
        case "FELICA": .felica
        case "EBT": .ebt
        case "OTHER_BRAND": .otherBrand
        default: .unknown
        }
    }
}
