import Foundation
import StripeTerminalSurface
import StripeTerminalSurfaceBackend
import Tender
import TenderStripe
import TenderStripeSimulator
@testable import TenderStripeTerminalOverSurface
import Testing

extension StripeBridgeTests {
    /// Delegates, builders, the token provider, logs and the SDK's thread rules, through the bridge.
    @Suite("Wiring through the bridge") struct Wiring {
        @Test("the terminal and offline delegates are forwarded, and removed by setting nil")
        func delegatesForwardedAndRemoved() async throws {
            let device = BridgeDevice()
            let launch = await device.launch()
            let delegate = RecordingTerminalDelegate()
            launch.bridge.setTerminalDelegate(delegate)
            launch.bridge.setOfflineDelegate(delegate)
            _ = try await launch.connectM2()
            #expect(delegate.recorder.all.contains("connection:connected"))
            #expect(delegate.recorder.all.contains("payment:ready"))
            #expect(delegate.recorder.all.contains("offline:online:0"))

            await device.simulator.setSimulatedOfflineMode(.offlineImmediate)
            let stored = try await launch.bridge.createPaymentIntent(bridgeParameters("FW"),
                                                                     createConfig: .init(offlineBehavior: .forceOffline))
            let collected = try #require(try await launch.collect(stored).0)
            _ = try await launch.confirm(collected)
            #expect(delegate.recorder.all.contains("offline:offline:1"))
            await device.simulator.setSimulatedOfflineMode(.disabled)
            await device.simulator.forwardPendingPayments()
            let (forwarded, error) = try #require(delegate.forwarded.current.first)
            #expect(error == nil)
            #expect(forwarded.stripeId != nil, "forwarded: stripeId set")
            #expect(forwarded.metadata[StripeMapping.referenceMetadataKey] == "FW")
            #expect(launch.bridge.registry.intent(for: forwarded.sdkHandle) != nil, "the forwarded intent is registered")

            launch.bridge.setTerminalDelegate(nil)
            launch.bridge.setOfflineDelegate(nil)
            let count = delegate.recorder.all.count
            try await launch.bridge.disconnectReader()
            await device.simulator.setSimulatedOfflineMode(.offlineImmediate)
            #expect(delegate.recorder.all.count == count, "removed delegates hear nothing")
        }

        @Test("the reader delegate is held by the bridge (the SDK holds it weakly) and hears every reader callback")
        func readerDelegateHeldAndForwarded() async throws {
            let device = BridgeDevice { $0.testReaderUpdate = .available }
            let launch = await device.launch()
            let delegate = RecordingReaderDelegate()
            _ = try await launch.connectM2(delegate)
            #expect(delegate.recorder.all.contains("availableUpdate"))
            #expect(delegate.recorder.all.contains("battery:0.9:nominal:false"))

            // Long after connect returned (the configuration object is gone): the bridge's observer still forwards.
            await device.simulator.simulateUnexpectedDisconnect(reason: .bluetoothSignalLost)
            #expect(delegate.recorder.all.contains("startReconnect:bluetoothSignalLost"))
            #expect(delegate.recorder.all.contains("reconnected"))

            await launch.bridge.installAvailableUpdate()
            #expect(delegate.recorder.all.contains("startInstalling"))
            #expect(delegate.recorder.all.contains("progress:1.0"))
            #expect(delegate.recorder.all.contains("finishInstalling:ok"))

            let created = try await launch.bridge.createPaymentIntent(bridgeParameters("RD"), createConfig: nil)
            _ = try await launch.collect(created)
            #expect(delegate.recorder.all.contains("input:7"), "swipe, insert and tap, option by option")
            #expect(delegate.recorder.all.contains("event:cardInserted"))
            #expect(delegate.recorder.all.contains("message:removeCard"))

            try await launch.bridge.disconnectReader()
            #expect(delegate.recorder.all.last == "disconnect:disconnectRequested")
        }

        @Test("discovery forwards the readers and registers them by serial number for the connection")
        func discovery() async throws {
            let device = BridgeDevice()
            let launch = await device.launch()
            let readers = try await launch.discover()
            #expect(Set(readers.map(\.serialNumber)) == ["STRM2-SIM-0001", "CHB2X-SIM-0001", "WP3-SIM-0001"])
            #expect(readers.first { $0.deviceType == .wisePad3 }?.isCharging == true)
            for reader in readers {
                #expect(launch.bridge.registry.reader(serialNumber: reader.serialNumber) === launch.backend.knownReader(reader.serialNumber))
            }
            // Bluetooth proximity, through its own builder: the closest reader is reported first with its serial number
            // only (its boxed battery level and charging state nil), then in full. It runs until canceled (the SDK's
            // proximity discovery has no timeout), and a canceled discovery completes with nil.
            let proximity = RecordingDiscoveryDelegate()
            let done = Answer<Stripe.ErrorCode?>()
            let running = await launch.bridge.discoverReaders(
                Stripe.DiscoveryConfiguration(method: .bluetoothProximity, simulated: true), delegate: proximity,
                completion: { done.resume($0) })
            #expect(done.value == nil, "still discovering")
            #expect(await running.cancel() == nil)
            #expect(try #require(await done.wait()) == nil)
            let lists = proximity.lists.current
            #expect(lists.count == 2)
            #expect(lists.first?.first?.batteryLevel == nil && lists.first?.first?.isCharging == nil)
            #expect(lists.last?.first?.batteryLevel == 0.8)
            #expect(launch.backend.calls.contains("build(bluetoothProximityDiscoveryConfiguration)"))

            let unknown = Stripe.Reader(serialNumber: "NEVER-SEEN", deviceType: .stripeM2)
            await #expect(throws: Stripe.ErrorCode.self) {
                try await launch.bridge.connectReader(unknown, connectionConfig: .init(locationId: bridgeLocation,
                                                                                      delegate: nil))
            }
            #expect(!launch.backend.calls.contains("connectReader"))
        }

