public import Foundation

/// One recorded state change of a session.
public struct PaymentTransition: Hashable, Sendable, Codable {
    /// The state before (`nil` for the creation record).
    public var from: PaymentState?
    /// The state after.
    public var to: PaymentState
    /// When it was recorded.
    public var at: Date
    /// The error that caused it, if any (with the vendor's raw error).
    public var error: PaymentError?
    /// The payment attempt it belongs to (``PaymentSession/paymentAttempt``): 1 for the first vendor payment of
    /// the reference, 2 after a definite decline or failure started a new one, and so on.
    public var attempt: Int
    /// What happened without a change of state, for a record whose `from` equals `to`: for example "the abandoned
    /// PaymentIntent pi_… was canceled at Stripe".
    public var note: String?

    /// Creates a transition record.
    package init(from: PaymentState?, to: PaymentState, at: Date, error: PaymentError? = nil, attempt: Int = 1,
                note: String? = nil) {
        self.from = from
        self.to = to
        self.at = at
        self.error = error
        self.attempt = attempt
        self.note = note
    }

    private enum CodingKeys: String, CodingKey { case from, to, at, error, attempt, note }

    /// Decodes a transition; records written before attempts and notes existed decode as attempt 1.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        from = try c.decodeIfPresent(PaymentState.self, forKey: .from)
        to = try c.decode(PaymentState.self, forKey: .to)
        at = try c.decode(Date.self, forKey: .at)
        error = try c.decodeIfPresent(PaymentError.self, forKey: .error)
        attempt = try c.decodeIfPresent(Int.self, forKey: .attempt) ?? 1
        note = try c.decodeIfPresent(String.self, forKey: .note)
    }
}

/// A payment as the ledger records it: the request, the route taken, the processor's ids, the current state and
/// every transition with its time.
public struct PaymentSession: Hashable, Sendable, Codable, Identifiable {
    /// The app's reference (unique within a scope).
    public var reference: String
    /// The session's identity: the reference.
    public var id: String { reference }
    /// The merchant and location.
    public var scope: LedgerScope
    /// The processor's name.
    public var processor: String
    /// The amount, excluding tip.
    public var amount: Money
    /// The tip, if any.
    public var tip: Money?
    /// Automatic or manual capture.
    public var captureMode: CaptureMode
    /// The policy the request carried.
    public var offlinePolicy: OfflinePolicy
    /// The route taken, once known.
    public var route: PaymentRoute?
    /// The current state.
    public var state: PaymentState
    /// The processor's id (Stripe `stripeId`, Square `id`), once known.
    public var processorPaymentID: String?
    /// The processor's device-local id (Square `localID`), once known.
    public var localID: String?
    /// Card details for the receipt.
    public var card: CardDetails?
    /// The last error recorded.
    public var lastError: PaymentError?
    /// How many times the processor was asked to take this payment (retries of the same reference).
    public var attempts: Int
    /// Which vendor payment the session is on: 1 for the first. A retry while the outcome is not definite
    /// continues the same vendor payment (same number); after a *definite* decline, failure or cancellation with
    /// nothing charged, ``PaymentTerminal/takePayment(_:)`` with the same reference starts a new vendor payment and
    /// this number grows (Square's `paymentAttemptID` is derived from the reference and this number). At most one
    /// vendor payment per reference is ever charged.
    public var paymentAttempt: Int
    /// When the session was created.
    public var createdAt: Date
    /// When it was last changed.
    public var updatedAt: Date
    /// When it was stored offline, if it was: the vendor's own time of storage (Stripe `offlineDetails.storedAt`,
    /// Square `createdAt`) when the adapter reports it, else when Tender recorded it. The stored-age limit uses it.
    public var storedAt: Date?
    /// The vendor's deadline for capturing an authorized payment (Stripe's two days; Square's `delay_duration`,
    /// 36 hours card-present by default), when known. After it the vendor releases or completes the payment by
    /// itself; reconciliation records what it did.
    public var captureBefore: Date?
    /// What a manual capture took, as recorded when the processor confirmed the capture: at most ``total`` (a
    /// partial capture takes less; a capture of the whole includes the tip that was authorized). `nil` when the
    /// payment was captured automatically, not captured yet, or captured before Tender recorded captured amounts
    /// (ledger schema 4 and earlier): ``captured`` then counts the whole ``total``.
    public var capturedAmount: Money?
    /// How the session's vendor identifiers are derived: ``IdempotencyKeyScheme/scoped`` for sessions recorded
    /// since ledger schema 6 (the vendor attempt id carries the merchant and location),
    /// ``IdempotencyKeyScheme/referenceOnly`` for older ones, which keep the ids they were started with.
    package var keyScheme: IdempotencyKeyScheme
    /// Every refund of this payment, oldest first. Sessions read by reference always carry them; listings
    /// (`PaymentLedger/allSessions(scope:)`, `PaymentLedger/sessions(in:scope:)`) may leave them empty.
    public var refunds: [RefundRecord]
    /// Every transition, oldest first. The ledger may return sessions without their history
    /// (`PaymentLedger/session(reference:scope:includingHistory:)`).
    public var transitions: [PaymentTransition]

