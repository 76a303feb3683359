import Foundation
import Testing
import Tender
import TenderTestKit
@testable import TenderSquare
@testable import TenderSquareSimulator
import TenderTesting

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
        let pairing = PairingRecorder()
        #expect(await simulator.startPairing(with: pairing) == nil)
        #expect(pairing.events.current == ["fail sandboxNotSupported"])
    }

    @Test("an offline payment moves queued → uploaded → processed, then the SDK deletes it on its schedule, unread")
    func offlineLifecycle() async throws {
        let (simulator, clock) = try await authorizedSimulator()
        let delegate = RecordingDelegate()
        _ = await simulator.start(parameters("sale-1", cents: 12_50, mode: .offlineOnly), delegate: delegate)
        guard case .finishedOffline(let stored) = delegate.last else {
            Issue.record("expected an offline payment, got \(String(describing: delegate.last))")
            return
        }
        #expect(stored.status == .queued && stored.id == nil && !stored.localID.isEmpty)
        #expect(Square.Money(try await simulator.getTotalStoredPaymentsAmount()) == Square.Money(amount: 12_50, currency: .USD))
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
        clock.advance(by: 30)
        #expect(try await simulator.getPayments().map(\.status) == [.processed], "kept for processedRetention (60 s)")
        clock.advance(by: 30)
        // No sync step and no read in between: the SDK deletes it on its own schedule.
        #expect(await simulator.devicePayments.isEmpty, "processed payments are deleted from the device")
    }

    @Test("sync does nothing while the network is off, and only the authorized location syncs")
    func syncNeedsNetworkAndScope() async throws {
        let (simulator, _) = try await authorizedSimulator()
        await simulator.setNetwork(.offline)
        _ = await simulator.start(parameters("sale-1", cents: 1_00, mode: .offlineOnly), delegate: RecordingDelegate())
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
        _ = await simulator.start(parameters("sale-1", cents: 5_00, mode: .onlineOnly), delegate: first)
        let declinedKey = try #require(await simulator.getIdempotencyKey(withPaymentAttemptId: "sale-1"))
        await simulator.setPresentedCard(.visaChip)
        let second = RecordingDelegate()
        _ = await simulator.start(parameters("sale-1", cents: 5_00, mode: .onlineOnly), delegate: second)
        guard case .finishedOnline(let payment) = second.last else {
            Issue.record("the retry after a decline should be taken")
            return
        }
        #expect(payment.status == .completed)
        #expect(await simulator.getIdempotencyKey(withPaymentAttemptId: "sale-1") != declinedKey)
        let third = RecordingDelegate()
        let handle = await simulator.start(parameters("sale-1", cents: 5_00, mode: .onlineOnly), delegate: third)
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
        #expect(await simulator.start(bad, delegate: delegate) == nil)
        #expect(delegate.last == .failed("invalidPaymentParameters"))
    }

    @Test("fewer input methods offline; a new reader cannot get ready offline")
    func readersOffline() async throws {
        let (simulator, _) = try await authorizedSimulator()
        #expect(await simulator.availableCardInputMethods == [.chip, .contactless, .swipe])
        await simulator.setNetwork(.offline)
        #expect(await simulator.availableCardInputMethods == [.chip, .contactless])
        await simulator.addNearbyReader()
        let pairing = PairingRecorder()
        #expect(await simulator.startPairing(with: pairing) != nil)
        #expect(pairing.events.current == ["begin", "succeed"], "success names no reader")
        let fresh = try #require(await simulator.readers.last)
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
                _ = await simulator.start(parameters("sale-\(index)", cents: 1_00, mode: .autoDetect), delegate: delegate)
                outcomes.append(String(describing: delegate.last))
            }
            return outcomes + (await simulator.serverPayments.map(\.id))
        }
        let first = try await run()
        #expect(first == (try await run()))
        #expect(first.contains { $0.contains("finishedOffline(") } && first.contains { $0.contains("finishedOnline(") },
                "a 50% flaky network should send some payments each way")
    }

    @Test("Square applies delay_action at delayed_until; the search shows it only after its lag")
    func delayedAction() async throws {
        let (simulator, clock) = try await authorizedSimulator()
        var manual = parameters("sale-1", cents: 30_00, mode: .onlineOnly)
        manual.autocomplete = false
        manual.delayDuration = 3600
        _ = await simulator.start(manual)
        let payment = try #require(await simulator.serverPayments.first)
        #expect(payment.status == .approved && payment.delayedUntil == payment.createdAt.addingTimeInterval(3600))
        clock.advance(by: 3601)
        let byID = try #require(try await simulator.server.payment(id: payment.id))
        #expect(byID.status == .canceled && byID.cardDetails?.status == .voided)
        #expect(byID.delayAction == .cancel && byID.delayedUntil == payment.delayedUntil)
        #expect(try await simulator.server.payments(referenceID: "sale-1", locationID: "LA1").first?.status == .approved,
                "the search still shows the state of 5 s ago")
        clock.advance(by: 5)
        #expect(try await simulator.server.payments(referenceID: "sale-1", locationID: "LA1").first?.status == .canceled)
        await #expect(throws: PaymentError.self) {
            try await simulator.server.capture(processor: "square", reference: "sale-1", processorPaymentID: payment.id,
                                               amount: Money(minorUnits: 30_00, currency: .usd))
        }
    }

    @Test("delay_action COMPLETE captures at delayed_until; the default delay is 36 hours")
    func delayedComplete() async throws {
        let (simulator, clock) = try await authorizedSimulator()
        var manual = parameters("sale-1", cents: 30_00, mode: .onlineOnly)
        manual.autocomplete = false
        manual.delayAction = .complete
        _ = await simulator.start(manual)
        let payment = try #require(await simulator.serverPayments.first)
        #expect(payment.delayedUntil == payment.createdAt.addingTimeInterval(36 * 3_600))
        clock.advance(by: 36 * 3_600)
        #expect(await simulator.serverPayments.first?.status == .completed)
    }

    @Test("CancelPaymentByIdempotencyKey voids an approved payment and is a no-op for an unknown key")
    func cancelByKey() async throws {
        let (simulator, _) = try await authorizedSimulator()
        var manual = parameters("sale-1", cents: 30_00, mode: .onlineOnly)
        manual.autocomplete = false
        _ = await simulator.start(manual)
        let key = try #require(await simulator.getIdempotencyKey(withPaymentAttemptId: "sale-1"))
        try await simulator.server.cancelPayment(byIdempotencyKey: "unknown-key")
        #expect(await simulator.serverPayments.first?.status == .approved)
        try await simulator.server.cancelPayment(byIdempotencyKey: key)
        #expect(await simulator.serverPayments.first?.status == .canceled)
        try await simulator.server.cancelPayment(byIdempotencyKey: key)  // again: nothing left to do
        await simulator.start(parameters("sale-2", cents: 5_00, mode: .onlineOnly))
        let completedKey = try #require(await simulator.getIdempotencyKey(withPaymentAttemptId: "sale-2"))
        await #expect(throws: PaymentError.self, "a completed payment cannot be voided") {
            try await simulator.server.cancelPayment(byIdempotencyKey: completedKey)
        }
    }

    @Test("past the device cap, offline, the reader stops until the device is back online")
    func deviceCap() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.deviceOfflinePaymentCap = 2
        let (simulator, _) = try await authorizedSimulator(configuration: configuration)
        await simulator.setNetwork(.offline)
        for index in 0..<2 {
            _ = await simulator.start(parameters("sale-\(index)", cents: 1_00, mode: .offlineOnly), delegate: RecordingDelegate())
        }
        #expect(await simulator.readers.first?.statusInfo.unavailableReasonInfo?.reason == .notConnectedToInternet)
        let third = RecordingDelegate()
        _ = await simulator.start(parameters("sale-2", cents: 1_00, mode: .offlineOnly), delegate: third)
        #expect(third.last == .failed("timedOut"), "no reader can read the card")
        await simulator.setNetwork(.online)
        #expect(await simulator.readers.first?.statusInfo.status == .ready)
    }

    @Test("state survives a restart: the truth, the queue, the attempt ids, and fresh ids never collide")
    func persistence() async throws {
        let (simulator, clock) = try await authorizedSimulator()
        _ = await simulator.start(parameters("online-1", cents: 9_00, mode: .onlineOnly), delegate: RecordingDelegate())
        _ = await simulator.start(parameters("offline-1", cents: 4_00, mode: .offlineOnly), delegate: RecordingDelegate())
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
        _ = await restarted.start(parameters("online-2", cents: 2_00, mode: .onlineOnly), delegate: RecordingDelegate())
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
        _ = await simulator.start(parameters("sale-1", cents: 60_00, mode: .offlineOnly), delegate: delegate)
        #expect(delegate.last == .failed("offlineTransactionAmountExceeded"))
    }
}
