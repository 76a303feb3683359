import Foundation
public import Tender
public import TenderStripe

extension StripeSimulator {
    /// A simulator for previews and tests: a Stripe account with offline mode on and simulated readers nearby, ids
    /// from `seed`, on the system clock.
    public static func preview(seed: UInt64 = 1) async -> StripeSimulator {
        StripeSimulator(seed: seed, clock: SystemClock())
    }

    /// A ``StripeProcessor`` over this simulator, whose simulated server captures, voids, refunds and looks
    /// payments up. Readers are always simulated (``StripeProcessor/Configuration/simulatedReaders``).
    public nonisolated func makeProcessor(configuration: StripeProcessor.Configuration = StripeProcessor.Configuration(),
                                          clock: any TenderClock = SystemClock()) -> StripeProcessor {
        StripeProcessor(client: self, captureService: server, serverLookup: server, refundService: server,
                        configuration: configuration.with { $0.simulatedReaders = true }, clock: clock)
    }
}
