package import Foundation
package import Tender
package import TenderStripe

/// Stripe's servers as the app's backend reaches them over the simulated network: the seams a server product
/// implements (``StripeServerLookup``, ``PaymentCaptureService``, ``PaymentRefundService``), over a
/// ``StripeSimulator``'s processor-side state. Search lags (``Stripe/SimulatorConfiguration/searchLag``); retrieving by
/// id is consistent. Every call fails when the device's network does not let the request through.
package struct StripeSimulatorServer: StripeServerLookup, PaymentCaptureService, PaymentRefundService {
    /// The simulator whose servers these are.
    package let simulator: StripeSimulator

    /// An error from Stripe's API, as the app's server relays it.
    package struct APIError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Stripe's error code, e.g. `payment_intent_unexpected_state`, `amount_too_large`, `charge_already_refunded`.
        package var code: String
        /// The message.
        package var message: String
        /// `code: message`.
        package var description: String { "\(code): \(message)" }
    }

    /// The app's server cannot reach Stripe (the device's network is down).
    package struct Unreachable: Error, Hashable, Sendable {}

    // MARK: StripeServerLookup

    /// `GET /v1/payment_intents/search`: the intents with this metadata, as the (lagging) index has them.
    package func paymentIntents(metadataKey key: String, value: String) async throws -> [Stripe.PaymentIntent] {
        try await simulator.serverCall { $0.search(metadataKey: key, value: value) }
    }

    /// `GET /v1/payment_intents/:id`.
    package func paymentIntent(id: String) async throws -> Stripe.PaymentIntent? {
        try await simulator.serverCall { $0.serverIntent(stripeId: id) }
    }

    /// `POST /v1/payment_intents/:id/cancel`.
    package func cancelPaymentIntent(id: String) async throws -> Stripe.PaymentIntent {
        try await simulator.serverCall { try $0.cancelOnServer(stripeId: id, reason: "abandoned") }
    }

    // MARK: PaymentCaptureService

    /// `POST /v1/payment_intents/:id/capture` with `amount_to_capture`, under the request's idempotency key (a key
    /// reused for another request within Stripe's 24 hours: `idempotency_error`, ``PaymentError/Code/duplicateReference``).
    package func capture(_ request: CaptureRequest) async throws {
        let minor = try request.amount.unsignedMinorUnits()
        do {
            try await simulator.serverCall {
                try $0.capture(stripeId: request.processorPaymentID, amount: minor, idempotencyKey: request.idempotencyKey)
            }
        } catch let error as APIError {
            throw Self.apiError(error, phase: .capture)
        }
    }

    /// `POST /v1/payment_intents/:id/cancel`: releases an uncaptured authorization, under the request's idempotency
    /// key.
    package func void(_ request: VoidRequest) async throws {
        do {
            _ = try await simulator.serverCall {
                try $0.cancelOnServer(stripeId: request.processorPaymentID, reason: "requested_by_customer",
                                      idempotencyKey: request.idempotencyKey)
            }
        } catch let error as APIError {
            throw Self.apiError(error, phase: .capture)
        }
    }

    /// Stripe's `idempotency_error` as Tender's ``PaymentError/Code/duplicateReference`` (the mapping TenderServer's
    /// table makes); any other API error is passed on as it is.
    private static func apiError(_ error: APIError, phase: PaymentError.Phase) -> any Error {
        guard error.code == "idempotency_error" else { return error }
        return PaymentError(.duplicateReference, recovery: .fixRequest, phase: phase, message: error.message,
                            vendor: PaymentError.VendorError(processor: "stripe", name: error.code, message: error.message,
                                                             category: "idempotency_error"))
    }

    // MARK: PaymentRefundService

    /// `POST /v1/refunds` with an `Idempotency-Key`. Stripe's refusals become ``PaymentError``s (nothing refunded).
    package func refund(_ request: RefundRequest) async throws -> RefundResult {
        do {
            return try await simulator.serverCall { try $0.refundOnServer(request) }
        } catch let error as APIError {
            throw Self.refundError(error)
        } catch {
            throw Self.unreachableError
        }
    }

    /// The refund made under this key (an API refund's idempotency key, or an in-person refund's metadata) or id.
    package func lookUpRefund(processor: String, processorPaymentID: String, idempotencyKey: String,
                             processorRefundID: String?) async throws -> RefundResult? {
        do {
            return try await simulator.serverCall { $0.refundResult(idempotencyKey: idempotencyKey, refundID: processorRefundID) }
        } catch {
            throw Self.unreachableError
        }
    }

    private static var unreachableError: PaymentError {
        PaymentError(.networkUnavailable, recovery: .waitAndRetry, phase: .refund,
                     message: "The app's server cannot reach Stripe now.")
    }

    private static func refundError(_ error: APIError) -> PaymentError {
        let (code, recovery): (PaymentError.Code, PaymentError.Recovery) = switch error.code {
        case "amount_too_large": (.invalidAmount, .fixRequest)
        case "idempotency_error": (.duplicateReference, .fixRequest)
        case "charge_not_refundable": (.invalidRequest, .fixIntegration)
        default: (.invalidState, .none)
        }
        return PaymentError(code, recovery: recovery, phase: .refund, message: "Stripe refused the refund: \(error.message)",
                            vendor: PaymentError.VendorError(processor: "stripe", name: error.code, numericCode: nil,
                                                             message: error.message, declineCode: nil))
    }
}

