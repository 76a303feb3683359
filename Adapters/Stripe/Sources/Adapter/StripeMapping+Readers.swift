package import Foundation
package import Tender

// MARK: - Readers and cards

extension StripeMapping {
    /// `ReaderDisplayMessage`.
    package static func displayMessage(_ message: Stripe.ReaderDisplayMessage) -> ReaderDisplayMessage {
        switch message {
        case .retryCard: .retryCard
        case .insertCard: .insertCard
        case .insertOrSwipeCard: .insertOrSwipeCard
        case .swipeCard: .swipeCard
        case .removeCard: .removeCard
        case .multipleContactlessCardsDetected: .multipleContactlessCardsDetected
        case .tryAnotherReadMethod: .tryAnotherReadMethod
        case .tryAnotherCard: .tryAnotherCard
        case .cardRemovedTooEarly: .cardRemovedTooEarly
        }
    }

    /// `ReaderEvent`, shown as a message.
    package static func displayMessage(_ event: Stripe.ReaderEvent) -> ReaderDisplayMessage {
        switch event {
        case .cardInserted: .cardInserted
        case .cardRemoved: .cardRemoved
        }
    }

    /// `ReaderInputOptions`, option by option.
    package static func inputOptions(_ options: Stripe.ReaderInputOptions) -> ReaderInputOptions {
        var result: ReaderInputOptions = []
        if options.contains(.swipeCard) { result.insert(.swipe) }
        if options.contains(.insertCard) { result.insert(.insert) }
        if options.contains(.tapCard) { result.insert(.tap) }
        return result
    }

    /// `DisconnectReason`.
    package static func disconnectReason(_ reason: Stripe.DisconnectReason) -> ReaderDisconnectReason {
        switch reason {
        case .unknown: .unknown
        case .disconnectRequested: .requested
        case .rebootRequested, .securityReboot: .rebooted
        case .criticallyLowBattery: .batteryLow
        case .poweredOff, .idlePowerDown: .poweredOff
        case .bluetoothDisabled, .usbDisconnected, .bluetoothSignalLost: .linkLost
        case .peerRemovedPairingInformation: .pairingRemoved
        }
    }

    /// `CardBrand`.
    package static func cardBrand(_ brand: Stripe.CardBrand) -> CardBrand {
        switch brand {
        case .visa: .visa
        case .amex: .amex
        case .masterCard: .mastercard
        case .discover: .discover
        case .JCB: .jcb
        case .dinersClub: .dinersClub
        case .interac: .interac
        case .unionPay: .unionPay
        case .eftposAu: .eftpos
        case .cartesBancaires: .cartesBancaires
        case .girocard: .girocard
        case .unknown: .unknown
        }
    }

    /// `ReadMethod`.
    package static func entryMethod(_ method: Stripe.ReadMethod) -> CardEntryMethod {
        switch method {
        case .unknown: .unknown
        case .contactEMV: .chip
        case .contactlessEMV: .contactless
        case .magneticStripeFallback: .swipedFallback
        case .magneticStripeTrack2: .swiped
        case .contactlessMagstripeMode: .contactlessMagstripe
        }
    }

    /// Receipt details from card-present details (online) or offline card-present details. Fields Stripe cannot
    /// supply offline (`accountType`, `authorizationResponseCode`) stay absent.
    package static func cardDetails(_ details: Stripe.CardPresentDetails) -> CardDetails {
        CardDetails(brand: cardBrand(details.brand), last4: details.last4, entryMethod: entryMethod(details.readMethod),
                    applicationName: details.receiptDetails?.applicationPreferredName,
                    applicationIdentifier: details.receiptDetails?.dedicatedFileName,
                    authorizationCode: details.receiptDetails?.authorizationCode,
                    expiryMonth: details.expMonth, expiryYear: details.expYear)
    }

    /// The receipt details of an intent: the authorizing charge's card-present details when Stripe has them, else
    /// the offline card-present details.
    package static func cardDetails(_ intent: Stripe.PaymentIntent) -> CardDetails? {
        (intent.authorizedCharge?.cardPresentDetails ?? intent.offlineDetails?.cardPresentDetails
            ?? intent.charges.last?.cardPresentDetails).map(cardDetails)
    }

    /// A Stripe reader as Tender's ``Reader`` (the serial number is the id), with its kind and features by model and,
    /// given `now`, the update it reports.
    package static func reader(_ reader: Stripe.Reader, now: Date? = nil) -> Reader {
        var mapped = Reader(id: reader.serialNumber, serialNumber: reader.serialNumber, model: reader.deviceType.rawValue,
               kind: reader.deviceType.kind, features: reader.deviceType.features, softwareVersion: reader.deviceSoftwareVersion, batteryLevel: reader.batteryLevel.map(Double.init),
               isCharging: reader.isCharging, locationID: reader.locationId, isSimulated: reader.simulated)
        mapped.availableUpdate = now.flatMap { now in reader.availableUpdate.map { softwareUpdate($0, now: now) } }
        return mapped
    }

    /// A Stripe cart from Tender's (Stripe's cart carries its own total).
    package static func cart(_ cart: ReaderCart) throws(PaymentError) -> Stripe.Cart {
        let total = try cart.total()
        return Stripe.Cart(currency: cart.tax.currency.code.lowercased(), tax: Int(cart.tax.minorUnits),
                           total: Int(total.minorUnits),
                           lineItems: cart.lineItems.map {
                               Stripe.CartLineItem(displayName: $0.description, quantity: $0.quantity,
                                                   amount: Int($0.amount.minorUnits))
                           })
    }

    /// A Stripe software update as Tender's, required when `requiredAt` is not after `now`.
    package static func softwareUpdate(_ update: Stripe.ReaderSoftwareUpdate, now: Date) -> ReaderSoftwareUpdate {
        ReaderSoftwareUpdate(version: update.deviceSoftwareVersion, isRequired: update.requiredAt <= now,
                             requiredAt: update.requiredAt.timeIntervalSince1970,
                             estimatedSeconds: estimatedSeconds(update.durationEstimate))
    }

    /// The upper bound of an update's duration estimate, in seconds.
    package static func estimatedSeconds(_ estimate: Stripe.UpdateTimeEstimate) -> Double {
        switch estimate {
        case .estimateLessThan1Minute: 60
        case .estimate1To2Minutes: 120
        case .estimate2To5Minutes: 300
        case .estimate5To15Minutes: 900
        }
    }
}
