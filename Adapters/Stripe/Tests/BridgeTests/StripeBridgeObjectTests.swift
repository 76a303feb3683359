import Foundation
import StripeTerminalSurface
import StripeTerminalSurfaceBackend
import Tender
import TenderStripe
import TenderStripeSimulator
@testable import TenderStripeTerminalOverSurface
import Testing

extension StripeBridgeTests {
    /// SDK objects as values and back: NSNumber boxes, identity, the registry.
    @Suite("Objects through the bridge") struct Objects {
        @Test("NSNumber-boxed fields are unboxed: offline counts and amounts, battery, charging, tip, capturable")
        func unboxing() {
            let details = OfflineStatusDetails(surface: .backend, paymentAmountsByCurrency: ["usd": NSNumber(value: 1_980),
                                                                                           "cad": NSNumber(value: 250)],
                                               networkStatus: .offline)
            details.paymentsCount = NSNumber(value: 3)
            let status = StripeTerminalBridge.value(of: OfflineStatus(surface: .backend, sdk: details))
            #expect(status.sdk == Stripe.OfflineStatusDetails(paymentsCount: 3,
                                                              paymentAmountsByCurrency: ["usd": 1_980, "cad": 250],
                                                              networkStatus: .offline))
            details.paymentsCount = nil
            #expect(StripeTerminalBridge.value(of: details).paymentsCount == nil, "nil stays unknown, never 0")

            let reader = Reader(surface: .backend, deviceType: .wisePad3, simulated: true, locationStatus: .set,
                                serialNumber: "WP3-1", livemode: false, batteryStatus: .low, status: .offline)
            reader.batteryLevel = NSNumber(value: Float(0.55))
            reader.isCharging = NSNumber(value: true)
            let value = StripeTerminalBridge.value(of: reader)
            #expect(value?.batteryLevel == 0.55)
            #expect(value?.isCharging == true)
            #expect(value?.batteryStatus == .low)
            reader.batteryLevel = nil
            reader.isCharging = nil
            #expect(StripeTerminalBridge.value(of: reader)?.batteryLevel == nil)
            #expect(StripeTerminalBridge.value(of: reader)?.isCharging == nil)

