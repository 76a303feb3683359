import Foundation
import Tender

/// The merchant and location these tests' idempotency keys carry (as a device's `PaymentTerminal` would derive them).
let serverTestScope = LedgerScope(merchantID: "acct_tests", locationID: "tml_tests")

extension PaymentCaptureService {
    /// Captures with the key a device in `scope` derives for the reference's first vendor payment.
    func capture(processor: String, reference: String, processorPaymentID: String, amount: Money,
                 scope: LedgerScope = serverTestScope) async throws {
        try await capture(CaptureRequest(
            processor: processor, reference: reference, processorPaymentID: processorPaymentID, amount: amount,
            idempotencyKey: IdempotencyKey.capture(scope: scope, reference: reference, paymentAttempt: 1).rawValue))
    }

    /// Voids with the key a device in `scope` derives.
    func void(processor: String, reference: String, processorPaymentID: String,
              scope: LedgerScope = serverTestScope) async throws {
        try await void(VoidRequest(
            processor: processor, reference: reference, processorPaymentID: processorPaymentID,
            idempotencyKey: IdempotencyKey.void(scope: scope, reference: reference, paymentAttempt: 1).rawValue))
    }
}

/// The key of refund `number` of `reference` as a device in `scope` derives it.
func refundKey(_ reference: String, _ number: Int, scope: LedgerScope = serverTestScope) -> String {
    IdempotencyKey.refund(scope: scope, reference: reference, paymentAttempt: 1, number: number).rawValue
}
