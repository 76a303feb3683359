import Foundation
import Testing
@testable import Tender
import TenderTesting

private let shop = LedgerScope(merchantID: "acct_F", locationID: "loc_1")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

/// A terminal over an in-memory processor whose succeeded refunds may fail for a day, looked up again every minute.
private func following(window: Double = 86_400, ledger: any PaymentLedger = InMemoryPaymentLedger(),
                       processor: InMemoryPaymentProcessor? = nil, clock: ManualClock = ManualClock())
    -> (PaymentTerminal, InMemoryPaymentProcessor, ManualClock) {
    let processor = processor ?? InMemoryPaymentProcessor(clock: clock)
    processor.setRefundChangeWindow(window)
    let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: shop,
                                   polling: QueuePolling(interval: 5, maximumInterval: 5, refundCheckInterval: 60),
                                   clock: clock)
    return (terminal, processor, clock)
}

private func refundStatuses(_ recorder: EventRecorder) -> [RefundStatus] {
    recorder.events.current.compactMap { event -> RefundStatus? in
        if case .refundChanged(let record) = event { return record.status }
        return nil
    }
}

/// Issue 18, item 2: a refund's status follows the processor until the processor can no longer change it.
@Suite struct RefundFollowTests {
    @Test("the refund model allows exactly one later move: succeeded → failed")
    func onlySucceededToFailed() throws {
        let all: [RefundStatus] = [.pending, .succeeded, .failed]
        var allowed: [String] = []
        for from in all { for to in all where from.canChange(to: to) { allowed.append("\(from)→\(to)") } }
        #expect(allowed == ["pending→succeeded", "pending→failed", "succeeded→failed"])
        #expect(RefundStatus.failed.isFinal && !RefundStatus.succeeded.isFinal && !RefundStatus.pending.isFinal)
        var record = RefundRecord(id: "k", reference: "r", number: 1, amount: usd(100), status: .succeeded,
                                  createdAt: Date(timeIntervalSince1970: 0))
        #expect(throws: PaymentError.self) {
            try RefundChange(refundID: "k", expectedStatus: .succeeded, newStatus: .pending, at: .now).apply(to: &record)
        }
        try RefundChange(refundID: "k", expectedStatus: .succeeded, newStatus: .failed, at: .now).apply(to: &record)
        #expect(record.status == .failed)
        for next in [RefundStatus.succeeded, .pending] {
            #expect(throws: PaymentError.self) {
                try RefundChange(refundID: "k", expectedStatus: .failed, newStatus: next, at: .now).apply(to: &record)
            }
        }
    }

    @Test("a refund the processor fails after it succeeded: the poller records it failed with an event, and the amount can be refunded again")
    func pollerRecordsTheLaterFailure() async throws {
        let (terminal, processor, clock) = following()
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(3_000), reference: "rf-1"))
        let recorder = EventRecorder(terminal.events)
        processor.failNextRefundAfterSuccess(after: 600)
        let refund = try await terminal.refund(reference: "rf-1", amount: usd(1_000))
        #expect(refund.status == .succeeded)
        #expect(try await terminal.session(reference: "rf-1")?.refundableAmount == usd(2_000))
        _ = await terminal.pollOnce()  // looked up once: still succeeded
        clock.advance(by: 601)
        #expect(await terminal.pollOnce())
        let session = try #require(try await terminal.session(reference: "rf-1"))
        let failed = try #require(session.refunds.first)
        #expect(failed.status == .failed && failed.id == refund.id && failed.processorRefundID == refund.processorRefundID)
        #expect(failed.error?.code == .refundFailed)
        #expect(failed.error?.message.contains("failed after it had succeeded") == true)
        #expect(session.refundableAmount == usd(3_000) && session.refundedAmount == usd(0))
        await recorder.settle()
        #expect(refundStatuses(recorder) == [.pending, .succeeded, .failed])
        // The amount is refundable again, under a new key (number 2).
        let again = try await terminal.refund(reference: "rf-1")
        #expect(again.status == .succeeded && again.number == 2 && again.amount == usd(3_000))
        #expect(processor.refunded(reference: "rf-1") == 3_000)
    }

    @Test("recover() looks every succeeded refund inside the window up again after a launch")
    func recoverRecordsTheLaterFailure() async throws {
        let ledger = InMemoryPaymentLedger()
        let clock = ManualClock()
        let (terminal, processor, _) = following(ledger: ledger, clock: clock)
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(1_500), reference: "rf-2"))
        processor.failNextRefundAfterSuccess(after: 3_600)
        #expect(try await terminal.refund(reference: "rf-2").status == .succeeded)
        clock.advance(by: 7_200)
        let (relaunched, _, _) = following(ledger: ledger, processor: processor.relaunched(), clock: clock)
        _ = await relaunched.recover()
        #expect(try await relaunched.session(reference: "rf-2")?.refunds.map(\.status) == [.failed])
        #expect(try await relaunched.session(reference: "rf-2")?.refundableAmount == usd(1_500))
    }

    @Test("recover() looks succeeded refunds up again however recently the poller did")
    func recoverIgnoresTheInterval() async throws {
        let (terminal, processor, clock) = following()
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(900), reference: "rf-7"))
        processor.failNextRefundAfterSuccess(after: 10)
        _ = try await terminal.refund(reference: "rf-7")
        _ = await terminal.pollOnce()  // looked up: succeeded
        clock.advance(by: 11)
        #expect(!(await terminal.pollOnce()), "not due again before the interval")
        _ = await terminal.recover()
        #expect(try await terminal.session(reference: "rf-7")?.refunds.map(\.status) == [.failed])
    }

    @Test("a succeeded refund is due for a look only every refundCheckInterval, and only inside the window")
    func checkedOnTheIntervalInsideTheWindow() async throws {
        let (terminal, _, clock) = following(window: 600)
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(900), reference: "rf-3"))
        _ = try await terminal.refund(reference: "rf-3", amount: usd(100))
        #expect(await terminal.pendingCount() == 1, "never looked up yet: due")
        _ = await terminal.pollOnce()
        #expect(await terminal.pendingCount() == 0, "looked up just now: not due")
        clock.advance(by: 61)
        #expect(await terminal.pendingCount() == 1, "the interval passed: due again")
        _ = await terminal.pollOnce()
        clock.advance(by: 600)
        #expect(await terminal.pendingCount() == 0, "outside the processor's window: never again")
    }

    @Test("with a window of 0 (the processor's succeeded refunds are final), a succeeded refund is never looked up again")
    func windowZeroIsFinal() async throws {
        let (terminal, processor, clock) = following(window: 0)
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(900), reference: "rf-4"))
        processor.failNextRefundAfterSuccess(after: 10)
        _ = try await terminal.refund(reference: "rf-4")
        clock.advance(by: 11)
        #expect(await terminal.pendingCount() == 0)
        #expect(!(await terminal.pollOnce()))
        #expect(try await terminal.session(reference: "rf-4")?.refunds.map(\.status) == [.succeeded])
    }

    @Test("a pending refund recorded under the old reference-only key still settles under it")
    func oldFormatPendingRefundSettles() async throws {
        let ledger = InMemoryPaymentLedger()
        let (terminal, processor, _) = following(ledger: ledger)
        let paid = try await terminal.takePayment(PaymentRequest(amount: usd(800), reference: "rf-5"))
        let oldKey = RefundRecord.idempotencyKey(reference: "rf-5", number: 1)
        try await ledger.insertRefund(RefundRecord(id: oldKey, reference: "rf-5", number: 1, amount: usd(300),
                                                   createdAt: Date(timeIntervalSince1970: 0)), scope: shop)
        // The processor refunded it under that key before the app was updated; the answer was lost.
        _ = try await processor.refundPayment(RefundRequest(processor: processor.name, reference: "rf-5",
                                                            processorPaymentID: paid.processorPaymentID ?? "",
                                                            amount: usd(300), idempotencyKey: oldKey),
                                              throughReader: false)
        #expect(await terminal.pollOnce())
        let refunds = try #require(try await terminal.session(reference: "rf-5")?.refunds)
        #expect(refunds.map(\.id) == [oldKey] && refunds.map(\.status) == [.succeeded])
        #expect(processor.refunded(reference: "rf-5") == 300, "settled under its old key, not refunded again")
        // The next refund gets a scoped key.
        let next = try await terminal.refund(reference: "rf-5", amount: usd(100))
        #expect(next.id == "acct_F/loc_1/rf-5/1/refund-2" && next.status == .succeeded)
    }

    @Test("a ledger restored from a backup re-using refund number n: the processor's other refund under that key is a clear error, never recorded succeeded")
    func restoredLedgerReusingARefundNumber() async throws {
        let clock = ManualClock()
        let processor = InMemoryPaymentProcessor(clock: clock)
        let ledger = InMemoryPaymentLedger()
        let (terminal, _, _) = following(ledger: ledger, processor: processor, clock: clock)
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(1_000), reference: "rf-6"))
        let backup = InMemoryPaymentLedger()
        try backup.insert(try #require(try await ledger.session(reference: "rf-6", scope: shop)))
        #expect(try await terminal.refund(reference: "rf-6", amount: usd(300)).status == .succeeded)
        // The device is restored from the backup, taken before that refund.
        let (restored, _, _) = following(ledger: backup, processor: processor.relaunched(), clock: clock)
        let reused = try await restored.refund(reference: "rf-6", amount: usd(500))
        #expect(reused.number == 1 && reused.status == .failed)
        #expect(reused.error?.code == .duplicateReference && reused.error?.recovery == .fixRequest)
        #expect(reused.error?.message.contains("already holds a different refund") == true)
        #expect(processor.refunded(reference: "rf-6") == 300, "nothing more was refunded")
        #expect(try await restored.session(reference: "rf-6")?.refundedAmount == usd(0))
        // Refunding again uses the next number, a new key.
        let next = try await restored.refund(reference: "rf-6", amount: usd(500))
        #expect(next.number == 2 && next.status == .succeeded)
        #expect(processor.refunded(reference: "rf-6") == 800)
    }
}
