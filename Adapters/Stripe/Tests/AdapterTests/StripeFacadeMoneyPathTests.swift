import Foundation
import Tender
@_spi(Testing) import TenderStripe
import TenderStripeSimulator
import Testing
import TenderTesting

private let shopA = LedgerScope(merchantID: "acct_shop", locationID: testLocation)
private let shopB = LedgerScope(merchantID: "acct_shop", locationID: "tml_loc_other")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

/// A facade over a connected Stripe adapter on the simulator, with room for offline payments.
private func stripeTerminal(_ simulator: StripeSimulator, clock: ManualClock, scope: LedgerScope = shopA) async throws
    -> (PaymentTerminal, StripeProcessor) {
    let processor = try await connectedProcessor(simulator, clock: clock)
    let terminal = PaymentTerminal(processor: processor, scope: scope,
                                   limits: .single(perPayment: usd(50_000), storedTotal: usd(500_000)), clock: clock)
    return (terminal, processor)
}

/// Issue 18 through the facade over Stripe: amount ceiling, partial capture, expiry at capture, scope switches.
@Suite("Stripe through the facade: the remaining money paths")
struct StripeFacadeMoneyPathTests {
    @Test("an amount above Stripe's eight digits of minor units is refused before Stripe is asked")
    func amountAboveStripesMaximum() async throws {
        let (simulator, clock) = makeSimulator()
        let (terminal, _) = try await stripeTerminal(simulator, clock: clock)
        do {
            let session = try await terminal.takePayment(sale("BIG-1", cents: 100_000_000))
            Issue.record("1,000,000.00 USD was taken (\(session.state)): Stripe accepts at most 999,999.99")
        } catch let error as PaymentError {
            #expect(error.code == .invalidAmount)
            #expect(error.phase == .validation)
            #expect(error.message.contains("999,999.99 USD") || error.message.contains("999999.99 USD"), "\(error.message)")
        }
        #expect(await simulator.serverIntents.isEmpty)
        #expect(try await terminal.session(reference: "BIG-1") == nil)
        let largest = try await terminal.takePayment(sale("BIG-2", cents: 99_999_999))
        #expect(largest.state == .succeeded)
    }

    @Test("a partial capture is recorded: the default refund refunds what was captured, and Stripe agrees")
    func partialCaptureThenRefund() async throws {
        let (simulator, clock) = makeSimulator()
        let (terminal, _) = try await stripeTerminal(simulator, clock: clock)
        let authorized = try await terminal.takePayment(sale("PC-1", cents: 2_000, capture: .manual))
        #expect(authorized.state == .authorized)
        let captured = try await terminal.capture(reference: "PC-1", amount: usd(1_500))
        #expect(captured.state == .succeeded)
        #expect(captured.refundableAmount == usd(1_500))
        let refund = try await terminal.refund(reference: "PC-1")
        #expect(refund.status != .failed, "\(String(describing: refund.error))")
        #expect(refund.amount == usd(1_500))
        #expect(await simulator.charges(reference: "PC-1").first?.amountCaptured == 1_500)
    }

    @Test("a capture Stripe refuses because the authorization expired records the expiry at once, with an event")
    func captureRefusedForExpiry() async throws {
        let (simulator, clock) = makeSimulator()
        let (terminal, _) = try await stripeTerminal(simulator, clock: clock)
        let seen = Locked<[TenderEvent]>([])
        let events = terminal.events
        let reader = Task { for await event in events { seen.withLock { $0.append(event) } } }
        defer { reader.cancel() }
        _ = try await terminal.takePayment(sale("EXP-1", capture: .manual))
        clock.advance(by: 2 * 86_400 + 60)
        do {
            _ = try await terminal.capture(reference: "EXP-1")
            Issue.record("an expired authorization was captured")
        } catch let error as PaymentError {
            #expect(error.code == .authorizationExpired)
        }
        let session = try #require(try await terminal.session(reference: "EXP-1"))
        #expect(session.state == .canceled)
        #expect(session.lastError?.code == .authorizationExpired)
        #expect(!session.isReadyToCapture)
        await eventually {
            seen.current.contains { event in
                guard case .paymentStateChanged(let change) = event else { return false }
                return change.reference == "EXP-1" && change.from == .authorized && change.to == .canceled
                    && change.error?.code == .authorizationExpired
            }
        }
    }

    @Test("switching back to the scope that owns a payment stored in Stripe's SDK is allowed")
    func switchBackToTheOwningScope() async throws {
        let (simulator, clock) = makeSimulator()
        let (terminal, processor) = try await stripeTerminal(simulator, clock: clock)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        for event in processor.emittedEvents { await terminal.handle(event) }
        let stored = try await terminal.takePayment(sale("SW-1", cents: 1_200, policy: .forceOffline))
        #expect(stored.state == .storedOffline)
        await #expect(throws: PaymentError.self) { try await terminal.switchScope(to: shopB) }
        try await terminal.switchScope(to: shopB, acknowledgingLossOfStoredPayments: true)
        try await terminal.switchScope(to: shopA)
        #expect(await terminal.scope == shopA)
    }
}

/// The intents a device creates carry the ledger scope's location, which the server's routes check before they act.
@Suite("Stripe intents carry their location")
struct StripeLocationTagTests {
    @Test("an intent created through the facade carries tender_location = the scope's location")
    func intentCarriesLocation() async throws {
        let (simulator, clock) = makeSimulator()
        let (terminal, _) = try await stripeTerminal(simulator, clock: clock, scope: shopA)
        let session = try await terminal.takePayment(sale("LOC-1", cents: 1_500))
        #expect(session.state == .succeeded)
        let intents = await simulator.serverIntents
        let intent = try #require(intents.first { $0.metadata["tender_reference"] == "LOC-1" })
        #expect(intent.metadata["tender_location"] == shopA.locationID)
    }
}

/// Stripe Terminal's own log lines reach the app's log handler, redacted, with their source.
@Suite("Stripe's SDK logs go to the app's log handler")
struct StripeVendorLogTests {
    final class Lines: TenderLogHandler, Sendable {
        let records = Locked<[TenderLogRecord]>([])
        func log(_ record: TenderLogRecord) { records.withLock { $0.append(record) } }
    }

    @Test("the SDK's log listener is routed into the handler with source StripeTerminal")
    func sdkLogsRouted() async throws {
        let (simulator, clock) = makeSimulator()
        let (terminal, _) = try await stripeTerminal(simulator, clock: clock)
        let lines = Lines()
        terminal.setLogHandler(lines, minimumLevel: .debug)
        for _ in 0..<1_000 where !simulator.hasLogListener { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(simulator.hasLogListener)
        _ = try await terminal.takePayment(sale("LOG-1", cents: 1_000))
        let fromSDK = lines.records.current.filter { $0.metadata["source"] == "StripeTerminal" }
        #expect(!fromSDK.isEmpty)
        #expect(fromSDK.allSatisfy { $0.level == .debug && $0.message.hasPrefix("StripeTerminal: ") })
        #expect(lines.records.current.contains { $0.metadata["call"] == "startPayment" })
    }
}
