import Foundation
import Testing
@testable import Tender
import TenderTesting

private let shopA = LedgerScope(merchantID: "acct_M", locationID: "loc_A")
private let shopB = LedgerScope(merchantID: "acct_M", locationID: "loc_B")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }
private let offlineLimits = OfflineRiskLimits(perPaymentMaximum: [.usd: 10_000], storedTotalMaximum: [.usd: 50_000],
                                              storedCountMaximum: 10)

/// An adapter over the in-memory processor whose lookups can run something first: what a concurrent call of the
/// app (a retry, a capture, the poller) does while ``PaymentTerminal/recover()`` waits for the processor.
final class LookupHookProcessor: PaymentProcessor, @unchecked Sendable {
    let inner: InMemoryPaymentProcessor
    private let hook = Locked<[String: @Sendable () async -> Void]>([:])
    init(_ inner: InMemoryPaymentProcessor) { self.inner = inner }

    /// Runs `action` once, the next time `reference` is looked up, before the lookup.
    func beforeLookUp(of reference: String, _ action: @escaping @Sendable () async -> Void) {
        hook.withLock { $0[reference] = action }
    }

    var name: String { inner.name }
    func capabilities() async -> ProcessorCapabilities { await inner.capabilities() }
    func networkStatus() async -> NetworkStatus { await inner.networkStatus() }
    func readerDiscovery(_ kind: ReaderKind, timeout: Double) -> AsyncThrowingStream<Reader, any Error> {
        inner.readerDiscovery(kind, timeout: timeout)
    }
    func connectedReader() async -> Reader? { await inner.connectedReader() }
    func installReaderUpdate() async throws { try await inner.installReaderUpdate() }
    func rebootReader() async throws { try await inner.rebootReader() }
    func setReaderDisplay(_ cart: ReaderCart?) async throws { try await inner.setReaderDisplay(cart) }
    func connectReader(_ reader: Reader, locationID: String) async throws -> Reader {
        try await inner.connectReader(reader, locationID: locationID)
    }
    func disconnectReader() async throws { try await inner.disconnectReader() }
    func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                      updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate {
        try await inner.startPayment(request, routing: routing, attempt: attempt, updates: updates)
    }
    func cancelPayment(reference: String) async throws { try await inner.cancelPayment(reference: reference) }
    func capturePayment(_ request: CaptureRequest) async throws -> ProcessorPaymentUpdate {
        try await inner.capturePayment(request)
    }
    func voidPayment(_ request: VoidRequest) async throws -> ProcessorPaymentUpdate {
        try await inner.voidPayment(request)
    }
    /// How many times the processor's queue was read.
    let queueReads = Locked(0)
    func queueSnapshot() async throws -> OfflineQueueSnapshot {
        queueReads.withLock { $0 += 1 }
        return try await inner.queueSnapshot()
    }
    func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup {
        let action = hook.withLock { $0.removeValue(forKey: query.reference) }
        await action?()
        return try await inner.lookUpPayment(query)
    }
    func refundPayment(_ request: RefundRequest, throughReader: Bool) async throws -> RefundResult {
        try await inner.refundPayment(request, throughReader: throughReader)
    }
    func lookUpRefund(_ refund: RefundRecord, processorPaymentID: String) async throws -> RefundResult? {
        try await inner.lookUpRefund(refund, processorPaymentID: processorPaymentID)
    }
    /// How many of the next abandonments the vendor refuses (as Stripe's and Square's adapters do when the vendor
    /// cannot be asked, or says it charged after all).
    let abandonRefusals = Locked(0)
    func abandonPayment(_ query: PaymentLookupQuery) async throws -> String? {
        let refused = abandonRefusals.withLock { count in
            defer { count = max(0, count - 1) }
            return count > 0
        }
        if refused {
            throw PaymentError(.invalidState, recovery: .none, phase: .reconciliation,
                               message: "the vendor completed a payment for attempt \(query.vendorAttemptID)")
        }
        return try await inner.abandonPayment(query)
    }
    func events() -> AsyncStream<ProcessorEvent> { inner.events() }
}

/// Issue 18: the facade's remaining money paths (scope switches, partial captures, recovery under concurrency).
@Suite struct FacadeMoneyPathTests {
    // MARK: Item 3: nothing unfinished is left behind by a switch or a sign-out

