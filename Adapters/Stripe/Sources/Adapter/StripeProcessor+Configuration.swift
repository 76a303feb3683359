import Foundation
import Tender

extension StripeProcessor.Configuration {
    /// The defaults, with ``simulatedReaders`` on (the simulator, the demo, tests).
    package static var withSimulatedReaders: Self { Self().with { $0.simulatedReaders = true } }

    /// A copy with `change` applied.
    package func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}
