import Foundation
public import Tender

extension SquareProcessor {
    // MARK: Taking a payment

    /// Takes a payment: `startPayment` with ``PaymentAttempt/vendorAttemptID(reference:)`` as `paymentAttemptID` and
    /// the reference as `referenceID`, reporting `collecting` (`didStart`) and `processing` through `updates`, then
    /// Square's outcome.
    ///
    /// - A continued attempt (``PaymentAttempt/continuesEarlierPayment``) is first looked for on the device and on
    ///   the server; if Square holds it, that is the outcome. Otherwise it is started again under the same attempt
    ///   id, online only (a stored copy could not be checked against a charge the earlier call may have made), and
    ///   Square refuses the id (`paymentAttemptIdReused`) if a payment exists under it. An offline-only attempt is
    ///   never stored a second time: the retry says how long until Square's queue proves it was never stored (the
    ///   core then starts a new payment), or to go online. A payment Square holds under the reference for another
    ///   total is another sale's: ``PaymentError/Code/duplicateReference``, never this payment's outcome. Any ending
    ///   that does not come from Square's answer to this attempt leaves the outcome unknown rather than failed.
    /// - Cancelling the Swift task cancels through `PaymentHandle.cancelPayment()` and keeps waiting: the result is
    ///   `canceled` only when the delegate's `didCancel` confirms it, otherwise whatever Square reports.
    public func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                             updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate {
        await startObserving()
        let reference = request.reference
        let continuing = attempt.continuesEarlierPayment
        func ended(_ error: PaymentError) -> ProcessorPaymentUpdate {
            ProcessorPaymentUpdate(reference: reference, state: continuing ? .outcomeUnknown : .failed, error: error)
        }
        guard var mode = SquareMapping.processingMode(for: routing) else {
            if case .refused(let error) = routing { return ended(error) }
            return ended(Square.PaymentError.invalidPaymentParameters.tenderError)
        }
        if !request.metadata.isEmpty {
            return ended(PaymentError(.invalidMetadata, recovery: .fixRequest, phase: .validation,
                                      message: "Square's payments keep no metadata; send the payment without it (Tender reports supportsMetadata = false for Square)."))
        }
        if continuing {
            let total = try? request.total()
            let query = PaymentLookupQuery(reference: reference, paymentAttempt: attempt.paymentAttempt,
                                           localID: attempt.localID, processorPaymentID: attempt.processorPaymentID,
                                           recordedState: attempt.previousState ?? .outcomeUnknown,
                                           captureMode: request.captureMode, amount: total, idScope: attempt.idScope)
            if let (found, amount) = await paymentHeld(query) {
                if let total, let amount, amount != total {
                    return ProcessorPaymentUpdate(reference: reference, state: .outcomeUnknown, error: PaymentError(
                        .duplicateReference, recovery: .fixRequest, phase: .reconciliation,
                        message: "Square holds a payment of \(amount) for reference \(reference), not the \(total) of this sale: the reference was used for another sale. It is not recorded as this sale's payment, and this sale is not charged under it; take it again with a new reference."))
                }
                return try await report(found, after: attempt.previousState ?? .created, updates: updates)
            }
            // An offline-only payment sends nothing to Square when it is taken: no request of it can arrive late.
            if mode != .offlineOnly, let wait = await lateArrivalWait(attempt, reference: reference) { return wait }
            if mode != .onlineOnly {
                guard mode == .autoDetect else { return await offlineRetryWait(attempt, reference: reference) }
                mode = .onlineOnly
            }
        }
        // Square's UI would wait for a reader that cannot come; report why instead (past the offline window or
        // the device cap, Square's readers stop until the device is back online).
        let readers = await client.readerManager.readers
        if !readers.contains(where: { $0.statusInfo.status == .ready }) {
            return ended(readers.lazy.compactMap { SquareMapping.readerError($0.statusInfo) }.first
                ?? PaymentError(.readerNotConnected, recovery: .reconnectReader, phase: .readerConnection,
                                message: "No Square reader is connected."))
        }
        let parameters: Square.PaymentParameters
        do {
            parameters = try paymentParameters(request, attempt: attempt, mode: mode)
        } catch {
            return ended(error)
        }
        let delegate = PaymentDelegateBridge()
        let handleBox = Locked<(any Square.PaymentHandle)?>(nil)
        return try await withTaskCancellationHandler {
            let handle = await client.paymentManager.startPayment(
                parameters, promptParameters: configuration.promptParameters, from: configuration.presentation,
                delegate: delegate)
            if let handle {
                state.handles[reference] = handle
                handleBox.withLock { $0 = handle }
                if Task.isCancelled { await requestCancel(reference: reference, handle: handle) }
            } else {
                delegate.noMoreEvents()  // the SDK reported why through didFail before returning nil
            }
            defer {
                do {
                    state.handles[reference] = nil
                    state.cancelRequested.remove(reference)
                }
            }
            return try await follow(delegate, handle: handle, request: request, attempt: attempt, mode: mode,
                                    updates: updates)
        } onCancel: {
            guard let handle = handleBox.current else { return }
            Task { await self.requestCancel(reference: reference, handle: handle) }
        }
    }

