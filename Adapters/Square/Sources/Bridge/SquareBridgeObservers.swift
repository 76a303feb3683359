#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import Foundation
import TenderSquare

// The SDK delegates and observers the bridge registers, one per adapter delegate or observer. Square calls them on
// the main thread; each copies the SDK objects it receives into values there (``SquareMainThread``) and forwards them.
// They are `NSObject`s, as Square's `@objc` protocols require. The registry holds them (the SDK may hold them weakly).

/// The SDK's `PaymentManagerDelegate` for one payment: forwards each callback to the adapter's delegate with the
/// payment copied into a value and the error mapped by case (``SquareBridgeErrors/payment(_:)``). After the last
/// callback (`didFinish`, `didFail`, `didCancel`) it forwards nothing more, leaves the registry and opens its latch.
final class SquarePaymentDelegateRelay: NSObject, PaymentManagerDelegate, @unchecked Sendable {
    /// The adapter's delegate.
    let delegate: any Square.PaymentManagerDelegate
    /// The bridge, passed to the adapter as the `PaymentManager`.
    let bridge: SquareMobilePaymentsBridge
    /// Opened by the last callback.
    let latch = SquareCallbackLatch()
    /// The registry key holding this relay, set before the SDK is called.
    @MainActor var key: SquareObjectRegistry.Key?
    @MainActor private var ended = false

    /// A relay to `delegate`.
    init(delegate: any Square.PaymentManagerDelegate, bridge: SquareMobilePaymentsBridge) {
        self.delegate = delegate
        self.bridge = bridge
        super.init()
    }

    func paymentManager(_ paymentManager: any PaymentManager, didStart payment: any Payment) {
        SquareMainThread.deliver(payment) { [self] payment in
            forward(last: false) { $0.paymentManager(bridge, didStart: SquareBridgeValues.payment(payment)) }
        }
    }

    func paymentManager(_ paymentManager: any PaymentManager, willFinish payment: any Payment) {
        SquareMainThread.deliver(payment) { [self] payment in
            forward(last: false) { $0.paymentManager(bridge, willFinish: SquareBridgeValues.payment(payment)) }
        }
    }

    func paymentManager(_ paymentManager: any PaymentManager, didFinish payment: any Payment) {
        SquareMainThread.deliver(payment) { [self] payment in
            let finished = SquareBridgeValues.payment(payment)
            if finished is Square.OnlinePayment { bridge.noteSquareReached() }
            forward(last: true) { $0.paymentManager(bridge, didFinish: finished) }
        }
    }

    func paymentManager(_ paymentManager: any PaymentManager, didFail payment: any Payment,
                        withError error: any Error) {
        let mapped = SquareBridgeErrors.payment(error)
        SquareMainThread.deliver(payment) { [self] payment in
            let failed = SquareBridgeValues.payment(payment)
            forward(last: true) { $0.paymentManager(bridge, didFail: failed, withError: mapped) }
        }
    }

    func paymentManager(_ paymentManager: any PaymentManager, willCancel payment: any Payment) {
        SquareMainThread.deliver(payment) { [self] payment in
            forward(last: false) { $0.paymentManager(bridge, willCancel: SquareBridgeValues.payment(payment)) }
        }
    }

    func paymentManager(_ paymentManager: any PaymentManager, didCancel payment: any Payment) {
        SquareMainThread.deliver(payment) { [self] payment in
            forward(last: true) { $0.paymentManager(bridge, didCancel: SquareBridgeValues.payment(payment)) }
        }
    }

    /// Reports, as the SDK would have, that the payment did not start: when the SDK said nothing within the grace
    /// period after `startPayment` returned `nil`, or there was no view controller to present from.
    @MainActor
    func failWithoutSDK(_ payment: Square.OnlinePayment, error: Square.PaymentError) {
        forward(last: true) { $0.paymentManager(bridge, didFail: payment, withError: error) }
    }

    @MainActor
    private func forward(last: Bool, _ call: (any Square.PaymentManagerDelegate) -> Void) {
        guard !ended else { return }
        if last { ended = true }
        call(delegate)
        guard last else { return }
        if let key { bridge.registry.release(key) }
        latch.open()
    }
}

