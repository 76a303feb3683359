import Foundation

/// `SCPConnectionTokenProvider`: the app fetches a connection token from its backend when the SDK asks.
///
/// Swift imports the `@objc` protocol with one requirement in two forms, and a conformer implements either one (the
/// compiler checks that at least one is there). Deviation: Swift source cannot say "either", so both forms are
/// requirements here, each with a default implementation that runs the other. A conformer that implements neither
/// compiles here but not on iOS, and stops with a `preconditionFailure` when the backend first asks it for a token.
/// `AnyObject` stands for the `@objc` class-bound protocol that the SDK's declaration imports as.
public protocol ConnectionTokenProvider: AnyObject {
    /// `-fetchConnectionToken:`. Call the completion with a token or an error; (nil, nil) is reported by the SDK as
    /// `connectionTokenProviderCompletedWithNothing` (1510). The backend always calls this form, as the SDK does.
    func fetchConnectionToken(_ completion: @escaping ConnectionTokenCompletionBlock)

    /// `-fetchConnectionToken:` as Swift imports it `async`.
    func fetchConnectionToken() async throws -> String
}

extension ConnectionTokenProvider {
    /// Stands for the requirement being satisfied by the `async` form alone: runs it in a task and reports its outcome.
    public func fetchConnectionToken(_ completion: @escaping ConnectionTokenCompletionBlock) {
        let provider = UncheckedSendableBox(self as any ConnectionTokenProvider)
        let completion = UncheckedSendableBox(completion)
        SurfaceRequirementDefaults.runAsyncRequirement(of: self, requirement: "fetchConnectionToken") {
            do {
                let token = try await provider.value.fetchConnectionToken()
                completion.value(token, nil)
            } catch {
                completion.value(nil, error)
            }
        }
    }

    /// Stands for the requirement being satisfied by the completion form alone: runs it and awaits its completion.
    public func fetchConnectionToken() async throws -> String {
        if SurfaceRequirementDefaults.reachedFromCompletionDefault(self, requirement: "fetchConnectionToken") {
            preconditionFailure(
                "StripeTerminalSurface: \(type(of: self)) implements neither form of fetchConnectionToken (a compile error on iOS)"
            )
        }
        let provider = UncheckedSendableBox(self as any ConnectionTokenProvider)
        let box: UncheckedSendableBox<String?> = try await withUnsafeThrowingContinuation { continuation in
            provider.value.fetchConnectionToken { token, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: UncheckedSendableBox(token))
                }
            }
        }
        // The SDK turns (nil, nil) into its own error; the Swift import would trap on it. The mirror reports it as the
        // SDK's code so the backend sees what the SDK would.
        guard let token = box.value else { throw ErrorCode(.connectionTokenProviderCompletedWithNothing) }
        return token
    }
}
