import Foundation
import SquareMobilePaymentsSurface
import TenderSquare
import TenderSquareSimulator

/// `ReaderManager` over the simulator. Reader objects are one per reader and launch, updated in place.
final class SimulatedReaderManager: NSObject, ReaderManager, @unchecked Sendable {
    private let backend: SimulatorSurfaceBackend
    private let observers = RelayTable<ReaderObserverRelay>()
    let readerSettings: any ReaderSettings = SurfaceReaderSettings()
    let tapToPaySettings: any TapToPaySettings

    init(backend: SimulatorSurfaceBackend) {
        self.backend = backend
        tapToPaySettings = SimulatedTapToPaySettings(backend: backend)
    }

    var isPairingInProgress: Bool {
        backend.perform("ReaderManager.isPairingInProgress") { await $0.isPairingInProgress }
    }

    var readers: [any ReaderInfo] {
        backend.perform("ReaderManager.readers") { await $0.readers }.map(backend.readerObject)
    }

    func add(_ readerObserver: any ReaderObserver) {
        let relay = ReaderObserverRelay(readerObserver, backend: backend)
        observers.add(relay, for: readerObserver)
        backend.perform("ReaderManager.add") { await $0.add(relay) }
    }

    func remove(_ readerObserver: any ReaderObserver) {
        guard let relay = observers.remove(readerObserver) else { return backend.record("ReaderManager.remove") }
        backend.perform("ReaderManager.remove") { await $0.remove(relay) }
    }

    func blink(_ readerInfo: any ReaderInfo) {
        preconditionFailure("SimulatorSurfaceBackend: blink(_:) is not modelled by the simulator")
    }

    /// The simulator's `rebootReader(_:)` of the paired reader with this id (nothing when there is none, or when it
    /// is not rebootable: the SDK's no-op); its status changes reach the reader observers.
    func rebootReader(_ readerInfo: any ReaderInfo) {
        let id = readerInfo.id
        backend.perform("ReaderManager.rebootReader") { simulator in
            guard let reader = await simulator.readers.first(where: { $0.id == id }) else { return }
            try? await simulator.rebootReader(reader)
        }
    }

    /// The simulator's `forget(_:)` of the paired reader with this id (nothing when there is none).
    func forget(_ readerInfo: any ReaderInfo) {
        let id = readerInfo.id
        backend.perform("ReaderManager.forget") { simulator in
            guard let reader = await simulator.readers.first(where: { $0.id == id }) else { return }
            await simulator.forget(reader)
        }
    }

    /// The simulator's `retryConnection(_:)` of the paired reader with this id; `readerNotFound` when there is none.
    func retryConnection(_ readerInfo: any ReaderInfo) -> RetryConnectionResult {
        let id = readerInfo.id
        let result = backend.perform("ReaderManager.retryConnection") { simulator -> Square.RetryConnectionResult in
            guard let reader = await simulator.readers.first(where: { $0.id == id }) else { return .readerNotFound }
            return await simulator.retryConnection(reader)
        }
        return SurfaceMapping.sdk(result)
    }

    @discardableResult
    func startPairing(with delegate: any ReaderPairingDelegate) -> (any PairingHandle)? {
        let relay = PairingDelegateRelay(delegate, backend: backend)
        guard let handle = backend.perform("ReaderManager.startPairing", { await $0.startPairing(with: relay) }) else {
            return nil
        }
        let backend = backend
        return SurfacePairingHandle(stop: { backend.perform("PairingHandle.stop") { _ in await handle.stop() } })
    }
}
