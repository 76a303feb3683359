import Foundation
import Testing
import Tender
import TenderTestKit
import TenderTesting
@testable import TenderSquare
@testable import TenderSquareSimulator

/// Square on its simulator as a conformance subject: seller MA opted in to offline, a reader paired, every
/// ``ConformanceFault`` made real in the simulator.
struct SquareConformanceSubject: ConformanceSubject {
    struct Environment: ConformanceEnvironment {
        let world: SquareWorld
        /// The adapter now: replaced by ``relaunch()``.
        let current: Locked<SquareProcessor>
        var processor: any PaymentProcessor { current.current }
        let locationID = "LA1"
        let supportsOffline = true

        init(world: SquareWorld) {
            self.world = world
            current = Locked(world.processor)
        }

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
            await current.current.refreshOfflineQueue()
        }

        /// Every charge Square holds for the reference, whatever the payment attempt (`ref`, `ref#2`…).
        func charges(reference: String) async -> Int { await world.simulator.chargeCount(referenceID: reference) }

        func refunded(reference: String) async -> Int64? {
            Int64(await world.simulator.serverPayments.filter { $0.referenceID == reference }.reduce(UInt(0)) {
                $0 + $1.refundedAmount
            })
        }

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

        /// Square has no internet readers; every other reader fault is real in the simulator (an update required:
        /// a blocking firmware update Square installs on its own within a minute of the clock).
        func injectReaderFault(_ fault: ReaderFault) async -> ConformanceSupport? {
            if fault == .internetReaderUnreachable { return .unsupported("Square has no internet readers") }
            await world.simulator.inject(.reader(fault))
            return .supported
        }

        /// Square documents no change after `COMPLETED`; the simulator can make a completed refund fail later
        /// (UNVERIFIED, harsher than Square documents), and this environment's adapter is configured to follow
        /// completed refunds for a day (``SquareConformanceSubject/refundChangeWindow``), so the core's rule is
        /// proven through the Square adapter too.
        func failNextRefundAfterSuccess(after seconds: Double) async -> ConformanceSupport? {
            await world.simulator.injectCompletedRefundFailure(after: seconds)
            return .supported
        }

        /// Seller MA's other location, Harbor (LA2): the SDK is signed out and in again there.
        func moveToAnotherLocation() async throws -> ConformanceLocation? {
            await world.simulator.deauthorize()
            try await world.simulator.authorize(withAccessToken: "tok-A", locationID: "LA2")
            return .moved(locationID: "LA2")
        }

        func releaseHeld() async { await world.simulator.releaseHeld() }

        func isHolding() async -> Bool { await world.simulator.isHolding }

        /// The simulator's manual clock, which the kit's facades share.
        var clock: any TenderClock { world.clock }

        func advanceClock(by seconds: Double) async { world.clock.advance(by: seconds) }

        func relaunch() async throws -> any PaymentProcessor {
            await world.simulator.relaunch()
            var settings = SquareProcessor.Configuration()
            settings.simulatedReaders = true
            settings.refundChangeWindow = SquareConformanceSubject.refundChangeWindow
            let fresh = SquareProcessor(client: world.simulator, captureService: world.simulator.server,
                                        serverLookup: world.simulator.server, refundService: world.simulator.server,
                                        configuration: settings, clock: world.clock)
            await fresh.startObserving()
            current.withLock { $0 = fresh }
            return fresh
        }
    }

    let name = "square"
    /// How long this environment's adapter follows a completed refund (Square's default is 0: no change after
    /// `COMPLETED` is documented).
    static let refundChangeWindow: TimeInterval = 86_400

    /// A fresh environment. Square's search lags by several seconds (the simulator's default); here it starts at 0,
    /// and the kit turns it on with ``ConformanceFault/searchLag(seconds:)`` where a check is about it (checks that
    /// do not move the clock, such as crash recovery, would otherwise only ever see "unknown").
    func makeEnvironment() async throws -> any ConformanceEnvironment {
        var configuration = SquareSimulator.Configuration()
        configuration.searchLag = 0
        return Environment(world: try await SquareWorld(configuration: configuration) {
            $0.refundChangeWindow = Self.refundChangeWindow
        })
    }
}

