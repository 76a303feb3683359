import Foundation
import StripeTerminalSurface
import StripeTerminalSurfaceBackend
import Tender
import TenderStripe
import TenderStripeSimulator
@testable import TenderStripeTerminalOverSurface
import TenderTestKit
import TenderTesting
import Testing

/// The Stripe adapter over the bridge over the surface mirror over the simulator, for Tender's conformance suite:
/// every fault is the simulator's, reached through the SDK's API as the real SDK would be; a relaunch is a new
/// process (a new backend, a new `Terminal.shared`, a new bridge with an empty registry) over the same device.
struct StripeBridgeConformanceSubject: ConformanceSubject {
    final class Environment: ConformanceEnvironment {
        let device: BridgeDevice
        private let current: Locked<BridgeLaunch>
        let locationID = bridgeLocation
        let supportsOffline = true

        init(device: BridgeDevice, launch: BridgeLaunch) {
            self.device = device
            self.current = Locked(launch)
        }

        var launch: BridgeLaunch { current.current }
        var processor: any PaymentProcessor { current.current.processor }
        var clock: any TenderClock { device.clock }

        func setNetwork(online: Bool) async {
            await device.simulator.setSimulatedOfflineMode(online ? .disabled : .offlineImmediate)
        }

        func presentNextCard(_ card: ConformanceCard) async {
            await device.simulator.configure {
                $0.simulatedCard = switch card {
                case .approve: .visa
                case .decline, .declineWhenForwarded: .chargeDeclined
                }
            }
        }

        func forwardStoredPayments() async { await device.simulator.forwardPendingPayments() }

        func charges(reference: String) async -> Int { await device.simulator.chargeCount(reference: reference) }

        func refunded(reference: String) async -> Int64? {
            let simulator = device.simulator
            let intents = Set(await simulator.serverIntents
                .filter { $0.metadata[StripeMapping.referenceMetadataKey] == reference }.compactMap(\.stripeId))
            return Int64(await simulator.serverRefunds
                .filter { intents.contains($0.paymentIntentId) && $0.status == .succeeded }
                .reduce(UInt(0)) { $0 + $1.amount })
        }

        func captured(reference: String) async -> Int64? {
            Int64(await device.simulator.charges(reference: reference).filter(\.captured)
                .reduce(UInt(0)) { $0 + $1.amountCaptured })
        }

        func inject(_ fault: ConformanceFault) async {
            let simulator = device.simulator
            switch fault {
            case .confirmNotReceived: await simulator.inject(.confirmNotReceived)
            case .answerLostAfterCharge: await simulator.inject(.answerLostAfterCharge)
            case .searchLag(let seconds): await simulator.configure { $0.searchLag = seconds }
            case .holdNextCard: await simulator.inject(.holdNextCard)
            case .holdNextAuthorization: await simulator.inject(.holdNextAuthorization)
            }
        }

        /// The simulator makes the fault real; the bridge reports the reader's update as the SDK does.
        func injectReaderFault(_ fault: ReaderFault) async -> ConformanceSupport? {
            await device.simulator.inject(.reader(fault))
            return .supported
        }

        /// Stripe's refundFailed test card (4000000000005126): its refunds begin `succeeded` and fail `seconds` later
        /// (UNVERIFIED delay: Stripe publishes none).
        func failNextRefundAfterSuccess(after seconds: Double) async -> ConformanceSupport? {
            await device.simulator.configure {
                $0.simulatedCard = .refundFailed
                $0.refundFailureDelay = seconds
                $0.refundFailedCardStartsAs = .succeeded
            }
            return .supported
        }

        /// Another location of the same account: the reader is disconnected through the SDK, to be connected there.
        func moveToAnotherLocation() async throws -> ConformanceLocation? {
            try await processor.disconnectReader()
            return .moved(locationID: "tml_bridge_harbor")
        }

        func releaseHeld() async { await device.simulator.releaseHeld() }

        func isHolding() async -> Bool { await device.simulator.isHolding }

        func advanceClock(by seconds: Double) async {
            device.clock.advance(by: seconds)
            await device.simulator.runDueWork()
        }

        func relaunch() async throws -> any PaymentProcessor {
            let fresh = await device.relaunch()
            current.withLock { $0 = fresh }
            return fresh.processor
        }
    }

