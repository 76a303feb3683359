import Foundation
import Tender
@_spi(Testing) import TenderStripe
import TenderStripeSimulator
import Testing

@Suite("Stripe offline queue: the SDK's queue is the truth")
struct StripeOfflineQueueTests {
    @Test("the snapshot: the SDK's counts and amounts, entries with the SDK's storedAt, honestly partial after a relaunch")
    func snapshot() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let storedAt = clock.now()
        let first = try await pay(processor, sale("Q-1"), routing: .offline)
        clock.advance(by: 60)
        _ = try await pay(processor, sale("Q-2", cents: 2_500), routing: .offline)
        #expect(first.storedAt == storedAt, "the SDK's offlineDetails.storedAt, not the app's clock at reporting")
        let snapshot = try await processor.queueSnapshot()
        #expect(snapshot.networkStatus == .offline)
        #expect(snapshot.storedCount == 2)
        #expect(snapshot.storedAmounts[.usd] == 3_500)
        #expect(snapshot.oldestStoredAt == storedAt)
        #expect(snapshot.payments.map(\.reference) == ["Q-1", "Q-2"])
        #expect(snapshot.payments.first?.storedAt == storedAt)

        await simulator.relaunch()
        let fresh = makeProcessor(simulator, clock: clock)
        let after = try await fresh.queueSnapshot()
        #expect(after.storedCount == 2, "the SDK's count")
        #expect(after.storedAmounts[.usd] == 3_500)
        #expect(after.payments.isEmpty, "the SDK lists none; nothing is invented")
        #expect(after.oldestStoredAt == nil)

        await simulator.setSimulatedOfflineMode(.disabled)
        await simulator.forwardPendingPayments()
        let forwarded = try await fresh.queueSnapshot()
        #expect(forwarded.storedCount == 0)
        #expect(forwarded.payments.map(\.status) == [.forwarded, .forwarded])
        #expect(forwarded.payments.first?.storedAt == storedAt)
        #expect(forwardedUpdates(fresh).map(\.storedAt) == [storedAt, storedAt.addingTimeInterval(60)])
    }

    @Test("after clearCachedCredentials (count unknown) the snapshot still counts what the adapter knows is stored")
    func unknownCount() async throws {
        let (simulator, clock) = makeSimulator { $0.clearCachedCredentialsDropsStoredPayments = false }
        let processor = try await connectedProcessor(simulator, clock: clock)
        _ = try await pay(processor, sale("CC", policy: .forceOffline), routing: .offline)
        try await processor.disconnectReader()
        try await simulator.clearCachedCredentials()
        #expect(await simulator.offlineStatus.sdk.paymentsCount == nil)
        let snapshot = try await processor.queueSnapshot()
        #expect(snapshot.storedCount == 1)
        #expect(snapshot.storedAmounts[.usd] == 1_000)
    }

    @Test("forwarding failures by class: kept stored (1938), dropped (1937), declined; kept ones forward later")
    func forwardingFailureClasses() async throws {
        let cases: [(String?, Stripe.SimulatedCardType, PaymentState?, OfflinePaymentStatus)] = [
            ("forwardingLiveModePaymentInTestMode", .visa, nil, .stored),
            ("forwardingTestModePaymentInLiveMode", .visa, .failedToForward, .failedToForward),
            (nil, .chargeDeclined, .declinedAfterForwarding, .declinedAfterForwarding),
        ]
        for (failure, card, state, status) in cases {
            let (simulator, clock) = makeSimulator {
                $0.forwardingFailure = failure.map { Stripe.ErrorCode.Code($0) }
                $0.simulatedCard = card
            }
            let processor = try await connectedProcessor(simulator, clock: clock)
            _ = try await pay(processor, sale("FC"), routing: .offline)
            await simulator.forwardPendingPayments()
            #expect(forwardedUpdates(processor).map(\.state) == (state.map { [$0] } ?? []), "\(failure ?? "decline")")
            let snapshot = try await processor.queueSnapshot()
            #expect(snapshot.payments.first?.status == status)
            let lookup = try await processor.lookUpPayment(PaymentLookupQuery(reference: "FC", recordedState: .storedOffline,
                                                                              route: .offline, since: clock.now()))
            #expect(lookup.state == (state ?? .storedOffline), "the lookup agrees with the forwarding result")
            #expect(snapshot.storedCount == (status == .stored ? 1 : 0))
            if status == .stored {
                #expect(processor.emittedEvents.contains { event in
                    if case .forwardingError(let error) = event { error.vendor?.numericCode == 1938 } else { false }
                })
                await simulator.configure { $0.forwardingFailure = nil }
                await simulator.forwardPendingPayments()
                #expect(forwardedUpdates(processor).map(\.state) == [.forwarded])
                #expect(await simulator.chargeCount(reference: "FC") == 1)
            }
        }
    }

    @Test("background forwarding: a forceOffline payment taken online is forwarded on the SDK's schedule")
    func backgroundForwarding() async throws {
        let (simulator, clock) = makeSimulator { $0.backgroundForwardingDelay = 30 }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let stored = try await pay(processor, sale("BG", policy: .forceOffline), routing: .offline)
        #expect(stored.state == .storedOffline)
        #expect(try await processor.queueSnapshot().storedCount == 1)
        clock.advance(by: 30)
        let snapshot = try await processor.queueSnapshot()
        #expect(snapshot.storedCount == 0)
        #expect(forwardedUpdates(processor).map(\.state) == [.forwarded])
        #expect(await simulator.chargeCount(reference: "BG") == 1)
    }

    @Test("lookUp: stored (this launch), then forwarded; network status from the SDK")
    func lookUpStoredAndForwarded() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let stored = try await pay(processor, sale("L-1", policy: .forceOffline), routing: .offline)
        let recorded = query(stored, since: clock.now())
        #expect(try await processor.lookUpPayment(recorded).state == .storedOffline)
        await simulator.forwardPendingPayments()
        guard case .found(let forwarded) = try await processor.lookUpPayment(recorded) else {
            Issue.record("forwarded payment not found"); return
        }
        #expect(forwarded.state == .forwarded)
        #expect(forwarded.processorPaymentID != nil)
        #expect(forwarded.storedAt == stored.storedAt)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        #expect(await processor.networkStatus() == .offline)
    }
}
