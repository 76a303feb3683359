import Foundation

/// The one seam through which `StripeTerminalSurface` gets its behaviour.
///
/// `StripeTerminalSurface` declares the public API of the Stripe Terminal iOS SDK 5.5.0 exactly as Swift imports it, so
/// that bridge code written against `import StripeTerminal` also compiles on Linux. The declarations do nothing by
/// themselves: every member that is more than storage calls this backend, and fails loudly
/// (`preconditionFailure("StripeTerminalSurface: no backend installed …")`) while none is installed.
///
/// ## Installing a backend
/// A later stage implements this protocol over Tender's Stripe simulator, in a target of this package (the `package`
/// API is visible there, never to apps), and installs it before the code under test runs:
/// ```swift
/// SurfaceBackendSlot.install(SimulatorSurfaceBackend(simulator))     // a later stage's type; forgets Terminal.shared
/// defer { SurfaceBackendSlot.uninstall() }
/// Terminal.initWithTokenProvider(tokenProvider)                      // → backend.initialize(…)
/// let intent = try await Terminal.shared.createPaymentIntent(params)  // → backend.createPaymentIntent(…)
/// ```
/// `install(_:)` starts a fresh "process": `Terminal.shared` is forgotten and the log listener is cleared, so a test
/// can install a new backend for each scenario. The slot is process-global: tests that install backends must not run
/// in parallel with each other. The declarations never change to give the surface a behaviour.
///
/// ## What the backend does, and what the surface does itself
/// - **The backend plays the SDK.** It receives every `Terminal` call in its completion-block form (the form the real
///   Objective-C SDK implements) and answers through the completion, on whatever thread it likes, as the SDK does. It
///   calls the app's delegates (`terminal.delegate`, `terminal.offlineDelegate`, the `DiscoveryDelegate` it is given,
///   the `MobileReaderDelegate` in the connection configuration) and the token provider
///   (`fetchConnectionToken(_:)`, completion form). It creates the SDK's value objects (`Reader`, `PaymentIntent`,
///   `Charge`, `OfflineStatus`, `Cancelable`, errors…) with their `package init(surface: .backend, …)` initializers, and
///   may update them through their `package` setters.
/// - **The surface does only what Swift's importer and Stripe's Swift overlay do:** the `async` variants wrap the
///   completion forms (as the compiler does for imported completion handlers); the overlay members
///   (`discoverReaders(_:)` as an `AsyncThrowingStream`, `async` collect / confirm / process, the `Result`-returning
///   `clearCachedCredentials()` / `supportsReaders(of:…)`) wrap the same calls and forward task cancellation to the
///   `Cancelable`; builders collect values and ask ``validate(_:)`` before handing the product out; plain stored
///   properties (`Terminal.delegate`, `offlineDelegate`, `logLevel`, simulator settings) are storage.
///
/// ## Errors
/// Linux has no bridging from `NSError` to imported error structs: `error as? ErrorCode` and `catch ErrorCode.canceled`
/// match only errors that *are* ``ErrorCode`` values, while on iOS they also match the SDK's `NSError`s. So report SDK
/// errors as `ErrorCode(.code, userInfo: …)` values (keys from ``ErrorKey``), and confirm failures as
/// ``ConfirmPaymentIntentError`` objects (an `NSError` in ``ErrorDomain``, as the SDK does). Bridge code that reads
/// `(error as NSError).domain` / `.code` behaves the same on both platforms for both kinds.
///
/// ## Threading
/// The backend is process-wide and is called from any thread the bridge calls from, hence `Sendable`.
package protocol SurfaceBackend: AnyObject, Sendable {
    // MARK: Terminal lifecycle and state

    /// `Terminal.initWithTokenProvider…` (every variant; the shorter ones pass nil delegates and `.none`). On the first
    /// call the surface has created `terminal` (it becomes `Terminal.shared`) and stored `delegate`, `offlineDelegate`
    /// and `logLevel` in it; the backend keeps the token provider. On later calls `isRepeatedCall` is true, `terminal` is
    /// the existing singleton and nothing was stored: the backend does what the SDK would (the header says: call once).
    func initialize(
        _ terminal: Terminal, tokenProvider: any ConnectionTokenProvider, delegate: (any TerminalDelegate)?,
        offlineDelegate: (any OfflineDelegate)?, logLevel: LogLevel, isRepeatedCall: Bool
    )
    /// `Terminal.connectionStatus`.
    func connectionStatus(of terminal: Terminal) -> ConnectionStatus
    /// `Terminal.paymentStatus`.
    func paymentStatus(of terminal: Terminal) -> PaymentStatus
    /// `Terminal.connectedReader`: nil until a connect completes.
    func connectedReader(of terminal: Terminal) -> Reader?
    /// `Terminal.offlineStatus`.
    func offlineStatus(of terminal: Terminal) -> OfflineStatus
    /// `Terminal.simulatorConfiguration`: one object per terminal, which the app configures by setting its properties.
    func simulatorConfiguration(of terminal: Terminal) -> SimulatorConfiguration
    /// `Terminal.simulatedOfflineModeConfiguration`.
    func simulatedOfflineModeConfiguration(of terminal: Terminal) -> SimulatedOfflineModeConfiguration
    /// `Terminal.setSimulatedOfflineModeConfiguration(_:)` (throws 6908 for a livemode reader, 6909 without access).
    func setSimulatedOfflineModeConfiguration(_ configuration: SimulatedOfflineModeConfiguration, on terminal: Terminal)
        throws
    /// `Terminal.__clearCachedCredentials()` (and, through it, the overlay's `clearCachedCredentials()`).
    func clearCachedCredentials(_ terminal: Terminal) throws
    /// `Terminal.__supportsReaders(of:discoveryMethod:simulated:)` (and the overlay's `supportsReaders(of:…)`).
    func supportsReaders(
        _ terminal: Terminal, of deviceType: DeviceType, discoveryMethod: DiscoveryMethod, simulated: Bool
    ) throws

    // MARK: Readers

    /// `discoverReaders(_:delegate:completion:)`. The returned `Cancelable` stops discovery; the completion runs once.
    func discoverReaders(
        _ terminal: Terminal, configuration: any DiscoveryConfiguration, delegate: any DiscoveryDelegate,
        completion: @escaping ErrorCompletionBlock
    ) -> Cancelable
    /// `connectReader(_:connectionConfig:completion:)`.
    func connectReader(
        _ terminal: Terminal, reader: Reader, connectionConfig: ConnectionConfiguration,
        completion: @escaping ReaderCompletionBlock
    )
    /// `listLocations(parameters:completion:)`.
    func listLocations(
        _ terminal: Terminal, parameters: ListLocationsParameters?, completion: @escaping LocationsCompletionBlock
    )
    /// `installAvailableUpdate()`: progress and outcome go to the reader's `MobileReaderDelegate`.
    func installAvailableUpdate(_ terminal: Terminal)
    /// `rebootReader(_:)`.
    func rebootReader(_ terminal: Terminal, completion: @escaping ErrorCompletionBlock)
    /// `disconnectReader(_:)`.
    func disconnectReader(_ terminal: Terminal, completion: @escaping ErrorCompletionBlock)
    /// `setReaderDisplay(_:completion:)`: a smart reader shows the cart.
    func setReaderDisplay(_ terminal: Terminal, cart: Cart, completion: @escaping ErrorCompletionBlock)
    /// `clearReaderDisplay(_:)`: a smart reader's screen returns to idle.
    func clearReaderDisplay(_ terminal: Terminal, completion: @escaping ErrorCompletionBlock)

    // MARK: Payments

    /// `createPaymentIntent(_:completion:)` (`createConfig` nil) and `createPaymentIntent(_:createConfig:completion:)`.
    func createPaymentIntent(
        _ terminal: Terminal, parameters: PaymentIntentParameters, createConfig: CreateConfiguration?,
        completion: @escaping PaymentIntentCompletionBlock
    )
    /// `retrievePaymentIntent(clientSecret:completion:)`.
    func retrievePaymentIntent(
        _ terminal: Terminal, clientSecret: String, completion: @escaping PaymentIntentCompletionBlock
    )
    /// `collectPaymentMethod(_:completion:)` (`collectConfig` nil) and `collectPaymentMethod(_:collectConfig:completion:)`.
    func collectPaymentMethod(
        _ terminal: Terminal, paymentIntent: PaymentIntent, collectConfig: CollectPaymentIntentConfiguration?,
        completion: @escaping PaymentIntentCompletionBlock
    ) -> Cancelable?
    /// `confirmPaymentIntent(_:completion:)` (`confirmConfig` nil) and `confirmPaymentIntent(_:confirmConfig:completion:)`.
    func confirmPaymentIntent(
        _ terminal: Terminal, paymentIntent: PaymentIntent, confirmConfig: ConfirmPaymentIntentConfiguration?,
        completion: @escaping ConfirmPaymentIntentCompletionBlock
    ) -> Cancelable?
    /// `processPaymentIntent(_:collectConfig:confirmConfig:completion:)`.
    func processPaymentIntent(
        _ terminal: Terminal, paymentIntent: PaymentIntent, collectConfig: CollectPaymentIntentConfiguration?,
        confirmConfig: ConfirmPaymentIntentConfiguration?, completion: @escaping PaymentIntentCompletionBlock
    ) -> Cancelable?
    /// `cancelPaymentIntent(_:completion:)`.
    func cancelPaymentIntent(
        _ terminal: Terminal, paymentIntent: PaymentIntent, completion: @escaping PaymentIntentCompletionBlock
    )

    // MARK: In-person refunds

    /// `processRefund(_:collectConfig:completion:)` (5.0): collects the card and refunds it; a failure is a
    /// `ConfirmRefundError` (its `refund` nil: timed out, outcome unknown). The `Cancelable` cancels the collection.
    func processRefund(
        _ terminal: Terminal, refundParams: RefundParameters, collectConfig: CollectRefundConfiguration?,
        completion: @escaping ConfirmRefundCompletionBlock
    ) -> Cancelable?
    /// The deprecated `collectRefundPaymentMethod(_:completion:)` and `(_:refundConfig:completion:)`.
    func collectRefundPaymentMethod(
        _ terminal: Terminal, refundParams: RefundParameters, refundConfig: CollectRefundConfiguration?,
        completion: @escaping ErrorCompletionBlock
    ) -> Cancelable?
    /// The deprecated `confirmRefund(completion:)`.
    func confirmRefund(_ terminal: Terminal, completion: @escaping ConfirmRefundCompletionBlock) -> Cancelable?

    // MARK: Calls the backend does not play

    /// A `Terminal` call this backend does not simulate (set-up intents, easy connect, reader settings,
    /// collect inputs and data, printing, Tap to Pay account linking): the error its completion gets, at once. `call`
    /// is the Swift name (`processSetupIntent(_:allowRedisplay:collectConfig:completion:)`).
    func unsupportedCall(_ terminal: Terminal, _ call: String) -> any Error

    // MARK: Everything else that is behaviour

    /// The SDK's display strings: `Terminal.stringFrom…(_:)` and `ReaderSoftwareUpdate.string(from:)`.
    func describe(_ value: SurfaceDescribedValue) -> String
    /// A builder's `build()`: throw the SDK's error for invalid values, return to let the product out.
    func validate(_ product: SurfaceBuiltProduct) throws
    /// `SimulatedCard.isOnlinePin()` / `isOfflinePin()`.
    func pinKind(of card: SimulatedCard) -> SurfaceSimulatedPin
    /// `TestReaderUpdate.random()`: the update type and components to create, or nil for "no update".
    func randomTestReaderUpdate() -> (updateType: TestReaderUpdateType, components: UpdateComponent)?
}

