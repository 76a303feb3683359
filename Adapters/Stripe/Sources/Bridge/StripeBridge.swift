#if TENDER_SURFACE_MIRROR
import StripeTerminalSurface
#elseif StripeTerminalSDK
import StripeTerminal
#endif

#if StripeTerminalSDK || TENDER_SURFACE_MIRROR
import Foundation
package import TenderStripe

/// ``StripeClient`` over the real Stripe Terminal iOS SDK (5.5): `Terminal.shared` as the Stripe adapter needs it.
///
/// What an app writes (once, at launch, on the main actor, before anything reads `Terminal.shared`):
/// ```swift
/// import StripeTerminal
/// import TenderStripe
/// import TenderStripeTerminal
///
/// Terminal.initWithTokenProvider(StripeBridgeTokenProvider { try await myServer.connectionToken() },
///                                delegate: nil, offlineDelegate: nil, logLevel: .none)
/// let processor = StripeProcessor.terminal(offlineModeEnabled: true, captureService: myServer,
///                                          refundService: myServer)
/// ```
/// The closure fetches a connection token from the app's backend; `offlineModeEnabled` is what the app configured
/// through Stripe's Terminal Configuration API (the SDK does not say).
///
/// What the bridge does, by concern (one file each):
/// - **Wiring** (this file): it captures `Terminal.shared` and installs its own `TerminalDelegate` and
///   `OfflineDelegate` on it once; the adapter's delegates are forwarded through them (``setTerminalDelegate(_:)``
///   swaps what they forward to, and nil stops it). The bridge holds every delegate object it gives the SDK strongly,
///   including the connection configuration's, which the SDK holds weakly.
/// - **Threads**: every SDK call and property read is made on the main actor. Stripe publishes no per-call thread
///   rule; its header says the singleton runs one operation at a time and names no callback queue, and its changelog
///   records fixes for calls made from background threads (2.2.0, a deadlock; 2.8.0, initialization off the main
///   thread). Completions and delegate methods may arrive on any thread, so every closure the bridge gives the SDK is
///   `@Sendable` (never isolated to the main actor, so nothing assumes it runs there) and every delegate object
///   is nonisolated: they convert the SDK's objects to values at once and call the adapter's `@Sendable` closures and
///   `Sendable` delegates directly, never waiting for the main thread. `Cancelable.completed` is the one SDK read made
///   on the caller's thread.
/// - **Objects** (`StripeObjectRegistry`): each intent object the SDK returns gets a handle
///   (`Stripe.PaymentIntent.sdkHandle`) and is passed back identical; an unknown handle is refused with
///   `confirmInvalidPaymentIntent` without calling the SDK. Readers go back by serial number.
/// - **Errors** (`StripeBridgeErrors`): by case name, with the intent, decline code and API error from `userInfo`.
/// - **Completion blocks** become the client protocol's `async` forms; waiting ignores task cancellation (the SDK's
///   answer is what counts). `Cancelable`s are wrapped (`StripeBridgeCancelable`).
///
/// A relaunch is a new process: a new bridge with an empty registry. Creating a second bridge in one process
/// replaces the first one's delegates on `Terminal.shared` (the SDK has one of each).
package final class StripeTerminalBridge: StripeClient, Sendable {
    /// `Terminal.shared`, as read at initialization.
    @MainActor let terminal: Terminal
    /// The SDK's intent and reader objects, by handle and serial number.
    let registry: StripeObjectRegistry
    /// `Terminal.shared.delegate` for the bridge's lifetime.
    let terminalObserver: StripeTerminalObserver
    /// `Terminal.shared.offlineDelegate` for the bridge's lifetime.
    let offlineObserver: StripeOfflineObserver
    /// The current connection configuration's delegate (the SDK holds it weakly: a ``StripeReaderObserver``,
    /// ``StripeTapToPayReaderObserver`` or ``StripeInternetReaderObserver``) and the running discovery's.
    let activeObservers = StripeBridgeLocked<(reader: (any ReaderDelegate & Sendable)?,
                                              discovery: StripeDiscoveryObserver?)>((nil, nil))
    /// The refund parameters the first refund step built, for the second (`processRefund`).
    let pendingRefund = StripeBridgeLocked<UncheckedSendableRefund?>(nil)
    private let offlineModeSetting: Bool

    /// Creates the bridge over `Terminal.shared` and installs its delegates there.
    ///
    /// Call `Terminal.initWithTokenProvider(_:delegate:offlineDelegate:logLevel:)` first, with a
    /// ``StripeBridgeTokenProvider`` (the SDK stops the app if `Terminal.shared` is read before).
    /// - Parameters:
    ///   - offlineModeEnabled: whether offline mode is enabled for the account and location (Stripe's Terminal
    ///     Configuration API `offline[enabled]`); the SDK has no property for it, so the app says.
    ///   - objectCapacity: how many intent objects the bridge keeps for the adapter to pass back
    ///     (the least recently used are forgotten beyond it; a forgotten handle is refused like an earlier launch's).
    @MainActor
    package init(offlineModeEnabled: Bool, objectCapacity: Int = 512) {
        let registry = StripeObjectRegistry(capacity: objectCapacity)
        let terminal = Terminal.shared
        self.registry = registry
        self.terminal = terminal
        self.offlineModeSetting = offlineModeEnabled
        self.terminalObserver = StripeTerminalObserver()
        self.offlineObserver = StripeOfflineObserver(registry: registry)
        terminal.delegate = terminalObserver
        terminal.offlineDelegate = offlineObserver
    }

    // MARK: Delegates and logging

    /// Forwards `Terminal.shared.delegate`'s callbacks to `delegate` from now on (nil: to nobody).
    package func setTerminalDelegate(_ delegate: (any Stripe.TerminalDelegate)?) { terminalObserver.forward(to: delegate) }

    /// Forwards `Terminal.shared.offlineDelegate`'s callbacks to `delegate` from now on (nil: to nobody).
    package func setOfflineDelegate(_ delegate: (any Stripe.OfflineDelegate)?) { offlineObserver.forward(to: delegate) }

    /// `Terminal.setLogListener(_:)`, on the main actor. The SDK calls the listener on any thread; it cannot be
    /// removed.
    package func setLogListener(_ listener: @escaping @Sendable (String) -> Void) {
        // `@Sendable`: not isolated to the main actor, so the SDK may call it from any thread.
        Task { @MainActor in Terminal.setLogListener { @Sendable line in listener(line) } }
    }

    // MARK: Status

    /// `Terminal.shared.connectionStatus`, read on the main actor.
    package var connectionStatus: Stripe.ConnectionStatus {
        get async { await readConnectionStatus() }
    }

    /// `Terminal.shared.paymentStatus`, read on the main actor.
    package var paymentStatus: Stripe.PaymentStatus {
        get async { await readPaymentStatus() }
    }

    /// `Terminal.shared.connectedReader`, read on the main actor (nil until a connect completes).
    package var connectedReader: Stripe.Reader? {
        get async { await readConnectedReader() }
    }

    /// What the app passed at initialization (not an SDK property).
    package var offlineModeEnabled: Bool {
        get async { offlineModeSetting }
    }

    @MainActor private func readConnectionStatus() -> Stripe.ConnectionStatus {
        Self.value(of: terminal.connectionStatus)
    }

    @MainActor private func readPaymentStatus() -> Stripe.PaymentStatus {
        Self.value(of: terminal.paymentStatus)
    }

    @MainActor private func readConnectedReader() -> Stripe.Reader? {
        guard let reader = terminal.connectedReader else { return nil }
        registry.register(reader)
        return Self.value(of: reader)
    }

    // MARK: Status values

    /// `ConnectionStatus` by case.
    static func value(of status: ConnectionStatus) -> Stripe.ConnectionStatus {
        switch status {
        case .notConnected: .notConnected
        case .discovering: .discovering
        case .connecting: .connecting
        case .connected: .connected
        case .reconnecting: .reconnecting
        // A newer SDK's state: not a connection the adapter can use.
        @unknown default: .notConnected
        }
    }

    /// `PaymentStatus` by case.
    static func value(of status: PaymentStatus) -> Stripe.PaymentStatus {
        switch status {
        case .notReady: .notReady
        case .ready: .ready
        case .waitingForInput: .waitingForInput
        case .processing: .processing
        // A newer SDK's state: not ready for a new payment.
        @unknown default: .notReady
        }
    }
}

