import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator

/// Stripe Terminal on its simulator, with a simulated M2 reader.
struct StripeRig: DemoRig {
    let title = "Stripe Terminal"
    let simulator: StripeSimulator
    let processor: any PaymentProcessor
    let scope = LedgerScope(merchantID: "acct_demo_stripe", locationID: "tml_demo_shop")

    init(seed: UInt64, clock: ManualClock) {
        var configuration = Stripe.SimulatorConfiguration(offlineEnabled: true)
        configuration.forwardsWhenNetworkReturns = false  // the demo forwards step by step, to show progress
        configuration.backgroundForwardingDelay = nil
        simulator = StripeSimulator(configuration: configuration, seed: seed, clock: clock)
        // The simulator's server side stands in for the app's server: capture, void, lookups, refunds.
        processor = StripeProcessor(client: simulator, captureService: simulator.server, serverLookup: simulator.server,
                                    refundService: simulator.server, clock: clock, simulatedReaders: true)
    }

    func setNetwork(online: Bool) async {
        await simulator.setSimulatedOfflineMode(online ? .disabled : .offlineImmediate)
    }

    func present(_ card: DemoCard) async {
        let type: Stripe.SimulatedCardType = switch card {
        case .approve: .visa
        case .decline(let reason): reason == "insufficient funds" ? .chargeDeclinedInsufficientFunds : .chargeDeclined
        case .declineWhenForwarded: .chargeDeclinedInsufficientFunds
        }
        await simulator.updateConfiguration { $0.simulatedCard = type }
    }

    func forwardOne() async -> Int {
        await simulator.forwardPendingPayments(maxCount: 1)
        return await storedOnDevice()
    }

    func storedOnDevice() async -> Int { await simulator.storedPayments.count }

    func truth() async -> [String: ProcessorTruth] {
        var truth: [String: ProcessorTruth] = [:]
        for charge in await simulator.serverCharges {
            guard let reference = charge.reference else { continue }
            guard charge.status == .succeeded, !charge.released else {
                truth[reference, default: ProcessorTruth()] = truth[reference] ?? ProcessorTruth()
                continue
            }
            truth[reference, default: ProcessorTruth()].acceptedCharges += 1
            truth[reference, default: ProcessorTruth()].amount += Int64(charge.amount)
            truth[reference, default: ProcessorTruth()].captured = charge.captured
        }
        return truth
    }
}
