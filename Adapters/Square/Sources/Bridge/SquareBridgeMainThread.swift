#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import Foundation

/// Square's thread rule: the SDK is called on the main thread, and calls its delegates, observers and completion
/// handlers there. The bridge's `async` members hop to the main actor before touching an SDK object; this helper is
/// for the other direction, the SDK calling the bridge.
///
/// ``deliver(_:_:)`` runs a callback body on the main actor with the SDK object it received: at once when the SDK
/// called on the main thread (as Square does: the body then runs before the SDK call returns, keeping Square's order
/// of callbacks and returns), otherwise queued to the main queue. Nothing here blocks.
enum SquareMainThread {
    /// Marks the main queue, so that code running on it is recognised where the main queue is not served by the
    /// process's first thread (Linux test runners).
    private static let mainQueueKey: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Whether the caller runs on the main thread (or the main queue), where the main actor runs.
    static var isMain: Bool {
        #if canImport(Darwin)
        if Thread.isMainThread { return true }
        #endif
        return DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    /// Marks the main queue now (called when a bridge is created, on the main actor).
    static func prepare() { _ = mainQueueKey }

    /// Runs `body` on the main actor with `object`, at once when already there, otherwise on the main queue.
    /// `object` is an SDK object (not `Sendable`): it only ever moves to the main thread, where Square's objects are
    /// read.
    static func deliver<Object>(_ object: Object, _ body: @escaping @MainActor @Sendable (Object) -> Void) {
        let box = UncheckedTransfer(object)
        if isMain {
            MainActor.assumeIsolated { body(box.value) }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { body(box.value) } }
        }
    }

    /// Runs `body` on the main actor: at once when already there, otherwise on the main queue.
    static func run(_ body: @escaping @MainActor @Sendable () -> Void) {
        deliver(()) { _ in body() }
    }
}

/// An SDK object handed from the thread Square called on to the main thread, where it is read. Square's objects are
/// not `Sendable`; this box is how the bridge says that it only moves them to the main thread.
struct UncheckedTransfer<Value>: @unchecked Sendable {
    /// The object.
    let value: Value
    /// Boxes `value`.
    init(_ value: Value) { self.value = value }
}

/// Opened by a delegate's last callback; the bridge waits on it, for a bounded time, after a start call returned `nil`
/// (Square says the delegate is told why a payment or a pairing did not start, not whether before or after the call
/// returns). Main actor only; waiting does not block the main thread.
@MainActor
final class SquareCallbackLatch {
    /// Whether the last callback arrived.
    private(set) var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// A closed latch.
    nonisolated init() {}

    /// The last callback arrived: wakes the waiter.
    func open() {
        isOpen = true
        resumeWaiters()
    }

    /// Returns once the latch is open, or after `seconds` (then ``isOpen`` is still `false`). Not cancellable: the
    /// SDK's answer is what is awaited.
    func wait(seconds: TimeInterval) async {
        guard !isOpen else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            waiters.append(continuation)
            DispatchQueue.main.asyncAfter(deadline: .now() + seconds) {
                MainActor.assumeIsolated { self.resumeWaiters() }
            }
        }
    }

    private func resumeWaiters() {
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume() }
    }
}
#endif
