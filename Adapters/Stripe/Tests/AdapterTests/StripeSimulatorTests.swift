import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator
import Testing

/// Records every SDK callback as a line, and can cancel updates or reconnections as they start.
final class RecordingDelegate: Stripe.MobileReaderDelegate, Stripe.OfflineDelegate, Stripe.DiscoveryDelegate,
    Stripe.TerminalDelegate {
    private let recorded = Locked<[String]>([])
    private let discoveredLists = Locked<[[Stripe.Reader]]>([])
    private let forwardedIntents = Locked<[(Stripe.PaymentIntent, Stripe.ErrorCode?)]>([])
    let cancelUpdates: Bool
    let cancelReconnects: Bool

    init(cancelUpdates: Bool = false, cancelReconnects: Bool = false) {
        self.cancelUpdates = cancelUpdates
        self.cancelReconnects = cancelReconnects
    }

    var lines: [String] { recorded.current }
    var discovered: [[Stripe.Reader]] { discoveredLists.current }
    var forwarded: [(Stripe.PaymentIntent, Stripe.ErrorCode?)] { forwardedIntents.current }
    private func record(_ line: String) { recorded.withLock { $0.append(line) } }

    func didUpdateDiscoveredReaders(_ readers: [Stripe.Reader]) { discoveredLists.withLock { $0.append(readers) } }
    func didChangeConnectionStatus(_ status: Stripe.ConnectionStatus) { record("connection \(status.rawValue)") }
    func didChangePaymentStatus(_ status: Stripe.PaymentStatus) { record("payment \(status.rawValue)") }
    func didChangeOfflineStatus(_ offlineStatus: Stripe.OfflineStatus) {
        record("offline \(offlineStatus.sdk.networkStatus.rawValue) \(offlineStatus.sdk.paymentsCount.map(String.init) ?? "nil")")
    }
    func didForwardPaymentIntent(_ intent: Stripe.PaymentIntent, error: Stripe.ErrorCode?) {
        forwardedIntents.withLock { $0.append((intent, error)) }
        record("forwarded \(error?.code.name ?? "ok")")
    }
    func didReportForwardingError(_ error: Stripe.ErrorCode) { record("forwardingError \(error.code.name)") }
    func didReportAvailableUpdate(_ update: Stripe.ReaderSoftwareUpdate) { record("updateAvailable") }
    func didStartInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate, cancelable: Stripe.Cancelable?) {
        record("updateStarted")
        if cancelUpdates { try? cancelable?.cancel() }
    }
    func didReportReaderSoftwareUpdateProgress(_ progress: Double) { record("progress \(progress)") }
    func didFinishInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate?, error: Stripe.ErrorCode?) {
        record("updateFinished \(error?.code.name ?? "ok")")
    }
    func didRequestReaderInput(_ inputOptions: Stripe.ReaderInputOptions) { record("input \(inputOptions.rawValue)") }
    func didRequestReaderDisplayMessage(_ displayMessage: Stripe.ReaderDisplayMessage) {
        record("display \(displayMessage.rawValue)")
    }
    func didReportReaderEvent(_ event: Stripe.ReaderEvent) { record("event \(event.rawValue)") }
    func didReportBatteryLevel(_ batteryLevel: Double, status: Stripe.BatteryStatus, isCharging: Bool) {
        record("battery")
    }
    func didDisconnect(_ reason: Stripe.DisconnectReason) { record("disconnect \(reason.rawValue)") }
    func didStartReconnect(_ cancelable: Stripe.Cancelable, disconnectReason: Stripe.DisconnectReason) {
        record("reconnectStarted \(disconnectReason.rawValue)")
        if cancelReconnects { try? cancelable.cancel() }
    }
    func didSucceedReconnect() { record("reconnectSucceeded") }
    func didFailReconnect() { record("reconnectFailed") }
}

/// A token provider that fails, or answers with nothing.
struct FailingTokenProvider: Stripe.ConnectionTokenProvider {
    let empty: Bool
    func fetchConnectionToken() async throws -> String {
        if empty { return "" }
        throw URLError(.notConnectedToInternet)
    }
}

