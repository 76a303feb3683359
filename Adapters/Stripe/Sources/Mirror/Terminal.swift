public import Foundation

/// `SCPSDKVersion`: the version of the SDK this module mirrors.
public let SCPSDKVersion: String = "5.5.0"

/// `SCPTerminal`: the SDK's entry point. Initialize once with `initWithTokenProvider…`, then use ``shared``.
///
/// The singleton is connected to at most one reader and runs one operation at a time. `init()` and `new` are unavailable
/// in the SDK; here the only initializer is `package`, for the runtime that creates ``shared``.
///
/// Every member that is more than storage goes to the installed ``SurfaceBackend``; the `async` forms and the Swift
/// overlay members wrap the completion-block forms as Swift's importer and Stripe's overlay do.
///
/// Deviation: `public`, not `open` like an imported Objective-C class (as every class of this module).
public class Terminal: NSObject {
    /// The backend this terminal was created with (installing another backend forgets this terminal).
    let backend: any SurfaceBackend

    /// `SCPTerminal.delegate`: connection and payment status changes. Must be set before connecting a Bluetooth reader.
    public var delegate: (any TerminalDelegate)?

    /// `SCPTerminal.offlineDelegate`: offline status and forwarding callbacks.
    public var offlineDelegate: (any OfflineDelegate)?

    /// `SCPTerminal.logLevel`. Defaults to `.none`.
    public var logLevel: LogLevel = .none

    /// Creates the singleton (the runtime does, on the first `initWithTokenProvider…`).
    package init(surface: SurfaceConstruction, backend: any SurfaceBackend) {
        self.backend = backend
        super.init()
    }

    // MARK: Initialization

    /// `+initWithTokenProvider:delegate:offlineDelegate:logLevel:`. Must run once before ``shared`` is first read.
    public class func initWithTokenProvider(
        _ tokenProvider: any ConnectionTokenProvider, delegate: (any TerminalDelegate)?,
        offlineDelegate: (any OfflineDelegate)?, logLevel: LogLevel
    ) {
        SurfaceRuntime.initializeTerminal(
            tokenProvider: tokenProvider, delegate: delegate, offlineDelegate: offlineDelegate, logLevel: logLevel
        )
    }

    /// `+initWithTokenProvider:delegate:`: the four-argument form with no offline delegate and `.none`.
    public class func initWithTokenProvider(
        _ tokenProvider: any ConnectionTokenProvider, delegate: (any TerminalDelegate)?
    ) {
        initWithTokenProvider(tokenProvider, delegate: delegate, offlineDelegate: nil, logLevel: .none)
    }

    /// `+initWithTokenProvider:`: the four-argument form with no delegates and `.none`.
    public class func initWithTokenProvider(_ tokenProvider: any ConnectionTokenProvider) {
        initWithTokenProvider(tokenProvider, delegate: nil, offlineDelegate: nil, logLevel: .none)
    }

    /// `+isInitialized`: true once an `initWithTokenProvider…` variant has run.
    @discardableResult
    public class func isInitialized() -> Bool {
        SurfaceRuntime.isTerminalInitialized
    }

    /// `+setLogListener:`: the SDK's log lines (informational; the listener may run on any thread).
    public class func setLogListener(_ listener: @escaping LogListenerBlock) {
        SurfaceRuntime.setLogListener(listener)
    }

    /// `SCPTerminal.shared`. Reading it before `initWithTokenProvider…` is a programming error.
    public class var shared: Terminal {
        SurfaceRuntime.sharedTerminal()
    }

    // MARK: State

    /// `SCPTerminal.connectedReader`: nil until a connect completes.
    public var connectedReader: Reader? {
        backend.connectedReader(of: self)
    }

    /// `SCPTerminal.connectionStatus`.
    public var connectionStatus: ConnectionStatus {
        backend.connectionStatus(of: self)
    }

    /// `SCPTerminal.paymentStatus`.
    public var paymentStatus: PaymentStatus {
        backend.paymentStatus(of: self)
    }

    /// `SCPTerminal.offlineStatus`: the SDK's details always, the reader's when one is connected.
    public var offlineStatus: OfflineStatus {
        backend.offlineStatus(of: self)
    }

    /// `SCPTerminal.simulatorConfiguration`: configure simulated readers by setting its properties.
    public var simulatorConfiguration: SimulatorConfiguration {
        backend.simulatorConfiguration(of: self)
    }

    /// `SCPTerminal.simulatedOfflineModeConfiguration` (5.5.0 preview, test only).
    public var simulatedOfflineModeConfiguration: SimulatedOfflineModeConfiguration {
        backend.simulatedOfflineModeConfiguration(of: self)
    }

    /// `-setSimulatedOfflineModeConfiguration:error:` (5.5.0 preview, test only). Throws
    /// `simulatedOfflineModeNotAvailableInLivemode` (6908) when connected to a livemode reader.
    public func setSimulatedOfflineModeConfiguration(_ configuration: SimulatedOfflineModeConfiguration) throws {
        try backend.setSimulatedOfflineModeConfiguration(configuration, on: self)
    }

    // MARK: Refined for Swift (hidden behind `__` names; the overlay's forms are in Terminal+SwiftOverlay.swift)

    /// `-clearCachedCredentials:` as `NS_REFINED_FOR_SWIFT` imports it. Use ``clearCachedCredentials()``.
    public func __clearCachedCredentials() throws {
        try backend.clearCachedCredentials(self)
    }

    /// `-supportsReadersOfType:discoveryMethod:simulated:error:` as `NS_REFINED_FOR_SWIFT` imports it. Use
    /// ``supportsReaders(of:discoveryMethod:simulated:)``.
    ///
    /// Uncertain spelling (reference): the `of` label is Swift's name pruning of `supportsReadersOfType:`, derived,
    /// never printed by a source; nothing in the repository's example app or in public code calls the `__` form.
    public func __supportsReaders(of deviceType: DeviceType, discoveryMethod: DiscoveryMethod, simulated: Bool) throws {
        try backend.supportsReaders(self, of: deviceType, discoveryMethod: discoveryMethod, simulated: simulated)
    }
}
