// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
public import Foundation

// Value objects the SDK creates and hands out. Their public properties are read-only, as in the SDK; a backend creates
// them with the `package` initializer and may update them through the `package` setters.
// Deviation (all classes of this module): `public`, not `open` as imported Objective-C classes are. Subclassing the SDK's
// classes is no bridge's business; code that does would fail to compile here first, never only on iOS.

// Left out of `CardPresentDetails`: `incrementalAuthorizationStatus`, `multicaptureStatus`, `reauthorizationStatus`. Their
// types are `NS_ENUM`s the reference names but does not describe (no cases, no raw values), so they cannot be declared.

/// `SCPPaymentMethod`.
public class PaymentMethod: NSObject {
    /// `SCPPaymentMethod.stripeId`.
    public package(set) var stripeId: String
    /// `SCPPaymentMethod.created`.
    public package(set) var created: Date? = nil
    /// `SCPPaymentMethod.type`.
    public package(set) var type: PaymentMethodType
    /// `SCPPaymentMethod.card`.
    public package(set) var card: CardDetails? = nil
    /// `SCPPaymentMethod.cardPresent`.
    public package(set) var cardPresent: CardPresentDetails? = nil
    /// `SCPPaymentMethod.interacPresent`.
    public package(set) var interacPresent: CardPresentDetails? = nil
    /// `SCPPaymentMethod.wechatPay`.
    public package(set) var wechatPay: WechatPayDetails? = nil
    /// `SCPPaymentMethod.affirm`.
    public package(set) var affirm: AffirmDetails? = nil
    /// `SCPPaymentMethod.paynow`.
    public package(set) var paynow: PaynowDetails? = nil
    /// `SCPPaymentMethod.paypay`.
    public package(set) var paypay: PaypayDetails? = nil
    /// `SCPPaymentMethod.klarna`.
    public package(set) var klarna: KlarnaDetails? = nil
    /// `SCPPaymentMethod.customer`.
    public package(set) var customer: String? = nil
    /// `SCPPaymentMethod.metadata`.
    public package(set) var metadata: [String: String]
    /// `SCPPaymentMethod.livemode`.
    public package(set) var livemode: Bool

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(
        surface: SurfaceConstruction,
        stripeId: String,
        type: PaymentMethodType,
        metadata: [String: String],
        livemode: Bool
    ) {
        self.stripeId = stripeId
        self.type = type
        self.metadata = metadata
        self.livemode = livemode
        super.init()
    }
}

/// `SCPPaymentMethodDetails`.
public class PaymentMethodDetails: NSObject {
    /// `SCPPaymentMethodDetails.type`.
    public package(set) var type: PaymentMethodType
    /// `SCPPaymentMethodDetails.card`.
    public package(set) var card: CardDetails? = nil
    /// `SCPPaymentMethodDetails.cardPresent`.
    public package(set) var cardPresent: CardPresentDetails? = nil
    /// `SCPPaymentMethodDetails.interacPresent`.
    public package(set) var interacPresent: CardPresentDetails? = nil
    /// `SCPPaymentMethodDetails.wechatPay`.
    public package(set) var wechatPay: WechatPayDetails? = nil
    /// `SCPPaymentMethodDetails.affirm`.
    public package(set) var affirm: AffirmDetails? = nil
    /// `SCPPaymentMethodDetails.paynow`.
    public package(set) var paynow: PaynowDetails? = nil
    /// `SCPPaymentMethodDetails.paypay`.
    public package(set) var paypay: PaypayDetails? = nil
    /// `SCPPaymentMethodDetails.klarna`.
    public package(set) var klarna: KlarnaDetails? = nil

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(surface: SurfaceConstruction, type: PaymentMethodType) {
        self.type = type
        super.init()
    }
}

