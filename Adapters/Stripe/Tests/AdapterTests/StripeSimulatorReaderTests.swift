import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator
import Testing
import TenderTesting

@Suite("Stripe simulator: readers")
struct StripeSimulatorReaderTests {
    @Test("Bluetooth proximity reports the same reader twice (serial number first, details after) and, like the SDK's, never times out")
    func proximityTwice() async {
        let (simulator, _) = makeSimulator()
        let delegate = RecordingDelegate()
        let done = Locked<[String]>([])
        let cancelable = await simulator.discoverReaders(
            Stripe.DiscoveryConfiguration(method: .bluetoothProximity, timeout: 5, simulated: true), delegate: delegate,
            completion: { error in done.withLock { $0.append(error?.code.name ?? "nil") } })
        #expect(delegate.discovered.count == 2)
        #expect(delegate.discovered.first?.first?.serialNumber == "CHB2X-SIM-0001")
        #expect(delegate.discovered.first?.first?.batteryLevel == nil)
        #expect(delegate.discovered.last?.first?.batteryLevel == 0.8)
        // Proximity has no timeout in the SDK: the value passed is ignored, and the discovery runs until cancelled.
        #expect(done.current.isEmpty && !cancelable.completed)
        #expect(await simulator.isDiscovering)
        let cancelled = Locked(false)
        cancelable.cancel { _ in cancelled.withLock { $0 = true } }
        #expect(cancelled.current && done.current == ["nil"])
        #expect(await !simulator.isDiscovering)
    }

    @Test("a scan with a timeout and nothing in range fails with bluetoothScanTimedOut")
    func scanTimeout() async {
        let (simulator, _) = makeSimulator { $0.readersInRange = [] }
        let done = Locked<[String]>([])
        _ = await simulator.discoverReaders(Stripe.DiscoveryConfiguration(timeout: 1, simulated: true), delegate: RecordingDelegate(),
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
            Stripe.DiscoveryConfiguration(simulated: true), delegate: delegate,
            completion: { error in done.withLock { $0.append(error?.code.name ?? "nil") } })
        #expect(await simulator.connectionStatus == .discovering)
        #expect(done.current.isEmpty)
        #expect(await cancelable.cancel() == nil)
        #expect(done.current == ["nil"])
        #expect(await simulator.connectionStatus == .notConnected)
        #expect(await cancelable.cancel()?.code == .cancelFailedAlreadyCompleted)
        #expect(delegate.lines.contains("connection discovering"))
    }

