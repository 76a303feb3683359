import Foundation
import Testing
import Tender
import TenderTesting

private let scope = LedgerScope(merchantID: "acct_A", locationID: "loc_1")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }
private let limits = OfflineRiskLimits(perPaymentMaximum: [.usd: 10_000], storedTotalMaximum: [.usd: 50_000])

/// A third adapter as a vendor like Stripe makes it: its lookups see only the vendor's server, never what the SDK
/// stores on the device (a stored payment looks absent until forwarded), and its queue gives counts and amounts but
/// names no payment. It reports the vendor's total on what it finds. Everything else is the in-memory processor.
private struct ServerOnlyLookupProcessor: PaymentProcessor {
    let inner: InMemoryPaymentProcessor
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
        var update = try await inner.startPayment(request, routing: routing, attempt: attempt, updates: updates)
        update.amount = inner.heldPayment(reference: request.reference)?.amount
        return update
    }
    func cancelPayment(reference: String) async throws { try await inner.cancelPayment(reference: reference) }
    func capturePayment(_ request: CaptureRequest) async throws -> ProcessorPaymentUpdate {
        try await inner.capturePayment(request)
    }
    func voidPayment(_ request: VoidRequest) async throws -> ProcessorPaymentUpdate {
        try await inner.voidPayment(request)
    }
    func queueSnapshot() async throws -> OfflineQueueSnapshot {
        var snapshot = try await inner.queueSnapshot()
        snapshot.payments = []  // counts and amounts only, like Stripe's `offlineStatus.sdk`
        return snapshot
    }
    func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup {
        switch try await inner.lookUpPayment(query) {
        case .found(let update) where update.state == .storedOffline:
            return .notFound  // the server has never seen it: the naive reading of an empty search
        case .found(var update):
            update.amount = inner.heldPayment(reference: query.reference)?.amount
            return .found(update)
        case let other:
            return other
        }
    }
    func events() -> AsyncStream<ProcessorEvent> { inner.events() }
}

