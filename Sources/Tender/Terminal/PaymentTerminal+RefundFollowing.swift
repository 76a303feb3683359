import Foundation

// Following refunds after their call ended: the queue poller and recovery settle pending refunds and look succeeded
// ones up again until the processor can no longer change them.

extension PaymentTerminal {
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
                settled = try await settle(current, with: result, scope: scope)
            } catch {
                hub.send(.processor(.forwardingError(await refundNotRecorded(current, cause: error, scope: scope))))
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
    fileprivate func refundCheckKey(_ record: RefundRecord) -> String { "\(scope)|\(record.id)" }

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
        for record in pending where !refundsInFlight.contains(record.reference) && !refundsSending.contains(record.id) {
            guard let session = try? await ledger.session(reference: record.reference, scope: scope,
                                                          includingHistory: false),
                  let paymentID = session.processorPaymentID else { continue }
            refundsSending.insert(record.id)
            defer { refundsSending.remove(record.id) }
            do {
                let settled = try await settlePending(record, processorPaymentID: paymentID, scope: scope)
                if settled != record { changed = true }
            } catch {
                hub.send(.processor(.forwardingError(await refundNotRecorded(record, cause: error, scope: scope))))
            }
        }
        return changed
    }
}
