import Foundation
import Testing
@testable import Tender
import TenderTesting

/// The reader API through ``PaymentTerminal``: kinds, discovery as a sequence, features refused, a required update
/// blocking payments, the cart, and an on-reader tip recorded in the ledger.
@Suite("Readers through the facade")
struct ReaderFacadeTests {
    private func usd(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .usd) }

    private func terminal(_ memory: InMemoryPaymentProcessor, ledger: any PaymentLedger = InMemoryPaymentLedger())
        -> PaymentTerminal {
        PaymentTerminal(processor: memory, ledger: ledger, scope: LedgerScope(merchantID: "m", locationID: "loc"))
    }

    @Test("each kind is discovered as a sequence; the array is a convenience over it; an unoffered kind is empty")
    func discoveryByKind() async throws {
        let terminal = terminal(InMemoryPaymentProcessor())
        var smart: [Reader] = []
        for try await reader in terminal.readerDiscovery(.internet, timeout: 1) { smart.append(reader) }
        #expect(smart.map(\.kind) == [.internet])
        #expect(smart.first?.features == [.offline, .onReaderTipping, .cartDisplay])
        #expect(try await terminal.discoverReaders(.tapToPay, timeout: 1).map(\.kind) == [.tapToPay])
        #expect(try await terminal.discoverReaders(timeout: 1).map(\.kind) == [.bluetooth])
        #expect(try await terminal.discoverReaders(.usb, timeout: 1).isEmpty)
    }

    @Test("the convenience updates a reader reported twice in place, by id (Stripe's proximity discovery)")
    func reportedTwice() async throws {
        struct Twice: PaymentProcessor {
            let inner = InMemoryPaymentProcessor()
            var name: String { "twice" }
            func capabilities() async -> ProcessorCapabilities { await inner.capabilities() }
            func readerDiscovery(_ kind: ReaderKind, timeout: Double) -> AsyncThrowingStream<Reader, any Error> {
                AsyncThrowingStream { c in
                    c.yield(Reader(id: "CHB2X-1", serialNumber: "CHB2X-1", model: "chipper2X"))
                    c.yield(Reader(id: "CHB2X-1", serialNumber: "CHB2X-1", model: "chipper2X", batteryLevel: 0.8))
                    c.finish()
                }
            }
            func connectReader(_ reader: Reader, locationID: String) async throws -> Reader { reader }
            func disconnectReader() async throws {}
            func connectedReader() async -> Reader? { nil }
            func installReaderUpdate() async throws {}
            func rebootReader() async throws {}
            func setReaderDisplay(_ cart: ReaderCart?) async throws {}
            func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                              updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate {
                try await inner.startPayment(request, routing: routing, attempt: attempt, updates: updates)
            }
            func cancelPayment(reference: String) async throws {}
            func capturePayment(_ request: CaptureRequest) async throws -> ProcessorPaymentUpdate {
                try await inner.capturePayment(request)
            }
            func voidPayment(_ request: VoidRequest) async throws -> ProcessorPaymentUpdate { try await inner.voidPayment(request) }
            func queueSnapshot() async throws -> OfflineQueueSnapshot { try await inner.queueSnapshot() }
            func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup { try await inner.lookUpPayment(query) }
            func events() -> AsyncStream<ProcessorEvent> { inner.events() }
        }
        let readers = try await Twice().discoverReaders(timeout: 1)
        #expect(readers.count == 1)
        #expect(readers.first?.batteryLevel == 0.8)
    }

    @Test("a reader saved by an earlier version (no kind, no features) decodes as a Bluetooth reader")
    func savedReaderDecodes() throws {
        let old = #"{"id":"WP3-1","model":"wisePad3","isSimulated":false}"#
        let reader = try JSONDecoder().decode(Reader.self, from: Data(old.utf8))
        #expect(reader.kind == .bluetooth)
        #expect(reader.features.isEmpty)
        let smart = Reader(id: "s", model: "wisePosE", kind: .internet, features: [.cartDisplay])
        #expect(try JSONDecoder().decode(Reader.self, from: JSONEncoder().encode(smart)) == smart)
    }

    @Test("a required update blocks payments until installed; nothing is charged meanwhile")
    func requiredUpdateBlocks() async throws {
        let memory = InMemoryPaymentProcessor()
        let terminal = terminal(memory)
        _ = try await terminal.connectReader(try #require(try await terminal.discoverReaders(timeout: 1).first))
        memory.injectReaderFault(.updateRequired)
        #expect(await terminal.connectedReader()?.availableUpdate?.isRequired == true)
        let sale = PaymentRequest(amount: usd(1_500), reference: "blocked")
        await #expect(throws: PaymentError.self) { _ = try await terminal.takePayment(sale) }
        do { _ = try await terminal.takePayment(sale) } catch let error as PaymentError {
            #expect(error.code == .readerUpdateRequired)
            #expect(error.recovery == .updateReader)
        }
        #expect(memory.charges(reference: "blocked") == 0)
        try await terminal.installReaderUpdate()
        #expect(try await terminal.takePayment(sale).state == .succeeded)
    }

    @Test("the cart shows only on a reader with a screen; an on-reader tip only where the reader asks for one")
    func featuresRefused() async throws {
        let memory = InMemoryPaymentProcessor()
        let terminal = terminal(memory)
        let cart = ReaderCart(lineItems: [.init("Latte", quantity: 2, amount: usd(900))], tax: usd(72))
        await #expect(throws: PaymentError.self) { try await terminal.setReaderDisplay(cart) }  // no reader yet
        _ = try await terminal.connectReader(try #require(try await terminal.discoverReaders(timeout: 1).first))
        do { try await terminal.setReaderDisplay(cart); Issue.record("a Bluetooth reader showed a cart") } catch let error as PaymentError {
            #expect(error.code == .featureUnavailable)
        }
        var tipped = PaymentRequest(amount: usd(2_000), reference: "tip-on-bt")
        tipped.tipEligibleAmount = usd(2_000)
        do { _ = try await terminal.takePayment(tipped); Issue.record("a Bluetooth reader asked for a tip") } catch let error as PaymentError {
            #expect(error.code == .featureUnavailable)
        }
        #expect(memory.charges(reference: "tip-on-bt") == 0)

        try await terminal.disconnectReader()
        _ = try await terminal.connectReader(try #require(try await terminal.discoverReaders(.internet, timeout: 1).first))
        try await terminal.setReaderDisplay(cart)
        #expect(memory.displayedCart == cart)
        try await terminal.setReaderDisplay(nil)
        #expect(memory.displayedCart == nil)
        let mismatched = ReaderCart(lineItems: [.init("Latte", amount: Money(minorUnits: 1, currency: .eur))], tax: usd(0))
        await #expect(throws: PaymentError.self) { try await terminal.setReaderDisplay(mismatched) }
    }

    @Test("an on-reader tip is recorded in the ledger: the total, the refundable amount and a retry include it",
          arguments: [false, true])
    func onReaderTipRecorded(sqlite: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger: any PaymentLedger = sqlite
            ? try await SQLitePaymentLedger.open(url: directory.appendingPathComponent("l.sqlite")) : InMemoryPaymentLedger()
        let memory = InMemoryPaymentProcessor()
        let terminal = terminal(memory, ledger: ledger)
        _ = try await terminal.connectReader(try #require(try await terminal.discoverReaders(.internet, timeout: 1).first))
        memory.setNextOnReaderTip(minorUnits: 300)
        var sale = PaymentRequest(amount: usd(2_000), reference: "tip-on-reader")
        sale.tipEligibleAmount = usd(2_000)
        let session = try await terminal.takePayment(sale)
        #expect(session.state == .succeeded)
        #expect(session.tip == usd(300))
        #expect(session.total == usd(2_300))
        #expect(session.refundableAmount == usd(2_300))
        let stored = try #require(try await terminal.session(reference: "tip-on-reader"))
        #expect(stored.tip == usd(300))
        // The same request again returns the sale (its tip came from the reader, not the request).
        #expect(try await terminal.takePayment(sale).tip == usd(300))
        #expect(memory.charges(reference: "tip-on-reader") == 1)
    }

    @Test("a request asking for both an app-entered and an on-reader tip is refused")
    func bothTips() {
        var request = PaymentRequest(amount: usd(1_000), reference: "both", tip: usd(100))
        request.tipEligibleAmount = usd(1_000)
        #expect(throws: PaymentError.self) { try request.validate() }
        request.tip = nil
        request.tipEligibleAmount = usd(1_001)
        #expect(throws: PaymentError.self) { try request.validate() }
    }
}
