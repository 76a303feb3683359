import Foundation
import Testing
import Tender
@testable import TenderSquare
@testable import TenderSquareSimulator

/// The simulator's unkind parts: relaunches, held cards and authorizations, a lagging search, surcharges, Square's
/// device rules, and what survives a sign-out.
@Suite("Square simulator: faults and device rules")
struct SquareSimulatorFaultTests {
    @Test("relaunch: every handle, delegate and observer is forgotten; the SDK's store and Square's servers are kept")
    func relaunch() async throws {
        let (simulator, _) = try await authorizedSimulator()
        final class Observer: Square.ReaderObserver, Square.NetworkObserver {
            let calls = Locked(0)
            func readerWasAdded(_ readerInfo: Square.ReaderInfo) { calls.withLock { $0 += 1 } }
            func readerWasRemoved(_ readerInfo: Square.ReaderInfo) { calls.withLock { $0 += 1 } }
            func readerDidChange(_ readerInfo: Square.ReaderInfo, change: Square.ReaderChange) { calls.withLock { $0 += 1 } }
            func networkDidChange(isConnected: Bool) { calls.withLock { $0 += 1 } }
        }
        let observer = Observer()
        await simulator.add(observer as any Square.ReaderObserver)
        await simulator.add(observer as any Square.NetworkObserver)
        await simulator.start(parameters("stored", cents: 4_00, mode: .offlineOnly))
        await simulator.start(parameters("online", cents: 9_00, mode: .onlineOnly))
        await simulator.inject(.holdNextCard)
        let waiting = RecordingDelegate()
        let handle = try #require(await simulator.start(parameters("waiting", cents: 3_00, mode: .onlineOnly),
                                                        delegate: waiting))
        #expect(await handle.isPaymentCancelable)

        let heardBefore = observer.calls.current
        await simulator.relaunch()
        #expect(waiting.last == .failed("process ended (relaunch)"), "the forgotten delegate is told, once")
        #expect(await simulator.currentPaymentHandle == nil)
        let cancelable = await handle.isPaymentCancelable
        let canceled = await handle.cancelPayment()
        #expect(!cancelable && !canceled, "old handles are dead")
        await simulator.setNetwork(.offline)
        #expect(observer.calls.current == heardBefore, "old observers hear nothing")
        #expect(try await simulator.getPayments().map(\.referenceID) == ["stored"])
        #expect(await simulator.getIdempotencyKey(withPaymentAttemptId: "waiting") != nil)
        #expect(await simulator.chargeCount(referenceID: "online") == 1)
        #expect(await simulator.state == .authorized)
        #expect(!(await simulator.readers.isEmpty))
    }

    @Test("a held authorization reached Square: after a relaunch Square still charges it, and nobody is told")
    func heldAuthorizationThroughRelaunch() async throws {
        let (simulator, _) = try await authorizedSimulator()
        await simulator.inject(.holdNextAuthorization)
        let delegate = RecordingDelegate()
        let handle = try #require(await simulator.start(parameters("sale-1", cents: 7_00, mode: .onlineOnly),
                                                        delegate: delegate))
        #expect(await simulator.isHolding)
        #expect(!(await handle.isPaymentCancelable), "the card was read: too late to cancel")
        #expect(await simulator.currentPaymentHandle != nil, "Square's UI is still processing")
        #expect(await simulator.serverPayments.isEmpty)
        await simulator.relaunch()
        await simulator.releaseHeld()
        #expect(await simulator.chargeCount(referenceID: "sale-1") == 1)
        #expect(delegate.events.current == [.started, .failed("process ended (relaunch)")])
    }

    @Test("a held card can be canceled; releasing it lets the payment complete")
    func heldCard() async throws {
        let (simulator, _) = try await authorizedSimulator()
        await simulator.inject(.holdNextCard)
        let first = RecordingDelegate()
        let handle = try #require(await simulator.start(parameters("sale-1", cents: 7_00, mode: .onlineOnly),
                                                        delegate: first))
        #expect(await simulator.isHolding)
        #expect(await handle.cancelPayment())
        #expect(first.last == .canceled)
        #expect(!(await simulator.isHolding))
        await simulator.inject(.holdNextCard)
        let second = RecordingDelegate()
        await simulator.start(parameters("sale-2", cents: 7_00, mode: .onlineOnly), delegate: second)
        await simulator.releaseHeld()
        guard case .finishedOnline(let payment) = second.last else { Issue.record("\(String(describing: second.last))"); return }
        #expect(payment.status == .completed)
    }

    @Test("the search lags by searchLag; a read by id does not")
    func searchLag() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.searchLag = 30
        let (simulator, clock) = try await authorizedSimulator(configuration: configuration)
        await simulator.start(parameters("sale-1", cents: 7_00, mode: .onlineOnly))
        let id = try #require(await simulator.serverPayments.first?.id)
        #expect(try await simulator.server.payments(referenceID: "sale-1", locationID: "LA1").isEmpty)
        #expect(try await simulator.server.payment(id: id)?.status == .completed)
        clock.advance(by: 30)
        #expect(try await simulator.server.payments(referenceID: "sale-1", locationID: "LA1").map(\.id) == [id])
        await simulator.setNetwork(.offline)
        await #expect(throws: PaymentError.self) { _ = try await simulator.server.payment(id: id) }
    }

    @Test("a surcharging seller surcharges online card payments that allow it, never offline ones or refused ones")
    func surcharge() async throws {
        let (simulator, _) = try await authorizedSimulator(token: "tok-C", location: "LC")
        let handle = try #require(await simulator.start(parameters("sale-1", cents: 100_00, mode: .onlineOnly)))
        #expect(await handle.totalMoneyWithProposedCardSurcharge == Square.Money(amount: 103_00, currency: .USD))
        let surcharged = try #require(await simulator.serverPayments.first)
        #expect(surcharged.amountMoney.amount == 103_00, "the SDK's default (allowCardSurcharge) adds 3%")
        #expect(surcharged.cardDetails.appliedCardSurchargeDetails?.cardSurchargeMoney.amount == 3_00)
        var refused = parameters("sale-2", cents: 100_00, mode: .onlineOnly)
        refused.allowCardSurcharge = false
        await simulator.start(refused)
        #expect(await simulator.serverPayments.last?.amountMoney.amount == 100_00)
        await simulator.start(parameters("sale-3", cents: 100_00, mode: .offlineOnly))
        await simulator.syncUntilIdle()
        #expect(await simulator.serverPayments.last?.amountMoney.amount == 100_00, "never offline")
    }

    @Test("the offline window runs from when Square was last reached, not from a reconnection that reached nothing")
    func offlineWindow() async throws {
        for restart in [SquareSimulator.OfflineWindowRestart.squareReached, .networkReconnection] {
            var configuration = SquareSimulator.Configuration()
            configuration.offlineWindowRestart = restart
            let (simulator, clock) = try await authorizedSimulator(configuration: configuration)
            let wentOffline = clock.now()
            await simulator.setNetwork(.offline)
            clock.advance(by: 20 * 3_600)
            await simulator.setNetwork(.flaky(failureRate: 1))  // connected, but every request to Square fails
            await simulator.setNetwork(.offline)
            clock.advance(by: 5 * 3_600)
            let ready = await simulator.readers.first?.statusInfo.status == .ready
            if restart == .squareReached {
                #expect(await simulator.lastConnectedAt == wentOffline)
                #expect(!ready, "25 hours since Square was last reached: the reader stops")
            } else {
                #expect(ready, "configured: any reconnection restarts the window")
            }
        }
    }

    @Test("Square's cap counts every account and location on the device")
    func deviceWideCap() async throws {
        var configuration = SquareSimulator.Configuration()
        configuration.deviceOfflinePaymentCap = 3
        let (simulator, _) = try await authorizedSimulator(configuration: configuration)
        await simulator.setNetwork(.offline)
        for index in 0..<2 { await simulator.start(parameters("a-\(index)", cents: 1_00, mode: .offlineOnly)) }
        await simulator.setNetwork(.online)
        await simulator.deauthorize()
        try await simulator.authorize(withAccessToken: "tok-B", locationID: "LB")
        await simulator.setNetwork(.offline)
        #expect(await simulator.readers.first?.statusInfo.status == .ready)
        await simulator.start(parameters("b-0", cents: 1_00, mode: .offlineOnly))
        #expect(try await simulator.getPayments().count == 1, "seller B sees only its own payment")
        #expect(await simulator.readers.first?.statusInfo.unavailableReasonInfo?.reason == .notConnectedToInternet,
                "three queued on the device: the reader stops for seller B too")
    }

    @Test("signing out keeps queued payments; they upload once that seller signs in again")
    func signOutKeepsQueue() async throws {
        let (simulator, _) = try await authorizedSimulator()
        await simulator.start(parameters("a-1", cents: 1_00, mode: .offlineOnly))
        await simulator.deauthorize()
        #expect(await simulator.devicePayments.map(\.payment.status) == [.queued])
        try await simulator.authorize(withAccessToken: "tok-B", locationID: "LB")
        #expect(await simulator.syncUntilIdle() == 0, "not while another seller is signed in (UNVERIFIED default)")
        await simulator.deauthorize()
        try await simulator.authorize(withAccessToken: "tok-A", locationID: "LA1")
        await simulator.syncUntilIdle()
        #expect(await simulator.chargeCount(referenceID: "a-1") == 1)
    }

    @Test("keyed entry needs AdditionalPaymentMethods.keyed; the presentation context reaches the SDK")
    func keyedAndPresentation() async throws {
        let (simulator, _) = try await authorizedSimulator()
        await simulator.setPresentedCard(.keyedVisa)
        let refused = RecordingDelegate()
        await simulator.start(parameters("sale-1", cents: 1_00, mode: .onlineOnly), delegate: refused)
        #expect(refused.last == .failed("invalidPaymentSource"))
        let offered = RecordingDelegate()
        _ = await simulator.startPayment(parameters("sale-2", cents: 1_00, mode: .onlineOnly),
                                         promptParameters: .init(additionalMethods: [.keyed]),
                                         from: .init(name: "checkout", viewController: { nil }), delegate: offered)
        guard case .finishedOnline(let payment) = offered.last else { Issue.record("keyed refused"); return }
        #expect(payment.cardDetails?.entryMethod == .keyed)
        #expect(await simulator.lastPresentationName == "checkout")
    }

    @Test("removed observers hear nothing")
    func observersRemoved() async throws {
        let (simulator, _) = try await authorizedSimulator()
        final class Counter: Square.NetworkObserver, Square.AuthorizationStateObserver {
            let calls = Locked(0)
            func networkDidChange(isConnected: Bool) { calls.withLock { $0 += 1 } }
            func authorizationStateDidChange(_ authorizationState: Square.AuthorizationState) { calls.withLock { $0 += 1 } }
        }
        let counter = Counter()
        await simulator.add(counter as any Square.NetworkObserver)
        await simulator.add(counter as any Square.AuthorizationStateObserver)
        await simulator.setNetwork(.offline)
        await simulator.deauthorize()
        #expect(counter.calls.current == 2)
        await simulator.remove(counter as any Square.NetworkObserver)
        await simulator.remove(counter as any Square.AuthorizationStateObserver)
        await simulator.setNetwork(.online)
        try await simulator.authorize(withAccessToken: "tok-A", locationID: "LA1")
        #expect(counter.calls.current == 2)
    }
}
