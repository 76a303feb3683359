import Foundation

/// The Mobile Payments SDK as the adapter uses it: `MobilePaymentsSDK.shared` and its managers, named as Square names
/// them. On iOS the real `SDKManager` conforms through a thin bridge that hops to the main thread (Square requires
/// `authorize`, `deauthorize` and `startPayment` there) and turns completion handlers into `async` calls; on Linux and
/// in tests ``SquareSimulator`` conforms.
public protocol SquareClient: Sendable {
    /// `MobilePaymentsSDK.shared.authorizationManager`.
    var authorizationManager: any Square.AuthorizationManager { get }
    /// `MobilePaymentsSDK.shared.paymentManager`.
    var paymentManager: any Square.PaymentManager { get }
    /// `MobilePaymentsSDK.shared.readerManager`.
    var readerManager: any Square.ReaderManager { get }
    /// `MobilePaymentsSDK.shared.settingsManager`.
    var settingsManager: any Square.SettingsManager { get }
    /// The device's connectivity. Not part of Square's SDK (which exposes none): on iOS the bridge supplies it from
    /// `NWPathMonitor`.
    var networkMonitor: any Square.NetworkMonitor { get }
}

extension Square {
    /// Square's `AuthorizationManager`.
    public protocol AuthorizationManager: Sendable {
        /// `authorize(withAccessToken:locationID:completion:)`.
        /// - Throws: ``Square/AuthorizationError``.
        func authorize(withAccessToken accessToken: String, locationID: String) async throws(AuthorizationError)
        /// `deauthorize(completion:)`. Whether it drops queued offline payments is UNVERIFIED (see the simulator).
        func deauthorize() async
        /// The authorization state.
        var state: AuthorizationState { get async }
        /// The authorized location.
        var location: Location? { get async }
        /// `add(_:)` an `AuthorizationStateObserver`.
        func add(_ observer: any AuthorizationStateObserver) async
    }

    /// Square's `AuthorizationStateObserver`.
    public protocol AuthorizationStateObserver: AnyObject, Sendable {
        /// The authorization state changed.
        func authorizationStateDidChange(_ authorizationState: AuthorizationState)
    }

    /// Square's `PaymentManager`.
    public protocol PaymentManager: Sendable {
        /// `startPayment(_:promptParameters:from:delegate:)`: returns a handle only if the payment started. The
        /// outcome arrives through `delegate`. (`from:` is a view controller; the bridge supplies it.)
        func startPayment(_ parameters: PaymentParameters, promptParameters: PromptParameters,
                          delegate: any PaymentManagerDelegate) async -> (any PaymentHandle)?
        /// The handle of the payment in progress (2.2.3+).
        var currentPaymentHandle: (any PaymentHandle)? { get async }
        /// The offline queue of the authorized account and location.
        var offlinePaymentQueue: any OfflinePaymentQueue { get }
        /// `getIdempotencyKey(withPaymentAttemptId:)`: the idempotency key the SDK stored for an attempt, or `nil`
        /// if it never saw that attempt.
        func getIdempotencyKey(withPaymentAttemptId paymentAttemptID: String) async -> String?
        /// `availableCardInputMethods()`: how a card can be read now (fewer methods offline).
        func availableCardInputMethods() async -> CardInputMethods
    }

    /// Square's `PaymentHandle`.
    public protocol PaymentHandle: Sendable {
        /// The parameters the payment started with.
        var paymentParameters: PaymentParameters { get }
        /// Whether ``cancelPayment()`` can still work.
        var isPaymentCancelable: Bool { get async }
        /// Cancels the payment; `true` if it will be canceled (``PaymentManagerDelegate`` then gets `didCancel`).
        func cancelPayment() async -> Bool
    }

    /// Square's `PaymentManagerDelegate`. Callbacks are synchronous, as in the SDK.
    public protocol PaymentManagerDelegate: AnyObject, Sendable {
        /// `paymentManager(_:didStart:)`: started, no action yet.
        func paymentManager(_ paymentManager: any PaymentManager, didStart payment: Payment)
        /// `paymentManager(_:didFinish:)`: succeeded (online or stored offline), or, in the simulator's model of an
        /// online decline, finished with a `failed` status.
        func paymentManager(_ paymentManager: any PaymentManager, didFinish payment: Payment)
        /// `paymentManager(_:didFail:withError:)`: map the error by case (``Square/PaymentError``), and inspect the
        /// payment too, as Square's docs advise.
        func paymentManager(_ paymentManager: any PaymentManager, didFail payment: Payment?,
                            withError error: any Error)
        /// `paymentManager(_:didCancel:)`: canceled by the app or the buyer.
        func paymentManager(_ paymentManager: any PaymentManager, didCancel payment: Payment?)
    }

    /// Square's `OfflinePaymentQueue`, scoped to the authorized account and location.
    public protocol OfflinePaymentQueue: Sendable {
        /// `getPayments(_:)`: every offline payment on the device for the authorized account and location.
        /// - Throws: ``Square/OfflinePaymentQueueError``.
        func getPayments() async throws(OfflinePaymentQueueError) -> [OfflinePayment]
        /// `getTotalStoredPaymentsAmount(_:)`: the total of queued payments for the authorized account and
        /// location.
        /// - Throws: ``Square/OfflinePaymentQueueError``.
        func getTotalStoredPaymentsAmount() async throws(OfflinePaymentQueueError) -> Money
    }

    /// Square's `ReaderManager`.
    public protocol ReaderManager: Sendable {
        /// The known readers.
        var readers: [ReaderInfo] { get async }
        /// `add(_:)` a ``ReaderObserver``.
        func add(_ observer: any ReaderObserver) async
        /// `startPairing(with:)`, collapsed into one call that returns the paired reader when the pairing delegate
        /// would get `readerPairingDidSucceed`, or throws what `readerPairingDidFail(with:)` would receive.
        /// - Throws: ``Square/ReaderPairingError``.
        func startPairing() async throws(ReaderPairingError) -> ReaderInfo
        /// `retryConnection(_:)`.
        func retryConnection(_ reader: ReaderInfo) async -> RetryConnectionResult
        /// `forget(_:)`.
        func forget(_ reader: ReaderInfo) async
    }

    /// Square's `ReaderObserver`.
    public protocol ReaderObserver: AnyObject, Sendable {
        /// A reader was added.
        func readerWasAdded(_ readerInfo: ReaderInfo)
        /// A reader was removed.
        func readerWasRemoved(_ readerInfo: ReaderInfo)
        /// A reader changed.
        func readerDidChange(_ readerInfo: ReaderInfo, change: ReaderChange)
    }

    /// Square's `SettingsManager`.
    public protocol SettingsManager: Sendable {
        /// The authorized seller's payment settings.
        var paymentSettings: PaymentSettings { get async }
        /// `sdkSettings.environment`.
        var environment: Environment { get async }
    }

    /// The device's connectivity, supplied by the bridge (`NWPathMonitor` on iOS). Not a Square type.
    public protocol NetworkMonitor: Sendable {
        /// Whether the device can reach Square now.
        var isConnected: Bool { get async }
        /// Adds an observer of connectivity changes.
        func add(_ observer: any NetworkObserver) async
    }

    /// Observes ``NetworkMonitor``. Not a Square type.
    public protocol NetworkObserver: AnyObject, Sendable {
        /// Connectivity changed.
        func networkDidChange(isConnected: Bool)
    }
}
