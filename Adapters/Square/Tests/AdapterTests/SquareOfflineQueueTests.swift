import Foundation
import Testing
@_spi(Testing) import Tender
import TenderTestKit
@testable import TenderSquare
@testable import TenderSquareSimulator

@Suite("Square processor: offline queue and forwarding")
struct SquareOfflineQueueTests {
    @Test("offline: store, then forward approved; localID becomes the Square id")
    func offlineForwardApproved() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        await world.simulator.setPresentedCard(.mastercardContactless)
        let (stored, states) = try await world.pay("order-1", cents: 30_00, routing: .offline)
        #expect(states == [.collecting, .processing])
        #expect(stored.state == .storedOffline && stored.route == .offline)
        let localID = try #require(stored.localID)
        #expect(stored.storedAt == (await world.simulator.devicePayments.first?.payment.createdAt), "Square's createdAt (B3)")
        #expect(stored.processorPaymentID == nil)
        #expect(stored.card?.brand == .mastercard && stored.card?.last4 == "5100")
        #expect(stored.card?.authorizationCode == nil, "Square supplies no auth code offline")
        #expect(world.emitter.emitted.contains(.readerInputRequested([.insert, .tap])), "no swipe offline")
        let queue = try await world.processor.queueSnapshot()
        #expect(queue.networkStatus == .offline && queue.storedCount == 1 && queue.storedAmounts[.usd] == 30_00)
        #expect(await world.simulator.serverPayments.isEmpty)

