#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
package import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
public import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
package import Foundation
package import TenderSquare

/// Square's Mobile Payments SDK as a ``SquareClient``: what makes `MobilePaymentsSDK.shared` drive
/// ``SquareProcessor``. Ships in the `TenderSquareMobilePayments` product, built only with the package trait
/// `SquareMobilePaymentsSDK` (which links Square's own package); without the trait the product is empty.
///
/// Enabling it, in the app's `Package.swift` (the trait makes Tender fetch and link Square's package,
/// `square/mobile-payments-sdk-ios` 2.5.x):
///
/// ```swift
/// .package(url: "<Tender's repository URL>", from: "<version>", traits: ["SquareMobilePaymentsSDK"]),
/// // and in the app target's dependencies:
/// .product(name: "TenderSquareMobilePayments", package: "<Tender's package name>"),
/// ```
///
/// Wiring it, in an iOS app (the SDK is initialized once, first, on the main thread):
///
/// ```swift
/// import SquareMobilePaymentsSDK
/// import TenderSquare
/// import TenderSquareMobilePayments
///
/// // application(_:didFinishLaunchingWithOptions:)
/// MobilePaymentsSDK.initialize(squareApplicationID: "sq0idp-…")
///
/// // on the main actor, once
/// let processor = SquareProcessor.mobilePayments(captureService: myServer, refundService: myServer,
///                                                presentingFrom: { checkoutViewController })
/// ```
///
/// What it does, member by member (the extensions say how):
/// - **Threads.** Every call to the SDK is made on the main actor (Square: "all methods must be called from the main
///   thread"), and every SDK object is read there and copied into a `Sendable` value before anything leaves it. The
///   SDK's delegates, observers and completions are received on the main thread (queued to it when the SDK calls
///   from elsewhere) and forwarded after their arguments were copied.
/// - **Completion handlers → `async`.** `authorize`, `deauthorize` and the offline queue's calls await their
///   completion; the SDK's errors map to ``Square`` errors by case name (``SquareBridgeErrors``).
/// - **Objects → values.** Payments, readers, locations, settings and input methods become ``Square`` values
/// (``SquareBridgeValues``); `PaymentParameters` and `PromptParameters` are built from the values. Payment and pairing
/// handles stay the SDK's objects, held in the bridge's ``SquareObjectRegistry`` behind the handle values the adapter
/// gets; readers are found again by `id` whenever the adapter acts on one.
/// - **Delegates and observers.** One SDK delegate or observer per adapter delegate or observer, held by the bridge
///   until its last callback or its `remove(_:)` (the SDK may hold them weakly).
/// - **Presentation.** Square's payment UI is presented from the `UIViewController` that the payment's
///   ``Square/PresentationContext`` returns on the main actor; without one, the payment fails with
///   `PaymentError.unexpected` through the delegate and is not started (``Square/PresentationContext/headless``
///   presents nothing: set ``SquareProcessor/Configuration/presentation``).
/// - **Network.** Square exposes no connectivity: ``networkMonitor`` is a ``SquareNetworkMonitor`` (`NWPathMonitor`)
///   unless another monitor is given.
package final class SquareMobilePaymentsBridge: SquareClient, Sendable {
    /// The SDK objects the bridge holds, on the main actor (empty in a new process).
    package let registry: SquareObjectRegistry
    /// The device's connectivity (not Square's: see ``SquareNetworkMonitor``).
    package let networkMonitor: any Square.NetworkMonitor
    /// How long, in seconds, the bridge waits for the SDK's `didFail` (or `readerPairingDidFail`) after a start call
    /// returned `nil` before it reports the failure itself (`PaymentError.unexpected`).
    let callbackGrace: TimeInterval

    /// A bridge over `sdk` (`MobilePaymentsSDK.shared`: initialize the SDK first).
    /// - Parameters:
    ///   - sdk: the SDK; `MobilePaymentsSDK.shared` unless a test passes another `SDKManager`.
    ///   - networkMonitor: the device's connectivity, which Square does not expose.
    ///   - callbackGrace: seconds to wait for the SDK's failure callback after `startPayment` or `startPairing`
    ///     returned `nil` (Square says the delegate is told why; it does not say when).
    @MainActor
    package init(sdk: any SDKManager = MobilePaymentsSDK.shared, networkMonitor: any Square.NetworkMonitor,
                callbackGrace: TimeInterval = 2) {
        SquareMainThread.prepare()
        registry = SquareObjectRegistry(sdk: sdk)
        self.networkMonitor = networkMonitor
        self.callbackGrace = callbackGrace
    }

    #if canImport(Network)
    /// A bridge over `MobilePaymentsSDK.shared` with a ``SquareNetworkMonitor`` on the device's network path.
    @MainActor
    package convenience init() {
        self.init(networkMonitor: SquareNetworkMonitor())
    }
    #endif

    /// The bridge itself.
    package var authorizationManager: any Square.AuthorizationManager { self }
    /// The bridge itself.
    package var paymentManager: any Square.PaymentManager { self }
    /// The bridge itself.
    package var readerManager: any Square.ReaderManager { self }
    /// The bridge itself.
    package var settingsManager: any Square.SettingsManager { self }
    /// The bridge itself.
    package var offlinePaymentQueue: any Square.OfflinePaymentQueue { self }

    /// The SDK (on the main actor).
    @MainActor var sdk: any SDKManager { registry.sdk }

    /// Tells the network monitor that a request to Square succeeded (its `lastConnectedAt`), when it is the bridge's.
    func noteSquareReached() {
        (networkMonitor as? SquareNetworkMonitor)?.noteSquareReached()
    }
}
#endif