/// `SCPCardPresentDetails`. Reached through PaymentIntent.paymentMethod?.cardPresent or
/// Charge.paymentMethodDetails?.cardPresent (interacPresent for Interac).
public class CardPresentDetails: NSObject {
    /// `SCPCardPresentDetails.last4`.
    public package(set) var last4: String
    /// `SCPCardPresentDetails.expMonth`.
    public package(set) var expMonth: Int
    /// `SCPCardPresentDetails.expYear`.
    public package(set) var expYear: Int
    /// `SCPCardPresentDetails.cardholderName`.
    public package(set) var cardholderName: String? = nil
    /// `SCPCardPresentDetails.funding`.
    public package(set) var funding: CardFundingType
    /// `SCPCardPresentDetails.brand`.
    public package(set) var brand: CardBrand
    /// `SCPCardPresentDetails.generatedCard`.
    public package(set) var generatedCard: String? = nil
    /// `SCPCardPresentDetails.receipt`.
    public package(set) var receipt: ReceiptDetails? = nil
    /// `SCPCardPresentDetails.emvAuthData`.
    public package(set) var emvAuthData: String? = nil
    /// `SCPCardPresentDetails.country`.
    public package(set) var country: String? = nil
    /// `SCPCardPresentDetails.preferredLocales`.
    public package(set) var preferredLocales: [String]? = nil
    /// `SCPCardPresentDetails.networks`.
    ///
    /// Deviation: the SDK's declaration carries `@NSCopying` (an Objective-C `copy` property), which Swift accepts only
    /// for `NSCopying` types, and the opaque ``SCPNetworks`` is not one. `@NSCopying` changes only the setter, which is
    /// not public, so callers see no difference.
    public package(set) var networks: SCPNetworks? = nil
    /// `SCPCardPresentDetails.network`.
    @NSCopying public package(set) var network: NSNumber? = nil
    /// `SCPCardPresentDetails.captureBefore`.
    public package(set) var captureBefore: Date? = nil
    /// `SCPCardPresentDetails.reauthorizeBefore`.
    public package(set) var reauthorizeBefore: Date? = nil
    /// `SCPCardPresentDetails.readMethod`.
    public package(set) var readMethod: ReadMethod
    /// `SCPCardPresentDetails.wallet`.
    public package(set) var wallet: SCPWallet? = nil
    /// `SCPCardPresentDetails.location`.
    public package(set) var location: String? = nil
    /// `SCPCardPresentDetails.reader`.
    public package(set) var reader: String? = nil
    /// `SCPCardPresentDetails.iin`.
    public package(set) var iin: String? = nil
    /// `SCPCardPresentDetails.issuer`.
    public package(set) var issuer: String? = nil
    /// `SCPCardPresentDetails.dynamicCurrencyConversion`.
    ///
    /// Deviation: `@NSCopying` dropped, as for ``networks`` (the opaque ``DynamicCurrencyConversion`` is not `NSCopying`).
    public package(set) var dynamicCurrencyConversion: DynamicCurrencyConversion? = nil
    /// `SCPCardPresentDetails.stripeDescription`.
    public package(set) var stripeDescription: String? = nil
    /// `SCPCardPresentDetails.incrementalAuthorizationStatus`.
    public package(set) var incrementalAuthorizationStatus: IncrementalAuthorizationStatus = .unknown
    /// `SCPCardPresentDetails.multicaptureStatus`.
    public package(set) var multicaptureStatus: MulticaptureStatus = .unknown
    /// `SCPCardPresentDetails.reauthorizationStatus`.
    public package(set) var reauthorizationStatus: ReauthorizationStatus = .unknown

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(
        surface: SurfaceConstruction,
        last4: String,
        expMonth: Int,
        expYear: Int,
        funding: CardFundingType,
        brand: CardBrand,
        readMethod: ReadMethod
    ) {
        self.last4 = last4
        self.expMonth = expMonth
        self.expYear = expYear
        self.funding = funding
        self.brand = brand
        self.readMethod = readMethod
        super.init()
    }
}

/// `SCPReceiptDetails`.
public class ReceiptDetails: NSObject, NSCopying {
    /// `SCPReceiptDetails.accountType`.
    public package(set) var accountType: String? = nil
    /// `SCPReceiptDetails.applicationPreferredName`.
    public package(set) var applicationPreferredName: String
    /// `SCPReceiptDetails.dedicatedFileName`.
    public package(set) var dedicatedFileName: String
    /// `SCPReceiptDetails.authorizationCode`.
    public package(set) var authorizationCode: String? = nil
    /// `SCPReceiptDetails.authorizationResponseCode`.
    public package(set) var authorizationResponseCode: String
    /// `SCPReceiptDetails.applicationCryptogram`.
    public package(set) var applicationCryptogram: String
    /// `SCPReceiptDetails.terminalVerificationResults`.
    public package(set) var terminalVerificationResults: String
    /// `SCPReceiptDetails.transactionStatusInformation`.
    public package(set) var transactionStatusInformation: String
    /// `SCPReceiptDetails.cardholderVerificationMethod`.
    public package(set) var cardholderVerificationMethod: String

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(
        surface: SurfaceConstruction,
        applicationPreferredName: String,
        dedicatedFileName: String,
        authorizationResponseCode: String,
        applicationCryptogram: String,
        terminalVerificationResults: String,
        transactionStatusInformation: String,
        cardholderVerificationMethod: String
    ) {
        self.applicationPreferredName = applicationPreferredName
        self.dedicatedFileName = dedicatedFileName
        self.authorizationResponseCode = authorizationResponseCode
        self.applicationCryptogram = applicationCryptogram
        self.terminalVerificationResults = terminalVerificationResults
        self.transactionStatusInformation = transactionStatusInformation
        self.cardholderVerificationMethod = cardholderVerificationMethod
        super.init()
    }

    /// `NSCopying`: a new object with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = ReceiptDetails(
            surface: .backend,
            applicationPreferredName: applicationPreferredName,
            dedicatedFileName: dedicatedFileName,
            authorizationResponseCode: authorizationResponseCode,
            applicationCryptogram: applicationCryptogram,
            terminalVerificationResults: terminalVerificationResults,
            transactionStatusInformation: transactionStatusInformation,
            cardholderVerificationMethod: cardholderVerificationMethod
        )
        copy.accountType = accountType
        copy.authorizationCode = authorizationCode
        return copy
    }
}
