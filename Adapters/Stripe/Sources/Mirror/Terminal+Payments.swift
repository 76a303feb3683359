import Foundation

// Payment intents: the completion-block forms the SDK declares, and the `async` forms Swift imports for the `void` ones.
// `collectPaymentMethod`, `confirmPaymentIntent` and `processPaymentIntent` return a `Cancelable?`, so Swift imports no
// `async` form for them; the overlay's `async` forms are in Terminal+SwiftOverlay.swift.
extension Terminal {
    /// `-createPaymentIntent:completion:`.
    public func createPaymentIntent(
        _ parameters: PaymentIntentParameters, completion: @escaping PaymentIntentCompletionBlock
    ) {
        backend.createPaymentIntent(self, parameters: parameters, createConfig: nil, completion: completion)
    }

    /// `-createPaymentIntent:completion:` as Swift imports it `async`.
    public func createPaymentIntent(_ parameters: PaymentIntentParameters) async throws -> PaymentIntent {
        try await surfaceAsync("createPaymentIntent(_:)") { completion in
            createPaymentIntent(parameters, completion: completion)
        }
    }

    /// `-createPaymentIntent:createConfig:completion:`. `createConfig.offlineBehavior` chooses online or offline.
    public func createPaymentIntent(
        _ parameters: PaymentIntentParameters, createConfig: CreateConfiguration?,
        completion: @escaping PaymentIntentCompletionBlock
    ) {
        backend.createPaymentIntent(self, parameters: parameters, createConfig: createConfig, completion: completion)
    }

    /// `-createPaymentIntent:createConfig:completion:` as Swift imports it `async`.
    public func createPaymentIntent(
        _ parameters: PaymentIntentParameters, createConfig: CreateConfiguration?
    ) async throws -> PaymentIntent {
        try await surfaceAsync("createPaymentIntent(_:createConfig:)") { completion in
            createPaymentIntent(parameters, createConfig: createConfig, completion: completion)
        }
    }

    /// `-retrievePaymentIntent:completion:`: an intent created on the server, by its client secret.
    public func retrievePaymentIntent(clientSecret: String, completion: @escaping PaymentIntentCompletionBlock) {
        backend.retrievePaymentIntent(self, clientSecret: clientSecret, completion: completion)
    }

    /// `-retrievePaymentIntent:completion:` as Swift imports it `async`.
    public func retrievePaymentIntent(clientSecret: String) async throws -> PaymentIntent {
        try await surfaceAsync("retrievePaymentIntent(clientSecret:)") { completion in
            retrievePaymentIntent(clientSecret: clientSecret, completion: completion)
        }
    }

    /// `-collectPaymentMethod:completion:`. On success the intent is `requiresConfirmation`; cancellation completes
    /// with `ErrorCode.canceled`.
    @discardableResult
    public func collectPaymentMethod(
        _ paymentIntent: PaymentIntent, completion: @escaping PaymentIntentCompletionBlock
    ) -> Cancelable? {
        backend.collectPaymentMethod(self, paymentIntent: paymentIntent, collectConfig: nil, completion: completion)
    }

    /// `-collectPaymentMethod:collectConfig:completion:`.
    @discardableResult
    public func collectPaymentMethod(
        _ paymentIntent: PaymentIntent, collectConfig: CollectPaymentIntentConfiguration?,
        completion: @escaping PaymentIntentCompletionBlock
    ) -> Cancelable? {
        backend.collectPaymentMethod(
            self, paymentIntent: paymentIntent, collectConfig: collectConfig, completion: completion
        )
    }

    /// `-confirmPaymentIntent:completion:`. On failure the ``ConfirmPaymentIntentError``'s `paymentIntent` tells what
    /// to do: nil (timed out, outcome unknown: confirm the same intent again), `requiresConfirmation` (confirm again),
    /// `requiresPaymentMethod` (collect again).
    @discardableResult
    public func confirmPaymentIntent(
        _ paymentIntent: PaymentIntent, completion: @escaping ConfirmPaymentIntentCompletionBlock
    ) -> Cancelable? {
        backend.confirmPaymentIntent(self, paymentIntent: paymentIntent, confirmConfig: nil, completion: completion)
    }

    /// `-confirmPaymentIntent:confirmConfig:completion:`.
    @discardableResult
    public func confirmPaymentIntent(
        _ paymentIntent: PaymentIntent, confirmConfig: ConfirmPaymentIntentConfiguration?,
        completion: @escaping ConfirmPaymentIntentCompletionBlock
    ) -> Cancelable? {
        backend.confirmPaymentIntent(
            self, paymentIntent: paymentIntent, confirmConfig: confirmConfig, completion: completion
        )
    }

    /// `-processPaymentIntent:collectConfig:confirmConfig:completion:` (5.0): collect and confirm in one call. Its
    /// completion gets a plain `Error`, not ``ConfirmPaymentIntentError``.
    @discardableResult
    public func processPaymentIntent(
        _ paymentIntent: PaymentIntent, collectConfig: CollectPaymentIntentConfiguration?,
        confirmConfig: ConfirmPaymentIntentConfiguration?, completion: @escaping PaymentIntentCompletionBlock
    ) -> Cancelable? {
        backend.processPaymentIntent(
            self, paymentIntent: paymentIntent, collectConfig: collectConfig, confirmConfig: confirmConfig,
            completion: completion
        )
    }

    /// `-cancelPaymentIntent:completion:`. On success the intent is `canceled`.
    public func cancelPaymentIntent(_ paymentIntent: PaymentIntent, completion: @escaping PaymentIntentCompletionBlock) {
        backend.cancelPaymentIntent(self, paymentIntent: paymentIntent, completion: completion)
    }

    /// `-cancelPaymentIntent:completion:` as Swift imports it `async`.
    public func cancelPaymentIntent(_ paymentIntent: PaymentIntent) async throws -> PaymentIntent {
        try await surfaceAsync("cancelPaymentIntent(_:)") { completion in
            cancelPaymentIntent(paymentIntent, completion: completion)
        }
    }
}
