#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
public import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import Foundation
package import TenderSquare
#if canImport(UIKit)
public import UIKit
#endif

extension SquareMobilePaymentsBridge: Square.PaymentManager {
    /// `startPayment(_:promptParameters:from:delegate:)` on the main actor. The SDK's `PaymentParameters` and
    /// `PromptParameters` are built from the values; the `UIViewController` is the one `presentation` returns (none:
    /// the delegate gets `didFail` with `PaymentError.unexpected` and nothing starts). The adapter's delegate gets
    /// every callback through a ``SquarePaymentDelegateRelay``. When the SDK returns `nil` without having told the
    /// delegate why, the bridge waits ``callbackGrace`` for it, then reports `unexpected` itself: `nil` is returned
    /// only after the delegate heard why, as ``Square/PaymentManager`` promises.
    package func startPayment(_ paymentParameters: Square.PaymentParameters, promptParameters: Square.PromptParameters,
                             from presentation: Square.PresentationContext,
                             delegate: any Square.PaymentManagerDelegate) async -> (any Square.PaymentHandle)? {
        await startOnMain(paymentParameters, prompt: promptParameters, presentation: presentation, delegate: delegate)
    }

    @MainActor
    private func startOnMain(_ parameters: Square.PaymentParameters, prompt: Square.PromptParameters,
                             presentation: Square.PresentationContext,
                             delegate: any Square.PaymentManagerDelegate) async -> (any Square.PaymentHandle)? {
        let relay = SquarePaymentDelegateRelay(delegate: delegate, bridge: self)
        let sdkParameters = SquareBridgeValues.sdk(parameters)
        let notStarted = Square.OnlinePayment(
            id: nil, status: .initialized, amountMoney: parameters.amountMoney, tipMoney: parameters.tipMoney,
            appFeeMoney: parameters.appFeeMoney, createdAt: sdkParameters.createdAt, updatedAt: sdkParameters.createdAt,
            locationID: parameters.locationID, orderID: parameters.orderID, referenceID: parameters.referenceID,
            cardDetails: nil, note: parameters.note)
        guard let viewController = presentation.viewController() as? UIViewController else {
            relay.failWithoutSDK(notStarted, error: .unexpected)
            return nil
        }
        relay.key = registry.hold(delegate: relay)
        let handle = sdk.paymentManager.startPayment(sdkParameters, promptParameters: SquareBridgeValues.sdk(prompt),
                                                     from: viewController, delegate: relay)
        guard let handle else {
            await relay.latch.wait(seconds: callbackGrace)
            if !relay.latch.isOpen { relay.failWithoutSDK(notStarted, error: .unexpected) }
            return nil
        }
        return SquareBridgePaymentHandle(handle, registry: registry)
    }

    /// `currentPaymentHandle`, on the main actor: a new handle value over the SDK's handle, or `nil`.
    package var currentPaymentHandle: (any Square.PaymentHandle)? {
        get async { await currentHandleOnMain() }
    }

    @MainActor
    private func currentHandleOnMain() -> (any Square.PaymentHandle)? {
        sdk.paymentManager.currentPaymentHandle.map { SquareBridgePaymentHandle($0, registry: registry) }
    }

    /// `getIdempotencyKey(withPaymentAttemptId:)`, on the main actor.
    package func getIdempotencyKey(withPaymentAttemptId paymentAttemptId: String) async -> String? {
        await idempotencyKeyOnMain(paymentAttemptId)
    }

    @MainActor
    private func idempotencyKeyOnMain(_ paymentAttemptId: String) -> String? {
        sdk.paymentManager.getIdempotencyKey(withPaymentAttemptId: paymentAttemptId)
    }

    /// `availableCardInputMethods`, on the main actor.
    package var availableCardInputMethods: Square.CardInputMethods {
        get async { await inputMethodsOnMain() }
    }

