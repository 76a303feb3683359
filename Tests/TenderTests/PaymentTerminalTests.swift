import Foundation
import Testing
@testable import Tender
import TenderTesting

private let scope = LedgerScope(merchantID: "acct_A", locationID: "loc_1")
private let usdLimits = OfflineRiskLimits(perPaymentMaximum: [.usd: 10_000], storedTotalMaximum: [.usd: 25_000],
                                          storedCountMaximum: 5, oldestStoredAgeMaximum: 86_400)

private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

private func makeTerminal(_ processor: InMemoryPaymentProcessor = InMemoryPaymentProcessor(),
                          ledger: any PaymentLedger = InMemoryPaymentLedger(), clock: ManualClock = ManualClock())
    async -> (PaymentTerminal, InMemoryPaymentProcessor) {
    let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: scope, limits: usdLimits, clock: clock)
    await terminal.handle(.networkStatusChanged(.online))
    return (terminal, processor)
}

/// Collects events from a subscription in the background.
final class EventRecorder: Sendable {
    let events = Locked<[TenderEvent]>([])
    let task: Task<Void, Never>
    init(_ sequence: TenderEvents) {
        let events = self.events
        task = Task { for await event in sequence { events.withLock { $0.append(event) } } }
    }
    func stateChanges(_ reference: String) -> [PaymentState] {
        events.current.compactMap {
            if case .paymentStateChanged(let change) = $0, change.reference == reference { return change.to }
            return nil
        }
    }
    func settle() async { for _ in 0..<50 { await Task.yield() } }
}

@Suite struct PaymentTerminalTests {
    @Test func onlineApproveRecordsEveryStepBeforeReturning() async throws {
        let (terminal, processor) = await makeTerminal()
        let recorder = EventRecorder(terminal.events)
        let session = try await terminal.takePayment(PaymentRequest(amount: usd(1250), reference: "order-1"))
        #expect(session.state == .succeeded && session.route == .online)
        #expect(session.transitions.map(\.to) == [.created, .collecting, .processing, .succeeded])
        #expect(session.processorPaymentID != nil && session.card?.last4 == "4242")
        #expect(processor.charges(reference: "order-1") == 1)
        await recorder.settle()
        #expect(recorder.stateChanges("order-1") == [.collecting, .processing, .succeeded])
    }

    @Test func declineIsASessionStateNotAThrow() async throws {
        let (terminal, processor) = await makeTerminal()
        processor.present(.decline)
        let session = try await terminal.takePayment(PaymentRequest(amount: usd(500), reference: "order-2"))
        #expect(session.state == .declined)
        #expect(session.lastError?.code == .cardDeclined && session.lastError?.recovery == .collectAnotherCard)
        #expect(processor.charges(reference: "order-2") == 0)
    }

    @Test func retryOfAFinishedReferenceNeverChargesAgain() async throws {
        let (terminal, processor) = await makeTerminal()
        let request = PaymentRequest(amount: usd(700), reference: "order-3")
        _ = try await terminal.takePayment(request)
        let again = try await terminal.takePayment(request)
        #expect(again.state == .succeeded)
        #expect(processor.charges(reference: "order-3") == 1)
        #expect(processor.calls.filter { $0.hasPrefix("startPayment order-3") }.count == 1)
    }

