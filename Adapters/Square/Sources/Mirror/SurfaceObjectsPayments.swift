package import Foundation

// `package` classes a backend uses to hand out the payment objects the SDK builds (see SurfaceBackend.swift). Each is
// a plain snapshot: stored values in, the Square protocol's members out. Not public, so not part of the surface.

/// The fields every ``Payment`` has, grouped so the payment classes share one initializer argument.
package struct SurfacePaymentFields {
    /// `Payment.id`.
    package var id: String?
    /// `Payment.createdAt`.
    package var createdAt: Date
    /// `Payment.updatedAt`.
    package var updatedAt: Date
    /// `Payment.amountMoney`.
    package var amountMoney: any MoneyAmount
    /// `Payment.tipMoney`.
    package var tipMoney: (any MoneyAmount)?
    /// `Payment.appFeeMoney`.
    package var appFeeMoney: (any MoneyAmount)?
    /// `Payment.totalMoney`.
    package var totalMoney: any MoneyAmount
    /// `Payment.locationID`.
    package var locationID: String?
    /// `Payment.orderID`.
    package var orderID: String?
    /// `Payment.referenceID`.
    package var referenceID: String?
    /// `Payment.sourceType`.
    package var sourceType: SourceType
    /// `Payment.cashDetails`.
    package var cashDetails: (any CashPaymentDetails)?

    /// Every field; the optional ones default to `nil`.
    package init(
        id: String?, createdAt: Date, updatedAt: Date, amountMoney: any MoneyAmount,
        tipMoney: (any MoneyAmount)? = nil, appFeeMoney: (any MoneyAmount)? = nil, totalMoney: any MoneyAmount,
        locationID: String? = nil, orderID: String? = nil, referenceID: String? = nil, sourceType: SourceType,
        cashDetails: (any CashPaymentDetails)? = nil
    ) {
        self.id = id
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.amountMoney = amountMoney
        self.tipMoney = tipMoney
        self.appFeeMoney = appFeeMoney
        self.totalMoney = totalMoney
        self.locationID = locationID
        self.orderID = orderID
        self.referenceID = referenceID
        self.sourceType = sourceType
        self.cashDetails = cashDetails
    }
}

/// An ``OnlinePayment`` snapshot.
package final class SurfaceOnlinePayment: NSObject, OnlinePayment {
    /// The common payment fields.
    package let fields: SurfacePaymentFields
    package let status: PaymentStatus
    package let cardDetails: (any CardPaymentDetails)?
    package let customerID: String?
    package let note: String?
    package let teamMemberID: String?
    package let dictionaryRepresentation: [String: Any]

    /// A snapshot of an online payment.
    package init(
        _ fields: SurfacePaymentFields, status: PaymentStatus, cardDetails: (any CardPaymentDetails)? = nil,
        customerID: String? = nil, note: String? = nil, teamMemberID: String? = nil,
        dictionaryRepresentation: [String: Any] = [:]
    ) {
        self.fields = fields
        self.status = status
        self.cardDetails = cardDetails
        self.customerID = customerID
        self.note = note
        self.teamMemberID = teamMemberID
        self.dictionaryRepresentation = dictionaryRepresentation
        super.init()
    }

    package var amountMoney: any MoneyAmount { fields.amountMoney }
    package var appFeeMoney: (any MoneyAmount)? { fields.appFeeMoney }
    package var cashDetails: (any CashPaymentDetails)? { fields.cashDetails }
    package var createdAt: Date { fields.createdAt }
    package var id: String? { fields.id }
    package var locationID: String? { fields.locationID }
    package var orderID: String? { fields.orderID }
    package var referenceID: String? { fields.referenceID }
    package var sourceType: SourceType { fields.sourceType }
    package var tipMoney: (any MoneyAmount)? { fields.tipMoney }
    package var totalMoney: any MoneyAmount { fields.totalMoney }
    package var updatedAt: Date { fields.updatedAt }
}

