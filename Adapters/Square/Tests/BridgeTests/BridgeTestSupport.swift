import Foundation
import Testing
@_spi(Testing) import Tender
import TenderSquare
import TenderSquareSimulator
import SquareMobilePaymentsSurfaceBackend
import TenderSquareMobilePaymentsOverSurface
import class SquareMobilePaymentsSurface.MobilePaymentsSDK
import class SquareMobilePaymentsSurface.SurfaceBackendLease
import class SquareMobilePaymentsSurface.UIViewController
import enum SquareMobilePaymentsSurface.SurfaceBackendSlot
import TenderTesting

// The bridge's test rig: the adapter (`SquareProcessor`) over the bridge (`SquareMobilePaymentsBridge`, compiled
// against the surface mirror) over the mirror's simulator-driven backend over `SquareSimulator`.

/// A trait giving each test exclusive use of the process-wide backend slot (``SurfaceBackendLease``, shared with the
/// mirror's own tests), and uninstalling whatever backend the test installed when it ends.
struct SurfaceBackendExclusive: SuiteTrait, TestTrait, TestScoping {
    /// Applied to every test of the suite.
    var isRecursive: Bool { true }

    /// A scope per test case; none for the suite itself (the lease is not reentrant).
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        try await SurfaceBackendLease.shared.holding {
            defer { SurfaceBackendSlot.uninstall() }
            try await function()
        }
    }
}

extension Trait where Self == SurfaceBackendExclusive {
    /// Exclusive use of the mirror's backend slot for each test.
    static var surfaceBackendExclusive: Self { SurfaceBackendExclusive() }
}

/// The view controller the tests' payments present from (the mirror's stand-in on Linux).
enum TestPresenter {
    /// The one instance.
    @MainActor static let checkout = UIViewController()
    /// A context returning ``checkout`` (called on the main actor).
    static let context = Square.PresentationContext(name: "checkout") { TestPresenter.checkout }
}

/// Sellers the simulator knows: one opted in to offline (200.00 per payment, 500.00 stored), one on Sandbox.
enum BridgeSellers {
    static let mainStreet = Square.Location(id: "LA1", name: "Main St", currency: .USD)
    /// Seller A's second location (the conformance kit's checks across locations).
    static let harbor = Square.Location(id: "LA2", name: "Harbor", currency: .USD)
    static let offline = Square.PaymentSettings(
        isOfflineProcessingAllowed: true, offlineTransactionAmountLimit: Square.Money(amount: 200_00, currency: .USD),
        offlineTotalStoredAmountLimit: Square.Money(amount: 500_00, currency: .USD))
    static let all: [SquareSimulator.Seller] = [
        .init(merchantID: "MA", accessToken: "tok-A", locations: [mainStreet, harbor], paymentSettings: offline),
        .init(merchantID: "MS", accessToken: "tok-S",
              locations: [Square.Location(id: "LS", name: "Sandbox", currency: .USD)], paymentSettings: offline,
              environment: .sandbox),
    ]
}

/// One device: the simulator, the backend installed in the slot, the bridge over `MobilePaymentsSDK.shared`, and the
/// adapter over the bridge with the simulator's servers as the app's capture, lookup and refund services.
final class BridgeWorld: Sendable {
    let clock: ManualClock
    let simulator: SquareSimulator
    let backend: SimulatorSurfaceBackend
    let emitter = ProcessorEventEmitter(keepingHistory: true)
    /// The bridge and the adapter now (replaced by ``relaunch()``).
    let current: Locked<(bridge: SquareMobilePaymentsBridge, processor: SquareProcessor)>
    /// Every bridge made in this world, the first first.
    let bridges = Locked<[SquareMobilePaymentsBridge]>([])
    let grace: TimeInterval
    /// How long each adapter follows a completed refund (``SquareProcessor/Configuration/refundChangeWindow``).
    let refundChangeWindow: TimeInterval
    /// The network monitor given to each bridge (the simulator's model of the SDK's view unless a test gives one).
    let networkMonitor: any Square.NetworkMonitor

    var bridge: SquareMobilePaymentsBridge { current.current.bridge }
    var processor: SquareProcessor { current.current.processor }

    /// A device authorized as seller A at Main St through the bridge, with one reader paired through it.
    init(delivery: SimulatorSurfaceBackend.CallbackDelivery = .duringCall,
         configuration: SquareSimulator.Configuration = .init(), seed: UInt64 = 7, authorize: Bool = true,
         grace: TimeInterval = 2, clock: ManualClock = ManualClock(),
         networkMonitor: (any Square.NetworkMonitor)? = nil, refundChangeWindow: TimeInterval = 0) async throws {
        self.clock = clock
        self.refundChangeWindow = refundChangeWindow
        simulator = SquareSimulator(sellers: BridgeSellers.all, configuration: configuration, seed: seed, clock: clock)
        backend = SimulatorSurfaceBackend(simulator: simulator, clock: clock, delivery: delivery)
        self.grace = grace
        self.networkMonitor = networkMonitor ?? simulator.networkMonitor
        SurfaceBackendSlot.install(backend)
        let (bridge, processor) = await Self.launch(simulator: simulator, monitor: self.networkMonitor, clock: clock,
                                                    emitter: emitter, grace: grace,
                                                    refundChangeWindow: refundChangeWindow)
        current = Locked((bridge, processor))
        bridges.withLock { $0.append(bridge) }
        guard authorize else { return }
        try await bridge.authorize(withAccessToken: "tok-A", locationID: "LA1")
        await simulator.addNearbyReader()
        _ = await bridge.startPairing(with: PairingProbe())
        await processor.startObserving()
    }

