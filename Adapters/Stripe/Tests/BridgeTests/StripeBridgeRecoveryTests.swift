import Foundation
import StripeTerminalSurface
import StripeTerminalSurfaceBackend
import Tender
import TenderStripe
import TenderStripeSimulator
@testable import TenderStripeTerminalOverSurface
import Testing

extension StripeBridgeTests {
    /// The recovery faults, at the bridge's level: what the SDK answers through it, and what the adapter makes of it.
    @Suite("Recovery through the bridge") struct Recovery {
        @Test("a confirmation that never reached Stripe, or whose answer was lost, is an error with no intent")
        func lostConfirmations() async throws {
            for (fault, charged) in [(StripeSimulator.Fault.confirmNotReceived, 0), (.answerLostAfterCharge, 1)] {
                let device = BridgeDevice()
                let launch = await device.launch()
                _ = try await launch.connectM2()
                let created = try await launch.bridge.createPaymentIntent(bridgeParameters("LC"), createConfig: nil)
                let (collected, _) = try await launch.collect(created)
                await device.simulator.inject(fault)
                let (confirmed, error) = try await launch.confirm(try #require(collected))
                #expect(confirmed == nil)
                #expect(error?.code == .requestTimedOut, "\(fault)")
                #expect(error?.paymentIntent == nil, "ConfirmPaymentIntentError.paymentIntent nil: the outcome is unknown")
                #expect(StripeMapping.confirmFailure(try #require(error)) == .outcomeUnknown)
                #expect(await device.simulator.chargeCount(reference: "LC") == charged)

                // The retry confirms the same object again (seed 002), never a new intent: it authorizes the card if
                // Stripe never received the first request, and Stripe refuses it if Stripe had processed the first.
                let (retried, retryError) = try await launch.confirm(try #require(collected))
                if fault == .confirmNotReceived {
                    #expect(retryError == nil, "\(String(describing: retryError))")
                    #expect(retried?.sdkHandle == created.sdkHandle)
                } else {
                    #expect(retryError?.code == .stripeAPIError)
                    #expect(retryError?.apiError?.code == "payment_intent_unexpected_state")
                }
                #expect(await device.simulator.chargeCount(reference: "LC") == 1, "the retry charged once in all")
            }
        }

        @Test("a relaunch empties the registry: the old handles are refused without calling the SDK, recovery retrieves")
        func relaunchForgetsHandles() async throws {
            let device = BridgeDevice()
            let first = try await device.connectedLaunch()
            await device.simulator.inject(.answerLostAfterCharge)
            let lost = try await first.processor.startPayment(bridgeSale("RL"), routing: .online,
                                                              attempt: PaymentAttempt(), updates: { _ in })
            #expect(lost.state == .outcomeUnknown)
            let oldObject = try #require(first.backend.receivedIntents.last)
            let oldHandle = first.bridge.registry.handle(for: oldObject)

            let second = await device.relaunch()
            #expect(second.bridge.registry.intentCount == 0)
            #expect(second.bridge.registry.intent(for: oldHandle) == nil)
            #expect(!oldHandle.hasPrefix(second.bridge.registry.prefix), "handles never carry over between launches")
            let calls = second.backend.calls.count
            let stale = try #require(await device.simulator.serverIntents.first {
                $0.metadata[StripeMapping.referenceMetadataKey] == "RL"
            })
            var oldValue = stale
            oldValue.sdkHandle = oldHandle
            let (_, refused) = try await second.confirm(oldValue)
            #expect(refused?.code == .confirmInvalidPaymentIntent)
            #expect(refused?.paymentIntent == nil)
            #expect(second.backend.calls.count == calls, "an unknown handle never reaches the SDK")

            // Recovery does not depend on the registry: the adapter finds the intent on the server and retrieves it.
            let readers = try await second.processor.discoverReaders(timeout: 5)
            _ = try await second.processor.connectReader(try #require(readers.first { $0.model == "stripeM2" }),
                                                         locationID: bridgeLocation)
            let lookup = try await second.processor.lookUpPayment(reference: "RL", localID: nil,
                                                                  processorPaymentID: lost.processorPaymentID)
            guard case .found(let update) = lookup else {
                Issue.record("after a relaunch the charged payment was not found: \(lookup)")
                return
            }
            #expect(update.state == .succeeded)
            #expect(await device.simulator.chargeCount(reference: "RL") == 1)
        }