/// An ``OfflinePayment`` snapshot.
package final class SurfaceOfflinePayment: NSObject, OfflinePayment {
    /// The common payment fields (`id` is `nil` until uploaded).
    package let fields: SurfacePaymentFields
    package let localID: String
    package let status: OfflineStatus
    package let uploadedAt: Date?
    package let cardDetails: (any OfflineCardPaymentDetails)?
    package let dictionaryRepresentation: [String: Any]

    /// A snapshot of an offline payment.
    package init(
        _ fields: SurfacePaymentFields, localID: String, status: OfflineStatus, uploadedAt: Date? = nil,
        cardDetails: (any OfflineCardPaymentDetails)? = nil, dictionaryRepresentation: [String: Any] = [:]
    ) {
        self.fields = fields
        self.localID = localID
        self.status = status
        self.uploadedAt = uploadedAt
        self.cardDetails = cardDetails
        self.dictionaryRepresentation = dictionaryRepresentation
        super.init()
    }

    package var amountMoney: any MoneyAmount { fields.amountMoney }
    package var appFeeMoney: (any MoneyAmount)? { fields.appFeeMoney }
    package var cashDetails: (any CashPaymentDetails)? { fields.cashDetails }
    package var createdAt: Date { fields.createdAt }
    package var id: String? { fields.id }
    package var locationID: String? { fields.locationID }
    package var orderID: String? { fields.orderID }
    package var referenceID: String? { fields.referenceID }
    package var sourceType: SourceType { fields.sourceType }
    package var tipMoney: (any MoneyAmount)? { fields.tipMoney }
    package var totalMoney: any MoneyAmount { fields.totalMoney }
    package var updatedAt: Date { fields.updatedAt }
}

/// ``CardPaymentDetails`` of an online card payment.
package final class SurfaceCardPaymentDetails: NSObject, CardPaymentDetails {
    package let status: CardPaymentStatus
    package let entryMethod: CardEntryMethod
    package let card: (any Card)?
    package let applicationIdentifier: String?
    package let applicationName: String?
    package let authResultCode: String?
    package let appliedCardSurchargeDetails: (any CardSurchargeDetails)?
    package let dictionaryRepresentation: [String: Any]

    /// Card details; the EMV and surcharge fields default to `nil`.
    package init(
        status: CardPaymentStatus, entryMethod: CardEntryMethod, card: (any Card)?,
        applicationIdentifier: String? = nil, applicationName: String? = nil, authResultCode: String? = nil,
        appliedCardSurchargeDetails: (any CardSurchargeDetails)? = nil, dictionaryRepresentation: [String: Any] = [:]
    ) {
        self.status = status
        self.entryMethod = entryMethod
        self.card = card
        self.applicationIdentifier = applicationIdentifier
        self.applicationName = applicationName
        self.authResultCode = authResultCode
        self.appliedCardSurchargeDetails = appliedCardSurchargeDetails
        self.dictionaryRepresentation = dictionaryRepresentation
        super.init()
    }
}

/// ``OfflineCardPaymentDetails`` of an offline card payment.
package final class SurfaceOfflineCardPaymentDetails: NSObject, OfflineCardPaymentDetails {
    package let entryMethod: CardEntryMethod
    package let card: (any OfflineCard)?
    package let applicationIdentifier: String?
    package let applicationName: String?
    package let dictionaryRepresentation: [String: Any]

    /// Offline card details; the EMV fields default to `nil`.
    package init(
        entryMethod: CardEntryMethod, card: (any OfflineCard)?, applicationIdentifier: String? = nil,
        applicationName: String? = nil, dictionaryRepresentation: [String: Any] = [:]
    ) {
        self.entryMethod = entryMethod
        self.card = card
        self.applicationIdentifier = applicationIdentifier
        self.applicationName = applicationName
        self.dictionaryRepresentation = dictionaryRepresentation
        super.init()
    }
}