/// Marks the `package` initializers of the SDK's objects, so that a call to one (only a backend should make one) never
/// looks like public SDK API: the SDK makes these objects itself and marks `init()`/`new` unavailable.
package enum SurfaceConstruction: Sendable {
    /// Made by a backend playing the SDK.
    case backend
}

/// A value the SDK turns into display text (`Terminal.stringFrom…` and `ReaderSoftwareUpdate.string(from:)`).
package enum SurfaceDescribedValue: Sendable {
    case readerInputOptions(ReaderInputOptions)
    case readerDisplayMessage(ReaderDisplayMessage)
    case readerEvent(ReaderEvent)
    case connectionStatus(ConnectionStatus)
    case paymentStatus(PaymentStatus)
    case deviceType(DeviceType)
    case discoveryMethod(DiscoveryMethod)
    case cardBrand(CardBrand)
    case paymentIntentStatus(PaymentIntentStatus)
    case captureMethod(CaptureMethod)
    case readMethod(ReadMethod)
    case networkStatus(NetworkStatus)
    case disconnectReason(DisconnectReason)
    case offlineBehavior(OfflineBehavior)
    case error(ErrorCode.Code)
    case updateTimeEstimate(UpdateTimeEstimate)
    case simulatedOfflineMode(SimulatedOfflineMode)
    case paymentMethodType(PaymentMethodType)
}

