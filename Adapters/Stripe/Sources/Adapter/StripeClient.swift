import Foundation

/// The Stripe Terminal SDK's `Terminal` (`SCPTerminal`) as the adapter uses it: on iOS the real SDK conforms
/// through a thin bridge; on Linux and in tests ``StripeSimulator`` does.
///
/// Calls are the SDK 5.x calls with their Swift names. Where the SDK has a completion block, the call is `async` and
/// throws the SDK's ``Stripe/ErrorCode``; where it returns a ``Stripe/Cancelable`` (discovery, collection), the call
/// returns the cancelable at once and reports through its completion, exactly once.
public protocol StripeClient: Sendable {
    // MARK: Delegates, credentials and logging

    /// `Terminal.shared.delegate`: connection and payment status changes.
    func setTerminalDelegate(_ delegate: (any Stripe.TerminalDelegate)?)
    /// `Terminal.shared.offlineDelegate` ⚑: must be set before collecting payments offline.
    func setOfflineDelegate(_ delegate: (any Stripe.OfflineDelegate)?)
    /// `Terminal.setLogListener(_:)`: the SDK's logs, for the app's remote logs. Informational only.
    func setLogListener(_ listener: (@Sendable (String) -> Void)?)
    /// `clearCachedCredentials()`: for an account switch. Fails with `unexpectedOperationError` (5008) while a
    /// reader is connected; afterwards `paymentsCount` is nil and the amounts are empty.
    func clearCachedCredentials() async throws(Stripe.ErrorCode)

    // MARK: Status

    /// `connectionStatus`.
    var connectionStatus: Stripe.ConnectionStatus { get async }
    /// `paymentStatus`.
    var paymentStatus: Stripe.PaymentStatus { get async }
    /// `offlineStatus` ⚑.
    var offlineStatus: Stripe.OfflineStatus { get async }
    /// `connectedReader`: nil until connect completes.
    var connectedReader: Stripe.Reader? { get async }
    /// Whether offline mode is enabled for the account and location (Terminal Configuration API
    /// `offline[enabled]`; the simulator's `offlineEnabled`). The SDK has no property for it: a bridge answers from
    /// the app's configuration.
    var offlineModeEnabled: Bool { get async }

    // MARK: Readers

    /// `discoverReaders(_:delegate:completion:)`. Readers are reported to `delegate` as they are found; the
    /// completion runs when discovery stops: a timeout (`bluetoothScanTimedOut` if nothing was found), a
    /// connection, or cancellation (then with nil).
    func discoverReaders(_ configuration: Stripe.DiscoveryConfiguration, delegate: any Stripe.DiscoveryDelegate,
                         completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void) async -> Stripe.Cancelable
    /// `connectReader(_:connectionConfig:)` for a Bluetooth reader, at a location. Required updates install during
    /// the connection (reported to the configuration's delegate); offline connections follow Stripe's 30-day rules.
    func connectReader(_ reader: Stripe.Reader, configuration: Stripe.BluetoothConnectionConfiguration) async
        throws(Stripe.ErrorCode) -> Stripe.Reader
    /// `disconnectReader()`.
    func disconnectReader() async throws(Stripe.ErrorCode)
    /// `rebootReader()`: the reader disconnects (`rebootRequested`), reboots, and reconnects if automatic
    /// reconnection is on.
    func rebootReader() async throws(Stripe.ErrorCode)
    /// `installAvailableUpdate()`: installs the update reported by `didReportAvailableUpdate`.
    func installAvailableUpdate() async throws(Stripe.ErrorCode)

    // MARK: Payments

    /// `createPaymentIntent(_:createConfig:)`. Offline (or with `forceOffline`) the intent has a nil `stripeId`.
    func createPaymentIntent(_ parameters: Stripe.PaymentIntentParameters, createConfig: Stripe.CreateConfiguration)
        async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent
    /// `retrievePaymentIntent(clientSecret:)`: an intent created on the app's server.
    func retrievePaymentIntent(clientSecret: String) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent
    /// `collectPaymentMethod(_:collectConfig:completion:)`: reader prompts go to the connected reader's delegate;
    /// the completion receives the intent in `requiresConfirmation`, or an error (`canceled` when canceled).
    func collectPaymentMethod(_ intent: Stripe.PaymentIntent, collectConfig: Stripe.CollectConfiguration,
                              completion: @escaping @Sendable (Result<Stripe.PaymentIntent, Stripe.ErrorCode>) -> Void)
        async -> Stripe.Cancelable
    /// `confirmPaymentIntent(_:)`. On failure the error's `paymentIntent` is the updated intent
    /// (`requiresConfirmation`: confirm again; `requiresPaymentMethod`: collect again), or nil when the request
    /// timed out and the outcome is unknown (confirm the same intent again; never create a new one).
    func confirmPaymentIntent(_ intent: Stripe.PaymentIntent) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent
    /// `cancelPaymentIntent(_:)`.
    func cancelPaymentIntent(_ intent: Stripe.PaymentIntent) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent

