import Testing
import TenderTestKit
import HouseAccountAdapter
import Tender
import TenderTesting

/// The template adapter as a conformance subject: one account with a generous line, and a second, tiny one that
/// makes "decline" cards decline.
struct HouseAccountSubject: ConformanceSubject {
    let name = "house"

    final class Environment: ConformanceEnvironment, @unchecked Sendable {
        let simulator: HouseAccountSimulator
        let manualClock: ManualClock
        var clock: any TenderClock { manualClock }
        private let current: Locked<HouseAccountProcessor>
        var house: HouseAccountProcessor { current.current }
        var processor: any PaymentProcessor { house }
        let locationID = "shop-1"
        let supportsOffline = true

        init() {
            manualClock = ManualClock()
            let clock = manualClock
            simulator = HouseAccountSimulator(creditLines: ["alice": 1_000_000, "bob": 1, "carol": 1_000_000],
                                              clock: clock)
            current = Locked(HouseAccountProcessor(client: simulator, account: "alice", clock: clock))
        }

        func setNetwork(online: Bool) async {
            await simulator.setReachable(online)
            await house.reportNetwork()
        }
        func presentNextCard(_ card: ConformanceCard) async {
            switch card {
            case .approve: house.chargeNextPaymentTo(account: "alice")
            case .decline: house.chargeNextPaymentTo(account: "bob")            // a 1-cent line
            case .declineWhenForwarded:
                house.chargeNextPaymentTo(account: "carol")
                await simulator.setCreditLine("carol", 1)                          // judged only when sent
            }
        }
        func forwardStoredPayments() async { await house.forwardHeldCharges() }
        func charges(reference: String) async -> Int {
            await simulator.acceptedCharges(reference: reference)
        }
        func captured(reference: String) async -> Int64? {
            await simulator.settledAmount(reference: reference)
        }
        func inject(_ fault: ConformanceFault) async {
            switch fault {
            case .confirmNotReceived: await simulator.inject(.confirmNotReceived)
            case .answerLostAfterCharge: await simulator.inject(.answerLostAfterCharge)
            case .searchLag(let seconds): await simulator.setSearchLag(seconds: seconds)
            case .holdNextCard: await simulator.holdCard()
            case .holdNextAuthorization: await simulator.holdCharge()
            }
        }
        /// A house account's "reader" is its server: it has no software to update, no Tap to Pay and no local
        /// network to lose.
        func injectReaderFault(_ fault: ReaderFault) async -> ConformanceSupport? {
            .unsupported("a house account has no reader hardware (its reader is the server)")
        }
        /// House accounts take no refunds (the template's processor reports `supportsRefunds` false).
        func failNextRefundAfterSuccess(after seconds: Double) async -> ConformanceSupport? {
            .unsupported("house accounts take no refunds")
        }
        /// The house-account server knows no locations: a second shop of the same business uses it as it is.
        func moveToAnotherLocation() async throws -> ConformanceLocation? { .moved(locationID: "shop-2") }
        func releaseHeld() async { await simulator.release() }
        func isHolding() async -> Bool { await simulator.isHolding() }
        func advanceClock(by seconds: Double) async { manualClock.advance(by: seconds) }
        func relaunch() async throws -> any PaymentProcessor {
            let account = "alice"
            let next = HouseAccountProcessor(client: simulator, account: account, clock: clock)
            current.withLock { $0 = next }
            return next
        }
    }

    func makeEnvironment() async throws -> any ConformanceEnvironment { Environment() }
}

@Suite struct HouseAccountTests {
    @Test func conforms() async {
        let report = await ConformanceSuite(subject: HouseAccountSubject()).run()
        #expect(report.passed, "\(report)")
    }

    @Test func everyVendorErrorIsMapped() {
        for error in HouseAccountError.allCases {
            #expect(HouseAccountErrors.table.mapping(named: error.rawValue) != nil, "\(error) is unmapped")
        }
        #expect(HouseAccountErrors.table.duplicateNames.isEmpty)
    }
}

@Suite struct HouseAccountPowerLossTests {
    /// The template adapter through the kit's power-loss check: the power cut before every ledger write of a
    /// payment, an offline payment forwarded later, and a refund, then the app and the adapter relaunched.
    @Test("the power cut at every ledger write, then a relaunch: nothing lost, nothing charged twice")
    func powerLoss() async {
        let outcomes = await PowerLossRecoveryCheck(subject: HouseAccountSubject()).run()
        #expect(outcomes.count >= 8)
        #expect(outcomes.allSatisfy { $0.problems.isEmpty }, "\(outcomes.filter { !$0.problems.isEmpty })")
    }
}
