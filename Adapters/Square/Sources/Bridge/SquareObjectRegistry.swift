#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import Foundation

/// Every SDK object the bridge holds, on the main actor: the SDK itself, the payment and pairing handles behind the
/// bridge's handle values, the delegates the bridge gave the SDK, and one observer per observer the adapter added.
///
/// - **Keys.** A held handle is named by a ``Key`` carried by the bridge's handle value (the adapter never sees an SDK
///   object). Readers are not held: the bridge finds the SDK's `ReaderInfo` by its `id` whenever it acts on one.
/// - **What survives.** A handle is held as long as the adapter holds the bridge's value for it (the value releases
///   it when it is dropped). A delegate (payment or pairing) is held from the call that passes it until its last
///   callback, because the SDK may hold delegates weakly (Square does not say). An observer is held from `add(_:)`
///   to `remove(_:)`, for the same reason.
/// - **Relaunch.** The registry lives in memory, one per bridge: after a relaunch the new bridge's registry is empty.
///   Nothing in recovery depends on it: recovery reads the SDK's persistent state (the offline queue, the
///   idempotency keys, `currentPaymentHandle`) and Square's servers.
@MainActor
package final class SquareObjectRegistry {
    /// Names one held object; carried by the bridge's handle values.
    package struct Key: Hashable, Sendable, CustomStringConvertible {
        let number: UInt64
        /// `"#3"`.
        package var description: String { "#\(number)" }
    }

    /// The kinds of observer the SDK takes.
    enum ObserverKind: Hashable {
        case authorizationState
        case availableCardInputMethods
        case reader
    }

    private enum Held {
        case paymentHandle(any PaymentHandle)
        case pairingHandle(any PairingHandle)
        case delegate(AnyObject)
    }

    private struct ObserverKey: Hashable {
        var kind: ObserverKind
        var observer: ObjectIdentifier
    }

    /// The SDK (`MobilePaymentsSDK.shared`, or the manager given to the bridge).
    let sdk: any SDKManager
    private var held: [Key: Held] = [:]
    private var observers: [ObserverKey: AnyObject] = [:]
    private var lastNumber: UInt64 = 0

    /// A registry over `sdk`, holding nothing.
    init(sdk: any SDKManager) { self.sdk = sdk }

    // MARK: Handles and delegates

    /// Holds the SDK's payment handle; the key names it until ``release(_:)``.
    func hold(_ handle: any PaymentHandle) -> Key { store(.paymentHandle(handle)) }

    /// Holds the SDK's pairing handle; the key names it until ``release(_:)``.
    func hold(_ handle: any PairingHandle) -> Key { store(.pairingHandle(handle)) }

    /// Holds a delegate the bridge passes to the SDK, until its last callback releases it.
    func hold(delegate: AnyObject) -> Key { store(.delegate(delegate)) }

    /// The payment handle held under `key`, if any.
    func paymentHandle(_ key: Key) -> (any PaymentHandle)? {
        if case .paymentHandle(let handle)? = held[key] { return handle }
        return nil
    }

    /// The pairing handle held under `key`, if any.
    func pairingHandle(_ key: Key) -> (any PairingHandle)? {
        if case .pairingHandle(let handle)? = held[key] { return handle }
        return nil
    }

    /// Stops holding what `key` names (nothing if it was released already).
    func release(_ key: Key) { held[key] = nil }

    private func store(_ object: Held) -> Key {
        lastNumber += 1
        let key = Key(number: lastNumber)
        held[key] = object
        return key
    }

    // MARK: Observers

    /// Holds `relay`, the SDK observer standing for the adapter's `observer`; `false` (and nothing held) when that
    /// observer already has one of this kind.
    func add(_ relay: AnyObject, standingFor observer: AnyObject, kind: ObserverKind) -> Bool {
        let key = ObserverKey(kind: kind, observer: ObjectIdentifier(observer))
        guard observers[key] == nil else { return false }
        observers[key] = relay
        return true
    }

    /// Stops holding the SDK observer standing for `observer`, and returns it (to be removed from the SDK).
    func removeRelay(standingFor observer: AnyObject, kind: ObserverKind) -> AnyObject? {
        observers.removeValue(forKey: ObserverKey(kind: kind, observer: ObjectIdentifier(observer)))
    }

    // MARK: Inspection

    /// What the registry holds now, by kind: for tests and diagnostics.
    package var contents: Contents {
        var contents = Contents()
        for object in held.values {
            switch object {
            case .paymentHandle: contents.paymentHandles += 1
            case .pairingHandle: contents.pairingHandles += 1
            case .delegate: contents.delegates += 1
            }
        }
        contents.observers = observers.count
        return contents
    }

    /// Counts of what a registry holds.
    package struct Contents: Hashable, Sendable, CustomStringConvertible {
        /// SDK payment handles.
        package var paymentHandles = 0
        /// SDK pairing handles.
        package var pairingHandles = 0
        /// Delegates waiting for their last callback.
        package var delegates = 0
        /// Observers added and not removed.
        package var observers = 0

        /// Whether nothing is held.
        package var isEmpty: Bool { paymentHandles + pairingHandles + delegates + observers == 0 }

        /// `"2 payment handles, 0 pairing handles, 1 delegate, 3 observers"`.
        package var description: String {
            "\(paymentHandles) payment handles, \(pairingHandles) pairing handles, \(delegates) delegates, "
                + "\(observers) observers"
        }
    }
}
#endif
