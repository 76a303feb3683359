package import Foundation

/// The Mobile Payments SDK as the adapter uses it: `MobilePaymentsSDK.shared` (an `SDKManager`) and its managers,
/// with Square's names and labels as Swift code calls them (`reference/sdk-surface/square-mobile-payments-ios.json`;
/// where Swift imports an Objective-C selector differently from the DocC, the imported spelling, as in the
/// `SquareMobilePaymentsSurface` mirror: `authorize(withAccessToken:…)`, `getIdempotencyKey(withPaymentAttemptId:)`).
/// On iOS the bridge makes the real SDK conform (`SquareMobilePaymentsBridge`, product `TenderSquareMobilePayments`,
/// behind the package trait `SquareMobilePaymentsSDK`); on Linux and in tests ``SquareSimulator`` does.
///
/// What a bridge does, and the differences from the SDK that remain (each member documents its own):
/// - **Threads.** Square requires every call on the main thread. Every member here is `async` (getters too), so
///   the bridge hops to the main actor, reads the SDK object, and returns a `Sendable` value.
/// - **Completion handlers → `async`.** The SDK is a Swift module, so Swift generates no `async` variants; the bridge
///   wraps each completion in a continuation. Errors arrive typed (``Square/AuthorizationError``,
///   ``Square/OfflinePaymentQueueError``): the bridge maps `(error as NSError).code` by case name and maps a code
///   it does not know to the enum's `unexpected`.
/// - **Objects → values.** SDK objects (`Payment`, `ReaderInfo`, `Location`, `Money`, `PaymentSettings`…) are copied
///   into the value types of ``Square``; `PaymentParameters` and `PromptParameters` (classes in the SDK) are built
///   from the values by the bridge. `PaymentHandle` and `PairingHandle` stay handles the bridge implements over the
///   SDK's own objects, because the adapter acts on them later.
/// - **Delegates and observers** are `AnyObject & Sendable` protocols; the bridge registers one `NSObject` with the
///   SDK per Tender observer, forwards each callback after copying its arguments, and removes it in `remove(_:)`.
/// - **Not mirrored** (Tender does not use them): `readCardInfoManager`, `ReaderManager.blink(_:)`,
///   `readerSettings`, `SettingsManager.presentSettings(with:completion:)`,
///   `trackingConsentState`, `updateTrackingConsent(withGranted:)`, `PaymentHandle.additionalPaymentMethods`, the
///   `dictionaryRepresentation` of every model.
/// - ``networkMonitor`` is not a Square type (see ``Square/NetworkMonitor``).
package protocol SquareClient: Sendable {
    /// `MobilePaymentsSDK.shared.authorizationManager`.
    var authorizationManager: any Square.AuthorizationManager { get }
    /// `MobilePaymentsSDK.shared.paymentManager`.
    var paymentManager: any Square.PaymentManager { get }
    /// `MobilePaymentsSDK.shared.readerManager`.
    var readerManager: any Square.ReaderManager { get }
    /// `MobilePaymentsSDK.shared.settingsManager`.
    var settingsManager: any Square.SettingsManager { get }
    /// The device's connectivity: not part of Square's SDK, which exposes none (see ``Square/NetworkMonitor``).
    var networkMonitor: any Square.NetworkMonitor { get }
}

extension Square {
    /// Square's `AuthorizationManager`.
    package protocol AuthorizationManager: Sendable {
        /// `authorize(withAccessToken:locationID:completion:)` (the spelling Swift imports and Square's sample uses;
        /// DocC prints `authorize(accessToken:locationID:completion:)`, reference §1). Main thread only; the
        /// completion's `Error?` is thrown here.
        /// - Throws: ``Square/AuthorizationError``.
        func authorize(withAccessToken accessToken: String, locationID: String) async throws(AuthorizationError)
        /// `deauthorize(completion:)`, returning when the completion runs (Square: wait for it before authorizing
        /// again). Queued offline payments remain on the device (see ``SquareSimulator``).
        func deauthorize() async
        /// `state`.
        var state: AuthorizationState { get async }
        /// `location`: `nil` when not authorized.
        var location: Location? { get async }
        /// `add(_:)` an `AuthorizationStateObserver`.
        func add(_ observer: any AuthorizationStateObserver) async
        /// `remove(_:)` an observer added before (matched by identity).
        func remove(_ observer: any AuthorizationStateObserver) async
    }

