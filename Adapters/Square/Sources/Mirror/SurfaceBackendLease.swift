import Foundation

/// Exclusive use of the process-wide ``SurfaceBackendSlot``, for tests.
///
/// The slot holds one backend for the whole process, and every test target of the package runs in one test process:
/// a test that installs a backend must hold the lease from before it installs until after it uninstalls, or another
/// test (in any target) could replace or remove its backend mid-way. Waiting for the lease suspends; it never blocks
/// a thread. Holders are served in arrival order. Not part of Square's API (`package`).
package final class SurfaceBackendLease: @unchecked Sendable {
    /// The lease of the process's slot.
    package static let shared = SurfaceBackendLease()

    private let lock = NSLock()
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    private init() {}

    /// Runs `body` holding the lease, then gives it to the next waiter.
    package func holding<T>(isolation: isolated (any Actor)? = #isolation,
                            _ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if held {
                waiting.append(continuation)
                lock.unlock()
            } else {
                held = true
                lock.unlock()
                continuation.resume()
            }
        }
    }

    private func release() {
        lock.lock()
        guard !waiting.isEmpty else {
            held = false
            lock.unlock()
            return
        }
        let next = waiting.removeFirst()
        lock.unlock()
        next.resume()
    }
}
