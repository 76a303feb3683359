import Foundation
import Testing
import Tender
@testable import TenderSquare
@testable import TenderSquareSimulator

// MARK: - Shared fixtures

/// The sellers every test knows: two production sellers opted in to offline, one not opted in, one on Sandbox.
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
    ]
}

/// Records what a `PaymentManagerDelegate` receives.
final class RecordingDelegate: Square.PaymentManagerDelegate {
    enum Event: Hashable, Sendable {
        case started
        case finished(Square.Payment)
        case failed(String)
        case canceled
    }

    let events = Locked<[Event]>([])

    var last: Event? { events.current.last }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didStart payment: Square.Payment) {
        events.withLock { $0.append(.started) }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didFinish payment: Square.Payment) {
        events.withLock { $0.append(.finished(payment)) }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didFail payment: Square.Payment?,
                        withError error: any Error) {
        events.withLock { $0.append(.failed(String(describing: error))) }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didCancel payment: Square.Payment?) {
        events.withLock { $0.append(.canceled) }
    }
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
        _ = try await simulator.startPairing()
    }
    return (simulator, clock)
}

func parameters(_ attemptID: String, cents: UInt, mode: Square.ProcessingMode) -> Square.PaymentParameters {
    var parameters = Square.PaymentParameters(
        paymentAttemptID: attemptID, amountMoney: Square.Money(amount: cents, currency: .USD), processingMode: mode)
    parameters.referenceID = attemptID
    return parameters
}

// MARK: - Simulator tests

