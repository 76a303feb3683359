import Foundation
import Tender
import TenderServer

/// The Square part of the server half, against the peer that answers from Square's OpenAPI document and validates
/// every request and answer against it: an approved (delayed-capture) payment seeded on the peer stands in for the
/// one a reader took (the peer has no Mobile Payments SDK), then `CompletePayment` and `RefundPayment` (part, the
/// rest, and one cent more, refused) through `TenderServer`, then `GetPayment` and `GetPaymentRefund` to reconcile.
struct SquarePeerRun {
    let client: SquareServerClient
    /// Where captures and refunds go: TenderServer in this process, or a merchant server (`--server`).
    let server: any PaymentCaptureService & PaymentRefundService
    let baseURL: URL
    let reference: String
    let out: Output
    /// What the captures and refunds went through, for the text.
    var via = "TenderServer"
    /// The seller's merchant and location, which every idempotency key carries (the payment is at its location).
    var scope = LedgerScope(merchantID: "MLDEMO", locationID: "L_DEMO_SHOP")

    func perform(amount total: Money, into result: inout ServerHalfResult) async {
        let part = Money(minorUnits: total.minorUnits / 4, currency: total.currency)
        let rest = Money(minorUnits: total.minorUnits - part.minorUnits, currency: total.currency)
        var mismatches: [String] = []
        defer { result.mismatches += mismatches.map { "square (peer): \($0)" } }
        do {
            let body = try JSONSerialization.data(withJSONObject: [
                "amount": total.minorUnits, "reference_id": reference, "location_id": scope.locationID,
            ] as [String: Any])
            let (status, seeded) = try await ServerHalf.raw("POST", baseURL.appendingPathComponent("_tender/payments"),
                                                            headers: ["Content-Type": "application/json"],
                                                            body: String(decoding: body, as: UTF8.self))
            guard status == 200, let id = seeded["id"] as? String, seeded["status"] as? String == "APPROVED" else {
                mismatches.append("the peer did not seed an approved payment (HTTP \(status))")
                return out.bad("no approved payment on the Square peer")
            }
            out.good("an APPROVED payment of \(total) on the peer (delayed capture), standing in for the reader's")

            let captures: any PaymentCaptureService = server
            try await captures.capture(CaptureRequest(
                processor: "square", reference: reference, processorPaymentID: id, amount: total,
                idempotencyKey: IdempotencyKey.capture(scope: scope, reference: reference, paymentAttempt: 1).rawValue))
            let completed = try await client.getPayment(id: id)
            out.good("CompletePayment through \(via) (PaymentCaptureService): \(completed?.status ?? "missing")")

            let refunds: any PaymentRefundService = server
            func request(_ number: Int, _ amount: Money) -> RefundRequest {
                RefundRequest(processor: "square", reference: reference, processorPaymentID: id, amount: amount,
                              reason: .requestedByCustomer,
                              idempotencyKey: IdempotencyKey.refund(scope: scope, reference: reference, paymentAttempt: 1,
                                                                    number: number).rawValue)
            }
            var made: [(Money, RefundResult)] = []
            for (number, amount) in [(1, part), (2, rest)] {
                let refund = try await refunds.refund(request(number, amount))
                made.append((amount, refund))
                out.good("RefundPayment \(amount) through \(via) (PaymentRefundService): \(refund.status)")
            }
            var overRefundRefused = false
            do {
                let extra = try await refunds.refund(request(3, Money(minorUnits: 1, currency: total.currency)))
                mismatches.append("a refund beyond the payment's total was \(extra.status), not refused")
            } catch {
                overRefundRefused = true
                out.bad("RefundPayment 0.01 \(total.currency.code) more refused: \(ServerHalf.describe(error))")
            }

            // Reconcile: the payment and each refund as Square holds them; a refund settles when Square says so.
            var settled: [RefundStatus] = []
            for (_, refund) in made {
                var status = refund.status
                for _ in 0..<3 where status == .pending {
                    status = try await refunds.lookUpRefund(processor: "square", processorPaymentID: id,
                                                            idempotencyKey: "", processorRefundID: refund.processorRefundID)?.status ?? .failed
                }
                settled.append(status)
            }
            let final = try await client.getPayment(id: id)
            let refunded = final?.refundedMoney?.amount ?? 0
            if final?.status != "COMPLETED" { mismatches.append("the payment is \(final?.status ?? "missing"), not COMPLETED") }
            if refunded != total.minorUnits { mismatches.append("Square refunded \(refunded), not \(total.minorUnits)") }
            if final?.refundIDs?.count != made.count { mismatches.append("the payment lists \(final?.refundIDs?.count ?? 0) refund(s), not \(made.count)") }
            if settled != [.succeeded, .succeeded] { mismatches.append("the refunds settled as \(settled.map(\.rawValue))") }
            let (_, report) = try await ServerHalf.raw("GET", baseURL.appendingPathComponent("_tender/report"))
            let violations = report["violations"] as? [String] ?? ["the peer gave no report"]
            if !violations.isEmpty { mismatches.append("\(violations.count) request(s) or answer(s) not valid against Square's document") }
            out.good("retrieved: \(final?.status ?? "missing"), refunded \(Money(minorUnits: refunded, currency: total.currency)) in \(made.count) refunds, settled: \(settled.map(\.rawValue).joined(separator: ", ")); every request and answer valid against Square's OpenAPI document: \(violations.isEmpty ? "yes" : "no")")
            result.square = ["amount": total.minorUnits, "status": final?.status ?? "missing", "refunded": refunded,
                             "refunds": settled.map(\.rawValue), "over_refund_refused": overRefundRefused,
                             "spec_violations": violations.count]
        } catch {
            mismatches.append("a call failed: \(ServerHalf.describe(error))")
            out.bad("a call to the Square peer failed: \(ServerHalf.describe(error))")
        }
    }
}
