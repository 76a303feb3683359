import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator

extension ChildLife {
    /// A refund of one of this round's captured sales: partial, full, or more than could ever be left (which must be
    /// refused before the processor hears of it), sometimes a second one right after; with refund faults: Stripe's
    /// in-person refund answer lost (Interac, through the reader), Square refunds that end `REJECTED` or `FAILED`,
    /// and the app's server link losing the request or the answer.
    ///
    /// Prints `refund STATUS` (`refund refused CODE`), and for an amount beyond what could be left
    /// `overrefund refused` or `overrefund ACCEPTED` (a violation the parent counts).
    func refundStep() async {
        var candidates: [(stripe: Bool, reference: String)] = []
        for isStripe in [true, false] {
            let sessions = (try? await world.terminal(stripe: isStripe).sessions()) ?? []
            for session in sessions where session.reference.hasPrefix("r\(round)-")
                && (session.state == .succeeded || (session.state == .forwarded && session.captureMode == .automatic)) {
                candidates.append((isStripe, session.reference))
            }
        }
        guard let (isStripe, reference) = candidates.randomElement(using: &random) else { return }
        await refund(reference, isStripe)
        if random.chance(0.3) { await refund(reference, isStripe) }  // the same payment again
    }

    private func refund(_ reference: String, _ isStripe: Bool) async {
        let terminal = world.terminal(stripe: isStripe)
        guard let session = try? await terminal.session(reference: reference) else { return }
        let total = session.total.minorUnits
        let succeeded = session.refunds.filter { $0.status == .succeeded }.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
        let left = session.refundableAmount.minorUnits
        // More than could ever be left: beyond the total less what is refunded for good (pending refunds only
        // shrink what is left further).
        let over = random.chance(0.15)
        let amount: Money? = if over {
            Money(minorUnits: total - succeeded + Int64(random.int(1...500)), currency: .usd)
        } else if random.chance(0.35) || left <= 1 {
            nil
        } else {
            Money(minorUnits: Int64(random.int(1...Int(left))), currency: .usd)
        }
        if !over { await injectRefundFaults(session, isStripe) }
        let result = await drive(isStripe) {
            try await terminal.refund(reference: reference, amount: amount, reason: .requestedByCustomer)
        }
        switch (over, result) {
        case (true, .success(let record)):
            progress("overrefund ACCEPTED \(Self.name(isStripe)) \(reference) \(record.amount.minorUnits) of \(total) (\(record.status))")
        case (true, .failure):
            progress("overrefund refused")
        case (false, .success(let record)):
            progress("refund \(record.status)")
        case (false, .failure(let error as PaymentError)):
            progress("refund refused \(error.code.rawValue)")
        case (false, .failure(let error)):
            progress("refund threw-non-payment-error \(error)")
        }
    }

    private func injectRefundFaults(_ session: PaymentSession, _ isStripe: Bool) async {
        let name = Self.name(isStripe)
        if isStripe, session.card?.brand == .interac {
            // In person: the cardholder presents the card again (now and then the wrong one: Stripe refuses it).
            let wrongCard = random.chance(0.1)
            await world.stripeSimulator.configure { $0.simulatedCard = wrongCard ? .visa : .interac }
            if wrongCard { progress("fault stripe refund-wrong-card") }
            if random.chance(0.3) {
                await world.stripeSimulator.inject(.refundAnswerLost)
                progress("fault stripe refund-answer-lost-in-person")
            }
            return
        }
        if !isStripe, random.chance(0.2) {
            let outcome: Square.PaymentRefundStatus = random.chance(0.5) ? .rejected : .failed
            await world.squareSimulator.injectRefundOutcome(outcome)
            progress("fault square refund-\(outcome.caseName)")
        }
        if random.chance(0.15) {
            let fault = ServerLinkFault.allCases.randomElement(using: &random)!
            (isStripe ? world.stripeServer.linkFaults : world.squareServer.linkFaults).inject(fault)
            progress("fault \(name) \(fault.rawValue)")
        }
    }
}
