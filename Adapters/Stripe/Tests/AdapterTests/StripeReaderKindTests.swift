import Foundation
import Testing
import Tender
@_spi(Testing) import TenderStripe
import TenderStripeSimulator
import TenderTesting

/// Stripe's reader kinds through the adapter: discovery as a sequence (proximity's double report, cancellation,
/// timeout), smart readers with the cart and on-reader tips, Tap to Pay's terms, and the faults per kind.
@Suite("Stripe reader kinds")
struct StripeReaderKindTests {
    @Test("proximity reports the Chipper 2X twice, serial number first: the same id, updated in place")
    func proximityTwice() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = StripeProcessor(client: simulator, captureService: RecordingCaptureService(simulator: simulator),
                                        configuration: .withSimulatedReaders.with { $0.bluetoothProximity = true },
                                        clock: clock)
        // The SDK's proximity discovery has no timeout: the adapter's own timer ends it, on the adapter's clock.
        let discovery = Task {
            var seen: [Reader] = []
            for try await reader in processor.readerDiscovery(.bluetooth, timeout: 5) { seen.append(reader) }
            return seen
        }
        await eventually { await simulator.isDiscovering && clock.sleeperCount > 0 }
        clock.advance(by: 4)
        #expect(await simulator.isDiscovering, "still running before the timeout")
        clock.advance(by: 1)
        let seen = try await discovery.value
        #expect(seen.map(\.id) == ["CHB2X-SIM-0001", "CHB2X-SIM-0001"])
        #expect(seen.first?.batteryLevel == nil)
        #expect(seen.last?.batteryLevel != nil)
        let batch = Task { try await processor.discoverReaders(.bluetooth, timeout: 5) }
        await eventually { await simulator.isDiscovering && clock.sleeperCount > 0 }
        clock.advance(by: 5)
        #expect(try await batch.value.count == 1)
    }

    @Test("a discovery without a timeout runs until its task is cancelled, which cancels the SDK's discovery")
    func cancellation() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = makeProcessor(simulator, clock: clock)
        let first = Locked<Reader?>(nil)
        let task = Task {
            for try await reader in processor.readerDiscovery(.bluetooth, timeout: 0) { first.withLock { $0 = reader } }
        }
        await eventually { await simulator.isDiscovering }
        #expect(await simulator.isDiscovering)
        task.cancel()
        _ = try? await task.value
        await eventually { await !simulator.isDiscovering }
        #expect(await !simulator.isDiscovering)
        #expect(await simulator.connectionStatus == .notConnected)
        #expect(first.current?.kind == .bluetooth)
    }

    @Test("kinds: a smart reader by internet discovery, Tap to Pay by its own; USB is not offered on iOS")
    func kinds() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = makeProcessor(simulator, clock: clock)
        let smart = try await processor.discoverReaders(.internet, timeout: 5)
        #expect(smart.map(\.model) == ["wisePosE"])
        #expect(smart.first?.features == [.offline, .refundsOnReader, .onReaderTipping, .cartDisplay])
        let tap = try await processor.discoverReaders(.tapToPay, timeout: 5)
        #expect(tap.map(\.kind) == [.tapToPay])
        #expect(tap.first?.features.contains(.cartDisplay) == false)
        await #expect(throws: PaymentError.self) { _ = try await processor.discoverReaders(.usb, timeout: 5) }
    }

    @Test("a smart reader shows the cart and asks for the tip; Stripe confirms an amount including it (amountDetails.tip)")
    func smartReaderCheckout() async throws {
        let (simulator, clock) = makeSimulator { $0.simulatedTipAmount = 250; $0.smartReaderLocationId = testLocation }
        let processor = makeProcessor(simulator, clock: clock)
        let smart = try #require(try await processor.discoverReaders(.internet, timeout: 5).first)
        let connected = try await processor.connectReader(smart, locationID: testLocation)
        #expect(connected.kind == .internet)
        let terminal = PaymentTerminal(processor: processor, scope: LedgerScope(merchantID: "acct", locationID: testLocation),
                                       clock: clock)
        let cart = ReaderCart(lineItems: [.init("Espresso", quantity: 2, amount: Money(minorUnits: 700, currency: .usd))],
                              tax: Money(minorUnits: 56, currency: .usd))
        try await terminal.setReaderDisplay(cart)
        #expect(await simulator.displayedCart?.total == 756)
        #expect(await simulator.displayedCart?.lineItems.first?.displayName == "Espresso")
        var sale = PaymentRequest(amount: Money(minorUnits: 756, currency: .usd), reference: "smart-tip")
        sale.tipEligibleAmount = Money(minorUnits: 700, currency: .usd)
        let session = try await terminal.takePayment(sale)
        #expect(session.state == .succeeded)
        #expect(session.tip == Money(minorUnits: 250, currency: .usd))
        #expect(session.total == Money(minorUnits: 1_006, currency: .usd))
        #expect(session.refundableAmount == Money(minorUnits: 1_006, currency: .usd))
        let intent = try #require(await simulator.serverIntents.first { $0.stripeId == session.processorPaymentID })
        #expect(intent.amount == 1_006, "after confirmation the amount includes the tip")
        #expect(intent.amountDetailsTip == 250)
        #expect(intent.amountTip == nil)
        // Without the eligible amount the reader is told to skip tipping.
        let plain = try await terminal.takePayment(PaymentRequest(amount: Money(minorUnits: 400, currency: .usd),
                                                                  reference: "smart-plain"))
        #expect(plain.tip == nil)
        #expect(plain.total == Money(minorUnits: 400, currency: .usd))
    }

    @Test("faults per kind: Tap to Pay on an unsupported device, terms not accepted, a smart reader unreachable")
    func faults() async throws {
        let (simulator, clock) = makeSimulator { $0.smartReaderLocationId = testLocation }
        let processor = makeProcessor(simulator, clock: clock)
        await simulator.inject(.reader(.tapToPayUnsupportedDevice))
        do { _ = try await processor.discoverReaders(.tapToPay, timeout: 5); Issue.record("discovered Tap to Pay") } catch let error as PaymentError {
            #expect(error.code == .featureUnavailable)
            #expect(error.vendor?.name == "unsupportedMobileDeviceConfiguration")
        }
        let tap = try #require(try await processor.discoverReaders(.tapToPay, timeout: 5).first)
        await simulator.inject(.reader(.tapToPayNotLinked))
        do { _ = try await processor.connectReader(tap, locationID: testLocation); Issue.record("connected") } catch let error as PaymentError {
            #expect(error.vendor?.name == "tapToPayReaderTOSAcceptanceFailed")
        }
        let connected = try await processor.connectReader(tap, locationID: testLocation)
        #expect(connected.features.contains(.tapToPay))
        try await processor.disconnectReader()

        let smart = try #require(try await processor.discoverReaders(.internet, timeout: 5).first)
        await simulator.inject(.reader(.internetReaderUnreachable))
        do { _ = try await processor.connectReader(smart, locationID: testLocation); Issue.record("connected") } catch let error as PaymentError {
            #expect(error.code == .readerConnectionFailed)
            #expect(error.vendor?.name == "internetConnectTimeOut")
        }
        #expect(try await processor.connectReader(smart, locationID: testLocation).kind == .internet)
    }

    @Test("an update required before connecting installs during the connection, with progress")
    func updateBeforeConnecting() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = makeProcessor(simulator, clock: clock)
        await simulator.inject(.reader(.updateRequired))
        let m2 = try #require(try await processor.discoverReaders(timeout: 5).first { $0.model == "stripeM2" })
        let connected = try await processor.connectReader(m2, locationID: testLocation)
        #expect(connected.softwareVersion == "2.01.00.17.1")
        #expect(processor.emittedEvents.contains(.softwareUpdateProgress(1)))
        #expect(await processor.connectedReader()?.availableUpdate == nil)
    }
}
