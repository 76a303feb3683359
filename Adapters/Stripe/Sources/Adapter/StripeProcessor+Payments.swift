import Foundation
public import Tender

extension StripeProcessor {
    /// An SDK object the processor holds for a reference's current vendor payment.
    struct HeldIntent: Sendable {
        /// The vendor payment (``PaymentAttempt/paymentAttempt``) the intent belongs to.
        var paymentAttempt: Int
        /// The intent as the SDK last handed it out (its ``Stripe/PaymentIntent/sdkHandle`` is valid this launch).
        var intent: Stripe.PaymentIntent
        /// A confirmation was sent and its answer never came (nil intent, or a crash while waiting).
        var confirmOutcomeUnknown = false
        /// The collection or confirmation in flight.
        var inFlight: (any Stripe.Cancelable)?
    }

    /// Creates (or continues) the vendor payment's PaymentIntent, collects, confirms. See ``PaymentProcessor``.
    ///
    /// The routing decision becomes the `CreateConfiguration`'s offline behaviour (`.online` → `requireOnline`,
    /// `.onlineWithOfflineFallback` → `preferOnline`, `.offline` → `forceOffline`); a refused decision returns
    /// ``PaymentState/failed`` without calling Stripe. An app-entered tip is added to the intent's amount; Stripe's
    /// on-reader tipping runs only when the request asks for it (``PaymentRequest/tipEligibleAmount``, as the
    /// `tippingConfiguration`'s eligible amount; otherwise `skipTipping`). A confirmation failure follows Stripe's table
    /// (``StripeMapping/ConfirmFailure``): a nil intent or `requiresConfirmation` is not final
    /// (``PaymentState/outcomeUnknown``: the retry confirms the same intent), `requiresPaymentMethod` is a decline or
    /// a refusal (nothing charged), and an intent Stripe already acted on is reported as what it is.
    ///
    /// If the task running it is cancelled, the command in flight is canceled through its `Cancelable`; the payment
    /// ends ``PaymentState/canceled`` only when Stripe confirms, otherwise the SDK's real answer is awaited.
    public func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                             updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate {
        let reference = request.reference
        cancelRequested.remove(reference)
        guard let behavior = StripeMapping.offlineBehavior(routing) else {
            if case .refused(let error) = routing { return ended(reference, .failed, error) }
            return ended(reference, .failed, PaymentError(.invalidRequest, recovery: .fixRequest, phase: .routing,
                                                          message: "The payment was not routed."))
        }
        var intent: Stripe.PaymentIntent
        // With an on-reader tip the intent's total is not known in advance (the customer's tip is added to it): the
        // earlier intent is then matched by reference and attempt, and the core checks the total it reports.
        let total = request.tipEligibleAmount == nil ? try? request.total() : nil
        switch await continuation(of: reference, attempt: attempt, total: total) {
        case .report(let update):
            return update
        case .resume(let existing):
            intent = existing
        case .start:
            do {
                // Every attempt is tagged with its location: the attempt's id scope, or for a session recorded before
                // ledger schema 6 (no id scope), the terminal's (issue 28).
                intent = try await create(request, paymentAttempt: attempt.paymentAttempt,
                                          location: (attempt.idScope ?? attempt.scope)?.locationID,
                                          behavior: behavior)
            } catch let error as Stripe.ErrorCode {
                return ended(reference, .failed, StripeMapping.definiteFailure(
                    StripeMapping.paymentError(error, phase: .creation)))
            } catch {
                return ended(reference, .failed, (error as? PaymentError) ?? PaymentError(
                    .invalidRequest, recovery: .fixRequest, phase: .creation, message: "\(error)"))
            }
        }

        if intent.status == .requiresPaymentMethod {
            try await updates(ProcessorPaymentUpdate(reference: reference, state: .collecting,
                                                     route: intent.stripeId == nil ? .offline : .online,
                                                     processorPaymentID: intent.stripeId))
            if let stopped = await stopIfCanceled(reference) { return stopped }
            let (collected, error) = await run(reference) { done in
                await client.collectPaymentMethod(intent, collectConfig: Self.collectConfiguration(request),
                                                  completion: { done.resume(($0, $1)) })
            }
            guard let collected, error == nil else { return collectionFailed(reference, error) }
            intent = collected
            held[reference]?.intent = collected
        }
        try await updates(ProcessorPaymentUpdate(reference: reference, state: .processing,
                                                 processorPaymentID: intent.stripeId))
        if let stopped = await stopIfCanceled(reference) { return stopped }
        return await confirm(intent, reference: reference)
    }

