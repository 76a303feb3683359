import Foundation
import SquareMobilePaymentsSurface

/// An SDK whose `startPayment` and `startPairing` return `nil` and tell the delegate nothing (or only later, after
/// `lateBy` seconds, on `queue`): what the bridge must survive if Square's `didFail` comes after the call returned,
/// from another thread, or never. Every other member is unused by these tests and stops the process if touched.
final class SilentSDK: NSObject, SDKManager, @unchecked Sendable {
    let payments: SilentPaymentManager
    let pairing: SilentReaderManager

    init(lateBy delay: TimeInterval?, on queue: DispatchQueue = .main) {
        payments = SilentPaymentManager(lateBy: delay, on: queue)
        pairing = SilentReaderManager(lateBy: delay, on: queue)
    }

    var authorizationManager: any AuthorizationManager { fatalError("unused") }
    var paymentManager: any PaymentManager { payments }
    var readCardInfoManager: any ReadCardInfoManager { SurfaceReadCardInfoManager() }
    var readerManager: any ReaderManager { pairing }
    var settingsManager: any SettingsManager { fatalError("unused") }
}

/// Runs `body` on `queue` after `delay` seconds, when there is a delay.
private func later(_ delay: TimeInterval?, on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
    guard let delay else { return }
    queue.asyncAfter(deadline: .now() + delay, execute: body)
}

private struct UncheckedDelegate<Delegate>: @unchecked Sendable { let value: Delegate }

final class SilentPaymentManager: NSObject, PaymentManager, @unchecked Sendable {
    let delay: TimeInterval?
    let queue: DispatchQueue
    init(lateBy delay: TimeInterval?, on queue: DispatchQueue) {
        self.delay = delay
        self.queue = queue
    }

    var availableCardInputMethods: CardInputMethods { fatalError("unused") }
    var currentPaymentHandle: (any PaymentHandle)? { nil }
    var offlinePaymentQueue: any OfflinePaymentQueue { fatalError("unused") }
    func add(_ availableCardInputMethodsObserver: any AvailableCardInputMethodsObserver) { fatalError("unused") }
    func remove(_ availableCardInputMethodsObserver: any AvailableCardInputMethodsObserver) { fatalError("unused") }
    func getIdempotencyKey(withPaymentAttemptId paymentAttemptId: String) -> String? { nil }

    @discardableResult
    func startPayment(_ paymentParameters: PaymentParameters, promptParameters: PromptParameters,
                      from viewController: UIViewController, delegate: any PaymentManagerDelegate) -> (any PaymentHandle)? {
        let box = UncheckedDelegate(value: (delegate, self, paymentParameters))
        later(delay, on: queue) {
            let (delegate, manager, parameters) = box.value
            let fields = SurfacePaymentFields(id: nil, createdAt: parameters.createdAt, updatedAt: parameters.createdAt,
                                              amountMoney: parameters.amountMoney, totalMoney: parameters.totalMoney,
                                              sourceType: .card)
            delegate.paymentManager(manager, didFail: SurfaceOnlinePayment(fields, status: .failed),
                                    withError: PaymentError.paymentAlreadyInProgress)
        }
        return nil
    }
}

final class SilentReaderManager: NSObject, ReaderManager, @unchecked Sendable {
    let delay: TimeInterval?
    let queue: DispatchQueue
    init(lateBy delay: TimeInterval?, on queue: DispatchQueue) {
        self.delay = delay
        self.queue = queue
    }

    var isPairingInProgress: Bool { false }
    var readerSettings: any ReaderSettings { SurfaceReaderSettings() }
    var readers: [any ReaderInfo] { [] }
    var tapToPaySettings: any TapToPaySettings { SurfaceTapToPaySettings() }
    func add(_ readerObserver: any ReaderObserver) { fatalError("unused") }
    func blink(_ readerInfo: any ReaderInfo) { fatalError("unused") }
    func forget(_ readerInfo: any ReaderInfo) { fatalError("unused") }
    func rebootReader(_ readerInfo: any ReaderInfo) { fatalError("unused") }
    func remove(_ readerObserver: any ReaderObserver) { fatalError("unused") }
    func retryConnection(_ readerInfo: any ReaderInfo) -> RetryConnectionResult { .readerNotFound }

    @discardableResult
    func startPairing(with delegate: any ReaderPairingDelegate) -> (any PairingHandle)? {
        let box = UncheckedDelegate(value: delegate)
        later(delay, on: queue) { box.value.readerPairingDidFail(with: ReaderPairingError.bluetoothDisabled) }
        return nil
    }
}