private let m2 = Stripe.SimulatorConfiguration.defaultReaders[0]
private let wisePad = Stripe.SimulatorConfiguration.defaultReaders[2]

/// Connects `reader` at `location` with a recording delegate.
@discardableResult
private func connect(_ simulator: StripeSimulator, _ reader: Stripe.Reader = m2, location: String = testLocation,
                     delegate: RecordingDelegate = RecordingDelegate(), autoReconnect: Bool = true)
    async throws(Stripe.ErrorCode) -> Stripe.Reader {
    try await simulator.connectReader(reader, configuration: Stripe.BluetoothConnectionConfiguration(
        locationId: location, autoReconnectOnUnexpectedDisconnect: autoReconnect, delegate: delegate))
}

private func connectError(_ simulator: StripeSimulator, _ reader: Stripe.Reader = m2, location: String = testLocation,
                          delegate: RecordingDelegate = RecordingDelegate()) async -> Stripe.ErrorCode? {
    do {
        try await connect(simulator, reader, location: location, delegate: delegate)
        return nil
    } catch {
        return error
    }
}

@Suite("Stripe simulator: readers")
struct StripeSimulatorReaderTests {
    @Test("Bluetooth proximity reports the same reader twice: serial number first, details after")
    func proximityTwice() async {
        let (simulator, _) = makeSimulator()
        let delegate = RecordingDelegate()
        let done = Locked<[String]>([])
        let cancelable = await simulator.discoverReaders(
            Stripe.DiscoveryConfiguration(method: .bluetoothProximity, timeout: 5), delegate: delegate,
            completion: { error in done.withLock { $0.append(error?.code.name ?? "nil") } })
        #expect(delegate.discovered.count == 2)
        #expect(delegate.discovered.first?.first?.serialNumber == "CHB2X-SIM-0001")
        #expect(delegate.discovered.first?.first?.batteryLevel == nil)
        #expect(delegate.discovered.last?.first?.batteryLevel == 0.8)
        #expect(done.current == ["nil"])
        #expect(cancelable.completed)
    }

    @Test("a scan with a timeout and nothing in range fails with bluetoothScanTimedOut")
    func scanTimeout() async {
        let (simulator, _) = makeSimulator { $0.readersInRange = [] }
        let done = Locked<[String]>([])
        _ = await simulator.discoverReaders(Stripe.DiscoveryConfiguration(timeout: 1), delegate: RecordingDelegate(),
                                            completion: { error in done.withLock { $0.append(error?.code.name ?? "nil") } })
        #expect(done.current == ["bluetoothScanTimedOut"])
    }

    @Test("a scan without a timeout runs until canceled; cancel completes it with nil")
    func cancelDiscovery() async throws {
        let (simulator, _) = makeSimulator()
        let delegate = RecordingDelegate()
        simulator.setTerminalDelegate(delegate)
        let done = Locked<[String]>([])
        let cancelable = await simulator.discoverReaders(
            Stripe.DiscoveryConfiguration(), delegate: delegate,
            completion: { error in done.withLock { $0.append(error?.code.name ?? "nil") } })
        #expect(await simulator.connectionStatus == .discovering)
        #expect(done.current.isEmpty)
        try cancelable.cancel()
        #expect(done.current == ["nil"])
        #expect(await simulator.connectionStatus == .notConnected)
        #expect(throws: Stripe.ErrorCode.self) { try cancelable.cancel() }
        #expect(delegate.lines.contains("connection discovering"))
    }

    @Test("connecting stops a running discovery")
    func connectStopsDiscovery() async throws {
        let (simulator, _) = makeSimulator()
        let done = Locked<[String]>([])
        _ = await simulator.discoverReaders(Stripe.DiscoveryConfiguration(), delegate: RecordingDelegate(),
                                            completion: { error in done.withLock { $0.append(error?.code.name ?? "nil") } })
        try await connect(simulator)
        #expect(done.current == ["nil"])
        #expect(await simulator.connectionStatus == .connected)
        #expect(await simulator.paymentStatus == .ready)
    }