    /// Square's `AuthorizationStateObserver`.
    package protocol AuthorizationStateObserver: AnyObject, Sendable {
        /// `authorizationStateDidChange(_:)`.
        func authorizationStateDidChange(_ authorizationState: AuthorizationState)
    }

    /// Where Square's payment UI is presented from. The SDK's
    /// `startPayment(_:promptParameters:from:delegate:)` takes a `UIViewController`, which a module that builds on
    /// Linux cannot name: this context carries a closure the bridge calls on the main actor and casts to
    /// `UIViewController` (the app returns its top view controller). A bridge that gets `nil`, or not a view
    /// controller, fails the payment with `PaymentError.unexpected` through the delegate, as the SDK would for a
    /// payment it cannot present.
    package struct PresentationContext: Sendable {
        /// A name for logs and tests (`"checkout"`).
        package var name: String
        /// Returns the presenting `UIViewController` (typed `AnyObject` here). Called by the bridge on the main
        /// actor, once per payment.
        package var viewController: @MainActor @Sendable () -> AnyObject?

        /// Creates a context.
        package init(name: String, viewController: @escaping @MainActor @Sendable () -> AnyObject?) {
            self.name = name
            self.viewController = viewController
        }

        /// No view controller: for simulators, previews and tests, which present nothing.
        package static let headless = PresentationContext(name: "headless", viewController: { nil })
    }

    /// Square's `PaymentManager`.
    package protocol PaymentManager: Sendable {
        /// `startPayment(_:promptParameters:from:delegate:)`: returns a handle only if the payment started; the
        /// outcome arrives through `delegate` (also when it did not start: `didFail` before `nil` is returned).
        /// `from` is a ``PresentationContext`` the bridge turns into the `UIViewController`.
        func startPayment(_ paymentParameters: PaymentParameters, promptParameters: PromptParameters,
                          from presentation: PresentationContext, delegate: any PaymentManagerDelegate) async
            -> (any PaymentHandle)?
        /// `currentPaymentHandle` (2.2.3+): the payment in progress, `nil` when none.
        var currentPaymentHandle: (any PaymentHandle)? { get async }
        /// `offlinePaymentQueue`: the offline queue of the authorized account and location.
        var offlinePaymentQueue: any OfflinePaymentQueue { get }
        /// `getIdempotencyKey(withPaymentAttemptId:)` (the spelling Swift imports and Square's sample uses; DocC prints
        /// `getIdempotencyKey(paymentAttemptId:)`, reference §1): the key of the `CreatePayment` request the SDK
        /// stored for this attempt, or `nil`. The SDK replaces it when it
        /// repeats a request within the attempt, and an app reinstall loses it, so `nil` proves nothing by itself.
        func getIdempotencyKey(withPaymentAttemptId paymentAttemptId: String) async -> String?
        /// `availableCardInputMethods` (a property): how a card can be read now (fewer methods offline).
        var availableCardInputMethods: CardInputMethods { get async }
        /// `add(_:)` an `AvailableCardInputMethodsObserver`.
        func add(_ observer: any AvailableCardInputMethodsObserver) async
        /// `remove(_:)` an observer added before (matched by identity).
        func remove(_ observer: any AvailableCardInputMethodsObserver) async
    }

    /// Square's `AvailableCardInputMethodsObserver`.
    package protocol AvailableCardInputMethodsObserver: AnyObject, Sendable {
        /// `availableCardInputMethodsDidChange(_:)`.
        func availableCardInputMethodsDidChange(_ cardInputMethods: CardInputMethods)
    }

