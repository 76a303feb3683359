package import Foundation
package import Tender
package import TenderSquare

extension SquareSimulator {
    /// One payment on Square's servers: the processor-side truth tests compare with.
    package struct ServerPayment: Hashable, Sendable, Codable {
        /// The payment at one moment, for the lagging search (``Configuration/searchLag``).
        package struct Revision: Hashable, Sendable, Codable {
            /// When Square made the change.
            package var at: Date
            /// The payment's status then.
            package var status: Square.PaymentStatus
            /// The card part's status then.
            package var cardStatus: Square.CardPaymentStatus
            /// What had been refunded then.
            package var refunded: UInt
        }

        /// The Square payment id.
        package var id: String
        /// The seller.
        package var merchantID: String
        /// The location.
        package var locationID: String
        /// The app's payment attempt id (`"ref"`, `"ref#2"`…).
        package var paymentAttemptID: String
        /// The idempotency key the SDK used.
        package var idempotencyKey: String
        /// The app's reference id.
        package var referenceID: String?
        /// The note.
        package var note: String?
        /// The amount, excluding the tip, including a surcharge when one was applied.
        package var amountMoney: Square.Money
        /// The tip.
        package var tipMoney: Square.Money?
        /// The status.
        package var status: Square.PaymentStatus
        /// The card part.
        package var cardDetails: Square.CardPaymentDetails
        /// When Square created it.
        package var createdAt: Date
        /// When Square applies ``delayAction`` if it is still approved (`delayed_until`).
        package var delayedUntil: Date?
        /// What Square does when the delay ends.
        package var delayAction: Square.DelayAction
        /// The device-local id, when it was taken offline.
        package var localID: String?
        /// When the device took it, when it was taken offline (`offline_payment_details.client_created_at`).
        package var clientCreatedAt: Date?
        /// The issuer's decline reason, for failed payments.
        package var declineReason: String?
        /// What has been refunded (completed refunds).
        package var refundedAmount: UInt = 0
        /// Every state it has had, oldest first (the search shows the one in effect ``Configuration/searchLag`` ago).
        package var revisions: [Revision] = []

        /// Money was taken, or is held for capture.
        package var isCharge: Bool { status == .approved || status == .completed }

        /// The amount plus the tip.
        package var totalMoney: Square.Money { Square.Money(totaling: amountMoney, tipMoney) }

        /// The payment as the SDK shows it.
        package var onlinePayment: Square.OnlinePayment {
            Square.OnlinePayment(id: id, status: status, amountMoney: amountMoney, tipMoney: tipMoney,
                                 createdAt: createdAt, updatedAt: revisions.last?.at ?? createdAt,
                                 locationID: locationID, referenceID: referenceID, cardDetails: cardDetails, note: note)
        }

        /// The payment as the Payments API showed it at `date` (`nil` if it did not exist yet).
        package func apiPayment(asOf date: Date) -> Square.APIPayment? {
            guard let revision = revisions.last(where: { $0.at <= date }) else { return nil }
            var card = cardDetails
            card.status = revision.cardStatus
            return Square.APIPayment(
                id: id, status: revision.status, amountMoney: amountMoney, tipMoney: tipMoney,
                refundedMoney: revision.refunded > 0 ? Square.Money(amount: revision.refunded, currency: amountMoney.currency) : nil,
                createdAt: createdAt, updatedAt: revision.at, locationID: locationID, referenceID: referenceID,
                note: note, cardDetails: card, delayAction: delayedUntil == nil ? nil : delayAction,
                delayedUntil: delayedUntil, isOfflinePayment: localID != nil, offlineClientCreatedAt: clientCreatedAt)
        }

        /// The current state as a revision.
        func revision(at date: Date) -> Revision {
            Revision(at: date, status: status, cardStatus: cardDetails.status, refunded: refundedAmount)
        }
    }

    /// One refund on Square's servers (`PaymentRefund`).
    package struct ServerRefund: Hashable, Sendable, Codable {
        /// The refund id.
        package var id: String
        /// The `RefundPayment` idempotency key.
        package var idempotencyKey: String
        /// The payment refunded.
        package var paymentID: String
        /// How much.
        package var amountMoney: Square.Money
        /// The reason given.
        package var reason: String?
        /// `PENDING`, `COMPLETED`, `REJECTED` or `FAILED`.
        package var status: Square.PaymentRefundStatus
        /// When it was created.
        package var createdAt: Date
        /// When Square settles a pending refund.
        package var settlesAt: Date
        /// What it settles as.
        package var settlesAs: Square.PaymentRefundStatus
        /// When a completed refund turns `FAILED` (``SquareSimulator/injectCompletedRefundFailure(after:)``;
        /// Unverified: Square documents no change after `COMPLETED`).
        package var failsAt: Date?
    }