    let name = "stripe (bridge over the surface mirror)"

    func makeEnvironment() async throws -> any ConformanceEnvironment {
        let device = BridgeDevice()
        return Environment(device: device, launch: await device.launch())
    }
}

extension StripeBridgeTests {
    @Suite("Conformance through the bridge") struct Conformance {
        @Test("passes Tender's conformance suite (every fault check) and the crash-recovery check through the bridge")
        func conformance() async {
            let problems = await TenderConformance.problems(of: StripeBridgeConformanceSubject())
            // Including the power-loss check (issue 18: a cut that takes the unsynced `collecting` record must never read as
            // "never charged").
            #expect(problems.isEmpty, "\(problems)")
        }

        @Test("the figures: every check of the suite ran and passed, every crash point recovered, through the bridge")
        func figures() async {
            let subject = StripeBridgeConformanceSubject()
            let report = await ConformanceSuite(subject: subject).run()
            #expect(report.results.count == ConformanceSuite.checks.count)
            #expect(report.passed, "\(report.failures)")
            let outcomes = await CrashRecoveryCheck(subject: subject).run()
            #expect(outcomes.count >= 4)
            #expect(outcomes.allSatisfy { $0.problems.isEmpty && $0.charges <= 1 }, "\(outcomes.filter { !$0.problems.isEmpty })")
            let scenarios = Dictionary(grouping: outcomes, by: \.scenario).mapValues(\.count)
                .sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            print("Stripe bridge over the surface mirror: conformance \(report.results.filter(\.passed).count)/"
                + "\(ConformanceSuite.checks.count) checks passed; crash recovery \(outcomes.count) crash points "
                + "(\(scenarios)), \(outcomes.filter { !$0.problems.isEmpty }.count) with problems")
        }

        @Test("the faults are real through the bridge: nothing charged, charged, held, relaunched")
        func faultsAreReal() async throws {
            let subject = StripeBridgeConformanceSubject()
            func environment() async throws -> StripeBridgeConformanceSubject.Environment {
                try #require(try await subject.makeEnvironment() as? StripeBridgeConformanceSubject.Environment)
            }
            func connected(_ env: StripeBridgeConformanceSubject.Environment) async throws -> any PaymentProcessor {
                let reader = try #require(try await env.processor.discoverReaders(timeout: 1).first)
                _ = try await env.processor.connectReader(reader, locationID: env.locationID)
                return env.processor
            }
            for (fault, charged) in [(ConformanceFault.confirmNotReceived, 0), (.answerLostAfterCharge, 1)] {
                let env = try await environment()
                let processor = try await connected(env)
                await env.inject(fault)
                let result = try await processor.startPayment(bridgeSale("BF"), routing: .online,
                                                              attempt: PaymentAttempt(), updates: { _ in })
                #expect(result.state == .outcomeUnknown, "\(fault)")
                #expect(await env.charges(reference: "BF") == charged, "\(fault)")
                #expect(env.launch.backend.calls.contains("confirmPaymentIntent"), "the confirmation went through the SDK")
            }

            let held = try await environment()
            let processor = try await connected(held)
            await held.inject(.holdNextCard)
            let payment = Task {
                try await processor.startPayment(bridgeSale("BH"), routing: .online, attempt: PaymentAttempt(),
                                                 updates: { _ in })
            }
            #expect(await bridgeEventually { await held.isHolding() })
            await held.releaseHeld()
            #expect(try await payment.value.state == .succeeded)

            let relaunched = try await environment()
            let before = relaunched.launch
            _ = try await connected(relaunched)
            #expect(before.bridge.registry.intentCount == 0)
            _ = try await before.processor.startPayment(bridgeSale("BR"), routing: .online, attempt: PaymentAttempt(),
                                                        updates: { _ in })
            #expect(before.bridge.registry.intentCount > 0)
            let fresh = try await relaunched.relaunch()
            #expect(relaunched.launch.bridge !== before.bridge)
            #expect(relaunched.launch.bridge.registry.intentCount == 0, "a relaunch empties the bridge's registry")
            #expect(fresh as AnyObject === relaunched.launch.processor as AnyObject)
            #expect(await relaunched.launch.bridge.connectedReader == nil)
        }
    }
}
