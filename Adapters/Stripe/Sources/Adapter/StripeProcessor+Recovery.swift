import Foundation
public import Tender

extension StripeProcessor {
    /// How a payment's earlier vendor payment continues.
    enum Continuation {
        /// Nothing was started for this vendor payment: create its PaymentIntent.
        case start
        /// Continue this SDK object (collect if it waits for a card, else confirm).
        case resume(Stripe.PaymentIntent)
        /// Report this without touching the SDK (already final, or not safe to continue now).
        case report(ProcessorPaymentUpdate)
    }

    /// What Stripe's side says of a vendor payment.
    enum ServerAnswer {
        /// Stripe's current copy (retrieved by id, so consistent).
        case found(Stripe.PaymentIntent)
        /// Stripe has no intent with the id the payment recorded: proof it never existed there.
        case missingByID
        /// The search found nothing: it may not be indexed yet.
        case searchEmpty
        /// The search found intents of the reference and vendor payment, none for this payment's total: another
        /// sale's (a reused reference). Never this payment's; the one closest to done is given so that its total
        /// can be reported.
        case otherSale(Stripe.PaymentIntent)
        /// Stripe could not be asked (no server lookup, or it failed).
        case unreachable(String)
    }

    // MARK: - Continuing a payment

    /// How to continue `reference`'s vendor payment `attempt.paymentAttempt`: from the SDK object this launch holds,
    /// else (after a relaunch, when the core says an earlier call may have started it) from Stripe's copy. Never
    /// ``Continuation/start`` while an earlier intent of the same vendor payment could still charge, and never
    /// another sale's intent found under the same reference (`total` is this payment's).
    func continuation(of reference: String, attempt: PaymentAttempt, total: Money?) async -> Continuation {
        if let local = held[reference], local.paymentAttempt == attempt.paymentAttempt {
            return await continuation(from: local, reference: reference)
        }
        guard attempt.continuesEarlierPayment else { return .start }
        switch await serverCopy(reference: reference, paymentAttempt: attempt.paymentAttempt,
                                processorPaymentID: attempt.processorPaymentID, amount: total) {
        case .found(let server):
            return await continuation(fromServer: server, reference: reference, paymentAttempt: attempt.paymentAttempt)
        case .otherSale(let other):
            return .report(ended(reference, .outcomeUnknown, Self.otherSaleError(other, reference: reference, total: total)))
        case .missingByID, .searchEmpty:
            return .report(unknown(reference, "Stripe has no record of this payment yet (its search lags, and the "
                + "device may hold it offline); a new PaymentIntent is not created while the first could still "
                + "charge. It is looked up again later."))
        case .unreachable(let why):
            return .report(unknown(reference, "The earlier PaymentIntent cannot be looked up now (\(why)); a new one "
                + "is not created while the first could still charge."))
        }
    }

    private func continuation(from local: HeldIntent, reference: String) async -> Continuation {
        if local.confirmOutcomeUnknown { return await continueUnknownConfirmation(local, reference: reference) }
        switch local.intent.status {
        case .requiresPaymentMethod where StripeMapping.paymentState(local.intent) == .collecting:
            return .resume(local.intent)
        case .requiresConfirmation:
            return .resume(local.intent)
        default:
            return .report(outcome(StripeMapping.update(for: local.intent, reference: reference)))
        }
    }

    /// An update as the end of ``startPayment(_:routing:attempt:updates:)``: a state Stripe has not finished with
    /// (processing, requires action) is an outcome not known yet.
    func outcome(_ update: ProcessorPaymentUpdate) -> ProcessorPaymentUpdate {
        guard update.state == .collecting || update.state == .processing else { return update }
        var unknown = self.unknown(update.reference, "Stripe is still processing the payment; its outcome is looked "
            + "up, never charged again.")
        unknown.processorPaymentID = update.processorPaymentID ?? unknown.processorPaymentID
        return unknown
    }

