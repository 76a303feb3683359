import Foundation
import StripeTerminalSurface
import StripeTerminalSurfaceBackend
import Tender
import TenderStripe
import TenderStripeSimulator
@testable import TenderStripeTerminalOverSurface
import Testing

extension StripeBridgeTests {
    /// The reader kinds beyond Bluetooth through the bridge, over the mirror: Tap to Pay discovery and connection
    /// (Apple's terms), smart readers (internet discovery and connection, the cart on the reader's screen, the tip asked
    /// on the reader), and the simulator's faults per kind reaching the adapter as the SDK's errors.
    @Suite("Reader kinds through the bridge") struct ReaderKinds {
        @Test("Tap to Pay: discovered with TapToPayDiscoveryConfiguration, connected with its configuration and delegate")
        func tapToPay() async throws {
            let device = BridgeDevice()
            let launch = await device.launch()
            let tap = try #require(try await launch.processor.discoverReaders(.tapToPay, timeout: 5).first)
            #expect(tap.kind == .tapToPay)
            #expect(launch.backend.calls.contains("build(tapToPayDiscoveryConfiguration)"))
            let connected = try await launch.processor.connectReader(tap, locationID: bridgeLocation)
            #expect(connected.kind == .tapToPay)
            #expect(connected.features.contains(.tapToPay))
            #expect(launch.backend.calls.contains("build(tapToPayConnectionConfiguration)"))
            #expect(launch.bridge.activeObservers.current.reader is StripeTapToPayReaderObserver)
            #expect(await device.simulator.connectedReader?.deviceType == .tapToPay)

            // A sale on the iPhone goes through the same bridge calls as any other.
            let paid = try await launch.processor.startPayment(bridgeSale("TTP-1", cents: 675), routing: .online,
                                                               attempt: PaymentAttempt(), updates: { _ in })
            #expect(paid.state == .succeeded)
        }

        @Test("Tap to Pay's delegate: the terms' acceptance reaches the adapter; no battery or reader events")
        func tapToPayDelegate() async throws {
            let device = BridgeDevice()
            let launch = await device.launch()
            let recording = RecordingReaderDelegate()
            let discovered = Answer<Stripe.ErrorCode?>()
            let lists = RecordingDiscoveryDelegate()
            _ = await launch.bridge.discoverReaders(Stripe.DiscoveryConfiguration(method: .tapToPay, simulated: true),
                                                    delegate: lists, completion: { discovered.resume($0) })
            let tap = try #require(await bridgeEventuallyValue { lists.lists.current.last?.first })
            let connected = try await launch.bridge.connectReader(tap, connectionConfig: Stripe.TapToPayConnectionConfiguration(
                locationId: bridgeLocation, delegate: recording))
            #expect(connected.deviceType == .tapToPay)
            #expect(await bridgeEventually { recording.recorder.all.contains("termsAccepted") })
            #expect(!recording.recorder.all.contains { $0.hasPrefix("battery") })
            try await launch.bridge.disconnectReader()
            #expect(await bridgeEventually { recording.recorder.all.contains("disconnect:disconnectRequested") })
        }

        @Test("a smart reader: internet discovery and connection, the cart shown and cleared, the tip asked on the reader")
        func smartReader() async throws {
            let device = BridgeDevice { $0.simulatedTipAmount = 250; $0.smartReaderLocationId = bridgeLocation }
            let launch = await device.launch()
            let smart = try #require(try await launch.processor.discoverReaders(.internet, timeout: 5).first)
            #expect(smart.kind == .internet)
            #expect(launch.backend.calls.contains("build(internetDiscoveryConfiguration)"))
            let connected = try await launch.processor.connectReader(smart, locationID: bridgeLocation)
            #expect(connected.features.isSuperset(of: [.cartDisplay, .onReaderTipping]))
            #expect(launch.backend.calls.contains("build(internetConnectionConfiguration)"))
            #expect(launch.bridge.activeObservers.current.reader is StripeInternetReaderObserver)

            let terminal = PaymentTerminal(processor: launch.processor,
                                           scope: LedgerScope(merchantID: "acct", locationID: bridgeLocation),
                                           clock: device.clock)
            let cart = ReaderCart(lineItems: [.init("Flat white", quantity: 2, amount: Money(minorUnits: 900, currency: .usd))],
                                  tax: Money(minorUnits: 72, currency: .usd))
            try await terminal.setReaderDisplay(cart)
            #expect(launch.backend.calls.contains("setReaderDisplay"))
            #expect(launch.backend.calls.contains("build(cart)"))
            #expect(await device.simulator.displayedCart?.total == 972)
            #expect(await device.simulator.displayedCart?.lineItems.first?.displayName == "Flat white")
            #expect(await device.simulator.displayedCart?.lineItems.first?.quantity == 2)

            var sale = bridgeSale("SMART-TIP", cents: 972)
            sale.tipEligibleAmount = Money(minorUnits: 900, currency: .usd)
            let session = try await terminal.takePayment(sale)
            #expect(session.state == .succeeded)
            #expect(launch.backend.calls.contains("build(tippingConfiguration)"))
            #expect(session.tip == Money(minorUnits: 250, currency: .usd))
            #expect(session.refundableAmount == Money(minorUnits: 1_222, currency: .usd))

            try await terminal.setReaderDisplay(nil)
            #expect(launch.backend.calls.contains("clearReaderDisplay"))
            #expect(await device.simulator.displayedCart == nil)

            // Without an eligible amount the reader is told to skip tipping.
            let plain = try await terminal.takePayment(bridgeSale("SMART-PLAIN", cents: 400))
            #expect(plain.tip == nil)
        }

