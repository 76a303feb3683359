import Foundation

extension Square {
    /// Square's `OfflineStatus` (the brief's "OfflinePaymentStatus"): where an ``OfflinePayment`` stands.
    public enum OfflineStatus: String, Hashable, Sendable, Codable, CaseIterable {
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
    public struct OfflineCard: Hashable, Sendable, Codable {
        /// Square's card id, if any.
        public var id: String?
        /// The brand.
        public var cardBrand: CardBrand
        /// The last four digits.
        public var last4: String?
        /// The cardholder's name, if read.
        public var cardholderName: String?

        /// Creates an offline card description.
        public init(id: String? = nil, cardBrand: CardBrand, last4: String?, cardholderName: String? = nil) {
            self.id = id
            self.cardBrand = cardBrand
            self.last4 = last4.flatMap(Square.lastFour)
            self.cardholderName = cardholderName
        }
    }

    /// Square's `OfflineCardPaymentDetails`: no status and no authorization code.
    public struct OfflineCardPaymentDetails: Hashable, Sendable, Codable {
        /// How the card was read.
        public var entryMethod: CardEntryMethod
        /// The card.
        public var card: OfflineCard?
        /// The EMV application identifier.
        public var applicationIdentifier: String?
        /// The EMV application name.
        public var applicationName: String?

        /// Creates offline card payment details.
        public init(entryMethod: CardEntryMethod, card: OfflineCard?, applicationIdentifier: String? = nil,
                    applicationName: String? = nil) {
            self.entryMethod = entryMethod
            self.card = card
            self.applicationIdentifier = applicationIdentifier
            self.applicationName = applicationName
        }
    }

    /// Square's `OfflinePayment` (a protocol refining `Payment` in the SDK; a value here): a payment taken offline,
    /// known on the device by ``localID`` until Square processes it and gives it an ``id``.
    public struct OfflinePayment: Payment, Hashable, Codable {
        /// The device-local id (a random UUID made on the device; "not from v2/payments").
        public var localID: String
        /// The Square payment id, `nil` until processed.
        public var id: String?
        /// Where it stands.
        public var status: OfflineStatus
        /// The amount, excluding the tip (never surcharged offline).
        public var amountMoney: Money
        /// The tip.
        public var tipMoney: Money?
        /// The developer's application fee.
        public var appFeeMoney: Money?
        /// When the card was taken, on the device's clock: Tender's stored time.
        public var createdAt: Date
        /// When it last changed.
        public var updatedAt: Date
        /// When it was uploaded.
        public var uploadedAt: Date?
        /// The location.
        public var locationID: String?
        /// The order.
        public var orderID: String?
        /// Your external ID.
        public var referenceID: String?
        /// What paid.
        public var sourceType: SourceType
        /// The card details, if the card was accepted.
        public var cardDetails: OfflineCardPaymentDetails?

        /// Creates an offline payment.
        public init(localID: String, id: String? = nil, status: OfflineStatus, amountMoney: Money,
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
        public var totalMoney: Money { Money(totaling: amountMoney, tipMoney) }
    }
}