    /// `MobilePaymentsSDK.initialize`, then a bridge over `MobilePaymentsSDK.shared` (the installed backend's SDK) and
    /// an adapter over it: what an app does at launch.
    private static func launch(simulator: SquareSimulator, monitor: any Square.NetworkMonitor, clock: ManualClock,
                               emitter: ProcessorEventEmitter, grace: TimeInterval, refundChangeWindow: TimeInterval)
        async -> (SquareMobilePaymentsBridge, SquareProcessor) {
        let bridge = await MainActor.run {
            MobilePaymentsSDK.initialize(squareApplicationID: "sq0idp-tender-tests")
            return SquareMobilePaymentsBridge(networkMonitor: monitor, callbackGrace: grace)
        }
        var settings = SquareProcessor.Configuration()
        settings.simulatedReaders = true
        settings.presentation = TestPresenter.context
        settings.refundChangeWindow = refundChangeWindow
        let processor = SquareProcessor(client: bridge, captureService: simulator.server, serverLookup: simulator.server,
                                        refundService: simulator.server, configuration: settings, clock: clock,
                                        emitter: emitter)
        return (bridge, processor)
    }

    /// An app relaunch: the simulator and the backend forget every object they handed out, and a new bridge (with
    /// an empty registry) and a new adapter are made, as in a new process.
    @discardableResult
    func relaunch() async -> SquareProcessor {
        await backend.relaunch()
        let (bridge, processor) = await Self.launch(simulator: simulator, monitor: networkMonitor, clock: clock,
                                                    emitter: emitter, grace: grace,
                                                    refundChangeWindow: refundChangeWindow)
        current.withLock { $0 = (bridge, processor) }
        bridges.withLock { $0.append(bridge) }
        await processor.startObserving()
        return processor
    }

    /// What the current bridge's registry holds, after the main actor ran what was queued on it (handle values
    /// release their SDK handles from their `deinit`, through the main actor).
    func registryContents(of bridge: SquareMobilePaymentsBridge? = nil) async -> SquareObjectRegistry.Contents {
        let bridge = bridge ?? self.bridge
        for _ in 0..<3 { await MainActor.run {} }
        return await MainActor.run { bridge.registry.contents }
    }

    static func sale(_ reference: String, cents: Int64 = 10_00, capture: CaptureMode = .automatic) -> PaymentRequest {
        PaymentRequest(amount: Money(minorUnits: cents, currency: .usd), reference: reference, captureMode: capture)
    }

    /// Takes a payment through the adapter, checking every state it reports is a legal move.
    func pay(_ reference: String, cents: Int64 = 10_00, routing: RoutingDecision = .online,
             attempt: PaymentAttempt = PaymentAttempt()) async throws -> ProcessorPaymentUpdate {
        let states = Locked<[PaymentState]>([])
        let outcome = try await processor.startPayment(Self.sale(reference, cents: cents), routing: routing,
                                                       attempt: attempt,
                                                       updates: { update in states.withLock { $0.append(update.state) } })
        var from = attempt.previousState.flatMap { $0.isFinal ? nil : $0 } ?? .created
        for state in states.current + [outcome.state] {
            if from != state, !PaymentStateMachine.canTransition(from: from, to: state) {
                Issue.record("the adapter reported \(from) → \(state)")
            }
            from = state
        }
        return outcome
    }

    /// Waits until the simulator holds a card or an authorization.
    func waitUntilHolding() async {
        for _ in 0..<5_000 {
            if await simulator.isHolding { return }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        Issue.record("nothing is held")
    }
}

/// A `ReaderPairingDelegate` that records what it hears.
final class PairingProbe: Square.ReaderPairingDelegate {
    let events = Locked<[String]>([])
    func readerPairingDidBegin() { events.withLock { $0.append("begin") } }
    func readerPairingDidSucceed() { events.withLock { $0.append("succeed") } }
    func readerPairingDidFail(with error: any Error) { events.withLock { $0.append("fail \(error)") } }
}

/// A `PaymentManagerDelegate` that records what it hears, and whether each callback arrived on the main actor.
final class PaymentProbe: Square.PaymentManagerDelegate {
    let events = Locked<[String]>([])
    let offMain = Locked<[String]>([])
    let errors = Locked<[any Error]>([])

    private func note(_ event: String) {
        events.withLock { $0.append(event) }
        if !MainQueueProbe.isMainQueue { offMain.withLock { $0.append(event) } }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didStart payment: any Square.Payment) {
        note("didStart")
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didFinish payment: any Square.Payment) {
        note(payment is Square.OfflinePayment ? "didFinish offline" : "didFinish online")
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didFail payment: any Square.Payment,
                        withError error: any Error) {
        errors.withLock { $0.append(error) }
        note("didFail \(error)")
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didCancel payment: any Square.Payment) {
        note("didCancel")
    }
}

/// Whether code runs on the main queue (where the main actor runs), including where the main queue is not served by
/// the process's first thread (Linux test runners).
enum MainQueueProbe {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Marks the main queue; call once from the main actor before relying on ``isMainQueue``.
    static func prepare() { _ = key }

    /// Whether the caller runs on the main queue.
    static var isMainQueue: Bool { DispatchQueue.getSpecific(key: key) != nil }
}