@Suite("Square conformance")
struct SquareConformanceTests {
    @Test("passes Tender's conformance suite and recovers from a crash at every ledger write")
    func conformance() async {
        let problems = await TenderConformance.problems(of: SquareConformanceSubject())
        #expect(problems.isEmpty, "\(problems)")
    }

    static func environment() async throws -> SquareConformanceSubject.Environment {
        try #require(try await SquareConformanceSubject().makeEnvironment() as? SquareConformanceSubject.Environment)
    }

    static func pay(_ env: any ConformanceEnvironment, _ reference: String, attempt: PaymentAttempt = PaymentAttempt())
        async throws -> ProcessorPaymentUpdate {
        try await env.processor.startPayment(PaymentRequest(amount: Money(minorUnits: 10_00, currency: .usd),
                                                            reference: reference),
                                             routing: .online, attempt: attempt, updates: { _ in })
    }

    @Test("confirmNotReceived never reaches Square; answerLostAfterCharge really charges (A7)")
    func requestFaults() async throws {
        let env = try await Self.environment()
        await env.inject(.confirmNotReceived)
        #expect(try await Self.pay(env, "lost-request").state == .outcomeUnknown)
        #expect(await env.charges(reference: "lost-request") == 0)
        #expect(await env.world.simulator.serverPayments.isEmpty, "the request never reached Square's server")
        await env.inject(.answerLostAfterCharge)
        #expect(try await Self.pay(env, "lost-answer").state == .outcomeUnknown)
        #expect(await env.charges(reference: "lost-answer") == 1)
    }

    @Test("searchLag hides a new payment from the search until the clock passes it (A7)")
    func lag() async throws {
        let env = try await Self.environment()
        await env.inject(.searchLag(seconds: 120))
        await env.inject(.answerLostAfterCharge)
        _ = try await Self.pay(env, "lagging")
        #expect(try await env.processor.lookUpPayment(PaymentLookupQuery(reference: "lagging")) == .unknown)
        await env.advanceClock(by: 120)
        guard case .found(let found) = try await env.processor.lookUpPayment(PaymentLookupQuery(reference: "lagging"))
        else { Issue.record("not found after the lag"); return }
        #expect(found.state == .succeeded)
    }

    @Test("held card and authorization, released; relaunch gives a fresh adapter over the same SDK store (A7)")
    func holdsAndRelaunch() async throws {
        let env = try await Self.environment()
        await env.inject(.holdNextCard)
        let processor = env.processor
        let collecting = Task { try await Self.pay(env, "held-card") }
        while !(await env.isHolding()) { try await Task.sleep(nanoseconds: 1_000_000) }
        try await processor.cancelPayment(reference: "held-card")
        #expect(try await collecting.value.state == .canceled)
        await env.inject(.holdNextAuthorization)
        let authorizing = Task { try await Self.pay(env, "held-auth") }
        while !(await env.isHolding()) { try await Task.sleep(nanoseconds: 1_000_000) }
        let fresh = try await env.relaunch()
        #expect(fresh as? SquareProcessor !== processor as? SquareProcessor)
        #expect(env.processor as? SquareProcessor === fresh as? SquareProcessor)
        #expect(try await authorizing.value.state == .outcomeUnknown)
        await env.releaseHeld()
        #expect(await env.charges(reference: "held-auth") == 1)
        await env.advanceClock(by: 60)
        guard case .found(let found) = try await fresh.lookUpPayment(PaymentLookupQuery(reference: "held-auth"))
        else { Issue.record("the relaunched adapter cannot find the charge"); return }
        #expect(found.state == .succeeded)
    }

    @Test("charges(reference:) counts every payment attempt of a reference (A5)")
    func chargesCountEveryAttempt() async throws {
        let env = try await Self.environment()
        await env.presentNextCard(.decline)
        #expect(try await Self.pay(env, "order-1").state == .declined)
        await env.presentNextCard(.approve)
        let second = try await Self.pay(env, "order-1", attempt: PaymentAttempt(number: 2, paymentAttempt: 2,
                                                                                previousState: .created))
        #expect(second.state == .succeeded)
        #expect(await env.charges(reference: "order-1") == 1)
        #expect(await env.world.simulator.chargeCount(paymentAttemptID: "order-1#2") == 1)
    }
}
