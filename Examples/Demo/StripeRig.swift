import Foundation
import Tender
@_spi(Testing) import TenderStripe
import TenderStripeSimulator
import TenderTesting

/// Stripe Terminal on its simulator, with a simulated M2 reader: the adapter over the simulator, or over the bridge
/// over the SDK's surface mirror whose backend is the same simulator (`--through-sdk-surface`).
struct StripeRig: DemoRig {
    let title = "Stripe Terminal"
    let vendor = "Stripe"
    let simulator: StripeSimulator
    let processor: any PaymentProcessor
    let scope = LedgerScope(merchantID: "acct_demo_stripe", locationID: "tml_demo_shop")
    let path: DemoPath

    var uncapturedRule: String {
        let days = Int(StripeRig.configuration.captureWindow / 86_400)
        return "Stripe releases an uncaptured card-present authorization after \(days) days"
    }

    /// Offline payments on; forwarding step by step (no background forwarding), to show progress.
    static var configuration: Stripe.SimulatorConfiguration {
        var configuration = Stripe.SimulatorConfiguration(offlineEnabled: true)
        configuration.forwardsWhenNetworkReturns = false
        configuration.backgroundForwardingDelay = nil
        // The smart reader at the other counter is registered to the shop's location, and its customers tip 1.50.
        configuration.smartReaderLocationId = "tml_demo_shop"
        configuration.simulatedTipAmount = 150
        return configuration
    }

    init(seed: UInt64, clock: ManualClock, path: DemoPath) async {
        self.path = path
        let client: any StripeClient
        switch path {
        case .direct:
            simulator = StripeSimulator(configuration: Self.configuration, seed: seed, clock: clock)
            client = simulator
        case .sdkSurface:
            // The SDK asks the app's token provider through `Terminal.initWithTokenProvider`; the relay passes the
            // simulator's requests to it.
            let surface = StripeSurface()
            simulator = StripeSimulator(configuration: Self.configuration, seed: seed, clock: clock,
                                        tokenProvider: surface.tokenRelay)
            client = await surface.launch(over: simulator)
        }
        // The simulator's server side stands in for the app's server: capture, void, lookups, refunds.
        processor = StripeProcessor(client: client, captureService: simulator.server, serverLookup: simulator.server,
                                    refundService: simulator.server, configuration: .withSimulatedReaders, clock: clock)
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
        await simulator.configure { $0.simulatedCard = type }
    }

    func forwardOne() async -> Int {
        await simulator.forwardPendingPayments(maxCount: 1)
        return await storedOnDevice()
    }

    func storedOnDevice() async -> Int { await simulator.storedPayments.count }

    func truth() async -> [String: ProcessorTruth] {
        await simulator.runDueWork()
        var truth: [String: ProcessorTruth] = [:]
        var referenceByIntent: [String: String] = [:]
        for charge in await simulator.serverCharges {
            guard let reference = charge.reference else { continue }
            referenceByIntent[charge.paymentIntentId] = reference
            var entry = truth[reference] ?? ProcessorTruth()
            if charge.status == .succeeded, !charge.released {
                entry.acceptedCharges += 1
                entry.amount += Int64(charge.amount)
                entry.captured = charge.captured
            }
            truth[reference] = entry
        }
        // Stripe's own record of an expiry: the intent canceled by Stripe ("automatic") after it was authorized.
        for intent in await simulator.serverIntents where intent.status == .canceled
            && intent.cancellationReason == "automatic" && intent.authorizedCharge != nil {
            guard let id = intent.stripeId, let reference = referenceByIntent[id] else { continue }
            truth[reference, default: ProcessorTruth()].expiredAuthorizations += 1
        }
        for refund in await simulator.serverRefunds {
            guard let reference = referenceByIntent[refund.paymentIntentId] else { continue }
            switch refund.status {
            case .succeeded:
                truth[reference, default: ProcessorTruth()].refunds += 1
                truth[reference, default: ProcessorTruth()].refunded += Int64(refund.amount)
            case .pending, .unknown: truth[reference, default: ProcessorTruth()].pendingRefunds += 1
            case .failed: break
            }
        }
        return truth
    }

    func finish() async {
        if path == .sdkSurface { StripeSurface.finish() }
    }
}
