import Foundation
import Testing
import Tender
import TenderTesting

private let scope = LedgerScope(merchantID: "acct_A", locationID: "loc_1")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

/// The in-memory processor, but its vendor refuses to let the last payment be abandoned (as Stripe's and Square's
/// adapters do when the vendor cannot be asked, or says it charged after all).
private struct AbandonRefusingProcessor: PaymentProcessor {
    let inner: InMemoryPaymentProcessor
    let refusals: Locked<Int>
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
    func queueSnapshot() async throws -> OfflineQueueSnapshot { try await inner.queueSnapshot() }
    func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup {
        try await inner.lookUpPayment(query)
    }
    func abandonPayment(_ query: PaymentLookupQuery) async throws -> String? {
        if refusals.withLock({ count in
            defer { count = max(0, count - 1) }
            return count > 0
        }) {
            throw PaymentError(.invalidState, recovery: .none, phase: .reconciliation,
                               message: "the vendor completed a payment for attempt \(query.vendorAttemptID)")
        }
        return try await inner.abandonPayment(query)
    }
    func events() -> AsyncStream<ProcessorEvent> { inner.events() }
}

@Suite struct NewAttemptGuardTests {
    @Test("a new vendor payment of a declined reference does not start while the processor refuses to abandon the last one")
    func refusedAbandonmentStartsNothing() async throws {
        let clock = ManualClock()
        let inner = InMemoryPaymentProcessor(clock: clock)
        let processor = AbandonRefusingProcessor(inner: inner, refusals: Locked(0))
        let terminal = PaymentTerminal(processor: processor, ledger: InMemoryPaymentLedger(), scope: scope, clock: clock)
        let sale = PaymentRequest(amount: usd(1_250), reference: "o-1")
        inner.present(.decline)
        #expect(try await terminal.takePayment(sale).state == .declined)

        processor.refusals.withLock { $0 = 1 }
        do {
            _ = try await terminal.takePayment(sale)
            Issue.record("a new vendor payment started although the last one could not be abandoned")
        } catch let error as PaymentError {
            #expect(error.code == .invalidState && error.recovery == .none)
            #expect(error.message.contains("No new payment was started"), "\(error.message)")
        }
        #expect(inner.charges(reference: "o-1") == 0)
        let session = try #require(try await terminal.session(reference: "o-1"))
        #expect(session.state == .declined && session.paymentAttempt == 1, "nothing new was recorded")

        // Once the processor can close it, the new attempt starts and charges once.
        #expect(try await terminal.takePayment(sale).state == .succeeded)
        #expect(inner.charges(reference: "o-1") == 1)
    }
}
