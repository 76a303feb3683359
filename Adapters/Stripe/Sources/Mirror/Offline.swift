// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
public import Foundation

// Value objects the SDK creates and hands out. Their public properties are read-only, as in the SDK; a backend creates
// them with the `package` initializer and may update them through the `package` setters.
// Deviation (all classes of this module): `public`, not `open` as imported Objective-C classes are. Subclassing the SDK's
// classes is no bridge's business; code that does would fail to compile here first, never only on iOS.

/// `SCPOfflineStatus`.
public class OfflineStatus: NSObject {
    /// `SCPOfflineStatus.reader`.
    public package(set) var reader: OfflineStatusDetails? = nil
    /// `SCPOfflineStatus.sdk`.
    public package(set) var sdk: OfflineStatusDetails

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(surface: SurfaceConstruction, sdk: OfflineStatusDetails) {
        self.sdk = sdk
        super.init()
    }
}

/// `SCPOfflineStatusDetails`.
public class OfflineStatusDetails: NSObject {
    /// `SCPOfflineStatusDetails.paymentsCount`. Boxed count; nil after clearCachedCredentials.
    public package(set) var paymentsCount: NSNumber? = nil
    /// `SCPOfflineStatusDetails.paymentAmountsByCurrency`. Currency code -> boxed amount in smallest unit.
    public package(set) var paymentAmountsByCurrency: [String: NSNumber]
    /// `SCPOfflineStatusDetails.networkStatus`.
    public package(set) var networkStatus: NetworkStatus

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(
        surface: SurfaceConstruction,
        paymentAmountsByCurrency: [String: NSNumber],
        networkStatus: NetworkStatus
    ) {
        self.paymentAmountsByCurrency = paymentAmountsByCurrency
        self.networkStatus = networkStatus
        super.init()
    }
}

/// `SCPOfflineDetails`.
public class OfflineDetails: NSObject, NSCopying {
    /// `SCPOfflineDetails.storedAt`.
    public package(set) var storedAt: Date? = nil
    /// `SCPOfflineDetails.requiresUpload`. Read-write property.
    public var requiresUpload: Bool
    /// `SCPOfflineDetails.amountDetails`.
    public package(set) var amountDetails: AmountDetails? = nil
    /// `SCPOfflineDetails.cardPresentDetails`.
    public package(set) var cardPresentDetails: OfflineCardPresentDetails? = nil

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(surface: SurfaceConstruction, requiresUpload: Bool) {
        self.requiresUpload = requiresUpload
        super.init()
    }

    /// `NSCopying`: a new object with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = OfflineDetails(surface: .backend, requiresUpload: requiresUpload)
        copy.storedAt = storedAt
        copy.amountDetails = amountDetails
        copy.cardPresentDetails = cardPresentDetails
        return copy
    }
}

/// `SCPOfflineCardPresentDetails`.
public class OfflineCardPresentDetails: NSObject, NSCopying {
    /// `SCPOfflineCardPresentDetails.brand`.
    public package(set) var brand: CardBrand
    /// `SCPOfflineCardPresentDetails.expMonth`.
    public package(set) var expMonth: Int
    /// `SCPOfflineCardPresentDetails.expYear`.
    public package(set) var expYear: Int
    /// `SCPOfflineCardPresentDetails.last4`.
    public package(set) var last4: String? = nil
    /// `SCPOfflineCardPresentDetails.readMethod`.
    public package(set) var readMethod: ReadMethod
    /// `SCPOfflineCardPresentDetails.cardholderName`.
    public package(set) var cardholderName: String? = nil
    /// `SCPOfflineCardPresentDetails.receiptDetails`.
    public package(set) var receiptDetails: ReceiptDetails? = nil

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(surface: SurfaceConstruction, brand: CardBrand, expMonth: Int, expYear: Int, readMethod: ReadMethod) {
        self.brand = brand
        self.expMonth = expMonth
        self.expYear = expYear
        self.readMethod = readMethod
        super.init()
    }

    /// `NSCopying`: a new object with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = OfflineCardPresentDetails(
            surface: .backend,
            brand: brand,
            expMonth: expMonth,
            expYear: expYear,
            readMethod: readMethod
        )
        copy.last4 = last4
        copy.cardholderName = cardholderName
        copy.receiptDetails = receiptDetails
        return copy
    }
}