/// The SDK's `ReaderPairingDelegate` for one pairing: forwards its callbacks, the error mapped by case
/// (``SquareBridgeErrors/pairing(_:)``); after success or failure it forwards nothing more, leaves the registry and
/// opens its latch.
final class SquarePairingDelegateRelay: NSObject, ReaderPairingDelegate, @unchecked Sendable {
    /// The adapter's delegate.
    let delegate: any Square.ReaderPairingDelegate
    /// The registry the relay leaves at its last callback.
    let registry: SquareObjectRegistry
    /// Opened by the last callback.
    let latch = SquareCallbackLatch()
    /// The registry key holding this relay, set before the SDK is called.
    @MainActor var key: SquareObjectRegistry.Key?
    @MainActor private var ended = false

    /// A relay to `delegate`.
    init(delegate: any Square.ReaderPairingDelegate, registry: SquareObjectRegistry) {
        self.delegate = delegate
        self.registry = registry
        super.init()
    }

    func readerPairingDidBegin() {
        SquareMainThread.run { [self] in forward(last: false) { $0.readerPairingDidBegin() } }
    }

    func readerPairingDidSucceed() {
        SquareMainThread.run { [self] in forward(last: true) { $0.readerPairingDidSucceed() } }
    }

    func readerPairingDidFail(with error: any Error) {
        let mapped = SquareBridgeErrors.pairing(error)
        SquareMainThread.run { [self] in forward(last: true) { $0.readerPairingDidFail(with: mapped) } }
    }

    /// Reports that the pairing did not start when the SDK said nothing within the grace period after
    /// `startPairing(with:)` returned `nil`.
    @MainActor
    func failWithoutSDK(_ error: any Error) {
        forward(last: true) { $0.readerPairingDidFail(with: error) }
    }

    @MainActor
    private func forward(last: Bool, _ call: (any Square.ReaderPairingDelegate) -> Void) {
        guard !ended else { return }
        if last { ended = true }
        call(delegate)
        guard last else { return }
        if let key { registry.release(key) }
        latch.open()
    }
}

/// The SDK's `AuthorizationStateObserver` standing for one of the adapter's.
final class SquareAuthorizationObserverRelay: NSObject, AuthorizationStateObserver, @unchecked Sendable {
    /// The adapter's observer.
    let observer: any Square.AuthorizationStateObserver

    /// A relay to `observer`.
    init(_ observer: any Square.AuthorizationStateObserver) {
        self.observer = observer
        super.init()
    }

    func authorizationStateDidChange(_ authorizationState: AuthorizationState) {
        let state = SquareBridgeValues.value(authorizationState)
        SquareMainThread.run { [observer] in observer.authorizationStateDidChange(state) }
    }
}

/// The SDK's `AvailableCardInputMethodsObserver` standing for one of the adapter's.
final class SquareCardInputMethodsObserverRelay: NSObject, AvailableCardInputMethodsObserver, @unchecked Sendable {
    /// The adapter's observer.
    let observer: any Square.AvailableCardInputMethodsObserver

    /// A relay to `observer`.
    init(_ observer: any Square.AvailableCardInputMethodsObserver) {
        self.observer = observer
        super.init()
    }

    func availableCardInputMethodsDidChange(_ cardInputMethods: CardInputMethods) {
        SquareMainThread.deliver(cardInputMethods) { [observer] methods in
            observer.availableCardInputMethodsDidChange(SquareBridgeValues.value(methods))
        }
    }
}

/// The SDK's `ReaderObserver` standing for one of the adapter's. A `ReaderChange` this SDK version does not know is
/// not forwarded.
final class SquareReaderObserverRelay: NSObject, ReaderObserver, @unchecked Sendable {
    /// The adapter's observer.
    let observer: any Square.ReaderObserver

    /// A relay to `observer`.
    init(_ observer: any Square.ReaderObserver) {
        self.observer = observer
        super.init()
    }

    func readerWasAdded(_ readerInfo: any ReaderInfo) {
        SquareMainThread.deliver(readerInfo) { [observer] reader in
            observer.readerWasAdded(SquareBridgeValues.reader(reader))
        }
    }

    func readerWasRemoved(_ readerInfo: any ReaderInfo) {
        SquareMainThread.deliver(readerInfo) { [observer] reader in
            observer.readerWasRemoved(SquareBridgeValues.reader(reader))
        }
    }

    func readerDidChange(_ readerInfo: any ReaderInfo, change: ReaderChange) {
        guard let change = SquareBridgeValues.value(change) else { return }
        SquareMainThread.deliver(readerInfo) { [observer] reader in
            observer.readerDidChange(SquareBridgeValues.reader(reader), change: change)
        }
    }
}
#endif