            let intent = PaymentIntent(surface: .backend, amount: 1_000, captureMethod: .manual, charges: [],
                                       created: Date(), currency: "usd", livemode: false, status: .requiresCapture)
            intent.amountTip = NSNumber(value: 150)
            intent.amountCapturable = NSNumber(value: 1_150)
            let unboxed = StripeTerminalBridge.value(of: intent, registry: StripeObjectRegistry())
            #expect(unboxed.amountTip == 150)
            #expect(unboxed.amountCapturable == 1_150)
            #expect(unboxed.amountDetailsTip == nil)
            // After confirmation the tip is `amountDetails.tip`, a portion of `amount` (offline: the offline details').
            let breakdown = AmountDetails(surface: .backend)
            breakdown.tip = Tip(surface: .backend)
            breakdown.tip?.amount = NSNumber(value: 250)
            let offline = OfflineDetails(surface: .backend, requiresUpload: true)
            offline.amountDetails = breakdown
            intent.offlineDetails = offline
            #expect(StripeTerminalBridge.value(of: intent, registry: StripeObjectRegistry()).amountDetailsTip == 250)
            intent.offlineDetails = nil
            intent.amountDetails = breakdown
            #expect(StripeTerminalBridge.value(of: intent, registry: StripeObjectRegistry()).amountDetailsTip == 250)
            #expect(unboxed.metadata == [:], "nil metadata is empty")
        }

        @Test("a stored payment's offline status comes through the bridge unboxed")
        func offlineStatusEndToEnd() async throws {
            let device = BridgeDevice()
            let launch = try await device.connectedLaunch()
            await device.simulator.setSimulatedOfflineMode(.offlineImmediate)
            let result = try await launch.processor.startPayment(bridgeSale("OS", cents: 2_500), routing: .offline,
                                                                 attempt: PaymentAttempt(), updates: { _ in })
            #expect(result.state == .storedOffline)
            let status = await launch.bridge.offlineStatus
            #expect(status.sdk.paymentsCount == 1)
            #expect(status.sdk.paymentAmountsByCurrency == ["usd": 2_500])
            #expect(status.sdk.networkStatus == .offline)
        }

        @Test("the SDK gets back the very object it handed out, at every step")
        func objectsPassedBackIdentical() async throws {
            let device = BridgeDevice()
            let launch = await device.launch()
            _ = try await launch.connectM2()
            let created = try await launch.bridge.createPaymentIntent(bridgeParameters("ID", capture: .manual),
                                                                      createConfig: .init(offlineBehavior: .requireOnline))
            let object = try #require(launch.bridge.registry.intent(for: created.sdkHandle))
            let collected = try #require(try await launch.collect(created).0)
            #expect(launch.backend.receivedIntents.last === object)
            #expect(collected.sdkHandle == created.sdkHandle)
            #expect(collected.status == .requiresConfirmation)
            let confirmed = try #require(try await launch.confirm(collected).0)
            #expect(launch.backend.receivedIntents.last === object)
            #expect(confirmed.status == .requiresCapture)
            #expect(confirmed.stripeId == created.stripeId)
            #expect(confirmed.metadata[StripeMapping.referenceMetadataKey] == "ID")
            #expect(confirmed.authorizedCharge?.cardPresentDetails?.last4 != nil)
            let canceled = try await launch.bridge.cancelPaymentIntent(confirmed)
            #expect(launch.backend.receivedIntents.last === object)
            #expect(canceled.status == .canceled)
            #expect(launch.backend.receivedIntents.allSatisfy { $0 === object })
        }

        @Test("an intent created offline has no stripeId: the handle alone finds its object")
        func offlineIntentByHandle() async throws {
            let device = BridgeDevice()
            let launch = await device.launch()
            _ = try await launch.connectM2()
            let created = try await launch.bridge.createPaymentIntent(bridgeParameters("OF"),
                                                                      createConfig: .init(offlineBehavior: .forceOffline))
            #expect(created.stripeId == nil)
            let collected = try #require(try await launch.collect(created).0)
            let confirmed = try #require(try await launch.confirm(collected).0)
            #expect(confirmed.offlineDetails?.requiresUpload == true)
            #expect(confirmed.offlineDetails?.cardPresentDetails?.receiptDetails?.authorizationResponseCode == nil,
                    "an empty receipt field the SDK must fill is absent, not an empty string")
            #expect(launch.backend.receivedIntents.allSatisfy { $0 === launch.bridge.registry.intent(for: created.sdkHandle) })
        }

        @Test("the registry: one handle per object, fresh handles per object, forgetting the least recently used")
        func registry() {
            func intent() -> PaymentIntent {
                PaymentIntent(surface: .backend, amount: 1, captureMethod: .manual, charges: [], created: Date(),
                              currency: "usd", livemode: false, status: .requiresPaymentMethod)
            }
            let registry = StripeObjectRegistry(capacity: 2)
            let (a, b, c) = (intent(), intent(), intent())
            let handleA = registry.handle(for: a)
            #expect(registry.handle(for: a) == handleA)
            let handleB = registry.handle(for: b)
            #expect(handleA != handleB)
            #expect(registry.intent(for: handleA) === a)  // a is now the most recently used
            let handleC = registry.handle(for: c)
            #expect(registry.intent(for: handleB) == nil, "the least recently used object is forgotten")
            #expect(registry.intent(for: handleA) === a)
            #expect(registry.intent(for: handleC) === c)
            #expect(registry.handle(for: b) != handleB, "a forgotten object comes back under a new handle")
            #expect(StripeObjectRegistry().prefix != registry.prefix)
            registry.removeAll()
            #expect(registry.intentCount == 0)
        }
    }
}
