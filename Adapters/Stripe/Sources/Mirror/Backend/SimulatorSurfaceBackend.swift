import Foundation
package import StripeTerminalSurface
import TenderStripe
package import TenderStripeSimulator

/// A ``SurfaceBackend`` whose behaviour is ``StripeSimulator``'s: the surface mirror plays Stripe Terminal with the
/// simulator's documented behaviour (faults, relaunches, search lag, forwarding, expiry), so code written against the
/// SDK's API, the Stripe bridge above all, runs on Linux as it would over the SDK. Test support.
///
/// ```swift
/// let tokens = SimulatorTokenRelay()
/// let simulator = StripeSimulator(configuration: configuration, clock: clock, tokenProvider: tokens)
/// SurfaceBackendSlot.install(SimulatorSurfaceBackend(simulator: simulator, tokenRelay: tokens))
/// Terminal.initWithTokenProvider(appTokenProvider, delegate: nil, offlineDelegate: nil, logLevel: .none)
/// ```
/// - Every `Terminal` call goes to the simulator through its ``StripeClient`` API. Calls the SDK answers through a
///   completion run in a task and answer from it; calls that return at once (a `Cancelable`, a status, an update
///   started) wait for the simulator, so commands reach it in the order the app made them.
/// - The SDK's objects are built from the simulator's values (one `PaymentIntent` object per simulator handle, updated
///   in place; one `Reader` object per serial number), errors in `ErrorDomain` with their `userInfo`, confirmation
///   errors as `ConfirmPaymentIntentError`.
/// - The simulator's delegate callbacks reach the app's delegates with the SDK's sender-first signatures; the
///   connection configuration's delegate is held weakly, as the SDK holds it.
/// - The token provider given to `initWithTokenProvider` is asked with its completion form whenever the simulator needs
///   a token (``SimulatorTokenRelay``); the simulator's log lines go to `Terminal.setLogListener`'s listener.
/// - It records which calls arrived off the main actor (``callsOffMainThread``), the objects the app passed back
///   (``receivedIntents``) and the calls it received (``calls``), for tests of code above it.
/// - Not modelled (the simulator has no such thing): `listLocations` and `setSimulatedOfflineModeConfiguration` fail with
///   `featureNotAvailable` (drive the network with ``StripeSimulator/setSimulatedOfflineMode(_:)``); which values the
///   SDK's builders refuse is not published, so every product is let out unless a test asks (``failNextBuild(with:)``).
package final class SimulatorSurfaceBackend: SurfaceBackend, @unchecked Sendable {
    struct State {
        weak var terminal: Terminal?
        var intents: [String: PaymentIntent] = [:]
        var values: [String: Stripe.PaymentIntent] = [:]
        var handles: [ObjectIdentifier: String] = [:]
        var readers: [String: Reader] = [:]
        var received: [PaymentIntent] = []
        var calls: [String] = []
        var offMainThread: [String] = []
        var buildFailure: ErrorCode.Code?
        var simulatorConfiguration: SimulatorConfiguration?
    }

    /// The simulator playing the SDK and Stripe.
    package let simulator: StripeSimulator
    let tokenRelay: SimulatorTokenRelay
    let state = LockedState(State())
    /// Serializes the completions this backend delivers, with the SDK objects they carry. The simulator answers on
    /// its own threads (a cancel completes the cancel and the collect it ended at once), and the objects are the same
    /// ones for the same handle, updated in place; the real SDK delivers both on the main thread, one after the other.
    /// Without this, one completion's update of an object races the bridge reading it in another.
    private let delivery = NSRecursiveLock()

    /// Runs a completion (and the conversion of what it carries) while no other completion of this backend runs.
    func deliver(_ completion: () -> Void) {
        delivery.lock()
        defer { delivery.unlock() }
        completion()
    }

    /// A backend over `simulator`, which must have been created with `tokenRelay` as its token provider.
    package init(simulator: StripeSimulator, tokenRelay: SimulatorTokenRelay) {
        self.simulator = simulator
        self.tokenRelay = tokenRelay
    }

    // MARK: What tests read

    /// The `Terminal` calls received, in order (by name).
    package var calls: [String] { state.withLock { $0.calls } }
    /// The calls that arrived off the main actor (neither the main thread nor the main queue).
    package var callsOffMainThread: [String] { state.withLock { $0.offMainThread } }
    /// Every `PaymentIntent` object the app passed back to the SDK, in order.
    package var receivedIntents: [PaymentIntent] { state.withLock { $0.received } }
    /// The SDK object this backend handed out for the simulator's handle `handle`.
    package func handedOutIntent(simulatorHandle handle: String) -> PaymentIntent? { state.withLock { $0.intents[handle] } }
    /// The SDK object for the reader with this serial number.
    package func knownReader(_ serialNumber: String) -> Reader? { state.withLock { $0.readers[serialNumber] } }
    /// Makes the next builder's `build()` throw `code` (the SDK's builders throw for values they refuse).
    package func failNextBuild(with code: ErrorCode.Code) { state.withLock { $0.buildFailure = code } }

    var currentTerminal: Terminal? { state.withLock { $0.terminal } }

    /// Marks the main queue, which runs the main actor's jobs: under `swift test` on Linux it is not drained by the
    /// process's first thread, so `Thread.isMainThread` alone would call main-actor code "off main".
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main thread or the main queue (the main actor).
    static var onMainActor: Bool { Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true }

    /// Records a call and whether it arrived on the main actor.
    func arrive(_ call: String) {
        let onMain = Self.onMainActor
        state.withLock { state in
            state.calls.append(call)
            if !onMain { state.offMainThread.append(call) }
        }
    }

    /// Runs `body` on the simulator and waits for it: for the calls the SDK answers at once. Called on the main actor
    /// (as the bridge calls the SDK), the simulator runs on the cooperative pool meanwhile; nothing the simulator calls
    /// back (delegates, completions, the token provider) may wait for the main actor.
    func waitForSimulator<Value: Sendable>(_ body: @escaping @Sendable (StripeSimulator) async -> Value) -> Value {
        let done = DispatchSemaphore(value: 0)
        let result = LockedState<Value?>(nil)
        let simulator = simulator
        Task.detached {
            let value = await body(simulator)
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    /// Runs `body` on the simulator in a task: for the calls the SDK answers through a completion.
    func onSimulator(_ body: @escaping @Sendable (StripeSimulator) async -> Void) {
        let simulator = simulator
        Task.detached { await body(simulator) }
    }

    /// Runs a simulator command that answers with an error or nothing, and completes `completion` with the SDK's
    /// error (or the error as it came) or `nil`.
    func completeOnSimulator(_ completion: @escaping ErrorCompletionBlock,
                             _ body: @escaping @Sendable (StripeSimulator) async throws -> Void) {
        let done = UncheckedSendableBox(completion)
        onSimulator { [self] simulator in
            do {
                try await body(simulator)
                deliver { done.value(nil) }
            } catch {
                deliver { done.value(sdkErrorOrAsItCame(error)) }
            }
        }
    }

    // MARK: Terminal lifecycle and state

    /// `Terminal.initWithTokenProvider…`: keeps the token provider for the simulator and relays the simulator's
    /// delegates and log lines to the app's (a repeated call is recorded and does nothing else).
    package func initialize(_ terminal: Terminal, tokenProvider: any ConnectionTokenProvider,
                            delegate: (any TerminalDelegate)?, offlineDelegate: (any OfflineDelegate)?,
                            logLevel: LogLevel, isRepeatedCall: Bool) {
        arrive(isRepeatedCall ? "initialize(repeated)" : "initialize")
        guard !isRepeatedCall else { return }
        state.withLock { $0.terminal = terminal }
        tokenRelay.install(tokenProvider)
        simulator.setTerminalDelegate(SimulatorTerminalRelay(self))
        simulator.setOfflineDelegate(SimulatorOfflineRelay(self))
        simulator.setLogListener { line in SurfaceBackendSlot.logListener?(line) }
    }

    /// `connectionStatus`: the simulator's.
    package func connectionStatus(of terminal: Terminal) -> ConnectionStatus {
        arrive("connectionStatus")
        return surfaceCase(waitForSimulator { await $0.connectionStatus })
    }

    /// `paymentStatus`: the simulator's.
    package func paymentStatus(of terminal: Terminal) -> PaymentStatus {
        arrive("paymentStatus")
        return surfaceCase(waitForSimulator { await $0.paymentStatus })
    }

    /// `connectedReader`: the simulator's, as the reader's SDK object.
    package func connectedReader(of terminal: Terminal) -> Reader? {
        arrive("connectedReader")
        return waitForSimulator { await $0.connectedReader }.map(sdkReader)
    }

    /// `offlineStatus`: the simulator's (which runs the work that fell due first), boxed as the SDK boxes it.
    package func offlineStatus(of terminal: Terminal) -> OfflineStatus {
        arrive("offlineStatus")
        return sdkOfflineStatus(waitForSimulator { await $0.offlineStatus })
    }

    /// One object per backend, from the simulator's configuration when first asked. The simulator's configuration is
    /// the test's to change (``StripeSimulator/configure(_:)``); setting this object's properties does not.
    package func simulatorConfiguration(of terminal: Terminal) -> SimulatorConfiguration {
        arrive("simulatorConfiguration")
        if let known = state.withLock({ $0.simulatorConfiguration }) { return known }
        let configuration = waitForSimulator { await $0.currentConfiguration }
        let object = SimulatorConfiguration(
            surface: .backend, simulatedCard: SimulatedCard(type: surfaceCase(configuration.simulatedCard)),
            offlineEnabled: configuration.offlineEnabled, availableReaderUpdate: .none)
        object.simulatedTipAmount = configuration.simulatedTipAmount.map { NSNumber(value: $0) }
        return state.withLock { state in
            if let known = state.simulatorConfiguration { return known }
            state.simulatorConfiguration = object
            return object
        }
    }

    /// A configuration object with nothing in it (the reference does not describe its properties).
    package func simulatedOfflineModeConfiguration(of terminal: Terminal) -> SimulatedOfflineModeConfiguration {
        arrive("simulatedOfflineModeConfiguration")
        return SimulatedOfflineModeConfiguration(surface: .backend)
    }

    /// Not modelled: fails with `featureNotAvailable`.
    package func setSimulatedOfflineModeConfiguration(_ configuration: SimulatedOfflineModeConfiguration,
                                                      on terminal: Terminal) throws {
        arrive("setSimulatedOfflineModeConfiguration")
        throw ErrorCode(.featureNotAvailable, userInfo: [ErrorKey.message.rawValue:
            "The reference does not describe SimulatedOfflineModeConfiguration; set the simulator's offline mode."])
    }

    /// `clearCachedCredentials`: the simulator's (refused while a reader is connected).
    package func clearCachedCredentials(_ terminal: Terminal) throws {
        arrive("clearCachedCredentials")
        let error = waitForSimulator { simulator -> Stripe.ErrorCode? in
            do throws(Stripe.ErrorCode) { try await simulator.clearCachedCredentials() } catch { return error }
            return nil
        }
        if let error { throw sdkError(error) }
    }

    /// Bluetooth discovery of mobile readers (what the simulator models); anything else is not available.
    package func supportsReaders(_ terminal: Terminal, of deviceType: DeviceType, discoveryMethod: DiscoveryMethod,
                                 simulated: Bool) throws {
        arrive("supportsReaders")
        let mobile = SurfaceCaseNames.adapter(deviceType, as: Stripe.DeviceType.self)?.isMobileReader ?? false
        guard mobile, discoveryMethod == .bluetoothScan || discoveryMethod == .bluetoothProximity else {
            throw ErrorCode(.featureNotAvailable, userInfo: [ErrorKey.message.rawValue:
                "The simulator models Bluetooth discovery of mobile readers only."])
        }
    }

    // MARK: Everything else that is behaviour

    /// The value's case name (the SDK's display strings are not published).
    package func describe(_ value: SurfaceDescribedValue) -> String {
        switch value {
        case .readerInputOptions(let options): SurfaceCaseNames.name(of: options.rawValue)
        case .readerDisplayMessage(let value): SurfaceCaseNames.name(of: value)
        case .readerEvent(let value): SurfaceCaseNames.name(of: value)
        case .connectionStatus(let value): SurfaceCaseNames.name(of: value)
        case .paymentStatus(let value): SurfaceCaseNames.name(of: value)
        case .deviceType(let value): SurfaceCaseNames.name(of: value)
        case .discoveryMethod(let value): SurfaceCaseNames.name(of: value)
        case .cardBrand(let value): SurfaceCaseNames.name(of: value)
        case .paymentIntentStatus(let value): SurfaceCaseNames.name(of: value)
        case .captureMethod(let value): SurfaceCaseNames.name(of: value)
        case .readMethod(let value): SurfaceCaseNames.name(of: value)
        case .networkStatus(let value): SurfaceCaseNames.name(of: value)
        case .disconnectReason(let value): SurfaceCaseNames.name(of: value)
        case .offlineBehavior(let value): SurfaceCaseNames.name(of: value)
        case .error(let value): SurfaceCaseNames.name(of: value)
        case .updateTimeEstimate(let value): SurfaceCaseNames.name(of: value)
        case .simulatedOfflineMode(let value): SurfaceCaseNames.name(of: value)
        case .paymentMethodType(let value): SurfaceCaseNames.name(of: value)
        }
    }

    /// Lets every product out, unless a test asked the next build to fail (``failNextBuild(with:)``).
    package func validate(_ product: SurfaceBuiltProduct) throws {
        arrive("build(\(SurfaceCaseNames.name(of: product).prefix { $0 != "(" }))")
        if let code = state.withLock({ state -> ErrorCode.Code? in
            defer { state.buildFailure = nil }
            return state.buildFailure
        }) {
            throw ErrorCode(code, userInfo: [ErrorKey.message.rawValue: "The builder refused its values."])
        }
    }

    /// The simulator's PIN cards, by type or by the test card numbers of Stripe's testing page.
    package func pinKind(of card: SimulatedCard) -> SurfaceSimulatedPin {
        let online: Set<String> = ["onlinePinCvm", "onlinePinScaRetry", "4001000360000005", "4000002760000008"]
        let offline: Set<String> = ["offlinePinCvm", "offlinePinScaRetry", "4001007020000002", "4000008260000075"]
        let key = card.type.map { SurfaceCaseNames.name(of: $0) } ?? card.testCardNumber ?? ""
        return online.contains(key) ? .online : offline.contains(key) ? .offline : .none
    }

    /// No update: the simulator draws nothing at random (tests choose an update type).
    package func randomTestReaderUpdate() -> (updateType: TestReaderUpdateType, components: UpdateComponent)? { nil }
}
