// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
import Foundation

// Clang imports each `NS_ENUM` as a Swift enum with its raw type and `@unchecked Sendable`, and each `NS_OPTIONS` as an
// `OptionSet` struct; these declarations say the same. Case names and raw values are the reference's.
// Difference to know: the SDK's enums are open (non-frozen), so on iOS a `switch` needs `@unknown default`; this module
// is not built with library evolution, so on Linux that clause is accepted silently but not required.

/// `SCPPaymentIntentStatus` (`NS_ENUM`), imported with raw type `UInt`.
public enum PaymentIntentStatus: UInt, @unchecked Sendable {
    /// `SCPPaymentIntentStatusRequiresPaymentMethod` = 0.
    case requiresPaymentMethod = 0
    /// `SCPPaymentIntentStatusRequiresConfirmation` = 1.
    case requiresConfirmation = 1
    /// `SCPPaymentIntentStatusRequiresAction` = 2.
    case requiresAction = 2
    /// `SCPPaymentIntentStatusRequiresCapture` = 3.
    case requiresCapture = 3
    /// `SCPPaymentIntentStatusProcessing` = 4.
    case processing = 4
    /// `SCPPaymentIntentStatusCanceled` = 5.
    case canceled = 5
    /// `SCPPaymentIntentStatusSucceeded` = 6.
    case succeeded = 6
    /// `SCPPaymentIntentStatusRequiresReauthorization` = 7.
    case requiresReauthorization = 7
}

/// `SCPCaptureMethod` (`NS_ENUM`), imported with raw type `UInt`.
public enum CaptureMethod: UInt, @unchecked Sendable {
    /// `SCPCaptureMethodManual` = 0.
    case manual = 0
    /// `SCPCaptureMethodAutomatic` = 1.
    case automatic = 1
}

/// `SCPPaymentStatus` (`NS_ENUM`), imported with raw type `UInt`.
public enum PaymentStatus: UInt, @unchecked Sendable {
    /// `SCPPaymentStatusNotReady` = 0.
    case notReady = 0
    /// `SCPPaymentStatusReady` = 1.
    case ready = 1
    /// `SCPPaymentStatusWaitingForInput` = 2.
    case waitingForInput = 2
    /// `SCPPaymentStatusProcessing` = 3.
    case processing = 3
}

/// `SCPOfflineBehavior` (`NS_ENUM`), imported with raw type `Int`.
public enum OfflineBehavior: Int, @unchecked Sendable {
    /// `SCPOfflineBehaviorPreferOnline` = 0.
    case preferOnline = 0
    /// `SCPOfflineBehaviorRequireOnline` = 1.
    case requireOnline = 1
    /// `SCPOfflineBehaviorForceOffline` = 2.
    case forceOffline = 2
}

/// `SCPNetworkStatus` (`NS_ENUM`), imported with raw type `UInt`.
public enum NetworkStatus: UInt, @unchecked Sendable {
    /// `SCPNetworkStatusUnknown` = 0.
    case unknown = 0
    /// `SCPNetworkStatusOffline` = 1.
    case offline = 1
    /// `SCPNetworkStatusOnline` = 2.
    case online = 2
}

/// `SCPChargeStatus` (`NS_ENUM`), imported with raw type `UInt`.
public enum ChargeStatus: UInt, @unchecked Sendable {
    /// `SCPChargeStatusSucceeded` = 0.
    case succeeded = 0
    /// `SCPChargeStatusPending` = 1.
    case pending = 1
    /// `SCPChargeStatusFailed` = 2.
    case failed = 2
}

