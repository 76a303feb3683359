import Foundation
import Testing
import Tender
@testable import TenderSquare
@testable import TenderSquareSimulator

/// Square refunds only through `RefundPayment` on the app's server: the SDK has none.
@Suite("Square processor: refunds")
struct SquareRefundTests {
    static func request(_ id: String, cents: Int64, number: Int, reference: String = "order-1") -> RefundRequest {
        RefundRequest(processor: "square", reference: reference, processorPaymentID: id,
                      amount: Money(minorUnits: cents, currency: .usd), reason: .requestedByCustomer,
                      idempotencyKey: RefundRecord.idempotencyKey(reference: reference, number: number))
    }

    @Test("partial refunds, pending then completed on Square's clock, idempotent by key, never beyond the payment (D)")
    func partialRefunds() async throws {
        let world = try await SquareWorld()
        let (paid, _) = try await world.pay("order-1", cents: 10_00)
        let id = try #require(paid.processorPaymentID)
        let first = try await world.processor.refundPayment(Self.request(id, cents: 4_00, number: 1), throughReader: false)
        #expect(first.status == .pending && first.processorRefundID != nil)
        let again = try await world.processor.refundPayment(Self.request(id, cents: 4_00, number: 1), throughReader: false)
        #expect(again.processorRefundID == first.processorRefundID, "the same key is the same refund")
        #expect(await world.simulator.serverRefunds.count == 1)
        do {
            _ = try await world.processor.refundPayment(Self.request(id, cents: 6_01, number: 2), throughReader: false)
            Issue.record("refunded beyond what is left")
        } catch let error as PaymentError {
            #expect(error.code == .invalidAmount && error.phase == .refund)
        }
        let second = try await world.processor.refundPayment(Self.request(id, cents: 6_00, number: 2), throughReader: false)
        world.clock.advance(by: 10)
        var record = RefundRecord(id: RefundRecord.idempotencyKey(reference: "order-1", number: 1), reference: "order-1",
                                  number: 1, amount: Money(minorUnits: 4_00, currency: .usd), createdAt: world.clock.now())
        // Square keeps no idempotency key on a refund: by key alone, with refunds on the payment, it cannot tell.
        do {
            _ = try await world.processor.lookUpRefund(record, processorPaymentID: id)
            Issue.record("a refund was attributed to its key, which Square does not record")
        } catch let error as PaymentError {
            #expect(error.code == .outcomeUnknown && error.recovery == .retrySamePayment)
        }
        let replayed = try await world.processor.refundPayment(Self.request(id, cents: 4_00, number: 1), throughReader: false)
        #expect(replayed.processorRefundID == first.processorRefundID && replayed.status == .succeeded)
        record.processorRefundID = first.processorRefundID
        let settled = try #require(try await world.processor.lookUpRefund(record, processorPaymentID: id))
        #expect(settled.status == .succeeded && settled.processorRefundID == first.processorRefundID)
        record.processorRefundID = second.processorRefundID
        #expect(try await world.processor.lookUpRefund(record, processorPaymentID: id)?.status == .succeeded)
        #expect(try await world.simulator.server.payment(id: id)?.refundedMoney?.amount == 10_00)
        let (other, _) = try await world.pay("order-2", cents: 5_00)
        record.processorRefundID = nil
        #expect(try await world.processor.lookUpRefund(record, processorPaymentID: try #require(other.processorPaymentID))
            == nil, "a payment with no refund at all: certainly none")
    }

    @Test("Square's REJECTED and FAILED refunds settle as failed, and the amount is refundable again (D)",
          arguments: [Square.PaymentRefundStatus.rejected, .failed])
    func refusedRefund(status: Square.PaymentRefundStatus) async throws {
        let world = try await SquareWorld()
        let (paid, _) = try await world.pay("order-1", cents: 10_00)
        let id = try #require(paid.processorPaymentID)
        await world.simulator.injectRefundOutcome(status)
        await world.simulator.configure { $0.refundSettlement = 0 }
        let refused = try await world.processor.refundPayment(Self.request(id, cents: 10_00, number: 1), throughReader: false)
        #expect(refused.status == .failed && refused.error?.code == .refundFailed)
        #expect(refused.error?.vendor?.name == "PaymentRefund.\(status.rawValue)")
        let retried = try await world.processor.refundPayment(Self.request(id, cents: 10_00, number: 2), throughReader: false)
        #expect(retried.status == .succeeded)
    }

    @Test("refused before Square: through the reader, without a refund service; by Square: an uncaptured payment (D)")
    func refusals() async throws {
        let world = try await SquareWorld()
        let (held, _) = try await world.pay("order-1", cents: 10_00, capture: .manual)
        let id = try #require(held.processorPaymentID)
        do {
            _ = try await world.processor.refundPayment(Self.request(id, cents: 1_00, number: 1), throughReader: true)
            Issue.record("refunded through the reader")
        } catch let error as PaymentError {
            #expect(error.code == .featureUnavailable && error.message.contains("RefundPayment"))
        }
        do {
            _ = try await world.processor.refundPayment(Self.request(id, cents: 1_00, number: 1), throughReader: false)
            Issue.record("an authorization was refunded")
        } catch let error as PaymentError {
            #expect(error.code == .invalidState)
        }
        let bare = SquareProcessor(client: world.simulator, captureService: world.simulator.server)
        await #expect(throws: PaymentError.self) {
            _ = try await bare.refundPayment(Self.request(id, cents: 1_00, number: 1), throughReader: false)
        }
        await world.simulator.setNetwork(.offline)
        do {
            _ = try await world.processor.refundPayment(Self.request(id, cents: 1_00, number: 2), throughReader: false)
        } catch let error as PaymentError {
            #expect(error.code == .networkUnavailable, "unreachable: the core keeps it pending and looks it up")
        }
    }

    @Test("a reused refund key for another refund is refused; Square's statuses map as documented")
    func keyReuseAndMapping() async throws {
        let world = try await SquareWorld()
        let (paid, _) = try await world.pay("order-1", cents: 10_00)
        let id = try #require(paid.processorPaymentID)
        _ = try await world.processor.refundPayment(Self.request(id, cents: 1_00, number: 1), throughReader: false)
        await #expect(throws: PaymentError.self) {
            _ = try await world.processor.refundPayment(Self.request(id, cents: 2_00, number: 1), throughReader: false)
        }
        #expect(Square.PaymentRefundStatus.allCases.map(SquareMapping.refundStatus) == [.pending, .succeeded, .failed, .failed])
    }
}
