import Foundation
import Testing
@_spi(Testing) import Tender
@testable import TenderSquare
@testable import TenderSquareSimulator
import TenderTesting

// Shared fixtures of the Square tests: sellers, a recording delegate, an authorized simulator, and "world" = the
// simulator with the adapter over it, the simulator's servers as the app's capture, lookup and refund services.

/// The sellers every test knows: two production sellers opted in to offline, one not opted in, one on Sandbox, one
/// that surcharges cards.
enum TestSellers {
    static let mainStreet = Square.Location(id: "LA1", name: "Main St", currency: .USD)
    static let harbor = Square.Location(id: "LA2", name: "Harbor", currency: .USD)
    static let closed = Square.Location(id: "LA3", name: "Closed", currency: .USD)
    /// 200.00 USD per payment, 500.00 USD stored.
    static let offlineSettings = Square.PaymentSettings(
        isOfflineProcessingAllowed: true, offlineTransactionAmountLimit: Square.Money(amount: 200_00, currency: .USD),
        offlineTotalStoredAmountLimit: Square.Money(amount: 500_00, currency: .USD))

    static let all: [SquareSimulator.Seller] = [
        .init(merchantID: "MA", accessToken: "tok-A", locations: [mainStreet, harbor, closed],
              inactiveLocationIDs: ["LA3"], paymentSettings: offlineSettings),
        .init(merchantID: "MB", accessToken: "tok-B",
              locations: [Square.Location(id: "LB", name: "Bakery", currency: .USD)], paymentSettings: offlineSettings),
        .init(merchantID: "MN", accessToken: "tok-N",
              locations: [Square.Location(id: "LN", name: "Not opted in", currency: .USD)]),
        .init(merchantID: "MS", accessToken: "tok-S",
              locations: [Square.Location(id: "LS", name: "Sandbox", currency: .USD)], paymentSettings: offlineSettings,
              environment: .sandbox),
        .init(merchantID: "MC", accessToken: "tok-C",
              locations: [Square.Location(id: "LC", name: "Surcharging", currency: .USD)],
              paymentSettings: offlineSettings, cardSurchargeBasisPoints: 300),
    ]
}

/// Records what a `PaymentManagerDelegate` receives.
final class RecordingDelegate: Square.PaymentManagerDelegate {
    enum Event: Hashable, Sendable {
        case started
        case finishedOnline(Square.OnlinePayment)
        case finishedOffline(Square.OfflinePayment)
        case failed(String)
        case canceled
        /// `didCancel` whose payment carries a card: the reader refused it.
        case refused(Square.CardBrand, Square.CardEntryMethod)
    }

    let events = Locked<[Event]>([])

    var last: Event? { events.current.last }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didStart payment: any Square.Payment) {
        events.withLock { $0.append(.started) }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didFinish payment: any Square.Payment) {
        if let online = payment as? Square.OnlinePayment { events.withLock { $0.append(.finishedOnline(online)) } }
        if let offline = payment as? Square.OfflinePayment { events.withLock { $0.append(.finishedOffline(offline)) } }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didFail payment: any Square.Payment,
                        withError error: any Error) {
        events.withLock { $0.append(.failed(String(describing: error))) }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didCancel payment: any Square.Payment) {
        if let offline = payment as? Square.OfflinePayment, let card = offline.cardDetails {
            events.withLock { $0.append(.refused(card.card?.cardBrand ?? .unknown, card.entryMethod)) }
        } else {
            events.withLock { $0.append(.canceled) }
        }
    }
}

/// Records a pairing's callbacks.
final class PairingRecorder: Square.ReaderPairingDelegate {
    let events = Locked<[String]>([])
    func readerPairingDidBegin() { events.withLock { $0.append("begin") } }
    func readerPairingDidSucceed() { events.withLock { $0.append("succeed") } }
    func readerPairingDidFail(with error: any Error) { events.withLock { $0.append("fail \(error)") } }
}

/// A simulator authorized as seller A at Main St with one reader paired online.
func authorizedSimulator(configuration: SquareSimulator.Configuration = .init(), seed: UInt64 = 42,
                         token: String = "tok-A", location: String = "LA1")
    async throws -> (SquareSimulator, ManualClock) {
    let clock = ManualClock()
    let simulator = SquareSimulator(sellers: TestSellers.all, configuration: configuration, seed: seed, clock: clock)
    try await simulator.authorize(withAccessToken: token, locationID: location)
    if token != "tok-S" {
        await simulator.addNearbyReader()
        _ = await simulator.startPairing(with: PairingRecorder())
    }
    return (simulator, clock)
}

func parameters(_ attemptID: String, cents: UInt, mode: Square.ProcessingMode) -> Square.PaymentParameters {
    var parameters = Square.PaymentParameters(
        paymentAttemptID: attemptID, amountMoney: Square.Money(amount: cents, currency: .USD), processingMode: mode)
    parameters.referenceID = attemptID
    return parameters
}

