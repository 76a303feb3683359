import Foundation

// Internal helpers for what Swift's importer and Stripe's Swift overlay do on iOS: turning completion blocks into
// `async` functions, forwarding task cancellation to a `Cancelable`, and running an `async` protocol requirement behind
// its completion-block twin. The SDK's objects are not `Sendable` (Objective-C classes never are), exactly as on iOS;
// these helpers carry them across the continuation and task boundaries that the compiler-generated code crosses.

/// Carries a non-`Sendable` SDK object across a concurrency boundary where, as in the SDK, only one side uses it at a
/// time.
package struct UncheckedSendableBox<Value>: @unchecked Sendable {
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }
}

/// A value behind a lock.
package final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// The `async throws` form Swift imports for a method whose completion block is `(Value?, Error?) -> Void`: throws the
/// error if there is one, else returns the value. Like the compiler-generated code, it treats (nil, nil) as a broken
/// contract.
func surfaceAsync<Value, Failure: Error>(
    _ member: String, _ start: (@escaping (Value?, Failure?) -> Void) -> Void
) async throws -> Value {
    let box: UncheckedSendableBox<Value> = try await withUnsafeThrowingContinuation { continuation in
        start { value, error in
            if let error {
                continuation.resume(throwing: error)
            } else if let value {
                continuation.resume(returning: UncheckedSendableBox(value))
            } else {
                preconditionFailure("StripeTerminalSurface: \(member) completed with neither a value nor an error")
            }
        }
    }
    return box.value
}

/// The `async throws` form Swift imports for a method whose completion block is `(Error?) -> Void`.
func surfaceAsync(_ start: (@escaping ((any Error)?) -> Void) -> Void) async throws {
    try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        start { error in
            if let error {
                continuation.resume(throwing: error)
            } else {
                continuation.resume()
            }
        }
    }
}

/// Forwards the cancellation of the Swift task running an overlay `async` call to the operation's `Cancelable`, whichever
/// of the two (cancellation, or the `Cancelable` arriving) comes first.
final class SurfaceCancellationRelay: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelable: Cancelable?
    private var cancelRequested = false

    /// The operation started; cancels it at once if the task was canceled meanwhile.
    func started(_ cancelable: Cancelable?) {
        lock.lock()
        self.cancelable = cancelable
        let cancelNow = cancelRequested
        lock.unlock()
        if cancelNow { cancelable?.cancel { _ in } }
    }

    /// The task was canceled. The operation's own completion reports the outcome (`ErrorCode.canceled`, or the result
    /// if it finished first), so the cancel completion is not needed.
    func cancel() {
        lock.lock()
        cancelRequested = true
        let cancelable = self.cancelable
        lock.unlock()
        cancelable?.cancel { _ in }
    }
}

/// An `async` overlay call over a `Cancelable`-returning completion method, canceled through the `Cancelable` when the
/// task is canceled (CHANGELOG 5.0.0: "cancel by canceling the Task").
func surfaceCancelableAsync<Value, Failure: Error>(
    _ member: String, _ start: (@escaping (Value?, Failure?) -> Void) -> Cancelable?
) async throws -> Value {
    let relay = SurfaceCancellationRelay()
    return try await withTaskCancellationHandler {
        try await surfaceAsync(member) { completion in
            relay.started(start(completion))
        }
    } onCancel: {
        relay.cancel()
    }
}

/// Which default implementations of a protocol's completion-block / `async` requirement pair are running, so that the
/// `async` default can tell "called by the completion default of the same object" (the conformer implements neither
/// form) from a direct call.
enum SurfaceRequirementDefaults {
    struct Key: Hashable, Sendable {
        let object: ObjectIdentifier
        let requirement: String
    }

    @TaskLocal static var running: Set<Key> = []

    /// Runs `operation` (the `async` requirement) in a new task, marked as reached from the completion default.
    static func runAsyncRequirement(
        of object: AnyObject, requirement: String, _ operation: @escaping @Sendable () async -> Void
    ) {
        let key = Key(object: ObjectIdentifier(object), requirement: requirement)
        $running.withValue(running.union([key])) {
            Task { await operation() }
        }
    }

    /// True when the completion default of `object` for `requirement` started this task: neither form is implemented.
    static func reachedFromCompletionDefault(_ object: AnyObject, requirement: String) -> Bool {
        running.contains(Key(object: ObjectIdentifier(object), requirement: requirement))
    }
}

/// Thrown to an optional `async` delegate requirement's caller when the delegate implements neither of its two forms:
/// the backend's stand-in for the SDK's `respondsToSelector:` check failing. Not public API.
package struct SurfaceOptionalRequirementNotImplemented: Error {
    /// The requirement, e.g. `reader(_:didRequestQrCodeDisplay:qrData:completion:)`.
    package let requirement: String
}
