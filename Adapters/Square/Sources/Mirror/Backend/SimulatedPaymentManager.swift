import Foundation
import SquareMobilePaymentsSurface
import TenderSquare
import TenderSquareSimulator

/// `PaymentManager` over the simulator.
final class SimulatedPaymentManager: NSObject, PaymentManager, @unchecked Sendable {
    private let backend: SimulatorSurfaceBackend
    private let observers = RelayTable<CardInputMethodsObserverRelay>()
    private let lock = NSLock()
    /// The SDK handle of each payment in progress, by attempt id: `currentPaymentHandle` is the same object.
    private var handles: [String: SimulatedPaymentHandle] = [:]

    init(backend: SimulatorSurfaceBackend) {
        self.backend = backend
        offlinePaymentQueue = SimulatedOfflinePaymentQueue(backend: backend)
    }

    let offlinePaymentQueue: any OfflinePaymentQueue

    var availableCardInputMethods: CardInputMethods {
        let methods = backend.perform("PaymentManager.availableCardInputMethods") { await $0.availableCardInputMethods }
        return SurfaceMapping.sdk(methods)
    }

    var currentPaymentHandle: (any PaymentHandle)? {
        guard let current = backend.perform("PaymentManager.currentPaymentHandle", { await $0.currentPaymentHandle })
        else { return nil }
        let attemptID = current.paymentParameters.paymentAttemptID
        if let known = locked({ handles[attemptID] }) { return known }
        let handle = SimulatedPaymentHandle(current, parameters: SurfaceMapping.sdk(current.paymentParameters),
                                            backend: backend)
        locked { handles[attemptID] = handle }
        return handle
    }

    func add(_ availableCardInputMethodsObserver: any AvailableCardInputMethodsObserver) {
        let relay = CardInputMethodsObserverRelay(availableCardInputMethodsObserver, backend: backend)
        observers.add(relay, for: availableCardInputMethodsObserver)
        backend.perform("PaymentManager.add") { await $0.add(relay) }
    }

    func remove(_ availableCardInputMethodsObserver: any AvailableCardInputMethodsObserver) {
        guard let relay = observers.remove(availableCardInputMethodsObserver) else {
            return backend.record("PaymentManager.remove")
        }
        backend.perform("PaymentManager.remove") { await $0.remove(relay) }
    }

    func getIdempotencyKey(withPaymentAttemptId paymentAttemptId: String) -> String? {
        backend.perform("PaymentManager.getIdempotencyKey") {
            await $0.getIdempotencyKey(withPaymentAttemptId: paymentAttemptId)
        }
    }

    /// The simulator's `startPayment`, with the parameters the bridge built read back into values; the view
    /// controller is recorded and named in the simulator's presentation context.
    @discardableResult
    func startPayment(_ paymentParameters: PaymentParameters, promptParameters: PromptParameters,
                      from viewController: UIViewController,
                      delegate: any PaymentManagerDelegate) -> (any PaymentHandle)? {
        let parameters = SurfaceMapping.value(paymentParameters)
        let prompt = SurfaceMapping.value(promptParameters)
        backend.presented(from: viewController)
        let context = Square.PresentationContext(name: String(describing: type(of: viewController)),
                                                 viewController: { nil })
        let relay = PaymentDelegateRelay(delegate, attemptID: parameters.paymentAttemptID, manager: self,
                                         backend: backend)
        let started = backend.perform("PaymentManager.startPayment") {
            await $0.startPayment(parameters, promptParameters: prompt, from: context, delegate: relay)
        }
        guard let started else { return nil }
        let handle = SimulatedPaymentHandle(started, parameters: paymentParameters, backend: backend)
        locked { handles[parameters.paymentAttemptID] = handle }
        return handle
    }

    /// The payment of `attemptID` ended: `currentPaymentHandle` no longer returns its handle object.
    func paymentEnded(_ attemptID: String) {
        locked { handles[attemptID] = nil }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// The SDK's `PaymentHandle` over the simulator's handle (dead after a relaunch, as the simulator's is).
final class SimulatedPaymentHandle: NSObject, PaymentHandle, @unchecked Sendable {
    private let handle: any Square.PaymentHandle
    private let backend: SimulatorSurfaceBackend
    let paymentParameters: PaymentParameters

    init(_ handle: any Square.PaymentHandle, parameters: PaymentParameters, backend: SimulatorSurfaceBackend) {
        self.handle = handle
        self.backend = backend
        paymentParameters = parameters
    }

    /// None: the simulator models no additional payment methods.
    var additionalPaymentMethods: [any AdditionalPaymentMethod] { [] }

    var isPaymentCancelable: Bool {
        backend.perform("PaymentHandle.isPaymentCancelable") { [handle] _ in await handle.isPaymentCancelable }
    }

    var payment: any Payment {
        SurfaceMapping.sdk(backend.perform("PaymentHandle.payment") { [handle] _ in await handle.payment })
    }

    var totalMoneyWithProposedCardSurcharge: (any MoneyAmount)? {
        backend.perform("PaymentHandle.totalMoneyWithProposedCardSurcharge") { [handle] _ in
            await handle.totalMoneyWithProposedCardSurcharge
        }.map(SurfaceMapping.sdk)
    }

    @discardableResult
    func cancelPayment() -> Bool {
        backend.perform("PaymentHandle.cancelPayment") { [handle] _ in await handle.cancelPayment() }
    }
}

/// `OfflinePaymentQueue` over the simulator: asynchronous, as Square's; completions run on the main queue.
final class SimulatedOfflinePaymentQueue: NSObject, OfflinePaymentQueue, @unchecked Sendable {
    private let backend: SimulatorSurfaceBackend

    init(backend: SimulatorSurfaceBackend) { self.backend = backend }

    func getPayments(_ completion: @escaping ([any OfflinePayment], (any Error)?) -> Void) {
        backend.record("OfflinePaymentQueue.getPayments")
        let (backend, completion) = (backend, Unchecked(completion))
        Task.detached {
            let result: Result<[Square.OfflinePayment], Square.OfflinePaymentQueueError>
            do throws(Square.OfflinePaymentQueueError) {
                result = .success(try await backend.simulator.getPayments())
            } catch {
                result = .failure(error)
            }
            backend.post {
                switch result {
                case .success(let payments): completion.value(payments.map(SurfaceMapping.sdk), nil)
                case .failure(let error): completion.value([], SurfaceMapping.sdk(error))
                }
            }
        }
    }

    func getTotalStoredPaymentsAmount(completion: @escaping ((any MoneyAmount)?, (any Error)?) -> Void) {
        backend.record("OfflinePaymentQueue.getTotalStoredPaymentsAmount")
        let (backend, completion) = (backend, Unchecked(completion))
        Task.detached {
            let result: Result<Square.Money, Square.OfflinePaymentQueueError>
            do throws(Square.OfflinePaymentQueueError) {
                result = .success(Square.Money(try await backend.simulator.getTotalStoredPaymentsAmount()))
            } catch {
                result = .failure(error)
            }
            backend.post {
                switch result {
                case .success(let total): completion.value(SurfaceMapping.sdk(total), nil)
                case .failure(let error): completion.value(nil, SurfaceMapping.sdk(error))
                }
            }
        }
    }
}
