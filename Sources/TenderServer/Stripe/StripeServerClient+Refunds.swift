import Foundation
package import TenderWire

extension StripeServerClient {
    /// Stripe's own `reason` values; any other ``TenderWire/RefundReason`` goes to the refund's metadata instead.
    static let stripeRefundReasons: Set<String> = ["duplicate", "fraudulent", "requested_by_customer"]
    /// The metadata key holding a free-text refund reason Stripe's `reason` cannot take.
    package static let refundReasonMetadataKey = "tender_refund_reason"

    /// `POST /v1/refunds` for `amount` of the intent, idempotently under `idempotencyKey` (fitted to
    /// ``maximumIdempotencyKeyLength``), which is also stored in the refund's metadata (``refundKeyMetadataKey``)
    /// with the payment's reference.
    ///
    /// Before creating, the intent's refunds are listed (a consistent read) and one already made under this key is
    /// returned when it is the same refund (this intent, this amount and currency): a retry is the same refund even
    /// after Stripe's 24-hour idempotency window. A refund under the key for another amount (a ledger restored from a
    /// backup re-using a refund number) is Stripe's `idempotency_error`
    /// (``TenderWire/PaymentError/Code/duplicateReference``): it is never this refund's result, and no second refund is
    /// made under the key. Within the 24 hours Stripe itself refuses a key reused with other parameters the same way.
    package func createRefund(paymentIntent id: String, amount: Money, reference: String, idempotencyKey: String,
                             reason: RefundReason? = nil) async throws(PaymentError) -> StripeAPI.Refund {
        let key = IdempotencyKey.fitted(idempotencyKey, maximumLength: Self.maximumIdempotencyKeyLength)
        if let existing = try await refunds(paymentIntent: id).first(where: {
            $0.metadata[Self.refundKeyMetadataKey] == key
        }) {
            guard existing.amount == amount.minorUnits, existing.currency == amount.currency.lowercasedCode else {
                throw PaymentError(.duplicateReference, recovery: .fixRequest, phase: .refund,
                                   message: "Refund \(existing.id) of \(id) was made under idempotency key \(key) for \(existing.amount) \(existing.currency), not \(amount): a refund under this key is not made again.",
                                   vendor: .init(processor: Self.processor, name: "idempotency_error",
                                                 message: "Keys for idempotent requests can only be used with the same parameters they were first used with.",
                                                 category: "idempotency_error"))
            }
            return existing
        }
        var metadata = [Self.refundKeyMetadataKey: key, configuration.referenceMetadataKey: reference]
        var form: [String: FormValue] = ["payment_intent": .string(id), "amount": .string(String(amount.minorUnits))]
        if let reason {
            if Self.stripeRefundReasons.contains(reason.rawValue) {
                form["reason"] = .string(reason.rawValue)
            } else {
                metadata[Self.refundReasonMetadataKey] = reason.rawValue
            }
        }
        form["metadata"] = .map(metadata)
        return try await request("POST", "v1/refunds", form: form, idempotencyKey: key,
                                 as: StripeAPI.Refund.self, operation: "Refunding \(amount) of \(id)", phase: .refund)
    }

    /// `GET /v1/refunds/:id`, or nil when Stripe has no such refund.
    package func retrieveRefund(id: String) async throws(PaymentError) -> StripeAPI.Refund? {
        switch await perform("GET", "v1/refunds/\(Self.segment(id))", as: StripeAPI.Refund.self) {
        case .success(let refund): return refund
        case .failure(let failure):
            if failure.status == 404, failure.vendorCode == nil || failure.vendorCode == "resource_missing" { return nil }
            throw StripeRESTErrorTable.paymentError(failure, operation: "Retrieving refund \(id)", phase: .refund)
        }
    }

    /// Every refund of the intent (`GET /v1/refunds?payment_intent=`), all pages, newest first as Stripe lists
    /// them. A list is consistent: a refund Stripe created is in it.
    /// - Throws: when the pages cannot all be read (the answer would be incomplete).
    package func refunds(paymentIntent id: String) async throws(PaymentError) -> [StripeAPI.Refund] {
        var all: [StripeAPI.Refund] = []
        var after: String?
        for _ in 0..<max(1, configuration.maximumPages) {
            var query = [("payment_intent", id), ("limit", "100")]
            if let after { query.append(("starting_after", after)) }
            let page = try await request("GET", "v1/refunds", query: query, as: StripeAPI.List<StripeAPI.Refund>.self,
                                         operation: "Listing the refunds of \(id)", phase: .refund)
            all += page.data
            guard page.hasMore, let last = page.data.last else { return all }
            after = last.id
        }
        throw PaymentError(.outcomeUnknown, recovery: .retrySamePayment, phase: .refund,
                           message: "The refunds of \(id) fill more than \(configuration.maximumPages) pages; the list was not read to its end.",
                           vendor: .init(processor: Self.processor, name: "list_incomplete"))
    }

    /// Tender's status of a Stripe refund status (see ``TenderWire/RefundStatus``); an unknown status is pending (not
    /// final: looked up again later), never a guess of success or failure.
    package static func refundStatus(_ status: String?) -> RefundStatus {
        switch status {
        case "succeeded": .succeeded
        case "failed", "canceled": .failed
        default: .pending
        }
    }

    /// The ``TenderWire/RefundResult`` of a Stripe refund: a failed one carries ``TenderWire/PaymentError/Code/refundFailed``
    /// with Stripe's `failure_reason`.
    package static func refundResult(_ refund: StripeAPI.Refund) -> RefundResult {
        let status = refundStatus(refund.status)
        var error: PaymentError?
        if status == .failed {
            error = PaymentError(.refundFailed, recovery: .none, phase: .refund,
                                 message: "Stripe could not refund \(refund.id) (\(refund.failureReason ?? refund.status ?? "failed")).",
                                 vendor: .init(processor: processor, name: refund.failureReason ?? "refund_\(refund.status ?? "failed")"))
        }
        return RefundResult(processorRefundID: refund.id, status: status, error: error)
    }
}
