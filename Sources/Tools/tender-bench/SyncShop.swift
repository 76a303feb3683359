import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderTesting

/// The shop of the counted days: Square Mobile Payments on its simulator, the processor that has every operation
/// of the mix (online and offline sales, delayed capture, refunds through the app's server). One simulated device
/// for every day; each day is a new launch of the app (`relaunch()`: the SDK keeps its store, its objects go).
final class SyncShop: Sendable {
    static let seller = SquareSimulator.Seller(
        merchantID: "MLQ_BENCH", accessToken: "EAAA_bench",
        locations: [Square.Location(id: "L_BENCH", name: "Bench Shop", currency: .USD)],
        paymentSettings: Square.PaymentSettings(
            isOfflineProcessingAllowed: true,
            offlineTransactionAmountLimit: Square.Money(amount: 200_00, currency: .USD),
            offlineTotalStoredAmountLimit: Square.Money(amount: 800_00, currency: .USD)))

    /// The shop's own offline risk limits: 150.00 per payment, 500.00 stored, 20 payments, 12 hours.
    static let limits = OfflineRiskLimits(perPaymentMaximum: [.usd: 150_00], storedTotalMaximum: [.usd: 500_00],
                                          storedCountMaximum: 20, oldestStoredAgeMaximum: 12 * 3_600)

    let simulator: SquareSimulator
    let clock: ManualClock
    let scope = LedgerScope(merchantID: "MLQ_BENCH", locationID: "L_BENCH")

    init(clock: ManualClock) {
        self.clock = clock
        simulator = SquareSimulator(sellers: [Self.seller], seed: 11, clock: clock)
    }

    /// A new launch of the app: the SDK relaunched (after the first day), a new adapter, signed in once, observing.
    func launch(firstTime: Bool) async throws -> SquareProcessor {
        if !firstTime { await simulator.relaunch() }
        var settings = SquareProcessor.Configuration()
        settings.simulatedReaders = true
        let server = simulator.server
        let processor = SquareProcessor(client: simulator, captureService: server, serverLookup: server,
                                        refundService: server, configuration: settings, clock: clock)
        if await simulator.state == .notAuthorized {
            try await processor.authorize(accessToken: Self.seller.accessToken, locationID: scope.locationID)
        }
        if firstTime { await simulator.addNearbyReader() }
        await processor.startObserving()
        return processor
    }

    /// Lets Square forward every stored payment (each goes up, then is processed, one step at a time), reading the
    /// queue after each step as an app must (Square reports results only when its queue is read), until the
    /// ledger holds no stored payment.
    func forwardEverything(_ processor: SquareProcessor, terminal: PaymentTerminal) async throws {
        for _ in 0..<500 {
            let moved = await simulator.syncOfflinePayments(maxCount: 1)
            await processor.refreshOfflineQueue()
            _ = await terminal.pollOnce()
            if moved == 0, try await terminal.queueStatus().storedCount == 0 { return }
            clock.advance(by: 5)
        }
        throw BenchError("stored payments were not all forwarded")
    }
}