/// `SCPCardBrand` (`NS_ENUM`), imported with raw type `Int`.
public enum CardBrand: Int, @unchecked Sendable {
    /// `SCPCardBrandVisa` = 0.
    case visa = 0
    /// `SCPCardBrandAmex` = 1.
    case amex = 1
    /// `SCPCardBrandMasterCard` = 2.
    case masterCard = 2
    /// `SCPCardBrandDiscover` = 3.
    case discover = 3
    /// `SCPCardBrandJCB` = 4.
    case JCB = 4
    /// `SCPCardBrandDinersClub` = 5.
    case dinersClub = 5
    /// `SCPCardBrandInterac` = 6.
    case interac = 6
    /// `SCPCardBrandUnionPay` = 7.
    case unionPay = 7
    /// `SCPCardBrandEftposAu` = 8.
    case eftposAu = 8
    /// `SCPCardBrandCartesBancaires` = 9.
    case cartesBancaires = 9
    /// `SCPCardBrandGirocard` = 10.
    case girocard = 10
    /// `SCPCardBrandUnknown` = 11.
    case unknown = 11
}

/// `SCPCardFundingType` (`NS_ENUM`), imported with raw type `Int`.
public enum CardFundingType: Int, @unchecked Sendable {
    /// `SCPCardFundingTypeDebit` = 0.
    case debit = 0
    /// `SCPCardFundingTypeCredit` = 1.
    case credit = 1
    /// `SCPCardFundingTypePrepaid` = 2.
    case prepaid = 2
    /// `SCPCardFundingTypeOther` = 3.
    case other = 3
}

/// `SCPReadMethod` (`NS_ENUM`), imported with raw type `UInt`.
public enum ReadMethod: UInt, @unchecked Sendable {
    /// `SCPReadMethodUnknown` = 0.
    case unknown = 0
    /// `SCPReadMethodContactEMV` = 5.
    case contactEMV = 5
    /// `SCPReadMethodContactlessEMV` = 7.
    case contactlessEMV = 7
    /// `SCPReadMethodMagneticStripeFallback` = 80.
    case magneticStripeFallback = 80
    /// `SCPReadMethodMagneticStripeTrack2` = 90.
    case magneticStripeTrack2 = 90
    /// `SCPReadMethodContactlessMagstripeMode` = 91.
    case contactlessMagstripeMode = 91
}

/// `SCPPaymentMethodType` (`NS_ENUM`), imported with raw type `UInt`.
public enum PaymentMethodType: UInt, @unchecked Sendable {
    /// `SCPPaymentMethodTypeCard` = 0.
    case card = 0
    /// `SCPPaymentMethodTypeCardPresent` = 1.
    case cardPresent = 1
    /// `SCPPaymentMethodTypeInteracPresent` = 2.
    case interacPresent = 2
    /// `SCPPaymentMethodTypeWechatPay` = 3.
    case wechatPay = 3
    /// `SCPPaymentMethodTypeAffirm` = 4.
    case affirm = 4
    /// `SCPPaymentMethodTypePaynow` = 5.
    case paynow = 5
    /// `SCPPaymentMethodTypePaypay` = 6.
    case paypay = 6
    /// `SCPPaymentMethodTypeKlarna` = 7.
    case klarna = 7
    /// `SCPPaymentMethodTypeUnknown` = 8.
    case unknown = 8
}

/// `SCPCustomerCancellation` (`NS_ENUM`), imported with raw type `UInt`.
public enum CustomerCancellation: UInt, @unchecked Sendable {
    /// `SCPCustomerCancellationEnableIfAvailable` = 0.
    case enableIfAvailable = 0
    /// `SCPCustomerCancellationDisableIfAvailable` = 1.
    case disableIfAvailable = 1
}

/// `SCPAllowRedisplay` (`NS_ENUM`), imported with raw type `UInt`.
public enum AllowRedisplay: UInt, @unchecked Sendable {
    /// `SCPAllowRedisplayUnspecified` = 0.
    case unspecified = 0
    /// `SCPAllowRedisplayAlways` = 1.
    case always = 1
    /// `SCPAllowRedisplayLimited` = 2.
    case limited = 2
}

/// `SCPLogLevel` (`NS_ENUM`), imported with raw type `UInt`.
public enum LogLevel: UInt, @unchecked Sendable {
    /// `SCPLogLevelNone` = 0.
    case none = 0
    /// `SCPLogLevelVerbose` = 1.
    case verbose = 1
}
