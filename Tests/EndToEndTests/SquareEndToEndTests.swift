import Foundation
import Testing
import Tender
import TenderBackend
import TenderSquare
import TenderSquareSimulator
import TenderTesting
@testable import TenderServer

/// A Square device end to end: `PaymentTerminal` → `SquareProcessor` (the simulator's reader and SDK) with
/// `TenderBackendClient` as every server seam → the routes (without `squareMerchantID`) → `SquareServerClient` → the
/// Square peer, which validates every request and answer against Square's published document. The SDK's own
/// `CreatePayment` is made real at the peer by `SquareDevice.publish()` (TEST-ONLY: what the reader's payment leaves
/// on Square's servers — id, status, amounts, location, reference and the SDK's idempotency key — is written to the
/// peer after each payment the SDK takes). Each flow asserts what the peer holds afterwards.
@Suite("End to end: Square device → routes → the Square peer", .serialized, .enabled(if: EndToEndStack.runs))
struct SquareEndToEndTests {
    static func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

    final class Pairing: Square.ReaderPairingDelegate {
        func readerPairingDidBegin() {}
        func readerPairingDidSucceed() {}
        func readerPairingDidFail(with error: any Error) {}
    }

    /// The simulator (the SDK and reader), the terminal over it, and what was published to the peer.
    struct SquareDevice {
        let stack: EndToEndStack
        let simulator: SquareSimulator
        let terminal: PaymentTerminal
        let published = Locked<[String: String]>([:])

        /// `seed` draws the SDK's payment ids: a suite that runs beside this one (Swift Testing runs suites in
        /// parallel, on one peer) takes another, or the two would write the same payment ids to the peer.
        init(_ stack: EndToEndStack, ledger: (any PaymentLedger)? = nil, seed: UInt64 = 11) async throws {
            self.stack = stack
            let clock = ManualClock()
            let location = stack.shop.locationID
            let seller = SquareSimulator.Seller(
                merchantID: "M_E2E", accessToken: "tok-e2e",
                locations: [Square.Location(id: location, name: "E2E", currency: .USD)])
            simulator = SquareSimulator(sellers: [seller], seed: seed, clock: clock)
            try await simulator.authorize(withAccessToken: "tok-e2e", locationID: location)
            await simulator.addNearbyReader()
            _ = await simulator.startPairing(with: Pairing())
            let device = stack.device
            var settings = SquareProcessor.Configuration()
            settings.simulatedReaders = true
            let processor = SquareProcessor(client: simulator, captureService: device,
                                            serverLookup: SquareRESTServerLookup(device), refundService: device,
                                            configuration: settings, clock: clock)
            await processor.startObserving()
            terminal = PaymentTerminal(processor: processor, ledger: ledger ?? InMemoryPaymentLedger(), scope: stack.shop,
                                       clock: clock)
        }

        /// Square's servers take what the SDK's payments left there (new ones, and status changes the SDK made).
        func publish() async throws {
            for payment in await simulator.serverPayments {
                let status = payment.status.rawValue.uppercased()
                guard published.current[payment.id] != status else { continue }
                published.withLock { $0[payment.id] = status }
                var fields: [String: Any] = [
                    "id": payment.id, "status": status, "amount": Int(payment.amountMoney.amount),
                    "currency": "USD", "location_id": payment.locationID, "idempotency_key": payment.idempotencyKey,
                ]
                fields["reference_id"] = payment.referenceID
                if let tip = payment.tipMoney { fields["tip"] = Int(tip.amount) }
                try await stack.seedSquarePayment(fields)
            }
        }

        func take(_ reference: String, _ cents: Int64, capture: CaptureMode = .automatic) async throws -> PaymentSession {
            let session = try await terminal.takePayment(PaymentRequest(amount: SquareEndToEndTests.usd(cents),
                                                                        reference: reference, captureMode: capture))
            try await publish()
            return session
        }
    }

    static func reference(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(6).lowercased())" }

