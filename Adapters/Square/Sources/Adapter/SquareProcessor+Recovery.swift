import Foundation
public import Tender

extension SquareProcessor {
    // MARK: Lookups

    /// What Square knows of one vendor payment (`query.vendorAttemptID`), in order: the payment in progress in the
    /// SDK; the device's offline queue (by local id, or by reference for a payment taken since `query.since`); the
    /// server by id (`GetPayment`, consistent); the server's search by reference (`ListPayments`, which lags).
    ///
    /// ``ProcessorLookup/notFound`` needs proof that the payment never reached Square: the SDK stored no idempotency
    /// key for the attempt, the device holds nothing, and the search shows nothing although the consistency window
    /// (``Configuration/searchConsistencyWindow``) has passed since `query.since`. A missing key alone is no proof
    /// (the SDK replaces keys, a reinstall loses them), nor is an empty search alone (it lags); a payment that was
    /// stored offline and left the device (it has a local id) is never "not found", only not visible yet. An
    /// offline-only attempt (route offline, no local id) sends nothing to Square when it is taken: it is
    /// ``ProcessorLookup/notFound`` once Square's own queue proves it was never stored (see
    /// ``offlineAttemptAbsence(_:)``).
    ///
    /// Payments are attributed by reference, vendor payment (local id, or taken since the attempt started) and the
    /// query's total: a payment Square holds under the reference for another total is another sale's, reported
    /// with its own total so that the core records a duplicate reference, never this sale's outcome.
    public func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup {
        await startObserving()
        let attemptID = query.vendorAttemptID
        if let current = await client.paymentManager.currentPaymentHandle,
           current.paymentParameters.paymentAttemptID == attemptID {
            let state: PaymentState = await current.isPaymentCancelable ? .collecting : .processing
            noteSeen(attemptID, present: true)
            return .found(ProcessorPaymentUpdate(reference: query.reference, state: state))
        }
        let device = await deviceQueue()
        if let payment = Self.deviceMatch(device.payments, query) {
            remember(payment, reference: query.reference)
            noteSeen(attemptID, present: true)
            return .found(offlineUpdate(payment, reference: query.reference))
        }
        guard let lookup = serverLookup, let locationID = await client.authorizationManager.location?.id else { return .unknown }
        if let id = query.processorPaymentID {
            // An id Square issued: read it directly. Missing (`nil`) is left unknown rather than read as "never".
            guard let payment = try? await lookup.payment(id: id) else { return .unknown }
            return .found(apiUpdate(payment, query))
        }
        let payments: [Square.APIPayment]
        do {
            payments = try await lookup.payments(referenceID: query.reference, locationID: locationID)
        } catch {
            return .unknown
        }
        let windowPassed = clock.now().timeIntervalSince(query.since) >= configuration.searchConsistencyWindow
        if let match = Self.attribute(payments, to: query, searchSettled: windowPassed) {
            // The search may show an older state: read the payment itself.
            let current = (try? await lookup.payment(id: match.id)) ?? match
            return .found(apiUpdate(current, query))
        }
        if query.localID != nil { return .unknown }
        if query.route == .offline { return device.readable ? offlineAttemptAbsence(query) : .unknown }
        let key = await client.paymentManager.getIdempotencyKey(withPaymentAttemptId: attemptID)
        return key == nil && windowPassed && device.readable ? .notFound : .unknown
    }

    /// What Square holds of an earlier call's vendor payment that a new call must not repeat: an offline payment on
    /// the device, the payment by id, or a charge (approved or completed) for the reference on the server (at most
    /// one charge per reference, whatever the attempt). Also the amount it holds.
    func paymentHeld(_ query: PaymentLookupQuery) async -> (ProcessorPaymentUpdate, Money?)? {
        if let payment = Self.deviceMatch(await deviceQueue().payments, query) {
            remember(payment, reference: query.reference)
            return (offlineUpdate(payment, reference: query.reference), SquareMapping.money(payment.totalMoney))
        }
        guard let lookup = serverLookup, let locationID = await client.authorizationManager.location?.id else { return nil }
        if let id = query.processorPaymentID, let payment = try? await lookup.payment(id: id) {
            return (apiUpdate(payment, query), SquareMapping.money(payment.totalMoney))
        }
        guard let payments = try? await lookup.payments(referenceID: query.reference, locationID: locationID),
              let charged = Self.preferringTotal(payments.filter(\.isCharge), query.amount) else { return nil }
        let current = (try? await lookup.payment(id: charged.id)) ?? charged
        return (apiUpdate(current, query), SquareMapping.money(current.totalMoney))
    }

