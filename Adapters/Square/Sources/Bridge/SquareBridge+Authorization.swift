#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
public import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import Foundation
import func Tender.awaitCallback
package import TenderSquare

extension SquareMobilePaymentsBridge: Square.AuthorizationManager {
    /// `authorize(withAccessToken:locationID:completion:)`, called on the main actor as Square requires; returns when
    /// the completion runs, throwing its error mapped by case (``SquareBridgeErrors/authorization(_:)``). The access
    /// token is passed to the SDK and kept nowhere.
    package func authorize(withAccessToken accessToken: String, locationID: String)
        async throws(Square.AuthorizationError) {
        if let error = await authorizeOnMain(accessToken, locationID: locationID) { throw error }
        noteSquareReached()
    }

    @MainActor
    private func authorizeOnMain(_ accessToken: String, locationID: String) async -> Square.AuthorizationError? {
        await awaitCallback { resume in
            sdk.authorizationManager.authorize(withAccessToken: accessToken, locationID: locationID) { error in
                resume(error.map(SquareBridgeErrors.authorization))
            }
        }
    }

    /// `deauthorize(completion:)`, called on the main actor as Square requires; returns when the completion runs
    /// (Square: wait for it before authorizing again).
    package func deauthorize() async {
        await deauthorizeOnMain()
    }

    @MainActor
    private func deauthorizeOnMain() async {
        await awaitCallback { resume in
            sdk.authorizationManager.deauthorize { resume(()) }
        }
    }

    /// `state`, on the main actor.
    package var state: Square.AuthorizationState {
        get async { await stateOnMain() }
    }

    @MainActor
    private func stateOnMain() -> Square.AuthorizationState { SquareBridgeValues.value(sdk.authorizationManager.state) }

    /// `location`, on the main actor, copied.
    package var location: Square.Location? {
        get async { await locationOnMain() }
    }

    @MainActor
    private func locationOnMain() -> Square.Location? {
        sdk.authorizationManager.location.map(SquareBridgeValues.location)
    }

    /// `add(_:)` with a ``SquareAuthorizationObserverRelay`` for `observer` (once per observer).
    package func add(_ observer: any Square.AuthorizationStateObserver) async {
        await addOnMain(observer)
    }

    @MainActor
    private func addOnMain(_ observer: any Square.AuthorizationStateObserver) {
        let relay = SquareAuthorizationObserverRelay(observer)
        guard registry.add(relay, standingFor: observer, kind: .authorizationState) else { return }
        sdk.authorizationManager.add(relay)
    }

    /// `remove(_:)` of the relay added for `observer`.
    package func remove(_ observer: any Square.AuthorizationStateObserver) async {
        await removeOnMain(observer)
    }

    @MainActor
    private func removeOnMain(_ observer: any Square.AuthorizationStateObserver) {
        guard let relay = registry.removeRelay(standingFor: observer, kind: .authorizationState)
            as? SquareAuthorizationObserverRelay else { return }
        sdk.authorizationManager.remove(relay)
    }
}
#endif