    /// Reads the delegate's callbacks until Square's answer. If the core cannot record an intermediate state, the
    /// adapter stops and rethrows, after asking Square to cancel (so that nothing is charged without a record; a
    /// payment Square can no longer cancel is reconciled by the core as an unknown outcome).
    private func follow(_ delegate: PaymentDelegateBridge, handle: (any Square.PaymentHandle)?, request: PaymentRequest,
                        attempt: PaymentAttempt, mode: Square.ProcessingMode, updates: PaymentUpdateHandler) async throws
        -> ProcessorPaymentUpdate {
        let reference = request.reference
        func record(_ state: PaymentState) async throws {
            do {
                try await updates(ProcessorPaymentUpdate(reference: reference, state: state))
            } catch {
                if let handle { await requestCancel(reference: reference, handle: handle) }
                throw error
            }
        }
        var started = false
        while let event = await delegate.next() {
            switch event {
            case .started:
                started = true
                emitter.emit(.readerInputRequested(
                    SquareMapping.inputOptions(await client.paymentManager.availableCardInputMethods)))
                try await record(.collecting)
            case .finished(let payment):
                try await record(.processing)
                return outcome(of: payment, reference: reference)
            case .failed(let payment, let error):
                return try await failure(error, payment: payment, request: request, attempt: attempt, started: started,
                                         updates: updates)
            case .canceled(let payment):
                return canceled(payment, reference: reference, mode: mode)
            }
        }
        let error = Square.PaymentError.unexpected.tenderError
        return ProcessorPaymentUpdate(reference: reference, state: attempt.continuesEarlierPayment ? .outcomeUnknown : .failed,
                                      error: error)
    }

    /// Cancels through the handle, remembering that the cancellation is the app's (not a refused card's).
    func requestCancel(reference: String, handle: any Square.PaymentHandle) async {
        state.cancelRequested.insert(reference)
        if !(await handle.cancelPayment()) { state.cancelRequested.remove(reference) }
    }

    /// Cancels the payment in progress through its `PaymentHandle` (this adapter's, or the SDK's
    /// `currentPaymentHandle` for this reference). The payment reports `canceled` when `didCancel` confirms it.
    /// - Throws: ``PaymentError/Code/unknownReference`` when no payment with this reference is in progress, or
    ///   ``PaymentError/Code/invalidState`` when Square can no longer cancel it (the card was read).
    public func cancelPayment(reference: String) async throws {
        var handle = state.handles[reference]
        if handle == nil, let current = await client.paymentManager.currentPaymentHandle,
           current.paymentParameters.referenceID == reference {
            handle = current
        }
        guard let handle else {
            throw PaymentError(.unknownReference, recovery: .none, phase: .cancellation,
                               message: "No Square payment with reference \(reference) is in progress.")
        }
        state.cancelRequested.insert(reference)
        guard await handle.cancelPayment() else {
            state.cancelRequested.remove(reference)
            throw PaymentError(.invalidState, recovery: .none, phase: .cancellation,
                               message: "Square can no longer cancel payment \(reference): the card was read; its outcome follows.",
                               vendor: .init(processor: name, name: "notCancelable"))
        }
    }

    // MARK: Capture and void