    /// Seed 002, "PaymentIntent is nil": retry confirming the original intent, never a new one. Before confirming
    /// again, ask Stripe (by id, consistent) whether the lost confirmation was processed, and never let the SDK
    /// confirm it offline: a copy confirmed offline would be a second authorization when forwarded.
    private func continueUnknownConfirmation(_ local: HeldIntent, reference: String) async -> Continuation {
        if let id = local.intent.stripeId, serverLookup != nil {
            switch await serverCopy(reference: reference, paymentAttempt: local.paymentAttempt, processorPaymentID: id,
                                    amount: nil) {
            case .found(let server) where Self.stripeActed(on: server, since: local.intent):
                held[reference]?.confirmOutcomeUnknown = false
                return .report(outcome(StripeMapping.update(for: server, reference: reference)))
            case .found, .missingByID, .searchEmpty, .otherSale:
                break
            case .unreachable(let why):
                return .report(unknown(reference, "Whether Stripe received the confirmation cannot be checked now "
                    + "(\(why)); the same PaymentIntent is confirmed again once it can."))
            }
        }
        guard await client.offlineStatus.sdk.networkStatus == .online else {
            return .report(unknown(reference, "The device is offline: the PaymentIntent whose confirmation got no "
                + "answer is confirmed again online, never offline (that could authorize the card twice)."))
        }
        return .resume(local.intent)
    }

    /// After a relaunch: continue from Stripe's copy. An intent Stripe holds in `requires_payment_method` gets an SDK
    /// object again (by its client secret) and the card is collected again on the same intent.
    private func continuation(fromServer server: Stripe.PaymentIntent, reference: String,
                              paymentAttempt: Int) async -> Continuation {
        let state = StripeMapping.paymentState(server)
        switch state {
        case _ where state == .collecting || server.status == .requiresConfirmation:
            if await sdkMayHold(server) {
                return .report(unknown(reference, "The device may hold this payment offline; it is reported when "
                    + "the SDK forwards it, and is not collected again meanwhile."))
            }
            guard let secret = server.clientSecret else {
                return .report(unknown(reference, "Stripe's copy of the PaymentIntent has no client secret to continue it."))
            }
            do {
                let object = try await client.retrievePaymentIntent(clientSecret: secret)
                held[reference] = HeldIntent(paymentAttempt: paymentAttempt, intent: object)
                guard object.status == .requiresPaymentMethod || object.status == .requiresConfirmation else {
                    return .report(reported(object, reference: reference))
                }
                return .resume(object)
            } catch {
                return .report(unknown(reference, "The PaymentIntent cannot be retrieved now (\(error.message))."))
            }
        case .processing:
            return .report(unknown(reference, "Stripe is still processing the payment."))
        default:
            return .report(StripeMapping.update(for: server, reference: reference))
        }
    }

    // MARK: - Lookups

