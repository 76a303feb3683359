public import Foundation
#if canImport(UIKit)
public import UIKit
#endif

/// Square's `SettingsManager` (`MobilePaymentsSDK.shared.settingsManager`): the seller's payment settings, the SDK's
/// settings, tracking consent and Square's settings screen.
///
/// Mirror: `@objc(SQMPSettingsManager)` is dropped; class-bound via `AnyObject`, as an `@objc` protocol is.
public protocol SettingsManager: AnyObject {
    /// Whether Square's settings screen is presented.
    var isSettingsPresented: Bool { get }
    /// The authorized seller's payment settings (offline limits).
    var paymentSettings: any PaymentSettings { get }
    /// The SDK's environment and versions.
    var sdkSettings: any SDKSettings { get }
    /// The state of the user's tracking consent.
    var trackingConsentState: TrackingConsentState { get }
    /// Dismisses Square's settings screen; `true` if it was presented.
    func dismissSettings() -> Bool
    /// Presents Square's settings screen (reader pairing and management) from `viewController`.
    ///
    /// Spelling: the one Square's compiled sample uses (tag 2.5.0 `Example/`: its mock implements it and its views call
    /// it), as Swift imports `-presentSettingsWithViewController:completion:`; DocC prints
    /// `presentSettings(viewController:completion:)` (the reference's `swift`; this is its `alternateSpelling`).
    func presentSettings(with viewController: UIViewController, completion: @escaping ((any Error)?) -> Void)
    /// Records the user's tracking consent.
    ///
    /// Spelling: the one Square's compiled sample uses (tag 2.5.0 `Example/`: its mock implements it), as Swift imports
    /// `-updateTrackingConsentWithGranted:`; DocC prints `updateTrackingConsent(granted:)` (the reference's `swift`;
    /// this is its `alternateSpelling`).
    func updateTrackingConsent(withGranted granted: Bool)
}

/// Square's `SDKSettings`: the SDK's environment and versions.
///
/// Mirror: `@objc(SQMPSDKSettings)` is dropped. Square spells the property's type `MobilePaymentsSDKAPI.Environment`;
/// here it is this module's ``Environment``.
public protocol SDKSettings: NSObjectProtocol {
    /// Production or Sandbox, from the application ID.
    var environment: Environment { get }
    /// The security compliance version.
    var securityComplianceVersion: String { get }
    /// The SDK's version string.
    var version: String { get }
}

/// Square's `PaymentSettings`: the authorized seller's offline-payment settings.
///
/// Mirror: `@objc(SQMPPaymentSettings)` is dropped.
public protocol PaymentSettings: NSObjectProtocol {
    /// Whether the seller may take offline payments.
    var isOfflineProcessingAllowed: Bool { get }
    /// The maximum total stored offline on the device; `nil` when offline is not allowed.
    var offlineTotalStoredAmountLimit: (any MoneyAmount)? { get }
    /// The maximum of one offline payment; `nil` when offline is not allowed.
    var offlineTransactionAmountLimit: (any MoneyAmount)? { get }
}
