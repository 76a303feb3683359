import Foundation

/// The Stripe Terminal SDK's `Terminal` (`SCPTerminal`, 5.5) as the adapter uses it: on iOS the real SDK conforms
/// through a thin bridge (`StripeTerminalBridge`, product `TenderStripeTerminal`, package trait `StripeTerminalSDK`);
/// on Linux and in tests ``StripeSimulator`` does.
///
/// Every requirement is one SDK call (or property) under its Swift name, with the same shape: the SDK's completion
/// blocks where the SDK returns a ``Stripe/Cancelable`` (discovery, collection, confirmation, in-person refunds), and
/// the SDK's own `async` import (the Clang import of a completion-handler method) where it does not. Nothing here
/// lists what the SDK stored: the SDK has no such call (its `offlineStatus` holds counts and amounts only), so the
/// adapter never depends on one. Stripe's server-side calls are in ``StripeServerLookup``, not here.
///
/// ## What a bridge does, call by call
/// - **Set-up.** Before `Terminal.shared` is first read, call `Terminal.initWithTokenProvider(_:delegate:offlineDelegate:logLevel:)`
///   once, with an `NSObject` conforming to `ConnectionTokenProvider` whose async `fetchConnectionToken()` calls the
///   app's ``Stripe/ConnectionTokenProvider``. The token provider cannot be changed afterwards (the SDK has no
///   setter since 5.0): it is the bridge's initializer argument, not a call here.
/// - **Objects.** Keep a registry from ``Stripe/PaymentIntent/sdkHandle`` to the `SCPPaymentIntent` the SDK handed
///   out (assign a fresh handle to every object the SDK returns: create, retrieve, collect, confirm, cancel, the
///   error's intent, the forwarding callback's intent) and pass the registered object back. An unknown handle (a
///   server copy, or one from before a relaunch) is refused with ``Stripe/ErrorCode/Code/confirmInvalidPaymentIntent``
///   without calling the SDK. Readers are passed back by serial number from the last discovery.
/// - **Errors.** Convert each `NSError` in `ErrorDomain` to ``Stripe/ErrorCode`` by case name (see that type), with
///   `ConfirmPaymentIntentError.paymentIntent` / `ConfirmRefundError.refund` as ``Stripe/ErrorCode/paymentIntent`` /
///   ``Stripe/ErrorCode/refund``.
/// - **Threads.** The SDK runs one command at a time and names no callback queue; completions and delegate methods
///   may arrive on any thread. Hop to the main actor before calling the SDK (CHANGELOG 5.4.0 fixed a crash when
///   callbacks ran off the main thread under Swift concurrency); every closure here is `@Sendable`.
/// - **Delegates.** The SDK has one `delegate` and one `offlineDelegate` at a time and holds the Bluetooth
///   connection configuration's delegate weakly: the bridge keeps strong references and wraps each protocol here in
///   an `NSObject` conforming to the SDK's.
///
/// ## Remaining differences from the SDK
/// - ``offlineModeEnabled`` is not an SDK property (the Terminal Configuration API's `offline[enabled]`): the
///   bridge answers from the app's configuration.
/// - Readers connect over Bluetooth, the network (smart readers) or as Tap to Pay, one `connectReader` per
///   configuration type as in the SDK; USB is left out (the SDK compiles it only with `SCP_USB_ENABLED`).
/// - ``Stripe/DiscoveryConfiguration`` is one value for the SDK's per-method configuration classes.
/// - Only the fields the adapter reads are modelled on SDK objects; `reader(_:didReportReaderEvent:info:)` drops
///   `info`.
/// - In-person refunds are two requirements (``collectRefundPaymentMethod(_:refundConfig:completion:)`` prepares,
///   ``confirmRefund(completion:)`` refunds); the bridge runs 5.x's one call, `processRefund`, in the second.
/// - `processPaymentIntent` (5.0's one-call form) is not used: the adapter reports
///   ``Tender/PaymentState/collecting`` and ``Tender/PaymentState/processing`` separately, applies Stripe's
///   failure table to the confirmation's typed error (`processPaymentIntent` reports a plain `Error`), and
///   confirms an already collected intent again after a lost answer without asking the customer for the card.
package protocol StripeClient: Sendable {
    // MARK: Delegates, logging and credentials

    /// `Terminal.shared.delegate`: connection and payment status changes. The SDK asserts that it is set before a
    /// Bluetooth reader connects.
    func setTerminalDelegate(_ delegate: (any Stripe.TerminalDelegate)?)
    /// `Terminal.shared.offlineDelegate` (offline): must be set before collecting payments offline.
    func setOfflineDelegate(_ delegate: (any Stripe.OfflineDelegate)?)
    /// `Terminal.setLogListener(_:)`: the SDK's logs, for the app's remote logs. Informational only; the listener
    /// cannot be removed (the SDK has no way to), so set it once.
    func setLogListener(_ listener: @escaping @Sendable (String) -> Void)
    /// `clearCachedCredentials()` (a `Result` in the SDK's Swift overlay): for an account switch. Fails with
    /// `unexpectedOperationError` (5008) while a reader is connected; afterwards `paymentsCount` is nil.
    func clearCachedCredentials() async throws(Stripe.ErrorCode)

    // MARK: Status

    /// `connectionStatus`.
    var connectionStatus: Stripe.ConnectionStatus { get async }
    /// `paymentStatus`.
    var paymentStatus: Stripe.PaymentStatus { get async }
    /// `offlineStatus` (offline): the SDK's network status, and the count and amounts of what it stores.
    var offlineStatus: Stripe.OfflineStatus { get async }
    /// `connectedReader`: nil until connect completes.
    var connectedReader: Stripe.Reader? { get async }
    /// Whether offline mode is enabled for the account and location. Not an SDK property (see above).
    var offlineModeEnabled: Bool { get async }

    // MARK: Readers

    /// `discoverReaders(_:delegate:completion:) -> Cancelable`. Readers are reported to `delegate` as they are found;
    /// the completion runs when discovery stops: a timeout (`bluetoothScanTimedOut` if nothing was found), a
    /// connection, or cancellation (then with nil).
    func discoverReaders(_ configuration: Stripe.DiscoveryConfiguration, delegate: any Stripe.DiscoveryDelegate,
                         completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void) async -> any Stripe.Cancelable
    /// `connectReader(_:connectionConfig:) async throws -> Reader` for a Bluetooth reader, at a location. Required
    /// updates install during the connection (reported to the configuration's delegate); offline connections follow
    /// Stripe's 30-day rules.
    func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.BluetoothConnectionConfiguration) async
        throws(Stripe.ErrorCode) -> Stripe.Reader
    /// `connectReader(_:connectionConfig:) async throws -> Reader` for the Tap to Pay reader: Apple's terms of service
    /// are shown during the connection when the configuration permits it. Errors are ``Stripe/ErrorCode``s (or a
    /// ``Tender/PaymentError`` from a client that does not implement it: the default refuses).
    func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.TapToPayConnectionConfiguration) async
        throws -> Stripe.Reader
    /// `connectReader(_:connectionConfig:) async throws -> Reader` for a smart reader on the local network.
    func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.InternetConnectionConfiguration) async
        throws -> Stripe.Reader
    /// `setReaderDisplay(_:completion:)`: shows a cart on a smart reader.
    func setReaderDisplay(_ cart: Stripe.Cart) async throws
    /// `clearReaderDisplay(_:)`: returns a smart reader's screen to idle.
    func clearReaderDisplay() async throws
    /// `disconnectReader() async throws`.
    func disconnectReader() async throws(Stripe.ErrorCode)
    /// `rebootReader() async throws`: the reader disconnects (`rebootRequested`), reboots, and reconnects if
    /// automatic reconnection is on.
    func rebootReader() async throws(Stripe.ErrorCode)
    /// `installAvailableUpdate()`: no completion and no result; start, progress and the outcome (an error, or nil
    /// `update` when there was nothing to install) go to the connected reader's ``Stripe/MobileReaderDelegate``.
    func installAvailableUpdate() async

    // MARK: Payments

    /// `createPaymentIntent(_:createConfig:) async throws -> PaymentIntent`. Offline (or with `forceOffline`) the
    /// intent has a nil `stripeId`.
    func createPaymentIntent(_ parameters: Stripe.PaymentIntentParameters, createConfig: Stripe.CreateConfiguration?)
        async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent
    /// `retrievePaymentIntent(clientSecret:) async throws -> PaymentIntent`: an SDK object for an intent that exists
    /// on Stripe (created on the app's server, or by an earlier launch of the app).
    func retrievePaymentIntent(clientSecret: String) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent
    /// `collectPaymentMethod(_:collectConfig:completion:) -> Cancelable?`: reader prompts go to the connected
    /// reader's delegate; the completion receives the intent in `requiresConfirmation`, or an error (`canceled` when
    /// canceled). Collection is local to the SDK: Stripe's copy stays `requires_payment_method`.
    func collectPaymentMethod(_ paymentIntent: Stripe.PaymentIntent,
                              collectConfig: Stripe.CollectPaymentIntentConfiguration?,
                              completion: @escaping @Sendable (Stripe.PaymentIntent?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)?
    /// `confirmPaymentIntent(_:confirmConfig:completion:) -> Cancelable?`. On failure the error
    /// (`ConfirmPaymentIntentError`) carries the updated intent (`requiresConfirmation`: confirm again;
    /// `requiresPaymentMethod`: collect again), or nil when the request timed out and the outcome is unknown
    /// (confirm the same intent again; never create a new one). Cancelable only until the request leaves the device.
    func confirmPaymentIntent(_ paymentIntent: Stripe.PaymentIntent,
                              confirmConfig: Stripe.ConfirmPaymentIntentConfiguration?,
                              completion: @escaping @Sendable (Stripe.PaymentIntent?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)?
    /// `cancelPaymentIntent(_:) async throws -> PaymentIntent`. A payment stored for forwarding cannot be canceled.
    func cancelPaymentIntent(_ paymentIntent: Stripe.PaymentIntent) async throws(Stripe.ErrorCode)
        -> Stripe.PaymentIntent

    // MARK: In-person refunds (Interac)

    /// The first step of an in-person refund (the simulator plays the SDK's deprecated
    /// `collectRefundPaymentMethod(_:refundConfig:completion:)`: the card is presented here; the bridge only builds
    /// and keeps the `RefundParameters` for 5.x's `processRefund`, run in the second step). The completion gets nil
    /// or an error. Only for payment methods refunded in person (Interac).
    func collectRefundPaymentMethod(_ refundParams: Stripe.RefundParameters,
                                    refundConfig: Stripe.CollectRefundConfiguration?,
                                    completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)?
    /// The second step: refunds the card (the simulator plays `confirmRefund(completion:)`; the bridge runs
    /// `processRefund(_:collectConfig:completion:)`, which collects the card and refunds it). The error
    /// (`ConfirmRefundError`) carries the failed refund, or nil when the request timed out (outcome unknown).
    func confirmRefund(completion: @escaping @Sendable (Stripe.Refund?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)?
}

extension Stripe {
    /// `SCPConnectionTokenProvider` in its `async` form: the app fetches a connection token from its backend. The SDK
    /// may ask while forwarding offline payments, even when it believes it is offline. Given to the bridge (or the
    /// simulator) at initialization, like the SDK's `initWithTokenProvider`.
    package protocol ConnectionTokenProvider: Sendable {
        /// `fetchConnectionToken() async throws -> String`: a token, or an error. The async form cannot answer
        /// "nothing"; the simulator treats an empty token as the completion form's `(nil, nil)` (1510).
        func fetchConnectionToken() async throws -> String
    }

    /// `SCPTerminalDelegate` (both methods optional in the SDK).
    package protocol TerminalDelegate: Sendable {
        /// `terminal(_:didChangeConnectionStatus:)`.
        func didChangeConnectionStatus(_ status: ConnectionStatus)
        /// `terminal(_:didChangePaymentStatus:)`.
        func didChangePaymentStatus(_ status: PaymentStatus)
    }
}
