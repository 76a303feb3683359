import Foundation
import Testing
import Tender
import TenderBackend
import TenderStripe
import TenderStripeSimulator
import TenderTesting
@testable import TenderServer

/// A Stripe device end to end: `PaymentTerminal` → `StripeProcessor` (the simulator's reader and SDK, its intents
/// made real at localstripe by `LocalstripeTwinClient`) with `TenderBackendClient` as every server seam → the routes
/// → `StripeServerClient` → localstripe. Each flow asserts what localstripe holds afterwards.
@Suite("End to end: Stripe device → routes → localstripe", .serialized, .enabled(if: EndToEndStack.runs))
struct StripeEndToEndTests {
    static func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

    /// A connected terminal at the stack's shop, and its simulator.
    static func terminal(_ stack: EndToEndStack, card: Stripe.SimulatedCardType = .visa,
                         ledger: (any PaymentLedger)? = nil) async throws -> (PaymentTerminal, StripeSimulator) {
        var configuration = Stripe.SimulatorConfiguration(offlineEnabled: false)
        configuration.simulatedCard = card
        let clock = ManualClock()
        let simulator = StripeSimulator(configuration: configuration, seed: 7, clock: clock)
        let device = stack.device
        var settings = StripeProcessor.Configuration()
        settings.simulatedReaders = true
        let processor = StripeProcessor(client: LocalstripeTwinClient(simulator: simulator, stack: stack),
                                        captureService: device, serverLookup: StripeRESTServerLookup(device),
                                        refundService: device, configuration: settings, clock: clock)
        let readers = try await processor.discoverReaders(timeout: 5)
        let reader = try #require(readers.first { $0.model == "stripeM2" } ?? readers.first)
        _ = try await processor.connectReader(reader, locationID: stack.shop.locationID)
        let terminal = PaymentTerminal(processor: processor, ledger: ledger ?? InMemoryPaymentLedger(),
                                       scope: stack.shop, clock: clock)
        return (terminal, simulator)
    }

    static func sale(_ reference: String, _ cents: Int64, capture: CaptureMode = .automatic) -> PaymentRequest {
        PaymentRequest(amount: usd(cents), reference: reference, captureMode: capture, offlinePolicy: .requireOnline)
    }

    static func reference(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(6).lowercased())" }

    @Test("a sale: one intent at localstripe, succeeded for the amount, tagged with the shop's location")
    func sale() async throws {
        let stack = try EndToEndStack()
        let (terminal, _) = try await Self.terminal(stack)
        let reference = Self.reference("sale")
        let session = try await terminal.takePayment(Self.sale(reference, 1_250))
        #expect(session.state == .succeeded)
        let intents = try await stack.stripeIntents(reference: reference)
        #expect(intents.count == 1)
        let intent = try #require(intents.first)
        #expect(intent["id"] as? String == session.processorPaymentID)
        #expect(intent["status"] as? String == "succeeded" && intent["amount"] as? Int == 1_250)
        #expect((intent["metadata"] as? [String: Any])?["tender_location"] as? String == stack.shop.locationID)
        // The device reads its own payment through the routes (what reconciliation asks).
        let read = try await stack.device.retrievePaymentIntent(id: try #require(session.processorPaymentID))
        #expect(read?.status == "succeeded" && read?.amount == 1_250)
        try stack.server.expectValidExchanges()
    }

    @Test("a decline, then another card for the same order: one charge at localstripe")
    func declineThenAnotherCard() async throws {
        let stack = try EndToEndStack()
        let (terminal, simulator) = try await Self.terminal(stack, card: .chargeDeclined)
        let reference = Self.reference("decline")
        let declined = try await terminal.takePayment(Self.sale(reference, 2_000))
        #expect(declined.state == .declined || declined.state == .failed, "\(declined.state)")
        await simulator.configure { $0.simulatedCard = .visa }
        let paid = try await terminal.takePayment(Self.sale(reference, 2_000))
        #expect(paid.state == .succeeded, "\(paid.state) \(String(describing: paid.lastError))")
        let intents = try await stack.stripeIntents(reference: reference)
        #expect(intents.count == 2, "the declined attempt's intent and the new one")
        #expect(intents.filter { $0["status"] as? String == "succeeded" }.count == 1, "one charge")
        #expect(intents.last?["id"] as? String == paid.processorPaymentID)
        try stack.server.expectValidExchanges()
    }

    @Test("manual capture, partial capture, and a capture whose answer was lost: each captured once at localstripe")
    func captures() async throws {
        let stack = try EndToEndStack(lostAnswers: LostAnswers(["/v1/payments/capture"]))
        let (terminal, _) = try await Self.terminal(stack)
        // A capture whose answer is lost on the way back to the device, then retried.
        let lost = Self.reference("lost")
        let authorized = try await terminal.takePayment(Self.sale(lost, 3_000, capture: .manual))
        #expect(authorized.state == .authorized)
        var capturedAfterLoss: PaymentSession?
        do { capturedAfterLoss = try await terminal.capture(reference: lost) } catch {
            capturedAfterLoss = try await terminal.capture(reference: lost)
        }
        #expect(capturedAfterLoss?.state == .succeeded)
        let lostID = try #require(authorized.processorPaymentID)
        let posts = try await stack.stripePosts(path: "/v1/payment_intents/\(lostID)/capture")
        #expect(posts.count == 2 && posts.filter { !$0.replayed }.count == 1,
                "the retry is the same request at Stripe (one capture, one replay): \(posts)")
        let lostIntent = try #require(try await stack.stripeIntents(reference: lost).first)
        #expect(lostIntent["status"] as? String == "succeeded")

        // A full manual capture.
        let full = Self.reference("manual")
        _ = try await terminal.takePayment(Self.sale(full, 1_800, capture: .manual))
        #expect(try await stack.stripeIntents(reference: full).first?["status"] as? String == "requires_capture")
        #expect(try await terminal.capture(reference: full).state == .succeeded)
        #expect(try await stack.stripeIntents(reference: full).first?["status"] as? String == "succeeded")

        // A partial capture: localstripe captures 15.00 of 20.00 and releases the rest.
        let partial = Self.reference("partial")
        let held = try await terminal.takePayment(Self.sale(partial, 2_000, capture: .manual))
        let captured = try await terminal.capture(reference: partial, amount: Self.usd(1_500))
        #expect(captured.state == .succeeded && captured.refundableAmount == Self.usd(1_500))
        let partialID = try #require(held.processorPaymentID)
        let released = try await stack.stripeRefunds(intent: partialID).compactMap { $0["amount"] as? Int }
        #expect(released == [500], "localstripe released the uncaptured 5.00: \(released)")
        try stack.server.expectValidExchanges()
    }

