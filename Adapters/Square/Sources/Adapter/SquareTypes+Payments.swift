package import Foundation

// MARK: - Payments

extension Square {
    /// Square's `Payment` protocol: what online and offline payments share. A delegate callback hands a `Payment`
    /// that is an ``OnlinePayment`` or an ``OfflinePayment``: cast it, as Square's sample does.
    package protocol Payment: Sendable {
        /// The Square payment id (`nil` for an offline payment until Square processes it).
        var id: String? { get }
        /// The amount, excluding the tip; it includes a card surcharge when one was applied.
        var amountMoney: Money { get }
        /// The tip.
        var tipMoney: Money? { get }
        /// The developer's application fee.
        var appFeeMoney: Money? { get }
        /// The amount plus the tip (and the surcharge, if applied).
        var totalMoney: Money { get }
        /// When the payment started on the device.
        var createdAt: Date { get }
        /// When it last changed.
        var updatedAt: Date { get }
        /// The location.
        var locationID: String? { get }
        /// The order.
        var orderID: String? { get }
        /// Your external ID.
        var referenceID: String? { get }
        /// What paid.
        var sourceType: SourceType { get }
    }

    /// Square's `PaymentStatus`: the status of an ``OnlinePayment``.
    package enum PaymentStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Started; nothing done yet.
        case initialized
        /// Pending (added in 2.2.4; used for ACH).
        case pending
        /// Approved, not yet completed (delayed capture).
        case approved
        /// Completed (captured).
        case completed
        /// Canceled (voided).
        case canceled
        /// Failed (for a card, a decline).
        case failed
        /// Could not be verified.
        case unknown
    }

    /// Square's `SourceType`: what paid.
    package enum SourceType: String, Hashable, Sendable, Codable, CaseIterable {
        /// A bank account.
        case bankAccount
        /// A card.
        case card
        /// Cash.
        case cash
        /// An external tender.
        case external
        /// A Square account balance.
        case squareAccount
        /// A digital wallet.
        case wallet
        /// Unknown.
        case unknown
    }

    /// Square's `OnlinePayment` (a protocol refining `Payment` in the SDK; a value here).
    package struct OnlinePayment: Payment, Hashable, Codable {
        /// The Square payment id.
        package var id: String?
        /// The status.
        package var status: PaymentStatus
        /// The amount, excluding the tip (including a surcharge, if applied).
        package var amountMoney: Money
        /// The tip.
        package var tipMoney: Money?
        /// The developer's application fee.
        package var appFeeMoney: Money?
        /// When it was created.
        package var createdAt: Date
        /// When it last changed.
        package var updatedAt: Date
        /// The location.
        package var locationID: String?
        /// The order.
        package var orderID: String?
        /// Your external ID.
        package var referenceID: String?
        /// What paid.
        package var sourceType: SourceType
        /// The card details (card payments only).
        package var cardDetails: CardPaymentDetails?
        /// The customer.
        package var customerID: String?
        /// The note.
        package var note: String?
        /// The team member.
        package var teamMemberID: String?

        /// Creates an online payment.
        package init(id: String?, status: PaymentStatus, amountMoney: Money, tipMoney: Money? = nil,
                    appFeeMoney: Money? = nil, createdAt: Date, updatedAt: Date, locationID: String?,
                    orderID: String? = nil, referenceID: String?, sourceType: SourceType = .card,
                    cardDetails: CardPaymentDetails?, customerID: String? = nil, note: String? = nil,
                    teamMemberID: String? = nil) {
            self.id = id
            self.status = status
            self.amountMoney = amountMoney
            self.tipMoney = tipMoney
            self.appFeeMoney = appFeeMoney
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.locationID = locationID
            self.orderID = orderID
            self.referenceID = referenceID
            self.sourceType = sourceType
            self.cardDetails = cardDetails
            self.customerID = customerID
            self.note = note
            self.teamMemberID = teamMemberID
        }

        /// The amount plus the tip.
        package var totalMoney: Money { Money(totaling: amountMoney, tipMoney) }
    }
}

// MARK: - Cards

