import Foundation
public import Tender

extension SquareProcessor {
    /// The vendor's queue as the SDK has it now: every offline payment of the authorized account and location
    /// (`getPayments`: queued, uploaded, failed, and processed ones until the SDK deletes them) with its `localID`,
    /// Square's `createdAt` as its stored time and its status; the stored total is the larger of the entries' sum
    /// and the SDK's own `getTotalStoredPaymentsAmount`. Reading it is what delivers Square's results: each change
    /// since the last read is reported as ``ProcessorEvent/paymentForwarded(_:)``, and a payment this adapter saw
    /// that left the device unseen (processed, then deleted by the SDK) is found on the server and reported too.
    ///
    /// `deviceStoredCount` is the queued count the SDK shows, a lower bound: Square's 1,000 count every account and
    /// location on the device, and the SDK lists only the authorized one's. `lastOnlineAt` is when the device was
    /// last online as the network monitor saw it (`nil` while online): Square's 24-hour window runs from it.
    public func queueSnapshot() async throws -> OfflineQueueSnapshot {
        await startObserving()
        let network = await networkStatus()
        let queue = client.paymentManager.offlinePaymentQueue
        let payments: [Square.OfflinePayment]
        do {
            payments = try await queue.getPayments()
        } catch .unsupportedSandboxEnvironment {
            return .empty(network)
        } catch {
            throw error.tenderError
        }
        let total = try? await queue.getTotalStoredPaymentsAmount()
        await reportChanges(in: payments)
        var entries = payments.compactMap(Self.entry)
        entries += await departedPayments(present: payments)
        var snapshot = try OfflineQueueSnapshot(networkStatus: network, payments: entries)
        if let total, let money = SquareMapping.money(Square.Money(total)),
           money.minorUnits > snapshot.storedAmounts[money.currency] ?? 0 {
            snapshot.storedAmounts[money.currency] = money.minorUnits
        }
        snapshot.deviceStoredCount = payments.filter { $0.status == .queued || $0.status == .unknown }.count
        snapshot.lastOnlineAt = network == .online ? nil : await client.networkMonitor.lastConnectedAt
        return snapshot
    }

    /// Reads the offline queue (``queueSnapshot()``) for its side effect: Square has no queue observer, so results
    /// arrive only when the queue is read.
    public func refreshOfflineQueue() async { _ = try? await queueSnapshot() }

    /// Remembers an offline payment seen on the device: its status (reported once per change) and, until it is
    /// final, the payment itself (so it can be found on the server if it leaves the device unseen).
    func remember(_ payment: Square.OfflinePayment, reference: String) {
        do {
            state.reportedOfflineStatus[payment.localID] = payment.status
            if Self.isFinal(payment.status) {
                state.tracked[payment.localID] = nil
            } else if let amount = SquareMapping.money(payment.totalMoney) {
                state.tracked[payment.localID] = TrackedPayment(reference: payment.referenceID ?? reference,
                                                                amount: amount, storedAt: payment.createdAt)
            }
        }
    }

    private static func isFinal(_ status: Square.OfflineStatus) -> Bool {
        status == .processed || status == .failedToProcess || status == .failedToUpload
    }

    private static func entry(_ payment: Square.OfflinePayment) -> QueuedPayment? {
        guard let amount = SquareMapping.money(payment.totalMoney) else { return nil }
        return QueuedPayment(reference: payment.referenceID ?? payment.localID, localID: payment.localID,
                             processorPaymentID: payment.id, amount: amount, storedAt: payment.createdAt,
                             status: SquareMapping.offlinePaymentStatus(payment.status))
    }

    private func reportChanges(in payments: [Square.OfflinePayment]) async {
        var changed = false
        for payment in payments {
            let previous = state.reportedOfflineStatus[payment.localID]
            remember(payment, reference: payment.localID)
            guard previous != payment.status else { continue }
            changed = true
            guard Self.isFinal(payment.status) else { continue }
            var update = offlineUpdate(payment, reference: payment.localID)
            if payment.status == .processed, let id = payment.id, let lookup = serverLookup,
               let server = try? await lookup.payment(id: id), server.status == .approved {
                update.captureBefore = server.delayedUntil
            }
            emitter.emit(.paymentForwarded(update))
        }
        if changed { emitter.emit(.offlineQueueChanged) }
    }

    /// Payments this adapter saw on the device that are no longer there: Square processed them and the SDK deleted
    /// them (or they were lost). Each one Square's server shows is reported and listed with its outcome; one it does
    /// not show yet (its search lags) is kept for the next read.
    private func departedPayments(present payments: [Square.OfflinePayment]) async -> [QueuedPayment] {
        let present = Set(payments.map(\.localID))
        let departed = state.tracked.filter { !present.contains($0.key) }
        guard !departed.isEmpty, let lookup = serverLookup, let locationID = await client.authorizationManager.location?.id else { return [] }
        var entries: [QueuedPayment] = []
        for (localID, tracked) in departed.sorted(by: { $0.value.storedAt < $1.value.storedAt }) {
            let query = PaymentLookupQuery(reference: tracked.reference, localID: localID,
                                           recordedState: .storedOffline, route: .offline, since: tracked.storedAt)
            guard let payments = try? await lookup.payments(referenceID: tracked.reference, locationID: locationID),
                  let match = Self.attribute(payments, to: query, searchSettled: true),
                  match.status != .pending else { continue }
            let current = (try? await lookup.payment(id: match.id)) ?? match
            let update = apiUpdate(current, query)
            guard update.state == .forwarded || update.state == .declinedAfterForwarding else { continue }
            do {
                state.tracked[localID] = nil
                state.reportedOfflineStatus[localID] = update.state == .forwarded ? .processed : .failedToProcess
            }
            emitter.emit(.paymentForwarded(update))
            entries.append(QueuedPayment(reference: tracked.reference, localID: localID,
                                         processorPaymentID: current.id, amount: tracked.amount,
                                         storedAt: tracked.storedAt,
                                         status: update.state == .forwarded ? .forwarded : .declinedAfterForwarding))
        }
        return entries
    }
}