    /// Square's servers as the app's backend reaches them (over the same simulated network as the device):
    /// `CompletePayment` / `CancelPayment` for capture and void, `ListPayments` (lagging) and `GetPayment` for
    /// recovery, `CancelPaymentByIdempotencyKey` for abandoned attempts, `RefundPayment` / `GetPaymentRefund`.
    package struct Server: PaymentCaptureService, SquareServerLookup, PaymentRefundService {
        let simulator: SquareSimulator

        /// `CompletePayment`: an approved payment becomes completed. Square's call takes no amount: it captures
        /// the whole approved amount, whatever `amount` says (the adapter refuses any other amount first).
        /// `CompletePayment` takes no idempotency key: the request's is not sent.
        package func capture(_ request: CaptureRequest) async throws {
            try await simulator.serverComplete(request.processorPaymentID)
        }

        /// `CancelPayment`: an approved payment becomes canceled (again: no change). It takes no idempotency key.
        package func void(_ request: VoidRequest) async throws {
            try await simulator.serverCancel(request.processorPaymentID)
        }

        /// `ListPayments` at the location, matched by `reference_id`, as it stood ``Configuration/searchLag`` ago.
        package func payments(referenceID: String, locationID: String) async throws -> [Square.APIPayment] {
            try await simulator.serverSearch(referenceID: referenceID, locationID: locationID)
        }

        /// `GetPayment`: the payment as it is now.
        package func payment(id: String) async throws -> Square.APIPayment? { try await simulator.serverPayment(id: id) }

        /// `CancelPaymentByIdempotencyKey`: voids the approved payment with that key if one exists; succeeds when
        /// there is none. A completed payment cannot be voided: Square's answer then is unverified; the simulator
        /// refuses with an error.
        package func cancelPayment(byIdempotencyKey key: String) async throws {
            try await simulator.serverCancel(idempotencyKey: key)
        }

        /// `RefundPayment`, idempotent under `request.idempotencyKey`.
        package func refund(_ request: RefundRequest) async throws -> RefundResult {
            try await simulator.serverRefund(request)
        }

        /// `GetPaymentRefund` by id; without one, `nil` only when the payment has no refund at all (Square keeps no
        /// idempotency key on a refund), otherwise an unknown outcome: retry the refund with the same key.
        package func lookUpRefund(processor: String, processorPaymentID: String, idempotencyKey: String,
                                 processorRefundID: String?) async throws -> RefundResult? {
            try await simulator.serverRefund(paymentID: processorPaymentID, key: idempotencyKey, id: processorRefundID)
        }
    }

    // MARK: Payments API

    func serverComplete(_ id: String) throws {
        let index = try serverIndex(id)
        switch store.serverPayments[index].status {
        case .approved: setStatus(index, .completed, card: .captured)
        case .completed: return
        case let status:
            throw serverError(.captureFailed, "BAD_REQUEST", "Payment \(id) is \(status.caseName.uppercased()), not APPROVED.")
        }
    }

    func serverCancel(_ id: String) throws {
        let index = try serverIndex(id)
        switch store.serverPayments[index].status {
        case .approved: setStatus(index, .canceled, card: .voided)
        case .canceled: return
        case let status:
            throw serverError(.captureFailed, "BAD_REQUEST", "Payment \(id) is \(status.caseName.uppercased()); it cannot be canceled.")
        }
    }

    func serverCancel(idempotencyKey: String) throws {
        guard serverRequestGetsThrough() else { throw unreachable() }
        applyTimedRules()
        guard let payment = store.serverPayments.last(where: { $0.idempotencyKey == idempotencyKey }) else { return }
        if payment.status == .approved || payment.status == .completed { try serverCancel(payment.id) }
    }

    func serverSearch(referenceID: String, locationID: String) throws -> [Square.APIPayment] {
        guard serverRequestGetsThrough() else { throw unreachable() }
        applyTimedRules()
        let visible = clock.now().addingTimeInterval(-store.configuration.searchLag)
        return store.serverPayments.filter { $0.referenceID == referenceID && $0.locationID == locationID }
            .compactMap { $0.apiPayment(asOf: visible) }
    }

