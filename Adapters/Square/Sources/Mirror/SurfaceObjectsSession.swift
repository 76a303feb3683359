package import Foundation

// `package` classes a backend uses to hand out locations, settings, handles and the opaque undescribed objects (see
// SurfaceBackend.swift). Handles run closures the backend supplies, so their behaviour stays the backend's.

/// A ``Location``.
package final class SurfaceLocation: NSObject, Location {
    package let id: String
    package let name: String
    package let mcc: String
    package let currency: Currency

    /// A seller location.
    package init(id: String, name: String, mcc: String, currency: Currency) {
        self.id = id
        self.name = name
        self.mcc = mcc
        self.currency = currency
        super.init()
    }
}

/// ``PaymentSettings``.
package final class SurfacePaymentSettings: NSObject, PaymentSettings {
    package let isOfflineProcessingAllowed: Bool
    package let offlineTransactionAmountLimit: (any MoneyAmount)?
    package let offlineTotalStoredAmountLimit: (any MoneyAmount)?

    /// A seller's offline settings; the limits are `nil` when offline is not allowed, as Square reports them.
    package init(
        isOfflineProcessingAllowed: Bool, offlineTransactionAmountLimit: (any MoneyAmount)?,
        offlineTotalStoredAmountLimit: (any MoneyAmount)?
    ) {
        self.isOfflineProcessingAllowed = isOfflineProcessingAllowed
        self.offlineTransactionAmountLimit = offlineTransactionAmountLimit
        self.offlineTotalStoredAmountLimit = offlineTotalStoredAmountLimit
        super.init()
    }
}

/// ``SDKSettings``.
package final class SurfaceSDKSettings: NSObject, SDKSettings {
    package let environment: Environment
    package let version: String
    package let securityComplianceVersion: String

    /// The SDK's environment and versions.
    package init(environment: Environment, version: String, securityComplianceVersion: String) {
        self.environment = environment
        self.version = version
        self.securityComplianceVersion = securityComplianceVersion
        super.init()
    }
}

/// A ``PaymentHandle`` whose cancellation is the backend's closures. ``payment`` and the surcharge may be updated
/// as the payment goes on.
package final class SurfacePaymentHandle: NSObject, PaymentHandle {
    package let paymentParameters: PaymentParameters
    package var payment: any Payment
    package var additionalPaymentMethods: [any AdditionalPaymentMethod]
    package var totalMoneyWithProposedCardSurcharge: (any MoneyAmount)?
    private let cancelable: () -> Bool
    private let cancel: () -> Bool

    /// A handle; `isCancelable` answers ``isPaymentCancelable`` and `cancel` performs ``cancelPayment()``.
    package init(
        paymentParameters: PaymentParameters, payment: any Payment,
        additionalPaymentMethods: [any AdditionalPaymentMethod] = [],
        totalMoneyWithProposedCardSurcharge: (any MoneyAmount)? = nil,
        isCancelable: @escaping () -> Bool, cancel: @escaping () -> Bool
    ) {
        self.paymentParameters = paymentParameters
        self.payment = payment
        self.additionalPaymentMethods = additionalPaymentMethods
        self.totalMoneyWithProposedCardSurcharge = totalMoneyWithProposedCardSurcharge
        self.cancelable = isCancelable
        self.cancel = cancel
        super.init()
    }

    package var isPaymentCancelable: Bool { cancelable() }

    @discardableResult
    package func cancelPayment() -> Bool { cancel() }
}

/// A ``PairingHandle`` whose ``stop()`` is the backend's closure.
package final class SurfacePairingHandle: NSObject, PairingHandle {
    private let stopPairing: () -> Bool

    /// A handle; `stop` performs ``stop()``.
    package init(stop: @escaping () -> Bool) {
        self.stopPairing = stop
        super.init()
    }

    @discardableResult
    package func stop() -> Bool { stopPairing() }
}

