import Foundation
package import StripeTerminalSurface
import TenderStripe
import TenderStripeSimulator

extension SimulatorSurfaceBackend {
    /// `createPaymentIntent`: the simulator's, with the parameters' values (boxed payment method types unboxed by
    /// name) and the configuration's offline behaviour.
    package func createPaymentIntent(_ terminal: Terminal, parameters: PaymentIntentParameters,
                                     createConfig: CreateConfiguration?,
                                     completion: @escaping PaymentIntentCompletionBlock) {
        arrive("createPaymentIntent")
        let types = parameters.paymentMethodTypes.compactMap { boxed -> Stripe.PaymentMethodType? in
            guard let type = PaymentMethodType(rawValue: boxed.uintValue) else { return nil }
            return SurfaceCaseNames.adapter(type, as: Stripe.PaymentMethodType.self) ?? .unknown
        }
        let value = Stripe.PaymentIntentParameters(
            amount: parameters.amount, currency: parameters.currency, paymentMethodTypes: types,
            captureMethod: SurfaceCaseNames.adapter(parameters.captureMethod, as: Stripe.CaptureMethod.self) ?? .manual,
            metadata: parameters.metadata ?? [:], stripeDescription: parameters.stripeDescription)
        let configuration = createConfig.map {
            Stripe.CreateConfiguration(offlineBehavior: SurfaceCaseNames.adapter(
                $0.offlineBehavior, as: Stripe.OfflineBehavior.self) ?? .preferOnline)
        }
        let done = UncheckedSendableBox(completion)
        onSimulator { [self] simulator in
            do throws(Stripe.ErrorCode) {
                let answered = try await simulator.createPaymentIntent(value, createConfig: configuration)
                deliver { done.value(sdkIntent(answered), nil) }
            } catch {
                deliver { done.value(nil, sdkError(error)) }
            }
        }
    }

    /// `retrievePaymentIntent(clientSecret:)`: the simulator's, a new SDK object.
    package func retrievePaymentIntent(_ terminal: Terminal, clientSecret: String,
                                       completion: @escaping PaymentIntentCompletionBlock) {
        arrive("retrievePaymentIntent")
        let done = UncheckedSendableBox(completion)
        onSimulator { [self] simulator in
            do throws(Stripe.ErrorCode) {
                let answered = try await simulator.retrievePaymentIntent(clientSecret: clientSecret)
                deliver { done.value(sdkIntent(answered), nil) }
            } catch {
                deliver { done.value(nil, sdkError(error)) }
            }
        }
    }

    /// `collectPaymentMethod`: the simulator's, on the intent the object stands for (an object this backend never
    /// handed out is refused by the simulator as unknown).
    package func collectPaymentMethod(_ terminal: Terminal, paymentIntent: PaymentIntent,
                                      collectConfig: CollectPaymentIntentConfiguration?,
                                      completion: @escaping PaymentIntentCompletionBlock) -> Cancelable? {
        arrive("collectPaymentMethod")
        let value = simulatorIntent(for: paymentIntent)
        let configuration = collectConfig.map {
            Stripe.CollectPaymentIntentConfiguration(skipTipping: $0.skipTipping, updatePaymentIntent: $0.updatePaymentIntent)
        }
        let done = UncheckedSendableBox(completion)
        let cancelable = waitForSimulator { [self] simulator in
            await simulator.collectPaymentMethod(value, collectConfig: configuration) { [self] intent, error in
                deliver { done.value(intent.map(sdkIntent), error.map(sdkError)) }
            }
        }
        return cancelable.map(sdkCancelable)
    }

    /// `confirmPaymentIntent`: the simulator's; a failure is a `ConfirmPaymentIntentError`.
    package func confirmPaymentIntent(_ terminal: Terminal, paymentIntent: PaymentIntent,
                                      confirmConfig: ConfirmPaymentIntentConfiguration?,
                                      completion: @escaping ConfirmPaymentIntentCompletionBlock) -> Cancelable? {
        arrive("confirmPaymentIntent")
        let value = simulatorIntent(for: paymentIntent)
        let configuration = confirmConfig.map { Stripe.ConfirmPaymentIntentConfiguration(returnUrl: $0.returnUrl) }
        let done = UncheckedSendableBox(completion)
        let cancelable = waitForSimulator { [self] simulator in
            await simulator.confirmPaymentIntent(value, confirmConfig: configuration) { [self] intent, error in
                deliver { done.value(intent.map(sdkIntent), error.map(confirmError)) }
            }
        }
        return cancelable.map(sdkCancelable)
    }

    /// `processPaymentIntent`: the simulator's collection, then its confirmation; a failure is a plain `Error` (the
    /// confirmation's as an `ErrorCode`). The `Cancelable` cancels the collection.
    package func processPaymentIntent(_ terminal: Terminal, paymentIntent: PaymentIntent,
                                      collectConfig: CollectPaymentIntentConfiguration?,
                                      confirmConfig: ConfirmPaymentIntentConfiguration?,
                                      completion: @escaping PaymentIntentCompletionBlock) -> Cancelable? {
        arrive("processPaymentIntent")
        let value = simulatorIntent(for: paymentIntent)
        let collect = collectConfig.map {
            Stripe.CollectPaymentIntentConfiguration(skipTipping: $0.skipTipping, updatePaymentIntent: $0.updatePaymentIntent)
        }
        let confirm = confirmConfig.map { Stripe.ConfirmPaymentIntentConfiguration(returnUrl: $0.returnUrl) }
        let done = UncheckedSendableBox(completion)
        let cancelable = waitForSimulator { [self] simulator in
            await simulator.collectPaymentMethod(value, collectConfig: collect) { [self] collected, error in
                guard let collected, error == nil else { return deliver { done.value(nil, error.map(sdkError)) } }
                onSimulator { [self] simulator in
                    _ = await simulator.confirmPaymentIntent(collected, confirmConfig: confirm) { [self] intent, error in
                        deliver { done.value(intent.map(sdkIntent), error.map(sdkError)) }
                    }
                }
            }
        }
        return cancelable.map(sdkCancelable)
    }

    /// `cancelPaymentIntent`: the simulator's (a payment stored for forwarding cannot be canceled).
    package func cancelPaymentIntent(_ terminal: Terminal, paymentIntent: PaymentIntent,
                                     completion: @escaping PaymentIntentCompletionBlock) {
        arrive("cancelPaymentIntent")
        let value = simulatorIntent(for: paymentIntent)
        let done = UncheckedSendableBox(completion)
        onSimulator { [self] simulator in
            do throws(Stripe.ErrorCode) {
                let answered = try await simulator.cancelPaymentIntent(value)
                deliver { done.value(sdkIntent(answered), nil) }
            } catch {
                deliver { done.value(nil, sdkError(error)) }
            }
        }
    }
}
