import Foundation
import Tender
package import TenderStripe

extension StripeSimulator {
    /// `createPaymentIntent(_:createConfig:)`: online when the offline behaviour and the network allow, otherwise a
    /// local intent with a nil `stripeId`.
    package func createPaymentIntent(_ parameters: Stripe.PaymentIntentParameters,
                                    createConfig: Stripe.CreateConfiguration?) async throws(Stripe.ErrorCode)
        -> Stripe.PaymentIntent {
        await runDueWork()
        normalize()
        guard parameters.amount > 0 else {
            throw Stripe.ErrorCode(.invalidAmount, message: "Amount not supported by reader.")
        }
        guard parameters.currency.count == 3, parameters.currency == parameters.currency.lowercased() else {
            throw Stripe.ErrorCode(.invalidCurrency, message: "Currency not supported.")
        }
        let behavior = createConfig?.offlineBehavior ?? .preferOnline
        if behavior == .forceOffline {
            guard configuration.offlineEnabled else {
                throw Stripe.ErrorCode(.offlineBehaviorForceOfflineWithFeatureDisabled,
                                       message: "The reader or location is not configured to operate offline.")
            }
            return try createLocal(parameters, behavior: behavior)
        }
        switch attemptRequest() {
        case .reached:
            // Stripe's API refuses more than eight digits of the currency's smallest unit.
            guard parameters.amount <= UInt(StripeProcessor.maximumAmountMinorUnits) else {
                throw Stripe.ErrorCode(.stripeAPIError, message: "Amount must be no more than 99999999.",
                                       apiError: Stripe.ApiError(type: "invalid_request_error", code: "amount_too_large",
                                                                 message: "Amount must be no more than 99999999."))
            }
            let server = createOnServer(parameters)
            log("created \(server.stripeId ?? "") online")
            return handOut(server, behavior: behavior)
        case .failedFast, .timedOut:
            if behavior == .requireOnline {
                throw Stripe.ErrorCode(.notConnectedToInternetAndOfflineBehaviorRequireOnline,
                                       message: "The device is offline and the PaymentIntent requires online.")
            }
            guard configuration.offlineEnabled else { throw Self.offlineError() }
            return try createLocal(parameters, behavior: behavior)
        }
    }