/// An ``AdditionalPaymentMethod`` whose ``triggerPayment(with:)`` is the backend's closure.
package final class SurfaceAdditionalPaymentMethod: NSObject, AdditionalPaymentMethod {
    package let name: String
    package let type: AdditionalPaymentMethodType
    private let trigger: (any PaymentSource) throws -> Void

    /// A method; `trigger` performs ``triggerPayment(with:)``.
    package init(
        name: String, type: AdditionalPaymentMethodType, trigger: @escaping (any PaymentSource) throws -> Void
    ) {
        self.name = name
        self.type = type
        self.trigger = trigger
        super.init()
    }

    package func triggerPayment(with source: any PaymentSource) throws { try trigger(source) }
}

/// The ``ReaderSettings`` a backend's reader manager hands out: the two settings are storage, and each change is told
/// to the observers (held weakly, as Square's observers are).
package final class SurfaceReaderSettings: ReaderSettings, @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [ObjectIdentifier: WeakSurfaceObserver] = [:]
    private var updateTime: TimeOfDay?
    private var reducedCharging = false

    /// Settings at Square's defaults (no preferred time, normal charging).
    package init() {}

    package var preferredFirmwareUpdateTime: TimeOfDay? {
        get { lock.withLock { updateTime } }
        set { lock.withLock { updateTime = newValue }; notify() }
    }

    package var reducedChargingModeEnabled: Bool {
        get { lock.withLock { reducedCharging } }
        set { lock.withLock { reducedCharging = newValue }; notify() }
    }

    package func add(_ readerSettingsObserver: any ReaderSettingsObserver) {
        lock.withLock { observers[ObjectIdentifier(readerSettingsObserver)] = WeakSurfaceObserver(readerSettingsObserver) }
    }

    package func remove(_ readerSettingsObserver: any ReaderSettingsObserver) {
        lock.withLock { _ = observers.removeValue(forKey: ObjectIdentifier(readerSettingsObserver)) }
    }

    private func notify() {
        let current = lock.withLock { observers.values.compactMap { $0.object as? any ReaderSettingsObserver } }
        for observer in current { observer.readerSettingsDidChange() }
    }
}

/// The ``TapToPaySettings`` a backend's reader manager hands out: a simulated device is no iPhone, so it is not
/// capable, no Apple account is linked, and linking fails with ``TapToPayReaderError/unsupportedDeviceModel``.
package final class SurfaceTapToPaySettings: TapToPaySettings {
    /// The settings of a device that cannot take Tap to Pay.
    package init() {}

    package var isDeviceCapable: Bool { false }

    package func isAppleAccountLinked(completion: @escaping (Bool, Error?) -> Void) { completion(false, nil) }

    package func linkAppleAccount(completion: @escaping (Error?) -> Void) {
        completion(TapToPayReaderError.unsupportedDeviceModel)
    }

    package func relinkAppleAccount(completion: @escaping (Error?) -> Void) {
        completion(TapToPayReaderError.unsupportedDeviceModel)
    }
}

/// The ``ReadCardInfoManager`` a backend's managers hand out. Reading a card without a payment is not simulated: a
/// prepared read fails at once with ``ReadCardInfoError/unsupportedEntryMethod`` for every observer.
package final class SurfaceReadCardInfoManager: ReadCardInfoManager, @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [ObjectIdentifier: WeakSurfaceObserver] = [:]

    /// A manager with no observers.
    package init() {}

    package func add(_ readCardInfoObserver: any ReadCardInfoObserver) {
        lock.withLock { observers[ObjectIdentifier(readCardInfoObserver)] = WeakSurfaceObserver(readCardInfoObserver) }
    }

    package func remove(_ readCardInfoObserver: any ReadCardInfoObserver) {
        lock.withLock { _ = observers.removeValue(forKey: ObjectIdentifier(readCardInfoObserver)) }
    }

    package func cancelReadingCardInfo() {}

    package func prepareToReadCardInfoOnce(withStoreSwipedCard storeSwipedCard: Bool, shouldReadPreInsertedCard: Bool) {
        let current = lock.withLock { observers.values.compactMap { $0.object as? any ReadCardInfoObserver } }
        for observer in current { observer.readCardInfoDidFail(.unsupportedEntryMethod) }
    }
}

/// A weak reference to an observer.
struct WeakSurfaceObserver {
    weak var object: AnyObject?

    init(_ object: AnyObject) { self.object = object }
}