    @Test("a refund and its lookup: localstripe holds one refund of the amount, found by the device's key")
    func refundAndLookup() async throws {
        let stack = try EndToEndStack()
        let (terminal, _) = try await Self.terminal(stack)
        let reference = Self.reference("refund")
        let paid = try await terminal.takePayment(Self.sale(reference, 2_500))
        let refund = try await terminal.refund(reference: reference, amount: Self.usd(1_000))
        #expect(refund.status != .failed, "\(String(describing: refund.error))")
        let intent = try #require(paid.processorPaymentID)
        let held = try await stack.stripeRefunds(intent: intent)
        #expect(held.count == 1 && held.first?["amount"] as? Int == 1_000)
        #expect(held.first?["id"] as? String == refund.processorRefundID)
        let found = try await stack.device.lookUpRefund(processor: "stripe", processorPaymentID: intent,
                                                        idempotencyKey: refund.id, processorRefundID: nil)
        #expect(found?.processorRefundID == refund.processorRefundID)
        try stack.server.expectValidExchanges()
    }

    @Test("a device of another location is refused at every route; localstripe's intent is untouched")
    func otherLocationRefused() async throws {
        let stack = try EndToEndStack()
        let (terminal, _) = try await Self.terminal(stack)
        let reference = Self.reference("theirs")
        let held = try await terminal.takePayment(Self.sale(reference, 900, capture: .manual))
        let id = try #require(held.processorPaymentID)
        let other = stack.otherDevice
        let key = { (operation: IdempotencyKey.Operation) in
            IdempotencyKey(scope: stack.otherShop, reference: reference, paymentAttempt: 1, operation: operation).rawValue
        }
        let ownKey = IdempotencyKey.capture(scope: stack.shop, reference: reference, paymentAttempt: 1).rawValue
        let calls: [(String, () async throws -> Void)] = [
            ("capture", { try await other.capture(CaptureRequest(processor: "stripe", reference: reference,
                processorPaymentID: id, amount: Self.usd(900), idempotencyKey: key(.capture))) }),
            ("capture with the shop's key", { try await other.capture(CaptureRequest(processor: "stripe",
                reference: reference, processorPaymentID: id, amount: Self.usd(900), idempotencyKey: ownKey)) }),
            ("void", { try await other.void(VoidRequest(processor: "stripe", reference: reference,
                processorPaymentID: id, idempotencyKey: key(.void))) }),
            ("refund", { _ = try await other.refund(RefundRequest(processor: "stripe", reference: reference,
                processorPaymentID: id, amount: Self.usd(100), idempotencyKey: key(.refund(1)))) }),
            ("refund lookup", { _ = try await other.lookUpRefund(processor: "stripe", processorPaymentID: id,
                idempotencyKey: key(.refund(1)), processorRefundID: nil) }),
            ("lookup by id", { _ = try await other.retrievePaymentIntent(id: id) }),
            ("abandon", { _ = try await other.cancelAbandonedPaymentIntent(id: id) }),
        ]
        for (name, call) in calls {
            do {
                try await call()
                Issue.record("\(name) was allowed to another location's device")
            } catch let error as PaymentError {
                #expect(error.code == .notAuthorized, "\(name): \(error)")
            }
        }
        // The lookup by reference answers without the shop's intent.
        let found = try await other.findPaymentIntents(metadataKey: "tender_reference", value: reference)
        if case .found = found { Issue.record("the other location found the shop's intent") }
        #expect(try await stack.stripeIntents(reference: reference).first?["status"] as? String == "requires_capture")
        #expect(try await stack.stripeRefunds(intent: id).isEmpty)
        // The shop itself still captures it.
        #expect(try await terminal.capture(reference: reference).state == .succeeded)
        try stack.server.expectValidExchanges()
    }
}
