import Foundation
import Testing
import Tender
@testable import TenderSquare
import TenderSquareSimulator
import TenderTesting

/// Square's reader kinds through the adapter: Tap to Pay's device check and Apple account linking, no internet
/// readers, Tap to Pay taking no offline payments, and a blocking firmware update that blocks payments until
/// Square installs it.
@Suite("Square reader kinds")
struct SquareReaderKindTests {
    @Test("Tap to Pay: the device check, then the Apple account linked during the connection")
    func tapToPay() async throws {
        let world = try await SquareWorld()
        let tap = try #require(try await world.processor.discoverReaders(.tapToPay, timeout: 5).first)
        #expect(tap.kind == .tapToPay)
        await world.simulator.inject(.reader(.tapToPayNotLinked))
        do { _ = try await world.processor.connectReader(tap, locationID: "LA1"); Issue.record("linked") } catch let error as PaymentError {
            #expect(error.vendor?.name == "linkingFailed")
        }
        let connected = try await world.processor.connectReader(tap, locationID: "LA1")
        #expect(connected.features == [.tapToPay])
        #expect(await world.processor.connectedReader()?.kind == .tapToPay)
        // Tap to Pay takes no offline payments with Square: no offline limits while it is the reader.
        #expect(await world.processor.capabilities().offlineLimits == nil)

        await world.simulator.inject(.reader(.tapToPayUnsupportedDevice))
        do { _ = try await world.processor.discoverReaders(.tapToPay, timeout: 5); Issue.record("found") } catch let error as PaymentError {
            #expect(error.code == .featureUnavailable)
        }
    }

    @Test("Square has no internet readers, and no screen for a cart")
    func noSmartReaders() async throws {
        let world = try await SquareWorld()
        do { _ = try await world.processor.discoverReaders(.internet, timeout: 5); Issue.record("found") } catch let error as PaymentError {
            #expect(error.code == .featureUnavailable)
        }
        await #expect(throws: PaymentError.self) { try await world.processor.setReaderDisplay(nil) }
    }

    @Test("a blocking firmware update is the reader's required update: payments wait until Square installed it")
    func blockingUpdate() async throws {
        let world = try await SquareWorld()
        await world.simulator.addNearbyReader()
        let reader = try #require(try await world.processor.discoverReaders(timeout: 5).first)
        #expect(reader.kind == .bluetooth && reader.features == [.offline])
        _ = try await world.processor.connectReader(reader, locationID: "LA1")
        await world.simulator.inject(.reader(.updateRequired))
        #expect(await world.processor.connectedReader()?.availableUpdate?.isRequired == true)
        let terminal = PaymentTerminal(processor: world.processor, scope: LedgerScope(merchantID: "M", locationID: "LA1"),
                                       clock: world.clock)
        do { _ = try await terminal.takePayment(SquareWorld.sale("sq-update", cents: 900)); Issue.record("paid") } catch let error as PaymentError {
            #expect(error.code == .readerUpdateRequired)
        }
        let install = Task { try await terminal.installReaderUpdate() }
        for _ in 0..<40 {
            try await Task.sleep(nanoseconds: 2_000_000)
            world.clock.advance(by: 5)
        }
        try await install.value
        #expect(await world.processor.connectedReader()?.availableUpdate == nil)
        #expect(world.emitter.emitted.contains(.softwareUpdateFinished(nil)))
        #expect(try await terminal.takePayment(SquareWorld.sale("sq-update", cents: 900)).state == .succeeded)
    }
}