    @Test("connect while offline: the three refusals of seed 000, a location mismatch, and the passing case")
    func connectWhileOffline() async throws {
        let (simulator, clock) = makeSimulator()
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        // 1. Nothing connected online yet.
        let neverOnline = await connectError(simulator)
        #expect(neverOnline?.code == .notConnectedToInternet)
        #expect(neverOnline?.message == "The SDK isn’t connected to the internet")

        await simulator.setSimulatedOfflineMode(.disabled)
        try await connect(simulator, wisePad)
        try await simulator.disconnectReader()
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        // 2. A reader type never connected online (only a WisePad 3 was).
        let unseenType = await connectError(simulator, m2)
        #expect(unseenType?.code == .readerConnectionNotAvailableOffline)
        #expect(unseenType?.message.hasPrefix("The selected reader must be paired online at this location") == true)
        // The same type, at another location.
        let otherLocation = await connectError(simulator, wisePad, location: "tml_other")
        #expect(otherLocation?.code == .readerConnectionOfflineLocationMismatch)

        // 3. Software not current within 30 days: M2 online on day 0, another M2 online on day 25, M2 offline day 35.
        await simulator.setSimulatedOfflineMode(.disabled)
        try await connect(simulator, m2)
        try await simulator.disconnectReader()
        clock.advance(by: 25 * 86_400)
        let otherM2 = Stripe.Reader(serialNumber: "STRM2-SIM-0002", deviceType: .stripeM2, batteryLevel: 0.9,
                                    simulated: true)
        await simulator.updateConfiguration { $0.readersInRange.append(otherM2) }
        try await connect(simulator, otherM2)
        try await simulator.disconnectReader()
        clock.advance(by: 10 * 86_400)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let stale = await connectError(simulator, m2)
        #expect(stale?.code == .readerConnectionOfflineNeedsUpdate)
        #expect(stale?.message == "The selected reader requires a software update before it can be used to collect payments offline.")

        // Passing: the reader updated within 30 days, same type, same location.
        let passing = try await connect(simulator, otherM2)
        #expect(passing.locationId == testLocation)
        try await simulator.disconnectReader()

        // After 30 days without any online connection, nothing connects offline.
        clock.advance(by: 31 * 86_400)
        #expect(await connectError(simulator, otherM2)?.code == .notConnectedToInternet)
    }

    @Test("requiredOffline update: an offline connect fails, an online connect installs it")
    func requiredForOffline() async throws {
        let (simulator, _) = makeSimulator()
        try await connect(simulator)
        try await simulator.disconnectReader()
        await simulator.updateConfiguration { $0.testReaderUpdate = .requiredOffline }
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        #expect(await connectError(simulator)?.code == .readerConnectionOfflineNeedsUpdate)
        await simulator.setSimulatedOfflineMode(.disabled)
        let delegate = RecordingDelegate()
        let reader = try await connect(simulator, delegate: delegate)
        #expect(delegate.lines.contains("updateFinished ok"))
        #expect(reader.deviceSoftwareVersion == "2.01.00.17.1")
        try await simulator.disconnectReader()
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        #expect(await connectError(simulator) == nil)
    }

