package import Foundation
import Tender
package import TenderStripe

extension Stripe.SimulatedCardType {
    /// Picks the card type for one of Stripe's documented test card numbers, or nil. The number is only read:
    /// it is matched by BIN, last four and length, and never stored.
    /// Numbers marked † in the reference come from a third-party copy of Stripe's testing page.
    package init?(testCardNumber: String) {
        let digits = testCardNumber.filter(\.isNumber)
        guard digits.count >= 10 else { return nil }
        let key = "\(digits.prefix(6))…\(digits.suffix(4))/\(digits.count)"
        let table: [String: Stripe.SimulatedCardType] = [
            "424242…4242/16": .visa, "400005…5556/16": .visaDebit, "555555…4444/16": .mastercard,
            "520082…8210/16": .masterDebit, "510510…5100/16": .mastercardPrepaid, "378282…0005/15": .amex,
            "371449…8431/15": .amex2, "601111…1117/16": .discover, "601100…9424/16": .discover2,
            "305693…0004/16": .diners, "362272…1667/14": .diners14Digit, "356600…0505/16": .jcb,
            "620000…0005/16": .unionPay, "450644…1933/16": .interac,
            // † from a third-party copy of Stripe's testing page.
            "400000…0002/16": .chargeDeclined, "400000…9995/16": .chargeDeclinedInsufficientFunds,
            "400000…9987/16": .chargeDeclinedLostCard, "400000…9979/16": .chargeDeclinedStolenCard,
            "400000…0069/16": .chargeDeclinedExpiredCard, "400000…0119/16": .chargeDeclinedProcessingError,
            "400000…5126/16": .refundFailed, "400100…0002/16": .offlinePinCvm, "400000…0075/16": .offlinePinScaRetry,
            "400100…0005/16": .onlinePinCvm, "400000…0008/16": .onlinePinScaRetry,
        ]
        guard let type = table[key] else { return nil }
        self = type
    }

    /// The brand the simulated reader reports.
    package var brand: Stripe.CardBrand {
        switch self {
        case .visa, .visaDebit, .visaUsCommonDebit, .chargeDeclined, .chargeDeclinedInsufficientFunds,
             .chargeDeclinedLostCard, .chargeDeclinedStolenCard, .chargeDeclinedExpiredCard,
             .chargeDeclinedProcessingError, .refundFailed, .onlinePinCvm, .onlinePinScaRetry, .offlinePinCvm,
             .offlinePinScaRetry:
            .visa
        case .mastercard, .masterDebit, .mastercardPrepaid: .masterCard
        case .amex, .amex2: .amex
        case .discover, .discover2: .discover
        case .diners, .diners14Digit: .dinersClub
        case .jcb: .JCB
        case .unionPay: .unionPay
        case .interac: .interac
        case .eftposAuDebit, .eftposAuVisaDebit, .eftposAuDebitMastercard: .eftposAu
        }
    }

    /// The last four digits of the documented test number (nil where the reference gives no number).
    package var last4: String? {
        switch self {
        case .visa: "4242"
        case .visaDebit: "5556"
        case .mastercard: "4444"
        case .masterDebit: "8210"
        case .mastercardPrepaid: "5100"
        case .amex: "0005"
        case .amex2: "8431"
        case .discover: "1117"
        case .discover2: "9424"
        case .diners: "0004"
        case .diners14Digit: "1667"
        case .jcb: "0505"
        case .unionPay: "0005"
        case .interac: "1933"
        case .chargeDeclined, .offlinePinCvm: "0002"
        case .chargeDeclinedInsufficientFunds: "9995"
        case .chargeDeclinedLostCard: "9987"
        case .chargeDeclinedStolenCard: "9979"
        case .chargeDeclinedExpiredCard: "0069"
        case .chargeDeclinedProcessingError: "0119"
        case .refundFailed: "5126"
        case .onlinePinCvm: "0005"
        case .onlinePinScaRetry: "0008"
        case .offlinePinScaRetry: "0075"
        case .visaUsCommonDebit, .eftposAuDebit, .eftposAuVisaDebit, .eftposAuDebitMastercard: nil
        }
    }

    /// The decline code Stripe's API returns for this card (online at confirm, offline at forwarding), or nil if
    /// it is approved.
    package var declineCode: String? {
        switch self {
        case .chargeDeclined: "card_declined"
        case .chargeDeclinedInsufficientFunds: "insufficient_funds"
        case .chargeDeclinedLostCard: "lost_card"
        case .chargeDeclinedStolenCard: "stolen_card"
        case .chargeDeclinedExpiredCard: "expired_card"
        case .chargeDeclinedProcessingError: "processing_error"
        case .visa, .visaDebit, .visaUsCommonDebit, .mastercard, .masterDebit, .mastercardPrepaid, .amex, .amex2,
             .discover, .discover2, .diners, .diners14Digit, .jcb, .unionPay, .interac, .eftposAuDebit,
             .eftposAuVisaDebit, .eftposAuDebitMastercard, .refundFailed, .onlinePinCvm, .onlinePinScaRetry,
             .offlinePinCvm, .offlinePinScaRetry:
            nil
        }
    }

    /// Whether the card authenticates with an online PIN, which cannot be done offline (6905).
    package var requiresOnlinePin: Bool { self == .onlinePinCvm || self == .onlinePinScaRetry }

    /// Every `chargeDeclined…` card.
    package static let declineCards: [Stripe.SimulatedCardType] = allCases.filter { $0.declineCode != nil }
}

extension Stripe.SimulatedCardType {
    /// The expiry the simulated card reports: the `chargeDeclinedExpiredCard` card expired in 2020 (offline, the
    /// reader identifies it: 6902), every other card expires in December 2030.
    package var expiry: (month: Int, year: Int) { self == .chargeDeclinedExpiredCard ? (12, 2020) : (12, 2030) }

    /// Whether the card has expired at `date` (after the last day of its expiry month, UTC).
    package func isExpired(at date: Date) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: date)
        guard let year = parts.year, let month = parts.month else { return false }
        return (year, month) > (expiry.year, expiry.month)
    }

    /// The payment method type of a charge on this card (`interac_present` for Interac).
    package var paymentMethodType: Stripe.PaymentMethodType { self == .interac ? .interacPresent : .cardPresent }
}
