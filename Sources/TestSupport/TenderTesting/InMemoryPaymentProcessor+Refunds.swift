import Foundation
public import Tender

extension InMemoryPaymentProcessor {
    /// A refund the in-memory "server" holds.
    struct HeldRefund {
        /// The payment refunded.
        var processorPaymentID: String
        /// How much.
        var amount: Money
        /// What the server answers for it.
        var result: RefundResult
        /// When a refund that succeeded fails (``failNextRefundAfterSuccess(after:)``).
        var failsAt: Date?
    }

    /// Makes the next refund succeed, then fail `seconds` later on the processor's clock, as Stripe documents for
    /// refunds to expired or canceled cards: its amount goes back to the payment's refundable amount at the
    /// processor.
    public func failNextRefundAfterSuccess(after seconds: Double) { state.withLock { $0.refundFailsAfter = seconds } }

    /// How long after a refund succeeded the processor may still fail it (reported as
    /// ``ProcessorCapabilities/refundChangeWindow``); 0 by default.
    public func setRefundChangeWindow(_ seconds: Double) { state.withLock { $0.refundChangeWindow = seconds } }

    /// Refunds through the in-memory "server": idempotent by key (the same key with the same payment and amount is
    /// the same refund; with another, ``PaymentError/Code/duplicateReference``), never beyond what was captured.
    public func refundPayment(_ request: RefundRequest, throughReader: Bool) async throws -> RefundResult {
        let fault = state.withLock { s -> RefundFault? in defer { s.refundFault = nil }; return s.refundFault }
        switch fault {
        case .unreachable:
            throw PaymentError(.networkUnavailable, recovery: .goOnline, phase: .refund,
                               message: "The refund server cannot be reached.")
        case .refused:
            throw PaymentError(.refundFailed, recovery: .none, phase: .refund, message: "The processor refused the refund.",
                               vendor: .init(processor: name, name: "refundRefused"))
        case .answerLost, nil:
            break
        }
        let result = try refundNow(request)
        if fault == .answerLost {
            throw PaymentError(.timedOut, recovery: .retrySamePayment, phase: .refund,
                               message: "The refund request timed out.")
        }
        return result
    }

    private func refundNow(_ request: RefundRequest) throws -> RefundResult {
        let now = clock.now()
        return try state.withLock { s in
            failDueRefunds(&s, now: now)
            if let existing = s.refunds[request.idempotencyKey] {
                guard existing.processorPaymentID == request.processorPaymentID, existing.amount == request.amount else {
                    throw PaymentError(.duplicateReference, recovery: .fixRequest, phase: .refund,
                                       message: "Idempotency key \(request.idempotencyKey) was used for a refund of \(existing.amount) of \(existing.processorPaymentID), not \(request.amount) of \(request.processorPaymentID).",
                                       vendor: .init(processor: name, name: "idempotencyKeyReused"))
                }
                return existing.result
            }
            guard let payment = s.held.values.first(where: { $0.id == request.processorPaymentID }),
                  payment.state == .succeeded || (payment.state == .forwarded && payment.captureMode == .automatic)
            else {
                throw PaymentError(.invalidState, recovery: .none, phase: .refund,
                                   message: "Payment \(request.processorPaymentID) is not captured.")
            }
            let already = s.refunded[request.processorPaymentID] ?? 0
            let captured = payment.capturedAmount ?? payment.amount
            guard already + request.amount.minorUnits <= captured.minorUnits else {
                throw PaymentError(.invalidAmount, recovery: .fixRequest, phase: .refund,
                                   message: "The refund would exceed what was captured.")
            }
            s.sequence += 1
            s.refunded[request.processorPaymentID] = already + request.amount.minorUnits
            let result = RefundResult(processorRefundID: "mem_re_\(s.sequence)", status: .succeeded)
            let failsAt = s.refundFailsAfter.map { now.addingTimeInterval($0) }
            s.refundFailsAfter = nil
            s.refunds[request.idempotencyKey] = HeldRefund(processorPaymentID: request.processorPaymentID,
                                                           amount: request.amount, result: result, failsAt: failsAt)
            return result
        }
    }

    /// The refund made under this idempotency key (or with this id), or `nil` when the "server" never received it.
    public func lookUpRefund(_ refund: RefundRecord, processorPaymentID: String) async throws -> RefundResult? {
        let now = clock.now()
        return state.withLock { s in
            failDueRefunds(&s, now: now)
            if let held = s.refunds[refund.id] { return held.result }
            return s.refunds.values.first { $0.result.processorRefundID == refund.processorRefundID }?.result
        }
    }

    /// Fails the succeeded refunds whose failure fell due; their amount is refundable again.
    private func failDueRefunds(_ s: inout State, now: Date) {
        for (key, held) in s.refunds where held.result.status == .succeeded {
            guard let failsAt = held.failsAt, failsAt <= now else { continue }
            s.refunds[key]?.result = RefundResult(
                processorRefundID: held.result.processorRefundID, status: .failed,
                error: PaymentError(.refundFailed, recovery: .none, phase: .refund,
                                    message: "The refund failed after it had succeeded.",
                                    vendor: .init(processor: name, name: "refundFailedAfterSuccess")))
            s.refunded[held.processorPaymentID] = (s.refunded[held.processorPaymentID] ?? 0) - held.amount.minorUnits
        }
    }
}
