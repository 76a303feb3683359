import Foundation
import Tender
@_spi(Testing) import TenderStripe
import TenderStripeSimulator
import Testing

@Suite("Stripe refunds")
struct StripeRefundTests {
    private func refund(_ paid: ProcessorPaymentUpdate, cents: Int64, number: Int = 1,
                        currency: Currency = .usd) -> RefundRequest {
        RefundRequest(processor: "stripe", reference: paid.reference, processorPaymentID: paid.processorPaymentID ?? "",
                      amount: Money(minorUnits: cents, currency: currency),
                      idempotencyKey: RefundRecord.idempotencyKey(reference: paid.reference, number: number))
    }

    private func record(_ request: RefundRequest, number: Int = 1, throughReader: Bool = false) -> RefundRecord {
        RefundRecord(id: request.idempotencyKey, reference: request.reference, number: number, amount: request.amount,
                     throughReader: throughReader, createdAt: Date(timeIntervalSince1970: 0))
    }

    @Test("through the app's service: partial, idempotent, never beyond what was captured, looked up by key")
    func serviceRefunds() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = try await connectedProcessor(simulator, clock: clock)
        let paid = try await pay(processor, sale("RF-1"))
        let first = try await processor.refundPayment(refund(paid, cents: 400), throughReader: false)
        #expect(first.status == .succeeded)
        #expect(first.processorRefundID?.hasPrefix("re_") == true)
        #expect(try await processor.refundPayment(refund(paid, cents: 400), throughReader: false) == first)
        await #expect(throws: (any Error).self) {
            _ = try await processor.refundPayment(refund(paid, cents: 700, number: 2), throughReader: false)
        }
        #expect(try await processor.refundPayment(refund(paid, cents: 600, number: 2), throughReader: false).status
            == .succeeded)
        #expect(try await processor.lookUpRefund(record(refund(paid, cents: 400)), processorPaymentID: paid.processorPaymentID ?? "")
            == first)
        #expect(try await processor.lookUpRefund(record(refund(paid, cents: 1, number: 9)),
                                                 processorPaymentID: paid.processorPaymentID ?? "") == nil)
        #expect(await simulator.serverRefunds.map(\.amount) == [400, 600])
    }

    @Test("without a refund service: refused as unavailable, and capabilities say so")
    func noService() async throws {
        let (simulator, clock) = makeSimulator()
        let processor = StripeProcessor(client: simulator, captureService: RecordingCaptureService(), clock: clock)
        await #expect(throws: PaymentError.self) {
            _ = try await processor.refundPayment(RefundRequest(processor: "stripe", reference: "X", processorPaymentID: "pi",
                                                                amount: Money(minorUnits: 1, currency: .usd),
                                                                idempotencyKey: "X/refund-1"), throughReader: false)
        }
        #expect(!(await processor.capabilities().supportsRefunds))
    }

    @Test("Interac is refunded in person: the card presented again, refund confirmed; the API refuses it")
    func interacInPerson() async throws {
        let (simulator, clock) = makeSimulator { $0.simulatedCard = .interac }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let paid = try await pay(processor, sale("IN-1", currency: .cad))
        #expect(paid.state == .succeeded)
        await #expect(throws: (any Error).self) {
            _ = try await processor.refundPayment(refund(paid, cents: 300, currency: .cad), throughReader: false)
        }
        let inPerson = try await processor.refundPayment(refund(paid, cents: 300, currency: .cad), throughReader: true)
        #expect(inPerson.status == .succeeded)
        #expect(processor.emittedEvents.contains(.readerInputRequested([.insert, .tap])))
        // A retry of the same refund (a lost answer) finds it by its key: never a second refund.
        #expect(try await processor.refundPayment(refund(paid, cents: 300, currency: .cad), throughReader: true) == inPerson)
        #expect(await simulator.serverRefunds.count == 1)
        #expect(await simulator.serverRefunds.first?.inPerson == true)
    }

    @Test("in person: a timeout is unknown and looked up by key; canceled and mismatched cards refund nothing")
    func inPersonFailures() async throws {
        let (simulator, clock) = makeSimulator { $0.simulatedCard = .interac }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let paid = try await pay(processor, sale("IN-2", currency: .cad))
        await simulator.inject(.refundAnswerLost)
        do {
            _ = try await processor.refundPayment(refund(paid, cents: 200, currency: .cad), throughReader: true)
            Issue.record("the answer was lost")
        } catch let error as PaymentError {
            #expect(error.code == .outcomeUnknown)
        }
        let found = try await processor.lookUpRefund(record(refund(paid, cents: 200, currency: .cad), throughReader: true),
                                                     processorPaymentID: paid.processorPaymentID ?? "")
        #expect(found?.status == .succeeded)

        await simulator.inject(.holdNextCard)
        let canceled = Task {
            try await processor.refundPayment(refund(paid, cents: 100, number: 2, currency: .cad), throughReader: true)
        }
        await eventually { await simulator.isHolding }
        canceled.cancel()
        await #expect(throws: PaymentError.self) { _ = try await canceled.value }

        await simulator.configure { $0.simulatedCard = .visa }
        let mismatch = try await processor.refundPayment(refund(paid, cents: 100, number: 3, currency: .cad),
                                                         throughReader: true)
        #expect(mismatch.status == .failed)
        #expect(mismatch.error?.code == .refundFailed)
        #expect(await simulator.serverRefunds.filter { $0.status == .succeeded }.map(\.amount) == [200])
    }

    @Test("the refundFailed test card: succeeded, as Stripe's begins, then failed later on the clock")
    func refundFailsLater() async throws {
        let (simulator, clock) = makeSimulator { $0.simulatedCard = .refundFailed }
        let processor = try await connectedProcessor(simulator, clock: clock)
        let paid = try await pay(processor, sale("RFL"))
        let first = try await processor.refundPayment(refund(paid, cents: 1_000), throughReader: false)
        #expect(first.status == .succeeded, "Stripe's refund to the card begins succeeded")
        clock.advance(by: 59)
        let before = try await processor.lookUpRefund(record(refund(paid, cents: 1_000)),
                                                      processorPaymentID: paid.processorPaymentID ?? "")
        #expect(before?.status == .succeeded)
        clock.advance(by: 1)
        let settled = try await processor.lookUpRefund(record(refund(paid, cents: 1_000)),
                                                       processorPaymentID: paid.processorPaymentID ?? "")
        #expect(settled?.status == .failed)
        #expect(settled?.error?.vendor?.declineCode == "expired_or_canceled_card")
    }
}