/// What a builder is about to hand out, for ``SurfaceBackend/validate(_:)``.
package enum SurfaceBuiltProduct {
    case paymentIntentParameters(PaymentIntentParameters)
    case createConfiguration(CreateConfiguration)
    case collectPaymentIntentConfiguration(CollectPaymentIntentConfiguration)
    case confirmPaymentIntentConfiguration(ConfirmPaymentIntentConfiguration)
    case bluetoothScanDiscoveryConfiguration(BluetoothScanDiscoveryConfiguration)
    case bluetoothProximityDiscoveryConfiguration(BluetoothProximityDiscoveryConfiguration)
    case bluetoothConnectionConfiguration(BluetoothConnectionConfiguration)
    case refundParameters(RefundParameters)
    case cart(Cart)
    case cartLineItem(CartLineItem)
    case tippingConfiguration(TippingConfiguration)
    case internetDiscoveryConfiguration(InternetDiscoveryConfiguration)
    case tapToPayDiscoveryConfiguration(TapToPayDiscoveryConfiguration)
    case internetConnectionConfiguration(InternetConnectionConfiguration)
    case tapToPayConnectionConfiguration(TapToPayConnectionConfiguration)
}

/// The cardholder verification a simulated card asks for, for `SimulatedCard.isOnlinePin()` / `isOfflinePin()`.
package enum SurfaceSimulatedPin: Sendable {
    /// No PIN.
    case none
    /// An online PIN (`isOnlinePin()`).
    case online
    /// An offline PIN (`isOfflinePin()`).
    case offline
}