extension Square {
    /// Square's `CardPaymentStatus`: the card part of an online payment.
    package enum CardPaymentStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Authorized, not yet captured.
        case authorized
        /// Captured.
        case captured
        /// Voided.
        case voided
        /// Failed.
        case failed
        /// Unknown.
        case unknown
    }

    /// Square's `CardEntryMethod`.
    package enum CardEntryMethod: String, Hashable, Sendable, Codable, CaseIterable {
        /// Tapped.
        case contactless
        /// Chip inserted.
        case emv
        /// Typed in.
        case keyed
        /// Card on file.
        case onFile
        /// Magnetic stripe swiped.
        case swiped
        /// Unknown.
        case unknown
    }

    /// Square's `CardBrand` (15 cases).
    package enum CardBrand: String, Hashable, Sendable, Codable, CaseIterable {
        /// American Express.
        case americanExpress
        /// China UnionPay.
        case chinaUnionPay
        /// Discover.
        case discover
        /// Discover Diners.
        case discoverDiners
        /// EBT.
        case ebt
        /// eftpos.
        case eftpos
        /// FeliCa.
        case felica
        /// Interac (always fails offline).
        case interac
        /// JCB.
        case jcb
        /// Mastercard.
        case mastercard
        /// Another brand.
        case otherBrand
        /// Square Capital card.
        case squareCapitalCard
        /// Square Gift Card.
        case squareGiftCard
        /// Unknown.
        case unknown
        /// Visa.
        case visa
    }

    /// Square's `CardCoBrand`.
    package enum CardCoBrand: String, Hashable, Sendable, Codable, CaseIterable {
        /// Afterpay.
        case afterpay
        /// None.
        case none
        /// Unknown.
        case unknown
    }

    /// Square's `Card`, for an online payment. Holds the last four digits only (anything else is dropped): never a
    /// full number.
    package struct Card: Hashable, Sendable, Codable {
        /// Square's card id, if any.
        package var id: String?
        /// The brand.
        package var cardBrand: CardBrand
        /// The co-brand.
        package var coBrand: CardCoBrand
        /// The last four digits.
        package var last4: String?
        /// Expiry month.
        package var expMonth: UInt
        /// Expiry year.
        package var expYear: UInt
        /// The cardholder's name, if read.
        package var cardholderName: String?

        /// Creates a card description.
        package init(id: String? = nil, cardBrand: CardBrand, coBrand: CardCoBrand = .none, last4: String?,
                    expMonth: UInt, expYear: UInt, cardholderName: String? = nil) {
            self.id = id
            self.cardBrand = cardBrand
            self.coBrand = coBrand
            self.last4 = last4.flatMap(Square.lastFour)
            self.expMonth = expMonth
            self.expYear = expYear
            self.cardholderName = cardholderName
        }
    }

    /// Square's `CardSurchargeDetails`: the surcharge Square added to `amountMoney`.
    package struct CardSurchargeDetails: Hashable, Sendable, Codable {
        /// The surcharge.
        package var cardSurchargeMoney: Money
        /// Tax on the surcharge, if any.
        package var taxOnCardSurchargeMoney: Money?

        /// Creates surcharge details.
        package init(cardSurchargeMoney: Money, taxOnCardSurchargeMoney: Money? = nil) {
            self.cardSurchargeMoney = cardSurchargeMoney
            self.taxOnCardSurchargeMoney = taxOnCardSurchargeMoney
        }
    }

    /// Square's `CardPaymentDetails` (online).
    package struct CardPaymentDetails: Hashable, Sendable, Codable {
        /// The card part's status.
        package var status: CardPaymentStatus
        /// How the card was read.
        package var entryMethod: CardEntryMethod
        /// The card.
        package var card: Card?
        /// The authorization code.
        package var authResultCode: String?
        /// The EMV application identifier.
        package var applicationIdentifier: String?
        /// The EMV application name.
        package var applicationName: String?
        /// The surcharge Square applied, if any.
        package var appliedCardSurchargeDetails: CardSurchargeDetails?

        /// Creates card payment details.
        package init(status: CardPaymentStatus, entryMethod: CardEntryMethod, card: Card?,
                    authResultCode: String? = nil, applicationIdentifier: String? = nil,
                    applicationName: String? = nil, appliedCardSurchargeDetails: CardSurchargeDetails? = nil) {
            self.status = status
            self.entryMethod = entryMethod
            self.card = card
            self.authResultCode = authResultCode
            self.applicationIdentifier = applicationIdentifier
            self.applicationName = applicationName
            self.appliedCardSurchargeDetails = appliedCardSurchargeDetails
        }
    }
}