        await world.simulator.setNetwork(.online)
        await world.simulator.syncOfflinePayments()
        await world.processor.refreshOfflineQueue()
        #expect(world.forwarded.isEmpty, "uploaded is not yet processed")
        #expect(try await world.processor.queueSnapshot().payments.first?.status == .uploaded)
        await world.simulator.syncOfflinePayments()
        await world.processor.refreshOfflineQueue()
        let forwarded = try #require(world.forwarded.first)
        #expect(forwarded.state == .forwarded && forwarded.reference == "order-1" && forwarded.localID == localID)
        #expect(forwarded.processorPaymentID == (await world.simulator.serverPayments.first?.id))
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 1)
        await world.processor.refreshOfflineQueue()
        #expect(world.forwarded.count == 1, "a change is reported once")
        world.clock.advance(by: 60)
        #expect(try await world.processor.queueSnapshot().payments.isEmpty, "the SDK deleted it after processedRetention")
        #expect(world.forwarded.count == 1)
        #expect(world.emitter.emitted.contains(.networkStatusChanged(.offline)))
        #expect(world.emitter.emitted.contains(.networkStatusChanged(.online)))
    }

    @Test("offline: a declined card is stored, and declined only when Square processes it")
    func offlineDeclineAtForward() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        await world.simulator.setPresentedCard(.declined)
        let (stored, _) = try await world.pay("order-1", cents: 50_00, routing: .offline)
        #expect(stored.state == .storedOffline && stored.error == nil)
        await world.simulator.setNetwork(.online)
        await world.simulator.syncUntilIdle()
        let snapshot = try await world.processor.queueSnapshot()
        #expect(snapshot.payments.first?.status == .declinedAfterForwarding)
        let declined = try #require(world.forwarded.first)
        #expect(declined.state == .declinedAfterForwarding && declined.error?.code == .cardDeclined)
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 0)
    }

    @Test("requireOnline while offline: refused by the router, and onlineOnly fails with noNetwork")
    func requireOnlineWhileOffline() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        let request = SquareWorld.sale("order-1", cents: 10_00)
        let decision = OfflineRouter.decide(request: request, limits: nil, queue: .empty(.offline), network: .offline,
                                            now: world.clock.now())
        guard case .refused(let refusal) = decision else {
            Issue.record("requireOnline offline should be refused, got \(decision)")
            return
        }
        #expect(refusal.code == .offlineNotAllowed)
        let (outcome, _) = try await world.pay("order-1", cents: 10_00, routing: .online)
        #expect(outcome.state == .failed && outcome.error?.code == .networkUnavailable)
        #expect(outcome.error?.vendor?.name == "noNetwork")
        #expect(await world.simulator.devicePayments.isEmpty)
        #expect(await world.simulator.serverPayments.isEmpty)
    }

    @Test("forceOffline while online: stored, not sent, until sync")
    func forceOfflineWhileOnline() async throws {
        let world = try await SquareWorld()
        let (outcome, _) = try await world.pay("order-1", cents: 10_00, routing: .offline)
        #expect(outcome.state == .storedOffline && outcome.localID != nil)
        #expect(await world.simulator.serverPayments.isEmpty)
        await world.simulator.syncUntilIdle()
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 1)
    }

    @Test("autoDetect falls back offline when the request fails, and goes online otherwise")
    func autoDetect() async throws {
        let world = try await SquareWorld()
        let (online, _) = try await world.pay("order-1", cents: 10_00, routing: .onlineWithOfflineFallback)
        #expect(online.state == .succeeded && online.route == .online)
        await world.simulator.setNetwork(.flaky(failureRate: 1))
        let (fallback, _) = try await world.pay("order-2", cents: 10_00, routing: .onlineWithOfflineFallback)
        #expect(fallback.state == .storedOffline && fallback.route == .offline)
        let (strict, _) = try await world.pay("order-3", cents: 10_00, routing: .online)
        #expect(strict.state == .failed && strict.error?.code == .networkUnavailable)
        #expect(await world.simulator.syncOfflinePayments() == 0, "every upload request fails")
    }

    @Test("over the seller's per-payment limit: refused by the router and by Square")
    func overTransactionLimit() async throws {
        let world = try await SquareWorld()
        let capabilities = await world.processor.capabilities()
        let limits = OfflineRiskLimits.single(perPayment: Money(minorUnits: 1_000_00, currency: .usd),
                                              storedTotal: Money(minorUnits: 5_000_00, currency: .usd))
            .merged(with: capabilities.offlineLimits, source: .processor("square"))
        var request = SquareWorld.sale("order-1", cents: 250_00)
        request.offlinePolicy = .forceOffline
        let decision = OfflineRouter.decide(request: request, limits: limits, queue: .empty(.offline),
                                            network: .offline, now: world.clock.now())
        guard case .refused(let refusal) = decision else {
            Issue.record("expected a refusal, got \(decision)")
            return
        }
        #expect(refusal.code == .offlinePaymentLimitExceeded && refusal.limit?.source == .processor("square"))
        let (outcome, _) = try await world.pay("order-1", cents: 250_00, routing: .offline)
        #expect(outcome.state == .failed && outcome.error?.code == .offlinePaymentLimitExceeded)
        #expect(outcome.error?.vendor?.name == "offlineTransactionAmountExceeded")
    }

    @Test("over the seller's stored-total limit: offlineStoredAmountExceeded")
    func overStoredTotal() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        for index in 0..<2 {
            let (stored, _) = try await world.pay("order-\(index)", cents: 190_00, routing: .offline)
            #expect(stored.state == .storedOffline)
        }
        let (outcome, _) = try await world.pay("order-2", cents: 190_00, routing: .offline)
        #expect(outcome.state == .failed && outcome.error?.code == .offlineStoredTotalExceeded)
        #expect(outcome.error?.vendor?.name == "offlineStoredAmountExceeded")
        #expect(await world.simulator.devicePayments.count == 2)
    }

    @Test("a queued payment expires after the 24-hour window; the reader stops taking offline payments")
    func expiresAfterWindow() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        _ = try await world.pay("order-1", cents: 10_00, routing: .offline)
        world.clock.advance(by: 25 * 60 * 60)
        let (late, _) = try await world.pay("order-2", cents: 10_00, routing: .offline)
        #expect(late.state == .failed && late.error?.code == .readerOfflineConnectionRefused)
        await world.simulator.setNetwork(.online)
        await world.simulator.syncUntilIdle()
        await world.processor.refreshOfflineQueue()
        let expired = try #require(world.forwarded.first)
        #expect(expired.state == .failedToForward && expired.error?.code == .forwardingFailed)
        #expect(expired.reference == "order-1")
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 0)
    }

    @Test("on a flaky network, uploads fail and are retried by later sync steps until every payment is processed")
    func flakyForwarding() async throws {
        let world = try await SquareWorld(seed: 11)
        await world.simulator.setNetwork(.offline)
        for index in 0..<4 {
            let (stored, _) = try await world.pay("order-\(index)", cents: 5_00, routing: .offline)
            #expect(stored.state == .storedOffline)
        }
        await world.simulator.setNetwork(.flaky(failureRate: 0.5))
        var steps = 0
        while try await world.processor.queueSnapshot().payments.contains(where: { $0.status != .forwarded }),
              steps < 40 {
            await world.simulator.syncOfflinePayments(maxCount: 1)
            steps += 1
        }
        #expect(steps > 8, "one payment moves at most one step per sync, and some requests fail")
        #expect(Set(world.forwarded.map(\.reference)) == ["order-0", "order-1", "order-2", "order-3"])
        #expect(world.forwarded.allSatisfy { $0.state == .forwarded })
        for index in 0..<4 { #expect(await world.simulator.chargeCount(referenceID: "order-\(index)") == 1) }
    }

    @Test("upload faults: a rejected upload fails to forward, an unverifiable one is retried")
    func uploadFaults() async throws {
        let world = try await SquareWorld()
        _ = try await world.pay("order-1", cents: 10_00, routing: .offline)
        _ = try await world.pay("order-2", cents: 10_00, routing: .offline)
        await world.simulator.injectUploadFault(.rejected)
        await world.simulator.injectUploadFault(.unverifiable)
        await world.simulator.syncOfflinePayments()
        let snapshot = try await world.processor.queueSnapshot()
        #expect(snapshot.payments.map(\.status) == [.failedToForward, .unknown])
        #expect(snapshot.storedCount == 1, "an unknown payment still counts against the limits")
        #expect(world.forwarded.map(\.state) == [.failedToForward])
        await world.simulator.syncUntilIdle()
        await world.processor.refreshOfflineQueue()
        #expect(world.forwarded.map(\.state) == [.failedToForward, .forwarded])
        #expect(world.forwarded.last?.reference == "order-2")
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 0)
    }

    @Test("two sellers on one device never see each other's queue")
    func twoSellers() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        _ = try await world.pay("a-1", cents: 10_00, routing: .offline)
        await world.simulator.setNetwork(.online)
        do {
            try await world.processor.deauthorize()
            Issue.record("signing out with queued payments was allowed")
        } catch {
            #expect(error.code == .unforwardedPaymentsAtRisk)
            #expect(error.message.contains("keeps them on this device"), "Square keeps the queue across a sign-out")
        }
        try await world.processor.deauthorize(acceptingQueuedPayments: true)
        try await world.processor.authorize(accessToken: "tok-B", locationID: "LB")
        let queueB = try await world.processor.queueSnapshot()
        #expect(queueB.payments.isEmpty && queueB.storedCount == 0)
        #expect(try await world.processor.lookUpPayment(reference: "a-1", localID: nil, processorPaymentID: nil)
            == .unknown, "seller B cannot see seller A's queue; the SDK holds a key for the attempt")
        await world.simulator.syncUntilIdle()
        #expect(await world.simulator.serverPayments.isEmpty, "seller A's payment does not upload under seller B")
        try await world.processor.deauthorize()
        try await world.processor.authorize(accessToken: "tok-A", locationID: "LA1")
        #expect(try await world.processor.queueSnapshot().payments.map(\.reference) == ["a-1"],
                "queued payments remain after signing out (the seed); dropping them is configurable")
        do {
            try await world.processor.authorize(accessToken: "tok-B", locationID: "LB")
            Issue.record("authorized twice")
        } catch {
            #expect(error.code == .invalidState && error.vendor?.name == "alreadyAuthorized")
        }
    }

    @Test("when deauthorize is configured to drop the queue, the seller's queued payments are gone")
    func deauthorizeDropsQueue() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.deauthorizeDropsQueue = true
        let world = try await SquareWorld(configuration: configuration)
        _ = try await world.pay("a-1", cents: 10_00, routing: .offline)
        try await world.processor.deauthorize(acceptingQueuedPayments: true)
        try await world.processor.authorize(accessToken: "tok-A", locationID: "LA1")
        #expect(try await world.processor.queueSnapshot().payments.isEmpty)
    }

    @Test("manual capture after forwarding: stored, forwarded as approved, then captured")
    func manualCaptureAfterForwarding() async throws {
        let world = try await SquareWorld()
        await world.simulator.setNetwork(.offline)
        let (stored, _) = try await world.pay("order-1", cents: 60_00, routing: .offline, capture: .manual)
        #expect(stored.state == .storedOffline)
        await world.simulator.setNetwork(.online)
        await world.simulator.syncUntilIdle()
        await world.processor.refreshOfflineQueue()
        let forwarded = try #require(world.forwarded.first)
        #expect(forwarded.state == .forwarded)
        let id = try #require(forwarded.processorPaymentID)
        let approvedAt = try #require(await world.simulator.serverPayments.first?.createdAt)
        #expect(forwarded.captureBefore == approvedAt.addingTimeInterval(36 * 3_600), "Square's delay (B4)")
        #expect(await world.simulator.serverPayments.first?.status == .approved)
        let captured = try await world.processor.capturePayment(reference: "order-1", processorPaymentID: id,
                                                                amount: Money(minorUnits: 60_00, currency: .usd))
        #expect(captured.state == .succeeded)
        #expect(await world.simulator.serverPayments.first?.status == .completed)
        guard case .found(let found) = try await world.processor.lookUpPayment(
            reference: "order-1", localID: stored.localID, processorPaymentID: id) else {
            Issue.record("the forwarded payment should be found on the server")
            return
        }
        #expect(found.state == .forwarded && found.route == .offline)
    }


    @Test("a forwarded manual-capture payment whose delay ran out: Square canceled it, and lookup says so (B4)")
    func forwardedAuthorizationExpires() async throws {
        let world = try await SquareWorld()
        let (stored, _) = try await world.pay("order-1", cents: 60_00, routing: .offline, capture: .manual)
        await world.simulator.syncUntilIdle()
        await world.processor.refreshOfflineQueue()
        let id = try #require(world.forwarded.first?.processorPaymentID)
        world.clock.advance(by: 36 * 3_600)
        guard case .found(let found) = try await world.processor.lookUpPayment(world.query(
            "order-1", state: .forwarded, localID: stored.localID, id: id, route: .offline, capture: .manual)) else {
            Issue.record("not found")
            return
        }
        #expect(found.state == .canceled && found.error?.code == .authorizationExpired)
    }

    @Test("processed and deleted unseen: the next read finds it on the server and reports it (B1)")
    func processedUnseen() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.processedRetention = 0
        let world = try await SquareWorld(configuration: configuration)
        let (stored, _) = try await world.pay("order-1", cents: 10_00, routing: .offline)
        for _ in 0..<2 { await world.simulator.syncOfflinePayments() }  // uploaded, processed: nobody reads
        #expect(await world.simulator.devicePayments.isEmpty, "the SDK deleted it at once")
        let lagging = try await world.processor.queueSnapshot()
        #expect(lagging.payments.isEmpty && world.forwarded.isEmpty, "not on the device, not yet in Square's search")
        world.clock.advance(by: 5)
        let snapshot = try await world.processor.queueSnapshot()
        let server = try #require(await world.simulator.serverPayments.first)
        #expect(snapshot.payments.map(\.status) == [.forwarded])
        #expect(snapshot.payments.first?.processorPaymentID == server.id && snapshot.payments.first?.localID == stored.localID)
        let forwarded = try #require(world.forwarded.first)
        #expect(forwarded.state == .forwarded && forwarded.reference == "order-1" && forwarded.processorPaymentID == server.id)
        #expect(forwarded.storedAt == stored.storedAt)
        _ = try await world.processor.queueSnapshot()
        #expect(world.forwarded.count == 1, "reported once")
    }

    @Test("the vendor's queue in the snapshot: every status held, local ids, Square's times, Square's own total (B2)")
    func vendorQueue() async throws {
        let world = try await SquareWorld()
        for index in 0..<3 { _ = try await world.pay("order-\(index)", cents: 10_00 + Int64(index), routing: .offline) }
        await world.simulator.injectUploadFault(.rejected)
        await world.simulator.syncOfflinePayments(maxCount: 2)  // order-0 failedToUpload, order-1 uploaded
        let device = await world.simulator.devicePayments.map(\.payment)
        let snapshot = try await world.processor.queueSnapshot()
        #expect(snapshot.payments.map(\.status) == [.failedToForward, .uploaded, .stored])
        #expect(snapshot.payments.map(\.localID) == device.map(\.localID))
        #expect(snapshot.payments.map(\.storedAt) == device.map(\.createdAt))
        #expect(snapshot.storedCount == 1 && snapshot.storedAmounts[.usd] == 10_02)
        // Square's own total wins when it says more than the entries show.
        let inflated = SquareProcessor(client: InflatedTotalClient(simulator: world.simulator, extra: 5_00),
                                       captureService: world.simulator.server)
        #expect(try await inflated.queueSnapshot().storedAmounts[.usd] == 15_02)
    }

    @Test("Square's device rules in the snapshot: device count, last online while offline (B6)")
    func deviceRules() async throws {
        let world = try await SquareWorld()
        #expect(try await world.processor.queueSnapshot().lastOnlineAt == nil, "online now")
        let wentOffline = world.clock.now()
        await world.simulator.setNetwork(.offline)
        world.clock.advance(by: 7_200)
        _ = try await world.pay("order-1", cents: 10_00, routing: .offline)
        let snapshot = try await world.processor.queueSnapshot()
        #expect(snapshot.lastOnlineAt == wentOffline && snapshot.deviceStoredCount == 1)
        #expect(await world.processor.networkStatus() == .offline)
    }
}