    /// Cancels the command in flight for `reference` through its `Cancelable`, or its PaymentIntent between steps.
    /// A confirmation already on its way to Stripe cannot be canceled: this throws and the payment's real outcome is
    /// still reported.
    public func cancelPayment(reference: String) async throws {
        guard let current = held[reference] else {
            throw PaymentError(.unknownReference, recovery: .none, phase: .cancellation,
                               message: "No Stripe payment is in progress for \(reference).")
        }
        if let inFlight = current.inFlight {
            if let error = await inFlight.cancel() { throw StripeMapping.paymentError(error, phase: .cancellation) }
            return
        }
        let intent = current.intent
        guard !current.confirmOutcomeUnknown,
              intent.status == .requiresPaymentMethod || intent.status == .requiresConfirmation else {
            throw PaymentError(.invalidState, recovery: .none, phase: .cancellation,
                               message: "The PaymentIntent is \(intent.status.rawValue) and can no longer be canceled here.")
        }
        do {
            held[reference]?.intent = try await client.cancelPaymentIntent(intent)
            cancelRequested.insert(reference)
        } catch {
            throw StripeMapping.paymentError(error, phase: .cancellation)
        }
    }

    /// Captures through the app's service. Refused without calling it while the payment is stored and not forwarded
    /// (Stripe's "ready to capture" rule) or when Stripe wants the authorization renewed; a failure is explained
    /// from Stripe's copy when the app's server can be asked (an expired authorization is never advised a retry).
    /// The request, with the core's idempotency key, goes to the service unchanged.
    public func capturePayment(_ request: CaptureRequest) async throws -> ProcessorPaymentUpdate {
        let reference = request.reference
        let processorPaymentID = request.processorPaymentID
        let queued = bridge.queuedPayment(reference)
        let known = bridge.latestForwardedIntent(reference) ?? held[reference]?.intent
        if queued?.status == .stored || (queued == nil && known?.offlineDetails?.requiresUpload == true) {
            throw PaymentError(.invalidState, recovery: .waitAndRetry, phase: .capture,
                               message: "The payment is stored offline and not forwarded yet; capture it after forwarding.")
        }
        if known?.status == .requiresReauthorization, let error = StripeMapping.update(for: known!, reference: reference).error {
            throw error
        }
        do {
            let update = try await captureService.captured(request)
            held[reference] = nil
            return update
        } catch {
            guard error.code != .authorizationExpired, error.code != .reauthorizationRequired,
                  let serverLookup, let intent = try? await serverLookup.paymentIntent(id: processorPaymentID),
                  let explained = StripeMapping.update(for: intent, reference: reference).error else { throw error }
            throw explained
        }
    }

    /// Voids through the app's service, with the core's idempotency key unchanged.
    public func voidPayment(_ request: VoidRequest) async throws -> ProcessorPaymentUpdate {
        let update = try await captureService.voided(request)
        held[request.reference] = nil
        return update
    }

    // MARK: - Steps

    private func create(_ request: PaymentRequest, paymentAttempt: Int, location: String?,
                        behavior: Stripe.OfflineBehavior) async throws -> Stripe.PaymentIntent {
        let amount = try request.total().unsignedMinorUnits()
        var metadata = request.metadata
        metadata[StripeMapping.referenceMetadataKey] = request.reference
        metadata[StripeMapping.attemptMetadataKey] = String(paymentAttempt)
        // The location the payment is taken at: the server's routes let only that location's devices act on it
        // (Stripe's intents record no location of their own).
        if let location { metadata[StripeMapping.locationMetadataKey] = location }
        if behavior == .requireOnline { metadata[StripeMapping.onlineOnlyMetadataKey] = "true" }
        // Seed 002: Interac (Canada) needs `interac_present` next to `card_present`.
        let types: [Stripe.PaymentMethodType] = request.amount.currency == .cad ? [.cardPresent, .interacPresent]
            : [.cardPresent]
        let parameters = Stripe.PaymentIntentParameters(
            amount: amount, currency: request.amount.currency.lowercasedCode, paymentMethodTypes: types,
            captureMethod: StripeMapping.captureMethod(request.captureMode), metadata: metadata,
            stripeDescription: request.note)
        let intent = try await client.createPaymentIntent(parameters,
                                                          createConfig: Stripe.CreateConfiguration(offlineBehavior: behavior))
        held[request.reference] = HeldIntent(paymentAttempt: paymentAttempt, intent: intent)
        return intent
    }