extension StripeSimulator {
    /// The app's server side of this simulator.
    package nonisolated var server: StripeSimulatorServer { StripeSimulatorServer(simulator: self) }

    /// Runs a server call if the network lets it through, after the work that fell due.
    func serverCall<T: Sendable>(_ body: @Sendable (isolated StripeSimulator) throws -> T) async throws -> T {
        await runDueWork()
        guard serverReachable() else { throw StripeSimulatorServer.Unreachable() }
        return try body(self)
    }

    /// A charge as Stripe's servers hold it: the processor-side truth tests compare the ledger with.
    package struct ServerCharge: Hashable, Sendable, Codable {
        /// `ch_…`.
        package var stripeId: String
        /// The PaymentIntent's `pi_…`.
        package var paymentIntentId: String
        /// The app's reference, from metadata `tender_reference`.
        package var reference: String?
        /// The intent's metadata.
        package var metadata: [String: String]
        /// Amount authorized including tip, minor units.
        package var amount: UInt
        /// Lowercase currency.
        package var currency: String
        /// `succeeded` (authorized), or `failed` (declined).
        package var status: Stripe.ChargeStatus
        /// The decline code of a failed charge.
        package var declineCode: String?
        /// Whether the funds were captured, and how much.
        package var captured: Bool, amountCaptured: UInt = 0
        /// Whether the authorization was released (canceled, voided or expired before capture).
        package var released: Bool
        /// Whether the card was collected offline and forwarded.
        package var collectedOffline: Bool
        /// The simulated card (its type only), for refunds.
        package var card: Stripe.SimulatedCardType?
        /// When an uncaptured authorization expires.
        package var captureBefore: Date?
    }

    /// A refund as Stripe's servers hold it.
    package struct ServerRefund: Hashable, Sendable, Codable {
        /// `re_…`, and the refunded charge and intent.
        package var stripeId: String, chargeId: String, paymentIntentId: String
        /// Amount, minor units, and lowercase currency.
        package var amount: UInt, currency: String
        /// Where it stands.
        package var status: Stripe.RefundStatus
        /// The API request's idempotency key, if any; in-person refunds carry Tender's key in ``metadata``.
        package var idempotencyKey: String?
        /// `metadata`.
        package var metadata: [String: String]
        /// Whether it was made through the reader.
        package var inPerson: Bool
        /// Why it failed, once failed; and when a failing refund fails.
        package var failureReason: String?, failsAt: Date?
    }

    /// One version of an intent in Stripe's search index.
    package struct IndexedIntent: Hashable, Sendable, Codable {
        /// The intent as written.
        package var intent: Stripe.PaymentIntent
        /// When it was written.
        package var at: Date
    }

    // MARK: Intents

    /// The app's backend creates a PaymentIntent (for ``retrievePaymentIntent(clientSecret:)``), or the SDK does
    /// online.
    package func createOnServer(_ parameters: Stripe.PaymentIntentParameters) -> Stripe.PaymentIntent {
        let stripeId = nextID("pi_")
        let intent = Stripe.PaymentIntent(
            sdkHandle: nil, stripeId: stripeId, status: .requiresPaymentMethod, amount: parameters.amount,
            currency: parameters.currency, captureMethod: parameters.captureMethod, created: clock.now(),
            metadata: parameters.metadata, clientSecret: stripeId + "_secret_" + nextID(""))
        saveServerIntent(intent)
        return intent
    }

    /// Writes an intent on Stripe's side (and in the search index, visible `searchLag` later).
    /// Where the server intent with this id sits in `state.serverIntents`, through the index (rebuilt when stale).
    func serverIntentPosition(_ stripeId: String) -> Int? {
        if let index = serverIntentIndex[stripeId] {
            if index < state.serverIntents.count, state.serverIntents[index].stripeId == stripeId { return index }
        } else if serverIntentIndex.count == state.serverIntents.count {
            return nil  // the index is complete: no such intent
        }
        serverIntentIndex = [:]
        for (index, intent) in state.serverIntents.enumerated() {
            if let id = intent.stripeId { serverIntentIndex[id] = index }
        }
        return serverIntentIndex[stripeId]
    }