/// The core's attribution rules, inherited by any adapter: a lookup that cannot see the vendor's device store proves
/// nothing, and a vendor payment is recorded on a session only when it is that session's (issue 18, items 1 and 9).
@Suite struct TerminalAttributionTests {
    @Test("a third adapter's 'not found' is read as unknown while its vendor stores payments it does not name; a retry waits; the forwarded payment lands on the session")
    func notFoundIsNoProofWhileTheVendorStoresUnnamedPayments() async throws {
        let clock = ManualClock()
        let inner = InMemoryPaymentProcessor(clock: clock)
        let processor = ServerOnlyLookupProcessor(inner: inner)
        let ledger = InMemoryPaymentLedger()
        let sale = PaymentRequest(amount: usd(700), reference: "p-1", offlinePolicy: .forceOffline)
        // A launch that lost power: its write-ahead record survived, the record of what the vendor did did not; the
        // vendor's SDK stored the payment durably.
        try ledger.insert(PaymentSession(request: sale, scope: scope, processor: processor.name, route: .offline,
                                               at: clock.now()))
        inner.setNetwork(.offline)
        #expect(try await inner.startPayment(sale, routing: .offline, attempt: PaymentAttempt(idScope: scope),
                                             updates: { _ in }).state == .storedOffline)
        clock.advance(by: 3_600)

        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: scope, limits: limits, clock: clock)
        let report = await terminal.recover()
        #expect(try await terminal.session(reference: "p-1")?.state == .outcomeUnknown)
        #expect(report.unresolved == ["p-1"])
        // Marked unknown is not settled: the report does not count it as resolved too.
        #expect(report.resolved.isEmpty, "\(report.resolved)")
        await #expect {
            _ = try await terminal.takePayment(sale)
        } throws: { ($0 as? PaymentError)?.recovery == .waitAndRetry }
        #expect(inner.charges(reference: "p-1") == 0)

        inner.setNetwork(.online)
        #expect(inner.forwardStoredPayments() == 1)
        _ = await terminal.recover()
        #expect(try await terminal.session(reference: "p-1")?.state == .forwarded)
        #expect(inner.charges(reference: "p-1") == 1)
    }

    @Test("the vendor's queue with room only for smaller payments proves the session is not among them")
    func amountsExcludeTheSession() async throws {
        let clock = ManualClock()
        let inner = InMemoryPaymentProcessor(clock: clock)
        let processor = ServerOnlyLookupProcessor(inner: inner)
        let ledger = InMemoryPaymentLedger()
        inner.setNetwork(.offline)
        let other = PaymentRequest(amount: usd(300), reference: "small", offlinePolicy: .forceOffline)
        _ = try await inner.startPayment(other, routing: .offline, attempt: PaymentAttempt(idScope: scope), updates: { _ in })
        // Killed between the write-ahead record and the processor call: nothing of it exists anywhere.
        let sale = PaymentRequest(amount: usd(900), reference: "p-2", offlinePolicy: .forceOffline)
        try ledger.insert(PaymentSession(request: sale, scope: scope, processor: processor.name, route: .offline,
                                               at: clock.now()))
        clock.advance(by: 3_600)
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: scope, limits: limits, clock: clock)
        _ = await terminal.recover()
        #expect(try await terminal.session(reference: "p-2")?.state == .failed,
                "3.00 stored cannot hold a 9.00 payment: the processor's answer stands")
    }

    @Test("a vendor payment of another total under the same reference is a duplicate reference, never this sale's success")
    func anotherTotalIsADuplicateReference() async throws {
        let clock = ManualClock()
        let inner = InMemoryPaymentProcessor(clock: clock)
        let processor = ServerOnlyLookupProcessor(inner: inner)
        let earlier = PaymentTerminal(processor: processor, ledger: InMemoryPaymentLedger(), scope: scope,
                                      limits: limits, clock: clock)
        let paid = try await earlier.takePayment(PaymentRequest(amount: usd(1_000), reference: "o-1"))
        #expect(paid.state == .succeeded)

        // A reinstall: a fresh ledger, and a 12.00 sale under the same order number, killed after its write-ahead.
        let ledger = InMemoryPaymentLedger()
        let sale = PaymentRequest(amount: usd(1_200), reference: "o-1")
        try ledger.insert(PaymentSession(request: sale, scope: scope, processor: processor.name, route: .online,
                                               at: clock.now()))
        clock.advance(by: 3_600)
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: scope, limits: limits, clock: clock)
        _ = await terminal.recover()
        let recovered = try #require(try await terminal.session(reference: "o-1"))
        #expect(recovered.state == .outcomeUnknown)
        #expect(recovered.processorPaymentID == nil)
        #expect(recovered.lastError?.code == .duplicateReference)

        // A retry continues the vendor payment "o-1", which is the other sale's: still not this sale's success.
        let retried = try await terminal.takePayment(sale)
        #expect(retried.state == .outcomeUnknown)
        #expect(retried.processorPaymentID == nil)
        #expect(retried.lastError?.code == .duplicateReference)
        #expect(inner.charges(reference: "o-1") == 1)
    }

    @Test("a forwarding result naming an earlier attempt never lands on the session's current attempt")
    func earlierAttemptsResultIsNotApplied() async throws {
        let clock = ManualClock()
        let inner = InMemoryPaymentProcessor(clock: clock)
        let terminal = PaymentTerminal(processor: inner, scope: scope, limits: limits, clock: clock)
        let recorder = EventRecorder(terminal.events)
        inner.present(.decline, .approve)
        inner.setNetwork(.offline)
        let sale = PaymentRequest(amount: usd(500), reference: "a-1", offlinePolicy: .forceOffline)
        #expect(try await terminal.takePayment(sale).state == .declined)
        let second = try await terminal.takePayment(sale)
        #expect(second.state == .storedOffline && second.paymentAttempt == 2)

        let stale = ProcessorPaymentUpdate(reference: "a-1", state: .forwarded, route: .offline,
                                           processorPaymentID: "pi_attempt_1", paymentAttempt: 1)
        await terminal.handle(.paymentForwarded(stale))
        let session = try #require(try await terminal.session(reference: "a-1"))
        #expect(session.state == .storedOffline)
        #expect(session.processorPaymentID == nil)
        await recorder.settle()
        #expect(recorder.events.current.contains {
            if case .unmatchedForwardingResult(let update) = $0 { update == stale } else { false }
        })

        let current = ProcessorPaymentUpdate(reference: "a-1", state: .forwarded, route: .offline,
                                             processorPaymentID: "pi_attempt_2", paymentAttempt: 2)
        await terminal.handle(.paymentForwarded(current))
        #expect(try await terminal.session(reference: "a-1")?.processorPaymentID == "pi_attempt_2")
    }
}
