import Foundation
import Tender
import TenderStripe

/// REST PaymentIntents as the adapter's SDK-shaped ``TenderStripe/Stripe/PaymentIntent``: what
/// ``TenderStripe/StripeServerLookup`` returns. Kept apart from the REST models, which mirror the API as it is.
extension StripeServerClient {
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
    package static func sdkPaymentIntent(_ intent: StripeAPI.PaymentIntent) throws(PaymentError) -> Stripe.PaymentIntent {
        guard let status = paymentIntentStatus(intent.status) else {
            throw PaymentError(.unrecognizedVendorError, recovery: .retrySamePayment, phase: .reconciliation,
                               message: "Stripe reports PaymentIntent \(intent.id) as \(intent.status), a status Tender does not know.",
                               vendor: .init(processor: processor, name: "payment_intent.status.\(intent.status)"))
        }
        guard intent.amount >= 0 else {
            throw PaymentError(.invalidAmount, recovery: .none, phase: .reconciliation,
                               message: "Stripe reports a negative amount for \(intent.id).",
                               vendor: .init(processor: processor, name: "payment_intent.amount"))
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
            clientSecret: intent.clientSecret, amountTip: intent.amountDetails?.tip?.amount.map { UInt(max(0, $0)) },
            amountCapturable: intent.amountCapturable.map { UInt(max(0, $0)) }, lastPaymentError: paymentError,
            canceledAt: intent.canceledAt.map(date), cancellationReason: intent.cancellationReason)
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
