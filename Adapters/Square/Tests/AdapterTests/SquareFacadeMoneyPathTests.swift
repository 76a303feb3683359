import Foundation
import Testing
import Tender
import TenderTestKit
@testable import TenderSquare
@testable import TenderSquareSimulator

private let mainStreet = LedgerScope(merchantID: "MA", locationID: "LA1")
private let harbor = LedgerScope(merchantID: "MA", locationID: "LA2")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

private func squareTerminal(_ world: SquareWorld, ledger: any PaymentLedger = InMemoryPaymentLedger()) -> PaymentTerminal {
    PaymentTerminal(processor: world.processor, ledger: ledger, scope: mainStreet,
                    limits: .single(perPayment: usd(1_000_00), storedTotal: usd(5_000_00), storedCount: 50),
                    clock: world.clock)
}

/// Issue 18 through the facade over Square: expiry at capture, scope switches, a ledger failure after `.finished`.
@Suite("Square through the facade: the remaining money paths")
struct SquareFacadeMoneyPathTests {
    @Test("a capture Square refuses because its delay ran out records the expiry at once")
    func captureRefusedForExpiry() async throws {
        let world = try await SquareWorld(adapter: { $0.delayDuration = 3_600 })
        let terminal = squareTerminal(world)
        let held = try await terminal.takePayment(SquareWorld.sale("exp-1", cents: 40_00, capture: .manual))
        #expect(held.state == .authorized)
        world.clock.advance(by: 3_601)
        do {
            _ = try await terminal.capture(reference: "exp-1")
            Issue.record("an expired authorization was captured")
        } catch let error as PaymentError {
            #expect(error.code == .authorizationExpired)
        }
        let session = try #require(try await terminal.session(reference: "exp-1"))
        #expect(session.state == .canceled && session.lastError?.code == .authorizationExpired)
        #expect(session.transitions.last?.from == .authorized)
    }

    @Test("an error Square says to retry, reported after the payment started while Square charged: unknown, and the retry continues it: charged once")
    func errorAfterChargeIsUnknown() async throws {
        let world = try await SquareWorld()
        let terminal = squareTerminal(world)
        await world.simulator.inject(.errorAfterCharge(.unsupportedMode))
        let first = try await terminal.takePayment(SquareWorld.sale("mid-1", cents: 25_00))
        #expect(first.state == .outcomeUnknown, "\(first.state)")
        #expect(first.lastError?.recovery == .retrySamePayment)
        world.clock.advance(by: 10)
        let second = try await terminal.takePayment(SquareWorld.sale("mid-1", cents: 25_00))
        #expect(second.state == .succeeded, "\(second.state)")
        #expect(second.paymentAttempt == 1, "the same vendor payment, not a new one")
        #expect(await world.simulator.chargeCount(referenceID: "mid-1") == 1)
    }

    @Test("an Interac payment taken online is refunded through the app's server: Square has no in-person refund")
    func interacRefundedThroughTheServer() async throws {
        let world = try await SquareWorld()
        let terminal = squareTerminal(world)
        await world.simulator.setPresentedCard(.interac)
        let paid = try await terminal.takePayment(SquareWorld.sale("i-1", cents: 10_00))
        #expect(paid.state == .succeeded && paid.card?.brand == .interac)
        #expect(!(await world.processor.capabilities().refundsInteracOnReader))
        let refund = try await terminal.refund(reference: "i-1")
        // Square's refund begins PENDING on its server, then completes on its clock: the poller settles it.
        #expect(refund.status == .pending && refund.error == nil, "\(String(describing: refund.error))")
        #expect(!refund.throughReader && refund.amount == usd(10_00))
        world.clock.advance(by: 10)
        await terminal.pollOnce()
        let session = try #require(try await terminal.session(reference: "i-1"))
        #expect(session.refunds.map(\.status) == [.succeeded], "\(session.refunds)")
        #expect(session.refundableAmount == usd(0))
        #expect(await world.simulator.serverRefunds.count == 1)
    }