    /// Captures an approved payment (`CompletePayment`) through the app's capture service. `CompletePayment` takes no
    /// amount: it captures exactly what Square approved, so any other amount is refused before Square is called
    /// (checked against `GetPayment` when a server lookup was given). After Square's delay ran out, a `CANCEL`
    /// delay action has voided the authorization: ``PaymentError/Code/authorizationExpired``, never a retry; a
    /// `COMPLETE` one has captured it: `succeeded`. The request goes to the service unchanged (Square's
    /// `CompletePayment` itself takes no idempotency key).
    public func capturePayment(_ request: CaptureRequest) async throws -> ProcessorPaymentUpdate {
        let (reference, processorPaymentID, amount) = (request.reference, request.processorPaymentID, request.amount)
        let captured = ProcessorPaymentUpdate(reference: reference, state: .succeeded, processorPaymentID: processorPaymentID)
        if let lookup = serverLookup {
            let payment: Square.APIPayment?
            do { payment = try await lookup.payment(id: processorPaymentID) } catch { throw PaymentError(capturing: error) }
            if let payment {
                if let expired = expiry(of: payment) { throw expired }
                if payment.status == .completed { return captured }
                if let approved = SquareMapping.money(payment.totalMoney), approved != amount {
                    throw PaymentError(.invalidAmount, recovery: .fixRequest, phase: .capture,
                                       message: "Square captures exactly the approved \(approved) (CompletePayment takes no amount); \(amount) cannot be captured.")
                }
            }
        }
        do {
            try await captureService.capture(request)
        } catch {
            if let lookup = serverLookup, let payment = try? await lookup.payment(id: processorPaymentID), let expired = expiry(of: payment) {
                throw expired
            }
            throw PaymentError(capturing: error)
        }
        return captured
    }

    /// Voids an approved payment (`CancelPayment`) through the app's capture service; a payment Square already
    /// canceled (its delay ran out) is reported canceled.
    public func voidPayment(_ request: VoidRequest) async throws -> ProcessorPaymentUpdate {
        if let lookup = serverLookup, let payment = try? await lookup.payment(id: request.processorPaymentID),
           payment.status == .canceled {
            return ProcessorPaymentUpdate(reference: request.reference, state: .canceled,
                                          processorPaymentID: request.processorPaymentID, error: expiry(of: payment))
        }
        return try await captureService.voided(request)
    }

    /// ``PaymentError/Code/authorizationExpired`` when Square canceled the payment at its `delayed_until`.
    func expiry(of payment: Square.APIPayment) -> PaymentError? {
        guard payment.status == .canceled, payment.delayAction != .complete, let until = payment.delayedUntil,
              payment.updatedAt >= until else { return nil }
        return PaymentError(.authorizationExpired, recovery: .none, phase: .capture,
                            message: "Square canceled this authorization when its delay ran out (\(until)); it can no longer be captured. Take a new payment to charge the customer.",
                            vendor: .init(processor: name, name: "delay_action.CANCEL"))
    }

    // MARK: Square's answers

    private func outcome(of payment: any Square.Payment, reference: String) -> ProcessorPaymentUpdate {
        if let online = payment as? Square.OnlinePayment {
            var update = onlineUpdate(online, reference: reference)
            // A payment the SDK finished but left pending is not known to be approved.
            if update.state == .processing { update.state = .outcomeUnknown }
            return update
        }
        if let offline = payment as? Square.OfflinePayment {
            remember(offline, reference: reference)
            emitter.emit(.offlineQueueChanged)
            return offlineUpdate(offline, reference: reference)
        }
        return ProcessorPaymentUpdate(reference: reference, state: .outcomeUnknown, error: PaymentError(
            .unexpected, recovery: .retrySamePayment, phase: .processing,
            message: "Square finished the payment with an object Tender does not know; it is reconciled, not charged again."))
    }

    /// `didCancel`: the app's cancellation, the buyer's, or (without either, with a card read while offline) the
    /// reader refusing a card it cannot take offline: Interac, and swiped cards ("Interac debit always fails
    /// offline"; "the payment methods available … are limited while offline"). That is a refused card, not a
    /// cancellation: nothing was stored or charged, and another card (chip or contactless) can be taken.
    private func canceled(_ payment: any Square.Payment, reference: String, mode: Square.ProcessingMode)
        -> ProcessorPaymentUpdate {
        let requested = state.cancelRequested.contains(reference)
        if !requested, mode != .onlineOnly, let (brand, entry) = Self.cardRead(payment) {
            let message = brand == .interac
                ? "Interac debit cannot be taken offline; ask for another card, or take it once the device is online."
                : entry == .swiped
                    ? "A swiped card cannot be taken offline; insert or tap it, or ask for another card."
                    : "The reader cannot take this card offline; ask for another card."
            return ProcessorPaymentUpdate(reference: reference, state: .failed, route: .offline, error: PaymentError(
                .cardNotSupportedOffline, recovery: .collectAnotherCard, phase: .collection, message: message,
                vendor: .init(processor: name, name: "didCancel",
                              message: "\(brand.caseName) \(entry.caseName) refused offline")))
        }
        return ProcessorPaymentUpdate(reference: reference, state: .canceled, error: PaymentError(
            .canceled, recovery: .none, phase: .collection, message: "The Square payment was canceled.",
            vendor: .init(processor: name, name: "didCancel")))
    }

