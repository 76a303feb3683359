import Testing
import TenderTestKit
import HouseAccountAdapter

/// The template adapter as a conformance subject: one account with a generous line, and a second, tiny one that
/// makes "decline" cards decline.
struct HouseAccountSubject: ConformanceSubject {
    let name = "house"

    struct Environment: ConformanceEnvironment {
        let simulator: HouseAccountSimulator
        let house: HouseAccountProcessor
        var processor: any PaymentProcessor { house }
        let locationID = "shop-1"
        let supportsOffline = true
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
        func charges(reference: String) async -> Int { await simulator.acceptedCharges(orderNumber: reference) }
    }

    func makeEnvironment() async throws -> any ConformanceEnvironment {
        let simulator = HouseAccountSimulator(creditLines: ["alice": 1_000_000, "bob": 1, "carol": 1_000_000])
        return Environment(simulator: simulator, house: HouseAccountProcessor(client: simulator, account: "alice"))
    }
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
