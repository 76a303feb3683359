import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator

/// Square Mobile Payments on its simulator: one seller opted in to offline, one contactless-and-chip reader.
struct SquareRig: DemoRig {
    let title = "Square Mobile Payments"
    let simulator: SquareSimulator
    let square: SquareProcessor
    var processor: any PaymentProcessor { square }
    let scope = LedgerScope(merchantID: "MLQ_DEMO", locationID: "L_DEMO_SHOP")

    static let seller = SquareSimulator.Seller(
        merchantID: "MLQ_DEMO", accessToken: "EAAA_demo",
        locations: [Square.Location(id: "L_DEMO_SHOP", name: "Demo Shop", currency: .USD)],
        paymentSettings: Square.PaymentSettings(
            isOfflineProcessingAllowed: true,
            offlineTransactionAmountLimit: Square.Money(amount: 200_00, currency: .USD),
            offlineTotalStoredAmountLimit: Square.Money(amount: 800_00, currency: .USD)))

    init(seed: UInt64, clock: ManualClock) async throws {
        simulator = SquareSimulator(sellers: [Self.seller], seed: seed, clock: clock)
        var settings = SquareProcessor.Configuration()
        settings.readersAreSimulated = true
        square = SquareProcessor(client: simulator, captureService: simulator.server, lookup: simulator.server,
                                 refundService: simulator.server, configuration: settings, clock: clock)
        try await square.authorize(accessToken: Self.seller.accessToken, locationID: "L_DEMO_SHOP")
        await square.startObserving()
        await simulator.addNearbyReader()
    }

    func setNetwork(online: Bool) async { await simulator.setNetwork(online ? .online : .offline) }

    func present(_ card: DemoCard) async {
        let simulated: SquareSimulator.SimulatedCard = switch card {
        case .approve: .visaChip
        case .decline(let reason): reason == "insufficient funds" ? .insufficientFunds : .declined
        case .declineWhenForwarded: .insufficientFunds
        }
        await simulator.setPresentedCard(simulated)
    }

    func forwardOne() async -> Int {
        _ = await simulator.syncOfflinePayments(maxCount: 1)
        await square.refreshOfflineQueue()  // Square reports results only when the queue is read
        return await storedOnDevice()
    }

    func storedOnDevice() async -> Int {
        await simulator.devicePayments.filter { $0.payment.status == .queued || $0.payment.status == .uploaded }.count
    }

    func truth() async -> [String: ProcessorTruth] {
        var truth: [String: ProcessorTruth] = [:]
        for payment in await simulator.serverPayments {
            // Every vendor payment (attempt) of a reference counts: `ref`, `ref#2`… share its referenceID.
            let reference = payment.referenceID ?? payment.paymentAttemptID
            var entry = truth[reference] ?? ProcessorTruth()
            if payment.status == .approved || payment.status == .completed {
                entry.acceptedCharges += 1
                entry.amount += Int64(payment.amountMoney.amount) + Int64(payment.tipMoney?.amount ?? 0)
                entry.captured = payment.status == .completed
            }
            truth[reference] = entry
        }
        return truth
    }
}