    /// `skipTipping` unless the request asks for an on-reader tip, then the tipping configuration's eligible amount.
    static func collectConfiguration(_ request: PaymentRequest) -> Stripe.CollectPaymentIntentConfiguration {
        guard let eligible = request.tipEligibleAmount else { return .init(skipTipping: true) }
        return .init(skipTipping: false, tippingConfiguration: .init(eligibleAmount: Int(eligible.minorUnits)))
    }

    private func collectionFailed(_ reference: String, _ error: Stripe.ErrorCode?) -> ProcessorPaymentUpdate {
        let error = error ?? Stripe.ErrorCode(Stripe.ErrorCode.Code("unexpectedSdkError"),
                                              message: "collectPaymentMethod completed with neither intent nor error.")
        if let updated = error.paymentIntent, updated.sdkHandle != nil { held[reference]?.intent = updated }
        let mapped = StripeMapping.paymentError(error, phase: .collection)
        let id = held[reference]?.intent.stripeId
        if mapped.code == .canceled { return ended(reference, .canceled, mapped, processorPaymentID: id) }
        return ended(reference, .failed, StripeMapping.definiteFailure(mapped), processorPaymentID: id)
    }

    /// Confirms `intent` and reports what Stripe said, following Stripe's processing-failure table.
    func confirm(_ intent: Stripe.PaymentIntent, reference: String) async -> ProcessorPaymentUpdate {
        let earlierConfirmUnknown = held[reference]?.confirmOutcomeUnknown ?? false
        held[reference]?.confirmOutcomeUnknown = true
        let (confirmed, answer) = await run(reference) { done in
            await client.confirmPaymentIntent(intent, confirmConfig: nil, completion: { done.resume(($0, $1)) })
        }
        held[reference]?.confirmOutcomeUnknown = false
        if let confirmed, answer == nil { return reported(confirmed, reference: reference) }
        let error = answer ?? Stripe.ErrorCode(Stripe.ErrorCode.Code("unexpectedSdkError"),
                                              message: "confirmPaymentIntent completed with neither intent nor error.")
        if error.code == .canceled {
            // The SDK canceled the command before it left the device: nothing was sent to Stripe.
            if let updated = error.paymentIntent { held[reference]?.intent = updated }
            return ended(reference, .canceled, StripeMapping.paymentError(error, phase: .cancellation),
                         processorPaymentID: intent.stripeId)
        }
        switch StripeMapping.confirmFailure(error) {
        case .outcomeUnknown:
            held[reference]?.confirmOutcomeUnknown = true
            return ended(reference, .outcomeUnknown, StripeMapping.pendingConfirmError(error),
                         processorPaymentID: intent.stripeId)
        case .retryConfirm(let updated), .inFlight(let updated):
            held[reference]?.intent = updated
            // Only a request that never left the device is known not to have reached Stripe; after any other
            // failure the retry asks Stripe first and confirms again only online (never a second authorization).
            held[reference]?.confirmOutcomeUnknown = !StripeMapping.neverSentErrors.contains(error.code.name)
            return ended(reference, .outcomeUnknown, StripeMapping.pendingConfirmError(error),
                         processorPaymentID: updated.stripeId ?? intent.stripeId)
        case .notRun(let updated):
            // Whether an earlier confirmation is still on its way stays as it was: the retry asks Stripe first.
            held[reference]?.intent = updated
            held[reference]?.confirmOutcomeUnknown = earlierConfirmUnknown
            return ended(reference, .outcomeUnknown, StripeMapping.pendingConfirmError(error),
                         processorPaymentID: updated.stripeId ?? intent.stripeId)
        case .refused(let updated):
            held[reference]?.intent = updated
            return ended(reference, .failed, StripeMapping.definiteFailure(StripeMapping.paymentError(error, phase: .processing)),
                         processorPaymentID: updated.stripeId ?? intent.stripeId)
        case .collectAgain(let updated):
            held[reference]?.intent = updated
            var mapped = StripeMapping.paymentError(error, phase: .processing)
            let declined = mapped.code == .cardDeclined || mapped.code == .cardExpired
            if declined { mapped.recovery = .collectAnotherCard } else { mapped = StripeMapping.definiteFailure(mapped) }
            return ended(reference, declined ? .declined : .failed, mapped,
                         processorPaymentID: updated.stripeId ?? intent.stripeId)
        case .alreadyFinal(let updated):
            return reported(updated, reference: reference)
        }
    }