    func serverPayment(id: String) throws -> Square.APIPayment? {
        guard serverRequestGetsThrough() else { throw unreachable() }
        applyTimedRules()
        return store.serverPayments.first { $0.id == id }?.apiPayment(asOf: clock.now())
    }

    /// Square applies `delay_action` to approved payments whose delay has passed, at `delayed_until`.
    func applyDelayedActions() {
        for index in store.serverPayments.indices {
            let payment = store.serverPayments[index]
            guard payment.status == .approved, let until = payment.delayedUntil, until <= clock.now() else { continue }
            let complete = payment.delayAction == .complete
            setStatus(index, complete ? .completed : .canceled, card: complete ? .captured : .voided, at: until)
        }
    }

    func setStatus(_ index: Int, _ status: Square.PaymentStatus, card: Square.CardPaymentStatus, at date: Date? = nil) {
        store.serverPayments[index].status = status
        store.serverPayments[index].cardDetails.status = card
        store.serverPayments[index].revisions.append(store.serverPayments[index].revision(at: date ?? clock.now()))
    }

    private func serverIndex(_ id: String) throws -> Int {
        guard serverRequestGetsThrough() else { throw unreachable() }
        applyTimedRules()
        guard let index = store.serverPayments.firstIndex(where: { $0.id == id }) else {
            throw serverError(.unknownReference, "NOT_FOUND", "Square has no payment \(id).")
        }
        return index
    }

    func unreachable(phase: PaymentError.Phase = .capture) -> PaymentError {
        PaymentError(.networkUnavailable, recovery: .goOnline, phase: phase, message: "Square's servers cannot be reached.",
                     vendor: .init(processor: SquareErrorTable.processor, name: "networkUnavailable"))
    }

    func serverError(_ code: PaymentError.Code, _ name: String, _ message: String,
                     phase: PaymentError.Phase = .capture) -> PaymentError {
        PaymentError(code, recovery: .none, phase: phase, message: message,
                     vendor: .init(processor: SquareErrorTable.processor, name: name, message: message))
    }
}

// MARK: - Refunds API

extension SquareSimulator {
    /// `RefundPayment`: only a completed payment can be refunded (an approved one is canceled instead), in its
    /// currency, never beyond what is left (its total less completed and pending refunds: Square's rule counts
    /// completed refunds; counting pending ones too is the simulator's stricter reading, unverified). The same key
    /// returns the same refund; reused for another refund it is refused. A refund starts `PENDING` and settles on the
    /// clock (``Configuration/refundSettlement``), `COMPLETED` unless a ``injectRefundOutcome(_:)`` says otherwise.
    func serverRefund(_ request: RefundRequest) throws -> RefundResult {
        guard serverRequestGetsThrough() else { throw unreachable(phase: .refund) }
        applyTimedRules()
        if let existing = store.serverRefunds.first(where: { $0.idempotencyKey == request.idempotencyKey }) {
            guard existing.paymentID == request.processorPaymentID,
                  SquareMapping.money(existing.amountMoney) == request.amount else {
                // What TenderServer's table makes of Square's answer (`IDEMPOTENCY_KEY_REUSED`, category
                // `INVALID_REQUEST_ERROR`): never the earlier refund.
                throw PaymentError(.duplicateReference, recovery: .fixRequest, phase: .refund,
                                   message: "Refund key \(request.idempotencyKey) was used for another refund (\(existing.id): \(existing.amountMoney.amount) of \(existing.paymentID)).",
                                   vendor: .init(processor: SquareErrorTable.processor, name: "IDEMPOTENCY_KEY_REUSED",
                                                 category: "INVALID_REQUEST_ERROR"))
            }
            return refundResult(existing)
        }
        guard let payment = store.serverPayments.first(where: { $0.id == request.processorPaymentID }) else {
            throw serverError(.unknownReference, "NOT_FOUND", "Square has no payment \(request.processorPaymentID).",
                              phase: .refund)
        }
        guard payment.status == .completed else {
            throw serverError(.invalidState, "BAD_REQUEST",
                              "Payment \(payment.id) is \(payment.status.caseName.uppercased()); only a completed payment can be refunded.",
                              phase: .refund)
        }
        let held = store.serverRefunds.filter { $0.paymentID == payment.id && ($0.status == .pending || $0.status == .completed) }
            .reduce(UInt(0)) { $0 + $1.amountMoney.amount }
        let left = payment.totalMoney.amount - min(payment.totalMoney.amount, held)
        guard let amount = try? SquareMapping.squareMoney(request.amount), amount.currency == payment.amountMoney.currency,
              amount.amount > 0, amount.amount <= left else {
            throw PaymentError(.invalidAmount, recovery: .fixRequest, phase: .refund,
                               message: "Square can refund at most \(left) minor units of payment \(payment.id) in \(payment.amountMoney.currency.currencyCode); asked \(request.amount).",
                               vendor: .init(processor: SquareErrorTable.processor, name: "REFUND_AMOUNT_INVALID"))
        }
        let now = clock.now()
        let refund = ServerRefund(
            id: nextIdentifier(prefix: "sqref_"), idempotencyKey: request.idempotencyKey, paymentID: payment.id,
            amountMoney: amount, reason: request.reason?.rawValue, status: .pending, createdAt: now,
            settlesAt: now.addingTimeInterval(store.configuration.refundSettlement),
            settlesAs: refundFaults.isEmpty ? .completed : refundFaults.removeFirst(),
            failsAt: completedRefundFailures.isEmpty ? nil
                : now.addingTimeInterval(store.configuration.refundSettlement + completedRefundFailures.removeFirst()))
        store.serverRefunds.append(refund)
        settleRefunds()
        return refundResult(store.serverRefunds.last ?? refund)
    }

