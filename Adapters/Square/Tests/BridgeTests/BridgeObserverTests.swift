import Foundation
import Testing
import Tender
import TenderSquare
import TenderSquareSimulator
import SquareMobilePaymentsSurfaceBackend
@testable import TenderSquareMobilePaymentsOverSurface
import TenderTesting

/// Records observer callbacks, and whether each arrived on the main queue.
final class ObserverProbe: Square.ReaderObserver, Square.AuthorizationStateObserver,
    Square.AvailableCardInputMethodsObserver {
    let events = Locked<[String]>([])
    let offMain = Locked<Int>(0)

    private func note(_ event: String) {
        events.withLock { $0.append(event) }
        if !MainQueueProbe.isMainQueue { offMain.withLock { $0 += 1 } }
    }

    func readerWasAdded(_ readerInfo: Square.ReaderInfo) { note("added \(readerInfo.id)") }
    func readerWasRemoved(_ readerInfo: Square.ReaderInfo) { note("removed \(readerInfo.id)") }
    func readerDidChange(_ readerInfo: Square.ReaderInfo, change: Square.ReaderChange) {
        let battery = readerInfo.batteryStatus.map { " \($0.percentage)%" } ?? ""
        note("\(change.caseName)\(change == .batteryLevelDidChange ? battery : "")")
    }
    func authorizationStateDidChange(_ authorizationState: Square.AuthorizationState) {
        note("state \(authorizationState.caseName)")
    }
    func availableCardInputMethodsDidChange(_ cardInputMethods: Square.CardInputMethods) {
        note("methods swipe:\(cardInputMethods.contains(.swipe)) chip:\(cardInputMethods.contains(.chip))")
    }

    /// Waits until `count` events arrived (observer callbacks reach the main queue asynchronously).
    func waitFor(_ count: Int) async {
        for _ in 0..<2_000 where events.current.count < count { try? await Task.sleep(nanoseconds: 1_000_000) }
    }
}

