import Foundation
import StripeTerminalSurface

/// One test at a time may own the process-wide backend slot (``SurfaceBackendSlot`` and `Terminal.shared`): tests in any
/// target that install a backend run their body inside ``run(_:)``, so two suites never race on the slot. Test support.
package enum SurfaceBackendExclusivity {
    /// Runs `body` once every earlier holder has finished; waiting ignores task cancellation.
    package static func run<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        await gate.enter()
        do {
            let result = try await body()
            await gate.leave()
            return result
        } catch {
            await gate.leave()
            throw error
        }
    }

    private static let gate = Gate()

    private actor Gate {
        private var busy = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func enter() async {
            guard busy else {
                busy = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func leave() {
            if waiting.isEmpty {
                busy = false
            } else {
                waiting.removeFirst().resume()
            }
        }
    }
}