    /// What Stripe and the SDK know of a vendor payment, for recovery and reconciliation.
    ///
    /// The SDK's copy (this launch) and Stripe's (retrieved by id, found by search) are merged so that a lagging or
    /// unaware server copy never overrides a more advanced local one: Stripe's copy of an intent collected on the
    /// device stays `requires_payment_method` until the confirmation reaches Stripe. ``ProcessorLookup/notFound``
    /// only with proof: an id Stripe reports missing, or an empty search once ``searchConsistencyWindow`` has
    /// passed both since the payment was first recorded and since the SDK was last seen storing anything (a payment
    /// it forwarded a moment ago, perhaps before a relaunch, is not searchable yet). With payments held by the SDK
    /// (it lists none) the answer is ``ProcessorLookup/unknown``: the forwarding callback resolves it. The recorded
    /// state is no proof either: a session still `created` may have lost its later records in a power loss.
    ///
    /// A searched intent is attributed only when its metadata names the query's vendor payment and its total is the
    /// query's ``PaymentLookupQuery/amount``; intents of the reference for another total are reported as found with
    /// their own total, which the core records as a duplicate reference (never as this payment's outcome).
    public func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup {
        let reference = query.reference
        let local = held[reference].flatMap { $0.paymentAttempt == query.paymentAttempt ? $0 : nil }
        let forwarded = bridge.forwardedIntent(reference, paymentAttempt: query.paymentAttempt)
        let forwardingResult = bridge.forwardingResult(reference, paymentAttempt: query.paymentAttempt)
        let device = forwarded ?? local?.intent
        if forwarded == nil, let local, local.intent.offlineDetails?.requiresUpload == true {
            return .found(StripeMapping.update(for: local.intent, reference: reference))
        }
        let id = query.processorPaymentID ?? forwarded?.stripeId ?? local?.intent.stripeId
        switch await serverCopy(reference: reference, paymentAttempt: query.paymentAttempt, processorPaymentID: id,
                                amount: query.amount) {
        case .otherSale(let other):
            // Reported with its total, so that the core records a duplicate reference, never this sale's outcome.
            return .found(StripeMapping.update(for: other, reference: reference))
        case .found(let server):
            if let local, local.confirmOutcomeUnknown || local.intent.status == .requiresConfirmation,
               !Self.stripeActed(on: server, since: local.intent) {
                return .found(pending(reference, .processing, server.stripeId))
            }
            let best = Self.merged(device: device, server: server)
            var update = StripeMapping.update(for: best, reference: reference)
            if best == server, update.state == .collecting, local == nil, await sdkMayHold(server) { return .unknown }
            if [.storedOffline, .failedToForward].contains(query.recordedState),
               update.state == .authorized || update.state == .succeeded {
                update.state = .forwarded  // an intent created online, stored, and charged online meanwhile
            }
            return .found(update)
        case .missingByID:
            return .notFound
        case .unreachable:
            if let forwardingResult { return .found(forwardingResult) }
            if let device { return deviceAnswer(device, local: local, reference: reference) }
            return .unknown
        case .searchEmpty:
            // What the SDK said when it forwarded it (a dropped payment never reaches Stripe's search).
            if let forwardingResult { return .found(forwardingResult) }
            if let device { return deviceAnswer(device, local: local, reference: reference) }
            // A session still `created`, with no id, proves nothing: `collecting` and `processing` are not synced to
            // disk one by one, so after a power loss the write-ahead record is all that is left of a payment that
            // may have been collected, confirmed online, or stored by the SDK (whose store is durable and invisible
            // to the search until it forwards). It gets the same proof as any other state.
            // Proof of absence: recorded longer ago than the window, and the SDK seen storing nothing for at least
            // the window (a payment it forwarded just before would not be searchable yet).
            await observeStoredCount()
            let now = clock.now()
            guard now >= query.since.addingTimeInterval(searchConsistencyWindow),
                  let empty = bridge.storedNothingSince, now >= empty.addingTimeInterval(searchConsistencyWindow) else {
                return .unknown
            }
            return .notFound
        }
    }

    /// What the device alone says, when Stripe has nothing (yet) or cannot be asked.
    private func deviceAnswer(_ device: Stripe.PaymentIntent, local: HeldIntent?, reference: String) -> ProcessorLookup {
        if local?.confirmOutcomeUnknown == true { return .unknown }
        let update = StripeMapping.update(for: device, reference: reference)
        // An online intent's truth is at Stripe: without it, only the device's unfinished states can be vouched for.
        if device.stripeId != nil, device.offlineDetails == nil, update.state != .collecting,
           update.state != .processing { return .unknown }
        return .found(update)
    }

