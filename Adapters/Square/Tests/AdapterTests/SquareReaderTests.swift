import Foundation
import Testing
@_spi(Testing) import Tender
@testable import TenderSquare
@testable import TenderSquareSimulator
import TenderTesting

@Suite("Square processor: readers and events")
struct SquareReaderTests {
    @Test("connect while offline: a new reader fails, a reader connected online before passes")
    func connectWhileOffline() async throws {
        let clock = ManualClock()
        let simulator = SquareSimulator(sellers: TestSellers.all, seed: 3, clock: clock)
        try await simulator.authorize(withAccessToken: "tok-A", locationID: "LA1")
        let processor = SquareProcessor(client: simulator, captureService: UnusedCaptureService())
        await simulator.addNearbyReader()
        await simulator.setNetwork(.offline)
        let discovered = try await processor.discoverReaders(timeout: 5)
        let reader = try #require(discovered.first)
        do {
            _ = try await processor.connectReader(reader, locationID: "LA1")
            Issue.record("a new reader connected offline")
        } catch let error as PaymentError {
            #expect(error.code == .readerOfflineConnectionRefused && error.recovery == .goOnline)
        }
        await simulator.setNetwork(.online)
        let connected = try await processor.connectReader(reader, locationID: "LA1")
        #expect(connected.id == reader.id && connected.locationID == "LA1")
        await simulator.setNetwork(.offline)
        _ = try await processor.connectReader(reader, locationID: "LA1")
        await #expect(throws: PaymentError.self) { _ = try await processor.connectReader(reader, locationID: "LA2") }
    }

    @Test("pairing needs authorization; pairing errors are mapped")
    func pairingErrors() async throws {
        let simulator = SquareSimulator(sellers: TestSellers.all, seed: 3, clock: ManualClock())
        let processor = SquareProcessor(client: simulator, captureService: UnusedCaptureService())
        do {
            _ = try await processor.discoverReaders(timeout: 1)
            Issue.record("pairing without authorization succeeded")
        } catch let error as PaymentError {
            #expect(error.code == .notAuthorized && error.vendor?.name == "notAuthorized")
        }
        try await simulator.authorize(withAccessToken: "tok-A", locationID: "LA1")
        do {
            _ = try await processor.discoverReaders(timeout: 1)
            Issue.record("pairing with no reader in range succeeded")
        } catch let error as PaymentError {
            #expect(error.code == .readerConnectionFailed && error.vendor?.name == "timedOut")
        }
    }