    /// `retrievePaymentIntent(clientSecret:)`: a new SDK object for an intent Stripe holds.
    package func retrievePaymentIntent(clientSecret: String) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        await runDueWork()
        guard attemptRequest() == .reached else { throw Self.offlineError() }
        guard let server = state.serverIntents.first(where: { $0.clientSecret == clientSecret }) else {
            throw Stripe.ErrorCode(.invalidClientSecret, message: "No PaymentIntent has this client secret.")
        }
        return handOut(server, behavior: .preferOnline)
    }

    /// `collectPaymentMethod(_:collectConfig:completion:)`: prompts through the reader delegate, then reads the
    /// simulated card (at once, or when ``presentCard()`` is called). Offline the reader offers insert and tap only.
    /// The tip (`simulatedTipAmount`) is added unless `skipTipping` is set or the reader has no tip screen.
    package func collectPaymentMethod(_ paymentIntent: Stripe.PaymentIntent,
                                     collectConfig: Stripe.CollectPaymentIntentConfiguration?,
                                     completion: @escaping @Sendable (Stripe.PaymentIntent?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await runDueWork()
        normalize()
        let cancelable = SimulatedCancelable()
        let once = OneShot<(Stripe.PaymentIntent?, Stripe.ErrorCode?)> { completion($0.0, $0.1) }
        func fail(_ code: Stripe.ErrorCode.Code, _ message: String) -> (any Stripe.Cancelable)? {
            cancelable.markCompleted()
            once.fire((nil, Stripe.ErrorCode(code, message: message)))
            return cancelable
        }
        guard let handle = paymentIntent.sdkHandle, var local = localIntents[handle] else {
            return fail(.confirmInvalidPaymentIntent, "The PaymentIntent is not one this SDK handed out.")
        }
        guard let current = connection, currentConnectionStatus == .connected else {
            return fail(.notConnectedToReader, "No reader is connected.")
        }
        guard currentPaymentStatus == .ready else { return fail(.readerBusy, "The reader is busy.") }
        guard local.intent.status == .requiresPaymentMethod else {
            return fail(.confirmInvalidPaymentIntent, "The PaymentIntent cannot collect a payment method now.")
        }
        let config = collectConfig ?? .init()
        if config.updatePaymentIntent, local.intent.stripeId == nil {
            return fail(Stripe.ErrorCode.Code("updatePaymentIntentUnavailableWhileOffline"),
                        "updatePaymentIntent is not available for a PaymentIntent created offline.")
        }
        // A tip is collected only on a reader with a tip screen (the adapter's feature table: the smart readers and
        // WisePad 3). What the SDK does with `skipTipping: false` on another model is not in the reference
        // (UNVERIFIED): the simulator collects no tip there, as such a reader cannot show the prompt.
        let tips = !config.skipTipping && current.reader.deviceType.features.contains(.onReaderTipping)
        // The reader keeps the chosen tip until confirmation. Stripe documents `amountTip` as "only non-null in the
        // PaymentIntent instance returned during collect when using updatePaymentIntent set to true".
        local.tip = tips ? configuration.simulatedTipAmount : nil
        local.intent.amountTip = config.updatePaymentIntent ? local.tip : nil
        local.collectedOnline = local.intent.stripeId != nil && network.reportedStatus == .online
        localIntents[handle] = local
        setPaymentStatus(.waitingForInput)
        let offline = local.intent.stripeId == nil || network.reportedStatus == .offline
        current.delegate?.didRequestReaderInput(offline ? [.insertCard, .tapCard] : [.swipeCard, .insertCard, .tapCard])
        if configuration.cardPresentation == .waitForPresentCard || holdNextCard {
            holdNextCard = false
            pendingCollection = PendingCollection(handle: handle, cancelable: cancelable, completion: once)
            let intent = local.intent
            cancelable.setCancelAction {
                once.fire((nil, Stripe.ErrorCode(.canceled, message: "collectPaymentMethod was canceled.",
                                                 paymentIntent: intent)))
                return nil
            }
        } else {
            finishCollection(handle: handle, completion: once, cancelable: cancelable)
        }
        return cancelable
    }

    /// `confirmPaymentIntent(_:confirmConfig:completion:)`: authorizes online, or stores offline (an offline-created
    /// intent, or a `preferOnline` one when the network fails), following the documented failure rules. A held
    /// confirmation (``Fault/holdNextAuthorization``) answers when released.
    package func confirmPaymentIntent(_ paymentIntent: Stripe.PaymentIntent,
                                     confirmConfig: Stripe.ConfirmPaymentIntentConfiguration?,
                                     completion: @escaping @Sendable (Stripe.PaymentIntent?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await runDueWork()
        normalize()
        let cancelable = SimulatedCancelable()
        let once = OneShot<(Stripe.PaymentIntent?, Stripe.ErrorCode?)> { completion($0.0, $0.1) }
        guard let handle = paymentIntent.sdkHandle, let local = localIntents[handle] else {
            cancelable.markCompleted()
            if let handle = paymentIntent.sdkHandle, liveStoredHandles.contains(handle),
               let stored = state.storedPayments.first(where: { $0.intent.sdkHandle == handle }) {
                once.fire((stored.intent, nil))
            } else {
                once.fire((nil, Stripe.ErrorCode(.confirmInvalidPaymentIntent,
                                                 message: "Unknown PaymentIntent: not one this SDK handed out.",
                                                 paymentIntent: paymentIntent)))
            }
            return cancelable
        }
        guard pendingConfirm == nil else {
            cancelable.markCompleted()
            once.fire((nil, Stripe.ErrorCode(.readerBusy, message: "The reader is busy.", paymentIntent: local.intent)))
            return cancelable
        }
        if takeFault(.holdNextAuthorization) {
            setPaymentStatus(.processing)
            pendingConfirm = PendingConfirm(local: local, cancelable: cancelable, completion: once)
            cancelable.setCancelAction {
                Stripe.ErrorCode(.cancelFailedUnavailable, message: "The confirmation was already sent to Stripe.")
            }
            return cancelable
        }
        let (intent, error) = process(local)
        cancelable.markCompleted()
        once.fire((intent, error))
        return cancelable
    }

    /// `cancelPaymentIntent`. A payment stored for forwarding cannot be canceled.
    package func cancelPaymentIntent(_ paymentIntent: Stripe.PaymentIntent) async throws(Stripe.ErrorCode)
        -> Stripe.PaymentIntent {
        await runDueWork()
        normalize()
        guard let handle = paymentIntent.sdkHandle, var local = localIntents[handle] else {
            throw Stripe.ErrorCode(.unexpectedOperationError,
                                   message: "The PaymentIntent is stored for forwarding or unknown; it cannot be canceled.",
                                   paymentIntent: paymentIntent)
        }
        if let stripeId = local.intent.stripeId {
            guard attemptRequest() == .reached else { throw Self.offlineError(local.intent) }
            do {
                local.intent = try cancelOnServer(stripeId: stripeId, reason: "requested_by_customer").withHandle(handle)
            } catch {
                throw Stripe.ErrorCode(.stripeAPIError, message: "\(error)", paymentIntent: local.intent,
                                       apiError: Stripe.ApiError(code: "payment_intent_unexpected_state"))
            }
        } else {
            local.intent.status = .canceled
            local.intent.canceledAt = clock.now()
        }
        local.card = nil
        localIntents[handle] = local
        return local.intent
    }

    // MARK: - Internals

    /// A new SDK object for `intent`, with a fresh handle.
    func handOut(_ intent: Stripe.PaymentIntent, behavior: Stripe.OfflineBehavior) -> Stripe.PaymentIntent {
        let object = intent.withHandle(nextID("sdkobj_"))
        localIntents[object.sdkHandle!] = LocalIntent(intent: object, behavior: behavior)
        return object
    }

    private func createLocal(_ parameters: Stripe.PaymentIntentParameters, behavior: Stripe.OfflineBehavior)
        throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        guard connection != nil else {
            throw Stripe.ErrorCode(.notConnectedToReader, message: "An offline PaymentIntent needs a connected reader.")
        }
        let intent = Stripe.PaymentIntent(
            sdkHandle: nil, stripeId: nil, status: .requiresPaymentMethod, amount: parameters.amount,
            currency: parameters.currency, captureMethod: parameters.captureMethod, created: clock.now(),
            metadata: parameters.metadata)
        log("created a PaymentIntent offline")
        return handOut(intent, behavior: behavior)
    }

    func finishCollection(handle: String, completion: OneShot<(Stripe.PaymentIntent?, Stripe.ErrorCode?)>,
                          cancelable: SimulatedCancelable) {
        cancelable.markCompleted()
        guard var local = localIntents[handle] else { return }
        let delegate = connection?.delegate
        if let failure = nextCollectionFailure {
            nextCollectionFailure = nil
            setPaymentStatus(.ready)
            delegate?.didRequestReaderDisplayMessage(.tryAnotherReadMethod)
            completion.fire((nil, Stripe.ErrorCode(failure, message: "The card could not be read.",
                                                   paymentIntent: local.intent)))
            return
        }
        let readMethod = configuration.simulatedReadMethod
        if readMethod == .contactEMV { delegate?.didReportReaderEvent(.cardInserted) }
        local.card = configuration.simulatedCard
        local.readMethod = readMethod
        local.intent.status = .requiresConfirmation
        localIntents[handle] = local
        if readMethod == .contactEMV {
            delegate?.didRequestReaderDisplayMessage(.removeCard)
            delegate?.didReportReaderEvent(.cardRemoved)
        }
        setPaymentStatus(.ready)
        completion.fire((local.intent, nil))
    }

    /// What a confirmation does: the SDK's checks, then Stripe online or the offline store.
    func process(_ original: LocalIntent, takingFaults: Bool = true) -> (Stripe.PaymentIntent?, Stripe.ErrorCode?) {
        guard let handle = original.intent.sdkHandle else { return (nil, Self.offlineError()) }
        let alive = localIntents[handle] != nil
        var local = localIntents[handle] ?? original
        if local.intent.status == .requiresCapture || local.intent.status == .succeeded { return (local.intent, nil) }
        guard local.intent.status == .requiresConfirmation, let card = local.card else {
            return (nil, Stripe.ErrorCode(.confirmInvalidPaymentIntent,
                                          message: "The PaymentIntent is \(local.intent.status.rawValue), not requiresConfirmation.",
                                          paymentIntent: local.intent))
        }
        guard !alive || (connection != nil && currentConnectionStatus == .connected) else {
            return (nil, Stripe.ErrorCode(.notConnectedToReader, message: "No reader is connected.",
                                          paymentIntent: local.intent))
        }
        setPaymentStatus(.processing)
        defer { setPaymentStatus(connection == nil ? .notReady : .ready) }
        guard let stripeId = local.intent.stripeId else { return confirmOffline(&local, card: card) }
        let fault = takingFaults ? takeConfirmationFault() : nil
        switch fault.map({ _ in RequestOutcome.timedOut }) ?? attemptRequest() {
        case .reached:
            return confirmOnline(&local, stripeId: stripeId, card: card)
        case .failedFast:
            if local.behavior == .preferOnline, configuration.offlineEnabled {
                if local.collectedOnline, configuration.collectOnlineConfirmOfflineMismatch {
                    return recollect(&local, .offlineCollectAndConfirmMismatch,
                                     "The card was collected online but the payment is being confirmed offline; "
                                         + "retry collectPaymentMethod.")
                }
                return confirmOffline(&local, card: card)
            }
            let code: Stripe.ErrorCode.Code = local.behavior == .requireOnline
                ? .notConnectedToInternetAndOfflineBehaviorRequireOnline : .notConnectedToInternet
            return (nil, Stripe.ErrorCode(code, message: "The SDK is not connected to the internet.",
                                          paymentIntent: local.intent))
        case .timedOut:
            let charged = fault == .answerLostAfterCharge
                || (fault == nil && configuration.timeoutOutcome == .processedResponseLost)
            if charged {
                _ = authorizeOnServer(local.intent, tip: local.tip, stripeId: stripeId, card: card,
                                      readMethod: local.readMethod)
            }
            log("confirm \(stripeId) timed out (\(charged ? "processed, answer lost" : "never received"))")
            return (nil, Stripe.ErrorCode(.requestTimedOut, message: "The request timed out."))
        }
    }

    /// Puts the intent back to `requiresPaymentMethod` (the SDK's offline refusals) and returns the error.
    func recollect(_ local: inout LocalIntent, _ code: Stripe.ErrorCode.Code, _ message: String,
                   offlineDeclineReason: String? = nil) -> (Stripe.PaymentIntent?, Stripe.ErrorCode?) {
        local.intent.status = .requiresPaymentMethod
        local.card = nil
        if let handle = local.intent.sdkHandle, localIntents[handle] != nil { localIntents[handle] = local }
        return (nil, Stripe.ErrorCode(code, message: message, offlineDeclineReason: offlineDeclineReason,
                                      paymentIntent: local.intent))
    }

    private func confirmOnline(_ local: inout LocalIntent, stripeId: String, card: Stripe.SimulatedCardType)
        -> (Stripe.PaymentIntent?, Stripe.ErrorCode?) {
        let handle = local.intent.sdkHandle
        let outcome = authorizeOnServer(local.intent, tip: local.tip, stripeId: stripeId, card: card,
                                        readMethod: local.readMethod)
        local.intent = outcome.intent.withHandle(handle)
        local.card = nil
        if let handle, localIntents[handle] != nil { localIntents[handle] = local }
        if let error = outcome.error {
            var error = error
            error.paymentIntent = local.intent
            return (nil, error)
        }
        return (local.intent, nil)
    }

    /// Receipt details for a simulated card.
    func cardPresentDetails(_ card: Stripe.SimulatedCardType, readMethod: Stripe.ReadMethod,
                            online: Bool) -> Stripe.CardPresentDetails {
        let aid: String = switch card.brand {
        case .visa: "A0000000031010"
        case .masterCard: "A0000000041010"
        case .amex: "A000000025010801"
        case .interac: "A0000002771010"
        default: "A0000001523010"
        }
        let receipt = Stripe.ReceiptDetails(
            accountType: online ? "credit" : nil, applicationPreferredName: "\(card.brand.rawValue.uppercased()) CREDIT",
            dedicatedFileName: aid, authorizationCode: online ? "123456" : nil,
            authorizationResponseCode: online ? "3030" : nil, applicationCryptogram: "3F1A2B3C4D5E6F70",
            terminalVerificationResults: "0000008000", transactionStatusInformation: "E800",
            cardholderVerificationMethod: card == .offlinePinCvm ? "offline_pin" : "signature")
        return Stripe.CardPresentDetails(brand: card.brand, last4: card.last4, expMonth: card.expiry.month,
                                         expYear: card.expiry.year, readMethod: readMethod, receiptDetails: receipt)
    }
}

extension Stripe.PaymentIntent {
    /// The same intent as another SDK object (or a server copy, with nil).
    func withHandle(_ handle: String?) -> Stripe.PaymentIntent {
        var copy = self
        copy.sdkHandle = handle
        return copy
    }
}