    /// Stripe's copy of a vendor payment: by id when known (consistent), else by searching Tender's reference in
    /// the metadata and retrieving the best match by id. A searched intent is this payment's only when its metadata
    /// names the same vendor payment and, when `amount` is known, its total is `amount` (or `amount` plus an on-reader
    /// tip the ledger does not know yet): intents of the reference for another total are another sale's
    /// (``ServerAnswer/otherSale(_:)``).
    func serverCopy(reference: String, paymentAttempt: Int, processorPaymentID: String?,
                    amount: Money?) async -> ServerAnswer {
        guard let serverLookup else { return .unreachable("no server lookup is configured") }
        do {
            if let processorPaymentID {
                return try await serverLookup.paymentIntent(id: processorPaymentID).map(ServerAnswer.found) ?? .missingByID
            }
            let found = try await serverLookup.paymentIntents(metadataKey: StripeMapping.referenceMetadataKey,
                                                                value: reference)
                .filter { StripeMapping.paymentAttempt($0) == paymentAttempt }
            let matching = amount.map { amount in found.filter { StripeMapping.isPayment($0, ofTotal: amount) } } ?? found
            guard let best = Self.mostAdvanced(matching), let id = best.stripeId else {
                return Self.mostAdvanced(found).map(ServerAnswer.otherSale) ?? .searchEmpty
            }
            return try await serverLookup.paymentIntent(id: id).map(ServerAnswer.found) ?? .found(best)
        } catch {
            return .unreachable("\(error)")
        }
    }

    /// ``PaymentError/Code/duplicateReference``: Stripe holds `other` under the reference, for another total.
    static func otherSaleError(_ other: Stripe.PaymentIntent, reference: String, total: Money?) -> PaymentError {
        let theirs = StripeMapping.total(other).map { "\($0)" } ?? "another total"
        let ours = total.map { "the \($0) of this sale" } ?? "this sale's total"
        return PaymentError(.duplicateReference, recovery: .fixRequest, phase: .reconciliation,
                            message: "Stripe holds a PaymentIntent of \(theirs) for reference \(reference), not \(ours): the "
                                + "reference was used for another sale. It is neither continued nor recorded as this sale's; "
                                + "take this sale with a new reference.")
    }

    /// Whether the SDK may hold this intent stored offline: Stripe has not seen it confirmed, it was not created
    /// online-only, and the SDK stores payments (it does not say which).
    func sdkMayHold(_ server: Stripe.PaymentIntent) async -> Bool {
        guard server.metadata[StripeMapping.onlineOnlyMetadataKey] == nil else { return false }
        return await observeStoredCount() != 0
    }

    /// Reads the SDK's stored count (nil: unknown) and remembers since when it has been zero.
    @discardableResult
    func observeStoredCount() async -> Int? {
        let count = await client.offlineStatus.sdk.paymentsCount
        bridge.observeStoredCount(count)
        return count
    }

    /// Whether Stripe's copy shows that Stripe acted after the device's copy was made: a new charge, or a status only
    /// Stripe can set (processing, authorized, captured, canceled).
    static func stripeActed(on server: Stripe.PaymentIntent, since local: Stripe.PaymentIntent) -> Bool {
        if server.charges.count > local.charges.count { return true }
        switch server.status {
        case .requiresPaymentMethod, .requiresConfirmation: return false
        case .requiresAction, .processing, .requiresCapture, .succeeded, .canceled, .requiresReauthorization: return true
        }
    }

    /// The device's copy or Stripe's, whichever got further; Stripe's wins a tie and whenever it has a charge the
    /// device has not seen.
    static func merged(device: Stripe.PaymentIntent?, server: Stripe.PaymentIntent) -> Stripe.PaymentIntent {
        guard let device else { return server }
        if server.charges.count > device.charges.count { return server }
        return progress(device) > progress(server) ? device : server
    }

    /// How far an intent got: waiting for a card, collected, in flight, authorized or stored, canceled.
    static func progress(_ intent: Stripe.PaymentIntent) -> Int {
        switch intent.status {
        case .requiresPaymentMethod: 0
        case .requiresConfirmation: 1
        case .requiresAction, .processing: 2
        case .requiresCapture, .succeeded, .requiresReauthorization: 3
        case .canceled: 4
        }
    }