    // MARK: Abandonment

    /// Cancels what an abandoned vendor payment may have left live at Square, so that nothing can still charge:
    /// `CancelPaymentByIdempotencyKey` with the key the SDK stored for the attempt (Square's answer for an unknown
    /// `CreatePayment` outcome), and `CancelPayment` by id for an approved payment found without a key.
    /// - Returns: what was done, for the ledger's history; `nil` when Square holds nothing live for the attempt (no
    ///   key and nothing found, or Square's record of it shows it failed or was canceled).
    /// - Throws: when Square's server cannot be reached; when the device still holds an offline payment of the
    ///   attempt (it cannot be canceled before it uploads), or Square completed a payment for it (it is the
    ///   reference's payment, not something to abandon): no new vendor payment may start then.
    public func abandonPayment(_ query: PaymentLookupQuery) async throws -> String? {
        let attemptID = query.vendorAttemptID
        if let held = Self.deviceMatch(await deviceQueue().payments, query),
           [.queued, .uploaded, .unknown].contains(held.status) {
            throw PaymentError(.invalidState, recovery: .waitAndRetry, phase: .reconciliation,
                               message: "Square's device still holds offline payment \(held.localID) of attempt \(attemptID) (\(held.status.caseName)); it cannot be canceled before it uploads, so no new payment is started for \(query.reference) yet.")
        }
        let key = await client.paymentManager.getIdempotencyKey(withPaymentAttemptId: attemptID)
        guard let lookup = serverLookup, let locationID = await client.authorizationManager.location?.id else {
            return key == nil ? nil
                : "Square was not asked to cancel attempt \(attemptID) by its idempotency key: no server lookup is configured."
        }
        func unreachable(_ error: any Error) -> PaymentError {
            (error as? PaymentError).map { $0.code == .networkUnavailable ? $0.inPhase(.reconciliation) : $0 } ?? PaymentError(
                .networkUnavailable, recovery: .goOnline, phase: .reconciliation,
                message: "Square's server could not be asked to cancel attempt \(attemptID) (\(error)); Tender tries again later.")
        }
        var live: Square.APIPayment?
        do {
            if let id = query.processorPaymentID {
                live = try await lookup.payment(id: id)
            } else {
                live = Self.attribute(try await lookup.payments(referenceID: query.reference, locationID: locationID),
                                      to: query, searchSettled: true)
            }
        } catch {
            throw unreachable(error)
        }
        // Another sale's payment under a reused reference is not this attempt's to cancel, nor proof that it charged.
        if let found = live, let amount = query.amount, SquareMapping.money(found.totalMoney) != amount { live = nil }
        if let live, live.status == .completed {
            throw PaymentError(.invalidState, recovery: .none, phase: .reconciliation,
                               message: "Square completed payment \(live.id) for attempt \(attemptID): it is the payment of \(query.reference), not something to abandon; reconcile it instead.")
        }
        if let key {
            do { try await lookup.cancelPayment(byIdempotencyKey: key) } catch { throw unreachable(error) }
        }
        guard let found = live else {
            return key == nil ? nil
                : "CancelPaymentByIdempotencyKey sent for attempt \(attemptID): Square's search showed no payment for it yet; anything the key created is voided."
        }
        // Square's own record of the attempt says it ended (failed or canceled): nothing is live.
        guard found.status == .approved || found.status == .pending else { return nil }
        var after = try? await lookup.payment(id: found.id)
        if after?.status != .canceled {
            do {
                let key = query.idScope.map {
                    IdempotencyKey(scope: $0, reference: query.reference, paymentAttempt: query.paymentAttempt,
                                   operation: .init(rawValue: "abandon")).rawValue
                } ?? "\(attemptID)/abandon"
                try await captureService.void(VoidRequest(processor: name, reference: query.reference,
                                                          processorPaymentID: found.id, idempotencyKey: key))
            } catch {
                throw unreachable(error)
            }
            after = try? await lookup.payment(id: found.id)
        }
        let how = key == nil ? "CancelPayment" : "CancelPaymentByIdempotencyKey"
        return "Square payment \(found.id) (\(found.status.caseName.uppercased())) of attempt \(attemptID) canceled with \(how)"
            + (after?.status == .canceled ? "." : "; Square has not confirmed it yet.")
    }

    // MARK: Matching

