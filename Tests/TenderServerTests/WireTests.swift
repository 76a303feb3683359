import Foundation
import Testing
import TenderStripe
import TenderWire
@testable import TenderServer

/// The wire types TenderServer shares with the device (TenderWire) cross a wire: they encode and decode unchanged, and
/// the server's constants agree with the adapters' without the server depending on them.
@Suite("TenderWire between device and server")
struct WireTests {
    @Test func requestsAndResultsRoundTripAsJSON() throws {
        let amount = Money(minorUnits: 1250, currency: .usd)
        let key = IdempotencyKey.refund(scope: LedgerScope(merchantID: "acct_1", locationID: "tml_1"),
                                        reference: "order-7", paymentAttempt: 1, number: 2).rawValue
        let refund = RefundRequest(processor: "stripe", reference: "order-7", processorPaymentID: "pi_1", amount: amount,
                                   reason: .duplicate, idempotencyKey: key)
        let capture = CaptureRequest(processor: "square", reference: "order-7", processorPaymentID: "p_1", amount: amount,
                                     idempotencyKey: key)
        let void = VoidRequest(processor: "stripe", reference: "order-7", processorPaymentID: "pi_1", idempotencyKey: key)
        let result = RefundResult(processorRefundID: "re_1", status: .failed, error: PaymentError(
            .refundFailed, recovery: .none, phase: .refund, message: "declined",
            vendor: .init(processor: "stripe", name: "expired_or_canceled_card")))
        let lookup = StripeReferenceLookup.found([], complete: true)
        func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
            try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
        }
        #expect(try roundTrip(refund) == refund)
        #expect(try roundTrip(capture) == capture)
        #expect(try roundTrip(void) == void)
        #expect(try roundTrip(result) == result)
        #expect(try roundTrip(lookup) == lookup)
        #expect(try roundTrip(StripeReferenceLookup.unknown) == .unknown)
    }

    @Test func serverReferenceKeyIsTheAdapters() {
        #expect(StripeServerClient.referenceMetadataKey == StripeMapping.referenceMetadataKey)
        #expect(StripeServerClient.Configuration().referenceMetadataKey == StripeMapping.referenceMetadataKey)
    }
}