        @Test("a builder's failure is surfaced as the SDK's error, and the SDK is not called")
        func builderFailures() async throws {
            let device = BridgeDevice()
            let launch = await device.launch()
            launch.backend.failNextBuild(with: .invalidRequiredParameter)
            do {
                _ = try await launch.bridge.createPaymentIntent(bridgeParameters("BF"), createConfig: nil)
                Issue.record("a failing builder let createPaymentIntent through")
            } catch {
                #expect(error.code.name == "invalidRequiredParameter")
            }
            #expect(!launch.backend.calls.contains("createPaymentIntent"))

            launch.backend.failNextBuild(with: .invalidDiscoveryConfiguration)
            await #expect(throws: Stripe.ErrorCode.self) { _ = try await launch.discover() }
            #expect(!launch.backend.calls.contains("discoverReaders"))

            let m2 = try #require(try await launch.discover().first { $0.deviceType == .stripeM2 })
            launch.backend.failNextBuild(with: .invalidConnectionConfiguration)
            do {
                _ = try await launch.bridge.connectReader(m2, connectionConfig: .init(locationId: bridgeLocation,
                                                                                     delegate: nil))
                Issue.record("a failing builder let connectReader through")
            } catch {
                #expect(error.code == .invalidConnectionConfiguration)
            }
            #expect(!launch.backend.calls.contains("connectReader"))
            #expect(launch.backend.calls.contains("build(bluetoothConnectionConfiguration)"))
        }

        @Test("every SDK call is made on the main thread, even when the bridge is called from elsewhere")
        func mainThreadRules() async throws {
            let device = BridgeDevice()
            let launch = await device.launch()
            let flow = Task.detached {
                let processor = launch.processor
                let readers = try await processor.discoverReaders(timeout: 5)
                _ = try await processor.connectReader(try #require(readers.first), locationID: bridgeLocation)
                _ = try await processor.startPayment(bridgeSale("MT"), routing: .online, attempt: PaymentAttempt(),
                                                     updates: { _ in })
                _ = await processor.networkStatus()
                _ = try await processor.queueSnapshot()
                _ = await launch.bridge.connectionStatus
                _ = await launch.bridge.paymentStatus
                _ = await launch.bridge.connectedReader
                try await launch.bridge.disconnectReader()
            }
            try await flow.value
            let calls = launch.backend.calls
            for expected in ["initialize", "discoverReaders", "connectReader", "createPaymentIntent", "collectPaymentMethod",
                             "confirmPaymentIntent", "offlineStatus", "connectionStatus", "paymentStatus",
                             "connectedReader", "disconnectReader"] {
                #expect(calls.contains(expected), "\(expected) was never called")
            }
            #expect(launch.backend.callsOffMainThread.isEmpty, "\(launch.backend.callsOffMainThread)")
            #expect(await device.simulator.chargeCount(reference: "MT") == 1)

            // The check can fail: the same read made off the main actor is recorded as such.
            let terminal = await MainActor.run { StripeBridgeUnchecked(value: Terminal.shared) }
            await Task.detached { _ = terminal.value.connectionStatus }.value
            #expect(launch.backend.callsOffMainThread == ["connectionStatus"])
        }

        @Test("the SDK asks the app's token provider through the bridge's; its failures become the SDK's errors")
        func tokenProvider() async throws {
            let device = BridgeDevice()
            let launch = await device.launch()
            _ = try await launch.connectM2()
            #expect(device.tokens.requests == 1)
            #expect(device.tokenRelay.requests == 1)
            try await launch.bridge.disconnectReader()

            for (answer, code) in [(TestConnectionTokens.Answer.failure, "connectionTokenProviderCompletedWithError"),
                                   (.nothing, "connectionTokenProviderCompletedWithNothing")] {
                let fresh = BridgeDevice()
                let launch = await fresh.launch()
                fresh.tokens.answer(answer)
                do {
                    _ = try await launch.connectM2()
                    Issue.record("connected with a token provider answering \(answer)")
                } catch let error as Stripe.ErrorCode {
                    #expect(error.code.name == code)
                }
            }
        }

        @Test("the log listener hears the SDK's lines; credentials are cleared only while no reader is connected")
        func logsAndCredentials() async throws {
            let device = BridgeDevice()
            let launch = await device.launch()
            let lines = Recorder()
            launch.bridge.setLogListener { lines.record($0) }
            await MainActor.run {}
            _ = try await launch.connectM2()
            #expect(lines.all.contains { $0.contains("connected STRM2-SIM-0001") })
            do {
                try await launch.bridge.clearCachedCredentials()
                Issue.record("credentials were cleared with a reader connected")
            } catch {
                #expect(error.code == .unexpectedOperationError)
            }
            try await launch.bridge.disconnectReader()
            try await launch.bridge.clearCachedCredentials()
            #expect(await launch.bridge.offlineStatus.sdk.paymentsCount == nil)
            #expect(await launch.bridge.offlineModeEnabled)
        }
    }
}
