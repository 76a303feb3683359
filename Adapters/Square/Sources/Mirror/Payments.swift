public import Foundation

// The payment objects the SDK hands to `PaymentManagerDelegate` and `OfflinePaymentQueue`. Each protocol's
// `@objc(SQMP…)` attribute is dropped; all refine `NSObjectProtocol`, as Square's do (`CardHandle` refines nothing and
// is class-bound via `AnyObject`). A backend builds them with the `package` classes in SurfaceObjectsPayments.swift.

/// Square's `Payment`: what every payment has. A delegate callback hands an ``OnlinePayment`` or an
/// ``OfflinePayment``; cast to read the rest.
public protocol Payment: NSObjectProtocol {
    /// The amount, excluding tip; it may include a card surcharge.
    var amountMoney: any MoneyAmount { get }
    /// The developer fee, if any.
    var appFeeMoney: (any MoneyAmount)? { get }
    /// Cash details, for a cash payment.
    var cashDetails: (any CashPaymentDetails)? { get }
    /// When the payment was created.
    var createdAt: Date { get }
    /// Square's payment ID; `nil` until an offline payment is uploaded.
    var id: String? { get }
    /// The location.
    var locationID: String? { get }
    /// The order.
    var orderID: String? { get }
    /// The app's reference.
    var referenceID: String? { get }
    /// What the payment was taken with.
    var sourceType: SourceType { get }
    /// The tip, if any.
    var tipMoney: (any MoneyAmount)? { get }
    /// Amount plus tip (plus a surcharge, if applied).
    var totalMoney: any MoneyAmount { get }
    /// When the payment was last updated.
    var updatedAt: Date { get }
}

/// Square's `OnlinePayment`: a payment processed online.
public protocol OnlinePayment: Payment {
    /// Card details, when the source type is card.
    var cardDetails: (any CardPaymentDetails)? { get }
    /// The customer.
    var customerID: String? { get }
    /// All of the payment's fields as a dictionary.
    var dictionaryRepresentation: [String: Any] { get }
    /// The note.
    var note: String? { get }
    /// The payment's status.
    var status: PaymentStatus { get }
    /// The team member.
    var teamMemberID: String? { get }
}

/// Square's `OfflinePayment`: a payment taken offline and stored on the device until uploaded.
public protocol OfflinePayment: Payment {
    /// Card details, when the card was accepted.
    var cardDetails: (any OfflineCardPaymentDetails)? { get }
    /// All of the payment's fields as a dictionary.
    var dictionaryRepresentation: [String: Any] { get }
    /// The device-local identifier, for the ``OfflinePaymentQueue`` only (not a Payments API ID).
    var localID: String { get }
    /// The payment's offline status.
    var status: OfflineStatus { get }
    /// When it was uploaded, if it was.
    var uploadedAt: Date? { get }
}

/// Square's `CardPaymentDetails`: the card part of an online payment.
public protocol CardPaymentDetails: NSObjectProtocol {
    /// For EMV payments, the application identifier.
    var applicationIdentifier: String? { get }
    /// For EMV payments, the application name.
    var applicationName: String? { get }
    /// The card surcharge applied, if any.
    var appliedCardSurchargeDetails: (any CardSurchargeDetails)? { get }
    /// The issuer's authorization result code.
    var authResultCode: String? { get }
    /// The card.
    var card: (any Card)? { get }
    /// All of the details as a dictionary.
    var dictionaryRepresentation: [String: Any] { get }
    /// How the card was read.
    var entryMethod: CardEntryMethod { get }
    /// The card payment's status.
    var status: CardPaymentStatus { get }
}

/// Square's `OfflineCardPaymentDetails`: the card part of an offline payment (no status, no authorization code).
public protocol OfflineCardPaymentDetails: NSObjectProtocol {
    /// For EMV payments, the application identifier.
    var applicationIdentifier: String? { get }
    /// For EMV payments, the application name.
    var applicationName: String? { get }
    /// The card.
    var card: (any OfflineCard)? { get }
    /// All of the details as a dictionary.
    var dictionaryRepresentation: [String: Any] { get }
    /// How the card was read.
    var entryMethod: CardEntryMethod { get }
}

/// Square's `Card`: a card's non-confidential details (online).
public protocol Card: NSObjectProtocol {
    /// The brand.
    var cardBrand: CardBrand { get }
    /// The cardholder's name.
    var cardholderName: String? { get }
    /// The co-brand.
    var coBrand: CardCoBrand { get }
    /// All of the details as a dictionary.
    var dictionaryRepresentation: [String: Any] { get }
    /// The expiry month.
    var expMonth: UInt { get }
    /// The expiry year.
    var expYear: UInt { get }
    /// Square's card ID.
    var id: String? { get }
    /// The last four digits.
    var last4: String? { get }
}

/// Square's `OfflineCard`: a card's non-confidential details (offline).
public protocol OfflineCard: NSObjectProtocol {
    /// The brand.
    var cardBrand: CardBrand { get }
    /// The cardholder's name.
    var cardholderName: String? { get }
    /// All of the details as a dictionary.
    var dictionaryRepresentation: [String: Any] { get }
    /// Square's card ID.
    var id: String? { get }
    /// The last four digits.
    var last4: String? { get }
}

/// Square's `CardSurchargeDetails`: a card surcharge applied to a payment.
public protocol CardSurchargeDetails: NSObjectProtocol {
    /// The surcharge.
    var cardSurchargeMoney: any MoneyAmount { get }
    /// All of the details as a dictionary.
    var dictionaryRepresentation: [String: Any] { get }
    /// Tax on the surcharge, if any.
    var taxOnCardSurchargeMoney: (any MoneyAmount)? { get }
}

/// Square's `CashPaymentDetails`: the cash part of a cash payment.
public protocol CashPaymentDetails: NSObjectProtocol {
    /// What the buyer handed over.
    var buyerSuppliedMoney: Money? { get }
    /// The change given back.
    var changeBackMoney: Money? { get }
    /// All of the details as a dictionary.
    var dictionaryRepresentation: [String: Any] { get }
}

/// Square's `CardHandle`: a swiped card stored for a later payment (`PaymentParameters.cardHandle`).
public protocol CardHandle: AnyObject {
    /// The brand.
    var brand: CardBrand { get }
    /// The cardholder's name.
    var cardholderName: String? { get }
    /// How the card was read.
    var entryMethod: CardEntryMethod { get }
    /// The handle's ID.
    var id: String { get }
    /// Whether the swiped card is still held for a payment.
    var isSwipedCardStored: Bool { get }
    /// The last four digits.
    var last4: String? { get }
}