    func saveServerIntent(_ intent: Stripe.PaymentIntent) {
        let copy = intent.withHandle(nil)
        if let id = copy.stripeId, let index = serverIntentPosition(id) {
            state.serverIntents[index] = copy
        } else {
            state.serverIntents.append(copy)
            if let id = copy.stripeId { serverIntentIndex[id] = state.serverIntents.count - 1 }
        }
        if copy.status == .requiresCapture, let deadline = copy.authorizedCharge?.cardPresentDetails?.captureBefore {
            nextAuthorizationExpiry = min(nextAuthorizationExpiry ?? deadline, deadline)
        }
        state.searchIndex.append(IndexedIntent(intent: copy, at: clock.now()))
    }

    /// Stripe's search: each intent's latest version written at least `searchLag` ago, oldest first.
    func search(metadataKey key: String, value: String) -> [Stripe.PaymentIntent] {
        let visibleBefore = clock.now().addingTimeInterval(-configuration.searchLag)
        var latest: [String: Stripe.PaymentIntent] = [:]
        for entry in state.searchIndex where entry.at <= visibleBefore {
            if let id = entry.intent.stripeId { latest[id] = entry.intent }
        }
        return latest.values.filter { $0.metadata[key] == value }.sorted { ($0.created, $0.stripeId ?? "") < ($1.created, $1.stripeId ?? "") }
    }

    /// Authorizes a confirmation on Stripe's side. A second confirmation of an intent Stripe already confirmed is
    /// refused with `payment_intent_unexpected_state`, carrying Stripe's copy (unverified: what the SDK passes on).
    /// An on-reader `tip` is added to `amount` and recorded as `amountDetails.tip`, as Stripe confirms it.
    func authorizeOnServer(_ intent: Stripe.PaymentIntent, tip: UInt?, stripeId: String, card: Stripe.SimulatedCardType,
                           readMethod: Stripe.ReadMethod?) -> (intent: Stripe.PaymentIntent, error: Stripe.ErrorCode?) {
        guard var server = serverIntent(stripeId: stripeId) else {
            return (intent, Stripe.ErrorCode(.confirmInvalidPaymentIntent, message: "No such PaymentIntent."))
        }
        guard server.status == .requiresPaymentMethod || server.status == .requiresConfirmation else {
            return (server, Stripe.ErrorCode(.stripeAPIError, message: "This PaymentIntent was already confirmed.",
                                             apiError: Stripe.ApiError(code: "payment_intent_unexpected_state")))
        }
        // The amount before any earlier confirmation's tip (a declined confirmation left it in), plus this tip.
        server.amount = server.amount - min(server.amount, server.amountDetailsTip ?? 0) + (tip ?? 0)
        server.amountTip = nil
        server.amountDetailsTip = tip
        server.metadata = intent.metadata
        return charge(&server, card: card, readMethod: readMethod ?? .contactEMV, collectedOffline: false)
    }

    /// Charges a forwarded offline payment: a new intent on Stripe's side, or the online-created one.
    func chargeForwarded(_ intent: Stripe.PaymentIntent, card: Stripe.SimulatedCardType,
                         readMethod: Stripe.ReadMethod) -> (intent: Stripe.PaymentIntent, error: Stripe.ErrorCode?) {
        var server = intent.withHandle(nil)
        return charge(&server, card: card, readMethod: readMethod, collectedOffline: true)
    }

    private func charge(_ server: inout Stripe.PaymentIntent, card: Stripe.SimulatedCardType,
                        readMethod: Stripe.ReadMethod, collectedOffline: Bool)
        -> (intent: Stripe.PaymentIntent, error: Stripe.ErrorCode?) {
        let amount = server.amount  // a confirmed amount: an on-reader tip is in it
        let decline = declineCode(card: card, amount: server.amount)
        var details = cardPresentDetails(card, readMethod: readMethod, online: true)
        let manual = server.captureMethod == .manual
        if decline == nil, manual { details.captureBefore = clock.now().addingTimeInterval(configuration.captureWindow) }
        let charge = Stripe.Charge(stripeId: nextID("ch_"), amount: amount, currency: server.currency,
                                   status: decline == nil ? .succeeded : .failed, captured: decline == nil && !manual,
                                   paymentMethodType: card.paymentMethodType, cardPresentDetails: details)
        server.charges.append(charge)
        state.charges.append(ServerCharge(
            stripeId: charge.stripeId, paymentIntentId: server.stripeId ?? "",
            reference: server.metadata[StripeMapping.referenceMetadataKey], metadata: server.metadata, amount: amount,
            currency: server.currency, status: charge.status, declineCode: decline, captured: charge.captured,
            amountCaptured: charge.captured ? amount : 0, released: false, collectedOffline: collectedOffline,
            card: card, captureBefore: details.captureBefore))
        var error: Stripe.ErrorCode?
        if let decline {
            server.status = .requiresPaymentMethod
            server.lastPaymentError = Stripe.ApiError(type: "card_error", code: "card_declined",
                                                      message: "Your card was declined.", declineCode: decline,
                                                      charge: charge.stripeId)
            error = Stripe.ErrorCode(.declinedByStripeAPI, message: "The card was declined.", declineCode: decline,
                                     apiError: server.lastPaymentError)
        } else {
            server.status = manual ? .requiresCapture : .succeeded
            server.amountCapturable = manual ? amount : 0
            server.amountReceived = manual ? 0 : amount
            server.lastPaymentError = nil
        }
        saveServerIntent(server)
        log("\(decline == nil ? "authorized" : "declined") \(server.stripeId ?? "")")
        if var withError = error {
            withError.paymentIntent = server
            error = withError
        }
        return (server, error)
    }

