import Foundation
public import Tender

/// The app's server-side view of Stripe's PaymentIntents API, for recovery and for abandoned payments: the SDK
/// keeps no listing of the intents it handed out, so after a timeout, a relaunch or a crash the intent of an
/// earlier attempt is found on the server — by id when the adapter recorded one, otherwise by Tender's reference
/// in its metadata.
///
/// Stripe documents Search as eventually consistent: a new or updated intent can take about a minute to appear.
/// An empty search is therefore "not seen yet", never "never created"; retrieving by id is consistent.
///
/// ``StripeRESTServerLookup`` implements it over any `StripeRESTLookup` (TenderWire): `TenderServer`'s Stripe client, or
/// the app's own call to its server answering with Stripe's REST objects. ``StripeSimulator``'s server implements it
/// in tests.
package protocol StripeServerLookup: Sendable {
    /// `GET /v1/payment_intents/search?query=metadata['key']:'value'`: the intents whose `metadata[key] == value`,
    /// oldest first, as Stripe's search index has them now.
    /// - Throws: when the server cannot be reached (the adapter then answers "unknown").
    func paymentIntents(metadataKey key: String, value: String) async throws -> [Stripe.PaymentIntent]

    /// `GET /v1/payment_intents/:id`: the intent, or `nil` when Stripe has no intent with this id.
    /// - Throws: when the server cannot be reached.
    func paymentIntent(id: String) async throws -> Stripe.PaymentIntent?

    /// `POST /v1/payment_intents/:id/cancel`: cancels an intent that is not captured or canceled yet (an abandoned
    /// attempt's intent, so nothing is left that could still charge). Returns the intent as Stripe now has it.
    /// - Throws: when the server cannot be reached or Stripe refuses (an intent that already succeeded).
    func cancelPaymentIntent(id: String) async throws -> Stripe.PaymentIntent
}

/// ``StripeServerLookup`` over Stripe's REST objects (`StripeRESTLookup`, from TenderWire): `TenderServer`'s
/// `StripeServerClient` on a server, or, on the device, the app's call to its own server answering with the
/// intents it read from Stripe. Each REST intent becomes the adapter's SDK-shaped ``Stripe/PaymentIntent``.
public struct StripeRESTServerLookup: StripeServerLookup {
    /// `"stripe"`.
    static let processor = "stripe"
    let rest: any StripeRESTLookup

    /// Wraps a REST lookup.
    public init(_ rest: any StripeRESTLookup) { self.rest = rest }

    /// The intents carrying `metadata[key] == value`, oldest first, converted. Empty when nothing was found, which
    /// (Search being eventually consistent) is "not seen yet", never "never created".
    package func paymentIntents(metadataKey key: String, value: String) async throws -> [Stripe.PaymentIntent] {
        var converted: [Stripe.PaymentIntent] = []
        for intent in try await rest.findPaymentIntents(metadataKey: key, value: value).intents {
            converted.append(try Self.paymentIntent(intent))
        }
        return converted
    }

    /// The intent by id, converted, or nil when Stripe has none with this id.
    package func paymentIntent(id: String) async throws -> Stripe.PaymentIntent? {
        guard let intent = try await rest.retrievePaymentIntent(id: id) else { return nil }
        return try Self.paymentIntent(intent)
    }

    /// Cancels an abandoned attempt's intent; one already canceled is returned as it is.
    package func cancelPaymentIntent(id: String) async throws -> Stripe.PaymentIntent {
        try Self.paymentIntent(try await rest.cancelAbandonedPaymentIntent(id: id))
    }
}

