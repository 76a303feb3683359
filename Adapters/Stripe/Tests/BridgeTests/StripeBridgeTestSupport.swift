import Foundation
import StripeTerminalSurface
import StripeTerminalSurfaceBackend
import Tender
@_spi(Testing) import TenderStripe
import TenderStripeSimulator
@testable import TenderStripeTerminalOverSurface
import Testing
import TenderTesting

/// Every test of the bridge, one at a time, each holding the process-wide backend slot: the bridge runs over
/// `Terminal.shared`, which the surface mirror keeps per installed backend.
@Suite(.serialized, .exclusiveSurfaceBackend) struct StripeBridgeTests {}

let bridgeLocation = "tml_loc_main"

/// The app's connection-token provider in tests: answers with a token (or fails, or answers nothing) and counts.
final class TestConnectionTokens: Stripe.ConnectionTokenProvider {
    enum Answer: Sendable { case token, failure, nothing }
    struct Failure: Error {}
    private let answer = Locked(Answer.token)
    private let count = Locked(0)

    /// How many tokens the SDK asked for.
    var requests: Int { count.current }

    /// What the next requests get.
    func answer(_ answer: Answer) { self.answer.withLock { $0 = answer } }

    func fetchConnectionToken() async throws -> String {
        count.withLock { $0 += 1 }
        switch answer.current {
        case .token: return "pst_test_bridge"
        case .failure: throw Failure()
        case .nothing: return ""
        }
    }
}

/// One launch of the app: a backend over the device's simulator installed (a fresh `Terminal.shared`), the SDK
/// initialized with the bridge's token provider, a bridge and a processor over it.
struct BridgeLaunch: Sendable {
    let backend: SimulatorSurfaceBackend
    let bridge: StripeTerminalBridge
    let processor: StripeProcessor
}

/// A simulated device: the simulator (Stripe's servers and the SDK's disk), its clock and the app's token provider.
/// Each ``launch()`` is a new process over the same device.
final class BridgeDevice: Sendable {
    let simulator: StripeSimulator
    let clock: ManualClock
    let tokenRelay: SimulatorTokenRelay
    let tokens = TestConnectionTokens()
    let offlineEnabled: Bool

    /// Forwarding happens only when a test asks (no background forwarding, none when the network returns), as in the
    /// adapter's own tests.
    init(offlineEnabled: Bool = true, seed: UInt64 = 7, _ change: (inout Stripe.SimulatorConfiguration) -> Void = { _ in }) {
        var configuration = Stripe.SimulatorConfiguration(offlineEnabled: offlineEnabled)
        configuration.forwardsWhenNetworkReturns = false
        configuration.backgroundForwardingDelay = nil
        change(&configuration)
        let relay = SimulatorTokenRelay()
        let clock = ManualClock()
        self.clock = clock
        self.tokenRelay = relay
        self.offlineEnabled = offlineEnabled
        self.simulator = StripeSimulator(configuration: configuration, seed: seed, clock: clock, tokenProvider: relay)
    }

    /// Starts the app: what an app writes at launch, over a fresh surface backend.
    func launch(objectCapacity: Int = 512) async -> BridgeLaunch {
        let backend = SimulatorSurfaceBackend(simulator: simulator, tokenRelay: tokenRelay)
        SurfaceBackendSlot.install(backend)
        let tokens = tokens
        let offlineEnabled = offlineEnabled
        let bridge = await MainActor.run {
            Terminal.initWithTokenProvider(StripeBridgeTokenProvider(tokens), delegate: nil, offlineDelegate: nil,
                                           logLevel: .none)
            return StripeTerminalBridge(offlineModeEnabled: offlineEnabled, objectCapacity: objectCapacity)
        }
        let processor = StripeProcessor(client: bridge, captureService: simulator.server, serverLookup: simulator.server,
                                        refundService: simulator.server, configuration: .withSimulatedReaders,
                                        clock: clock, emitter: ProcessorEventEmitter(keepingHistory: true))
        return BridgeLaunch(backend: backend, bridge: bridge, processor: processor)
    }

