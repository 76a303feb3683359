import Foundation
import Testing
import Tender
import TenderSquare
import TenderSquareSimulator
import SquareMobilePaymentsSurfaceBackend
@testable import TenderSquareMobilePaymentsOverSurface
import class SquareMobilePaymentsSurface.MobilePaymentsSDK
import class SquareMobilePaymentsSurface.UIViewController

/// Square's thread rule and its presentation hook, through the bridge: every SDK call on the main thread, every
/// callback to the adapter from it, the payment UI presented from the app's view controller, and the start calls'
/// promise (the delegate hears why before `nil` is returned) kept however the SDK orders its callbacks.
@Suite("Square through the bridge: main thread, presentation, start failures", .surfaceBackendExclusive)
struct BridgeThreadingTests {
    @Test("a day through the bridge calls the SDK on the main thread only, and its callbacks reach the adapter there",
          arguments: SimulatorSurfaceBackend.CallbackDelivery.allCases)
    func mainThreadOnly(delivery: SimulatorSurfaceBackend.CallbackDelivery) async throws {
        let world = try await BridgeWorld(delivery: delivery)
        let probe = PaymentProbe()
        let parameters = Square.PaymentParameters(paymentAttemptID: "main-1",
                                                  amountMoney: Square.Money(amount: 5_00, currency: .USD),
                                                  processingMode: .onlineOnly)
        let handle = await world.bridge.startPayment(parameters, promptParameters: .init(), from: TestPresenter.context,
                                                     delegate: probe)
        #expect(handle?.paymentParameters == parameters)
        for _ in 0..<1_000 where probe.events.current.count < 2 { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(probe.events.current == ["didStart", "didFinish online"])
        #expect(probe.offMain.current.isEmpty, "callbacks off the main thread: \(probe.offMain.current)")
        _ = await handle?.payment
        _ = await handle?.isPaymentCancelable
        _ = await handle?.totalMoneyWithProposedCardSurcharge
        #expect(await world.bridge.getIdempotencyKey(withPaymentAttemptId: "main-1") != nil)
        #expect(try await world.pay("main-2").state == .succeeded)
        await world.simulator.setNetwork(.offline)
        #expect(try await world.pay("main-3", routing: .offline).state == .storedOffline)
        _ = try await world.bridge.getPayments()
        _ = try await world.bridge.getTotalStoredPaymentsAmount()
        _ = await world.bridge.paymentSettings
        _ = await world.bridge.sdkSettings
        _ = try await world.processor.queueSnapshot()
        let names = Set(world.backend.calls.map(\.name))
        for expected in ["MobilePaymentsSDK.initialize", "AuthorizationManager.authorize", "ReaderManager.startPairing",
                         "ReaderManager.add", "PaymentManager.startPayment", "PaymentHandle.payment",
                         "PaymentHandle.isPaymentCancelable", "PaymentHandle.totalMoneyWithProposedCardSurcharge",
                         "PaymentManager.getIdempotencyKey", "OfflinePaymentQueue.getPayments",
                         "OfflinePaymentQueue.getTotalStoredPaymentsAmount", "SettingsManager.paymentSettings",
                         "SettingsManager.sdkSettings", "ReaderManager.readers",
                         "PaymentManager.availableCardInputMethods"] {
            #expect(names.contains(expected), "\(expected) was not called")
        }
        #expect(world.backend.offMainCalls.isEmpty, "\(world.backend.offMainCalls)")
    }

    @Test("the backend catches an SDK call made off the main thread (the check above can fail)")
    func offMainIsCaught() async throws {
        let world = try await BridgeWorld()
        let sdk = await MainActor.run { UncheckedSDK(MobilePaymentsSDK.shared) }
        _ = await Task.detached { sdk.value.readerManager.isPairingInProgress }.value
        #expect(world.backend.offMainCalls.map(\.name) == ["ReaderManager.isPairingInProgress"])
    }

    @Test("the payment UI is presented from the view controller the presentation context returns, on the main actor")
    func presentation() async throws {
        let world = try await BridgeWorld()
        let onMain = Locked<[Bool]>([])
        let presenter = await MainActor.run { UncheckedSDK(UIViewController()) }
        let context = Square.PresentationContext(name: "register") {
            onMain.withLock { $0.append(MainQueueProbe.isMainQueue) }
            return presenter.value
        }
        var settings = SquareProcessor.Configuration()
        settings.presentation = context
        settings.simulatedReaders = true
        let processor = SquareProcessor(client: world.bridge, captureService: world.simulator.server,
                                        serverLookup: world.simulator.server, configuration: settings, clock: world.clock)
        let outcome = try await processor.startPayment(BridgeWorld.sale("presented"), routing: .online,
                                                       attempt: PaymentAttempt(), updates: { _ in })
        #expect(outcome.state == .succeeded)
        #expect(onMain.current == [true])
        #expect(world.backend.presentingViewControllers.last === presenter.value)
        #expect(await world.simulator.lastPresentationName == "UIViewController")
    }

    @Test("no view controller: didFail unexpected before nil, and Square's startPayment is never called")
    func headless() async throws {
        let world = try await BridgeWorld()
        let probe = PaymentProbe()
        let parameters = Square.PaymentParameters(paymentAttemptID: "headless",
                                                  amountMoney: Square.Money(amount: 5_00, currency: .USD),
                                                  processingMode: .onlineOnly)
        let handle = await world.bridge.startPayment(parameters, promptParameters: .init(), from: .headless,
                                                     delegate: probe)
        #expect(handle == nil)
        #expect(probe.events.current == ["didFail unexpected"])
        #expect(!world.backend.calls.contains { $0.name == "PaymentManager.startPayment" })
        #expect(await world.registryContents() == .init(observers: 1))
    }

    @Test("a payment Square refuses: the delegate hears why before nil is returned, however the SDK orders it",
          arguments: SimulatorSurfaceBackend.CallbackDelivery.allCases)
    func refusedBeforeNil(delivery: SimulatorSurfaceBackend.CallbackDelivery) async throws {
        let world = try await BridgeWorld(delivery: delivery, authorize: false)
        let probe = PaymentProbe()
        let parameters = Square.PaymentParameters(paymentAttemptID: "refused",
                                                  amountMoney: Square.Money(amount: 5_00, currency: .USD),
                                                  processingMode: .onlineOnly)
        let handle = await world.bridge.startPayment(parameters, promptParameters: .init(), from: TestPresenter.context,
                                                     delegate: probe)
        #expect(handle == nil)
        #expect(probe.events.current == ["didFail notAuthorized"])
        #expect(await world.registryContents().isEmpty)
    }

    @Test("an SDK that says why only after returning nil, or never: the late reason is kept, silence is unexpected")
    func silentSDK() async throws {
        _ = installPlainBackend()  // the mirror's PaymentParameters reads the device clock from the slot
        let parameters = Square.PaymentParameters(paymentAttemptID: "silent",
                                                  amountMoney: Square.Money(amount: 5_00, currency: .USD),
                                                  processingMode: .onlineOnly)
        for (delay, reason) in [(0.05, "paymentAlreadyInProgress"), (nil, "unexpected"), (0.6, "unexpected")] {
            let (bridge, sdk) = await MainActor.run {
                let sdk = SilentSDK(lateBy: delay)
                return (SquareMobilePaymentsBridge(sdk: sdk, networkMonitor: SquareNetworkMonitor(
                    storage: .inMemory(), now: { Date() }), callbackGrace: 0.3), UncheckedSDK(sdk))
            }
            _ = sdk
            let probe = PaymentProbe()
            let handle = await bridge.startPayment(parameters, promptParameters: .init(), from: TestPresenter.context,
                                                   delegate: probe)
            #expect(handle == nil)
            #expect(probe.events.current == ["didFail \(reason)"], "SDK's reason after \(String(describing: delay)) s")
            let pairing = PairingProbe()
            #expect(await bridge.startPairing(with: pairing) == nil)
            let expected = reason == "unexpected" ? "fail pairing did not start" : "fail bluetoothDisabled"
            #expect(pairing.events.current == [expected])
            try await Task.sleep(nanoseconds: 400_000_000)
            #expect(probe.events.current.count == 1 && pairing.events.current.count == 1,
                    "a late callback after the bridge's own report is not forwarded twice")
            #expect(await MainActor.run { bridge.registry.contents }.isEmpty)
        }
    }

