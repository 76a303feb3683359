public import Foundation

/// Square's `AuthorizationManager` (`MobilePaymentsSDK.shared.authorizationManager`): authorizes the SDK with a
/// seller's access token and location.
///
/// Mirror: `@objc(SQMPAuthorizationManager)` is dropped; class-bound via `AnyObject`, as an `@objc` protocol is.
public protocol AuthorizationManager: AnyObject {
    /// The authorized location; `nil` when not authorized.
    var location: (any Location)? { get }
    /// Whether the SDK is authorized.
    var state: AuthorizationState { get }
    /// Adds an observer of ``state``.
    func add(_ authorizationStateObserver: any AuthorizationStateObserver)
    /// Authorizes the SDK. Call on the main thread; `completion` gets `nil` on success or an
    /// ``AuthorizationError``.
    ///
    /// Spelling: the one Square's compiled sample uses (tag 2.5.0 `Example/`: its mock implements it and its views call
    /// it), which is what Swift imports from `-authorizeWithAccessToken:locationID:completion:`; DocC prints
    /// `authorize(accessToken:locationID:completion:)` (the reference's `swift`; this is its `alternateSpelling`).
    func authorize(
        withAccessToken accessToken: String,
        locationID: String,
        completion: @escaping ((any Error)?) -> Void
    )
    /// Deauthorizes the SDK. Call on the main thread and wait for `completion` before authorizing again.
    func deauthorize(completion: @escaping () -> Void)
    /// Removes an observer added with ``add(_:)``.
    func remove(_ authorizationStateObserver: any AuthorizationStateObserver)
}

/// Square's `AuthorizationStateObserver` (ObjC `SQMPAuthorizationStatusObservable`): told when the authorization
/// state changes. Implemented by the app.
///
/// Mirror: `@objc(SQMPAuthorizationStatusObservable)` is dropped; class-bound via `AnyObject`.
public protocol AuthorizationStateObserver: AnyObject {
    /// The authorization state changed to `authorizationState`.
    func authorizationStateDidChange(_ authorizationState: AuthorizationState)
}

/// Square's `Location`: the seller location the SDK is authorized for.
///
/// Mirror: `@objc(SQMPLocation)` is dropped.
public protocol Location: NSObjectProtocol {
    /// The location's currency.
    var currency: Currency { get }
    /// The location ID.
    var id: String { get }
    /// The merchant category code.
    var mcc: String { get }
    /// The location's name.
    var name: String { get }
}
