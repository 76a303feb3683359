import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderTesting

/// Square Mobile Payments on its simulator: one seller opted in to offline, one contactless-and-chip reader. The
/// adapter over the simulator, or over the bridge over the SDK's surface mirror whose backend is the same simulator
/// (`--through-sdk-surface`).
struct SquareRig: DemoRig {
    let title = "Square Mobile Payments"
    let vendor = "Square"
    let simulator: SquareSimulator
    let square: SquareProcessor
    var processor: any PaymentProcessor { square }
    let scope = LedgerScope(merchantID: "MLQ_DEMO", locationID: "L_DEMO_SHOP")
    let path: DemoPath

    static let seller = SquareSimulator.Seller(
        merchantID: "MLQ_DEMO", accessToken: "EAAA_demo",
        locations: [Square.Location(id: "L_DEMO_SHOP", name: "Demo Shop", currency: .USD)],
        paymentSettings: Square.PaymentSettings(
            isOfflineProcessingAllowed: true,
            offlineTransactionAmountLimit: Square.Money(amount: 200_00, currency: .USD),
            offlineTotalStoredAmountLimit: Square.Money(amount: 800_00, currency: .USD)))

    /// The shop's delayed capture: Square completes (captures) a manual-capture payment nobody captured or voided
    /// 12 hours after it was taken (`delay_action` COMPLETE, `delay_duration` PT12H; Square's default is CANCEL after
    /// 36 hours card-present).
    static var settings: SquareProcessor.Configuration {
        var settings = SquareProcessor.Configuration()
        settings.simulatedReaders = true
        settings.delayDuration = 12 * 3_600
        settings.delayAction = .complete
        return settings
    }

    var uncapturedRule: String {
        let hours = Int(Self.settings.delayDuration / 3_600)
        return "Square applies the payment's delay_action (\(Self.settings.delayAction.rawValue.uppercased())) "
            + "when its delay_duration (\(hours) hours) ends"
    }

    init(seed: UInt64, clock: ManualClock, path: DemoPath) async throws {
        self.path = path
        simulator = SquareSimulator(sellers: [Self.seller], seed: seed, clock: clock)
        var settings = Self.settings
        let client: any SquareClient
        switch path {
        case .direct:
            client = simulator
        case .sdkSurface:
            let surface = await SquareSurface.launch(over: simulator, clock: clock)
            client = surface.bridge
            settings.presentation = surface.presentation
        }
        // The simulator's server side stands in for the app's server: capture, void, lookups, refunds.
        square = SquareProcessor(client: client, captureService: simulator.server, serverLookup: simulator.server,
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
        var referenceByPayment: [String: String] = [:]
        for payment in await simulator.serverPayments {
            // Every vendor payment (attempt) of a reference counts: `ref`, `ref#2`… share its referenceID.
            let reference = payment.referenceID ?? payment.paymentAttemptID
            referenceByPayment[payment.id] = reference
            var entry = truth[reference] ?? ProcessorTruth()
            if payment.status == .approved || payment.status == .completed {
                entry.acceptedCharges += 1
                entry.amount += Int64(payment.amountMoney.amount) + Int64(payment.tipMoney?.amount ?? 0)
                entry.captured = payment.status == .completed
            }
            // Square's own record of its delay: the status it took at `delayed_until`.
            if let until = payment.delayedUntil, payment.revisions.last?.at == until {
                if payment.status == .completed, payment.delayAction == .complete { entry.completedByProcessor += 1 }
                if payment.status == .canceled, payment.delayAction == .cancel { entry.expiredAuthorizations += 1 }
            }
            truth[reference] = entry
        }
        for refund in await simulator.serverRefunds {
            guard let reference = referenceByPayment[refund.paymentID] else { continue }
            switch refund.status {
            case .completed:
                truth[reference, default: ProcessorTruth()].refunds += 1
                truth[reference, default: ProcessorTruth()].refunded += Int64(refund.amountMoney.amount)
            case .pending: truth[reference, default: ProcessorTruth()].pendingRefunds += 1
            case .rejected, .failed: break
            }
        }
        return truth
    }

    func finish() async {
        if path == .sdkSurface { SquareSurface.finish() }
    }
}
