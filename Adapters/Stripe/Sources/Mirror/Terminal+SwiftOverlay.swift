import Foundation

// Stripe's Swift overlay: Swift-only members shipped inside the binary xcframework, in no header and in no jazzy page.
// The reference marks all six `uncertain`: it took their shape from the example app and the CHANGELOG, and their exact
// return types, `Failure` types and default arguments are not published. What was checked for this mirror (search tool:
// repository stripe/stripe-terminal-ios, its Example app and CHANGELOG, Stripe's 5.0 migration guide, and public apps
// built on 5.x) is recorded at each member. Where a source suggests a more permissive spelling than the reference
// (a defaulted argument), the mirror keeps the reference's stricter one: code that compiles here then also compiles
// against the SDK, whichever is true.
//
// Behaviour: each member wraps the SDK's completion-block call (which reaches the ``SurfaceBackend``) and forwards Swift
// task cancellation to its `Cancelable`, which is how CHANGELOG 5.0.0 describes cancelling these calls.
extension Terminal {
    /// The overlay's refinement of `-clearCachedCredentials:`: `.failure` with `unexpectedOperationError` (5008) while a
    /// reader is connected.
    ///
    /// Uncertain (reference): shape from the header comment and CHANGELOG 5.0.0. Checked: public 5.x code calls
    /// `try Terminal.shared.clearCachedCredentials().get()`, consistent with a `Result` whose failure is an `Error`;
    /// other code ignores the result, which does not tell whether it is `@discardableResult` (not assumed here).
    public func clearCachedCredentials() -> Result<Void, Error> {
        Result { try __clearCachedCredentials() }
    }

    /// The overlay's refinement of `-supportsReadersOfType:discoveryMethod:simulated:error:`.
    ///
    /// Uncertain (reference): labels from the example app. Checked: the repository's example app
    /// (`ReaderDiscoveryViewController.swift`; the stored copy predates 5.x) calls
    /// `Terminal.shared.supportsReaders(of:discoveryMethod:simulated:)` and switches on `.success` /
    /// `.failure(let error)`, using `error` as an `Error`; Stripe's React Native SDK matches `.success(_)`. The `Failure`
    /// type itself is not published.
    public func supportsReaders(
        of deviceType: DeviceType, discoveryMethod: DiscoveryMethod, simulated: Bool
    ) -> Result<Void, Error> {
        Result { try __supportsReaders(of: deviceType, discoveryMethod: discoveryMethod, simulated: simulated) }
    }

    /// The overlay's discovery as an async sequence: each element is the full current list of readers. Cancel by
    /// cancelling the consuming task, or by leaving the loop.
    ///
    /// Uncertain (reference): the concrete return type is not published. Checked: several public 5.x apps iterate
    /// `for try await readers in Terminal.shared.discoverReaders(config)` and use `readers.first` / `readers.count`, so
    /// it is a throwing async sequence of `[Reader]`; `AsyncThrowingStream<[Reader], Error>` is the reference's reading.
    public func discoverReaders(_ configuration: any DiscoveryConfiguration) -> AsyncThrowingStream<[Reader], Error> {
        AsyncThrowingStream { continuation in
            let relay = SurfaceDiscoveryRelay(continuation)
            let cancelable = discoverReaders(configuration, delegate: relay) { error in
                relay.finish(error)
            }
            let cancelBox = UncheckedSendableBox(cancelable)
            continuation.onTermination = { termination in
                if case .cancelled = termination {
                    cancelBox.value.cancel { _ in }
                }
            }
        }
    }

    /// The overlay's `async` collect: no `Cancelable`; cancel by cancelling the task (then it throws `canceled`).
    ///
    /// Uncertain (reference): whether `collectConfig` has a default value is not published. Checked: Stripe's 5.0
    /// migration guide calls `try await Terminal.shared.collectPaymentMethod(paymentIntent, collectConfig: collectConfig)`
    /// inside a `Task` it cancels to cancel collection; several public 5.x apps call it with the intent alone, which
    /// suggests a default (or a one-argument overload). Not assumed: callers here pass `collectConfig:` explicitly.
    public func collectPaymentMethod(
        _ paymentIntent: PaymentIntent, collectConfig: CollectPaymentIntentConfiguration?
    ) async throws -> PaymentIntent {
        try await surfaceCancelableAsync("collectPaymentMethod(_:collectConfig:)") { completion in
            collectPaymentMethod(paymentIntent, collectConfig: collectConfig, completion: completion)
        }
    }

    /// The overlay's `async` confirm: throws the completion's ``ConfirmPaymentIntentError``.
    ///
    /// Uncertain (reference). Checked: the example app catches the thrown error `as? ConfirmPaymentIntentError`; Stripe's
    /// 5.0 migration guide and public 5.x apps call `try await Terminal.shared.confirmPaymentIntent(intent)` with no
    /// `confirmConfig`, which again suggests a default or an overload. Not assumed: pass `confirmConfig:` explicitly.
    public func confirmPaymentIntent(
        _ paymentIntent: PaymentIntent, confirmConfig: ConfirmPaymentIntentConfiguration?
    ) async throws -> PaymentIntent {
        try await surfaceCancelableAsync("confirmPaymentIntent(_:confirmConfig:)") { completion in
            confirmPaymentIntent(paymentIntent, confirmConfig: confirmConfig, completion: completion)
        }
    }

    /// The overlay's `async` process (collect and confirm in one call).
    ///
    /// Uncertain (reference): the example app calls it with both configurations. Checked: Stripe's 5.0 migration guide
    /// shows the completion form with `collectConfig:` only (no `confirmConfig:`), which no declaration in the reference
    /// has; not assumed here.
    public func processPaymentIntent(
        _ paymentIntent: PaymentIntent, collectConfig: CollectPaymentIntentConfiguration?,
        confirmConfig: ConfirmPaymentIntentConfiguration?
    ) async throws -> PaymentIntent {
        try await surfaceCancelableAsync("processPaymentIntent(_:collectConfig:confirmConfig:)") { completion in
            processPaymentIntent(
                paymentIntent, collectConfig: collectConfig, confirmConfig: confirmConfig, completion: completion
            )
        }
    }
}

/// The `DiscoveryDelegate` behind the overlay's ``Terminal/discoverReaders(_:)`` stream.
final class SurfaceDiscoveryRelay: NSObject, DiscoveryDelegate {
    private let continuation: AsyncThrowingStream<[Reader], Error>.Continuation

    init(_ continuation: AsyncThrowingStream<[Reader], Error>.Continuation) {
        self.continuation = continuation
    }

    func terminal(_ terminal: Terminal, didUpdateDiscoveredReaders readers: [Reader]) {
        let box = UncheckedSendableBox(readers)
        continuation.yield(box.value)
    }

    /// Discovery stopped: a connection or cancellation (nil) ends the stream, an error fails it.
    func finish(_ error: (any Error)?) {
        if let error {
            continuation.finish(throwing: error)
        } else {
            continuation.finish()
        }
    }
}