/// The simulator with an SDK whose `getTotalStoredPaymentsAmount` reports more than its listed payments.
struct InflatedTotalClient: SquareClient, Square.PaymentManager, Square.OfflinePaymentQueue {
    let simulator: SquareSimulator
    let extra: UInt
    var authorizationManager: any Square.AuthorizationManager { simulator }
    var paymentManager: any Square.PaymentManager { self }
    var readerManager: any Square.ReaderManager { simulator }
    var settingsManager: any Square.SettingsManager { simulator }
    var networkMonitor: any Square.NetworkMonitor { simulator }
    var offlinePaymentQueue: any Square.OfflinePaymentQueue { self }
    func startPayment(_ paymentParameters: Square.PaymentParameters, promptParameters: Square.PromptParameters,
                      from presentation: Square.PresentationContext, delegate: any Square.PaymentManagerDelegate) async
        -> (any Square.PaymentHandle)? {
        await simulator.startPayment(paymentParameters, promptParameters: promptParameters, from: presentation,
                                     delegate: delegate)
    }
    var currentPaymentHandle: (any Square.PaymentHandle)? { get async { await simulator.currentPaymentHandle } }
    func getIdempotencyKey(withPaymentAttemptId paymentAttemptId: String) async -> String? {
        await simulator.getIdempotencyKey(withPaymentAttemptId: paymentAttemptId)
    }
    var availableCardInputMethods: Square.CardInputMethods { get async { await simulator.availableCardInputMethods } }
    func add(_ observer: any Square.AvailableCardInputMethodsObserver) async { await simulator.add(observer) }
    func remove(_ observer: any Square.AvailableCardInputMethodsObserver) async { await simulator.remove(observer) }
    func getPayments() async throws(Square.OfflinePaymentQueueError) -> [Square.OfflinePayment] {
        try await simulator.getPayments()
    }
    func getTotalStoredPaymentsAmount() async throws(Square.OfflinePaymentQueueError) -> any Square.MoneyAmount {
        let total = try await simulator.getTotalStoredPaymentsAmount()
        return Square.Money(amount: total.amount + extra, currency: total.currency)
    }
}