    /// The decline code Stripe's API answers with: the card's, or (when enabled) the test amount's.
    func declineCode(card: Stripe.SimulatedCardType, amount: UInt) -> String? {
        if let code = card.declineCode { return code }
        guard configuration.declinesByTestAmount else { return nil }
        return Stripe.SimulatorConfiguration.testAmountDeclineCode(amount)
    }

    /// The capture itself, without an idempotency key (see ``capture(stripeId:amount:idempotencyKey:)``).
    func captureNow(stripeId: String, amount: UInt?) throws(StripeSimulatorServer.APIError) {
        expireAuthorizations()
        guard var server = serverIntent(stripeId: stripeId), server.status == .requiresCapture else {
            throw StripeSimulatorServer.APIError(code: "payment_intent_unexpected_state",
                                                 message: "PaymentIntent \(stripeId) cannot be captured in its current state.")
        }
        let capturable = server.amountCapturable ?? server.amount
        let captured = amount ?? capturable
        guard captured <= capturable, captured > 0 else {
            throw StripeSimulatorServer.APIError(code: "amount_too_large",
                                                 message: "amount_to_capture \(captured) is more than the \(capturable) capturable.")
        }
        server.status = .succeeded
        server.amountCapturable = 0
        server.amountReceived = captured
        saveServerIntent(server)
        for i in state.charges.indices where state.charges[i].paymentIntentId == stripeId
            && state.charges[i].status == .succeeded && !state.charges[i].released {
            state.charges[i].captured = true
            state.charges[i].amountCaptured = captured
        }
    }

    /// `POST /v1/payment_intents/:id/cancel` without an idempotency key.
    @discardableResult
    package func cancelOnServer(stripeId: String, reason: String = "requested_by_customer")
        throws(StripeSimulatorServer.APIError) -> Stripe.PaymentIntent {
        guard var server = serverIntent(stripeId: stripeId), server.status != .succeeded, server.status != .canceled else {
            throw StripeSimulatorServer.APIError(code: "payment_intent_unexpected_state",
                                                 message: "PaymentIntent \(stripeId) cannot be canceled in its current state.")
        }
        release(&server, reason: reason)
        return server
    }

    private func release(_ server: inout Stripe.PaymentIntent, reason: String) {
        server.status = .canceled
        server.canceledAt = clock.now()
        server.cancellationReason = reason
        server.amountCapturable = 0
        saveServerIntent(server)
        for i in state.charges.indices where state.charges[i].paymentIntentId == server.stripeId {
            state.charges[i].released = true
        }
    }

    /// Seed 002: an uncaptured authorization expires after the capture window and the funds are released.
    func expireAuthorizations() {
        let now = clock.now()
        // Nothing can have expired before the earliest known deadline (kept up to date by `saveServerIntent`).
        if authorizationExpiryKnown, nextAuthorizationExpiry.map({ $0 > now }) ?? true { return }
        authorizationExpiryKnown = true
        nextAuthorizationExpiry = state.serverIntents
            .filter { $0.status == .requiresCapture }
            .compactMap { $0.authorizedCharge?.cardPresentDetails?.captureBefore }
            .filter { $0 > now }
            .min()
        for server in state.serverIntents where server.status == .requiresCapture {
            guard let deadline = server.authorizedCharge?.cardPresentDetails?.captureBefore, deadline <= now else { continue }
            var expired = server
            switch configuration.expiredAuthorization {
            case .canceled:
                release(&expired, reason: "automatic")
            case .requiresReauthorization:
                expired.status = .requiresReauthorization
                saveServerIntent(expired)
            }
            log("authorization of \(server.stripeId ?? "") expired")
        }
    }
}