    @Test("a required update installs on connect with progress")
    func requiredUpdate() async throws {
        let (simulator, _) = makeSimulator { $0.testReaderUpdate = .required }
        let delegate = RecordingDelegate()
        try await connect(simulator, delegate: delegate)
        let update = delegate.lines.filter { $0.hasPrefix("update") || $0.hasPrefix("progress") }
        #expect(update == ["updateStarted", "progress 0.25", "progress 0.5", "progress 0.75", "progress 1.0",
                           "updateFinished ok"])
        try await simulator.disconnectReader()
        let again = RecordingDelegate()
        try await connect(simulator, delegate: again)
        #expect(!again.lines.contains("updateStarted"))
    }

    @Test("canceling a required update fails the connection")
    func cancelRequiredUpdate() async {
        let (simulator, _) = makeSimulator { $0.testReaderUpdate = .required }
        let delegate = RecordingDelegate(cancelUpdates: true)
        let error = await connectError(simulator, delegate: delegate)
        #expect(error?.code == .unsupportedReaderVersion)
        #expect(delegate.lines.contains("updateFinished canceled"))
        #expect(await simulator.connectedReader == nil)
        #expect(await simulator.connectionStatus == .notConnected)
    }

    @Test("low battery: the update fails; the connect fails or succeeds as the test update says",
          arguments: [(Stripe.TestReaderUpdate.lowBattery, false), (.lowBatterySucceedConnect, true)])
    func lowBatteryUpdate(_ type: Stripe.TestReaderUpdate, _ connects: Bool) async {
        let (simulator, _) = makeSimulator { $0.testReaderUpdate = type }
        let delegate = RecordingDelegate()
        let error = await connectError(simulator, delegate: delegate)
        #expect(delegate.lines.contains("updateFinished readerSoftwareUpdateFailedBatteryLow"))
        #expect((error == nil) == connects)
        if !connects { #expect(error?.code == .readerSoftwareUpdateFailedBatteryLow) }
    }

    @Test("optional updates: reported with requiredAt, installed on request, refused below 50 % battery")
    func optionalUpdate() async throws {
        let (simulator, clock) = makeSimulator { $0.testReaderUpdate = .available }
        let delegate = RecordingDelegate()
        let reader = try await connect(simulator, delegate: delegate)
        let update = try #require(reader.availableUpdate)
        #expect(update.requiredAt == clock.now().addingTimeInterval(7 * 86_400))
        #expect(delegate.lines.contains("updateAvailable"))
        try await simulator.installAvailableUpdate()
        #expect(delegate.lines.contains("updateFinished ok"))
        #expect(await simulator.connectedReader?.availableUpdate == nil)

        let low = Stripe.Reader(serialNumber: "STRM2-LOW", deviceType: .stripeM2, batteryLevel: 0.4, simulated: true)
        let (other, _) = makeSimulator {
            $0.testReaderUpdate = .available
            $0.readersInRange = [low]
        }
        try await connect(other, low)
        await #expect(throws: Stripe.ErrorCode.self) { try await other.installAvailableUpdate() }
    }

    @Test("an optional update past its requiredAt installs on the next connect")
    func optionalBecomesRequired() async throws {
        let (simulator, clock) = makeSimulator { $0.testReaderUpdate = .available }
        try await connect(simulator)
        try await simulator.disconnectReader()
        clock.advance(by: 8 * 86_400)
        let delegate = RecordingDelegate()
        try await connect(simulator, delegate: delegate)
        #expect(delegate.lines.contains("updateStarted"))
        #expect(delegate.lines.contains("updateFinished ok"))
    }

    @Test("automatic reconnection on, succeeding and failing; off; and a reboot")
    func reconnection() async throws {
        let (simulator, _) = makeSimulator()
        let delegate = RecordingDelegate()
        try await connect(simulator, delegate: delegate)
        await simulator.simulateUnexpectedDisconnect(reason: .bluetoothSignalLost)
        #expect(delegate.lines.suffix(2) == ["reconnectStarted bluetoothSignalLost", "reconnectSucceeded"])
        #expect(await simulator.connectionStatus == .connected)

        try await simulator.rebootReader()
        #expect(delegate.lines.suffix(2) == ["reconnectStarted rebootRequested", "reconnectSucceeded"])

        await simulator.updateConfiguration { $0.reconnectionSucceeds = false }
        await simulator.simulateUnexpectedDisconnect(reason: .poweredOff)
        #expect(delegate.lines.suffix(3) == ["reconnectStarted poweredOff", "reconnectFailed", "disconnect poweredOff"])
        #expect(await simulator.connectedReader == nil)

        let manual = RecordingDelegate()
        try await connect(simulator, delegate: manual, autoReconnect: false)
        await simulator.simulateUnexpectedDisconnect(reason: .criticallyLowBattery)
        #expect(manual.lines.last == "disconnect criticallyLowBattery")
        #expect(!manual.lines.contains { $0.hasPrefix("reconnectStarted") })

        let canceling = RecordingDelegate(cancelReconnects: true)
        await simulator.updateConfiguration { $0.reconnectionSucceeds = true }
        try await connect(simulator, delegate: canceling)
        await simulator.simulateUnexpectedDisconnect()
        #expect(canceling.lines.suffix(2) == ["reconnectFailed", "disconnect bluetoothSignalLost"])
    }

    @Test("the token provider: failure and nothing fail the connection")
    func tokenProviderFailures() async {
        let failing = StripeSimulator(configuration: .init(), clock: ManualClock(),
                                      tokenProvider: FailingTokenProvider(empty: false))
        #expect(await connectError(failing)?.code == .connectionTokenProviderCompletedWithError)
        let empty = StripeSimulator(configuration: .init(), clock: ManualClock(),
                                    tokenProvider: FailingTokenProvider(empty: true))
        #expect(await connectError(empty)?.code == .connectionTokenProviderCompletedWithNothing)
        #expect(await empty.connectionStatus == .notConnected)
    }
}