        @Test("canceling a collection through the bridge's Cancelable ends it canceled; nothing is charged")
        func cancelMidCollect() async throws {
            let device = BridgeDevice()
            let launch = await device.launch()
            _ = try await launch.connectM2()
            let created = try await launch.bridge.createPaymentIntent(bridgeParameters("CC"), createConfig: nil)
            await device.simulator.inject(.holdNextCard)
            let done = Answer<(Stripe.PaymentIntent?, Stripe.ErrorCode?)>()
            let cancelable = try #require(await launch.bridge.collectPaymentMethod(
                created, collectConfig: nil, completion: { done.resume(($0, $1)) }))
            #expect(await device.simulator.isHolding)
            #expect(!cancelable.completed)
            #expect(await cancelable.cancel() == nil, "the SDK accepted the cancellation")
            let (collected, error) = try #require(await done.wait())
            #expect(collected == nil)
            #expect(error?.code == .canceled)
            #expect(await device.simulator.chargeCount(reference: "CC") == 0)
        }

        @Test("a confirmation on its way to Stripe cannot be canceled through the bridge, and its outcome still arrives")
        func cancelMidConfirm() async throws {
            let device = BridgeDevice()
            let launch = await device.launch()
            _ = try await launch.connectM2()
            let created = try await launch.bridge.createPaymentIntent(bridgeParameters("CF"), createConfig: nil)
            let collected = try #require(try await launch.collect(created).0)
            await device.simulator.inject(.holdNextAuthorization)
            let done = Answer<(Stripe.PaymentIntent?, Stripe.ErrorCode?)>()
            let cancelable = try #require(await launch.bridge.confirmPaymentIntent(
                collected, confirmConfig: nil, completion: { done.resume(($0, $1)) }))
            #expect(await cancelable.cancel()?.code == .cancelFailedUnavailable)
            #expect(done.value == nil)
            await device.simulator.releaseHeld()
            let (confirmed, error) = try #require(await done.wait())
            #expect(error == nil)
            #expect(confirmed?.status == .succeeded)
            #expect(await device.simulator.chargeCount(reference: "CF") == 1)
        }

        @Test("task cancellation mid-confirm through the adapter and the bridge waits for Stripe's own answer")
        func taskCancelledMidConfirm() async throws {
            let device = BridgeDevice()
            let launch = try await device.connectedLaunch()
            await device.simulator.inject(.holdNextAuthorization)
            let processor = launch.processor
            let task = Task {
                try await processor.startPayment(bridgeSale("TF"), routing: .online, attempt: PaymentAttempt(),
                                                 updates: { _ in })
            }
            #expect(await bridgeEventually { await device.simulator.isHolding })
            task.cancel()
            await device.simulator.releaseHeld()
            let result = try await task.value
            #expect(result.state == .succeeded, "the confirmation had left the device: Stripe charged, and says so")
            #expect(await device.simulator.chargeCount(reference: "TF") == 1)
        }

        @Test("task cancellation mid-collect through the adapter and the bridge cancels through the SDK")
        func taskCancelledMidCollect() async throws {
            let device = BridgeDevice()
            let launch = try await device.connectedLaunch()
            await device.simulator.inject(.holdNextCard)
            let processor = launch.processor
            let task = Task {
                try await processor.startPayment(bridgeSale("TC"), routing: .online, attempt: PaymentAttempt(),
                                                 updates: { _ in })
            }
            #expect(await bridgeEventually { await device.simulator.isHolding })
            task.cancel()
            let result = try await task.value
            #expect(result.state == .canceled)
            #expect(launch.backend.calls.contains("collectPaymentMethod"))
            #expect(await device.simulator.chargeCount(reference: "TC") == 0)
        }
    }
}