    /// The device's offline queue, and whether it could be read (a Sandbox seller has none, which is an answer).
    func deviceQueue() async -> (payments: [Square.OfflinePayment], readable: Bool) {
        do {
            return (try await client.paymentManager.offlinePaymentQueue.getPayments(), true)
        } catch .unsupportedSandboxEnvironment {
            return ([], true)
        } catch {
            return ([], false)
        }
    }

    /// The device's payment of this vendor payment: by local id, else the latest for the reference taken since the
    /// vendor payment was recorded (an earlier attempt's was taken before).
    static func deviceMatch(_ payments: [Square.OfflinePayment], _ query: PaymentLookupQuery) -> Square.OfflinePayment? {
        if let localID = query.localID, let payment = payments.first(where: { $0.localID == localID }) { return payment }
        return payments.last { $0.referenceID == query.reference && $0.createdAt >= query.since }
    }

    /// The server's payment of this vendor payment among the reference's payments: a charge (approved or completed;
    /// at most one per reference, whatever the attempt), else the latest created since the vendor payment was
    /// recorded. With the query's total known, a payment of that total is preferred; a charge for another total
    /// (another sale under a reused reference) is still returned, so that its total shows the mismatch (never
    /// attributed by the core).
    ///
    /// Square's payments do not say which attempt (`paymentAttemptID`) made them, and a creation time cannot tell
    /// an earlier attempt's payment from this one's when the two were made within the clocks' resolution and skew.
    /// So a payment that charged nothing (failed, canceled) is attributed only once the search has settled
    /// (`searchSettled`: ``Configuration/searchConsistencyWindow`` has passed since the attempt was recorded):
    /// before that, this attempt's charge may be missing from a lagging search, and an earlier attempt's decline
    /// read as this one's would end a charged payment as declined.
    static func attribute(_ payments: [Square.APIPayment], to query: PaymentLookupQuery,
                          searchSettled: Bool) -> Square.APIPayment? {
        let offline = query.localID != nil || query.route == .offline
        let candidates = offline ? payments.filter(\.isOfflinePayment) : payments
        if let charged = preferringTotal(candidates.filter(\.isCharge), query.amount) { return charged }
        guard searchSettled else { return nil }
        let recent = candidates.filter { ($0.offlineClientCreatedAt ?? $0.createdAt) >= query.since }
        return preferringTotal(recent, query.amount)
    }

    /// The latest payment of `total` among `payments` when there is one, else the latest (nil when empty).
    static func preferringTotal(_ payments: [Square.APIPayment], _ total: Money?) -> Square.APIPayment? {
        if let total, let same = payments.last(where: { SquareMapping.money($0.totalMoney) == total }) { return same }
        return payments.last
    }

    /// Records whether the device was seen holding (or running) the vendor payment `attemptID`: the absence proof of
    /// an offline-only attempt counts from the first lookup that found nothing, and starts again when it is seen.
    private func noteSeen(_ attemptID: String, present: Bool) {
        state.absentSince[attemptID] = present ? nil : (state.absentSince[attemptID] ?? clock.now())
    }

    /// An offline-only attempt (`offlineOnly`: Square stores it on the device, and sends nothing to its server when
    /// the card is taken) that the device's readable queue does not hold and Square's search does not show:
    /// ``ProcessorLookup/notFound`` once both ``Configuration/searchConsistencyWindow`` and
    /// ``Configuration/lateArrivalWindow`` have passed since the first lookup that found it absent (this launch).
    /// A payment stored before a kill stays on the device until Square processes it, and the SDK deletes it only
    /// after that (``Configuration/searchConsistencyWindow`` covers the search catching up with a payment processed
    /// and deleted just before the first look); after a relaunch nothing can store it any more. Inside the window:
    /// ``ProcessorLookup/unknown``.
    func offlineAttemptAbsence(_ query: PaymentLookupQuery) -> ProcessorLookup {
        let attemptID = query.vendorAttemptID
        noteSeen(attemptID, present: false)
        guard let remaining = absenceProofRemaining(attemptID), remaining <= 0 else { return .unknown }
        return .notFound
    }

    /// Seconds until an absent offline-only attempt is proven never stored (≤ 0: proven), or nil when it was not
    /// seen absent this launch.
    func absenceProofRemaining(_ attemptID: String) -> TimeInterval? {
        guard let since = state.absentSince[attemptID] else { return nil }
        let window = max(configuration.searchConsistencyWindow, configuration.lateArrivalWindow)
        return since.addingTimeInterval(window).timeIntervalSince(clock.now())
    }

