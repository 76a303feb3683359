import Foundation
public import Tender
public import TenderSquare

extension SquareSimulator {
    /// A simulator for previews and tests: one seller opted in to offline payments (200 USD per payment, 800 USD
    /// stored) at one location, with a reader nearby, ids from `seed`, on the system clock. Authorize with
    /// ``SquareProcessor/authorize(accessToken:locationID:)`` using `accessToken` and `locationID`.
    public static func preview(accessToken: String = "EAAA_preview", locationID: String = "L_PREVIEW",
                               seed: UInt64 = 1) async -> SquareSimulator {
        let seller = Seller(
            merchantID: "M_PREVIEW", accessToken: accessToken,
            locations: [Square.Location(id: locationID, name: "Preview", currency: .USD)],
            paymentSettings: Square.PaymentSettings(
                isOfflineProcessingAllowed: true,
                offlineTransactionAmountLimit: Square.Money(amount: 200_00, currency: .USD),
                offlineTotalStoredAmountLimit: Square.Money(amount: 800_00, currency: .USD)))
        let simulator = SquareSimulator(sellers: [seller], seed: seed, clock: SystemClock())
        _ = await simulator.addNearbyReader()
        return simulator
    }

    /// A ``SquareProcessor`` over this simulator, whose simulated server captures, voids, refunds and looks
    /// payments up. Readers are always simulated (``SquareProcessor/Configuration/simulatedReaders``).
    public nonisolated func makeProcessor(configuration: SquareProcessor.Configuration = SquareProcessor.Configuration(),
                                          clock: any TenderClock = SystemClock()) -> SquareProcessor {
        SquareProcessor(client: self, captureService: server, serverLookup: server, refundService: server,
                        configuration: configuration.with { $0.simulatedReaders = true }, clock: clock)
    }
}
