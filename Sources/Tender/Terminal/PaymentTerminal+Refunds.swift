import Foundation

extension PaymentTerminal {
    /// Makes a new refund of a captured payment, in full or in part. Several partial refunds may follow one another,
    /// or run at the same time, never beyond the captured amount; a payment taken offline can be refunded only once
    /// it is forwarded and captured.
    ///
    /// Every call is a new refund, with its own identity: a refund of 8.00 asked for while another 8.00 refund of the
    /// same payment is pending is a second refund (two items returned), never the first one continued. To continue a
    /// refund whose answer was lost, name it: ``retryRefund(_:)``.
    ///
    /// The refund is recorded in the ledger (pending) before the processor is asked, in one ledger transaction that
    /// also gives it its number and checks the amount against what the ledger holds at that instant — so refunds
    /// asked for at the same time, even by two terminals sharing one ledger file, never together exceed what was
    /// captured — with an idempotency key derived from the scope, the reference, the vendor payment attempt and the
    /// refund's number (``IdempotencyKey/refund(scope:reference:paymentAttempt:number:)``), so a crash or a lost
    /// answer never refunds twice and two locations refunding the same order number never share a key: ``recover()``
    /// and the queue poller of ``run()`` settle pending refunds with the processor, and follow succeeded ones until
    /// the processor can no longer change them (``ProcessorCapabilities/refundChangeWindow``): a refund the processor
    /// reports failed after it succeeded is recorded ``RefundStatus/failed`` (a ``TenderEvent/refundChanged(_:)``
    /// event), and its amount can be refunded again. Stripe Interac payments are refunded through the reader (the
    /// card is presented again); everything else, Square's Interac payments included, through the app's server.
    /// - Parameters:
    ///   - reference: the payment's reference.
    ///   - amount: how much; default everything still refundable when the ledger records it.
    ///   - reason: why, passed to the processor where it takes one.
    /// - Returns: the refund as recorded: ``RefundStatus/succeeded``, ``RefundStatus/failed`` (the processor refused;
    ///   nothing refunded — including ``PaymentError/Code/duplicateReference`` when the processor already holds a
    ///   different refund under this key, e.g. after the ledger was restored from a backup: refund again, under the
    ///   next number), or ``RefundStatus/pending`` (the processor has not settled it yet, or could not be reached: it
    ///   is looked up later, or continued with ``retryRefund(_:)``, never sent as a second refund).
    /// - Throws: ``PaymentError`` when refused before the processor was asked: no such payment, not captured, an
    ///   amount beyond what is left (the message says what the ledger holds: what is left, what is refunded or
    ///   pending), or a processor without refunds. When the ledger cannot record the processor's answer (the refund
    ///   may have been made): ``PaymentError/Code/outcomeUnknown`` with ``PaymentError/Recovery/retrySamePayment``,
    ///   naming the refund: continue it with ``retryRefund(_:)`` (it is in ``PaymentSession/refunds``, pending).
    @discardableResult
    public func refund(reference: String, amount: Money? = nil, reason: RefundReason? = nil) async throws
        -> RefundRecord {
        let scope = self.scope
        refundCalls[reference, default: 0] += 1
        defer { endRefundCall(reference) }
        let (session, paymentID, capabilities) = try await refundable(reference, scope: scope)
        let throughReader = Self.refundsThroughReader(session, capabilities: capabilities)
        let now = clock.now()
        // Write-ahead: numbered, keyed and checked against what the ledger holds, in the ledger's own transaction.
        let record = try await ledger.insertRefund(reference: reference, scope: scope) { current in
            let number = (current.refunds.map(\.number).max() ?? 0) + 1
            let key = IdempotencyKey.refund(scope: scope, reference: reference, paymentAttempt: current.paymentAttempt,
                                            number: number)
            return RefundRecord(id: key.rawValue, reference: reference, number: number,
                                amount: amount ?? current.refundableAmount, reason: reason,
                                throughReader: throughReader, createdAt: now)
        }
        hub.send(.refundChanged(record))
        refundsSending.insert(record.id)
        defer { refundsSending.remove(record.id) }
        do {
            return try await send(record, processorPaymentID: paymentID, scope: scope)
        } catch {
            throw await refundNotRecorded(record, cause: error, scope: scope)
        }
    }