    /// Creates a session in ``PaymentState/created`` from a request.
    package init(request: PaymentRequest, scope: LedgerScope, processor: String, route: PaymentRoute?, at: Date) {
        reference = request.reference
        self.scope = scope
        self.processor = processor
        amount = request.amount
        tip = request.tip
        captureMode = request.captureMode
        offlinePolicy = request.offlinePolicy
        self.route = route
        state = .created
        attempts = 1
        paymentAttempt = 1
        createdAt = at
        updatedAt = at
        keyScheme = .scoped
        refunds = []
        transitions = [PaymentTransition(from: nil, to: .created, at: at)]
        capturedAmount = nil
    }

    private enum CodingKeys: String, CodingKey {
        case reference, scope, processor, amount, tip, captureMode, offlinePolicy, route, state, processorPaymentID
        case localID, card, lastError, attempts, paymentAttempt, createdAt, updatedAt, storedAt, captureBefore
        case capturedAmount, keyScheme, refunds, transitions
    }

    /// Decodes a session; sessions encoded before payment attempts, capture deadlines, refunds, captured amounts and
    /// key schemes existed decode with attempt 1, no deadline, no refunds, no captured amount and reference-only
    /// vendor ids.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        reference = try c.decode(String.self, forKey: .reference)
        scope = try c.decode(LedgerScope.self, forKey: .scope)
        processor = try c.decode(String.self, forKey: .processor)
        amount = try c.decode(Money.self, forKey: .amount)
        tip = try c.decodeIfPresent(Money.self, forKey: .tip)
        captureMode = try c.decode(CaptureMode.self, forKey: .captureMode)
        offlinePolicy = try c.decode(OfflinePolicy.self, forKey: .offlinePolicy)
        route = try c.decodeIfPresent(PaymentRoute.self, forKey: .route)
        state = try c.decode(PaymentState.self, forKey: .state)
        processorPaymentID = try c.decodeIfPresent(String.self, forKey: .processorPaymentID)
        localID = try c.decodeIfPresent(String.self, forKey: .localID)
        card = try c.decodeIfPresent(CardDetails.self, forKey: .card)
        lastError = try c.decodeIfPresent(PaymentError.self, forKey: .lastError)
        attempts = try c.decode(Int.self, forKey: .attempts)
        paymentAttempt = try c.decodeIfPresent(Int.self, forKey: .paymentAttempt) ?? 1
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        updatedAt = try c.decode(Date.self, forKey: .updatedAt)
        storedAt = try c.decodeIfPresent(Date.self, forKey: .storedAt)
        captureBefore = try c.decodeIfPresent(Date.self, forKey: .captureBefore)
        capturedAmount = try c.decodeIfPresent(Money.self, forKey: .capturedAmount)
        keyScheme = try c.decodeIfPresent(IdempotencyKeyScheme.self, forKey: .keyScheme) ?? .referenceOnly
        refunds = try c.decodeIfPresent([RefundRecord].self, forKey: .refunds) ?? []
        transitions = try c.decode([PaymentTransition].self, forKey: .transitions)
    }

    /// What has been refunded or is being refunded: pending and succeeded refunds (failed ones do not count). A
    /// new refund is refused if it would take this beyond ``captured``.
    public var refundedAmount: Money {
        refunds.filter { $0.status != .failed }.reduce(Money.zero(total.currency)) { sum, refund in
            (try? sum.adding(refund.amount)) ?? sum
        }
    }

    /// Whether the processor holds the payment as captured: succeeded, or forwarded with automatic capture.
    public var isCaptured: Bool { state == .succeeded || (state == .forwarded && captureMode == .automatic) }

    /// What the processor captured: ``capturedAmount`` when a manual capture recorded it (a partial capture takes
    /// less than ``total``), otherwise ``total`` for a captured payment (``isCaptured``); zero when nothing is
    /// captured. Sales totals and refunds count this, not the authorized ``total``.
    public var captured: Money {
        guard isCaptured else { return .zero(total.currency) }
        return capturedAmount ?? total
    }

    /// What can still be refunded: ``captured`` minus ``refundedAmount`` for a captured payment, zero otherwise.
    public var refundableAmount: Money {
        guard isCaptured else { return .zero(total.currency) }
        return (try? captured.subtracting(refundedAmount)) ?? .zero(total.currency)
    }

    /// Amount plus tip. Never overflows for a validated request.
    public var total: Money { (try? amount.adding(tip ?? .zero(amount.currency))) ?? amount }

    /// Stripe's "ready to capture" rule, for both processors: manual capture, authorized, and not still waiting
    /// to be forwarded (an offline payment is capturable only once forwarded).
    public var isReadyToCapture: Bool {
        captureMode == .manual && (state == .authorized || state == .forwarded) && processorPaymentID != nil
    }

    /// Whether this request is the same payment as the session (same amount, tip and capture mode).
    package func matches(_ request: PaymentRequest) -> Bool {
        // A tip the customer chose on the reader is not on the request that asked for it.
        amount == request.amount && captureMode == request.captureMode
            && (tip == request.tip || (request.tip == nil && request.tipEligibleAmount != nil))
    }
}