@Suite("Square through the bridge: observers added and removed", .surfaceBackendExclusive)
struct BridgeObserverTests {
    @Test("a reader observer hears changes as values, on the main thread, once however often it is added, and nothing after remove(_:)",
          arguments: SimulatorSurfaceBackend.CallbackDelivery.allCases)
    func readerObserver(delivery: SimulatorSurfaceBackend.CallbackDelivery) async throws {
        let world = try await BridgeWorld(delivery: delivery)
        let probe = ObserverProbe()
        let reader = try #require(await world.bridge.readers.first)
        await world.bridge.add(probe as any Square.ReaderObserver)
        await world.bridge.add(probe as any Square.ReaderObserver)
        #expect(await world.registryContents().observers == 2, "the adapter's and the probe's, once")
        await world.simulator.setBattery(reader.id, percentage: 42, isCharging: false)
        await probe.waitFor(1)
        await world.bridge.remove(probe as any Square.ReaderObserver)
        #expect(await world.registryContents().observers == 1)
        await world.simulator.setBattery(reader.id, percentage: 41, isCharging: false)
        await world.simulator.setReaderStatus(reader.id, .readerUnavailable, reason: .bluetoothFailure)
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(probe.events.current == ["batteryLevelDidChange 42%"])
        #expect(probe.offMain.current == 0)
        let unavailable = try #require(await world.bridge.readers.first)
        #expect(unavailable.statusInfo.unavailableReasonInfo?.reason == .bluetoothFailure)
        #expect(world.backend.calls.filter { $0.name == "ReaderManager.add" }.count == 2,
                "the adapter's observer and the probe's, each added to the SDK once")
    }

    @Test("an authorization observer hears sign-out and sign-in; an input-methods observer hears swipe go offline")
    func authorizationAndInputMethods() async throws {
        let world = try await BridgeWorld()
        let probe = ObserverProbe()
        await world.bridge.add(probe as any Square.AuthorizationStateObserver)
        await world.bridge.add(probe as any Square.AvailableCardInputMethodsObserver)
        await world.bridge.deauthorize()
        #expect(await world.bridge.state == .notAuthorized)
        #expect(await world.bridge.location == nil)
        try await world.bridge.authorize(withAccessToken: "tok-A", locationID: "LA1")
        #expect(await world.bridge.state == .authorized)
        #expect(await world.bridge.location == BridgeSellers.mainStreet)
        await world.simulator.setNetwork(.offline)
        await probe.waitFor(3)
        #expect(probe.events.current == ["state notAuthorized", "state authorized", "methods swipe:false chip:true"])
        #expect(await world.bridge.availableCardInputMethods == [.chip, .contactless])
        await world.bridge.remove(probe as any Square.AuthorizationStateObserver)
        await world.bridge.remove(probe as any Square.AvailableCardInputMethodsObserver)
        await world.simulator.setNetwork(.online)
        await world.bridge.deauthorize()
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(probe.events.current.count == 3, "nothing after remove(_:): \(probe.events.current)")
        #expect(probe.offMain.current == 0)
        #expect(await world.registryContents() == .init(observers: 1))
    }

    @Test("an authorization error arrives by case; sign-in twice is alreadyAuthorized")
    func authorizationErrors() async throws {
        let world = try await BridgeWorld(authorize: false)
        await #expect(throws: Square.AuthorizationError.invalidAccessToken) {
            try await world.bridge.authorize(withAccessToken: "nobody", locationID: "LA1")
        }
        await #expect(throws: Square.AuthorizationError.emptyLocationID) {
            try await world.bridge.authorize(withAccessToken: "tok-A", locationID: "")
        }
        try await world.bridge.authorize(withAccessToken: "tok-A", locationID: "LA1")
        await #expect(throws: Square.AuthorizationError.alreadyAuthorized) {
            try await world.bridge.authorize(withAccessToken: "tok-A", locationID: "LA1")
        }
    }

    @Test("pairing through the bridge: the new reader appears; a second pairing with no reader in range fails by case")
    func pairing() async throws {
        let world = try await BridgeWorld(authorize: false)
        try await world.bridge.authorize(withAccessToken: "tok-A", locationID: "LA1")
        await world.simulator.addNearbyReader()
        let probe = PairingProbe()
        let handle = await world.bridge.startPairing(with: probe)
        #expect(handle != nil)
        #expect(probe.events.current == ["begin", "succeed"])
        #expect(await world.bridge.readers.count == 1)
        #expect(await world.bridge.isPairingInProgress == false)
        #expect(await handle?.stop() == false, "a finished pairing stops nothing")
        let second = PairingProbe()
        _ = await world.bridge.startPairing(with: second)
        #expect(second.events.current == ["begin", "fail timedOut"])
        let reader = try #require(await world.bridge.readers.first)
        #expect(await world.bridge.retryConnection(reader) == .startingReconnection)
        await world.bridge.forget(reader)
        #expect(await world.bridge.readers.isEmpty)
        #expect(await world.bridge.retryConnection(reader) == .readerNotFound)
        #expect(await world.registryContents() == .init(pairingHandles: 1), "the first handle, still held")
        _ = consume handle
        #expect(await world.registryContents().isEmpty)
    }

    @Test("the bridge tells its own network monitor when Square answered: an authorization, an online payment")
    func bridgeNotesSquareReached() async throws {
        let clock = ManualClock()
        let monitor = SquareNetworkMonitor(storage: .inMemory(), now: { clock.now() })
        monitor.pathDidChange(isSatisfied: false)
        let world = try await BridgeWorld(authorize: false, clock: clock, networkMonitor: monitor)
        #expect(await monitor.lastConnectedAt == nil)
        try await world.bridge.authorize(withAccessToken: "tok-A", locationID: "LA1")
        #expect(await monitor.lastConnectedAt == clock.now())
        await world.simulator.addNearbyReader()
        _ = await world.bridge.startPairing(with: PairingProbe())
        clock.advance(by: 600)
        #expect(try await world.pay("noted").state == .succeeded)
        for _ in 0..<100 { await MainActor.run {} }
        #expect(await monitor.lastConnectedAt == clock.now())
    }
}
