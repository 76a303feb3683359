package import Foundation

// `package` classes a backend uses to hand out cards, surcharges, cash details and card handles (see
// SurfaceBackend.swift). Plain snapshots; they hold no card number, track data or PIN, as Square's do not.

/// A ``Card`` (online).
package final class SurfaceCard: NSObject, Card {
    package let cardBrand: CardBrand
    package let coBrand: CardCoBrand
    package let last4: String?
    package let expMonth: UInt
    package let expYear: UInt
    package let cardholderName: String?
    package let id: String?
    package let dictionaryRepresentation: [String: Any]

    /// A card's non-confidential details.
    package init(
        cardBrand: CardBrand, coBrand: CardCoBrand = .none, last4: String?, expMonth: UInt, expYear: UInt,
        cardholderName: String? = nil, id: String? = nil, dictionaryRepresentation: [String: Any] = [:]
    ) {
        self.cardBrand = cardBrand
        self.coBrand = coBrand
        self.last4 = last4
        self.expMonth = expMonth
        self.expYear = expYear
        self.cardholderName = cardholderName
        self.id = id
        self.dictionaryRepresentation = dictionaryRepresentation
        super.init()
    }
}

/// An ``OfflineCard``.
package final class SurfaceOfflineCard: NSObject, OfflineCard {
    package let cardBrand: CardBrand
    package let last4: String?
    package let cardholderName: String?
    package let id: String?
    package let dictionaryRepresentation: [String: Any]

    /// A card's non-confidential details, offline.
    package init(
        cardBrand: CardBrand, last4: String?, cardholderName: String? = nil, id: String? = nil,
        dictionaryRepresentation: [String: Any] = [:]
    ) {
        self.cardBrand = cardBrand
        self.last4 = last4
        self.cardholderName = cardholderName
        self.id = id
        self.dictionaryRepresentation = dictionaryRepresentation
        super.init()
    }
}

/// ``CardSurchargeDetails``.
package final class SurfaceCardSurchargeDetails: NSObject, CardSurchargeDetails {
    package let cardSurchargeMoney: any MoneyAmount
    package let taxOnCardSurchargeMoney: (any MoneyAmount)?
    package let dictionaryRepresentation: [String: Any]

    /// A surcharge and its tax.
    package init(
        cardSurchargeMoney: any MoneyAmount, taxOnCardSurchargeMoney: (any MoneyAmount)? = nil,
        dictionaryRepresentation: [String: Any] = [:]
    ) {
        self.cardSurchargeMoney = cardSurchargeMoney
        self.taxOnCardSurchargeMoney = taxOnCardSurchargeMoney
        self.dictionaryRepresentation = dictionaryRepresentation
        super.init()
    }
}

/// ``CashPaymentDetails``.
package final class SurfaceCashPaymentDetails: NSObject, CashPaymentDetails {
    package let buyerSuppliedMoney: Money?
    package let changeBackMoney: Money?
    package let dictionaryRepresentation: [String: Any]

    /// Cash handed over and change given.
    package init(buyerSuppliedMoney: Money?, changeBackMoney: Money?, dictionaryRepresentation: [String: Any] = [:]) {
        self.buyerSuppliedMoney = buyerSuppliedMoney
        self.changeBackMoney = changeBackMoney
        self.dictionaryRepresentation = dictionaryRepresentation
        super.init()
    }
}

/// A ``CardHandle``; ``isSwipedCardStored`` may change as the SDK drops stored cards.
package final class SurfaceCardHandle: NSObject, CardHandle {
    package let id: String
    package let brand: CardBrand
    package let entryMethod: CardEntryMethod
    package let last4: String?
    package let cardholderName: String?
    package var isSwipedCardStored: Bool

    /// A handle on a read card.
    package init(
        id: String, brand: CardBrand, entryMethod: CardEntryMethod, last4: String?, cardholderName: String? = nil,
        isSwipedCardStored: Bool
    ) {
        self.id = id
        self.brand = brand
        self.entryMethod = entryMethod
        self.last4 = last4
        self.cardholderName = cardholderName
        self.isSwipedCardStored = isSwipedCardStored
        super.init()
    }
}
