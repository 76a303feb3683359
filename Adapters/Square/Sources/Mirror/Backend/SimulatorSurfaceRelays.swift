import Foundation
import SquareMobilePaymentsSurface
import TenderSquare
import TenderSquareSimulator

// The simulator's delegates and observers that stand for the SDK ones the app (the bridge) passed: each holds the
// app's object weakly, as the SDK may, builds the SDK's objects from the simulator's values, and calls the app's
// object on the main queue, in the simulator's order (``SimulatorSurfaceBackend/post(_:)``).

/// The simulator's `PaymentManagerDelegate` for one payment started through the SDK.
final class PaymentDelegateRelay: Square.PaymentManagerDelegate, @unchecked Sendable {
    private weak var delegate: (any PaymentManagerDelegate)?
    private let attemptID: String
    private let manager: SimulatedPaymentManager
    private let backend: SimulatorSurfaceBackend

    init(_ delegate: any PaymentManagerDelegate, attemptID: String, manager: SimulatedPaymentManager,
         backend: SimulatorSurfaceBackend) {
        self.delegate = delegate
        self.attemptID = attemptID
        self.manager = manager
        self.backend = backend
    }

    private func send(_ call: @escaping (any PaymentManagerDelegate, SimulatedPaymentManager) -> Void) {
        backend.post { [self] in
            guard let delegate else { return }
            call(delegate, manager)
        }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didStart payment: any Square.Payment) {
        send { $0.paymentManager($1, didStart: SurfaceMapping.sdk(payment)) }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, willFinish payment: any Square.Payment) {
        send { $0.paymentManager($1, willFinish: SurfaceMapping.sdk(payment)) }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didFinish payment: any Square.Payment) {
        manager.paymentEnded(attemptID)
        send { $0.paymentManager($1, didFinish: SurfaceMapping.sdk(payment)) }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didFail payment: any Square.Payment,
                        withError error: any Error) {
        manager.paymentEnded(attemptID)
        let sdkError = Self.sdkError(error)
        send { $0.paymentManager($1, didFail: SurfaceMapping.sdk(payment), withError: sdkError) }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, willCancel payment: any Square.Payment) {
        send { $0.paymentManager($1, willCancel: SurfaceMapping.sdk(payment)) }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didCancel payment: any Square.Payment) {
        manager.paymentEnded(attemptID)
        send { $0.paymentManager($1, didCancel: SurfaceMapping.sdk(payment)) }
    }

    /// The SDK's error for a simulator error: the mirror's `PaymentError` by case name; a case the 2.5 SDK does not
    /// have as ``ErrorNotInThisSDK``; anything else (a future SDK's error, the end of a relaunched process) as it is.
    static func sdkError(_ error: any Error) -> any Error {
        guard let value = error as? Square.PaymentError else { return error }
        return SurfaceMapping.sdk(value) ?? ErrorNotInThisSDK(name: value.caseName)
    }
}

/// The simulator's `ReaderPairingDelegate` for one pairing started through the SDK.
final class PairingDelegateRelay: Square.ReaderPairingDelegate, @unchecked Sendable {
    private weak var delegate: (any ReaderPairingDelegate)?
    private let backend: SimulatorSurfaceBackend

    init(_ delegate: any ReaderPairingDelegate, backend: SimulatorSurfaceBackend) {
        self.delegate = delegate
        self.backend = backend
    }

    func readerPairingDidBegin() { backend.post { [self] in delegate?.readerPairingDidBegin() } }

    func readerPairingDidSucceed() { backend.post { [self] in delegate?.readerPairingDidSucceed() } }

    func readerPairingDidFail(with error: any Error) {
        let sdkError: any Error = (error as? Square.ReaderPairingError).map(SurfaceMapping.sdk) ?? error
        backend.post { [self] in delegate?.readerPairingDidFail(with: sdkError) }
    }
}

/// The simulator's `AuthorizationStateObserver` standing for an SDK one.
final class AuthorizationObserverRelay: Square.AuthorizationStateObserver, @unchecked Sendable {
    private weak var observer: (any AuthorizationStateObserver)?
    private let backend: SimulatorSurfaceBackend

    init(_ observer: any AuthorizationStateObserver, backend: SimulatorSurfaceBackend) {
        self.observer = observer
        self.backend = backend
    }

    func authorizationStateDidChange(_ authorizationState: Square.AuthorizationState) {
        backend.post { [self] in observer?.authorizationStateDidChange(SurfaceMapping.sdk(authorizationState)) }
    }
}

/// The simulator's `AvailableCardInputMethodsObserver` standing for an SDK one.
final class CardInputMethodsObserverRelay: Square.AvailableCardInputMethodsObserver, @unchecked Sendable {
    private weak var observer: (any AvailableCardInputMethodsObserver)?
    private let backend: SimulatorSurfaceBackend

    init(_ observer: any AvailableCardInputMethodsObserver, backend: SimulatorSurfaceBackend) {
        self.observer = observer
        self.backend = backend
    }

    func availableCardInputMethodsDidChange(_ cardInputMethods: Square.CardInputMethods) {
        backend.post { [self] in observer?.availableCardInputMethodsDidChange(SurfaceMapping.sdk(cardInputMethods)) }
    }
}

/// The simulator's `ReaderObserver` standing for an SDK one: the SDK's reader object is updated in place, then the
/// observer is told.
final class ReaderObserverRelay: Square.ReaderObserver, @unchecked Sendable {
    private weak var observer: (any ReaderObserver)?
    private let backend: SimulatorSurfaceBackend

    init(_ observer: any ReaderObserver, backend: SimulatorSurfaceBackend) {
        self.observer = observer
        self.backend = backend
    }

    func readerWasAdded(_ readerInfo: Square.ReaderInfo) {
        backend.post { [self] in observer?.readerWasAdded(backend.readerObject(readerInfo)) }
    }

    func readerWasRemoved(_ readerInfo: Square.ReaderInfo) {
        backend.post { [self] in observer?.readerWasRemoved(backend.readerObject(readerInfo)) }
    }

    func readerDidChange(_ readerInfo: Square.ReaderInfo, change: Square.ReaderChange) {
        backend.post { [self] in
            observer?.readerDidChange(backend.readerObject(readerInfo), change: SurfaceMapping.sdk(change))
        }
    }
}
