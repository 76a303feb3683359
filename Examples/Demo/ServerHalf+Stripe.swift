import Foundation
import Tender
import TenderServer

/// The Stripe part of the server half, against localstripe: a PaymentIntent created on the server and confirmed
/// with Stripe's test payment method `pm_card_visa` (localstripe has no readers; this is how TenderServer's own
/// tests confirm), captured in part and refunded through `TenderServer`, then retrieved and reconciled.
struct StripePeerRun {
    let client: StripeServerClient
    /// Where captures and refunds go: TenderServer in this process, or a merchant server (`--server`).
    let server: any PaymentCaptureService & PaymentRefundService
    let baseURL: URL
    let reference: String
    let out: Output
    /// What the captures and refunds went through, for the text.
    var via = "TenderServer"
    /// The shop's merchant and location, which every idempotency key and intent carries.
    var scope = Self.demoScope

    /// The demo shop's merchant and location when it runs TenderServer in process.
    static let demoScope = LedgerScope(merchantID: "acct_demo", locationID: "tml_demo_shop")
    /// localstripe accepts any test-mode secret key.
    static let testKey = "sk_test_tender_demo"

    func perform(authorizing authorized: Money, into result: inout ServerHalfResult) async {
        let toCapture = Money(minorUnits: authorized.minorUnits * 3 / 4, currency: authorized.currency)
        let toRefund = Money(minorUnits: toCapture.minorUnits / 3, currency: authorized.currency)
        var mismatches: [String] = []
        defer { result.mismatches += mismatches.map { "stripe (localstripe): \($0)" } }
        do {
            let intent = try await client.createPaymentIntent(amount: authorized, reference: reference, scope: scope,
                                                              captureMethod: "manual", paymentMethodTypes: ["card"],
                                                              extra: ["payment_method": "pm_card_visa"])
            let (status, _) = try await ServerHalf.raw(
                "POST", baseURL.appendingPathComponent("v1/payment_intents/\(intent.id)/confirm"),
                headers: ["Authorization": "Bearer \(Self.testKey)", "Content-Type": "application/x-www-form-urlencoded"],
                body: "")
            let confirmed = try await client.retrievePaymentIntent(id: intent.id)
            guard status == 200, confirmed?.status == "requires_capture" else {
                mismatches.append("the confirmed intent is \(confirmed?.status ?? "missing") (HTTP \(status)), not requires_capture")
                return out.bad("the PaymentIntent could not be authorized on localstripe")
            }
            out.good("a PaymentIntent for \(authorized) created on the server, confirmed with pm_card_visa: requires_capture")

            // Capture part of it, through the server (TenderServer or --server) as the adapters' capture service.
            let captures: any PaymentCaptureService = server
            try await captures.capture(CaptureRequest(
                processor: "stripe", reference: reference, processorPaymentID: intent.id, amount: toCapture,
                idempotencyKey: IdempotencyKey.capture(scope: scope, reference: reference, paymentAttempt: 1).rawValue))
            out.good("captured \(toCapture) of it through \(via) (PaymentCaptureService)")

            // Refund part of the capture, through the server as the refund service, and send it again.
            let refunds: any PaymentRefundService = server
            let request = RefundRequest(processor: "stripe", reference: reference, processorPaymentID: intent.id,
                                        amount: toRefund,
                                        idempotencyKey: IdempotencyKey.refund(scope: scope, reference: reference,
                                                                              paymentAttempt: 1, number: 1).rawValue)
            let first = try await refunds.refund(request)
            let again = try await refunds.refund(request)
            let same = first.processorRefundID != nil && again.processorRefundID == first.processorRefundID
            out.good("refunded \(toRefund) through \(via) (PaymentRefundService): \(first.status); sent again under its idempotency key: \(same ? "the same refund" : "another refund")")
            if !same { mismatches.append("the refund sent again under its key made another refund") }
            if first.status != .succeeded { mismatches.append("the refund is \(first.status)") }

            // Retrieve and reconcile: the intent, its charge, its refunds, and the refund looked up by its key.
            let final = try await client.retrievePaymentIntent(id: intent.id)
            let charge = final?.latestCharge?.object
            let ours = try await client.refunds(paymentIntent: intent.id)
                .filter { $0.metadata[StripeServerClient.refundKeyMetadataKey]
                    == IdempotencyKey.fitted(request.idempotencyKey, maximumLength: StripeServerClient.maximumIdempotencyKeyLength) }
            let found = try await refunds.lookUpRefund(processor: "stripe", processorPaymentID: intent.id,
                                                       idempotencyKey: request.idempotencyKey, processorRefundID: nil)
            // What the merchant keeps. Stripe reports `amount_captured`; localstripe omits it and records the
            // uncaptured rest of a partial capture as a refund, so both read the same this way.
            let kept = charge.map { ($0.amountCaptured ?? $0.amount) - ($0.amountRefunded ?? 0) }
            if final?.status != "succeeded" { mismatches.append("the intent is \(final?.status ?? "missing"), not succeeded") }
            if charge?.captured != true { mismatches.append("the charge is not captured") }
            if kept != toCapture.minorUnits - toRefund.minorUnits {
                mismatches.append("the merchant keeps \(kept.map(String.init) ?? "nothing"), not \(toCapture.minorUnits - toRefund.minorUnits)")
            }
            if ours.map(\.amount) != [toRefund.minorUnits] || ours.first?.status != "succeeded" {
                mismatches.append("refunds under the key: \(ours.map { "\($0.amount) \($0.status ?? "?")" }), not one of \(toRefund.minorUnits) succeeded")
            }
            if found?.processorRefundID != first.processorRefundID || found?.status != .succeeded {
                mismatches.append("the refund looked up by its key is \(found?.status.rawValue ?? "not found")")
            }
            let keptMoney = Money(minorUnits: kept ?? 0, currency: authorized.currency)
            out.good("retrieved: \(final?.status ?? "missing"), captured \(toCapture), refunded \(toRefund), kept \(keptMoney); the refund found again by its key")
            result.stripe = ["authorized": authorized.minorUnits, "captured": toCapture.minorUnits,
                             "refunded": toRefund.minorUnits, "kept": kept ?? 0, "status": final?.status ?? "missing",
                             "refund_status": first.status.rawValue, "refund_idempotent": same]
        } catch {
            mismatches.append("a call failed: \(ServerHalf.describe(error))")
            out.bad("a call to localstripe failed: \(ServerHalf.describe(error))")
        }
    }
}
