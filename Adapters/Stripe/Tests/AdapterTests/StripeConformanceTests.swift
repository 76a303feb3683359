import Foundation
import Tender
@_spi(Testing) import TenderStripe
import TenderStripeSimulator
import TenderTestKit
import Testing
import TenderTesting

/// The Stripe adapter over a fresh simulator, for Tender's conformance suite. Every fault is made real in the
/// simulator: a confirmation that never reaches Stripe's side, one whose answer is lost after Stripe charged, a
/// lagging search, held cards and authorizations, a clock that drives schedules and expiry, and a relaunch that
/// forgets every object the SDK handed out.
struct StripeConformanceSubject: ConformanceSubject {
    final class Environment: ConformanceEnvironment {
        let simulator: StripeSimulator
        let manualClock: ManualClock
        /// The simulator's clock: the kit's facades run on it.
        var clock: any TenderClock { manualClock }
        private let current: Locked<StripeProcessor>
        let locationID = testLocation
        let supportsOffline = true

        init(simulator: StripeSimulator, clock: ManualClock) {
            self.simulator = simulator
            self.manualClock = clock
            self.current = Locked(Self.processor(simulator, clock))
        }

        static func processor(_ simulator: StripeSimulator, _ clock: ManualClock) -> StripeProcessor {
            StripeProcessor(client: simulator, captureService: simulator.server, serverLookup: simulator.server,
                            refundService: simulator.server, configuration: .withSimulatedReaders, clock: clock)
        }

        var processor: any PaymentProcessor { current.current }

        func setNetwork(online: Bool) async {
            await simulator.setSimulatedOfflineMode(online ? .disabled : .offlineImmediate)
        }

        func presentNextCard(_ card: ConformanceCard) async {
            await simulator.configure {
                $0.simulatedCard = switch card {
                case .approve: .visa
                case .decline, .declineWhenForwarded: .chargeDeclined
                }
            }
        }

        func forwardStoredPayments() async { await simulator.forwardPendingPayments() }

        func charges(reference: String) async -> Int { await simulator.chargeCount(reference: reference) }

        func refunded(reference: String) async -> Int64? {
            let intents = Set(await simulator.serverIntents
                .filter { $0.metadata[StripeMapping.referenceMetadataKey] == reference }.compactMap(\.stripeId))
            return Int64(await simulator.serverRefunds
                .filter { intents.contains($0.paymentIntentId) && $0.status == .succeeded }
                .reduce(UInt(0)) { $0 + $1.amount })
        }

        func captured(reference: String) async -> Int64? {
            Int64(await simulator.charges(reference: reference).filter(\.captured).reduce(UInt(0)) { $0 + $1.amountCaptured })
        }

        func inject(_ fault: ConformanceFault) async {
            switch fault {
            case .confirmNotReceived: await simulator.inject(.confirmNotReceived)
            case .answerLostAfterCharge: await simulator.inject(.answerLostAfterCharge)
            case .searchLag(let seconds): await simulator.configure { $0.searchLag = seconds }
            case .holdNextCard: await simulator.inject(.holdNextCard)
            case .holdNextAuthorization: await simulator.inject(.holdNextAuthorization)
            }
        }

        /// Every reader fault is real in the simulator (an update required: the connected reader's update is due).
        func injectReaderFault(_ fault: ReaderFault) async -> ConformanceSupport? {
            await simulator.inject(.reader(fault))
            return .supported
        }

        /// Stripe's own test card for it (4000000000005126, `refundFailed`): its refunds begin `succeeded` and fail
        /// `seconds` later (the delay is UNVERIFIED: Stripe publishes none).
        func failNextRefundAfterSuccess(after seconds: Double) async -> ConformanceSupport? {
            await simulator.configure {
                $0.simulatedCard = .refundFailed
                $0.refundFailureDelay = seconds
                $0.refundFailedCardStartsAs = .succeeded
            }
            return .supported
        }

        /// Another Terminal location of the same account: the reader is disconnected, to be connected there.
        func moveToAnotherLocation() async throws -> ConformanceLocation? {
            try await processor.disconnectReader()
            return .moved(locationID: "tml_loc_harbor")
        }

        func releaseHeld() async { await simulator.releaseHeld() }

        func isHolding() async -> Bool { await simulator.isHolding }

        func advanceClock(by seconds: Double) async {
            manualClock.advance(by: seconds)
            await simulator.runDueWork()
        }

        func relaunch() async throws -> any PaymentProcessor {
            await simulator.relaunch()
            let fresh = Self.processor(simulator, manualClock)
            current.withLock { $0 = fresh }
            return fresh
        }
    }

    let name = "stripe"

    func makeEnvironment() async throws -> any ConformanceEnvironment {
        let (simulator, clock) = makeSimulator()
        return Environment(simulator: simulator, clock: clock)
    }
}

@Suite("Stripe conformance")
struct StripeConformanceTests {
    @Test("passes Tender's conformance suite and recovers from a crash at every ledger write")
    func conformance() async {
        let problems = await TenderConformance.problems(of: StripeConformanceSubject())
        // Including the power-loss check (issue 18: a cut that takes the unsynced `collecting` record must never read as
        // "never charged").
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("the environment's faults are real: nothing charged, charged, held, relaunched")
    func faultsAreReal() async throws {
        let subject = StripeConformanceSubject()
        func environment() async throws -> StripeConformanceSubject.Environment {
            try #require(try await subject.makeEnvironment() as? StripeConformanceSubject.Environment)
        }
        func connected(_ env: StripeConformanceSubject.Environment) async throws -> any PaymentProcessor {
            let processor = env.processor
            let reader = try #require(try await processor.discoverReaders(timeout: 1).first)
            _ = try await processor.connectReader(reader, locationID: env.locationID)
            return processor
        }
        for (fault, charged) in [(ConformanceFault.confirmNotReceived, 0), (.answerLostAfterCharge, 1)] {
            let env = try await environment()
            let processor = try await connected(env)
            await env.inject(fault)
            let result = try await processor.startPayment(sale("CF"), routing: .online, attempt: PaymentAttempt(),
                                                          updates: { _ in })
            #expect(result.state == .outcomeUnknown)
            #expect(await env.charges(reference: "CF") == charged)
        }

        let held = try await environment()
        let processor = try await connected(held)
        await held.inject(.holdNextCard)
        let payment = Task { try await processor.startPayment(sale("HC"), routing: .online, attempt: PaymentAttempt(),
                                                               updates: { _ in }) }
        await eventually { await held.isHolding() }
        await held.releaseHeld()
        #expect(try await payment.value.state == .succeeded)

        let relaunched = try await environment()
        let before = try await connected(relaunched)
        let fresh = try await relaunched.relaunch()
        #expect(relaunched.processor as AnyObject === fresh as AnyObject)
        #expect(before as AnyObject !== fresh as AnyObject)
        #expect(await relaunched.simulator.connectedReader == nil)
    }
}
