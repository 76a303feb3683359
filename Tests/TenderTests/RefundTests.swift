import Foundation
import Testing
@testable import Tender
import TenderTesting

private let scope = LedgerScope(merchantID: "acct_F", locationID: "loc_1")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }
private let limits = OfflineRiskLimits(perPaymentMaximum: [.usd: 10_000], storedTotalMaximum: [.usd: 50_000])

private func paid(_ reference: String, _ cents: Int64, ledger: any PaymentLedger = InMemoryPaymentLedger())
    async throws -> (PaymentTerminal, InMemoryPaymentProcessor) {
    let processor = InMemoryPaymentProcessor()
    let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: scope, limits: limits,
                                   clock: ManualClock())
    #expect(try await terminal.takePayment(PaymentRequest(amount: usd(cents), reference: reference)).state == .succeeded)
    return (terminal, processor)
}

/// Refunds in the core (issue 14): full and partial, never beyond what was captured, write-ahead, recovered.
@Suite struct RefundTests {
    @Test("several partial refunds up to the captured amount, never beyond it")
    func partialRefundsUpToTheTotal() async throws {
        let (terminal, _) = try await paid("f-1", 1_000)
        let first = try await terminal.refund(reference: "f-1", amount: usd(300), reason: .requestedByCustomer)
        #expect(first.status == .succeeded && first.id == "acct_F/loc_1/f-1/1/refund-1" && first.processorRefundID != nil)
        let second = try await terminal.refund(reference: "f-1", amount: usd(700))
        #expect(second.status == .succeeded && second.number == 2)
        do {
            _ = try await terminal.refund(reference: "f-1", amount: usd(1))
            Issue.record("a refund beyond the captured amount was accepted")
        } catch let error as PaymentError {
            #expect(error.code == .invalidAmount)
        }
        let session = try #require(try await terminal.session(reference: "f-1"))
        #expect(session.refundedAmount == usd(1_000) && session.refundableAmount == usd(0))
        #expect(session.refunds.map(\.status) == [.succeeded, .succeeded])
        #expect(session.state == .succeeded)  // refunds are records of their own; the payment's state stays
    }

    @Test("a full refund by default; an uncaptured or stored payment cannot be refunded")
    func refundableStates() async throws {
        let (terminal, processor) = try await paid("f-2", 800)
        #expect(try await terminal.refund(reference: "f-2").amount == usd(800))
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(500), reference: "f-auth", captureMode: .manual))
        await #expect(throws: PaymentError.self) { try await terminal.refund(reference: "f-auth") }
        processor.setNetwork(.offline)
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(400), reference: "f-off", offlinePolicy: .forceOffline))
        do {
            _ = try await terminal.refund(reference: "f-off")
            Issue.record("a stored, unforwarded payment was refunded")
        } catch let error as PaymentError {
            #expect(error.recovery == .goOnline)
        }
        // Once forwarded (automatic capture), it can be refunded.
        processor.setNetwork(.online)
        processor.forwardStoredPayments()
        _ = await terminal.pollOnce()
        #expect(try await terminal.refund(reference: "f-off", amount: usd(100)).status == .succeeded)
    }

    @Test("a refund refused by the processor is failed, and its amount can be refunded again")
    func refusedRefund() async throws {
        let (terminal, processor) = try await paid("f-3", 600)
        processor.injectRefundFault(.refused)
        let refused = try await terminal.refund(reference: "f-3")
        #expect(refused.status == .failed && refused.error?.code == .refundFailed)
        #expect(try await terminal.refund(reference: "f-3").status == .succeeded)
        #expect(try await terminal.session(reference: "f-3")?.refundedAmount == usd(600))
    }

    @Test("a lost answer leaves the refund pending; settling it never refunds twice")
    func lostAnswerIsSettledOnce() async throws {
        let (terminal, processor) = try await paid("f-4", 900)
        processor.injectRefundFault(.answerLost)
        let pending = try await terminal.refund(reference: "f-4", amount: usd(400))
        #expect(pending.status == .pending)
        // Pending counts against what is refundable: no over-refund while it is unsettled.
        await #expect(throws: PaymentError.self) { try await terminal.refund(reference: "f-4", amount: usd(501)) }
        #expect(await terminal.pollOnce())
        let settled = try await terminal.session(reference: "f-4")?.refunds
        #expect(settled?.map(\.status) == [.succeeded])
        #expect(try await terminal.refund(reference: "f-4", amount: usd(500)).status == .succeeded)
        #expect(try await terminal.session(reference: "f-4")?.refundedAmount == usd(900))
    }

    @Test("an unreachable server leaves the refund pending; recovery sends it under the same idempotency key")
    func unreachableThenRecovered() async throws {
        let ledger = InMemoryPaymentLedger()
        let (terminal, processor) = try await paid("f-5", 700, ledger: ledger)
        processor.injectRefundFault(.unreachable)
        #expect(try await terminal.refund(reference: "f-5").status == .pending)
        let restarted = PaymentTerminal(processor: processor, ledger: ledger, scope: scope, clock: ManualClock())
        _ = await restarted.recover()
        let refunds = try await restarted.session(reference: "f-5")?.refunds
        #expect(refunds?.map(\.status) == [.succeeded])
        #expect(refunds?.first?.id == "acct_F/loc_1/f-5/1/refund-1")
    }

    @Test("refund changes are events")
    func refundEvents() async throws {
        let (terminal, _) = try await paid("f-6", 500)
        let recorder = EventRecorder(terminal.events)
        _ = try await terminal.refund(reference: "f-6", amount: usd(200))
        await recorder.settle()
        let statuses = recorder.events.current.compactMap { event -> RefundStatus? in
            if case .refundChanged(let record) = event { return record.status }
            return nil
        }
        #expect(statuses == [.pending, .succeeded])
    }

    @Test("a second refund of the same amount while the first is pending is a new refund, never merged (issue 28)")
    func sameAmountWhilePendingIsANewRefund() async throws {
        let (terminal, processor) = try await paid("f-7", 2_000)
        processor.injectRefundFault(.answerLost)
        let first = try await terminal.refund(reference: "f-7", amount: usd(800))
        #expect(first.status == .pending)
        // The cashier refunds a second 8.00 item of the same order.
        let second = try await terminal.refund(reference: "f-7", amount: usd(800))
        #expect(second.id != first.id && second.number == 2, "the second refund continued \(first.id)")
        _ = await terminal.pollOnce()
        let refunds = try #require(try await terminal.session(reference: "f-7")).refunds
        #expect(refunds.map(\.status) == [.succeeded, .succeeded])
        #expect(processor.refunded(reference: "f-7") == 1_600, "two 8.00 items: 16.00 refunded")
        // The third 8.00 would exceed what is left: refused, saying what the ledger holds.
        do {
            _ = try await terminal.refund(reference: "f-7", amount: usd(800))
            Issue.record("a refund beyond what is left was made")
        } catch let error as PaymentError {
            #expect(error.code == .invalidAmount)
            #expect(error.message.contains("4.00 USD") && error.message.contains("16.00 USD"), "\(error.message)")
        }
    }
}
