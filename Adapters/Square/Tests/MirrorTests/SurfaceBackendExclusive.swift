import SquareMobilePaymentsSurface
import Testing

/// A trait giving each test of a suite exclusive use of the process-wide backend slot (``SurfaceBackendLease``): the
/// bridge's tests install backends too, in the same test process. Each test case waits for the lease (suspending,
/// never blocking a thread) and holds it until it ends.
struct SurfaceBackendExclusive: SuiteTrait, TestTrait, TestScoping {
    /// Applied to every test of the suite.
    var isRecursive: Bool { true }

    /// A scope per test case; none for the suite itself (the lease is not reentrant).
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        try await SurfaceBackendLease.shared.holding { try await function() }
    }
}

extension Trait where Self == SurfaceBackendExclusive {
    /// Exclusive use of the mirror's backend slot for each test.
    static var surfaceBackendExclusive: Self { SurfaceBackendExclusive() }
}