    private static func cardRead(_ payment: any Square.Payment) -> (Square.CardBrand, Square.CardEntryMethod)? {
        if let offline = payment as? Square.OfflinePayment, let details = offline.cardDetails {
            return (details.card?.cardBrand ?? .unknown, details.entryMethod)
        }
        if let online = payment as? Square.OnlinePayment, let details = online.cardDetails {
            return (details.card?.cardBrand ?? .unknown, details.entryMethod)
        }
        return nil
    }

    private func failure(_ error: any Error, payment: any Square.Payment, request: PaymentRequest,
                         attempt: PaymentAttempt, started: Bool, updates: PaymentUpdateHandler) async throws
        -> ProcessorPaymentUpdate {
        let reference = request.reference
        guard let squareError = error as? Square.PaymentError else {
            // A future SDK's error: the documented fallback. A payment may be in flight, so its outcome is unknown.
            let mapped = SquareErrorTable.paymentError.error(named: String(describing: error))
            return ProcessorPaymentUpdate(reference: reference, state: .outcomeUnknown, error: mapped)
        }
        let mapped = squareError.tenderError
        switch squareError {
        case .paymentAttemptIdReused, .idempotencyKeyReused:
            // The session is now reconciling with what Square holds: report it as processing first, so that
            // the payment found (succeeded, stored offline…) is a legal next state.
            if !started { try await updates(ProcessorPaymentUpdate(reference: reference, state: .processing)) }
            return try await resolveReusedAttempt(request, attempt: attempt, error: mapped)
        case .timedOut:
            return ProcessorPaymentUpdate(reference: reference, state: .outcomeUnknown,
                                          error: mapped.inPhase(started ? .processing : .creation))
        default:
            if let online = payment as? Square.OnlinePayment, online.status != .initialized {
                return onlineUpdate(online, reference: reference)
            }
            // An error after the payment started that Square says to retry (`unexpected`, `unsupportedMode` "mid-
            // payment") may have left the authorization request in flight: its outcome is unknown, and the retry
            // continues the same attempt, never a second vendor payment. Before the start, nothing was sent.
            let mayBeInFlight = started && mapped.recovery == .retrySamePayment
            return ProcessorPaymentUpdate(
                reference: reference, state: attempt.continuesEarlierPayment || mayBeInFlight ? .outcomeUnknown : .failed,
                error: mayBeInFlight ? mapped.inPhase(.processing) : mapped)
        }
    }

    /// The answer for a continued attempt whose earlier request may still reach Square: an idempotency key is stored
    /// for it (a request was made) and the late-arrival window (``Configuration/lateArrivalWindow``) has not passed
    /// since the earlier call was last recorded. `nil` when the attempt may be sent again.
    private func lateArrivalWait(_ attempt: PaymentAttempt, reference: String) async -> ProcessorPaymentUpdate? {
        guard let last = attempt.lastRecordedAt else { return nil }
        let remaining = configuration.lateArrivalWindow - clock.now().timeIntervalSince(last)
        guard remaining > 0 else { return nil }
        let attemptID = attempt.vendorAttemptID(reference: reference)
        guard await client.paymentManager.getIdempotencyKey(withPaymentAttemptId: attemptID) != nil else { return nil }
        return ProcessorPaymentUpdate(reference: reference, state: .outcomeUnknown, error: PaymentError(
            .outcomeUnknown, recovery: .waitAndRetry, phase: .reconciliation,
            message: "The earlier request of payment attempt \(attemptID) may still reach Square, which does not show it yet. It is not sent again for another \(Int(remaining.rounded(.up))) s, so that the card cannot be charged twice; then taking the same reference again finds it or sends it again."))
    }

