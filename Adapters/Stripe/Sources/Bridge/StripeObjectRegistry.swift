// The bridge compiles against the real SDK (the `StripeTerminalSDK` trait) or, in tests, against the surface mirror
// (`TENDER_SURFACE_MIRROR`, defined only by the `TenderStripeTerminalOverSurface` target). The mirror is checked first
// so that a test build with the trait on still compiles the test target against the mirror.
#if TENDER_SURFACE_MIRROR
import StripeTerminalSurface
#elseif StripeTerminalSDK
import StripeTerminal
#endif

#if StripeTerminalSDK || TENDER_SURFACE_MIRROR
import Foundation

/// A value behind a lock: the bridge's only shared mutable state outside the main actor.
final class StripeBridgeLocked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }
}

/// The SDK objects the bridge handed out as values, so that the same object goes back to the SDK.
///
/// The SDK wants its own `PaymentIntent` object back (`collectPaymentMethod`, `confirmPaymentIntent`,
/// `cancelPaymentIntent`), and an intent created offline has no `stripeId` to find it by: every intent object the SDK
/// returns (create, retrieve, collect, confirm, cancel, an error's intent, a forwarding callback's intent) is registered
/// here under an opaque handle, which becomes ``Stripe/PaymentIntent/sdkHandle``. The same object always gets the same
/// handle. Readers are registered by serial number (the last object the SDK reported for each serial).
///
/// The registry lives in memory only: after a relaunch (a new bridge) it is empty, and every handle of an earlier
/// launch is unknown, as the SDK's objects are gone. Handles carry a per-bridge prefix, so an old handle can never
/// name a new object. Recovery never depends on the registry: the adapter finds earlier intents on Stripe's server and
/// asks the SDK for a fresh object (`retrievePaymentIntent(clientSecret:)`).
///
/// At most ``capacity`` intent objects are kept; the least recently used are forgotten first (a forgotten handle is
/// refused like one from an earlier launch). SDK objects are not `Sendable`: they are stored and returned under the
/// lock, and passed back to the SDK only on the main actor.
final class StripeObjectRegistry: @unchecked Sendable {
    private struct State {
        var counter: UInt64 = 0
        var intents: [String: PaymentIntent] = [:]
        var handles: [ObjectIdentifier: String] = [:]
        /// Handles from least to most recently used.
        var recency: [String] = []
        var readers: [String: Reader] = [:]
    }

    /// How many intent objects are kept at most.
    let capacity: Int
    /// This registry's handle prefix: handles of another bridge (an earlier launch) never match.
    let prefix: String
    private let state = StripeBridgeLocked(State())

    init(capacity: Int = 512, prefix: String = "scp-" + UUID().uuidString.prefix(8).lowercased()) {
        self.capacity = max(1, capacity)
        self.prefix = prefix
    }

    // MARK: Payment intents

    /// The handle of `intent`, registering it first if the registry has not seen this object.
    func handle(for intent: PaymentIntent) -> String {
        state.withLock { state in
            let id = ObjectIdentifier(intent)
            if let known = state.handles[id] {
                Self.touch(known, in: &state)
                return known
            }
            state.counter += 1
            let handle = "\(prefix)-pi-\(state.counter)"
            state.intents[handle] = intent
            state.handles[id] = handle
            state.recency.append(handle)
            while state.recency.count > capacity {
                let evicted = state.recency.removeFirst()
                if let object = state.intents.removeValue(forKey: evicted) {
                    state.handles[ObjectIdentifier(object)] = nil
                }
            }
            return handle
        }
    }

    /// The object registered under `handle`, or nil (a server copy, another launch's handle, or forgotten).
    func intent(for handle: String?) -> PaymentIntent? {
        guard let handle else { return nil }
        return state.withLock { state in
            guard let object = state.intents[handle] else { return nil }
            Self.touch(handle, in: &state)
            return object
        }
    }

    /// How many intent objects are registered.
    var intentCount: Int { state.withLock { $0.intents.count } }

    private static func touch(_ handle: String, in state: inout State) {
        if let index = state.recency.lastIndex(of: handle), index != state.recency.count - 1 {
            state.recency.remove(at: index)
            state.recency.append(handle)
        }
    }

    // MARK: Readers

    /// Remembers the SDK's object for a reader, by serial number (the latest object wins).
    func register(_ reader: Reader) {
        state.withLock { $0.readers[reader.serialNumber] = reader }
    }

    /// The SDK's last object for the reader with this serial number.
    func reader(serialNumber: String) -> Reader? {
        state.withLock { $0.readers[serialNumber] }
    }

    /// Forgets every object: what a relaunch does to the SDK's objects.
    func removeAll() {
        state.withLock { $0 = State(counter: $0.counter) }
    }
}
#endif
