import Foundation
import Testing
import Tender
import TenderTestKit
@testable import TenderSquare
@testable import TenderSquareSimulator

/// Square on its simulator as a conformance subject: seller MA opted in to offline, a reader nearby.
struct SquareConformanceSubject: ConformanceSubject {
    struct Environment: ConformanceEnvironment {
        let world: SquareWorld
        var processor: any PaymentProcessor { world.processor }
        let locationID = "LA1"
        let supportsOffline = true

        func setNetwork(online: Bool) async { await world.simulator.setNetwork(online ? .online : .offline) }

        func presentNextCard(_ card: ConformanceCard) async {
            let simulated: SquareSimulator.SimulatedCard = switch card {
            case .approve: .visaChip
            case .decline: .declined
            case .declineWhenForwarded: .insufficientFunds  // accepted offline, declined when Square processes it
            }
            await world.simulator.setPresentedCard(simulated)
        }

        func forwardStoredPayments() async {
            _ = await world.simulator.syncUntilIdle()
            await world.processor.refreshOfflineQueue()
        }

        func charges(reference: String) async -> Int { await world.simulator.chargeCount(paymentAttemptID: reference) }
        // Baseline hooks so the target compiles against the new kit (replaced by real ones).
        func inject(_ fault: ConformanceFault) async {}
        func releaseHeld() async {}
        func isHolding() async -> Bool { false }
        func advanceClock(by seconds: Double) async { world.clock.advance(by: seconds) }
        func relaunch() async throws -> any PaymentProcessor { world.processor }
    }

    let name = "square"

    func makeEnvironment() async throws -> any ConformanceEnvironment { Environment(world: try await SquareWorld()) }
}

@Suite("Square conformance")
struct SquareConformanceTests {
    @Test("passes Tender's conformance suite and recovers from a crash at every ledger write")
    func conformance() async {
        let problems = await TenderConformance.problems(of: SquareConformanceSubject())
        #expect(problems.isEmpty, "\(problems)")
    }
}
