import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator

/// What a processor's servers hold for one reference, over every vendor payment of it (Stripe: every PaymentIntent
/// with the reference in its metadata; Square: every payment with it as `referenceID`, attempts `ref`, `ref#2`…).
struct ProcessorFact {
    /// One refund as the processor holds it.
    struct Refund {
        var amount: Int64
        var status: RefundStatus
    }

    /// Accepted authorizations, counted as the simulators' `chargeCount(reference:)` / `chargeCount(referenceID:)`
    /// count them: the figure that must never exceed one.
    var charges = 0
    /// Money taken or held for capture (authorizations not released), minor units.
    var amountHeld: Int64 = 0
    /// Money captured, minor units: the most that may ever be refunded.
    var captured: Int64 = 0
    /// Refunds by idempotency key (Tender's refund id).
    var refunds: [String: Refund] = [:]
    /// Vendor payment numbers whose outcome the processor has settled (charged, declined, canceled, failed).
    var settledAttempts: Set<Int> = []
    /// Each vendor payment as the processor holds it, in words (for the details of a failing payment).
    var vendorPayments: [String] = []

    /// Refunded and settled as succeeded, minor units.
    var refunded: Int64 { refunds.values.filter { $0.status == .succeeded }.reduce(0) { $0 + $1.amount } }
}

extension World {
    /// What Stripe's servers hold, by reference.
    func stripeTruth() async -> [String: ProcessorFact] {
        var truth: [String: ProcessorFact] = [:]
        var referenceOfCharge: [String: String] = [:]
        for charge in await stripeSimulator.serverCharges {
            guard let reference = charge.reference else { continue }
            referenceOfCharge[charge.stripeId] = reference
            var fact = truth[reference] ?? ProcessorFact()
            if charge.status == .succeeded {
                fact.charges += 1
                if !charge.released { fact.amountHeld += Int64(charge.amount) }
                if charge.captured, !charge.released { fact.captured += Int64(charge.amountCaptured) }
            }
            truth[reference] = fact
        }
        for intent in await stripeSimulator.serverIntents {
            guard let reference = intent.metadata[StripeMapping.referenceMetadataKey] else { continue }
            let settled: Bool = switch intent.status {
            case .succeeded, .requiresCapture, .canceled, .requiresReauthorization: true
            case .requiresPaymentMethod, .requiresConfirmation, .requiresAction, .processing: !intent.charges.isEmpty
            }
            let attempt = StripeMapping.paymentAttempt(intent)
            if settled { truth[reference, default: ProcessorFact()].settledAttempts.insert(attempt) }
            let charges = intent.charges.map { "\($0.stripeId) \($0.status)" }.joined(separator: ", ")
            truth[reference, default: ProcessorFact()].vendorPayments.append(
                "\(intent.stripeId ?? "-") #\(attempt) \(intent.status) created +\(Int(intent.created.timeIntervalSince(Accounts.epoch)))s charges [\(charges)]")
        }
        for refund in await stripeSimulator.serverRefunds {
            guard let reference = referenceOfCharge[refund.chargeId] else { continue }
            let key = refund.idempotencyKey ?? refund.metadata[StripeMapping.refundMetadataKey] ?? refund.stripeId
            let status: RefundStatus = switch refund.status {
            case .succeeded: .succeeded
            case .failed: .failed
            case .pending, .unknown: .pending
            }
            truth[reference, default: ProcessorFact()].refunds[key] = .init(amount: Int64(refund.amount), status: status)
        }
        return truth
    }

    /// What Square's servers hold, by reference.
    func squareTruth() async -> [String: ProcessorFact] {
        var truth: [String: ProcessorFact] = [:]
        var referenceOfPayment: [String: String] = [:]
        for payment in await squareSimulator.serverPayments {
            let attemptID = payment.paymentAttemptID
            let parts = attemptID.split(separator: "#", omittingEmptySubsequences: false)
            let reference = payment.referenceID ?? String(parts.first ?? Substring(attemptID))
            let attempt = parts.count > 1 ? Int(parts[parts.count - 1]) ?? 1 : 1
            referenceOfPayment[payment.id] = reference
            var fact = truth[reference] ?? ProcessorFact()
            let total = Int64(payment.totalMoney.amount)
            if payment.isCharge {
                fact.charges += 1
                fact.amountHeld += total
            }
            if payment.status == .completed { fact.captured += total }
            if [.approved, .completed, .failed, .canceled].contains(payment.status) { fact.settledAttempts.insert(attempt) }
            fact.vendorPayments.append("\(payment.id) \(attemptID) \(payment.status.caseName) key \(payment.idempotencyKey) "
                + "created +\(Int(payment.createdAt.timeIntervalSince(Accounts.epoch)))s")
            truth[reference] = fact
        }
        for refund in await squareSimulator.serverRefunds {
            guard let reference = referenceOfPayment[refund.paymentID] else { continue }
            truth[reference, default: ProcessorFact()].refunds[refund.idempotencyKey] = .init(
                amount: Int64(refund.amountMoney.amount), status: SquareMapping.refundStatus(refund.status))
        }
        return truth
    }
}