    /// Retries one refund: the pending refund `refund` names (by its ``RefundRecord/id``: one ``refund(reference:amount:reason:)``
    /// returned or recorded, e.g. after an ``PaymentError/Code/outcomeUnknown``, or one of
    /// ``PaymentSession/refunds``) is looked up at the processor and recorded as the processor has it; one the
    /// processor never received is sent again under its own idempotency key — never a second refund. A refund that
    /// has settled meanwhile (by the queue poller, recovery or another terminal) is returned as the ledger holds it.
    /// - Returns: the refund as recorded now.
    /// - Throws: ``PaymentError`` when the ledger has no such refund, when this terminal is sending it right now
    ///   (``PaymentError/Code/paymentInProgress``), or when the ledger cannot record the answer
    ///   (``PaymentError/Code/outcomeUnknown``: retry it again).
    @discardableResult
    public func retryRefund(_ refund: RefundRecord) async throws -> RefundRecord {
        let scope = self.scope
        guard !refundsSending.contains(refund.id) else {
            throw PaymentError(.paymentInProgress, recovery: .waitAndRetry, phase: .refund,
                               message: "Refund \(refund.id) of payment \(refund.reference) is being sent to \(processor.name) now; its answer is recorded when it comes.")
        }
        refundCalls[refund.reference, default: 0] += 1
        defer { endRefundCall(refund.reference) }
        refundsSending.insert(refund.id)
        defer { refundsSending.remove(refund.id) }
        guard let session = try await ledger.session(reference: refund.reference, scope: scope, includingHistory: false),
              let current = session.refunds.first(where: { $0.id == refund.id }) else {
            throw PaymentError(.unknownReference, recovery: .fixRequest, phase: .refund,
                               message: "The ledger holds no refund \(refund.id) of payment \(refund.reference) in \(scope).")
        }
        guard current.status == .pending else { return current }
        guard let paymentID = session.processorPaymentID else {
            throw PaymentError(.invalidState, recovery: .none, phase: .refund,
                               message: "Payment \(refund.reference) has no \(processor.name) id: refund \(refund.id) cannot be retried.")
        }
        do {
            return try await settlePending(current, processorPaymentID: paymentID, scope: scope)
        } catch {
            throw await refundNotRecorded(current, cause: error, scope: scope)
        }
    }

    /// Ends one refund call of `reference` (``refundCalls``).
    private func endRefundCall(_ reference: String) {
        let remaining = (refundCalls[reference] ?? 1) - 1
        refundCalls[reference] = remaining > 0 ? remaining : nil
    }

    /// The payment to refund, its processor id and the processor's capabilities.
    /// - Throws: no such payment, a processor without refunds, or a payment without a processor id.
    private func refundable(_ reference: String, scope: LedgerScope) async throws
        -> (PaymentSession, String, ProcessorCapabilities) {
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
        return (session, paymentID, capabilities)
    }

    /// Whether a refund of `session` goes through the reader: an Interac payment, with a processor that declares
    /// in-person Interac refunds (``ProcessorCapabilities/refundsInteracOnReader``: Stripe). Every other refund, and
    /// every refund of a processor without them (Square), goes through the app's server.
    static func refundsThroughReader(_ session: PaymentSession, capabilities: ProcessorCapabilities) -> Bool {
        session.card?.brand == .interac && capabilities.refundsInteracOnReader
    }