    /// The answer for a continued offline-only attempt that Square does not hold: it cannot be stored again under
    /// the same attempt id (a stored copy could not be checked against a charge), and a new attempt starts only
    /// once the attempt is proven never stored (``offlineAttemptAbsence(_:)``, reached through the core's
    /// reconciliation before each retry). Says what to do: wait out the rest of the proof, or go online when Square's
    /// server cannot be asked.
    private func offlineRetryWait(_ attempt: PaymentAttempt, reference: String) async -> ProcessorPaymentUpdate {
        let attemptID = attempt.vendorAttemptID(reference: reference)
        if let remaining = absenceProofRemaining(attemptID) {
            let seconds = Int(max(1, remaining.rounded(.up)))
            return ProcessorPaymentUpdate(reference: reference, state: .outcomeUnknown, error: PaymentError(
                .outcomeUnknown, recovery: .waitAndRetry, phase: .reconciliation,
                message: "Square's offline queue does not hold the earlier offline attempt \(attemptID) and its server shows nothing of it. Tender waits another \(seconds) s to be sure it was never stored (a payment Square processed and removed from the device takes a while to appear in its search); then taking \(reference) again starts a new payment."))
        }
        let why = serverLookup == nil ? "no server lookup is configured, so Square's server cannot confirm it"
            : "Square's server must confirm it, and cannot be asked now"
        return ProcessorPaymentUpdate(reference: reference, state: .outcomeUnknown, error: PaymentError(
            .outcomeUnknown, recovery: .goOnline, phase: .reconciliation,
            message: "The earlier offline attempt \(attemptID) may have been stored by Square; it is not stored a second time. Whether it was stored is proven from Square's queue and server, and \(why): try again when the device is online."))
    }

    /// Square refused the attempt id: a payment exists under it. Find it; never charge again. A payment found for a
    /// different amount means the reference was used for another sale: that is not this payment's outcome.
    private func resolveReusedAttempt(_ request: PaymentRequest, attempt: PaymentAttempt, error: PaymentError)
        async throws -> ProcessorPaymentUpdate {
        let reference = request.reference
        let query = PaymentLookupQuery(reference: reference, paymentAttempt: attempt.paymentAttempt,
                                       localID: attempt.localID, processorPaymentID: attempt.processorPaymentID,
                                       recordedState: .processing, captureMode: request.captureMode,
                                       idScope: attempt.idScope)
        guard let (found, amount) = await paymentHeld(query) else {
            return ProcessorPaymentUpdate(reference: reference, state: .outcomeUnknown, error: PaymentError(
                .outcomeUnknown, recovery: .waitAndRetry, phase: .reconciliation,
                message: "Square already holds payment attempt \(query.vendorAttemptID), but its search does not show it yet. It is not charged again; reconciliation will find it.",
                vendor: error.vendor))
        }
        if let total = try? request.total(), let amount, amount != total {
            return ProcessorPaymentUpdate(reference: reference, state: .outcomeUnknown, error: PaymentError(
                .duplicateReference, recovery: .fixRequest, phase: .creation,
                message: "Square already holds a payment of \(amount) for reference \(reference), not \(total); it was not charged again. Use a new reference for a new sale.",
                vendor: error.vendor))
        }
        return found
    }

    /// Reports `processing` first when the found state cannot follow `previous` directly.
    private func report(_ found: ProcessorPaymentUpdate, after previous: PaymentState,
                        updates: PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate {
        if previous != found.state, !PaymentStateMachine.canTransition(from: previous, to: found.state),
           PaymentStateMachine.canTransition(from: previous, to: .processing) {
            try await updates(ProcessorPaymentUpdate(reference: found.reference, state: .processing))
        }
        return found
    }

    private func paymentParameters(_ request: PaymentRequest, attempt: PaymentAttempt, mode: Square.ProcessingMode)
        throws(PaymentError) -> Square.PaymentParameters {
        var parameters = Square.PaymentParameters(
            paymentAttemptID: attempt.vendorAttemptID(reference: request.reference),
            amountMoney: try SquareMapping.squareMoney(request.amount), processingMode: mode)
        if let tip = request.tip { parameters.tipMoney = try SquareMapping.squareMoney(tip) }
        parameters.referenceID = request.reference
        parameters.note = request.note
        // A surcharge would make the amount charged differ from the amount recorded: Tender turns it off.
        parameters.allowCardSurcharge = false
        parameters.autocomplete = request.captureMode == .automatic
        if request.captureMode == .manual {
            parameters.delayDuration = configuration.delayDuration
            parameters.delayAction = configuration.delayAction
        }
        return parameters
    }
}