    @Test("connecting stops a running discovery")
    func connectStopsDiscovery() async throws {
        let (simulator, _) = makeSimulator()
        let done = Locked<[String]>([])
        _ = await simulator.discoverReaders(Stripe.DiscoveryConfiguration(simulated: true), delegate: RecordingDelegate(),
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
        try await connect(simulator, wisePadReader)
        try await simulator.disconnectReader()
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        // 2. A reader type never connected online (only a WisePad 3 was).
        let unseenType = await connectError(simulator, m2Reader)
        #expect(unseenType?.code == .readerConnectionNotAvailableOffline)
        #expect(unseenType?.message.hasPrefix("The selected reader must be paired online at this location") == true)
        // The same type, at another location.
        let otherLocation = await connectError(simulator, wisePadReader, location: "tml_other")
        #expect(otherLocation?.code == .readerConnectionOfflineLocationMismatch)

        // 3. Software not current within 30 days: M2 online on day 0, another M2 online on day 25, M2 offline day 35.
        await simulator.setSimulatedOfflineMode(.disabled)
        try await connect(simulator, m2Reader)
        try await simulator.disconnectReader()
        clock.advance(by: 25 * 86_400)
        let otherM2 = Stripe.Reader(serialNumber: "STRM2-SIM-0002", deviceType: .stripeM2, batteryLevel: 0.9,
                                    simulated: true)
        await simulator.configure { $0.readersInRange.append(otherM2) }
        try await connect(simulator, otherM2)
        try await simulator.disconnectReader()
        clock.advance(by: 10 * 86_400)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let stale = await connectError(simulator, m2Reader)
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
        await simulator.configure { $0.testReaderUpdate = .requiredOffline }
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

    @Test("optional updates: reported with requiredAt, installed on request, refused at 50 % battery or less")
    func optionalUpdate() async throws {
        let (simulator, clock) = makeSimulator { $0.testReaderUpdate = .available }
        let delegate = RecordingDelegate()
        let reader = try await connect(simulator, delegate: delegate)
        let update = try #require(reader.availableUpdate)
        #expect(update.requiredAt == clock.now().addingTimeInterval(7 * 86_400))
        #expect(delegate.lines.contains("updateAvailable"))
        await simulator.installAvailableUpdate()
        #expect(delegate.lines.contains("updateFinished ok"))
        #expect(await simulator.connectedReader?.availableUpdate == nil)

        // Seed 004: "the reader's battery level must be higher than 50%". Exactly half is not enough.
        for level: Float in [0.4, 0.5] {
            let low = Stripe.Reader(serialNumber: "STRM2-LOW", deviceType: .stripeM2, batteryLevel: level, simulated: true)
            let (other, _) = makeSimulator {
                $0.testReaderUpdate = .available
                $0.readersInRange = [low]
            }
            let lowDelegate = RecordingDelegate()
            try await connect(other, low, delegate: lowDelegate)
            await other.installAvailableUpdate()
            #expect(lowDelegate.lines.last == "updateFinished readerSoftwareUpdateFailedBatteryLow", "\(level)")
            #expect(await other.connectedReader?.availableUpdate != nil)
        }
        let (none, _) = makeSimulator()
        let noneDelegate = RecordingDelegate()
        try await connect(none, delegate: noneDelegate)
        await none.installAvailableUpdate()
        #expect(noneDelegate.lines.last == "updateFinished ok")
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

        await simulator.configure { $0.reconnectionSucceeds = false }
        await simulator.simulateUnexpectedDisconnect(reason: .poweredOff)
        #expect(delegate.lines.suffix(3) == ["reconnectStarted poweredOff", "reconnectFailed", "disconnect poweredOff"])
        #expect(await simulator.connectedReader == nil)

        let manual = RecordingDelegate()
        try await connect(simulator, delegate: manual, autoReconnect: false)
        await simulator.simulateUnexpectedDisconnect(reason: .criticallyLowBattery)
        #expect(manual.lines.last == "disconnect criticallyLowBattery")
        #expect(!manual.lines.contains { $0.hasPrefix("reconnectStarted") })

        let canceling = RecordingDelegate(cancelReconnects: true)
        await simulator.configure { $0.reconnectionSucceeds = true }
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

    @Test("a discovery for real readers (the SDK builders' default) finds none of the simulated ones")
    func realReadersOnly() async {
        let (simulator, _) = makeSimulator()
        let delegate = RecordingDelegate()
        let done = Locked<[String]>([])
        _ = await simulator.discoverReaders(Stripe.DiscoveryConfiguration(timeout: 1), delegate: delegate,
                                            completion: { error in done.withLock { $0.append(error?.code.name ?? "nil") } })
        #expect(delegate.discovered.last == [])
        #expect(done.current == ["bluetoothScanTimedOut"])
    }

    @Test("offline connect: no record of the reader's software being current refuses (2872); unseen readers (2873)")
    func offlineSoftwareRecordAndUnseenReaders() async throws {
        // Connected online with an optional update pending: nothing records the software as current.
        let (pending, _) = makeSimulator { $0.testReaderUpdate = .available }
        try await connect(pending)
        try await pending.disconnectReader()
        await pending.configure { $0.testReaderUpdate = .none }
        await pending.setSimulatedOfflineMode(.offlineImmediate)
        #expect(await connectError(pending)?.code == .readerConnectionOfflineNeedsUpdate)

        let other = Stripe.Reader(serialNumber: "STRM2-SIM-0003", deviceType: .stripeM2, batteryLevel: 0.9, simulated: true)
        let (unseen, _) = makeSimulator {
            $0.offlinePairingOfUnseenReaders = false
            $0.readersInRange.append(other)
        }
        try await connect(unseen)
        try await unseen.disconnectReader()
        await unseen.setSimulatedOfflineMode(.offlineImmediate)
        #expect(await connectError(unseen, other)?.code == .readerConnectionOfflinePairingUnseenDisabled)
        #expect(await connectError(unseen) == nil)
    }
}
