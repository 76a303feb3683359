package import Foundation
public import Tender

/// The app's server-side view of Square's Payments API, for recovery and abandonment: the SDK only says whether it
/// stored an idempotency key for an attempt (`getIdempotencyKey(withPaymentAttemptId:)`); what Square holds is found on
/// the server. Optional: without it, unknown outcomes stay unknown and the core keeps the session for
/// reconciliation, never charging again.
///
/// ``SquareRESTServerLookup`` implements it over any `SquareRESTLookup` (TenderWire): `TenderServer`'s Square client,
/// or the app's own call to its server answering with Square's REST objects. ``SquareSimulator``'s server implements
/// it in tests.
package protocol SquareServerLookup: Sendable {
    /// `ListPayments` at `locationID`, keeping the payments whose `reference_id` is `referenceID`, oldest first.
    /// `ListPayments` cannot filter by reference (the match is made client-side, page by page), and Square says its
    /// results "are eventually consistent, and new payments or changes to payments might take several seconds to
    /// appear": an empty answer does not prove that no payment exists.
    /// - Throws: when the server cannot be reached (the adapter then answers "unknown").
    func payments(referenceID: String, locationID: String) async throws -> [Square.APIPayment]

    /// `GetPayment`: the payment with this id, or `nil` when Square answers `NOT_FOUND`. Read by id, it is not
    /// subject to the search's lag (Square documents the lag for `ListPayments` only; unverified for `GetPayment`).
    /// - Throws: when the server cannot be reached.
    func payment(id: String) async throws -> Square.APIPayment?

    /// `CancelPaymentByIdempotencyKey` (`POST /v2/payments/cancel`): voids the payment created with this key if
    /// there is one; "if no payment with the specified idempotency key is found, no action is taken and the endpoint
    /// returns successfully". Square's answer for an unknown `CreatePayment` outcome (reference §5).
    /// - Throws: when the server cannot be reached, or when Square refuses (a payment that is already completed
    ///   cannot be voided).
    func cancelPayment(byIdempotencyKey key: String) async throws
}

extension Square {
    /// A `Payment` object of Square's Payments API (`v2/payments`), as the app's server reads it: what the SDK's
    /// ``OnlinePayment`` shows plus the server-only fields recovery needs (the delay, the offline details, refunds).
    package struct APIPayment: Hashable, Sendable, Codable {
        /// The Square payment id.
        package var id: String
        /// `APPROVED`, `PENDING`, `COMPLETED`, `CANCELED` or `FAILED` (the SDK's ``PaymentStatus`` cases of the
        /// same names).
        package var status: PaymentStatus
        /// The amount, excluding the tip (including a surcharge, if applied).
        package var amountMoney: Money
        /// The tip.
        package var tipMoney: Money?
        /// What has been refunded so far (`refunded_money`).
        package var refundedMoney: Money?
        /// `created_at`, Square's clock (for an offline payment: when Square processed it).
        package var createdAt: Date
        /// `updated_at`.
        package var updatedAt: Date
        /// `location_id`.
        package var locationID: String?
        /// `reference_id`: Tender's reference.
        package var referenceID: String?
        /// `note`.
        package var note: String?
        /// `card_details`.
        package var cardDetails: CardPaymentDetails?
        /// `delay_action`, for a delayed-capture payment.
        package var delayAction: DelayAction?
        /// `delayed_until`: when Square applies the delay action (`created_at` + `delay_duration`).
        package var delayedUntil: Date?
        /// `is_offline_payment`.
        package var isOfflinePayment: Bool
        /// `offline_payment_details.client_created_at`: when the device took an offline payment.
        package var offlineClientCreatedAt: Date?

        /// Creates a payment.
        package init(id: String, status: PaymentStatus, amountMoney: Money, tipMoney: Money? = nil,
                    refundedMoney: Money? = nil, createdAt: Date, updatedAt: Date, locationID: String?,
                    referenceID: String?, note: String? = nil, cardDetails: CardPaymentDetails?,
                    delayAction: DelayAction? = nil, delayedUntil: Date? = nil, isOfflinePayment: Bool = false,
                    offlineClientCreatedAt: Date? = nil) {
            self.id = id
            self.status = status
            self.amountMoney = amountMoney
            self.tipMoney = tipMoney
            self.refundedMoney = refundedMoney
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.locationID = locationID
            self.referenceID = referenceID
            self.note = note
            self.cardDetails = cardDetails
            self.delayAction = delayAction
            self.delayedUntil = delayedUntil
            self.isOfflinePayment = isOfflinePayment
            self.offlineClientCreatedAt = offlineClientCreatedAt
        }

        /// `total_money`: the amount plus the tip.
        package var totalMoney: Money { Money(totaling: amountMoney, tipMoney) }

        /// Money was taken, or is held for capture.
        package var isCharge: Bool { status == .approved || status == .completed }
    }

    /// `PaymentRefund.status` of Square's Refunds API.
    package enum PaymentRefundStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// `PENDING`: awaiting approval.
        case pending
        /// `COMPLETED`: refunded.
        case completed
        /// `REJECTED`: the refund was rejected.
        case rejected
        /// `FAILED`: an error occurred.
        case failed
    }
}

/// ``SquareServerLookup`` over Square's REST objects (`SquareRESTLookup`, from TenderWire): `TenderServer`'s
/// `SquareServerClient` on a server, or, on the device, the app's call to its own server answering with the payments
/// it read from Square. Each REST payment becomes the adapter's ``Square/APIPayment``.
public struct SquareRESTServerLookup: SquareServerLookup {
    let rest: any SquareRESTLookup

    /// Wraps a REST lookup.
    public init(_ rest: any SquareRESTLookup) { self.rest = rest }

    /// The payments with this `reference_id` at the location, online and offline, oldest first, converted.
    package func payments(referenceID: String, locationID: String) async throws -> [Square.APIPayment] {
        try await rest.payments(referenceID: referenceID, locationID: locationID).map(Self.apiPayment)
    }

    /// `GetPayment`, converted; `nil` when Square answers `NOT_FOUND`.
    package func payment(id: String) async throws -> Square.APIPayment? {
        try await rest.getPayment(id: id).map(Self.apiPayment)
    }

    /// `CancelPaymentByIdempotencyKey`.
    package func cancelPayment(byIdempotencyKey key: String) async throws {
        try await rest.cancelPayment(idempotencyKey: key)
    }
}

/// REST payments as the adapter's SDK-shaped ``Square/OnlinePayment`` and ``Square/APIPayment``. Values are mapped by
/// name; one the SDK type lacks becomes its `unknown` case, never a guess.
extension SquareRESTServerLookup {
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

    /// A Square time, with or without fractional seconds.
    static func date(_ text: String?) -> Date? { SquareAPI.date(text) }
}