    // MARK: Square's payments as Tender's updates

    /// An online payment the SDK finished.
    func onlineUpdate(_ payment: Square.OnlinePayment, reference: String) -> ProcessorPaymentUpdate {
        let state = SquareMapping.paymentState(payment.status)
        let error: PaymentError? = state == .declined ? PaymentError(
            .cardDeclined, recovery: .collectAnotherCard, phase: .processing, message: "The card was declined.",
            vendor: .init(processor: name, name: "PaymentStatus.\(payment.status.caseName)")) : nil
        let delay = configuration.delayDuration == 0 ? 36 * 60 * 60 : configuration.delayDuration
        return ProcessorPaymentUpdate(reference: reference, state: state, route: .online, processorPaymentID: payment.id,
                                      card: payment.cardDetails.map(SquareMapping.cardDetails), error: error,
                                      captureBefore: payment.status == .approved ? payment.createdAt.addingTimeInterval(delay) : nil)
    }

    /// An offline payment on the device, with Square's `createdAt` as the stored time.
    func offlineUpdate(_ payment: Square.OfflinePayment, reference: String) -> ProcessorPaymentUpdate {
        let state = SquareMapping.paymentState(payment.status) ?? .storedOffline
        let error: PaymentError? = switch payment.status {
        case .failedToProcess:
            PaymentError(.cardDeclined, recovery: .none, phase: .forwarding,
                         message: "Square declined this offline payment when it processed it; the seller bears the loss.",
                         vendor: .init(processor: name, name: "OfflineStatus.failedToProcess"))
        case .failedToUpload:
            PaymentError(.forwardingFailed, recovery: .none, phase: .forwarding,
                         message: "Square could not upload this offline payment (an unrecoverable error, or it expired); it will not be charged.",
                         vendor: .init(processor: name, name: "OfflineStatus.failedToUpload"))
        case .queued, .uploaded, .processed, .unknown: nil
        }
        return ProcessorPaymentUpdate(reference: payment.referenceID ?? reference, state: state, route: .offline,
                                      processorPaymentID: payment.id, localID: payment.localID,
                                      card: payment.cardDetails.map(SquareMapping.cardDetails), error: error,
                                      storedAt: payment.createdAt, amount: SquareMapping.money(payment.totalMoney))
    }

    /// A payment as Square's server holds it, for this query. Taken offline, it is forwarded (or declined after
    /// forwarding); a manual-capture payment carries Square's `delayed_until` as its capture deadline, and one Square
    /// canceled at that deadline carries ``PaymentError/Code/authorizationExpired``.
    func apiUpdate(_ payment: Square.APIPayment, _ query: PaymentLookupQuery) -> ProcessorPaymentUpdate {
        var state = SquareMapping.paymentState(payment.status)
        let offline = payment.isOfflinePayment || query.localID != nil || query.route == .offline
        var error: PaymentError? = state == .declined ? PaymentError(
            .cardDeclined, recovery: offline ? .none : .collectAnotherCard, phase: offline ? .forwarding : .processing,
            message: offline ? "Square declined this offline payment when it processed it; the seller bears the loss."
                : "The card was declined.",
            vendor: .init(processor: name, name: "PaymentStatus.\(payment.status.caseName)")) : nil
        if let expired = expiry(of: payment) { error = expired.inPhase(.reconciliation) }
        if offline {
            switch state {
            case .succeeded:
                state = query.recordedState == .forwarded && query.captureMode == .manual ? .succeeded : .forwarded
            case .authorized: state = .forwarded
            case .declined: state = .declinedAfterForwarding
            case .canceled where query.recordedState == .storedOffline: state = .forwarded  // canceled next
            default: break
            }
        }
        // A completed delayed-capture payment: Square captured its `total_money` (`CompletePayment` takes no amount),
        // recorded as the captured amount whether or not the capture's own answer arrived.
        let captured = payment.status == .completed && query.captureMode == .manual && state == .succeeded
            ? SquareMapping.money(payment.totalMoney) : nil
        return ProcessorPaymentUpdate(
            reference: query.reference, state: state, route: offline ? .offline : .online, processorPaymentID: payment.id,
            localID: query.localID, card: payment.cardDetails.map(SquareMapping.cardDetails), error: error,
            storedAt: offline ? payment.offlineClientCreatedAt : nil,
            captureBefore: payment.status == .approved ? payment.delayedUntil : nil,
            amount: SquareMapping.money(payment.totalMoney), capturedAmount: captured)
    }
}