    @Test func sameReferenceForADifferentSaleIsRefused() async throws {
        let (terminal, _) = await makeTerminal()
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(700), reference: "order-4"))
        await #expect(throws: PaymentError.self) {
            try await terminal.takePayment(PaymentRequest(amount: usd(701), reference: "order-4"))
        }
    }

    @Test func timeoutAfterChargeIsUnknownThenReconciledWithoutASecondCharge() async throws {
        let (terminal, processor) = await makeTerminal()
        processor.present(.answerLostAfterCharge)
        let request = PaymentRequest(amount: usd(900), reference: "order-5")
        let first = try await terminal.takePayment(request)
        #expect(first.state == .outcomeUnknown)
        #expect(first.lastError?.recovery == .retrySamePayment)
        let retried = try await terminal.takePayment(request)
        #expect(retried.state == .succeeded)
        #expect(processor.charges(reference: "order-5") == 1)
        #expect(processor.calls.filter { $0.hasPrefix("startPayment order-5") }.count == 1)
    }

    @Test func timeoutBeforeChargeRetriesTheSamePayment() async throws {
        let (terminal, processor) = await makeTerminal()
        processor.present(.confirmNotReceived)
        let request = PaymentRequest(amount: usd(900), reference: "order-6")
        #expect(try await terminal.takePayment(request).state == .outcomeUnknown)
        // The processor never received it, so recovery marks it failed: nothing was charged.
        let report = await terminal.recover()
        #expect(report.resolved.map(\.to) == [.failed])
        #expect(processor.charges(reference: "order-6") == 0)
    }

    @Test func requireOnlineWhileOfflineIsRefusedAndNotRecorded() async throws {
        let (terminal, processor) = await makeTerminal()
        processor.setNetwork(.offline)
        let recorder = EventRecorder(terminal.events)
        let request = PaymentRequest(amount: usd(500), reference: "order-7", offlinePolicy: .requireOnline)
        do {
            _ = try await terminal.takePayment(request)
            Issue.record("expected refusal")
        } catch let error as PaymentError {
            #expect(error.code == .offlineNotAllowed && error.recovery == .goOnline)
        }
        #expect(try await terminal.session(reference: "order-7") == nil)
        #expect(processor.calls.isEmpty)
        await recorder.settle()
        #expect(recorder.events.current.contains { if case .paymentRefused("order-7", _) = $0 { true } else { false } })
        // Back online, the same reference goes through.
        processor.setNetwork(.online)
        #expect(try await terminal.takePayment(request).state == .succeeded)
    }

    @Test func offlineStoreForwardAndDeclineAtForwarding() async throws {
        let (terminal, processor) = await makeTerminal()
        let recorder = EventRecorder(terminal.events)
        processor.setNetwork(.offline)
        await terminal.handle(.networkStatusChanged(.offline))
        processor.present(.approve, .declineWhenForwarded)
        let a = try await terminal.takePayment(PaymentRequest(amount: usd(2_000), reference: "off-1", offlinePolicy: .preferOnline))
        let b = try await terminal.takePayment(PaymentRequest(amount: usd(3_000), reference: "off-2", offlinePolicy: .preferOnline))
        #expect(a.state == .storedOffline && b.state == .storedOffline && a.route == .offline)
        let queue = try await terminal.queueStatus()
        #expect(queue.storedCount == 2 && queue.storedAmounts[.usd] == 5_000 && queue.networkStatus == .offline)

        processor.setNetwork(.online)
        await terminal.handle(.networkStatusChanged(.online))
        let events = processor.events()
        #expect(processor.forwardStoredPayments() == 2)
        var forwarded = 0
        for await event in events {
            await terminal.handle(event)
            if case .paymentForwarded = event { forwarded += 1 }
            if forwarded == 2 { break }
        }
        #expect(try await terminal.session(reference: "off-1")?.state == .forwarded)
        let declined = try #require(try await terminal.session(reference: "off-2"))
        #expect(declined.state == .declinedAfterForwarding && declined.lastError?.code == .cardDeclined)
        #expect(try await terminal.queueStatus().storedCount == 0)
        let detailed = try await terminal.queueStatus(includingPayments: true)
        #expect(Set(detailed.payments.map(\.status)) == [.forwarded, .declinedAfterForwarding])
        await recorder.settle()
        #expect(recorder.stateChanges("off-2").last == .declinedAfterForwarding)
    }

    @Test func riskLimitsRefuseOfflineWithTheReason() async throws {
        let (terminal, processor) = await makeTerminal()
        processor.setNetwork(.offline)
        await terminal.handle(.networkStatusChanged(.offline))
        for index in 0..<2 {
            _ = try await terminal.takePayment(PaymentRequest(amount: usd(10_000), reference: "lim-\(index)", offlinePolicy: .forceOffline))
        }
        do {
            _ = try await terminal.takePayment(PaymentRequest(amount: usd(10_000), reference: "lim-2", offlinePolicy: .forceOffline))
            Issue.record("expected the stored total to refuse it")
        } catch let error as PaymentError {
            #expect(error.code == .offlineStoredTotalExceeded)
            #expect(error.limit?.source == .tender && error.limit?.limit == 25_000)
        }
        do {
            _ = try await terminal.takePayment(PaymentRequest(amount: usd(10_001), reference: "lim-3", offlinePolicy: .forceOffline))
            Issue.record("expected the per-payment maximum to refuse it")
        } catch let error as PaymentError {
            #expect(error.code == .offlinePaymentLimitExceeded)
        }
        #expect(processor.calls.count == 2)
    }

    @Test func manualCaptureOnlyWhenReady() async throws {
        let (terminal, processor) = await makeTerminal()
        processor.setNetwork(.offline)
        await terminal.handle(.networkStatusChanged(.offline))
        let stored = try await terminal.takePayment(
            PaymentRequest(amount: usd(1_500), reference: "cap-1", captureMode: .manual, offlinePolicy: .forceOffline))
        #expect(stored.state == .storedOffline)
        do {
            _ = try await terminal.capture(reference: "cap-1")
            Issue.record("capture before forwarding must be refused")
        } catch let error as PaymentError {
            #expect(error.code == .invalidState && error.message.contains("forwarded first"))
        }
        processor.setNetwork(.online)
        processor.forwardStoredPayments()
        await terminal.handle(.paymentForwarded(ProcessorPaymentUpdate(
            reference: "cap-1", state: .forwarded, processorPaymentID: processor.heldPayment(reference: "cap-1")?.id)))
        let captured = try await terminal.capture(reference: "cap-1")
        #expect(captured.state == .succeeded)
        #expect(processor.heldPayment(reference: "cap-1")?.state == .succeeded)

        await terminal.handle(.networkStatusChanged(.online))
        let online = try await terminal.takePayment(PaymentRequest(amount: usd(800), reference: "cap-2", captureMode: .manual))
        #expect(online.state == .authorized && online.isReadyToCapture)
        #expect(try await terminal.void(reference: "cap-2").state == .canceled)
        await #expect(throws: PaymentError.self) { try await terminal.capture(reference: "cap-2") }
    }

    @Test func illegalForwardingResultIsAnEventNotAnOverwrite() async throws {
        let (terminal, _) = await makeTerminal()
        let recorder = EventRecorder(terminal.events)
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(100), reference: "ill-1"))
        await terminal.handle(.paymentForwarded(ProcessorPaymentUpdate(reference: "ill-1", state: .declinedAfterForwarding)))
        #expect(try await terminal.session(reference: "ill-1")?.state == .succeeded)
        await terminal.handle(.paymentForwarded(ProcessorPaymentUpdate(reference: "nobody", state: .forwarded)))
        await recorder.settle()
        #expect(recorder.events.current.contains {
            if case .transitionRejected("ill-1", let from, let to) = $0 { from == .succeeded && to == .declinedAfterForwarding } else { false }
        })
        #expect(recorder.events.current.contains { if case .unmatchedForwardingResult = $0 { true } else { false } })
    }

    @Test func guardedActionsNameWhatWouldBeLost() async throws {
        let (terminal, processor) = await makeTerminal()
        processor.setNetwork(.offline)
        await terminal.handle(.networkStatusChanged(.offline))
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(1_234), reference: "g-1", offlinePolicy: .forceOffline))
        for action in [{ try await terminal.signOut() }, { try await terminal.checkBeforeUpgrade() },
                       { try await terminal.switchScope(to: LedgerScope(merchantID: "acct_B", locationID: "loc_1")) }] {
            do {
                try await action()
                Issue.record("expected refusal")
            } catch let error as PaymentError {
                #expect(error.code == .unforwardedPaymentsAtRisk)
                #expect(error.message.contains("1 payment: 12.34 USD"))
            }
        }
        #expect(await terminal.scope == scope)
        try await terminal.switchScope(to: LedgerScope(merchantID: "acct_B", locationID: "loc_1"),
                                       acknowledgingLossOfStoredPayments: true)
        #expect(try await terminal.sessions().isEmpty)
        #expect(try await terminal.queueStatus().storedCount == 0)
        // The new scope's ledger is empty, and the processor's own queue still holds the stored payment — of the
        // scope left (its loss was acknowledged then): for a switch it counts against acct_A, not against this scope.
        let other = LedgerScope(merchantID: "acct_C", locationID: "loc_1")
        #expect(try await terminal.unfinishedWork().isEmpty)
        // Signing out wipes the SDK's whole store on the device: acct_A's stored payment blocks it.
        do {
            try await terminal.signOut()
            Issue.record("expected refusal: the vendor still holds acct_A's stored payment")
        } catch let error as PaymentError {
            #expect(error.code == .unforwardedPaymentsAtRisk)
            #expect(error.message.contains("1 payment: 12.34 USD") && error.message.contains("g-1 (acct_A/loc_1)"),
                    "\(error.message)")
        }
        // A payment the processor stored that no scope's ledger records (a crash in between) counts against the scope
        // being left: the vendor's queue is the truth, and the refusal names both counts.
        _ = try await processor.startPayment(PaymentRequest(amount: usd(500), reference: "g-orphan"),
                                             routing: .offline, attempt: PaymentAttempt()) { _ in }
        do {
            try await terminal.switchScope(to: other)
            Issue.record("expected refusal: the vendor holds a stored payment no scope records")
        } catch let error as PaymentError {
            #expect(error.code == .unforwardedPaymentsAtRisk)
            #expect(error.message.contains("Tender's ledger: 0") && error.message.contains("own queue: 1"), "\(error.message)")
            #expect(error.message.contains("5.00 USD") && !error.message.contains("12.34 USD"), "\(error.message)")
        }
        do {
            try await terminal.signOut()
            Issue.record("expected refusal: the vendor holds two stored payments")
        } catch let error as PaymentError {
            #expect(error.message.contains("Tender's ledger: 0") && error.message.contains("own queue: 2"), "\(error.message)")
            #expect(error.message.contains("g-orphan") && error.message.contains("g-1 (acct_A/loc_1)"), "\(error.message)")
        }
        processor.setNetwork(.online)
        processor.forwardStoredPayments()
        // Once the vendor forwarded them, nothing is left on the device.
        try await terminal.signOut()
    }

    @Test func scopesIsolateSessionsAndReferences() async throws {
        let ledger = InMemoryPaymentLedger()
        let (a, _) = await makeTerminal(ledger: ledger)
        let b = PaymentTerminal(processor: InMemoryPaymentProcessor(), ledger: ledger,
                                scope: LedgerScope(merchantID: "acct_B", locationID: "loc_1"), limits: usdLimits,
                                clock: ManualClock())
        _ = try await a.takePayment(PaymentRequest(amount: usd(100), reference: "shared-ref"))
        #expect(try await b.session(reference: "shared-ref") == nil)
        _ = try await b.takePayment(PaymentRequest(amount: usd(999), reference: "shared-ref"))
        #expect(try await a.session(reference: "shared-ref")?.amount == usd(100))
        #expect(try await b.sessions().count == 1)
    }

    @Test func recoveryResolvesInterruptedSessionsFromTheProcessor() async throws {
        let ledger = InMemoryPaymentLedger()
        let processor = InMemoryPaymentProcessor()
        let clock = ManualClock()
        // A crash left three sessions mid-flight: one the processor charged, one it never saw, one stored offline.
        processor.present(.answerLostAfterCharge)
        let (first, _) = await makeTerminal(processor, ledger: ledger, clock: clock)
        _ = try await first.takePayment(PaymentRequest(amount: usd(100), reference: "crash-charged"))
        let orphan = PaymentSession(request: PaymentRequest(amount: usd(200), reference: "crash-orphan"), scope: scope,
                                    processor: "memory", route: .online, at: clock.now())
        try ledger.insert(orphan)
        _ = try ledger.record(SessionChange(reference: "crash-orphan", expectedState: .created,
                                                  newState: .collecting, at: clock.now()), scope: scope)

        // The next launch: recovery asks the processor (no network event has arrived yet).
        let restarted = PaymentTerminal(processor: processor, ledger: ledger, scope: scope, limits: usdLimits,
                                        clock: clock)
        let report = await restarted.recover()
        #expect(report.examined == 2)
        #expect(try await restarted.session(reference: "crash-charged")?.state == .succeeded)
        #expect(try await restarted.session(reference: "crash-orphan")?.state == .failed)
        #expect(report.unresolved.isEmpty)
        #expect(processor.charges(reference: "crash-charged") == 1)
    }

    @Test func concurrentSameReferenceIsRefusedWhileInFlight() async throws {
        let (terminal, processor) = await makeTerminal()
        let request = PaymentRequest(amount: usd(100), reference: "dup")
        async let one = try? terminal.takePayment(request)
        async let two = try? terminal.takePayment(request)
        let results = await [one, two]
        #expect(results.compactMap { $0 }.allSatisfy { $0.state == .succeeded })
        #expect(processor.charges(reference: "dup") == 1)
    }
}