    @Test("a sale, and a manual capture: the peer holds each payment COMPLETED for its amount")
    func saleAndCapture() async throws {
        let stack = try EndToEndStack()
        let device = try await SquareDevice(stack)
        let sale = try await device.take(Self.reference("sq-sale"), 1_250)
        #expect(sale.state == .succeeded)
        let saleID = try #require(sale.processorPaymentID)
        let saleAtSquare = try #require(try await stack.squarePayment(saleID))
        #expect(saleAtSquare["status"] as? String == "COMPLETED")
        #expect((saleAtSquare["total_money"] as? [String: Any])?["amount"] as? Int == 1_250)

        let held = try await device.take(Self.reference("sq-manual"), 3_000, capture: .manual)
        #expect(held.state == .authorized)
        let id = try #require(held.processorPaymentID)
        #expect(try await stack.squarePayment(id)?["status"] as? String == "APPROVED")
        let captured = try await device.terminal.capture(reference: held.reference)
        #expect(captured.state == .succeeded)
        #expect(try await stack.squarePayment(id)?["status"] as? String == "COMPLETED",
                "captured through the routes without squareMerchantID (issue 28 item 6)")
        #expect(try await stack.squareViolations().isEmpty)
        try stack.server.expectValidExchanges()
    }

    @Test("a decline, then another card for the same order: the earlier attempt voided by the SDK's key, one charge")
    func declineThenAnotherCard() async throws {
        let stack = try EndToEndStack()
        let device = try await SquareDevice(stack)
        let reference = Self.reference("sq-decline")
        await device.simulator.setPresentedCard(.declined)
        let declined = try await device.take(reference, 2_700)
        #expect(declined.state == .declined, "\(declined.state)")
        await device.simulator.setPresentedCard(.visaChip)
        let paid = try await device.take(reference, 2_700)
        #expect(paid.state == .succeeded, "\(paid.state) \(String(describing: paid.lastError))")
        let charges = try await stack.squarePayments(referenceID: reference)
            .filter { ["APPROVED", "COMPLETED"].contains($0["status"] as? String) }
        #expect(charges.count == 1 && charges.first?["id"] as? String == paid.processorPaymentID, "one charge")
        // The earlier attempt was voided with the key Square's SDK generated for it, accepted by the routes.
        let sdkKeys = await device.simulator.serverPayments.filter { $0.referenceID == reference }.map(\.idempotencyKey)
        let voids = stack.server.exchanges.filter { $0.request.url.path.hasSuffix("/cancel-by-idempotency-key") }
        #expect(!voids.isEmpty && voids.allSatisfy { $0.response.status == 204 }, "\(voids.map(\.response.status))")
        #expect(voids.allSatisfy { exchange in sdkKeys.contains { key in
            String(decoding: exchange.request.body ?? Data(), as: UTF8.self).contains(key) } })
        #expect(try await stack.squareViolations().isEmpty)
        try stack.server.expectValidExchanges()
    }

    @Test("a refund and its lookup: the peer holds the refund of the payment, for the amount")
    func refundAndLookup() async throws {
        let stack = try EndToEndStack()
        let device = try await SquareDevice(stack)
        let paid = try await device.take(Self.reference("sq-refund"), 4_000)
        let id = try #require(paid.processorPaymentID)
        let refund = try await device.terminal.refund(reference: paid.reference, amount: Self.usd(1_500))
        #expect(refund.status != .failed, "\(String(describing: refund.error))")
        let refundID = try #require(refund.processorRefundID)
        let atSquare = try #require(try await stack.squareRefund(refundID))
        #expect(atSquare["payment_id"] as? String == id)
        #expect((atSquare["amount_money"] as? [String: Any])?["amount"] as? Int == 1_500)
        let found = try await stack.device.lookUpRefund(processor: "square", processorPaymentID: id,
                                                        idempotencyKey: refund.id, processorRefundID: refundID)
        #expect(found?.processorRefundID == refundID)
        #expect(try await stack.squareViolations().isEmpty)
        try stack.server.expectValidExchanges()
    }

    @Test("a device of another location is refused at every route; the peer's payment is untouched")
    func otherLocationRefused() async throws {
        let stack = try EndToEndStack()
        let device = try await SquareDevice(stack)
        let held = try await device.take(Self.reference("sq-theirs"), 900, capture: .manual)
        let id = try #require(held.processorPaymentID)
        let reference = held.reference
        let other = stack.otherDevice
        let key = { (operation: IdempotencyKey.Operation) in
            IdempotencyKey(scope: stack.otherShop, reference: reference, paymentAttempt: 1, operation: operation).rawValue
        }
        let calls: [(String, () async throws -> Void)] = [
            ("capture", { try await other.capture(CaptureRequest(processor: "square", reference: reference,
                processorPaymentID: id, amount: Self.usd(900), idempotencyKey: key(.capture))) }),
            ("void", { try await other.void(VoidRequest(processor: "square", reference: reference,
                processorPaymentID: id, idempotencyKey: key(.void))) }),
            ("refund", { _ = try await other.refund(RefundRequest(processor: "square", reference: reference,
                processorPaymentID: id, amount: Self.usd(100), idempotencyKey: key(.refund(1)))) }),
            ("refund lookup", { _ = try await other.lookUpRefund(processor: "square", processorPaymentID: id,
                idempotencyKey: key(.refund(1)), processorRefundID: nil) }),
            ("lookup by id", { _ = try await other.getPayment(id: id) }),
            ("lookup at the shop's location", { _ = try await other.payments(referenceID: reference,
                locationID: stack.shop.locationID) }),
            ("void by the shop's scoped key", { try await other.cancelPayment(idempotencyKey: IdempotencyKey(
                scope: stack.shop, reference: reference, paymentAttempt: 1, operation: .payment).rawValue) }),
        ]
        for (name, call) in calls {
            do {
                try await call()
                Issue.record("\(name) was allowed to another location's device")
            } catch let error as PaymentError {
                #expect(error.code == .notAuthorized, "\(name): \(error)")
            }
        }
        #expect(try await other.payments(referenceID: reference, locationID: stack.otherShop.locationID).isEmpty)
        #expect(try await stack.squarePayment(id)?["status"] as? String == "APPROVED")
        #expect(try await device.terminal.capture(reference: reference).state == .succeeded)
        #expect(try await stack.squarePayment(id)?["status"] as? String == "COMPLETED")
        try stack.server.expectValidExchanges()
    }
}