    /// The intent that got furthest (the latest among equals).
    static func mostAdvanced(_ intents: [Stripe.PaymentIntent]) -> Stripe.PaymentIntent? {
        intents.enumerated().max { (progress($0.element), $0.offset) < (progress($1.element), $1.offset) }?.element
    }

    func unknown(_ reference: String, _ message: String) -> ProcessorPaymentUpdate {
        ended(reference, .outcomeUnknown, PaymentError(.outcomeUnknown, recovery: .retrySamePayment,
                                                       phase: .reconciliation, message: message),
              processorPaymentID: held[reference]?.intent.stripeId)
    }

    private func pending(_ reference: String, _ state: PaymentState, _ id: String?) -> ProcessorPaymentUpdate {
        ProcessorPaymentUpdate(reference: reference, state: state, processorPaymentID: id)
    }

    // MARK: - Abandonment

    /// Cancels what an abandoned vendor payment left at Stripe: through the SDK when this launch still holds the
    /// intent, else through ``StripeServerLookup/cancelPaymentIntent(id:)`` by id (found by search when none was
    /// recorded). A payment stored on the device cannot be canceled (the SDK forwards it) and is left alone.
    /// - Returns: a note for the ledger, or nil when nothing live remains.
    /// - Throws: when Stripe cannot be reached, or when Stripe says the intent succeeded (it charged: the session
    ///   must be reconciled, not abandoned).
    public func abandonPayment(_ query: PaymentLookupQuery) async throws -> String? {
        let reference = query.reference
        let local = held[reference].flatMap { $0.paymentAttempt == query.paymentAttempt ? $0 : nil }
        if let local, local.intent.offlineDetails?.requiresUpload != true {
            held[reference] = nil
            guard Self.cancelable(local.intent.status) else { return nil }
            do {
                let canceled = try await client.cancelPaymentIntent(local.intent)
                return Self.note(canceled)
            } catch {
                guard local.intent.stripeId != nil, serverLookup != nil else {
                    throw StripeMapping.paymentError(error, phase: .cancellation)
                }
                held[reference] = local
            }
        }
        if local?.intent.offlineDetails?.requiresUpload == true { return nil }
        let id = query.processorPaymentID ?? local?.intent.stripeId
        switch await serverCopy(reference: reference, paymentAttempt: query.paymentAttempt, processorPaymentID: id,
                                amount: query.amount) {
        case .found(let server):
            if server.status == .succeeded {
                throw PaymentError(.invalidState, recovery: .none, phase: .reconciliation,
                                   message: "PaymentIntent \(server.stripeId ?? "") succeeded at Stripe; the payment "
                                       + "must be reconciled, not abandoned.")
            }
            guard Self.cancelable(server.status), let id = server.stripeId, let serverLookup else { return nil }
            do {
                let canceled = try await serverLookup.cancelPaymentIntent(id: id)
                held[reference] = nil
                return Self.note(canceled)
            } catch {
                throw PaymentError(.networkUnavailable, recovery: .waitAndRetry, phase: .cancellation,
                                   message: "PaymentIntent \(id) could not be canceled now: \(error).")
            }
        case .missingByID, .searchEmpty, .otherSale:
            return nil  // nothing of this payment (another sale's intent is not this one's to cancel)
        case .unreachable(let why):
            if serverLookup == nil { return nil }
            throw PaymentError(.networkUnavailable, recovery: .waitAndRetry, phase: .cancellation,
                               message: "Stripe cannot be asked about the abandoned payment now (\(why)).")
        }
    }

    private static func cancelable(_ status: Stripe.PaymentIntentStatus) -> Bool {
        switch status {
        case .requiresPaymentMethod, .requiresConfirmation, .requiresAction, .requiresCapture, .requiresReauthorization:
            true
        case .processing, .canceled, .succeeded:
            false
        }
    }

    private static func note(_ canceled: Stripe.PaymentIntent) -> String {
        if let id = canceled.stripeId { return "PaymentIntent \(id) canceled at Stripe" }
        return "PaymentIntent created offline discarded on the device (never sent to Stripe)"
    }
}