    @Test("switching back to the location that owns a payment in Square's offline queue is allowed")
    func switchBackToTheOwningScope() async throws {
        let world = try await SquareWorld()
        let terminal = squareTerminal(world)
        await world.simulator.setNetwork(.offline)
        await terminal.handle(.networkStatusChanged(.offline))
        var offlineSale = SquareWorld.sale("sw-1", cents: 12_00)
        offlineSale.offlinePolicy = .preferOnline
        #expect(try await terminal.takePayment(offlineSale).state == .storedOffline)
        await #expect(throws: PaymentError.self) { try await terminal.switchScope(to: harbor) }
        try await terminal.switchScope(to: harbor, acknowledgingLossOfStoredPayments: true)
        try await terminal.switchScope(to: mainStreet)
        #expect(await terminal.scope == mainStreet)
    }

    @Test("a ledger failure after Square finished the payment: outcomeUnknown, the same reference is safe, charged once")
    func ledgerFailureAfterFinished() async throws {
        let world = try await SquareWorld()
        let ledger = FaultInjectingLedger(wrapping: InMemoryPaymentLedger())
        let terminal = squareTerminal(world, ledger: ledger)
        // Square reports nothing between the card and `didFinish`: the adapter records `processing` then.
        ledger.failWrites(times: 1) { $0.newState == .processing }
        let sale = SquareWorld.sale("fin-1", cents: 23_00)
        do {
            let session = try await terminal.takePayment(sale)
            Issue.record("takePayment returned \(session.state) although Square's answer could not be recorded")
        } catch let error as PaymentError {
            #expect(error.code == .outcomeUnknown, "\(error)")
            #expect(error.recovery == .retrySamePayment)
            #expect(error.message.contains("may have been charged"), "\(error.message)")
        }
        #expect(await world.simulator.chargeCount(referenceID: "fin-1") == 1)
        // Square's search shows the payment once its consistency window has passed (before, a lookup is unknown).
        world.clock.advance(by: 90)
        let report = await terminal.recover()
        let recovered = try await terminal.session(reference: "fin-1")
        #expect(recovered?.state == .succeeded, "\(report) \(String(describing: recovered))")
        #expect(try await terminal.takePayment(sale).state == .succeeded)
        #expect(await world.simulator.chargeCount(referenceID: "fin-1") == 1)
    }

    @Test("Square documents no maximum: none is declared by default; a configured account limit is applied before Square is asked")
    func amountLimit() async throws {
        var limited = SquareSimulator.Configuration()
        limited.maximumPaymentAmount = 50_000_00  // an account limit (UNVERIFIED as a Square fact)
        let undeclared = try await SquareWorld(configuration: limited)
        #expect(await undeclared.processor.capabilities().amountLimits == nil)
        // Without the adapter knowing, Square refuses it late: nothing charged, but the vendor was asked.
        let late = try await squareTerminal(undeclared).takePayment(SquareWorld.sale("big-1", cents: 50_000_01))
        #expect(late.state == .failed && late.lastError?.vendor?.name == "invalidPaymentParameters")

        let declared = try await SquareWorld(configuration: limited, adapter: { $0.maximumAmounts = [.usd: 50_000_00] })
        let limits = try #require(await declared.processor.capabilities().amountLimits)
        #expect(!limits.isDocumented)
        let terminal = squareTerminal(declared)
        do {
            _ = try await terminal.takePayment(SquareWorld.sale("big-2", cents: 50_000_01))
            Issue.record("an amount above the configured maximum reached Square")
        } catch let error as PaymentError {
            #expect(error.code == .invalidAmount && error.phase == .validation)
            #expect(error.message.contains("50000.00 USD"), "\(error.message)")
        }
        #expect(try await terminal.session(reference: "big-2") == nil)
        #expect(await declared.simulator.serverPayments.isEmpty)
        #expect(try await terminal.takePayment(SquareWorld.sale("big-3", cents: 50_000_00)).state == .succeeded)
    }
}