    /// The SDK's own copies of the intents whose `metadata[key] == value`: created or collected in this app session,
    /// or stored offline and not yet forwarded. Answered from the device, online or not. Not a single SDK call: a
    /// bridge keeps the intents it has handed out and the ones the SDK stored.
    func localPaymentIntents(metadataKey key: String, value: String) async -> [Stripe.PaymentIntent]

    /// Stripe's server-side intents whose `metadata[key] == value`. Not an SDK call: a bridge asks the app's backend
    /// (Stripe's search API, `metadata['key']:'value'`). Throws when it cannot be reached. With
    /// ``localPaymentIntents(metadataKey:value:)`` it is how the adapter finds an earlier attempt's intent after a
    /// timeout or a restart, so that it never creates a second one.
    func serverPaymentIntents(metadataKey key: String, value: String) async throws(Stripe.ErrorCode)
        -> [Stripe.PaymentIntent]
}

extension Stripe {
    /// `SCPConnectionTokenProvider`: the app fetches a connection token from its backend. The SDK may ask while
    /// forwarding offline payments, even when it believes it is offline.
    public protocol ConnectionTokenProvider: Sendable {
        /// `fetchConnectionToken`: a token, or an error. An empty token is the SDK's "(nil, nil)" case.
        func fetchConnectionToken() async throws -> String
    }

    /// `SCPTerminalDelegate`.
    public protocol TerminalDelegate: Sendable {
        /// `terminal(_:didChangeConnectionStatus:)`.
        func didChangeConnectionStatus(_ status: ConnectionStatus)
        /// `terminal(_:didChangePaymentStatus:)`.
        func didChangePaymentStatus(_ status: PaymentStatus)
    }

    /// `SCPOfflineDelegate` ⚑ (all methods required).
    public protocol OfflineDelegate: Sendable {
        /// `terminal(_:didChange:)`: a field of `offlineStatus` changed.
        func didChangeOfflineStatus(_ offlineStatus: OfflineStatus)
        /// `terminal(_:didForwardPaymentIntent:error:)`: a stored intent was forwarded. On success `stripeId` is
        /// set; on error the intent is the local copy, identified by its metadata.
        func didForwardPaymentIntent(_ intent: PaymentIntent, error: ErrorCode?)
        /// `terminal(_:didReportForwardingError:)`: a forwarding error not tied to one intent (1511, 9051, 1930).
        func didReportForwardingError(_ error: ErrorCode)
    }

    /// `SCPDiscoveryDelegate`.
    public protocol DiscoveryDelegate: Sendable {
        /// `terminal(_:didUpdateDiscoveredReaders:)`: the latest list of readers found.
        func didUpdateDiscoveredReaders(_ readers: [Reader])
    }

    /// `SCPMobileReaderDelegate` with the base `SCPReaderDelegate` (disconnect and reconnection callbacks).
    public protocol MobileReaderDelegate: Sendable {
        /// `reader(_:didReportAvailableUpdate:)`: an optional update, with its `requiredAt`.
        func didReportAvailableUpdate(_ update: ReaderSoftwareUpdate)
        /// `reader(_:didStartInstallingUpdate:cancelable:)`. Canceling a required update fails the connection.
        func didStartInstallingUpdate(_ update: ReaderSoftwareUpdate, cancelable: Cancelable?)
        /// `reader(_:didReportReaderSoftwareUpdateProgress:)`, 0...1.
        func didReportReaderSoftwareUpdateProgress(_ progress: Double)
        /// `reader(_:didFinishInstallingUpdate:error:)`.
        func didFinishInstallingUpdate(_ update: ReaderSoftwareUpdate?, error: ErrorCode?)
        /// `reader(_:didRequestReaderInput:)`.
        func didRequestReaderInput(_ inputOptions: ReaderInputOptions)
        /// `reader(_:didRequestReaderDisplayMessage:)`.
        func didRequestReaderDisplayMessage(_ displayMessage: ReaderDisplayMessage)
        /// `reader(_:didReportReaderEvent:info:)`.
        func didReportReaderEvent(_ event: ReaderEvent)
        /// `reader(_:didReportBatteryLevel:status:isCharging:)`.
        func didReportBatteryLevel(_ batteryLevel: Double, status: BatteryStatus, isCharging: Bool)
        /// `reader(_:didDisconnect:)`.
        func didDisconnect(_ reason: DisconnectReason)
        /// `reader(_:didStartReconnect:disconnectReason:)`; the cancelable stops the reconnection.
        func didStartReconnect(_ cancelable: Cancelable, disconnectReason: DisconnectReason)
        /// `readerDidSucceedReconnect(_:)`.
        func didSucceedReconnect()
        /// `readerDidFailReconnect(_:)`; `didDisconnect` follows.
        func didFailReconnect()
    }
}