    /// Reports what a confirmed intent says, keeping what the next steps need (stored payments for the queue,
    /// declines and cancellations for ``abandonPayment(_:)``).
    func reported(_ intent: Stripe.PaymentIntent, reference: String) -> ProcessorPaymentUpdate {
        let update = StripeMapping.update(for: intent, reference: reference)
        if intent.sdkHandle != nil { held[reference]?.intent = intent }
        if update.state == .storedOffline { bridge.trackStored(reference: reference, intent: intent) }
        if update.state == .succeeded || update.state == .authorized { held[reference] = nil }
        return outcome(update)
    }

    /// Starts an SDK command that answers through a completion and returns a `Cancelable`, and waits for the
    /// answer. Waiting ignores task cancellation: a cancelled task cancels the command through its `Cancelable` and
    /// keeps waiting for what the SDK then says (canceled, or the command's real outcome).
    func run<A: Sendable, B: Sendable>(
        _ reference: String,
        _ start: (CallbackResult<(A?, B?)>) async -> (any Stripe.Cancelable)?
    ) async -> (A?, B?) {
        let done = CallbackResult<(A?, B?)>()
        let cancelable = await start(done)
        held[reference]?.inFlight = cancelable
        let answer = await withTaskCancellationHandler {
            await done.value
        } onCancel: {
            cancelable?.cancel { _ in }
        }
        held[reference]?.inFlight = nil
        return answer
    }

    /// Between two steps: the outcome when the payment was canceled (``cancelPayment(reference:)`` canceled the
    /// intent, or the task was cancelled and Stripe confirms the intent's cancellation), else nil to go on.
    private func stopIfCanceled(_ reference: String) async -> ProcessorPaymentUpdate? {
        let canceledByCall = cancelRequested.remove(reference) != nil
        guard canceledByCall || Task.isCancelled, let intent = held[reference]?.intent else { return nil }
        if canceledByCall || intent.status == .canceled {
            return ended(reference, .canceled, Self.canceledError, processorPaymentID: intent.stripeId)
        }
        do {
            let canceled = try await client.cancelPaymentIntent(intent)
            held[reference]?.intent = canceled
            return ended(reference, .canceled, Self.canceledError, processorPaymentID: canceled.stripeId)
        } catch {
            var mapped = StripeMapping.paymentError(error, phase: .cancellation)
            mapped.message = "The payment was abandoned before it was confirmed; nothing was charged. Stripe could "
                + "not cancel the PaymentIntent now (\(error.message)); it is canceled when the payment is abandoned."
            return ended(reference, .failed, mapped, processorPaymentID: intent.stripeId)
        }
    }

    static var canceledError: PaymentError {
        Stripe.errorTable.error(named: Stripe.ErrorCode.Code.canceled.name, numericCode: 2020,
                                vendorMessage: "The PaymentIntent was canceled.", phase: .cancellation)
    }

    /// An update ending the in-person part with `state`.
    func ended(_ reference: String, _ state: PaymentState, _ error: PaymentError,
               processorPaymentID: String? = nil) -> ProcessorPaymentUpdate {
        ProcessorPaymentUpdate(reference: reference, state: state, processorPaymentID: processorPaymentID, error: error)
    }
}
