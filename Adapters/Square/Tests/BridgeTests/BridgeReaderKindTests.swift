import Foundation
import Testing
import Tender
import TenderSquare
import TenderSquareSimulator
import SquareMobilePaymentsSurfaceBackend
@testable import TenderSquareMobilePaymentsOverSurface
import TenderTesting

/// Tap to Pay settings and reboot through the bridge, over the mirror: `readerManager.tapToPaySettings` (the device
/// check, the Apple account linked and relinked, Square's `TapToPayReaderError`s by case) and `rebootReader(_:)`.
@Suite("Square through the bridge: Tap to Pay settings and reboot", .surfaceBackendExclusive)
struct BridgeReaderKindTests {
    @Test("tapToPaySettings: device capable, the account linked once, relinked, every call on the main thread")
    func tapToPaySettings() async throws {
        let world = try await BridgeWorld()
        let settings = world.bridge.tapToPaySettings
        #expect(settings is SquareBridgeTapToPaySettings)
        #expect(await settings.isDeviceCapable)
        #expect(try await settings.isAppleAccountLinked() == false)
        try await settings.linkAppleAccount()
        #expect(try await settings.isAppleAccountLinked())
        await #expect(throws: Square.TapToPayReaderError.alreadyLinked) { try await settings.linkAppleAccount() }
        try await settings.relinkAppleAccount()
        let names = world.backend.calls.map(\.name)
        #expect(names.contains("TapToPaySettings.isDeviceCapable"))
        #expect(names.contains("TapToPaySettings.linkAppleAccount"))
        #expect(names.contains("TapToPaySettings.relinkAppleAccount"))
        #expect(world.backend.offMainCalls.isEmpty)
        // Linked, the iPhone's own reader is one of the SDK's readers.
        #expect(await world.bridge.readers.contains { $0.model == .tapToPay })
    }

    @Test("Tap to Pay through the adapter over the bridge: discovered, linked while connecting, a sale taken")
    func tapToPaySale() async throws {
        let world = try await BridgeWorld()
        let tap = try #require(try await world.processor.discoverReaders(.tapToPay, timeout: 5).first)
        let connected = try await world.processor.connectReader(tap, locationID: "LA1")
        #expect(connected.kind == .tapToPay)
        #expect(world.backend.calls.map(\.name).contains("TapToPaySettings.linkAppleAccount"))
        let terminal = PaymentTerminal(processor: world.processor, scope: LedgerScope(merchantID: "MA", locationID: "LA1"),
                                       clock: world.clock)
        #expect(try await terminal.takePayment(BridgeWorld.sale("sq-ttp", cents: 675)).state == .succeeded)
    }

    @Test("faults through the bridge: linking fails, an unsupported iPhone: Square's errors by case")
    func faults() async throws {
        let world = try await BridgeWorld()
        let settings = world.bridge.tapToPaySettings
        await world.simulator.inject(.reader(.tapToPayNotLinked))
        await #expect(throws: Square.TapToPayReaderError.linkingFailed) { try await settings.linkAppleAccount() }
        #expect(try await settings.isAppleAccountLinked() == false)
        let tap = try #require(try await world.processor.discoverReaders(.tapToPay, timeout: 5).first)
        await world.simulator.inject(.reader(.tapToPayNotLinked))
        do {
            _ = try await world.processor.connectReader(tap, locationID: "LA1")
            Issue.record("connected without the Apple account linked")
        } catch let error as PaymentError {
            #expect(error.vendor?.name == "linkingFailed")
        }
        await world.simulator.inject(.reader(.tapToPayUnsupportedDevice))
        #expect(await !settings.isDeviceCapable)
        await #expect(throws: Square.TapToPayReaderError.unsupportedDeviceModel) { try await settings.linkAppleAccount() }
        do {
            _ = try await world.processor.discoverReaders(.tapToPay, timeout: 5)
            Issue.record("discovered Tap to Pay on an unsupported iPhone")
        } catch let error as PaymentError {
            #expect(error.code == .featureUnavailable)
        }
    }

    @Test("rebootReader reaches the SDK's reader: a rebootable one reconnects, its observers hear it")
    func reboot() async throws {
        let world = try await BridgeWorld(authorize: false)
        try await world.bridge.authorize(withAccessToken: "tok-A", locationID: "LA1")
        await world.simulator.addNearbyReader(isRebootable: true)
        _ = await world.bridge.startPairing(with: PairingProbe())
        for _ in 0..<2_000 where await world.bridge.readers.isEmpty { try await Task.sleep(nanoseconds: 1_000_000) }
        let reader = try #require(await world.bridge.readers.first)
        #expect(reader.isRebootable)
        let probe = ObserverProbe()
        await world.bridge.add(probe as any Square.ReaderObserver)
        let before = probe.events.current.count
        try await world.bridge.rebootReader(reader)
        #expect(world.backend.calls.map(\.name).contains("ReaderManager.rebootReader"))
        await probe.waitFor(before + 2)
        #expect(probe.events.current.dropFirst(before).filter { $0 == "readerStatusDidChange" }.count == 2)
        #expect(await world.bridge.readers.first?.statusInfo.status == .ready)
    }
}