    @Test("a scope switch is refused while a payment is in flight, and allowed once it finished")
    func switchRefusedWhileInFlight() async throws {
        let processor = InMemoryPaymentProcessor()
        let terminal = PaymentTerminal(processor: processor, scope: shopA, clock: ManualClock())
        processor.holdNextAuthorization()
        let payment = Task { try await terminal.takePayment(PaymentRequest(amount: usd(1_200), reference: "fly-1")) }
        #expect(await eventually { processor.isHolding })
        do {
            try await terminal.switchScope(to: shopB)
            Issue.record("the scope was switched while payment fly-1 was in flight")
        } catch let error as PaymentError {
            #expect(error.code == .unforwardedPaymentsAtRisk)
            #expect(error.message.contains("fly-1"), "\(error.message)")
        }
        do {
            try await terminal.switchScope(to: shopB, acknowledgingLossOfStoredPayments: true)
            Issue.record("an acknowledgment let a switch race a payment still running")
        } catch let error as PaymentError {
            #expect(error.code == .unforwardedPaymentsAtRisk)
        }
        #expect(await terminal.scope == shopA)
        processor.releaseHeld()
        #expect(try await payment.value.state == .succeeded)
        try await terminal.switchScope(to: shopB)
        #expect(await terminal.scope == shopB)
    }

    @Test("sign-out is refused while an outcome is unknown or a refund is pending; the acknowledgment still overrides")
    func signOutRefusedWhileUnfinished() async throws {
        let processor = InMemoryPaymentProcessor()
        let terminal = PaymentTerminal(processor: processor, scope: shopA, clock: ManualClock())
        processor.injectTimeout(.answerLostAfterCharge)
        let lost = try await terminal.takePayment(PaymentRequest(amount: usd(900), reference: "unk-1"))
        #expect(lost.state == .outcomeUnknown)
        do {
            try await terminal.signOut()
            Issue.record("signing out was allowed with payment unk-1's outcome unknown")
        } catch let error as PaymentError {
            #expect(error.code == .unforwardedPaymentsAtRisk)
            #expect(error.message.contains("unk-1"), "\(error.message)")
        }
        try await terminal.signOut(acknowledgingLossOfStoredPayments: true)

        _ = try await terminal.takePayment(PaymentRequest(amount: usd(900), reference: "unk-1"))  // resolved: charged once
        #expect(processor.charges(reference: "unk-1") == 1)
        processor.injectRefundFault(.unreachable)
        let refund = try await terminal.refund(reference: "unk-1")
        #expect(refund.status == .pending)
        do {
            try await terminal.switchScope(to: shopB)
            Issue.record("the scope was switched with refund \(refund.id) pending")
        } catch let error as PaymentError {
            #expect(error.code == .unforwardedPaymentsAtRisk)
            #expect(error.message.contains(refund.id), "\(error.message)")
        }
    }

    // MARK: Item 11: each stored payment counts against its own scope

    @Test("signing out and upgrading count stored payments of every scope (the SDK's store is the device's); a switch counts only its own")
    func signOutAndUpgradeCountEveryScope() async throws {
        let processor = InMemoryPaymentProcessor()
        processor.setNetwork(.offline)
        let terminal = PaymentTerminal(processor: processor, scope: shopA, limits: offlineLimits, clock: ManualClock())
        let stored = try await terminal.takePayment(
            PaymentRequest(amount: usd(1_300), reference: "dw-1", offlinePolicy: .forceOffline))
        #expect(stored.state == .storedOffline)
        try await terminal.switchScope(to: shopB, acknowledgingLossOfStoredPayments: true)
        #expect(try await terminal.vendorQueueStatus().storedCount == 1)
        let actions: [(String, () async throws -> Void)] = [
            ("signOut", { try await terminal.signOut() }),
            ("checkBeforeUpgrade", { try await terminal.checkBeforeUpgrade() }),
        ]
        for (name, action) in actions {
            do {
                try await action()
                Issue.record("\(name) was allowed while the vendor holds dw-1, stored in \(shopA)")
            } catch let error as PaymentError {
                #expect(error.code == .unforwardedPaymentsAtRisk, "\(name)")
                #expect(error.message.contains("dw-1") && error.message.contains("1 payment: \(usd(1_300))"), "\(name): \(error.message)")
            }
        }
        // The per-scope rule of a switch is kept: nothing of shopB's is unfinished.
        #expect(try await terminal.unfinishedWork().isEmpty)
        try await terminal.signOut(acknowledgingLossOfStoredPayments: true)
        try await terminal.checkBeforeUpgrade(acknowledgingLossOfStoredPayments: true)
    }