@Suite("Square simulator")
struct SquareSimulatorTests {
    @Test("authorization checks what Square checks")
    func authorization() async throws {
        let clock = ManualClock()
        let simulator = SquareSimulator(sellers: TestSellers.all, seed: 1, clock: clock)
        let cases: [(String, String, Square.AuthorizationError)] = [
            ("", "LA1", .emptyAccessToken), ("tok-A", "", .emptyLocationID), ("nope", "LA1", .invalidAccessToken),
            ("tok-A", "LB", .invalidLocationID), ("tok-A", "LA3", .locationNotActivatedForCardProcessing),
        ]
        for (token, location, expected) in cases {
            await #expect(throws: expected) { try await simulator.authorize(withAccessToken: token, locationID: location) }
        }
        #expect(await simulator.state == .notAuthorized)
        try await simulator.authorize(withAccessToken: "tok-A", locationID: "LA1")
        #expect(await simulator.state == .authorized)
        #expect(await simulator.location?.id == "LA1")
        await #expect(throws: Square.AuthorizationError.alreadyAuthorized) {
            try await simulator.authorize(withAccessToken: "tok-B", locationID: "LB")
        }
        await simulator.deauthorize()
        await simulator.setNetwork(.offline)
        await #expect(throws: Square.AuthorizationError.noNetwork) {
            try await simulator.authorize(withAccessToken: "tok-A", locationID: "LA1")
        }
    }

    @Test("the offline queue needs authorization and refuses Sandbox")
    func queueErrors() async throws {
        let simulator = SquareSimulator(sellers: TestSellers.all, seed: 1, clock: ManualClock())
        await #expect(throws: Square.OfflinePaymentQueueError.notAuthorized) { try await simulator.getPayments() }
        try await simulator.authorize(withAccessToken: "tok-S", locationID: "LS")
        await #expect(throws: Square.OfflinePaymentQueueError.unsupportedSandboxEnvironment) {
            try await simulator.getTotalStoredPaymentsAmount()
        }
        await #expect(throws: Square.ReaderPairingError.sandboxNotSupported) { try await simulator.startPairing() }
    }

    @Test("an offline payment moves queued → uploaded → processed, then leaves the device")
    func offlineLifecycle() async throws {
        let (simulator, _) = try await authorizedSimulator()
        let delegate = RecordingDelegate()
        _ = await simulator.startPayment(parameters("sale-1", cents: 12_50, mode: .offlineOnly),
                                         promptParameters: .init(), delegate: delegate)
        guard case .finished(.offline(let stored)) = delegate.last else {
            Issue.record("expected an offline payment, got \(String(describing: delegate.last))")
            return
        }
        #expect(stored.status == .queued && stored.id == nil && !stored.localID.isEmpty)
        #expect(try await simulator.getTotalStoredPaymentsAmount() == Square.Money(amount: 12_50, currency: .USD))
        #expect(await simulator.serverPayments.isEmpty)

        #expect(await simulator.syncOfflinePayments() == 1)
        #expect(try await simulator.getPayments().map(\.status) == [.uploaded])
        #expect(try await simulator.getTotalStoredPaymentsAmount().amount == 0)
        #expect(await simulator.syncOfflinePayments() == 1)
        let processed = try #require(try await simulator.getPayments().first)
        #expect(processed.status == .processed)
        #expect(processed.id == (await simulator.serverPayments.first?.id))
        #expect(await simulator.serverPayments.first?.localID == stored.localID)
        #expect(await simulator.syncOfflinePayments() == 0)
        #expect(try await simulator.getPayments().isEmpty, "processed payments are removed from the device")
    }

    @Test("sync does nothing while the network is off, and only the authorized location syncs")
    func syncNeedsNetworkAndScope() async throws {
        let (simulator, _) = try await authorizedSimulator()
        await simulator.setNetwork(.offline)
        _ = await simulator.startPayment(parameters("sale-1", cents: 1_00, mode: .offlineOnly),
                                         promptParameters: .init(), delegate: RecordingDelegate())
        #expect(await simulator.syncOfflinePayments() == 0)
        await simulator.setNetwork(.online)
        await simulator.deauthorize()
        try await simulator.authorize(withAccessToken: "tok-A", locationID: "LA2")
        #expect(try await simulator.getPayments().isEmpty, "another location's queue is not visible")
        #expect(await simulator.syncOfflinePayments() == 0, "another location's payments do not upload")
        await simulator.configure { $0.uploadsOtherAccounts = true }
        #expect(await simulator.syncOfflinePayments() == 1)
    }

    @Test("a charged attempt id is refused; an attempt that ended without a charge gets a new key")
    func attemptIDs() async throws {
        let (simulator, _) = try await authorizedSimulator()
        #expect(await simulator.getIdempotencyKey(withPaymentAttemptId: "sale-1") == nil)
        let first = RecordingDelegate()
        await simulator.setPresentedCard(.declined)
        _ = await simulator.startPayment(parameters("sale-1", cents: 5_00, mode: .onlineOnly),
                                         promptParameters: .init(), delegate: first)
        let declinedKey = try #require(await simulator.getIdempotencyKey(withPaymentAttemptId: "sale-1"))
        await simulator.setPresentedCard(.visaChip)
        let second = RecordingDelegate()
        _ = await simulator.startPayment(parameters("sale-1", cents: 5_00, mode: .onlineOnly),
                                         promptParameters: .init(), delegate: second)
        guard case .finished(.online(let payment)) = second.last else {
            Issue.record("the retry after a decline should be taken")
            return
        }
        #expect(payment.status == .completed)
        #expect(await simulator.getIdempotencyKey(withPaymentAttemptId: "sale-1") != declinedKey)
        let third = RecordingDelegate()
        let handle = await simulator.startPayment(parameters("sale-1", cents: 5_00, mode: .onlineOnly),
                                                  promptParameters: .init(), delegate: third)
        #expect(handle == nil)
        #expect(third.last == .failed("paymentAttemptIdReused"))
        #expect(await simulator.chargeCount(paymentAttemptID: "sale-1") == 1)
    }

    @Test("payment parameters Square would refuse", arguments: 0..<5)
    func invalidParameters(index: Int) async throws {
        let (simulator, _) = try await authorizedSimulator()
        var bad = parameters("sale-x", cents: 10_00, mode: .onlineOnly)
        switch index {
        case 0: bad.amountMoney = Square.Money(amount: 10_00, currency: .CAD)
        case 1: bad.autocomplete = false; bad.delayDuration = 30
        case 2: bad.acceptPartialAuthorization = true
        case 3: bad.autocomplete = false; bad.delayAction = .complete; bad.orderID = "order-1"
        default: bad.amountMoney = Square.Money(amount: 0, currency: .USD)
        }
        let delegate = RecordingDelegate()
        #expect(await simulator.startPayment(bad, promptParameters: .init(), delegate: delegate) == nil)
        #expect(delegate.last == .failed("invalidPaymentParameters"))
    }

    @Test("fewer input methods offline; a new reader cannot get ready offline")
    func readersOffline() async throws {
        let (simulator, _) = try await authorizedSimulator()
        #expect(await simulator.availableCardInputMethods() == [.chip, .contactless, .swipe])
        await simulator.setNetwork(.offline)
        #expect(await simulator.availableCardInputMethods() == [.chip, .contactless])
        await simulator.addNearbyReader()
        let fresh = try await simulator.startPairing()
        #expect(fresh.statusInfo.unavailableReasonInfo?.reason == .notConnectedToInternet)
        #expect(await simulator.retryConnection(fresh) == .startingReconnection)
        #expect(await simulator.readers.first { $0.id == fresh.id }?.statusInfo.status == .readerUnavailable)
        await simulator.setNetwork(.online)
        #expect(await simulator.readers.allSatisfy { $0.statusInfo.status == .ready })
    }

    @Test("the same seed gives the same ids and the same flaky outcomes")
    func deterministic() async throws {
        func run() async throws -> [String] {
            let (simulator, _) = try await authorizedSimulator(seed: 99)
            await simulator.setNetwork(.flaky(failureRate: 0.5))
            var outcomes: [String] = []
            for index in 0..<6 {
                let delegate = RecordingDelegate()
                _ = await simulator.startPayment(parameters("sale-\(index)", cents: 1_00, mode: .autoDetect),
                                                 promptParameters: .init(), delegate: delegate)
                outcomes.append(String(describing: delegate.last))
            }
            return outcomes + (await simulator.serverPayments.map(\.id))
        }
        let first = try await run()
        #expect(first == (try await run()))
        #expect(first.contains { $0.contains("offline(") } && first.contains { $0.contains("online(") },
                "a 50% flaky network should send some payments each way")
    }

    @Test("Square applies delay_action to an approved payment that is never completed")
    func delayedAction() async throws {
        let (simulator, clock) = try await authorizedSimulator()
        var manual = parameters("sale-1", cents: 30_00, mode: .onlineOnly)
        manual.autocomplete = false
        manual.delayDuration = 3600
        _ = await simulator.startPayment(manual, promptParameters: .init(), delegate: RecordingDelegate())
        #expect(await simulator.serverPayments.first?.status == .approved)
        clock.advance(by: 3601)
        let listed = try await simulator.server.payments(referenceID: "sale-1", locationID: "LA1")
        #expect(listed.first?.status == .canceled)
        #expect(listed.first?.cardDetails?.status == .voided)
        await #expect(throws: PaymentError.self) {
            try await simulator.server.capture(processor: "square", reference: "test", processorPaymentID: listed[0].id!,
                                               amount: Money(minorUnits: 30_00, currency: .usd))
        }
    }

    @Test("CancelPaymentByIdempotencyKey voids an approved payment and is a no-op for an unknown key")
    func cancelByKey() async throws {
        let (simulator, _) = try await authorizedSimulator()
        var manual = parameters("sale-1", cents: 30_00, mode: .onlineOnly)
        manual.autocomplete = false
        _ = await simulator.startPayment(manual, promptParameters: .init(), delegate: RecordingDelegate())
        let key = try #require(await simulator.getIdempotencyKey(withPaymentAttemptId: "sale-1"))
        try await simulator.server.cancelPayment(byIdempotencyKey: "unknown-key")
        #expect(await simulator.serverPayments.first?.status == .approved)
        try await simulator.server.cancelPayment(byIdempotencyKey: key)
        #expect(await simulator.serverPayments.first?.status == .canceled)
    }

    @Test("past the device cap, offline, the reader stops until the device is back online")
    func deviceCap() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.deviceOfflinePaymentCap = 2
        let (simulator, _) = try await authorizedSimulator(configuration: configuration)
        await simulator.setNetwork(.offline)
        for index in 0..<2 {
            _ = await simulator.startPayment(parameters("sale-\(index)", cents: 1_00, mode: .offlineOnly),
                                             promptParameters: .init(), delegate: RecordingDelegate())
        }
        #expect(await simulator.readers.first?.statusInfo.unavailableReasonInfo?.reason == .notConnectedToInternet)
        let third = RecordingDelegate()
        _ = await simulator.startPayment(parameters("sale-2", cents: 1_00, mode: .offlineOnly),
                                         promptParameters: .init(), delegate: third)
        #expect(third.last == .failed("timedOut"), "no reader can read the card")
        await simulator.setNetwork(.online)
        #expect(await simulator.readers.first?.statusInfo.status == .ready)
    }

    @Test("state survives a restart: the truth, the queue, the attempt ids, and fresh ids never collide")
    func persistence() async throws {
        let (simulator, clock) = try await authorizedSimulator()
        _ = await simulator.startPayment(parameters("online-1", cents: 9_00, mode: .onlineOnly),
                                         promptParameters: .init(), delegate: RecordingDelegate())
        _ = await simulator.startPayment(parameters("offline-1", cents: 4_00, mode: .offlineOnly),
                                         promptParameters: .init(), delegate: RecordingDelegate())
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("square-sim-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try await simulator.persist(to: SimulatorStateFile(url: url))
        let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)

        let restarted = try SquareSimulator(restoringFrom: SimulatorStateFile(url: url), clock: clock)
        #expect(await restarted.persistedState == (await simulator.persistedState))
        #expect(await restarted.state == .authorized)
        #expect(try await restarted.getPayments().map(\.referenceID) == ["offline-1"])
        #expect(await restarted.getIdempotencyKey(withPaymentAttemptId: "online-1") != nil)
        _ = await restarted.startPayment(parameters("online-2", cents: 2_00, mode: .onlineOnly),
                                         promptParameters: .init(), delegate: RecordingDelegate())
        await restarted.syncUntilIdle()
        let ids = await restarted.serverPayments.map(\.id)
        #expect(ids.count == 3 && Set(ids).count == 3)
        #expect(throws: (any Error).self) {
            _ = try SquareSimulator(restoringFrom: SimulatorStateFile(url: url.appendingPathExtension("missing")), clock: clock)
        }
    }

    @Test("PaymentSettings are per seller, and Square's side can change them")
    func settingsPerSeller() async throws {
        let (simulator, _) = try await authorizedSimulator()
        #expect(await simulator.paymentSettings == TestSellers.offlineSettings)
        await simulator.updateSeller("MB") {
            $0.paymentSettings.offlineTransactionAmountLimit = Square.Money(amount: 50_00, currency: .USD)
        }
        #expect(await simulator.paymentSettings.offlineTransactionAmountLimit?.amount == 200_00)
        await simulator.deauthorize()
        #expect(await simulator.paymentSettings == .notOptedIn)
        try await simulator.authorize(withAccessToken: "tok-B", locationID: "LB")
        #expect(await simulator.paymentSettings.offlineTransactionAmountLimit?.amount == 50_00)
        let delegate = RecordingDelegate()
        _ = await simulator.startPayment(parameters("sale-1", cents: 60_00, mode: .offlineOnly),
                                         promptParameters: .init(), delegate: delegate)
        #expect(delegate.last == .failed("offlineTransactionAmountExceeded"))
    }
}
