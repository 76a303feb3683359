import Foundation

/// Which merchant account and location a session belongs to. Every ledger query is scoped by it, so one seller
/// never sees another's payments on a shared device (Square's rule, applied to both processors).
public struct LedgerScope: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The processor account (Stripe account id, Square merchant id).
    public var merchantID: String
    /// The location (Stripe location id, Square location id).
    public var locationID: String

    /// Creates a scope.
    public init(merchantID: String, locationID: String) {
        self.merchantID = merchantID
        self.locationID = locationID
    }

    /// `merchant/location`.
    public var description: String { "\(merchantID)/\(locationID)" }
}

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

    /// Creates a transition record.
    public init(from: PaymentState?, to: PaymentState, at: Date, error: PaymentError? = nil) {
        self.from = from
        self.to = to
        self.at = at
        self.error = error
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
    /// When the session was created.
    public var createdAt: Date
    /// When it was last changed.
    public var updatedAt: Date
    /// When it was stored offline, if it was.
    public var storedAt: Date?
    /// Every transition, oldest first. The ledger may return sessions without their history
    /// (``PaymentLedger/session(reference:scope:includingHistory:)``).
    public var transitions: [PaymentTransition]

    /// Creates a session in ``PaymentState/created`` from a request.
    public init(request: PaymentRequest, scope: LedgerScope, processor: String, route: PaymentRoute?, at: Date) {
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
        createdAt = at
        updatedAt = at
        transitions = [PaymentTransition(from: nil, to: .created, at: at)]
    }

    /// Amount plus tip. Never overflows for a validated request.
    public var total: Money { (try? amount.adding(tip ?? .zero(amount.currency))) ?? amount }

    /// Stripe's "ready to capture" rule, for both processors: manual capture, authorized, and not still waiting
    /// to be forwarded (an offline payment is capturable only once forwarded).
    public var isReadyToCapture: Bool {
        captureMode == .manual && (state == .authorized || state == .forwarded) && processorPaymentID != nil
    }

    /// Whether this request is the same payment as the session (same amount, tip and capture mode).
    public func matches(_ request: PaymentRequest) -> Bool {
        amount == request.amount && tip == request.tip && captureMode == request.captureMode
    }
}

/// A change to record atomically: a state transition (or none) plus what the processor reported.
public struct SessionChange: Hashable, Sendable {
    /// The reference.
    public var reference: String
    /// The state the session must be in for the change to apply (compare-and-set).
    public var expectedState: PaymentState
    /// The new state; equal to ``expectedState`` to update fields without a transition.
    public var newState: PaymentState
    /// When.
    public var at: Date
    /// The route, if learned.
    public var route: PaymentRoute?
    /// The processor id, if learned.
    public var processorPaymentID: String?
    /// The local id, if learned.
    public var localID: String?
    /// Card details, if learned.
    public var card: CardDetails?
    /// The error, if any.
    public var error: PaymentError?
    /// Counts a new attempt of the same reference.
    public var incrementsAttempts: Bool

    /// Creates a change.
    public init(reference: String, expectedState: PaymentState, newState: PaymentState, at: Date,
                route: PaymentRoute? = nil, processorPaymentID: String? = nil, localID: String? = nil,
                card: CardDetails? = nil, error: PaymentError? = nil, incrementsAttempts: Bool = false) {
        self.reference = reference
        self.expectedState = expectedState
        self.newState = newState
        self.at = at
        self.route = route
        self.processorPaymentID = processorPaymentID
        self.localID = localID
        self.card = card
        self.error = error
        self.incrementsAttempts = incrementsAttempts
    }

    /// Applies the change to a session value (shared by every ledger implementation).
    /// - Throws: ``PaymentError/Code/invalidState`` if the session is not in ``expectedState``, and
    ///   ``PaymentError/Code/illegalTransition`` if the transition is not legal.
    public func apply(to session: inout PaymentSession) throws(PaymentError) {
        guard session.state == expectedState else {
            throw PaymentError(.invalidState, recovery: .retrySamePayment, phase: .ledger,
                               message: "\(reference) is \(session.state), not \(expectedState) as expected.")
        }
        if newState != expectedState {
            guard PaymentStateMachine.canTransition(from: expectedState, to: newState) else {
                throw IllegalTransition(from: expectedState, to: newState).paymentError
            }
            session.transitions.append(PaymentTransition(from: expectedState, to: newState, at: at, error: error))
            session.state = newState
            if newState == .storedOffline, session.storedAt == nil { session.storedAt = at }
        }
        if let route { session.route = route }
        if let processorPaymentID { session.processorPaymentID = processorPaymentID }
        if let localID { session.localID = localID }
        if let card { session.card = card }
        if let error { session.lastError = error }
        if incrementsAttempts { session.attempts += 1 }
        session.updatedAt = at
    }
}