    /// The error of a refund the processor may have made but whose answer the ledger could not record. It says what
    /// the ledger holds of the refund now (read again: another terminal or the poller may have settled it), and
    /// how to continue it: ``retryRefund(_:)`` with this refund, never a new refund of the same amount.
    func refundNotRecorded(_ record: RefundRecord, cause: any Error, scope: LedgerScope) async -> PaymentError {
        let cause = (cause as? LedgerWriteFailure)?.underlying ?? cause
        let detail = (cause as? PaymentError)?.message ?? "\(cause)"
        let held = try? await ledger.refunds(reference: record.reference, scope: scope).first { $0.id == record.id }
        let holds = held.map { "The ledger holds it \($0.status)" + ($0.status == .pending
            ? " (recorded before \(processor.name) was asked)" : "") + "."
        } ?? "The ledger could not be read either; the last it recorded of this refund is pending (written before \(processor.name) was asked)."
        return PaymentError(
            .outcomeUnknown, recovery: .retrySamePayment, phase: .refund,
            message: "The customer may have been refunded: \(processor.name) was asked to refund \(record.amount) of payment \(record.reference) (refund \(record.number), \(record.id)), but Tender could not record its answer (\(detail)). \(holds) Do not refund it another way, and do not ask for a new refund of the same amount for it (that would be a second refund): retryRefund(_:) with this refund continues it under its idempotency key, never a second refund; the queue poller and recover() settle it too.")
    }

    /// Asks the processor for a pending refund and records its answer.
    /// - Throws: only when the ledger cannot record the answer (the processor may have refunded).
    private func send(_ record: RefundRecord, processorPaymentID: String, scope: LedgerScope) async throws
        -> RefundRecord {
        let request = RefundRequest(processor: processor.name, reference: record.reference,
                                    processorPaymentID: processorPaymentID, amount: record.amount,
                                    reason: record.reason, idempotencyKey: record.id)
        do {
            let result = try await processor.refundPayment(request, throughReader: record.throughReader)
            return try await settle(record, with: result, scope: scope)
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
                                                                error: paymentError.inPhase(.refund)),
                                    scope: scope)
        }
    }

    /// Records a processor's answer for a refund (a no-op when nothing changed, or when the answer is a move the
    /// refund cannot make: a succeeded refund reported pending stays succeeded). When the ledger refuses the write
    /// because the refund changed meanwhile (the queue poller, recovery or another terminal on the same ledger file
    /// recorded an answer first), the answer is applied to the record the ledger holds, and that record is returned:
    /// never "unknown" for a refund the ledger has settled.
    /// - Throws: ``LedgerWriteFailure`` when the ledger cannot record it.
    func settle(_ record: RefundRecord, with result: RefundResult, scope: LedgerScope) async throws
        -> RefundRecord {
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
            // Changed meanwhile? Then the ledger's record is the truth, and the answer applies to it (statuses only
            // move forward, so this ends).
            if let current = try? await ledger.refunds(reference: record.reference, scope: scope)
                .first(where: { $0.id == record.id }), current.status != record.status {
                return try await settle(current, with: result, scope: scope)
            }
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
    func settlePending(_ record: RefundRecord, processorPaymentID: String, scope: LedgerScope) async throws
        -> RefundRecord {
        let found: RefundResult??
        do {
            found = .some(try await processor.lookUpRefund(record, processorPaymentID: processorPaymentID))
        } catch {
            found = nil  // the processor cannot tell
        }
        switch found {
        case .some(.some(let result)):
            return try await settle(record, with: result, scope: scope)
        case .some(.none) where record.throughReader:
            return try await settle(record, with: RefundResult(
                processorRefundID: nil, status: .failed,
                error: PaymentError(.refundFailed, recovery: .none, phase: .refund,
                                    message: "The in-person refund never reached \(processor.name); nothing was refunded. Refund again with the card present if it is still owed.")),
                scope: scope)
        default:
            // Never received, or the processor cannot tell (Square keeps no idempotency key on a refund): the same
            // idempotency key settles it at the server, never twice. A reader refund cannot be re-sent unattended.
            guard !record.throughReader else { return record }
            refundCalls[record.reference, default: 0] += 1
            defer { endRefundCall(record.reference) }
            return try await send(record, processorPaymentID: processorPaymentID, scope: scope)
        }
    }
}

/// A ledger write that failed while recording a processor's answer (kept apart from the processor's own errors).
struct LedgerWriteFailure: Error {
    /// The ledger's error.
    let underlying: any Error
}
