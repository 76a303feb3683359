// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
import Foundation

// Clang imports each `NS_ENUM` as a Swift enum with its raw type and `@unchecked Sendable`, and each `NS_OPTIONS` as an
// `OptionSet` struct; these declarations say the same. Case names and raw values are the reference's.
// Difference to know: the SDK's enums are open (non-frozen), so on iOS a `switch` needs `@unknown default`; this module
// is not built with library evolution, so on Linux that clause is accepted silently but not required.

/// `SCPSimulateReaderUpdate` (`NS_ENUM`), imported with raw type `UInt`. Used by the deprecated
/// SimulatorConfiguration.availableReaderUpdate.
public enum SimulateReaderUpdate: UInt, @unchecked Sendable {
    /// `SCPSimulateReaderUpdateAvailable` = 0.
    case available = 0
    /// `SCPSimulateReaderUpdateNone` = 1.
    case none = 1
    /// `SCPSimulateReaderUpdateRequired` = 2.
    case required = 2
    /// `SCPSimulateReaderUpdateRequiredForOffline` = 3.
    case requiredForOffline = 3
    /// `SCPSimulateReaderUpdateLowBattery` = 4.
    case lowBattery = 4
    /// `SCPSimulateReaderUpdateLowBatterySucceedConnect` = 5.
    case lowBatterySucceedConnect = 5
    /// `SCPSimulateReaderUpdateRandom` = 6.
    case random = 6
}

/// `SCPSimulatedCardType` (`NS_ENUM`), imported with raw type `UInt`.
public enum SimulatedCardType: UInt, @unchecked Sendable {
    /// `SCPSimulatedCardTypeVisa` = 0.
    case visa = 0
    /// `SCPSimulatedCardTypeVisaDebit` = 1.
    case visaDebit = 1
    /// `SCPSimulatedCardTypeVisaUsCommonDebit` = 2.
    case visaUsCommonDebit = 2
    /// `SCPSimulatedCardTypeMastercard` = 3.
    case mastercard = 3
    /// `SCPSimulatedCardTypeMasterDebit` = 4.
    case masterDebit = 4
    /// `SCPSimulatedCardTypeMastercardPrepaid` = 5.
    case mastercardPrepaid = 5
    /// `SCPSimulatedCardTypeAmex` = 6.
    case amex = 6
    /// `SCPSimulatedCardTypeAmex2` = 7.
    case amex2 = 7
    /// `SCPSimulatedCardTypeDiscover` = 8.
    case discover = 8
    /// `SCPSimulatedCardTypeDiscover2` = 9.
    case discover2 = 9
    /// `SCPSimulatedCardTypeDiners` = 10.
    case diners = 10
    /// `SCPSimulatedCardTypeDiners14Digit` = 11.
    case diners14Digit = 11
    /// `SCPSimulatedCardTypeJcb` = 12.
    case jcb = 12
    /// `SCPSimulatedCardTypeUnionPay` = 13.
    case unionPay = 13
    /// `SCPSimulatedCardTypeInterac` = 14.
    case interac = 14
    /// `SCPSimulatedCardTypeEftposAuDebit` = 15.
    case eftposAuDebit = 15
    /// `SCPSimulatedCardTypeEftposAuVisaDebit` = 16.
    case eftposAuVisaDebit = 16
    /// `SCPSimulatedCardTypeEftposAuDebitMastercard` = 17.
    case eftposAuDebitMastercard = 17
    /// `SCPSimulatedCardTypeChargeDeclined` = 18.
    case chargeDeclined = 18
    /// `SCPSimulatedCardTypeChargeDeclinedInsufficientFunds` = 19.
    case chargeDeclinedInsufficientFunds = 19
    /// `SCPSimulatedCardTypeChargeDeclinedLostCard` = 20.
    case chargeDeclinedLostCard = 20
    /// `SCPSimulatedCardTypeChargeDeclinedStolenCard` = 21.
    case chargeDeclinedStolenCard = 21
    /// `SCPSimulatedCardTypeChargeDeclinedExpiredCard` = 22.
    case chargeDeclinedExpiredCard = 22
    /// `SCPSimulatedCardTypeChargeDeclinedProcessingError` = 23.
    case chargeDeclinedProcessingError = 23
    /// `SCPSimulatedCardTypeRefundFailed` = 24.
    case refundFailed = 24
    /// `SCPSimulatedCardTypeOnlinePinCvm` = 25.
    case onlinePinCvm = 25
    /// `SCPSimulatedCardTypeOnlinePinScaRetry` = 26.
    case onlinePinScaRetry = 26
    /// `SCPSimulatedCardTypeOfflinePinCvm` = 27.
    case offlinePinCvm = 27
    /// `SCPSimulatedCardTypeOfflinePinScaRetry` = 28.
    case offlinePinScaRetry = 28
}

/// `SCPTestReaderUpdateType` (`NS_ENUM`), imported with raw type `UInt`. requiredOffline: an offline connect fails,
/// an online connect installs the update. lowBattery: update and connect fail. lowBatterySucceedConnect: update
/// fails, connect succeeds.
public enum TestReaderUpdateType: UInt, @unchecked Sendable {
    /// `SCPTestReaderUpdateTypeAvailable` = 0.
    case available = 0
    /// `SCPTestReaderUpdateTypeRequired` = 1.
    case required = 1
    /// `SCPTestReaderUpdateTypeRequiredOffline` = 2.
    case requiredOffline = 2
    /// `SCPTestReaderUpdateTypeLowBattery` = 3.
    case lowBattery = 3
    /// `SCPTestReaderUpdateTypeLowBatterySucceedConnect` = 4.
    case lowBatterySucceedConnect = 4
}