    @Test("an SDK callback made off the main thread reaches the adapter on the main thread, its payment copied there")
    func callbackOffMain() async throws {
        _ = installPlainBackend()
        let parameters = Square.PaymentParameters(paymentAttemptID: "elsewhere",
                                                  amountMoney: Square.Money(amount: 5_00, currency: .USD),
                                                  processingMode: .onlineOnly)
        let (bridge, sdk) = await MainActor.run {
            let sdk = SilentSDK(lateBy: 0.05, on: DispatchQueue.global())
            return (SquareMobilePaymentsBridge(sdk: sdk, networkMonitor: SquareNetworkMonitor(
                storage: .inMemory(), now: { Date() }), callbackGrace: 2), UncheckedSDK(sdk))
        }
        _ = sdk
        let probe = PaymentProbe()
        let handle = await bridge.startPayment(parameters, promptParameters: .init(), from: TestPresenter.context,
                                               delegate: probe)
        #expect(handle == nil)
        #expect(probe.events.current == ["didFail paymentAlreadyInProgress"])
        #expect(probe.offMain.current.isEmpty, "forwarded off the main thread: \(probe.offMain.current)")
        let pairing = PairingProbe()
        #expect(await bridge.startPairing(with: pairing) == nil)
        #expect(pairing.events.current == ["fail bluetoothDisabled"])
    }
}

/// Hands a main-actor object to a test's other tasks (tests only).
struct UncheckedSDK<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