    @Test("reader disconnect mid-payment: outcome unknown, nothing charged, retried once after reconnecting")
    func readerDisconnectMidPayment() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.cardPresentation = .waitForPresentCard
        let world = try await SquareWorld(configuration: configuration)
        async let payment = world.pay("order-1", cents: 25_00)
        await world.waitForPaymentInProgress()
        await world.simulator.disconnectReader(reason: .bluetoothFailure)
        let (outcome, states) = try await payment
        #expect(states == [.collecting])
        #expect(outcome.state == .outcomeUnknown && outcome.error?.code == .timedOut)
        #expect(world.emitter.emitted.contains(.readerDisconnected(.linkLost)))
        #expect(try await world.processor.lookUpPayment(reference: "order-1", localID: nil, processorPaymentID: nil)
            == .unknown, "the SDK stored a key for the attempt: not proof either way")
        // The retry continues the same attempt; with no reader it cannot, and the earlier outcome stays unknown.
        let (blocked, _) = try await world.pay("order-1", cents: 25_00,
                                               attempt: PaymentAttempt(number: 2, previousState: .outcomeUnknown))
        #expect(blocked.state == .outcomeUnknown && blocked.error?.code == .readerConnectionFailed)

        let reader = try #require(try await world.processor.discoverReaders(timeout: 1).first)
        _ = try await world.processor.connectReader(reader, locationID: "LA1")
        await world.simulator.configure { $0.cardPresentation = .immediate }
        let (retry, _) = try await world.pay("order-1", cents: 25_00,
                                             attempt: PaymentAttempt(number: 3, previousState: .outcomeUnknown))
        #expect(retry.state == .succeeded)
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 1)
        #expect(await world.simulator.serverPayments.map(\.paymentAttemptID) == ["order-1"], "the same attempt, continued")
    }

    @Test("reader events: battery, a blocking firmware update with progress, a failed update")
    func readerEvents() async throws {
        let world = try await SquareWorld()
        let reader = try #require(await world.simulator.readers.first)
        await world.simulator.setBattery(reader.id, percentage: 15, isCharging: true)
        await world.simulator.announceFirmwareUpdate(reader.id, blocking: true)
        let (blocked, _) = try await world.pay("order-1", cents: 5_00)
        #expect(blocked.state == .failed && blocked.error?.code == .readerUpdateRequired)
        await world.simulator.advanceFirmwareUpdate(reader.id, toPercent: 50)
        await world.simulator.advanceFirmwareUpdate(reader.id, toPercent: 100)
        let events = world.emitter.emitted
        #expect(events.contains(.batteryLevelChanged(level: 0.15, isCharging: true)))
        #expect(events.contains { if case .softwareUpdateAvailable(let update) = $0 { update.isRequired } else { false } })
        #expect(events.contains(.softwareUpdateProgress(0.5)))
        #expect(events.contains(.softwareUpdateFinished(nil)))
        #expect(events.contains(.readerDisconnected(.rebooted)))
        #expect(events.last == .readerConnectionChanged(.connected))
        let (after, _) = try await world.pay("order-1", cents: 5_00, attempt: PaymentAttempt(number: 2, previousState: .failed))
        #expect(after.state == .succeeded)

        await world.simulator.announceFirmwareUpdate(reader.id, blocking: true)
        await world.simulator.failFirmwareUpdate(reader.id)
        #expect(world.emitter.emitted.contains {
            if case .softwareUpdateFinished(let error?) = $0 { error.code == .readerUpdateFailed } else { false }
        })
    }

    @Test("a chip read reports the card inserted and removed; readers over the simulator are simulated")
    func chipMessages() async throws {
        let world = try await SquareWorld()
        _ = try await world.pay("order-1", cents: 10_00)
        #expect(world.emitter.emitted.contains(.readerMessage(.cardInserted)))
        #expect(world.emitter.emitted.contains(.readerMessage(.cardRemoved)))
        #expect(try await world.processor.discoverReaders(timeout: 1).allSatisfy(\.isSimulated))
        #expect(await world.simulator.readers.first?.cardInsertionStatus == .notInserted)
    }

    @Test("events() is the emitter's stream: the core sees network and reader changes")
    func eventStream() async throws {
        let world = try await SquareWorld()
        var events = world.processor.events().makeAsyncIterator()
        #expect(await events.next() == .networkStatusChanged(.online), "the status at start, not only changes")
        await world.simulator.setNetwork(.offline)
        #expect(await events.next() == .networkStatusChanged(.offline))
        let reader = try #require(await world.simulator.readers.first)
        await world.simulator.setBattery(reader.id, percentage: 40, isCharging: false)
        #expect(await events.next() == .batteryLevelChanged(level: 0.4, isCharging: false))
    }

    @Test("discovery pairs through startPairing(with:): the success names no reader, which then appears in readers")
    func pairingDelegate() async throws {
        let simulator = SquareSimulator(sellers: TestSellers.all, seed: 3, clock: ManualClock())
        try await simulator.authorize(withAccessToken: "tok-A", locationID: "LA1")
        let processor = SquareProcessor(client: simulator, captureService: UnusedCaptureService())
        await simulator.addNearbyReader(model: .stand)
        let readers = try await processor.discoverReaders(timeout: 1)
        #expect(readers.map(\.model) == ["stand"])
        #expect(try await processor.discoverReaders(timeout: 1).count == 1, "already paired: no second pairing")
    }

    @Test("stopObserving removes the adapter's observers from the SDK")
    func stopObserving() async throws {
        let world = try await SquareWorld()
        await world.processor.stopObserving()
        await world.simulator.setNetwork(.offline)
        #expect(!world.emitter.emitted.contains(.networkStatusChanged(.offline)))
        await world.processor.startObserving()
        await world.simulator.setNetwork(.online)
        #expect(world.emitter.emitted.last == .networkStatusChanged(.online))
    }

    @Test("networkStatus answers from the SDK's network monitor, even before anyone is authorized (A5)")
    func networkStatus() async throws {
        let simulator = SquareSimulator(sellers: TestSellers.all, seed: 3, clock: ManualClock(), network: .offline)
        let processor = SquareProcessor(client: simulator, captureService: UnusedCaptureService())
        #expect(await processor.networkStatus() == .offline)
        await simulator.setNetwork(.online)
        #expect(await processor.networkStatus() == .online)
    }

    @Test("AvailableCardInputMethodsObserver: told when a reader is paired, swipe goes offline, a reader stops")
    func inputMethodObservers() async throws {
        let simulator = SquareSimulator(sellers: TestSellers.all, seed: 1, clock: ManualClock())
        try await simulator.authorize(withAccessToken: "tok-A", locationID: "LA1")
        let observer = InputMethodsRecorder()
        await simulator.add(observer)
        await simulator.addNearbyReader()
        _ = await simulator.startPairing(with: PairingRecorder())
        await simulator.setNetwork(.offline)
        await simulator.setNetwork(.offline)
        let reader = try #require(await simulator.readers.first)
        await simulator.setReaderStatus(reader.id, .readerUnavailable, reason: .bluetoothFailure)
        await simulator.remove(observer)
        await simulator.setReaderStatus(reader.id, .ready)
        #expect(observer.changes.current == [[.chip, .contactless, .swipe], [.chip, .contactless], []])
    }
}

/// Records `availableCardInputMethodsDidChange(_:)`.
final class InputMethodsRecorder: Square.AvailableCardInputMethodsObserver {
    let changes = Locked<[Square.CardInputMethods]>([])
    func availableCardInputMethodsDidChange(_ cardInputMethods: Square.CardInputMethods) {
        changes.withLock { $0.append(cardInputMethods) }
    }
}