extension SquareSimulator {
    /// `startPayment` with Tender's default prompt and no presenter.
    @discardableResult
    func start(_ parameters: Square.PaymentParameters, delegate: RecordingDelegate = RecordingDelegate(),
               prompt: Square.PromptParameters = .init()) async -> (any Square.PaymentHandle)? {
        await startPayment(parameters, promptParameters: prompt, from: .headless, delegate: delegate)
    }
}

/// A simulator and the adapter over it, with the simulator's servers as the app's capture, lookup and refund
/// services, on one manual clock.
struct SquareWorld {
    let clock: ManualClock
    let simulator: SquareSimulator
    let emitter = ProcessorEventEmitter(keepingHistory: true)
    let processor: SquareProcessor

    init(configuration: SquareSimulator.Configuration = .init(), token: String = "tok-A", location: String = "LA1",
         seed: UInt64 = 7, adapter: (inout SquareProcessor.Configuration) -> Void = { _ in }) async throws {
        let pair = try await authorizedSimulator(configuration: configuration, seed: seed, token: token,
                                                 location: location)
        simulator = pair.0
        clock = pair.1
        var settings = SquareProcessor.Configuration()
        settings.simulatedReaders = true
        adapter(&settings)
        processor = SquareProcessor(client: simulator, captureService: simulator.server, serverLookup: simulator.server,
                                    refundService: simulator.server, configuration: settings, clock: clock,
                                    emitter: emitter)
        await processor.startObserving()
    }

    static func sale(_ reference: String, cents: Int64, capture: CaptureMode = .automatic) -> PaymentRequest {
        PaymentRequest(amount: Money(minorUnits: cents, currency: .usd), reference: reference, captureMode: capture)
    }

    /// Takes a payment, returning the outcome and the intermediate states reported through `updates`.
    func pay(_ reference: String, cents: Int64, routing: RoutingDecision = .online, capture: CaptureMode = .automatic,
             attempt: PaymentAttempt = PaymentAttempt(), on processor: SquareProcessor? = nil) async throws
        -> (ProcessorPaymentUpdate, [PaymentState]) {
        try await pay(Self.sale(reference, cents: cents, capture: capture), routing: routing, attempt: attempt,
                      on: processor)
    }

    /// Takes a payment request, checking that every state the adapter reports is a legal move for the core.
    func pay(_ request: PaymentRequest, routing: RoutingDecision = .online, attempt: PaymentAttempt = PaymentAttempt(),
             on processor: SquareProcessor? = nil) async throws -> (ProcessorPaymentUpdate, [PaymentState]) {
        let states = Locked<[PaymentState]>([])
        let outcome = try await (processor ?? self.processor).startPayment(
            request, routing: routing, attempt: attempt,
            updates: { update in states.withLock { $0.append(update.state) } })
        let start = attempt.previousState.flatMap { $0.isFinal ? nil : $0 } ?? .created
        var from = start
        for state in states.current + [outcome.state] {
            // Reporting the state the session is already in (a lookup that finds nothing new) is no change.
            if from != state, !PaymentStateMachine.canTransition(from: from, to: state) {
                Issue.record("the adapter reported \(from) → \(state)")
            }
            from = state
        }
        return (outcome, states.current)
    }

    /// The forwarding results emitted so far.
    var forwarded: [ProcessorPaymentUpdate] {
        emitter.emitted.compactMap { if case .paymentForwarded(let update) = $0 { update } else { nil } }
    }

    /// Waits until the simulator has a payment in progress (waiting for a card, or its authorization held).
    func waitForPaymentInProgress() async {
        for _ in 0..<5_000 {  // at most about five seconds, on a loaded machine
            if await simulator.currentPaymentHandle != nil { return }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        Issue.record("no payment started")
    }

    /// Waits until a held card or authorization is waiting.
    func waitUntilHolding() async {
        for _ in 0..<5_000 {
            if await simulator.isHolding { return }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        Issue.record("nothing is held")
    }

    /// The query the core would make for a session recorded now.
    func query(_ reference: String, attempt: Int = 1, state: PaymentState = .outcomeUnknown,
               localID: String? = nil, id: String? = nil, route: PaymentRoute? = nil,
               capture: CaptureMode = .automatic, since: Date? = nil) -> PaymentLookupQuery {
        PaymentLookupQuery(reference: reference, paymentAttempt: attempt, localID: localID, processorPaymentID: id,
                           recordedState: state, route: route, captureMode: capture, since: since ?? clock.now())
    }
}

/// A capture service that must never be called.
struct UnusedCaptureService: PaymentCaptureService {
    func capture(_ request: CaptureRequest) async throws {
        Issue.record("capture was called")
    }

    func void(_ request: VoidRequest) async throws {
        Issue.record("void was called")
    }
}