    /// Square's `PaymentHandle`: the bridge keeps the SDK's handle object and answers on the main actor.
    package protocol PaymentHandle: Sendable {
        /// `paymentParameters`: what the payment started with.
        var paymentParameters: PaymentParameters { get }
        /// `payment`: the payment as it stands now.
        var payment: any Payment { get async }
        /// `isPaymentCancelable`: whether ``cancelPayment()`` can still work.
        var isPaymentCancelable: Bool { get async }
        /// `totalMoneyWithProposedCardSurcharge`: the total with the surcharge Square proposes, if any.
        var totalMoneyWithProposedCardSurcharge: Money? { get async }
        /// `cancelPayment()`: `true` if the payment will be canceled; the delegate then gets `didCancel`, which is
        /// the confirmation (a `true` here is not).
        func cancelPayment() async -> Bool
    }

    /// Square's `PaymentManagerDelegate`. Callbacks are synchronous, as in the SDK (the bridge forwards them from
    /// the main thread). The SDK's payment arguments are non-optional, here too. `didStart`, `willFinish` and
    /// `willCancel` are optional in the SDK: they have empty default implementations.
    package protocol PaymentManagerDelegate: AnyObject, Sendable {
        /// `paymentManager(_:didStart:)`: started, no action yet.
        func paymentManager(_ paymentManager: any PaymentManager, didStart payment: any Payment)
        /// `paymentManager(_:willFinish:)`: succeeded; Square's UI is about to close.
        func paymentManager(_ paymentManager: any PaymentManager, willFinish payment: any Payment)
        /// `paymentManager(_:didFinish:)`: finished (an ``OnlinePayment`` or an ``OfflinePayment``: cast it).
        func paymentManager(_ paymentManager: any PaymentManager, didFinish payment: any Payment)
        /// `paymentManager(_:didFail:withError:)`: map the error by case (``Square/PaymentError``), and inspect
        /// the payment too, as Square's docs advise.
        func paymentManager(_ paymentManager: any PaymentManager, didFail payment: any Payment,
                            withError error: any Error)
        /// `paymentManager(_:willCancel:)`: a cancellation is about to complete.
        func paymentManager(_ paymentManager: any PaymentManager, willCancel payment: any Payment)
        /// `paymentManager(_:didCancel:)`: canceled by the app or the buyer (or the reader refused the card).
        func paymentManager(_ paymentManager: any PaymentManager, didCancel payment: any Payment)
    }

    /// Square's `OfflinePaymentQueue`, scoped to the authorized account and location.
    package protocol OfflinePaymentQueue: Sendable {
        /// `getPayments(completion:)`: every offline payment on the device for the authorized account and
        /// location (queued, uploaded, failed, and processed ones until the SDK deletes them). The SDK's completion
        /// gives `([OfflinePayment], Error?)`; the bridge throws when the error is set.
        /// - Throws: ``Square/OfflinePaymentQueueError``.
        func getPayments() async throws(OfflinePaymentQueueError) -> [OfflinePayment]
        /// `getTotalStoredPaymentsAmount(completion:)`: the total of queued payments for the authorized account and
        /// location. The SDK's completion gives `(MoneyAmount?, Error?)`, `nil` meaning failure: the bridge throws
        /// the error (or `unexpected` when both are `nil`).
        /// - Throws: ``Square/OfflinePaymentQueueError``.
        func getTotalStoredPaymentsAmount() async throws(OfflinePaymentQueueError) -> any MoneyAmount
    }