        @Test("a cart on a Bluetooth reader is refused by the SDK, not shown")
        func cartOnBluetoothReader() async throws {
            let launch = try await BridgeDevice().connectedLaunch()
            let cart = Stripe.Cart(currency: "usd", tax: 0, total: 100,
                                   lineItems: [Stripe.CartLineItem(displayName: "Tea", quantity: 1, amount: 100)])
            await #expect(throws: Stripe.ErrorCode.self) { try await launch.bridge.setReaderDisplay(cart) }
            #expect(launch.backend.calls.contains("setReaderDisplay"))
        }

        @Test("faults per kind through the bridge: unsupported iPhone, terms not accepted, smart reader unreachable")
        func faults() async throws {
            let device = BridgeDevice { $0.smartReaderLocationId = bridgeLocation }
            let launch = await device.launch()
            await device.simulator.inject(.reader(.tapToPayUnsupportedDevice))
            do {
                _ = try await launch.processor.discoverReaders(.tapToPay, timeout: 5)
                Issue.record("discovered Tap to Pay on an unsupported iPhone")
            } catch let error as PaymentError {
                #expect(error.code == .featureUnavailable)
                #expect(error.vendor?.name == "unsupportedMobileDeviceConfiguration")
            }
            let tap = try #require(try await launch.processor.discoverReaders(.tapToPay, timeout: 5).first)
            await device.simulator.inject(.reader(.tapToPayNotLinked))
            do {
                _ = try await launch.processor.connectReader(tap, locationID: bridgeLocation)
                Issue.record("connected without the terms")
            } catch let error as PaymentError {
                #expect(error.vendor?.name == "tapToPayReaderTOSAcceptanceFailed")
            }
            #expect(try await launch.processor.connectReader(tap, locationID: bridgeLocation).kind == .tapToPay)
            try await launch.processor.disconnectReader()

            let smart = try #require(try await launch.processor.discoverReaders(.internet, timeout: 5).first)
            await device.simulator.inject(.reader(.internetReaderUnreachable))
            do {
                _ = try await launch.processor.connectReader(smart, locationID: bridgeLocation)
                Issue.record("connected an unreachable smart reader")
            } catch let error as PaymentError {
                #expect(error.code == .readerConnectionFailed)
                #expect(error.vendor?.name == "internetConnectTimeOut")
            }
            #expect(try await launch.processor.connectReader(smart, locationID: bridgeLocation).kind == .internet)
        }

        @Test("a reader that connects on a low battery warns: the SDK's callback reaches the processor as an event")
        func lowBatteryWarning() async throws {
            let device = BridgeDevice {
                $0.readersInRange = [Stripe.Reader(serialNumber: "STRM2-LOW", deviceType: .stripeM2,
                                                   deviceSoftwareVersion: "2.01.00.17", batteryLevel: 0.12,
                                                   batteryStatus: .low, isCharging: false, simulated: true)]
            }
            let launch = await device.launch()
            let m2 = try #require(try await launch.processor.discoverReaders(timeout: 5).first)
            #expect(!launch.processor.emittedEvents.contains(.readerBatteryLow))
            _ = try await launch.processor.connectReader(m2, locationID: bridgeLocation)
            #expect(await bridgeEventually { launch.processor.emittedEvents.contains(.readerBatteryLow) })
        }

        @Test("an update required before connecting installs during the connection through the bridge, with progress")
        func updateBeforeConnecting() async throws {
            let device = BridgeDevice()
            let launch = await device.launch()
            await device.simulator.inject(.reader(.updateRequired))
            let m2 = try #require(try await launch.processor.discoverReaders(timeout: 5).first { $0.model == "stripeM2" })
            let connected = try await launch.processor.connectReader(m2, locationID: bridgeLocation)
            #expect(connected.softwareVersion == "2.01.00.17.1")
            #expect(launch.processor.emittedEvents.contains(.softwareUpdateProgress(1)))
        }
    }
}

/// Polls `value` for up to about ten seconds until it is not nil.
func bridgeEventuallyValue<Value>(_ value: () async -> Value?) async -> Value? {
    for _ in 0..<10_000 {
        if let found = await value() { return found }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return await value()
}