@Suite("Stripe simulator: payments")
struct StripeSimulatorPaymentTests {
    private func collect(_ simulator: StripeSimulator, _ intent: Stripe.PaymentIntent) async
        -> Result<Stripe.PaymentIntent, Stripe.ErrorCode> {
        let box = Locked<Result<Stripe.PaymentIntent, Stripe.ErrorCode>?>(nil)
        _ = await simulator.collectPaymentMethod(intent, collectConfig: .init(), completion: { result in
            box.withLock { $0 = result }
        })
        return box.current ?? .failure(Stripe.ErrorCode(.canceled, message: "no completion"))
    }

    private func params(_ amount: UInt = 1_500, reference: String = "P-1") -> Stripe.PaymentIntentParameters {
        Stripe.PaymentIntentParameters(amount: amount, currency: "usd", captureMethod: .manual,
                                       metadata: ["tender_reference": reference])
    }

    @Test("offline creation: nil stripeId; stored with offline details; status counts; forwarded per intent")
    func offlineLifecycle() async throws {
        let (simulator, _) = makeSimulator { $0.simulatedTipAmount = 200 }
        let delegate = RecordingDelegate()
        simulator.setOfflineDelegate(delegate)
        try await connect(simulator)
        #expect(await simulator.offlineStatus.sdk.networkStatus == .online)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let created = try await simulator.createPaymentIntent(params(), createConfig: .init())
        #expect(created.stripeId == nil)
        let collected = try await collect(simulator, created).get()
        #expect(collected.status == .requiresConfirmation)
        let confirmed = try await simulator.confirmPaymentIntent(collected)
        #expect(confirmed.status == .requiresCapture)
        #expect(confirmed.offlineDetails?.requiresUpload == true)
        #expect(confirmed.offlineDetails?.cardPresentDetails?.receiptDetails?.accountType == nil)
        #expect(confirmed.offlineDetails?.cardPresentDetails?.receiptDetails?.authorizationResponseCode == nil)
        #expect(!confirmed.isReadyToCapture)
        let status = await simulator.offlineStatus.sdk
        #expect(status.paymentsCount == 1)
        #expect(status.paymentAmountsByCurrency == ["usd": 1_700])
        #expect(status.networkStatus == .offline)

        await simulator.forwardPendingPayments()
        #expect(delegate.forwarded.isEmpty)
        await simulator.setSimulatedOfflineMode(.disabled)
        await simulator.forwardPendingPayments()
        let (intent, error) = try #require(delegate.forwarded.first)
        #expect(error == nil)
        #expect(intent.stripeId != nil)
        #expect(intent.isReadyToCapture)
        #expect(intent.metadata["tender_reference"] == "P-1")
        #expect(await simulator.offlineStatus.sdk.paymentsCount == 0)
        #expect(await simulator.charges(reference: "P-1").first?.amount == 1_700)
        #expect(delegate.lines.contains("offline offline 1"))
    }