    /// Kills and relaunches the app: the SDK forgets every object, then a new process starts.
    func relaunch() async -> BridgeLaunch {
        await simulator.relaunch()
        return await launch()
    }

    /// A launch with the simulated M2 connected at ``bridgeLocation`` through the processor.
    func connectedLaunch() async throws -> BridgeLaunch {
        let launch = await launch()
        let readers = try await launch.processor.discoverReaders(timeout: 5)
        let m2 = try #require(readers.first { $0.model == "stripeM2" })
        _ = try await launch.processor.connectReader(m2, locationID: bridgeLocation)
        return launch
    }
}

/// A sale for `reference`.
func bridgeSale(_ reference: String, cents: Int64 = 1_000, capture: CaptureMode = .automatic,
                policy: OfflinePolicy = .preferOnline) -> PaymentRequest {
    PaymentRequest(amount: Money(minorUnits: cents, currency: .usd), reference: reference, captureMode: capture,
                   offlinePolicy: policy, metadata: ["lane": "1"])
}

/// Parameters for an intent created directly through the bridge.
func bridgeParameters(_ reference: String, cents: UInt = 1_000, capture: Stripe.CaptureMethod = .automatic)
    -> Stripe.PaymentIntentParameters {
    Stripe.PaymentIntentParameters(amount: cents, currency: "usd", captureMethod: capture,
                                   metadata: [StripeMapping.referenceMetadataKey: reference])
}

/// One completion's answer, awaited.
final class Answer<Value: Sendable>: Sendable {
    private let stored = Locked<Value?>(nil)
    func resume(_ value: Value) { stored.withLock { if $0 == nil { $0 = value } } }
    var value: Value? { stored.current }

    /// Waits up to about ten seconds (on the simulator's clock answers come within a few scheduler turns; the margin is
    /// for a loaded machine).
    func wait() async -> Value? {
        for _ in 0..<10_000 {
            if let value { return value }
            await Task.yield()
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return value
    }
}

/// Polls `condition` for up to about ten seconds.
func bridgeEventually(_ condition: () async -> Bool) async -> Bool {
    for _ in 0..<10_000 {
        if await condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return await condition()
}

/// Records what a delegate was told, by name.
final class Recorder: Sendable {
    private let events = Locked<[String]>([])
    var all: [String] { events.current }
    func record(_ event: String) { events.withLock { $0.append(event) } }
}

/// A terminal and offline delegate that records.
final class RecordingTerminalDelegate: Stripe.TerminalDelegate, Stripe.OfflineDelegate {
    let recorder = Recorder()
    let forwarded = Locked<[(Stripe.PaymentIntent, Stripe.ErrorCode?)]>([])
    func didChangeConnectionStatus(_ status: Stripe.ConnectionStatus) { recorder.record("connection:\(status.rawValue)") }
    func didChangePaymentStatus(_ status: Stripe.PaymentStatus) { recorder.record("payment:\(status.rawValue)") }
    func didChangeOfflineStatus(_ offlineStatus: Stripe.OfflineStatus) {
        recorder.record("offline:\(offlineStatus.sdk.networkStatus.rawValue):\(offlineStatus.sdk.paymentsCount ?? -1)")
    }
    func didForwardPaymentIntent(_ intent: Stripe.PaymentIntent, error: Stripe.ErrorCode?) {
        forwarded.withLock { $0.append((intent, error)) }
        recorder.record("forwarded:\(error?.code.name ?? "ok")")
    }
    func didReportForwardingError(_ error: Stripe.ErrorCode) { recorder.record("forwardingError:\(error.code.name)") }
}

/// A reader delegate that records every callback.
final class RecordingReaderDelegate: Stripe.MobileReaderDelegate {
    let recorder = Recorder()
    func didReportAvailableUpdate(_ update: Stripe.ReaderSoftwareUpdate) { recorder.record("availableUpdate") }
    func didStartInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate, cancelable: (any Stripe.Cancelable)?) {
        recorder.record("startInstalling")
    }
    func didReportReaderSoftwareUpdateProgress(_ progress: Float) { recorder.record("progress:\(progress)") }
    func didFinishInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate?, error: Stripe.ErrorCode?) {
        recorder.record("finishInstalling:\(error?.code.name ?? "ok")")
    }
    func didRequestReaderInput(_ inputOptions: Stripe.ReaderInputOptions) { recorder.record("input:\(inputOptions.rawValue)") }
    func didRequestReaderDisplayMessage(_ displayMessage: Stripe.ReaderDisplayMessage) {
        recorder.record("message:\(displayMessage.rawValue)")
    }
    func didReportReaderEvent(_ event: Stripe.ReaderEvent) { recorder.record("event:\(event.rawValue)") }
    func didReportBatteryLevel(_ batteryLevel: Float, status: Stripe.BatteryStatus, isCharging: Bool) {
        recorder.record("battery:\(batteryLevel):\(status.rawValue):\(isCharging)")
    }
    func didDisconnect(_ reason: Stripe.DisconnectReason) { recorder.record("disconnect:\(reason.rawValue)") }
    func didStartReconnect(_ cancelable: any Stripe.Cancelable, disconnectReason: Stripe.DisconnectReason) {
        recorder.record("startReconnect:\(disconnectReason.rawValue)")
    }
    func didSucceedReconnect() { recorder.record("reconnected") }
    func didFailReconnect() { recorder.record("reconnectFailed") }
    func didReportLowBatteryWarning() { recorder.record("lowBattery") }
    func didAcceptTermsOfService() { recorder.record("termsAccepted") }
}

