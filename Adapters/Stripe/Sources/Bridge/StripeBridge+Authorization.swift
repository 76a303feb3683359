#if TENDER_SURFACE_MIRROR
public import StripeTerminalSurface
#elseif StripeTerminalSDK
public import StripeTerminal
#endif

#if StripeTerminalSDK || TENDER_SURFACE_MIRROR
public import Foundation
package import TenderStripe

/// The SDK's `ConnectionTokenProvider` over the app's way of getting a connection token from its server: give it
/// to `Terminal.initWithTokenProvider(_:delegate:offlineDelegate:logLevel:)` once, at launch, before anything reads
/// `Terminal.shared` (the SDK has no way to change the provider afterwards):
/// ```swift
/// Terminal.initWithTokenProvider(StripeBridgeTokenProvider { try await myServer.connectionToken() },
///                                delegate: nil, offlineDelegate: nil, logLevel: .none)
/// ```
/// The SDK asks for a token with the completion form, on any thread (when connecting a reader, and while forwarding
/// offline payments, even when it believes it is offline); this runs the app's `async` provider in a task and answers
/// with its token or its error. An empty token is answered as "nothing" (`(nil, nil)`), which the SDK reports as
/// `connectionTokenProviderCompletedWithNothing` (1510). The token is never logged or kept.
public final class StripeBridgeTokenProvider: NSObject, ConnectionTokenProvider, Sendable {
    private let provider: any Stripe.ConnectionTokenProvider

    /// Wraps the app's provider.
    package init(_ provider: any Stripe.ConnectionTokenProvider) {
        self.provider = provider
        super.init()
    }

    /// Asks `fetch` for each token (the app's server's `POST /v1/terminal/connection_tokens`).
    public convenience init(_ fetch: @escaping @Sendable () async throws -> String) {
        self.init(ClosureTokenProvider(fetch: fetch))
    }

    /// `fetchConnectionToken(_:)`: asks the app's provider and calls `completion` once with its answer.
    public func fetchConnectionToken(_ completion: @escaping ConnectionTokenCompletionBlock) {
        let provider = provider
        let answer = StripeBridgeUnchecked(value: completion)
        Task {
            do {
                let token = try await provider.fetchConnectionToken()
                answer.value(token.isEmpty ? nil : token, nil)
            } catch {
                answer.value(nil, error)
            }
        }
    }
}

/// The app's closure as the adapter's token provider.
private struct ClosureTokenProvider: Stripe.ConnectionTokenProvider {
    let fetch: @Sendable () async throws -> String
    func fetchConnectionToken() async throws -> String { try await fetch() }
}

extension StripeTerminalBridge {
    /// `clearCachedCredentials()` (the SDK's Swift overlay returns a `Result`), on the main actor: for an account
    /// switch. The SDK refuses while a reader is connected (`unexpectedOperationError`, 5008).
    package func clearCachedCredentials() async throws(Stripe.ErrorCode) {
        if let error = await clearOnMain() { throw error }
    }

    @MainActor private func clearOnMain() -> Stripe.ErrorCode? {
        switch terminal.clearCachedCredentials() {
        case .success: nil
        case .failure(let error): StripeBridgeErrors.translate(error, registry: registry)
        }
    }
}
#endif