    @Test("switching back to the scope that owns a stored payment is allowed; an unattributable one still blocks")
    func switchBackToTheOwningScope() async throws {
        let processor = InMemoryPaymentProcessor()
        processor.setNetwork(.offline)
        let terminal = PaymentTerminal(processor: processor, scope: shopA, limits: offlineLimits, clock: ManualClock())
        let stored = try await terminal.takePayment(
            PaymentRequest(amount: usd(1_200), reference: "own-1", offlinePolicy: .forceOffline))
        #expect(stored.state == .storedOffline)
        await #expect(throws: PaymentError.self) { try await terminal.switchScope(to: shopB) }
        try await terminal.switchScope(to: shopB, acknowledgingLossOfStoredPayments: true)
        // The stored payment belongs to A: going back to A loses nothing.
        try await terminal.switchScope(to: shopA)
        #expect(await terminal.scope == shopA)
        try await terminal.switchScope(to: shopB, acknowledgingLossOfStoredPayments: true)
        // A payment the vendor stored that no ledger scope knows (a crash in between) counts against the scope left.
        _ = try await processor.startPayment(PaymentRequest(amount: usd(700), reference: "orphan-1"), routing: .offline,
                                             attempt: PaymentAttempt()) { _ in }
        do {
            try await terminal.switchScope(to: shopA)
            Issue.record("leaving B ignored a stored payment nobody can attribute")
        } catch let error as PaymentError {
            #expect(error.code == .unforwardedPaymentsAtRisk)
            #expect(error.message.contains("7.00 USD"), "\(error.message)")
            #expect(!error.message.contains("12.00 USD"), "\(error.message)")
        }
    }

    // MARK: Item 6: a partial capture is recorded

    @Test("after a partial capture the refundable amount is what was captured, and the default refund succeeds")
    func partialCaptureRecorded() async throws {
        let processor = InMemoryPaymentProcessor()
        let terminal = PaymentTerminal(processor: processor, scope: shopA, clock: ManualClock())
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(2_000), reference: "cap-1", captureMode: .manual))
        let captured = try await terminal.capture(reference: "cap-1", amount: usd(1_500))
        #expect(captured.state == .succeeded)
        #expect(captured.refundableAmount == usd(1_500))
        do {
            _ = try await terminal.refund(reference: "cap-1", amount: usd(1_800))
            Issue.record("a refund beyond what was captured was accepted")
        } catch let error as PaymentError {
            #expect(error.code == .invalidAmount)
            #expect(error.message.contains("15.00") && !error.message.contains("20.00"),
                    "the limit named is the captured amount, not the authorized total: \(error.message)")
        }
        let refund = try await terminal.refund(reference: "cap-1")
        #expect(refund.status == .succeeded)
        #expect(refund.amount == usd(1_500))
        #expect(processor.refunded(reference: "cap-1") == 1_500)
        #expect(try await terminal.session(reference: "cap-1")?.refundableAmount == usd(0))
    }

    @Test("a full capture of a payment with a tip captures the tip: refundable is amount plus tip")
    func fullCaptureWithTip() async throws {
        let processor = InMemoryPaymentProcessor()
        let terminal = PaymentTerminal(processor: processor, scope: shopA, clock: ManualClock())
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(1_800), reference: "tip-1", captureMode: .manual,
                                                          tip: usd(200)))
        let captured = try await terminal.capture(reference: "tip-1")
        #expect(captured.refundableAmount == usd(2_000))
        await #expect(throws: PaymentError.self) { try await terminal.refund(reference: "tip-1", amount: usd(2_001)) }
        #expect(try await terminal.refund(reference: "tip-1").amount == usd(2_000))
    }

    // MARK: Item 7: recovery per session

    @Test("recover() keeps what it resolved when a concurrent call moved another session, and says so")
    func recoverSkipsOnlyTheConflictingSession() async throws {
        let memory = InMemoryPaymentProcessor()
        let processor = LookupHookProcessor(memory)
        let terminal = PaymentTerminal(processor: processor, scope: shopA, clock: ManualClock())
        for reference in ["rec-A", "rec-B"] {
            memory.injectTimeout(.answerLostAfterCharge)
            #expect(try await terminal.takePayment(PaymentRequest(amount: usd(1_000), reference: reference)).state
                    == .outcomeUnknown)
        }
        // While recovery asks about A, the cashier retries B: B is resolved by that call, after recovery read it.
        processor.beforeLookUp(of: "rec-A") {
            _ = try? await terminal.takePayment(PaymentRequest(amount: usd(1_000), reference: "rec-B"))
        }
        let report = await terminal.recover()
        #expect(try await terminal.session(reference: "rec-A")?.state == .succeeded)
        #expect(try await terminal.session(reference: "rec-B")?.state == .succeeded)
        #expect(report.resolved.map(\.reference) == ["rec-A"], "\(report)")
        #expect(report.skipped == ["rec-B"])
        #expect(report.unresolved.isEmpty && report.notRecorded.isEmpty)
        #expect(memory.charges(reference: "rec-A") == 1 && memory.charges(reference: "rec-B") == 1)
    }
}