/// A discovery delegate that keeps the last list.
final class RecordingDiscoveryDelegate: Stripe.DiscoveryDelegate {
    let lists = Locked<[[Stripe.Reader]]>([])
    func didUpdateDiscoveredReaders(_ readers: [Stripe.Reader]) { lists.withLock { $0.append(readers) } }
}

extension BridgeLaunch {
    /// Discovers the simulated readers through the bridge (a scan with a timeout) and returns the last list.
    func discover() async throws -> [Stripe.Reader] {
        let delegate = RecordingDiscoveryDelegate()
        let done = Answer<Stripe.ErrorCode?>()
        _ = await bridge.discoverReaders(Stripe.DiscoveryConfiguration(method: .bluetoothScan, timeout: 1, simulated: true),
                                         delegate: delegate, completion: { done.resume($0) })
        let error = try #require(await done.wait())
        if let error { throw error }
        return delegate.lists.current.last ?? []
    }

    /// Discovers and connects the M2 through the bridge, with `delegate` as the reader delegate.
    func connectM2(_ delegate: (any Stripe.MobileReaderDelegate)? = nil) async throws -> Stripe.Reader {
        let m2 = try #require(try await discover().first { $0.deviceType == .stripeM2 })
        return try await bridge.connectReader(m2, connectionConfig: Stripe.BluetoothConnectionConfiguration(
            locationId: bridgeLocation, delegate: delegate))
    }

    /// Collects through the bridge and waits for the answer.
    func collect(_ intent: Stripe.PaymentIntent) async throws -> (Stripe.PaymentIntent?, Stripe.ErrorCode?) {
        let done = Answer<(Stripe.PaymentIntent?, Stripe.ErrorCode?)>()
        _ = await bridge.collectPaymentMethod(intent, collectConfig: .init(skipTipping: true),
                                              completion: { done.resume(($0, $1)) })
        return try #require(await done.wait())
    }

    /// Confirms through the bridge and waits for the answer.
    func confirm(_ intent: Stripe.PaymentIntent) async throws -> (Stripe.PaymentIntent?, Stripe.ErrorCode?) {
        let done = Answer<(Stripe.PaymentIntent?, Stripe.ErrorCode?)>()
        _ = await bridge.confirmPaymentIntent(intent, confirmConfig: nil, completion: { done.resume(($0, $1)) })
        return try #require(await done.wait())
    }
}
