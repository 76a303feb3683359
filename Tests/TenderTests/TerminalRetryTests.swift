import Foundation
import Testing
@testable import Tender
import TenderTesting

private let scope = LedgerScope(merchantID: "acct_R", locationID: "loc_1")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }
private let limits = OfflineRiskLimits(perPaymentMaximum: [.usd: 10_000], storedTotalMaximum: [.usd: 50_000])

private func world(_ clock: ManualClock = ManualClock()) -> (PaymentTerminal, InMemoryPaymentProcessor, InMemoryPaymentLedger) {
    let processor = InMemoryPaymentProcessor(clock: clock)
    let ledger = InMemoryPaymentLedger()
    return (PaymentTerminal(processor: processor, ledger: ledger, scope: scope, limits: limits, clock: clock),
            processor, ledger)
}

/// Retries, new payment attempts, cancellation and network status: the facade's side of "at most one charge per
/// reference" (issue 11).
@Suite struct TerminalRetryTests {
    @Test("a timeout before the processor received it, then a retry: one charge, same reference")
    func confirmNotReceivedThenRetry() async throws {
        let (terminal, processor, _) = world()
        processor.injectTimeout(.confirmNotReceived)
        let first = try await terminal.takePayment(PaymentRequest(amount: usd(300), reference: "r-1"))
        #expect(first.state == .outcomeUnknown)
        #expect(first.lastError?.recovery == .retrySamePayment)
        let second = try await terminal.takePayment(PaymentRequest(amount: usd(300), reference: "r-1"))
        #expect(second.state == .succeeded)
        #expect(processor.charges(reference: "r-1") == 1)
    }

    @Test("a lagging lookup is never read as 'not charged': the retry waits for the vendor's answer")
    func laggingLookupIsUnknown() async throws {
        let clock = ManualClock()
        let (terminal, processor, _) = world(clock)
        processor.setSearchLag(seconds: 60)
        processor.injectTimeout(.answerLostAfterCharge)
        let sale = PaymentRequest(amount: usd(400), reference: "r-lag")
        #expect(try await terminal.takePayment(sale).state == .outcomeUnknown)
        // Inside the lag, recovery cannot tell: the session stays unknown, never failed.
        let report = await terminal.recover()
        #expect(report.unresolved == ["r-lag"])
        #expect(try await terminal.session(reference: "r-lag")?.state == .outcomeUnknown)
        // A retry inside the lag continues the same vendor payment: the processor reports what it holds.
        #expect(try await terminal.takePayment(sale).state == .succeeded)
        #expect(processor.charges(reference: "r-lag") == 1)
    }

    @Test("after a definite decline the same reference takes another card, recorded in the same session")
    func anotherCardAfterDecline() async throws {
        let (terminal, processor, _) = world()
        processor.present(.decline, .approve)
        let sale = PaymentRequest(amount: usd(500), reference: "r-decline")
        let declined = try await terminal.takePayment(sale)
        #expect(declined.state == .declined && declined.paymentAttempt == 1)
        let paid = try await terminal.takePayment(sale)
        #expect(paid.state == .succeeded && paid.paymentAttempt == 2)
        #expect(paid.transitions.map(\.to) == [.created, .collecting, .processing, .declined, .created, .collecting,
                                                 .processing, .succeeded])
        #expect(paid.transitions.last?.attempt == 2)
        // The succeeded payment is returned as is: never a third attempt, never a second charge.
        #expect(try await terminal.takePayment(sale).paymentAttempt == 2)
        #expect(processor.charges(reference: "r-decline") == 1)
        #expect(processor.calls.filter { $0.hasPrefix("startPayment r-decline") }.count == 2)
    }

    @Test("cancelling the task mid-collect cancels through the processor: canceled, nothing charged, no crash")
    func cancelledTaskMidCollect() async throws {
        let (terminal, processor, _) = world()
        processor.holdNextCard()
        let task = Task { try await terminal.takePayment(PaymentRequest(amount: usd(600), reference: "r-task")) }
        while !processor.isHolding { await Task.yield() }
        task.cancel()
        let session = try await task.value
        #expect(session.state == .canceled)
        #expect(processor.charges(reference: "r-task") == 0)
    }

    @Test("cancelling the task mid-confirm records the vendor's real outcome, never canceled")
    func cancelledTaskMidConfirm() async throws {
        let (terminal, processor, _) = world()
        processor.holdNextAuthorization()
        let task = Task { try await terminal.takePayment(PaymentRequest(amount: usd(700), reference: "r-confirm")) }
        while !processor.isHolding { await Task.yield() }
        task.cancel()
        processor.releaseHeld()
        let session = try await task.value
        #expect(session.state == .succeeded)
        #expect(processor.charges(reference: "r-confirm") == 1)
    }

    @Test("no sale is routed on an unknown network status when the processor knows better")
    func asksTheProcessorBeforeRouting() async throws {
        let (terminal, processor, _) = world()
        processor.setNetwork(.offline)  // the event is never handled: no run()
        #expect(await terminal.networkStatus == .unknown)
        await #expect(throws: PaymentError.self) {
            try await terminal.takePayment(PaymentRequest(amount: usd(100), reference: "r-net"))
        }
        #expect(await terminal.networkStatus == .offline)
        #expect(processor.calls.isEmpty)
    }

    @Test("run() can be started again after its task was cancelled; events that arrived meanwhile are handled")
    func runCanRestart() async throws {
        let (terminal, processor, _) = world()
        processor.setNetwork(.online)
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(800), reference: "r-run", offlinePolicy: .forceOffline))
        let first = Task { await terminal.run() }
        #expect(await eventually { await terminal.networkStatus == .online })
        first.cancel()
        await first.value
        processor.forwardStoredPayments()   // emitted while nothing runs
        let second = Task { await terminal.run() }
        #expect(await eventually { (try? await terminal.session(reference: "r-run"))?.state == .forwarded })
        second.cancel()
    }

    @Test("the risk limits can be changed at run time")
    func limitsChangeAtRunTime() async throws {
        let (terminal, processor, _) = world()
        processor.setNetwork(.offline)
        let sale = PaymentRequest(amount: usd(20_000), reference: "r-limit", offlinePolicy: .forceOffline)
        await #expect(throws: PaymentError.self) { try await terminal.takePayment(sale) }
        await terminal.setLimits(OfflineRiskLimits(perPaymentMaximum: [.usd: 30_000], storedTotalMaximum: [.usd: 60_000]))
        #expect(try await terminal.takePayment(sale).state == .storedOffline)
    }
}

/// Polls `condition` while other tasks run.
func eventually(_ condition: () async -> Bool) async -> Bool {
    for _ in 0..<5_000 {
        if await condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return await condition()
}
