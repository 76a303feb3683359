import Foundation
import SquareMobilePaymentsSurface
import TenderSquare
import TenderSquareSimulator

// The SDK's managers over the simulator (see ``SimulatorSurfaceBackend``): each member records the call, asks the
// simulator, and builds the SDK's objects from its values. Completions and observers are called on the main queue.

/// `MobilePaymentsSDK.shared` for one launch.
final class SimulatedSDKManager: NSObject, SDKManager, @unchecked Sendable {
    let authorizationManager: any AuthorizationManager
    let paymentManager: any PaymentManager
    let readCardInfoManager: any ReadCardInfoManager = SurfaceReadCardInfoManager()
    let readerManager: any ReaderManager
    let settingsManager: any SettingsManager

    init(backend: SimulatorSurfaceBackend) {
        authorizationManager = SimulatedAuthorizationManager(backend: backend)
        paymentManager = SimulatedPaymentManager(backend: backend)
        readerManager = SimulatedReaderManager(backend: backend)
        settingsManager = SimulatedSettingsManager(backend: backend)
        super.init()
    }
}

/// `AuthorizationManager` over the simulator.
final class SimulatedAuthorizationManager: NSObject, AuthorizationManager, @unchecked Sendable {
    private let backend: SimulatorSurfaceBackend
    private let observers = RelayTable<AuthorizationObserverRelay>()

    init(backend: SimulatorSurfaceBackend) { self.backend = backend }

    var location: (any Location)? {
        backend.perform("AuthorizationManager.location") { await $0.location }.map {
            SurfaceLocation(id: $0.id, name: $0.name, mcc: $0.mcc, currency: SurfaceMapping.sdk($0.currency))
        }
    }

    var state: AuthorizationState {
        SurfaceMapping.sdk(backend.perform("AuthorizationManager.state") { await $0.state })
    }

    func add(_ authorizationStateObserver: any AuthorizationStateObserver) {
        let relay = AuthorizationObserverRelay(authorizationStateObserver, backend: backend)
        observers.add(relay, for: authorizationStateObserver)
        backend.perform("AuthorizationManager.add") { await $0.add(relay) }
    }

    func remove(_ authorizationStateObserver: any AuthorizationStateObserver) {
        guard let relay = observers.remove(authorizationStateObserver) else {
            return backend.record("AuthorizationManager.remove")
        }
        backend.perform("AuthorizationManager.remove") { await $0.remove(relay) }
    }

    /// Asynchronous, as Square's: the completion runs on the main queue once the simulator answered.
    func authorize(withAccessToken accessToken: String, locationID: String,
                   completion: @escaping ((any Error)?) -> Void) {
        backend.record("AuthorizationManager.authorize")
        let (backend, completion) = (backend, Unchecked(completion))
        Task.detached {
            var failure: Square.AuthorizationError?
            do throws(Square.AuthorizationError) {
                try await backend.simulator.authorize(withAccessToken: accessToken, locationID: locationID)
            } catch {
                failure = error
            }
            let error = failure.map(SurfaceMapping.sdk)
            backend.post { completion.value(error) }
        }
    }

    /// Asynchronous, as Square's: the completion runs on the main queue once the simulator signed out.
    func deauthorize(completion: @escaping () -> Void) {
        backend.record("AuthorizationManager.deauthorize")
        let (backend, completion) = (backend, Unchecked(completion))
        Task.detached {
            await backend.simulator.deauthorize()
            backend.post { completion.value() }
        }
    }
}

/// `SettingsManager` over the simulator. Square's settings screen and tracking consent are not modelled.
final class SimulatedSettingsManager: NSObject, SettingsManager, @unchecked Sendable {
    private let backend: SimulatorSurfaceBackend

    init(backend: SimulatorSurfaceBackend) { self.backend = backend }

    /// Never: the simulator presents no settings screen.
    var isSettingsPresented: Bool { false }

    var paymentSettings: any PaymentSettings {
        let settings = backend.perform("SettingsManager.paymentSettings") { await $0.paymentSettings }
        return SurfacePaymentSettings(
            isOfflineProcessingAllowed: settings.isOfflineProcessingAllowed,
            offlineTransactionAmountLimit: settings.offlineTransactionAmountLimit.map(SurfaceMapping.sdk),
            offlineTotalStoredAmountLimit: settings.offlineTotalStoredAmountLimit.map(SurfaceMapping.sdk))
    }

    var sdkSettings: any SDKSettings {
        let settings = backend.perform("SettingsManager.sdkSettings") { await $0.sdkSettings }
        return SurfaceSDKSettings(environment: SurfaceMapping.sdk(settings.environment), version: settings.version,
                                  securityComplianceVersion: "simulated")
    }

    /// The simulator never asks for tracking consent (it fails with `trackingConsentIsPending` only when injected).
    var trackingConsentState: TrackingConsentState { .notRequired }

    /// `false`: nothing is ever presented.
    func dismissSettings() -> Bool { false }

    func presentSettings(with viewController: UIViewController, completion: @escaping ((any Error)?) -> Void) {
        preconditionFailure("SimulatorSurfaceBackend: Square's settings screen is not modelled by the simulator")
    }

    func updateTrackingConsent(withGranted granted: Bool) {
        preconditionFailure("SimulatorSurfaceBackend: tracking consent is not modelled by the simulator")
    }
}

/// A value the backend hands from the simulator's task to the main queue, where the SDK calls it (a completion, an
/// SDK delegate): not `Sendable`, used on the main queue only.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The simulator-side relays standing for the SDK observers the app added, by the observer's identity.
final class RelayTable<Relay: AnyObject>: @unchecked Sendable {
    private let lock = NSLock()
    private var relays: [ObjectIdentifier: Relay] = [:]

    /// Records `relay` for `observer`.
    func add(_ relay: Relay, for observer: AnyObject) {
        lock.lock()
        defer { lock.unlock() }
        relays[ObjectIdentifier(observer)] = relay
    }

    /// The relay recorded for `observer`, forgotten.
    func remove(_ observer: AnyObject) -> Relay? {
        lock.lock()
        defer { lock.unlock() }
        return relays.removeValue(forKey: ObjectIdentifier(observer))
    }
}