/// Which vendor payment of a session, and which call on it, something was decided for: the session's
/// ``PaymentSession/paymentAttempt`` and ``PaymentSession/attempts`` (every call that takes the reference again — a
/// continuation or a new vendor payment — advances it) when the deciding call read the session.
package struct SessionGeneration: Hashable, Sendable, CustomStringConvertible {
    /// ``PaymentSession/paymentAttempt``.
    package var paymentAttempt: Int
    /// ``PaymentSession/attempts``.
    package var attempts: Int

    /// Creates a generation.
    package init(paymentAttempt: Int, attempts: Int) {
        self.paymentAttempt = paymentAttempt
        self.attempts = attempts
    }

    /// "payment attempt 2 (call 3)".
    package var description: String { "payment attempt \(paymentAttempt) (call \(attempts))" }
}

extension PaymentSession {
    /// The vendor payment and call the session is on now (``SessionChange/decidedFor``).
    package var generation: SessionGeneration {
        SessionGeneration(paymentAttempt: paymentAttempt, attempts: attempts)
    }
}

/// A change to record atomically: a state transition (or none) plus what the processor reported.
package struct SessionChange: Hashable, Sendable {
    /// The reference.
    package var reference: String
    /// The state the session must be in for the change to apply (compare-and-set).
    package var expectedState: PaymentState
    /// The vendor payment and call the change was decided for (``PaymentSession/generation`` as the deciding call
    /// read it): the ledger refuses the change, like a wrong ``expectedState``, once the session is on another one —
    /// a verdict about attempt 1 is never committed onto attempt 2 that a retry started meanwhile, even when both are
    /// in the same state. Every change the facade makes says it; `nil` (the ledger checks the state alone) is left to
    /// tools and tests that write a ledger directly.
    package var decidedFor: SessionGeneration?
    /// The new state; equal to ``expectedState`` to update fields without a transition.
    package var newState: PaymentState
    /// When.
    package var at: Date
    /// The route, if learned.
    package var route: PaymentRoute?
    /// The processor id, if learned.
    package var processorPaymentID: String?
    /// The local id, if learned.
    package var localID: String?
    /// Card details, if learned.
    package var card: CardDetails?
    /// The error, if any.
    package var error: PaymentError?
    /// Counts a new attempt of the same reference.
    package var incrementsAttempts: Bool
    /// Starts a new vendor payment for the reference after a definite decline, failure or cancellation: the
    /// session goes back to ``PaymentState/created`` (``newState`` must be `.created` and ``expectedState`` one of
    /// ``PaymentStateMachine/newAttemptStates``), ``PaymentSession/paymentAttempt`` grows by one, and the processor
    /// ids of the old attempt are cleared.
    package var startsNewAttempt: Bool
    /// The vendor's time of storage (Stripe `offlineDetails.storedAt`, Square `createdAt`), if reported.
    package var storedAt: Date?
    /// The vendor's capture deadline, if reported.
    package var captureBefore: Date?
    /// What a manual capture took, when this change records one (``PaymentSession/capturedAmount``): in the
    /// session's currency, more than zero and at most its total.
    package var capturedAmount: Money?
    /// A note for the history. With ``newState`` equal to ``expectedState`` it still appends a history record
    /// (`from == to`), so that what happened without a state change (an abandoned vendor payment canceled) is
    /// recorded.
    package var note: String?
    /// The tip the customer chose on the reader, recorded on a session that has none yet (an app-entered tip is
    /// never replaced).
    package var tip: Money?

    /// Creates a change.
    package init(reference: String, expectedState: PaymentState, newState: PaymentState, at: Date,
                route: PaymentRoute? = nil, processorPaymentID: String? = nil, localID: String? = nil,
                card: CardDetails? = nil, error: PaymentError? = nil, incrementsAttempts: Bool = false,
                startsNewAttempt: Bool = false, storedAt: Date? = nil, captureBefore: Date? = nil,
                note: String? = nil, capturedAmount: Money? = nil, tip: Money? = nil,
                decidedFor: SessionGeneration? = nil) {
        self.reference = reference
        self.decidedFor = decidedFor
        self.expectedState = expectedState
        self.newState = newState
        self.at = at
        self.route = route
        self.processorPaymentID = processorPaymentID
        self.localID = localID
        self.card = card
        self.error = error
        self.incrementsAttempts = incrementsAttempts
        self.startsNewAttempt = startsNewAttempt
        self.storedAt = storedAt
        self.captureBefore = captureBefore
        self.note = note
        self.capturedAmount = capturedAmount
        self.tip = tip
    }

    /// Whether the ledger must sync this change to disk before returning. Only what recovery needs is durable one
    /// by one: the write-ahead records (a new session, a new attempt or retry, a new vendor payment) and the outcome
    /// of the in-person payment. Everything else is committed (a process kill never loses it) and synced with the
    /// next durable record, because after a power loss without it recovery finds it again:
    /// - the intermediate ``PaymentState/collecting`` and ``PaymentState/processing`` records: recovery starts from
    ///   the write-ahead record and asks the processor;
    /// - what happens to a payment the vendor already holds — forwarding results, captures, voids, expiries of a
    ///   stored, authorized or forwarded payment: the vendor keeps it, and recovery and the queue poller ask again
    ///   (a capture or void sent again is the same idempotent request);
    /// - changes that keep the state (ids, times, notes): the vendor is asked again.
    package var requiresDurableSync: Bool {
        if incrementsAttempts || startsNewAttempt { return true }
        if newState == expectedState { return false }
        if newState == .collecting || newState == .processing { return false }
        return !Self.heldByVendor.contains(expectedState)
    }

    /// States in which the vendor holds the payment, so that what happens next can be asked of it again.
    private static let heldByVendor: Set<PaymentState> = [.storedOffline, .failedToForward, .authorized, .forwarded]

    /// Applies the change to a session value (shared by every ledger implementation).
    /// - Throws: ``PaymentError/Code/invalidState`` if the session is not in ``expectedState``, and
    ///   ``PaymentError/Code/illegalTransition`` if the transition is not legal.
    package func apply(to session: inout PaymentSession) throws(PaymentError) {
        guard session.state == expectedState else {
            throw PaymentError(.invalidState, recovery: .retrySamePayment, phase: .ledger,
                               message: "\(reference) is \(session.state), not \(expectedState) as expected.")
        }
        if let decidedFor, decidedFor != session.generation {
            throw PaymentError(.invalidState, recovery: .retrySamePayment, phase: .ledger,
                               message: "\(reference) was decided for \(decidedFor), but the session is on \(session.generation) now: a change decided for an earlier attempt is not recorded on a later one.")
        }
        if let capturedAmount {
            let total = session.total
            guard capturedAmount.currency == total.currency, capturedAmount.minorUnits > 0,
                  capturedAmount.minorUnits <= total.minorUnits else {
                throw PaymentError(.invalidAmount, recovery: .none, phase: .ledger,
                                   message: "\(reference) cannot record \(capturedAmount) captured of \(total).")
            }
        }
        if startsNewAttempt {
            guard newState == .created, PaymentStateMachine.newAttemptStates.contains(expectedState) else {
                throw PaymentError(.invalidState, recovery: .none, phase: .ledger,
                                   message: "\(reference) is \(expectedState): a new payment attempt starts only after a definite decline, failure or cancellation.")
            }
            session.paymentAttempt += 1
            session.processorPaymentID = nil
            session.localID = nil
            session.card = nil
            session.captureBefore = nil
            session.storedAt = nil
            session.capturedAmount = nil
            session.transitions.append(PaymentTransition(from: expectedState, to: newState, at: at, error: error,
                                                         attempt: session.paymentAttempt, note: note))
            session.state = newState
        } else if newState != expectedState {
            guard PaymentStateMachine.canTransition(from: expectedState, to: newState) else {
                throw IllegalTransition(from: expectedState, to: newState).paymentError
            }
            session.transitions.append(PaymentTransition(from: expectedState, to: newState, at: at, error: error,
                                                         attempt: session.paymentAttempt, note: note))
            session.state = newState
            if newState == .storedOffline, session.storedAt == nil { session.storedAt = storedAt ?? at }
        } else if let note {
            session.transitions.append(PaymentTransition(from: expectedState, to: newState, at: at, error: error,
                                                         attempt: session.paymentAttempt, note: note))
        }
        if let storedAt { session.storedAt = storedAt }
        if let captureBefore { session.captureBefore = captureBefore }
        if let route { session.route = route }
        if let processorPaymentID { session.processorPaymentID = processorPaymentID }
        if let localID { session.localID = localID }
        if let card { session.card = card }
        if let error { session.lastError = error }
        if let capturedAmount { session.capturedAmount = capturedAmount }
        if let tip, session.tip == nil, tip.currency == session.amount.currency, tip.minorUnits >= 0 { session.tip = tip }
        if incrementsAttempts { session.attempts += 1 }
        session.updatedAt = at
    }
}