    @MainActor
    private func inputMethodsOnMain() -> Square.CardInputMethods {
        SquareBridgeValues.value(sdk.paymentManager.availableCardInputMethods)
    }

    /// `add(_:)` with a ``SquareCardInputMethodsObserverRelay`` for `observer` (once per observer).
    package func add(_ observer: any Square.AvailableCardInputMethodsObserver) async {
        await addOnMain(observer)
    }

    @MainActor
    private func addOnMain(_ observer: any Square.AvailableCardInputMethodsObserver) {
        let relay = SquareCardInputMethodsObserverRelay(observer)
        guard registry.add(relay, standingFor: observer, kind: .availableCardInputMethods) else { return }
        sdk.paymentManager.add(relay)
    }

    /// `remove(_:)` of the relay added for `observer`.
    package func remove(_ observer: any Square.AvailableCardInputMethodsObserver) async {
        await removeOnMain(observer)
    }

    @MainActor
    private func removeOnMain(_ observer: any Square.AvailableCardInputMethodsObserver) {
        guard let relay = registry.removeRelay(standingFor: observer, kind: .availableCardInputMethods)
            as? SquareCardInputMethodsObserverRelay else { return }
        sdk.paymentManager.remove(relay)
    }
}

/// Square's `PaymentHandle` as the adapter holds it: the payment's parameters (copied when the handle was made) and a
/// registry key naming the SDK's handle, which the bridge holds until this value is dropped. Every member asks the
/// SDK's handle on the main actor.
final class SquareBridgePaymentHandle: Square.PaymentHandle, Sendable {
    /// The key of the SDK's handle in the registry.
    let key: SquareObjectRegistry.Key
    /// The registry holding it.
    let registry: SquareObjectRegistry
    /// `paymentParameters`, copied from the SDK's handle.
    let paymentParameters: Square.PaymentParameters

    /// Holds `handle` in `registry` and copies its parameters.
    @MainActor
    init(_ handle: any PaymentHandle, registry: SquareObjectRegistry) {
        key = registry.hold(handle)
        self.registry = registry
        paymentParameters = SquareBridgeValues.value(handle.paymentParameters)
    }

    deinit {
        let (registry, key) = (registry, key)
        Task { @MainActor in registry.release(key) }
    }

    /// `payment`: the SDK handle's payment, copied.
    var payment: any Square.Payment {
        get async { await paymentOnMain() }
    }

    /// `isPaymentCancelable`.
    var isPaymentCancelable: Bool {
        get async { await cancelableOnMain() }
    }

    /// `totalMoneyWithProposedCardSurcharge`.
    var totalMoneyWithProposedCardSurcharge: Square.Money? {
        get async { await surchargeTotalOnMain() }
    }

    /// `cancelPayment()`: `true` if the SDK will cancel (the delegate's `didCancel` confirms it).
    func cancelPayment() async -> Bool { await cancelOnMain() }

    @MainActor
    private func paymentOnMain() -> any Square.Payment {
        guard let handle = registry.paymentHandle(key) else {
            // Not reachable while this value exists (it holds the key); a payment that cannot be read is `unknown`.
            return Square.OnlinePayment(id: nil, status: .unknown, amountMoney: paymentParameters.amountMoney,
                                        createdAt: Date(), updatedAt: Date(), locationID: paymentParameters.locationID,
                                        referenceID: paymentParameters.referenceID, cardDetails: nil)
        }
        return SquareBridgeValues.payment(handle.payment)
    }

    @MainActor
    private func cancelableOnMain() -> Bool { registry.paymentHandle(key)?.isPaymentCancelable ?? false }

    @MainActor
    private func surchargeTotalOnMain() -> Square.Money? {
        registry.paymentHandle(key)?.totalMoneyWithProposedCardSurcharge.map(SquareBridgeValues.money)
    }

    @MainActor
    private func cancelOnMain() -> Bool { registry.paymentHandle(key)?.cancelPayment() ?? false }
}
#endif
