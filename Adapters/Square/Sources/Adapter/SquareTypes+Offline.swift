package import Foundation

extension Square {
    /// Square's `OfflineStatus` (the brief's "OfflinePaymentStatus"): where an ``OfflinePayment`` stands.
    package enum OfflineStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Held on the device, waiting for upload.
        case queued
        /// Uploaded to Square; "funds are now secured". Not yet processed.
        case uploaded
        /// The upload failed with an unrecoverable error.
        case failedToUpload
        /// Square's processing failed (for example a decline). Cannot be recovered.
        case failedToProcess
        /// Processed; has a Square payment `id`. The SDK deletes processed payments from the device afterwards.
        case processed
        /// Could not be verified.
        case unknown
    }

    /// Square's `OfflineCard`: what is known of the card of an offline payment (no expiry, no co-brand).
    package struct OfflineCard: Hashable, Sendable, Codable {
        /// Square's card id, if any.
        package var id: String?
        /// The brand.
        package var cardBrand: CardBrand
        /// The last four digits.
        package var last4: String?
        /// The cardholder's name, if read.
        package var cardholderName: String?

        /// Creates an offline card description.
        package init(id: String? = nil, cardBrand: CardBrand, last4: String?, cardholderName: String? = nil) {
            self.id = id
            self.cardBrand = cardBrand
            self.last4 = last4.flatMap(Square.lastFour)
            self.cardholderName = cardholderName
        }
    }

    /// Square's `OfflineCardPaymentDetails`: no status and no authorization code.
    package struct OfflineCardPaymentDetails: Hashable, Sendable, Codable {
        /// How the card was read.
        package var entryMethod: CardEntryMethod
        /// The card.
        package var card: OfflineCard?
        /// The EMV application identifier.
        package var applicationIdentifier: String?
        /// The EMV application name.
        package var applicationName: String?

        /// Creates offline card payment details.
        package init(entryMethod: CardEntryMethod, card: OfflineCard?, applicationIdentifier: String? = nil,
                    applicationName: String? = nil) {
            self.entryMethod = entryMethod
            self.card = card
            self.applicationIdentifier = applicationIdentifier
            self.applicationName = applicationName
        }
    }

    /// Square's `OfflinePayment` (a protocol refining `Payment` in the SDK; a value here): a payment taken offline,
    /// known on the device by ``localID`` until Square processes it and gives it an ``id``.
    package struct OfflinePayment: Payment, Hashable, Codable {
        /// The device-local id (a random UUID made on the device; "not from v2/payments").
        package var localID: String
        /// The Square payment id, `nil` until processed.
        package var id: String?
        /// Where it stands.
        package var status: OfflineStatus
        /// The amount, excluding the tip (never surcharged offline).
        package var amountMoney: Money
        /// The tip.
        package var tipMoney: Money?
        /// The developer's application fee.
        package var appFeeMoney: Money?
        /// When the card was taken, on the device's clock: Tender's stored time.
        package var createdAt: Date
        /// When it last changed.
        package var updatedAt: Date
        /// When it was uploaded.
        package var uploadedAt: Date?
        /// The location.
        package var locationID: String?
        /// The order.
        package var orderID: String?
        /// Your external ID.
        package var referenceID: String?
        /// What paid.
        package var sourceType: SourceType
        /// The card details, if the card was accepted.
        package var cardDetails: OfflineCardPaymentDetails?

        /// Creates an offline payment.
        package init(localID: String, id: String? = nil, status: OfflineStatus, amountMoney: Money,
                    tipMoney: Money? = nil, appFeeMoney: Money? = nil, createdAt: Date, updatedAt: Date,
                    uploadedAt: Date? = nil, locationID: String?, orderID: String? = nil, referenceID: String?,
                    sourceType: SourceType = .card, cardDetails: OfflineCardPaymentDetails?) {
            self.localID = localID
            self.id = id
            self.status = status
            self.amountMoney = amountMoney
            self.tipMoney = tipMoney
            self.appFeeMoney = appFeeMoney
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.uploadedAt = uploadedAt
            self.locationID = locationID
            self.orderID = orderID
            self.referenceID = referenceID
            self.sourceType = sourceType
            self.cardDetails = cardDetails
        }

        /// The amount plus the tip.
        package var totalMoney: Money { Money(totaling: amountMoney, tipMoney) }
    }
}
