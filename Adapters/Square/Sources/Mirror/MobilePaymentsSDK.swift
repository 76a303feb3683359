public import Foundation

// SquareMobilePaymentsSurface: Square's Mobile Payments SDK for iOS 2.5.0 as the Swift compiler imports it, declared
// so that code written against the real SDK compiles on Linux, where the SDK (an iOS binary) does not exist.
//
// One module stands for both of the SDK's modules: `SquareMobilePaymentsSDK` (the binary framework apps import, home
// of `MobilePaymentsSDK`) re-exports `MobilePaymentsSDKAPI` (the protocols, classes and enums). Bridge code therefore
// writes (compile conditions, not `canImport`, which can see this module from a target that does not depend on it)
//
//     #if TENDER_SURFACE_MIRROR            // defined by the target that compiles the bridge over this mirror
//     import SquareMobilePaymentsSurface
//     #elseif SquareMobilePaymentsSDK      // the package trait that links Square's SDK
//     import SquareMobilePaymentsSDK
//     #endif
//
// and uses the same names either way. Where Square qualifies a name with `MobilePaymentsSDKAPI.`, use the bare name.
//
// Names, labels, types, optionality, `@discardableResult`, `static` and get/set follow
// `reference/sdk-surface/square-mobile-payments-ios.json`; the test target `SquareMobilePaymentsSurfaceTests` compares
// this module's symbol graph with that file, both ways. What cannot be declared exactly on Linux, and how it is
// declared instead (each instance is also noted at its declaration):
//
// - `@objc` / `@objc(SQMP…)` attributes are dropped: Linux has no Objective-C runtime. `@objc` protocols are
//   class-bound, so protocols that refine nothing declare `AnyObject` (those refining `NSObjectProtocol` already are).
// - `@objc optional` requirements are ordinary requirements with an empty default implementation in a protocol
//   extension. A conformer may omit them, as in the SDK; the SDK side calls them unconditionally, which for an omitted
//   method does nothing, as an unimplemented optional delegate method does.
// - Five methods are spelled as Swift imports them from the SDK's Objective-C interface, not as the DocC prints them
//   (reference `square-mobile-payments-ios.md` §1, "Swift spelling differs from DocC"; the tag-2.5.0 example app
//   calls and implements these spellings): `authorize(withAccessToken:locationID:completion:)`,
//   `getIdempotencyKey(withPaymentAttemptId:)`, `getPayments(_:)`, `presentSettings(with:completion:)`,
//   `updateTrackingConsent(withGranted:)`.
// - The conformance to `MPSDKErrors.SquareError` is not mirrored; `debugInfo` is declared on each error enum.
// - `UIViewController` is a minimal stand-in where UIKit cannot be imported.
// - `PaymentSource`, `ReadCardInfoManager`, `ReaderSettings` and `TapToPaySettings`, which the reference names but
//   does not describe, are empty protocols: the bridge can pass them along, not use them.
// - `CardInputMethods` and `AdditionalPaymentMethods` are `@unchecked Sendable` (final, immutable) so that their
//   `static let` members compile under Swift 6.
// - Enum raw values are this mirror's own except where the reference gives Square's: map by case name only.
//
// Behaviour comes from an installed `SurfaceBackend` (see SurfaceBackend.swift).

/// Square's `MobilePaymentsSDK` (module `SquareMobilePaymentsSDK`): the SDK's entry point.
///
/// Initialize it once, before any other call, then reach every manager through ``shared``. Square requires all calls
/// on the main thread.
///
/// Mirror: not in the DocC archive; the reference takes `initialize(squareApplicationID:)` and `shared` from the
/// tag-2.5.0 example app (`MobilePaymentsSDK.initialize(squareApplicationID:)`, then `MobilePaymentsSDK.shared`
/// stored as an `SDKManager`). An older SDK's generated Objective-C header (checked into Square's React Native
/// plugin) declares it as an `NSObject` subclass with `init` unavailable and a class property `shared` of type
/// `id<SQMPSDKManager>`, which this declaration follows.
public final class MobilePaymentsSDK: NSObject {
    private override init() {
        super.init()
    }

    /// Initializes the SDK with the Square application ID (which also selects production or Sandbox).
    /// Calls the installed ``SurfaceBackend``.
    public static func initialize(squareApplicationID: String) {
        SurfaceBackendSlot.current.initialize(squareApplicationID: squareApplicationID)
    }

    /// The SDK: its authorization, payment, reader, read-card-info and settings managers. The installed
    /// ``SurfaceBackend``'s `sdkManager`.
    public static var shared: any SDKManager {
        SurfaceBackendSlot.current.sdkManager
    }
}

/// Square's `SDKManager` (`MobilePaymentsSDK.shared`): access to the SDK's managers.
///
/// Mirror: `@objc(SQMPSDKManager)` is dropped.
public protocol SDKManager: NSObjectProtocol {
    /// Authorizes the SDK with a seller and location.
    var authorizationManager: any AuthorizationManager { get }
    /// Takes payments and holds the offline queue.
    var paymentManager: any PaymentManager { get }
    /// Reads card information without a payment (not described by the reference; opaque here).
    var readCardInfoManager: any ReadCardInfoManager { get }
    /// Pairs and manages readers.
    var readerManager: any ReaderManager { get }
    /// The seller's and the SDK's settings, and Square's settings screen.
    var settingsManager: any SettingsManager { get }
}
