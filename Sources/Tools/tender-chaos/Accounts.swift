import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator
import TenderTesting

/// The fixed accounts and settings every life of the harness uses.
enum Accounts {
    static let stripeScope = LedgerScope(merchantID: "acct_chaos_stripe", locationID: "tml_chaos")
    static let squareScope = LedgerScope(merchantID: "MLQ_CHAOS", locationID: "L_CHAOS")
    static let squareToken = "EAAA_chaos"

    static let seller = SquareSimulator.Seller(
        merchantID: "MLQ_CHAOS", accessToken: squareToken,
        locations: [Square.Location(id: "L_CHAOS", name: "Chaos Shop", currency: .USD)],
        paymentSettings: Square.PaymentSettings(
            isOfflineProcessingAllowed: true,
            offlineTransactionAmountLimit: Square.Money(amount: 200_00, currency: .USD),
            offlineTotalStoredAmountLimit: Square.Money(amount: 100_000_000, currency: .USD)))

    /// Stripe's simulator: offline enabled, forwarding driven step by step, lost answers after a charge on timeouts,
    /// and the life's search lag.
    static func stripeConfiguration(searchLag: Double) -> Stripe.SimulatorConfiguration {
        var configuration = Stripe.SimulatorConfiguration(offlineEnabled: true)
        configuration.forwardsWhenNetworkReturns = false
        configuration.backgroundForwardingDelay = nil
        configuration.timeoutOutcome = .processedResponseLost
        configuration.searchLag = searchLag
        return configuration
    }

    static var squareConfiguration: SquareSimulator.Configuration {
        var configuration = SquareSimulator.Configuration()
        configuration.deviceOfflinePaymentCap = 100_000
        return configuration
    }

    /// Square's adapter: simulated readers, the device cap the simulator uses, its default consistency window.
    static var squareAdapterConfiguration: SquareProcessor.Configuration {
        var configuration = SquareProcessor.Configuration()
        configuration.simulatedReaders = true
        configuration.deviceOfflinePaymentCap = 100_000
        return configuration
    }

    /// The app's own offline limits (the processors' are merged in by the facade).
    static let limits = OfflineRiskLimits.single(perPayment: Money(minorUnits: 150_00, currency: .usd),
                                                 storedTotal: Money(minorUnits: 100_000_000, currency: .usd))

    /// Simulated time at the start of everything (1 Jan 2026).
    static let epoch = Date(timeIntervalSince1970: 1_767_225_600)
}

/// How long each simulated search lags in one life. Every life of the kill test draws both, never zero, and below
/// the adapters' consistency windows (the window is each adapter's contract with its vendor's search: Stripe
/// documents "up to about a minute"; Square's figure is unverified and the adapter's default is a minute).
struct SearchLags: Sendable {
    var stripe: Double
    var square: Double

    /// The simulators' defaults (Stripe 2 s, Square 5 s): the in-process tests.
    static let defaults = SearchLags(stripe: 2, square: 5)
    /// The most a life draws.
    static let maximum: Double = 45

    /// A seeded draw between 0.5 s and ``maximum``.
    static func drawn(_ random: inout SeededGenerator) -> SearchLags {
        func one() -> Double { 0.5 + Double(random.next() % 10_000) / 10_000 * (maximum - 0.5) }
        let stripe = one()
        return SearchLags(stripe: stripe, square: one())
    }

    var longest: Double { max(stripe, square) }
}

extension SeededGenerator {
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func chance(_ probability: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < probability }
}
