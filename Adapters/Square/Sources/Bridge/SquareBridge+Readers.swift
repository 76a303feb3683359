#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
public import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import Foundation
package import TenderSquare

extension SquareMobilePaymentsBridge: Square.ReaderManager {
    /// `readers`, on the main actor, copied.
    package var readers: [Square.ReaderInfo] {
        get async { await readersOnMain() }
    }

    @MainActor
    private func readersOnMain() -> [Square.ReaderInfo] { sdk.readerManager.readers.map(SquareBridgeValues.reader) }

    /// `isPairingInProgress`, on the main actor.
    package var isPairingInProgress: Bool {
        get async { await pairingInProgressOnMain() }
    }

    @MainActor
    private func pairingInProgressOnMain() -> Bool { sdk.readerManager.isPairingInProgress }

    /// `add(_:)` with a ``SquareReaderObserverRelay`` for `observer` (once per observer).
    package func add(_ observer: any Square.ReaderObserver) async {
        await addOnMain(observer)
    }

    @MainActor
    private func addOnMain(_ observer: any Square.ReaderObserver) {
        let relay = SquareReaderObserverRelay(observer)
        guard registry.add(relay, standingFor: observer, kind: .reader) else { return }
        sdk.readerManager.add(relay)
    }

    /// `remove(_:)` of the relay added for `observer`.
    package func remove(_ observer: any Square.ReaderObserver) async {
        await removeOnMain(observer)
    }

    @MainActor
    private func removeOnMain(_ observer: any Square.ReaderObserver) {
        guard let relay = registry.removeRelay(standingFor: observer, kind: .reader) as? SquareReaderObserverRelay
        else { return }
        sdk.readerManager.remove(relay)
    }

    /// `startPairing(with:)` on the main actor, the adapter's delegate behind a ``SquarePairingDelegateRelay``. When
    /// the SDK returns `nil` without having told the delegate why, the bridge waits ``callbackGrace`` for it, then
    /// reports the failure itself (an error that is not a ``Square/ReaderPairingError``, which the adapter maps to its
    /// fallback).
    package func startPairing(with delegate: any Square.ReaderPairingDelegate) async -> (any Square.PairingHandle)? {
        await startPairingOnMain(delegate)
    }

    @MainActor
    private func startPairingOnMain(_ delegate: any Square.ReaderPairingDelegate) async -> (any Square.PairingHandle)? {
        let relay = SquarePairingDelegateRelay(delegate: delegate, registry: registry)
        relay.key = registry.hold(delegate: relay)
        guard let handle = sdk.readerManager.startPairing(with: relay) else {
            await relay.latch.wait(seconds: callbackGrace)
            if !relay.latch.isOpen { relay.failWithoutSDK(PairingNotStarted()) }
            return nil
        }
        return SquareBridgePairingHandle(handle, registry: registry)
    }

    /// `retryConnection(_:)` on the SDK's reader with this `id`; `readerNotFound` when the SDK has none.
    package func retryConnection(_ readerInfo: Square.ReaderInfo) async -> Square.RetryConnectionResult {
        await retryOnMain(readerInfo.id)
    }

    @MainActor
    private func retryOnMain(_ id: UInt) -> Square.RetryConnectionResult {
        guard let reader = sdkReader(id) else { return .readerNotFound }
        return SquareBridgeValues.value(sdk.readerManager.retryConnection(reader))
    }

    /// `forget(_:)` of the SDK's reader with this `id` (nothing when the SDK has none).
    package func forget(_ readerInfo: Square.ReaderInfo) async {
        await forgetOnMain(readerInfo.id)
    }

    @MainActor
    private func forgetOnMain(_ id: UInt) {
        guard let reader = sdkReader(id) else { return }
        sdk.readerManager.forget(reader)
    }

    /// The SDK's reader object with this `id`, read from `readers` now (readers are never held by the bridge).
    @MainActor
    private func sdkReader(_ id: UInt) -> (any ReaderInfo)? {
        sdk.readerManager.readers.first { $0.id == id }
    }
}

/// The error the adapter gets when `startPairing(with:)` returned `nil` and the SDK said nothing within the grace
/// period.
struct PairingNotStarted: Error, CustomStringConvertible {
    /// "pairing did not start".
    var description: String { "pairing did not start" }
}

/// Square's `PairingHandle` as the adapter holds it: a registry key naming the SDK's handle, held until this value is
/// dropped.
final class SquareBridgePairingHandle: Square.PairingHandle, Sendable {
    /// The key of the SDK's handle in the registry.
    let key: SquareObjectRegistry.Key
    /// The registry holding it.
    let registry: SquareObjectRegistry

    /// Holds `handle` in `registry`.
    @MainActor
    init(_ handle: any PairingHandle, registry: SquareObjectRegistry) {
        key = registry.hold(handle)
        self.registry = registry
    }

    deinit {
        let (registry, key) = (registry, key)
        Task { @MainActor in registry.release(key) }
    }

    /// `stop()`, on the main actor.
    func stop() async -> Bool { await stopOnMain() }

    @MainActor
    private func stopOnMain() -> Bool { registry.pairingHandle(key)?.stop() ?? false }
}
#endif
