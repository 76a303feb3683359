import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import Testing

/// Issue 18, items 9 and 12, through the facade: a Square payment is recorded on a session only when it is that
/// session's (reference, attempt, total), and an offline-only attempt Square's own queue proves was never stored
/// ends, after the windows, so that the order can be taken.
@Suite("Square: attribution and offline attempts never stored")
struct SquareAttributionTests {
    let scope = LedgerScope(merchantID: "MA", locationID: "LA1")
    let limits = OfflineRiskLimits.single(perPayment: Money(minorUnits: 200_00, currency: .usd),
                                          storedTotal: Money(minorUnits: 500_00, currency: .usd))

    func terminal(_ processor: SquareProcessor, _ ledger: any PaymentLedger, _ world: SquareWorld) -> PaymentTerminal {
        PaymentTerminal(processor: processor, ledger: ledger, scope: scope, limits: limits, clock: world.clock)
    }

    /// A new adapter over the same simulator, as the next launch makes it.
    func relaunched(_ world: SquareWorld) async -> SquareProcessor {
        await world.simulator.relaunch()
        var settings = SquareProcessor.Configuration()
        settings.simulatedReaders = true
        return SquareProcessor(client: world.simulator, captureService: world.simulator.server,
                               serverLookup: world.simulator.server, configuration: settings, clock: world.clock)
    }

    @Test("item 9: a reused reference on a fresh ledger is never recorded as paid by the earlier sale's payment")
    func reusedReferenceIsADuplicateNotASuccess() async throws {
        let world = try await SquareWorld()
        let earlier = terminal(world.processor, InMemoryPaymentLedger(), world)
        let paid = try await earlier.takePayment(SquareWorld.sale("order-1", cents: 10_00))
        #expect(paid.state == .succeeded)

        // A new ledger file (a reinstall restarting the order numbers): a 12.00 sale under "order-1".
        let reinstalled = terminal(await relaunched(world), InMemoryPaymentLedger(), world)
        let sale = SquareWorld.sale("order-1", cents: 12_00)
        let refused = try await reinstalled.takePayment(sale)
        #expect(refused.state == .outcomeUnknown, "Square refuses the reused attempt id: not charged")
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 1)

        world.clock.advance(by: 3_600)  // Square's search now shows the earlier payment
        _ = await reinstalled.recover()
        let recovered = try #require(try await reinstalled.session(reference: "order-1"))
        #expect(recovered.state != .succeeded, "the goods would leave the shop unpaid")
        #expect(recovered.processorPaymentID != paid.processorPaymentID)
        #expect(recovered.state == .outcomeUnknown)
        #expect(recovered.lastError?.code == .duplicateReference)

        let retried = try await reinstalled.takePayment(sale)
        #expect(retried.state == .outcomeUnknown)
        #expect(retried.processorPaymentID == nil)
        #expect(retried.lastError?.code == .duplicateReference)
        #expect(retried.lastError?.recovery == .fixRequest)
        #expect(await world.simulator.chargeCount(referenceID: "order-1") == 1)
    }

    @Test("item 12: a forceOffline sale killed before Square stored anything is failed after the windows, and the retry then takes it; before, the retry says to wait, not to go online")
    func offlineAttemptNeverStored() async throws {
        let world = try await SquareWorld()
        let ledger = InMemoryPaymentLedger()
        let sale = PaymentRequest(amount: Money(minorUnits: 9_00, currency: .usd), reference: "order-12",
                                  offlinePolicy: .forceOffline)
        await world.simulator.inject(.holdNextCard)
        let before = terminal(world.processor, ledger, world)
        let zombie = Task { try await before.takePayment(sale) }
        await world.waitUntilHolding()  // the reader waits for a card: nothing is stored yet
        let fresh = await relaunched(world)  // the app is killed
        #expect(try await zombie.value.state == .outcomeUnknown, "the old process's task learns nothing")
        #expect(await world.simulator.devicePayments.isEmpty, "Square stored nothing")

        let after = terminal(fresh, ledger, world)
        _ = await after.recover()
        #expect(try await after.session(reference: "order-12")?.state == .outcomeUnknown, "inside the windows")
        world.clock.advance(by: 20)
        let early = try await after.takePayment(sale)
        #expect(early.state == .outcomeUnknown)
        #expect(early.lastError?.recovery == .waitAndRetry, "online: wait, not 'try again when online'")
        #expect(early.lastError?.message.contains("never stored") == true)
        #expect(early.paymentAttempt == 1)

        world.clock.advance(by: 45)  // past the consistency and late-arrival windows since it was first seen absent
        let report = await after.recover()
        #expect(try await after.session(reference: "order-12")?.state == .failed,
                "Square's queue and server prove it was never stored")
        #expect(report.unresolved.isEmpty)
        let retried = try await after.takePayment(sale)
        #expect(retried.state == .storedOffline)
        #expect(retried.paymentAttempt == 2)
        #expect(await world.simulator.devicePayments.count == 1)
    }
}
