import Foundation

extension PaymentTerminal {
    /// Refunds a captured payment, in full or in part. Several partial refunds may follow one another, never
    /// beyond the captured amount; a payment taken offline can be refunded only once it is forwarded and captured.
    ///
    /// The refund is recorded in the ledger (pending) before the processor is asked, with an idempotency key
    /// derived from the scope, the reference, the vendor payment attempt and the refund's number
    /// (``IdempotencyKey/refund(scope:reference:paymentAttempt:number:)``), so a crash or a lost answer never refunds
    /// twice and two locations refunding the same order number never share a key: ``recover()`` and the queue
    /// poller of ``run()`` settle pending refunds with the processor, and follow succeeded ones until the processor
    /// can no longer change them (``ProcessorCapabilities/refundChangeWindow``): a refund the processor reports
    /// failed after it succeeded is recorded ``RefundStatus/failed`` (a ``TenderEvent/refundChanged(_:)`` event), and
    /// its amount can be refunded again. Stripe Interac payments are refunded through the reader (the card is
    /// presented again); everything else, Square's Interac payments included, through the app's server.
    /// - Parameters:
    ///   - reference: the payment's reference.
    ///   - amount: how much; default everything still refundable.
    ///   - reason: why, passed to the processor where it takes one.
    /// While a refund of the payment is pending (its answer was lost, or could not be recorded), asking again for the
    /// same amount (or, without an amount, when nothing else is left to refund) continues that refund — looked up, or
    /// sent again under its idempotency key — and never makes a second one: to refund the same amount twice, wait
    /// until the first has settled.
    /// - Returns: the refund as recorded: ``RefundStatus/succeeded``, ``RefundStatus/failed`` (the processor refused;
    ///   nothing refunded — including ``PaymentError/Code/duplicateReference`` when the processor already holds a
    ///   different refund under this key, e.g. after the ledger was restored from a backup: refund again, under the
    ///   next number), or ``RefundStatus/pending`` (the processor has not settled it yet, or could not be reached: it
    ///   is looked up later, never sent as a second refund).
    /// - Throws: ``PaymentError`` when refused before the processor was asked: no such payment, not captured, an
    ///   amount beyond what is left, a refund of this payment already in progress, or a processor without refunds.
    ///   When the ledger cannot record the processor's answer (the refund may have been made):
    ///   ``PaymentError/Code/outcomeUnknown`` with ``PaymentError/Recovery/retrySamePayment`` — ask for the same
    ///   refund again, which continues it.
    @discardableResult
    public func refund(reference: String, amount: Money? = nil, reason: RefundReason? = nil) async throws
        -> RefundRecord {
        guard !refundsInFlight.contains(reference) else {
            throw PaymentError(.paymentInProgress, recovery: .waitAndRetry, phase: .refund,
                               message: "A refund of payment \(reference) is already in progress.")
        }
        refundsInFlight.insert(reference)
        defer { refundsInFlight.remove(reference) }
        guard let session = try await ledger.session(reference: reference, scope: scope, includingHistory: false) else {
            throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .refund,
                               message: "No payment \(reference) to refund.")
        }
        let capabilities = await processor.capabilities()
        guard capabilities.supportsRefunds else {
            throw PaymentError(.featureUnavailable, recovery: .fixIntegration, phase: .refund,
                               message: "\(processor.name) is set up without a refund service; give the adapter your server's refund service.")
        }
        guard let paymentID = session.processorPaymentID else {
            throw PaymentError(.invalidState, recovery: session.state == .storedOffline ? .goOnline : .none,
                               phase: .refund,
                               message: "Payment \(reference) has no \(processor.name) id yet: only a captured payment can be refunded.")
        }
        // Asking again for a refund whose answer was lost or could not be recorded continues it, never a second one.
        if let pending = Self.continuable(session, amount: amount) {
            do {
                return try await settlePending(pending, processorPaymentID: paymentID)
            } catch {
                throw refundNotRecorded(pending, cause: error)
            }
        }
        let number = session.refunds.count + 1
        let key = IdempotencyKey.refund(scope: scope, reference: reference, paymentAttempt: session.paymentAttempt,
                                        number: number)
        let record = RefundRecord(id: key.rawValue, reference: reference, number: number,
                                  amount: amount ?? session.refundableAmount, reason: reason,
                                  throughReader: Self.refundsThroughReader(session, capabilities: capabilities),
                                  createdAt: clock.now())
        // Write-ahead, with the refundable-amount check inside the ledger's transaction.
        try await ledger.insertRefund(record, scope: scope)
        hub.send(.refundChanged(record))
        do {
            return try await send(record, processorPaymentID: paymentID)
        } catch {
            throw refundNotRecorded(record, cause: error)
        }
    }

    /// Whether a refund of `session` goes through the reader: an Interac payment, with a processor that declares
    /// in-person Interac refunds (``ProcessorCapabilities/refundsInteracOnReader``: Stripe). Every other refund, and
    /// every refund of a processor without them (Square), goes through the app's server.
    static func refundsThroughReader(_ session: PaymentSession, capabilities: ProcessorCapabilities) -> Bool {
        session.card?.brand == .interac && capabilities.refundsInteracOnReader
    }

    /// The pending refund a new request for `amount` (everything still refundable when `nil`) continues: one of the
    /// same amount (or, for `nil`, one that leaves nothing else to refund).
    static func continuable(_ session: PaymentSession, amount: Money?) -> RefundRecord? {
        let pending = session.refunds.filter { $0.status == .pending }
        if let amount { return pending.first { $0.amount == amount } }
        return session.refundableAmount.minorUnits == 0 ? pending.last : nil
    }

    /// The error of a refund the processor may have made but whose answer the ledger could not record: it stays
    /// pending, and asking for the same refund again continues it under the same idempotency key.
    func refundNotRecorded(_ record: RefundRecord, cause: any Error) -> PaymentError {
        let cause = (cause as? LedgerWriteFailure)?.underlying ?? cause
        let detail = (cause as? PaymentError)?.message ?? "\(cause)"
        return PaymentError(
            .outcomeUnknown, recovery: .retrySamePayment, phase: .refund,
            message: "The customer may have been refunded: \(processor.name) was asked to refund \(record.amount) of payment \(record.reference), but Tender could not record its answer (\(detail)). It stays pending in the ledger. Do not refund it another way: asking for the same refund again (same payment, same amount) is safe — it continues refund \(record.id) under its idempotency key, never a second refund; the queue poller and recover() settle it too.")
    }

    /// Asks the processor for a pending refund and records its answer.
    /// - Throws: only when the ledger cannot record the answer (the processor may have refunded).
    private func send(_ record: RefundRecord, processorPaymentID: String) async throws -> RefundRecord {
        let request = RefundRequest(processor: processor.name, reference: record.reference,
                                    processorPaymentID: processorPaymentID, amount: record.amount,
                                    reason: record.reason, idempotencyKey: record.id)
        do {
            let result = try await processor.refundPayment(request, throughReader: record.throughReader)
            return try await settle(record, with: result)
        } catch let error as LedgerWriteFailure {
            throw error.underlying
        } catch {
            var paymentError = (error as? PaymentError) ?? PaymentError(
                .refundFailed, recovery: .waitAndRetry, phase: .refund,
                message: "The refund's outcome is not known: \(error).")
            if paymentError.code == .duplicateReference {
                // The vendor holds another refund under this key: never this refund's result.
                paymentError.recovery = .fixRequest
                paymentError.message = "\(processor.name) already holds a different refund under key \(record.id) "
                    + "(another amount or payment; for example the ledger was restored from a backup older than that "
                    + "refund), so this refund of \(record.amount) was not made. Refund again: the next refund has a "
                    + "new key. (\(paymentError.message))"
            }
            // A refusal is definite; a timeout or an unreachable server is not: the refund stays pending and is
            // looked up (or re-sent under the same idempotency key) later.
            let definite = !(paymentError.recovery.isRetryable || paymentError.recovery == .goOnline
                || paymentError.code == .outcomeUnknown || paymentError.code == .timedOut
                || paymentError.code == .networkUnavailable)
            let status: RefundStatus = definite ? .failed : .pending
            return try await settle(record, with: RefundResult(processorRefundID: nil, status: status,
                                                                error: paymentError.inPhase(.refund)))
        }
    }

    /// Records a processor's answer for a refund (a no-op when nothing changed, or when the answer is a move the
    /// refund cannot make: a succeeded refund reported pending stays succeeded).
    /// - Throws: ``LedgerWriteFailure`` when the ledger cannot record it.
    private func settle(_ record: RefundRecord, with result: RefundResult) async throws -> RefundRecord {
        guard result.status == record.status || record.status.canChange(to: result.status) else { return record }
        guard result.status != record.status || result.processorRefundID != record.processorRefundID
            || (result.error != nil && result.error != record.error) else { return record }
        var error = result.error
        if record.status == .succeeded, result.status == .failed {
            let why = error.map { " (\($0.vendor?.declineCode ?? $0.vendor?.name ?? $0.code.rawValue))" } ?? ""
            error = PaymentError(.refundFailed, recovery: .none, phase: .refund,
                                 message: "\(processor.name) reported refund \(result.processorRefundID ?? record.id) of \(record.amount) failed after it had succeeded\(why): the customer was not refunded, and the amount can be refunded again.",
                                 vendor: error?.vendor)
        }
        let change = RefundChange(refundID: record.id, expectedStatus: record.status, newStatus: result.status,
                                  at: clock.now(), processorRefundID: result.processorRefundID, error: error)
        let updated: RefundRecord
        do {
            updated = try await ledger.recordRefund(change, scope: scope)
        } catch {
            throw LedgerWriteFailure(underlying: error)
        }
        hub.send(.refundChanged(updated))
        return updated
    }

    /// Settles one pending refund with the processor: recorded as the processor has it; sent again under the same
    /// idempotency key when the processor certainly never received it (or cannot tell) and it goes through the
    /// server; failed when it needed the card on the reader and never reached the processor. A reader refund the
    /// processor cannot tell about stays pending.
    /// - Throws: only when the ledger cannot record the answer.
    private func settlePending(_ record: RefundRecord, processorPaymentID: String) async throws -> RefundRecord {
        let found: RefundResult??
        do {
            found = .some(try await processor.lookUpRefund(record, processorPaymentID: processorPaymentID))
        } catch {
            found = nil  // the processor cannot tell
        }
        switch found {
        case .some(.some(let result)):
            return try await settle(record, with: result)
        case .some(.none) where record.throughReader:
            return try await settle(record, with: RefundResult(
                processorRefundID: nil, status: .failed,
                error: PaymentError(.refundFailed, recovery: .none, phase: .refund,
                                    message: "The in-person refund never reached \(processor.name); nothing was refunded. Refund again with the card present if it is still owed.")))
        default:
            // Never received, or the processor cannot tell (Square keeps no idempotency key on a refund): the same
            // idempotency key settles it at the server, never twice. A reader refund cannot be re-sent unattended.
            guard !record.throughReader else { return record }
            let inserted = refundsInFlight.insert(record.reference).inserted
            defer { if inserted { refundsInFlight.remove(record.reference) } }
            return try await send(record, processorPaymentID: processorPaymentID)
        }
    }

    /// Follows refunds until the processor can no longer change them: settles pending ones
    /// (``settlePendingRefunds()``), then looks up again the succeeded ones still inside the processor's
    /// ``ProcessorCapabilities/refundChangeWindow`` (``recheckSucceededRefunds(all:)``).
    /// - Parameter all: look every succeeded refund inside its window up, however recently it was (recovery);
    ///   otherwise only those due by ``QueuePolling/refundCheckInterval`` (the poller).
    /// - Returns: whether any refund changed.
    func followRefunds(all: Bool = false) async -> Bool {
        let settled = await settlePendingRefunds()
        let rechecked = await recheckSucceededRefunds(all: all)
        return settled || rechecked
    }

    /// The succeeded refunds the processor may still change and that are due for a look: recorded succeeded less
    /// than the processor's ``ProcessorCapabilities/refundChangeWindow`` ago, and not looked up in the last
    /// ``QueuePolling/refundCheckInterval`` seconds (every one of them after a launch), or all of them with `all`.
    func succeededRefundsDue(now: Date, all: Bool = false) async -> [RefundRecord] {
        let window = await processor.capabilities().refundChangeWindow
        guard window > 0, let recent = try? await ledger.refunds(in: [.succeeded],
                                                                  updatedSince: now.addingTimeInterval(-window),
                                                                  scope: scope) else { return [] }
        let interval = all ? 0 : polling.refundCheckInterval
        return recent.filter { record in
            guard !refundsInFlight.contains(record.reference) else { return false }
            let last = lastRefundCheck[refundCheckKey(record)] ?? .distantPast
            return now.timeIntervalSince(last) >= interval
        }
    }

    /// Looks up again the succeeded refunds that are due (``succeededRefundsDue(now:all:)``) and records the one later
    /// change a processor documents: ``RefundStatus/succeeded`` → ``RefundStatus/failed`` (Stripe: a refund to an
    /// expired or canceled card fails after succeeding). Any other answer changes nothing; a lookup that fails is
    /// tried again at the next interval.
    /// - Returns: whether any refund changed.
    func recheckSucceededRefunds(all: Bool = false) async -> Bool {
        let now = clock.now()
        let due = await succeededRefundsDue(now: now, all: all)
        var changed = false
        for record in due {
            lastRefundCheck[refundCheckKey(record)] = now
            guard let session = try? await ledger.session(reference: record.reference, scope: scope,
                                                          includingHistory: false),
                  let paymentID = session.processorPaymentID,
                  let result = try? await processor.lookUpRefund(record, processorPaymentID: paymentID),
                  result.status == .failed else { continue }
            // Read again: a refund or a poll may have recorded something meanwhile.
            guard let current = try? await ledger.refunds(reference: record.reference, scope: scope)
                .first(where: { $0.id == record.id }), current.status == .succeeded else { continue }
            let settled: RefundRecord
            do {
                settled = try await settle(current, with: result)
            } catch {
                hub.send(.processor(.forwardingError(refundNotRecorded(current, cause: error))))
                continue
            }
            if settled != current {
                changed = true
                lastRefundCheck[refundCheckKey(record)] = nil
            }
        }
        return changed
    }

    /// The key of ``lastRefundCheck``: refund ids recorded before keys were scoped are unique only in their scope.
    private func refundCheckKey(_ record: RefundRecord) -> String { "\(scope)|\(record.id)" }

    /// Settles every pending refund with the processor: a refund the processor has is recorded as it has it; one
    /// it certainly never received (a crash before the request left) is sent again under the same idempotency key
    /// when it goes through the server, or failed when it needed the card on the reader. When the processor cannot
    /// tell (Square keeps no idempotency key on a refund, so a refund whose id was never recorded cannot be looked
    /// up), a server refund is sent again under the same key: the processor answers with the refund it already
    /// made, never a second one.
    /// - Returns: whether any refund changed.
    func settlePendingRefunds() async -> Bool {
        guard let pending = try? await ledger.refunds(in: [.pending], scope: scope), !pending.isEmpty else {
            return false
        }
        var changed = false
        for record in pending where !refundsInFlight.contains(record.reference) {
            guard let session = try? await ledger.session(reference: record.reference, scope: scope,
                                                          includingHistory: false),
                  let paymentID = session.processorPaymentID else { continue }
            do {
                if try await settlePending(record, processorPaymentID: paymentID) != record { changed = true }
            } catch {
                hub.send(.processor(.forwardingError(refundNotRecorded(record, cause: error))))
            }
        }
        return changed
    }
}

/// A ledger write that failed while recording a processor's answer (kept apart from the processor's own errors).
struct LedgerWriteFailure: Error {
    /// The ledger's error.
    let underlying: any Error
}
