import Foundation
import Testing
import TenderTestKit
import TenderTesting
import TenderSquare
import TenderSquareSimulator
import SquareMobilePaymentsSurfaceBackend
import TenderSquareMobilePaymentsOverSurface

/// Square through the bridge as a conformance subject: the adapter over `SquareMobilePaymentsBridge` over the surface
/// mirror over `SquareSimulator`, every ``ConformanceFault`` made real in the simulator, a relaunch forgetting every
/// SDK object and starting a new bridge.
struct BridgeConformanceSubject: ConformanceSubject {
    let delivery: SimulatorSurfaceBackend.CallbackDelivery
    /// Every world made, to check afterwards what their SDKs were asked and where.
    let worlds = Locked<[BridgeWorld]>([])

    var name: String { "square through the bridge (callbacks \(delivery.rawValue))" }

    struct Environment: ConformanceEnvironment {
        let world: BridgeWorld
        var processor: any PaymentProcessor { world.processor }
        let locationID = "LA1"
        let supportsOffline = true

        func setNetwork(online: Bool) async { await world.simulator.setNetwork(online ? .online : .offline) }

        func presentNextCard(_ card: ConformanceCard) async {
            let simulated: SquareSimulator.SimulatedCard = switch card {
            case .approve: .visaChip
            case .decline: .declined
            case .declineWhenForwarded: .insufficientFunds
            }
            await world.simulator.setPresentedCard(simulated)
        }

        func forwardStoredPayments() async {
            _ = await world.simulator.syncUntilIdle()
            await world.processor.refreshOfflineQueue()
        }

        func charges(reference: String) async -> Int { await world.simulator.chargeCount(referenceID: reference) }

        /// Square captures the whole of a payment when it completes (`CompletePayment` takes no amount).
        func captured(reference: String) async -> Int64? {
            Int64(await world.simulator.serverPayments.filter { $0.referenceID == reference && $0.status == .completed }
                .reduce(UInt(0)) { $0 + $1.totalMoney.amount })
        }

        func inject(_ fault: ConformanceFault) async {
            switch fault {
            case .confirmNotReceived: await world.simulator.inject(.confirmNotReceived)
            case .answerLostAfterCharge: await world.simulator.inject(.answerLostAfterCharge)
            case .searchLag(let seconds): await world.simulator.configure { $0.searchLag = seconds }
            case .holdNextCard: await world.simulator.inject(.holdNextCard)
            case .holdNextAuthorization: await world.simulator.inject(.holdNextAuthorization)
            }
        }

        /// As the adapter's environment: the simulator makes the fault real.
        func injectReaderFault(_ fault: ReaderFault) async -> ConformanceSupport? {
            if fault == .internetReaderUnreachable { return .unsupported("Square has no internet readers") }
            await world.simulator.inject(.reader(fault))
            return .supported
        }

        func releaseHeld() async { await world.simulator.releaseHeld() }

        func isHolding() async -> Bool { await world.simulator.isHolding }

        var clock: any TenderClock { world.clock }

        func advanceClock(by seconds: Double) async { world.clock.advance(by: seconds) }

        func relaunch() async throws -> any PaymentProcessor { await world.relaunch() }

        /// Square documents no change after `COMPLETED`; the simulator makes a completed refund fail later
        /// (UNVERIFIED, harsher than Square), and this world's adapter follows completed refunds for a day.
        func failNextRefundAfterSuccess(after seconds: Double) async -> ConformanceSupport? {
            await world.simulator.injectCompletedRefundFailure(after: seconds)
            return .supported
        }

        /// Seller A's other location, Harbor (LA2): signed out and in again through the bridge.
        func moveToAnotherLocation() async throws -> ConformanceLocation? {
            await world.bridge.deauthorize()
            try await world.bridge.authorize(withAccessToken: "tok-A", locationID: "LA2")
            return .moved(locationID: "LA2")
        }
    }

    /// A fresh device. The search lag starts at 0 and the kit turns it on where a check is about it (as for the
    /// adapter over the simulator directly).
    func makeEnvironment() async throws -> any ConformanceEnvironment {
        var configuration = SquareSimulator.Configuration()
        configuration.searchLag = 0
        let world = try await BridgeWorld(delivery: delivery, configuration: configuration, refundChangeWindow: 86_400)
        worlds.withLock { $0.append(world) }
        return Environment(world: world)
    }
}

@Suite("Square through the bridge: conformance", .surfaceBackendExclusive)
struct BridgeConformanceTests {
    @Test("passes Tender's conformance suite and the crash check through the bridge, every SDK call on the main thread",
          arguments: SimulatorSurfaceBackend.CallbackDelivery.allCases)
    func conformance(delivery: SimulatorSurfaceBackend.CallbackDelivery) async {
        let subject = BridgeConformanceSubject(delivery: delivery)
        let started = Date()
        let problems = await TenderConformance.problems(of: subject)
        let seconds = Date().timeIntervalSince(started)
        #expect(problems.isEmpty, "\(problems)")
        let worlds = subject.worlds.current
        let calls = worlds.flatMap(\.backend.calls)
        let offMain = worlds.flatMap(\.backend.offMainCalls)
        #expect(!worlds.isEmpty && calls.count > worlds.count)
        #expect(offMain.isEmpty, "SDK calls off the main thread: \(offMain)")
        var leftovers: [String] = []
        for world in worlds {
            for bridge in world.bridges.current {
                let held = await world.registryContents(of: bridge)
                if held.paymentHandles + held.pairingHandles + held.delegates > 0 { leftovers.append("\(held)") }
            }
        }
        #expect(leftovers.isEmpty, "SDK objects still held after the checks: \(leftovers)")
        let relaunched = worlds.filter { $0.bridges.current.count > 1 }
        #expect(!relaunched.isEmpty, "some check relaunched")
        print("""
            bridge conformance (callbacks \(delivery.rawValue)): \(worlds.count) devices, \(calls.count) SDK calls \
            (\(offMain.count) off the main thread), \(relaunched.count) relaunched, \(problems.count) problems, \
            \(String(format: "%.2f", seconds)) s
            """)
    }
}