    @Test("forwarding asks for a token even offline; failures are reported, payments kept")
    func forwardingTokenFailure() async throws {
        let state = try await stateWithOneStoredPayment()
        for empty in [false, true] {
            let file = SimulatorStateFile<StripeSimulator.PersistedState>(
                url: FileManager.default.temporaryDirectory.appendingPathComponent("stripe-tok-\(UUID().uuidString).json"))
            defer { try? FileManager.default.removeItem(at: file.url) }
            try file.save(state)
            let restored = try StripeSimulator(restoringFrom: file, configuration: .init(offlineEnabled: true),
                                               clock: ManualClock(), tokenProvider: FailingTokenProvider(empty: empty))
            let delegate = RecordingDelegate()
            restored.setOfflineDelegate(delegate)
            await restored.forwardPendingPayments()
            let expected = empty ? "connectionTokenProviderCompletedWithNothingWhileForwarding"
                : "connectionTokenProviderCompletedWithErrorWhileForwarding"
            #expect(delegate.lines.contains("forwardingError \(expected)"))
            #expect(delegate.forwarded.isEmpty)
            #expect(await restored.storedPayments.count == 1)
        }
    }

    /// Persisted state holding one stored offline payment.
    private func stateWithOneStoredPayment() async throws -> StripeSimulator.PersistedState {
        let (simulator, _) = makeSimulator()
        try await connect(simulator)
        let created = try await simulator.createPaymentIntent(params(reference: "P-T"),
                                                              createConfig: .init(offlineBehavior: .forceOffline))
        _ = try await simulator.confirmPaymentIntent(try await collect(simulator, created).get())
        let file = SimulatorStateFile<StripeSimulator.PersistedState>(
            url: FileManager.default.temporaryDirectory.appendingPathComponent("stripe-one-\(UUID().uuidString).json"))
        defer { try? FileManager.default.removeItem(at: file.url) }
        try await simulator.persist(to: file)
        return try #require(try file.load())
    }

    @Test("persisted state survives a simulated restart: server truth and the device's offline store")
    func persistence() async throws {
        let (simulator, clock) = makeSimulator()
        try await connect(simulator)
        let online = try await simulator.createPaymentIntent(params(reference: "A"), createConfig: .init())
        _ = try await simulator.confirmPaymentIntent(try await collect(simulator, online).get())
        let offline = try await simulator.createPaymentIntent(params(reference: "B"),
                                                              createConfig: .init(offlineBehavior: .forceOffline))
        _ = try await simulator.confirmPaymentIntent(try await collect(simulator, offline).get())
        let file = SimulatorStateFile<StripeSimulator.PersistedState>(
            url: FileManager.default.temporaryDirectory.appendingPathComponent("stripe-p-\(UUID().uuidString).json"))
        defer { try? FileManager.default.removeItem(at: file.url) }
        try await simulator.persist(to: file)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let restored = try StripeSimulator(restoringFrom: file, configuration: await simulator.currentConfiguration,
                                           clock: clock)
        #expect(await restored.chargeCount(reference: "A") == 1)
        #expect(await restored.storedPayments.count == 1)
        #expect(await restored.connectedReader == nil)
        await restored.forwardPendingPayments()
        #expect(await restored.chargeCount(reference: "B") == 1)
        let ids = Set(await restored.serverIntents.compactMap(\.stripeId))
        #expect(ids.count == 2)
    }