    /// Square's `ReaderManager`.
    package protocol ReaderManager: Sendable {
        /// `readers`: the paired readers.
        var readers: [ReaderInfo] { get async }
        /// `isPairingInProgress`.
        var isPairingInProgress: Bool { get async }
        /// `add(_:)` a ``ReaderObserver``.
        func add(_ observer: any ReaderObserver) async
        /// `remove(_:)` an observer added before (matched by identity).
        func remove(_ observer: any ReaderObserver) async
        /// `startPairing(with:)`: a handle when pairing started, otherwise `nil` (the delegate says why). The
        /// delegate's success carries no reader: the new one appears in ``readers`` and through
        /// ``ReaderObserver/readerWasAdded(_:)``. Pairing times out after a minute and stops after one reader.
        func startPairing(with delegate: any ReaderPairingDelegate) async -> (any PairingHandle)?
        /// `retryConnection(_:)` (synchronous in the SDK).
        func retryConnection(_ readerInfo: ReaderInfo) async -> RetryConnectionResult
        /// `forget(_:)`.
        func forget(_ readerInfo: ReaderInfo) async
        /// `tapToPaySettings`: Tap to Pay on iPhone's device check and Apple account linking.
        var tapToPaySettings: any TapToPaySettings { get }
        /// `rebootReader(_:)` (a no-op in the SDK for a reader that is not `isRebootable`; the SDK's call has no
        /// completion, so a client throws only when it cannot make the call).
        func rebootReader(_ readerInfo: ReaderInfo) async throws
    }

    /// Square's `ReaderObserver`.
    package protocol ReaderObserver: AnyObject, Sendable {
        /// `readerWasAdded(_:)`.
        func readerWasAdded(_ readerInfo: ReaderInfo)
        /// `readerWasRemoved(_:)`.
        func readerWasRemoved(_ readerInfo: ReaderInfo)
        /// `readerDidChange(_:change:)`.
        func readerDidChange(_ readerInfo: ReaderInfo, change: ReaderChange)
    }

    /// Square's `ReaderPairingDelegate`.
    package protocol ReaderPairingDelegate: AnyObject, Sendable {
        /// `readerPairingDidBegin()`.
        func readerPairingDidBegin()
        /// `readerPairingDidSucceed()`: a reader paired (which one is not said).
        func readerPairingDidSucceed()
        /// `readerPairingDidFail(with:)`: map the error by case (``Square/ReaderPairingError``).
        func readerPairingDidFail(with error: any Error)
    }

    /// Square's `PairingHandle`.
    package protocol PairingHandle: Sendable {
        /// `stop()`: `true` if a pairing was canceled.
        func stop() async -> Bool
    }

    /// Square's `SettingsManager`.
    package protocol SettingsManager: Sendable {
        /// `paymentSettings`: the authorized seller's.
        var paymentSettings: PaymentSettings { get async }
        /// `sdkSettings` (environment and version).
        var sdkSettings: SDKSettings { get async }
    }

    /// The device's connectivity, which Square's SDK does not expose (it "regularly checks for network
    /// connectivity and a connection to Square servers" internally). Not a Square type. The iOS bridge implements
    /// it with `NWPathMonitor` (Network framework, `SquareNetworkMonitor`): ``isConnected`` is a satisfied path, and
    /// ``lastConnectedAt`` is the later of the last moment the path was satisfied and the last request the bridge saw
    /// Square answer, kept across launches in the app's defaults (a proxy: the SDK's own contacts with Square are not
    /// visible to the app). The simulator answers with its own model of the SDK's view.
    package protocol NetworkMonitor: Sendable {
        /// Whether the device can reach Square now.
        var isConnected: Bool { get async }
        /// When the device was last online as the SDK counts it for its 24-hour offline window; `nil` when never
        /// known.
        var lastConnectedAt: Date? { get async }
        /// Adds an observer of connectivity changes.
        func add(_ observer: any NetworkObserver) async
        /// Removes an observer added before (matched by identity).
        func remove(_ observer: any NetworkObserver) async
    }

    /// Observes ``NetworkMonitor``. Not a Square type.
    package protocol NetworkObserver: AnyObject, Sendable {
        /// Connectivity changed.
        func networkDidChange(isConnected: Bool)
    }
}

extension Square.PaymentManagerDelegate {
    /// Optional in the SDK: nothing by default.
    package func paymentManager(_ paymentManager: any Square.PaymentManager, didStart payment: any Square.Payment) {}
    /// Optional in the SDK: nothing by default.
    package func paymentManager(_ paymentManager: any Square.PaymentManager, willFinish payment: any Square.Payment) {}
    /// Optional in the SDK: nothing by default.
    package func paymentManager(_ paymentManager: any Square.PaymentManager, willCancel payment: any Square.Payment) {}
}
