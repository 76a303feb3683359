import StripeTerminalSurface
import StripeTerminalSurfaceBackend
import Testing

/// Runs each test of the suite it marks while holding the process-wide backend slot (``SurfaceBackendExclusivity``):
/// suites in other test targets that install a backend (the Stripe bridge's) never race with these.
struct ExclusiveSurfaceBackend: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        try await SurfaceBackendExclusivity.run { try await function() }
    }
}

extension Trait where Self == ExclusiveSurfaceBackend {
    /// Holds the process-wide backend slot for each test.
    static var exclusiveSurfaceBackend: Self { Self() }
}