    @Test("requireOnline and forceOffline creation rules")
    func creationRules() async throws {
        let (simulator, _) = makeSimulator()
        try await connect(simulator)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        await #expect(throws: Stripe.ErrorCode(.notConnectedToInternetAndOfflineBehaviorRequireOnline,
                                               message: "The device is offline and the PaymentIntent requires online.")) {
            _ = try await simulator.createPaymentIntent(params(), createConfig: .init(offlineBehavior: .requireOnline))
        }
        await simulator.setSimulatedOfflineMode(.offlineTimeout)
        let fallback = try await simulator.createPaymentIntent(params(), createConfig: .init(offlineBehavior: .preferOnline))
        #expect(fallback.stripeId == nil)

        let (disabled, _) = makeSimulator(offlineEnabled: false)
        try await connect(disabled)
        do {
            _ = try await disabled.createPaymentIntent(params(), createConfig: .init(offlineBehavior: .forceOffline))
            Issue.record("forceOffline must fail when offline is disabled")
        } catch {
            #expect(error.code == .offlineBehaviorForceOfflineWithFeatureDisabled)
        }
        await disabled.setSimulatedOfflineMode(.offlineImmediate)
        do {
            _ = try await disabled.createPaymentIntent(params(), createConfig: .init())
            Issue.record("preferOnline must fail offline when offline is disabled")
        } catch {
            #expect(error.code == .notConnectedToInternet)
        }
    }

    @Test("a preferOnline intent created online but confirmed offline keeps its stripeId and gets offline details")
    func createdOnlineConfirmedOffline() async throws {
        let (simulator, _) = makeSimulator()
        try await connect(simulator)
        let created = try await simulator.createPaymentIntent(params(), createConfig: .init())
        let collected = try await collect(simulator, created).get()
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let confirmed = try await simulator.confirmPaymentIntent(collected)
        #expect(confirmed.stripeId == created.stripeId)
        #expect(confirmed.offlineDetails?.requiresUpload == true)
        await simulator.setSimulatedOfflineMode(.disabled)
        await simulator.forwardPendingPayments()
        #expect(await simulator.serverIntents.count == 1)
        #expect(await simulator.serverIntent(stripeId: created.stripeId ?? "")?.status == .requiresCapture)
    }

    @Test("a requireOnline confirm while offline keeps requiresConfirmation; confirming again online succeeds")
    func retryConfirm() async throws {
        let (simulator, _) = makeSimulator()
        try await connect(simulator)
        let created = try await simulator.createPaymentIntent(params(), createConfig: .init(offlineBehavior: .requireOnline))
        let collected = try await collect(simulator, created).get()
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        do {
            _ = try await simulator.confirmPaymentIntent(collected)
            Issue.record("confirm must fail offline")
        } catch {
            #expect(error.paymentIntent?.status == .requiresConfirmation)
            #expect(StripeMapping.processingFailure(error) == .retryConfirm)
        }
        await simulator.setSimulatedOfflineMode(.disabled)
        #expect(try await simulator.confirmPaymentIntent(collected).status == .requiresCapture)
    }

    @Test("a flapping network during forwarding forwards each payment exactly once")
    func flappingForwarding() async throws {
        let (simulator, _) = makeSimulator(seed: 99)
        let delegate = RecordingDelegate()
        simulator.setOfflineDelegate(delegate)
        try await connect(simulator)
        for index in 0..<12 {
            let created = try await simulator.createPaymentIntent(params(reference: "FL-\(index)"),
                                                                  createConfig: .init(offlineBehavior: .forceOffline))
            _ = try await simulator.confirmPaymentIntent(try await collect(simulator, created).get())
        }
        await simulator.setSimulatedOfflineMode(.offlineIntermittent)
        var rounds = 0
        while !(await simulator.storedPayments.isEmpty), rounds < 100 {
            await simulator.forwardPendingPayments(maxCount: 3)
            rounds += 1
        }
        #expect(rounds > 4)
        #expect(await simulator.storedPayments.isEmpty)
        #expect(delegate.forwarded.count == 12)
        for index in 0..<12 { #expect(await simulator.chargeCount(reference: "FL-\(index)") == 1) }
        #expect(Set(delegate.forwarded.compactMap(\.0.stripeId)).count == 12)
    }

    @Test("the intermittent network is deterministic under a seed")
    func intermittentDeterministic() async throws {
        func outcomes(seed: UInt64) async -> [Bool] {
            let (simulator, _) = makeSimulator(seed: seed)
            await simulator.setSimulatedOfflineMode(.offlineIntermittent)
            var results: [Bool] = []
            for _ in 0..<16 {
                let intent = try? await simulator.createPaymentIntent(params(), createConfig: .init(offlineBehavior: .requireOnline))
                results.append(intent != nil)
            }
            return results
        }
        let first = await outcomes(seed: 42)
        #expect(first == (await outcomes(seed: 42)))
        #expect(first.contains(true) && first.contains(false))
    }

    @Test("stored-payment limit, offline currency, and the offline maximum")
    func offlineLimits() async throws {
        let (simulator, _) = makeSimulator { $0.offlineStoredPaymentsMaximum = 1 }
        try await connect(simulator)
        func store(_ amount: UInt, _ currency: String = "usd") async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
            let created = try await simulator.createPaymentIntent(
                Stripe.PaymentIntentParameters(amount: amount, currency: currency),
                createConfig: .init(offlineBehavior: .forceOffline))
            return try await simulator.confirmPaymentIntent(try await collect(simulator, created).get())
        }
        await #expect(throws: Stripe.ErrorCode.self) { _ = try await store(1_000_001) }
        do { _ = try await store(100, "cad"); Issue.record("cad is not configured offline") } catch {
            #expect(error.code == .invalidOfflineCurrency)
        }
        _ = try await store(100)
        do { _ = try await store(100); Issue.record("the store is full") } catch {
            #expect(error.code == .offlinePaymentsDatabaseTooLarge)
        }
    }

    @Test("retrievePaymentIntent for server-created intents; cancel; clearCachedCredentials; logs")
    func moreTerminal() async throws {
        let (simulator, _) = makeSimulator()
        let logs = Locked<[String]>([])
        simulator.setLogListener { line in logs.withLock { $0.append(line) } }
        let server = await simulator.createOnServer(params(reference: "SRV"))
        let secret = try #require(server.clientSecret)
        let retrieved = try await simulator.retrievePaymentIntent(clientSecret: secret)
        #expect(retrieved.stripeId == server.stripeId)
        await #expect(throws: Stripe.ErrorCode.self) { _ = try await simulator.retrievePaymentIntent(clientSecret: "bad") }
        let canceled = try await simulator.cancelPaymentIntent(retrieved)
        #expect(canceled.status == .canceled)

        try await connect(simulator)
        let created = try await simulator.createPaymentIntent(params(), createConfig: .init(offlineBehavior: .forceOffline))
        _ = try await simulator.confirmPaymentIntent(try await collect(simulator, created).get())
        do { try await simulator.clearCachedCredentials(); Issue.record("must fail while connected") } catch {
            #expect(error.code == .unexpectedOperationError)
        }
        try await simulator.disconnectReader()
        try await simulator.clearCachedCredentials()
        #expect(await simulator.offlineStatus.sdk.paymentsCount == nil)
        #expect(await simulator.offlineStatus.sdk.paymentAmountsByCurrency.isEmpty)
        #expect(!logs.current.isEmpty)
    }

    @Test("reader prompts and the forwarding failure knob")
    func promptsAndForwardingFailure() async throws {
        let (simulator, _) = makeSimulator { $0.forwardingFailure = Stripe.ErrorCode.Code("forwardingLiveModePaymentInTestMode") }
        let delegate = RecordingDelegate()
        simulator.setOfflineDelegate(delegate)
        simulator.setTerminalDelegate(delegate)
        try await connect(simulator, delegate: delegate)
        let created = try await simulator.createPaymentIntent(params(), createConfig: .init(offlineBehavior: .forceOffline))
        _ = try await simulator.confirmPaymentIntent(try await collect(simulator, created).get())
        #expect(delegate.lines.contains("input \(Stripe.ReaderInputOptions([.insertCard, .tapCard]).rawValue)"))
        #expect(delegate.lines.contains("display removeCard"))
        #expect(delegate.lines.contains("event cardInserted"))
        #expect(delegate.lines.contains("payment processing"))
        await simulator.forwardPendingPayments()
        #expect(delegate.forwarded.first?.1?.code.name == "forwardingLiveModePaymentInTestMode")
        #expect(delegate.forwarded.first?.0.stripeId == nil)

        await simulator.failNextCollection(with: .cardReadTimedOut)
        let next = try await simulator.createPaymentIntent(params(), createConfig: .init())
        let failed = await collect(simulator, next)
        #expect((try? failed.get()) == nil)
        #expect(delegate.lines.contains("display tryAnotherReadMethod"))
    }
}