/// REST PaymentIntents as the adapter's SDK-shaped ``Stripe/PaymentIntent``. Kept apart from the REST models, which
/// mirror the API as it is.
extension StripeRESTServerLookup {
    /// The adapter's value for a REST intent.
    ///
    /// - `sdkHandle` is nil: a server copy has no SDK object (the adapter retrieves one through the SDK when it must
    ///   continue the payment).
    /// - `charges` holds the latest charge when it was expanded (TenderServer always asks), with its card-present
    ///   details; when only its id is known and the intent reports a payment error on it, a failed charge with that
    ///   id. The payment error itself (type, code, decline code, charge) is `lastPaymentError`.
    /// - `offlineDetails` is set only when the charge's `card_present.offline` is present (API versions after
    ///   2023-08-16 report it); `requiresUpload` is false for any server copy: Stripe has it.
    /// - Throws: ``Tender/PaymentError/Code/unrecognizedVendorError`` for a status the SDK type cannot hold (a status
    ///   Stripe added later): never a guess.
    package static func paymentIntent(_ intent: StripeAPI.PaymentIntent) throws(PaymentError) -> Stripe.PaymentIntent {
        guard let status = paymentIntentStatus(intent.status) else {
            throw PaymentError(.unrecognizedVendorError, recovery: .retrySamePayment, phase: .reconciliation,
                               message: "Stripe reports PaymentIntent \(intent.id) as \(intent.status), a status Tender does not know.",
                               vendor: .init(processor: Self.processor, name: "payment_intent.status.\(intent.status)"))
        }
        guard intent.amount >= 0 else {
            throw PaymentError(.invalidAmount, recovery: .none, phase: .reconciliation,
                               message: "Stripe reports a negative amount for \(intent.id).",
                               vendor: .init(processor: Self.processor, name: "payment_intent.amount"))
        }
        var charges: [Stripe.Charge] = []
        var card: Stripe.CardPresentDetails?
        var offline: Stripe.OfflineDetails?
        switch intent.latestCharge {
        case .object(let charge):
            if let present = charge.paymentMethodDetails?.cardPresent {
                card = cardPresentDetails(present)
                if let offlineInfo = present.offline {
                    offline = Stripe.OfflineDetails(storedAt: offlineInfo.storedAt.map(date), requiresUpload: false,
                                                    cardPresentDetails: card)
                }
            }
            charges = [Stripe.Charge(stripeId: charge.id, amount: UInt(max(0, charge.amount)), currency: charge.currency,
                                     status: chargeStatus(charge.status), captured: charge.captured,
                                     amountRefunded: UInt(max(0, charge.amountRefunded ?? 0)),
                                     cardPresentDetails: card)]
        case .id(let id):
            if let error = intent.lastPaymentError, error.charge == id, status == .requiresPaymentMethod {
                charges = [Stripe.Charge(stripeId: id, amount: UInt(intent.amount), currency: intent.currency,
                                         status: .failed)]
            }
        case nil:
            break
        }
        let paymentError = intent.lastPaymentError.map {
            Stripe.ApiError(type: $0.type, code: $0.code, message: $0.message,
                            declineCode: $0.declineCode ?? (status == .requiresPaymentMethod ? $0.code : nil),
                            charge: $0.charge)
        }
        return Stripe.PaymentIntent(
            sdkHandle: nil, stripeId: intent.id, status: status, amount: UInt(intent.amount),
            currency: intent.currency, captureMethod: intent.captureMethod == "manual" ? .manual : .automatic,
            created: date(intent.created), metadata: intent.metadata, offlineDetails: offline, charges: charges,
            clientSecret: intent.clientSecret, amountDetailsTip: intent.amountDetails?.tip?.amount.map { UInt(max(0, $0)) },
            amountCapturable: intent.amountCapturable.map { UInt(max(0, $0)) }, lastPaymentError: paymentError,
            canceledAt: intent.canceledAt.map(date), cancellationReason: intent.cancellationReason,
            amountReceived: intent.amountReceived.map { UInt(max(0, $0)) })
    }

    /// The SDK status of a REST status, by name; nil for one the SDK type does not have.
    package static func paymentIntentStatus(_ status: String) -> Stripe.PaymentIntentStatus? {
        switch status {
        case "requires_payment_method": .requiresPaymentMethod
        case "requires_confirmation": .requiresConfirmation
        case "requires_action": .requiresAction
        case "processing": .processing
        case "requires_capture": .requiresCapture
        case "canceled": .canceled
        case "succeeded": .succeeded
        case "requires_reauthorization": .requiresReauthorization
        default: nil
        }
    }

    /// The SDK charge status; an unknown one is pending (not final).
    static func chargeStatus(_ status: String) -> Stripe.ChargeStatus {
        switch status {
        case "succeeded": .succeeded
        case "failed": .failed
        default: .pending
        }
    }

    /// Card-present details for a receipt (never a card number: the REST object has none).
    static func cardPresentDetails(_ card: StripeAPI.CardPresent) -> Stripe.CardPresentDetails {
        let brand: Stripe.CardBrand = switch card.brand {
        case "visa": .visa
        case "amex": .amex
        case "mastercard": .masterCard
        case "discover": .discover
        case "jcb": .JCB
        case "diners": .dinersClub
        case "interac": .interac
        case "unionpay": .unionPay
        case "eftpos_au": .eftposAu
        case "cartes_bancaires": .cartesBancaires
        case "girocard": .girocard
        default: .unknown
        }
        let readMethod: Stripe.ReadMethod = switch card.readMethod {
        case "contact_emv": .contactEMV
        case "contactless_emv": .contactlessEMV
        case "magnetic_stripe_fallback": .magneticStripeFallback
        case "magnetic_stripe_track2": .magneticStripeTrack2
        case "contactless_magstripe_mode": .contactlessMagstripeMode
        default: .unknown
        }
        let receipt = card.receipt.map {
            Stripe.ReceiptDetails(accountType: $0.accountType, applicationPreferredName: $0.applicationPreferredName,
                                  dedicatedFileName: $0.dedicatedFileName, authorizationCode: $0.authorizationCode,
                                  authorizationResponseCode: $0.authorizationResponseCode,
                                  applicationCryptogram: $0.applicationCryptogram,
                                  terminalVerificationResults: $0.terminalVerificationResults,
                                  transactionStatusInformation: $0.transactionStatusInformation,
                                  cardholderVerificationMethod: $0.cardholderVerificationMethod)
        }
        return Stripe.CardPresentDetails(brand: brand, last4: card.last4, expMonth: card.expMonth ?? 0,
                                         expYear: card.expYear ?? 0, readMethod: readMethod,
                                         cardholderName: card.cardholderName, receiptDetails: receipt)
    }

    static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}