// MARK: - Completions

/// Carries a non-`Sendable` SDK value (an Objective-C block or object) across a concurrency boundary where only one
/// side uses it at a time.
struct StripeBridgeUnchecked<Value>: @unchecked Sendable {
    let value: Value
}

// MARK: - Cancelable

/// The SDK's `Cancelable` as the adapter's ``Stripe/Cancelable``: `cancel` runs on the main actor and its completion
/// gets the SDK's error translated (nil: the command will be canceled).
final class StripeBridgeCancelable: Stripe.Cancelable, @unchecked Sendable {
    // The SDK object: `cancel(_:)` is called on the main actor only.
    private let cancelable: Cancelable
    private let registry: StripeObjectRegistry

    init(_ cancelable: Cancelable, registry: StripeObjectRegistry) {
        self.cancelable = cancelable
        self.registry = registry
    }

    /// `completed`, read on the caller's thread (a flag the SDK sets; reading it never waits for the main thread).
    var completed: Bool { cancelable.completed }

    /// `cancel(_:)` on the main actor.
    func cancel(_ completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void) {
        let registry = registry
        let object = StripeBridgeUnchecked(value: cancelable)
        Task { @MainActor in
            object.value.cancel { @Sendable error in
                completion(error.map { StripeBridgeErrors.translate($0, registry: registry) })
            }
        }
    }

    /// The wrapped SDK object (tests compare identities).
    var sdkObject: Cancelable { cancelable }
}
#endif
