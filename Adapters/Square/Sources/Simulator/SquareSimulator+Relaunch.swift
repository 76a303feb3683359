import Foundation
import Tender
package import TenderSquare

// What survives a relaunch and a sign-out: the SDK's persistent store does, its objects do not.

extension SquareSimulator {
    // MARK: Relaunch

    /// Simulates the app being killed and launched again on the same device. The SDK forgets every object it handed
    /// out (payment handles, the pairing handle, delegates, observers): a handle from before answers as if no payment
    /// were in progress. It keeps what it persists: the offline queue (processed payments too, until its own
    /// schedule deletes them), the payment attempt ids and their idempotency keys, the authorization and the paired
    /// readers; Square's servers keep everything, and an authorization request that had already reached Square is
    /// still acted on (``releaseHeld()``), with nobody to tell.
    ///
    /// A payment that was waiting for a card dies with the app's UI: nothing was sent to Square, and the attempt
    /// stays `started` (the SDK did not learn an outcome). So that a test's task still awaiting the old adapter does
    /// not hang, the forgotten delegate receives one ``ProcessEnded`` failure, which the adapter can only read as an
    /// unknown outcome; a real app has no such task after a relaunch.
    public func relaunch() {
        applyTimedRules()
        generation += 1
        if let flight = current {
            current = nil
            flight.delegate.paymentManager(self, didFail: initializedPayment(flight), withError: ProcessEnded())
        }
        if let held = heldAuthorization {
            held.flight.delegate.paymentManager(self, didFail: initializedPayment(held.flight), withError: ProcessEnded())
            // The request is in the network, not in the SDK: the new process may start payments at once.
            orphanedAuthorizations.append(held)
            heldAuthorization = nil
        }
        pairingDelegate = nil
        authorizationObservers = []
        readerObservers = []
        networkObservers = []
        inputMethodObservers = []
    }

    /// Simulates the SDK no longer reporting the idempotency key of an attempt (the app deleted and reinstalled, or
    /// its storage cleared): Square's servers still hold whatever that key created.
    package func forgetIdempotencyKey(paymentAttemptID: String) { store.attempts[paymentAttemptID] = nil }

    // MARK: AuthorizationManager

    /// Authorizes a seller at a location, checking what Square checks, in order.
    package func authorize(withAccessToken accessToken: String, locationID: String) async throws(Square.AuthorizationError) {
        if accessToken.isEmpty { throw .emptyAccessToken }
        if locationID.isEmpty { throw .emptyLocationID }
        if store.authorizedMerchantID != nil { throw .alreadyAuthorized }
        guard requestReachesSquare() else { throw .noNetwork }
        guard let seller = store.sellers.first(where: { $0.accessToken == accessToken }) else {
            throw .invalidAccessToken
        }
        guard seller.locations.contains(where: { $0.id == locationID }) else { throw .invalidLocationID }
        if seller.inactiveLocationIDs.contains(locationID) { throw .locationNotActivatedForCardProcessing }
        store.authorizedMerchantID = seller.merchantID
        store.authorizedLocationID = locationID
        for observer in authorizationObservers { observer.authorizationStateDidChange(.authorized) }
    }

    /// Signs out. Queued payments remain on the device (Square: they "remain on the device when … a seller logs
    /// out of your application"); they upload again once that seller signs in here, unless
    /// ``Configuration/uploadsOtherAccounts``. Dropped only if ``Configuration/deauthorizeDropsQueue`` (unverified
    /// for the MPSDK; Square help 7775 says so for the POS app).
    package func deauthorize() async {
        if store.configuration.deauthorizeDropsQueue, let merchant = store.authorizedMerchantID {
            let location = store.authorizedLocationID
            store.devicePayments.removeAll {
                $0.merchantID == merchant && $0.locationID == location && $0.payment.status == .queued
            }
        }
        store.authorizedMerchantID = nil
        store.authorizedLocationID = nil
        for observer in authorizationObservers { observer.authorizationStateDidChange(.notAuthorized) }
    }

    /// The authorization state.
    package var state: Square.AuthorizationState { store.authorizedMerchantID == nil ? .notAuthorized : .authorized }

    /// The authorized location.
    package var location: Square.Location? { authorized?.location }

    /// Adds an authorization observer.
    package func add(_ observer: any Square.AuthorizationStateObserver) { authorizationObservers.append(observer) }

    /// Removes an authorization observer.
    package func remove(_ observer: any Square.AuthorizationStateObserver) {
        authorizationObservers.removeAll { $0 === observer }
    }
}