    /// `GetPaymentRefund` by id. Square records no idempotency key on a refund, so without an id only "none at all"
    /// can be told (`GetPayment`: the payment has no refunds); otherwise the answer is unknown, and retrying
    /// `RefundPayment` with the same key is what returns the refund (as `TenderServer` does against Square).
    func serverRefund(paymentID: String, key: String, id: String?) throws -> RefundResult? {
        guard serverRequestGetsThrough() else { throw unreachable(phase: .refund) }
        applyTimedRules()
        if let id { return store.serverRefunds.first { $0.id == id }.map(refundResult) }
        guard store.serverPayments.contains(where: { $0.id == paymentID }) else {
            throw serverError(.unknownReference, "NOT_FOUND", "Square has no payment \(paymentID).", phase: .refund)
        }
        guard store.serverRefunds.contains(where: { $0.paymentID == paymentID }) else { return nil }
        throw PaymentError(.outcomeUnknown, recovery: .retrySamePayment, phase: .refund,
                           message: "Payment \(paymentID) has refunds, and Square does not record which idempotency key made each; retry the refund with the same key (\(key)) to get its result.",
                           vendor: .init(processor: SquareErrorTable.processor, name: "refund_not_attributable"))
    }

    /// Square settles pending refunds whose time has come; a completed one adds to the payment's refunded amount. A
    /// completed refund whose injected failure fell due turns `FAILED` and gives its amount back (unverified).
    func settleRefunds() {
        let now = clock.now()
        for index in store.serverRefunds.indices where store.serverRefunds[index].status == .completed {
            let refund = store.serverRefunds[index]
            guard let failsAt = refund.failsAt, failsAt <= now else { continue }
            store.serverRefunds[index].status = .failed
            guard let paymentIndex = store.serverPayments.firstIndex(where: { $0.id == refund.paymentID }) else { continue }
            store.serverPayments[paymentIndex].refundedAmount -= min(refund.amountMoney.amount,
                                                                     store.serverPayments[paymentIndex].refundedAmount)
            store.serverPayments[paymentIndex].revisions.append(store.serverPayments[paymentIndex].revision(at: failsAt))
        }
        for index in store.serverRefunds.indices where store.serverRefunds[index].status == .pending {
            let refund = store.serverRefunds[index]
            guard refund.settlesAt <= now else { continue }
            store.serverRefunds[index].status = refund.settlesAs
            guard refund.settlesAs == .completed,
                  let paymentIndex = store.serverPayments.firstIndex(where: { $0.id == refund.paymentID }) else { continue }
            store.serverPayments[paymentIndex].refundedAmount += refund.amountMoney.amount
            store.serverPayments[paymentIndex].revisions.append(store.serverPayments[paymentIndex].revision(at: refund.settlesAt))
        }
    }

    private func refundResult(_ refund: ServerRefund) -> RefundResult {
        let status = SquareMapping.refundStatus(refund.status)
        let error: PaymentError? = status == .failed ? PaymentError(
            .refundFailed, recovery: .none, phase: .refund,
            message: "Square \(refund.status == .rejected ? "rejected" : "failed") refund \(refund.id); nothing was refunded.",
            vendor: .init(processor: SquareErrorTable.processor, name: "PaymentRefund.\(refund.status.caseName)")) : nil
        return RefundResult(processorRefundID: refund.id, status: status, error: error)
    }
}
