/// The states of a payment session, owned by the core.
///
/// ```
/// created → collecting → processing → authorized → succeeded | canceled
///                                   → succeeded
///                                   → storedOffline → forwarded → (manual capture) succeeded | canceled
///                                                   → declinedAfterForwarding
///                                                   → failedToForward → forwarded | declinedAfterForwarding
///                                   → declined | failed | canceled
/// any in-flight state → outcomeUnknown → (reconciliation) the real outcome, or collecting / processing to retry
///                                       the same payment under the same reference
/// ```
/// `PaymentStateMachine` holds the exact table of legal transitions.
public enum PaymentState: String, Hashable, Sendable, Codable, CaseIterable {
    /// Recorded in the ledger; the processor has not been asked yet.
    case created
    /// Waiting for, or reading, the card.
    case collecting
    /// Being authorized (Stripe confirm, Square processing).
    case processing
    /// Authorized online with manual capture; waiting for capture or void.
    case authorized
    /// Approved and captured. Final.
    case succeeded
    /// Stored on the device, waiting to be forwarded to the processor.
    case storedOffline
    /// Forwarded and accepted by the processor. Final for automatic capture; with manual capture it waits for
    /// capture (→ ``succeeded``) or void (→ ``canceled``).
    case forwarded
    /// Forwarded, then declined by the issuer. Final. The merchant bears this loss.
    case declinedAfterForwarding
    /// The processor could not forward it (an unrecoverable upload error, or it expired). Reconciliation may still
    /// learn its outcome.
    case failedToForward
    /// Canceled before capture, or voided. Final.
    case canceled
    /// Declined while the customer waited. Final.
    case declined
    /// Failed before any charge could happen. Final.
    case failed
    /// Whether it was charged is not known (a timeout, a nil intent, a crash). Resolved by reconciliation, never
    /// by charging again.
    case outcomeUnknown


    /// No further transition is possible.
    public var isFinal: Bool { PaymentStateMachine.transitions[self, default: []].isEmpty }

    /// The processor may still act on the payment, or its outcome is unknown: recovery must reconcile it with the
    /// processor after a restart.
    public var needsReconciliation: Bool {
        switch self {
        case .created, .collecting, .processing, .outcomeUnknown, .storedOffline, .failedToForward: true
        default: false
        }
    }

    /// Money was taken or will be taken unless voided: authorized, succeeded, stored offline or forwarded.
    package var isApprovedOrPending: Bool {
        switch self {
        case .authorized, .succeeded, .storedOffline, .forwarded: true
        default: false
        }
    }
}

/// A rejected state change: which states, and why.
package struct IllegalTransition: Error, Hashable, Sendable, CustomStringConvertible {
    /// The state the session was in.
    package var from: PaymentState
    /// The state that was asked for.
    package var to: PaymentState

    /// Creates a record of a rejected transition.
    package init(from: PaymentState, to: PaymentState) {
        self.from = from
        self.to = to
    }

    /// "collecting → forwarded is not a legal transition".
    package var description: String { "\(from) → \(to) is not a legal transition" }

    /// The same, as a ``PaymentError`` with code ``PaymentError/Code/illegalTransition``.
    package var paymentError: PaymentError {
        PaymentError(.illegalTransition, recovery: .none, phase: .reconciliation,
                     message: "A processor reported \(from) → \(to), which is not a legal transition; the session kept its state.")
    }
}

/// The legal transitions between ``PaymentState``s. An illegal transition is an error, never a crash and never a
/// silent overwrite.
package enum PaymentStateMachine {
    /// Every legal transition: `transitions[from]` is the set of states `from` may move to.
    package static let transitions: [PaymentState: Set<PaymentState>] = [
        .created: [.collecting, .processing, .canceled, .failed, .outcomeUnknown],
        .collecting: [.processing, .canceled, .failed, .declined, .outcomeUnknown],
        .processing: [.collecting, .authorized, .succeeded, .storedOffline, .declined, .failed, .canceled,
                      .outcomeUnknown],
        .authorized: [.succeeded, .canceled],
        .storedOffline: [.forwarded, .declinedAfterForwarding, .failedToForward],
        .forwarded: [.succeeded, .canceled],
        .failedToForward: [.forwarded, .declinedAfterForwarding],
        .outcomeUnknown: [.collecting, .processing, .authorized, .succeeded, .storedOffline, .forwarded, .declined,
                          .declinedAfterForwarding, .failedToForward, .failed, .canceled],
        .succeeded: [],
        .declinedAfterForwarding: [],
        .canceled: [],
        .declined: [],
        .failed: [],
    ]

    /// The states from which the same reference may start a new vendor payment (``SessionChange/startsNewAttempt``,
    /// recorded as `state → created` in the same session's history): a definite decline, failure or cancellation
    /// with nothing charged. These transitions are the app's decision (``PaymentTerminal/takePayment(_:)`` with the
    /// same reference), never a processor's report, so they are not in ``transitions`` and the states stay
    /// ``PaymentState/isFinal`` for processors.
    package static let newAttemptStates: Set<PaymentState> = [.declined, .failed, .canceled]

    /// Whether `from → to` is legal.
    package static func canTransition(from: PaymentState, to: PaymentState) -> Bool {
        transitions[from, default: []].contains(to)
    }

    /// Returns `to` if `from → to` is legal, otherwise throws.
    /// - Throws: ``IllegalTransition``.
    package static func transition(from: PaymentState, to: PaymentState) throws(IllegalTransition) -> PaymentState {
        guard canTransition(from: from, to: to) else { throw IllegalTransition(from: from, to: to) }
        return to
    }

    /// Every legal `(from, to)` pair, sorted, for documentation and tests.
    package static var legalPairs: [(from: PaymentState, to: PaymentState)] {
        PaymentState.allCases.flatMap { from in
            PaymentState.allCases.filter { canTransition(from: from, to: $0) }.map { (from, $0) }
        }
    }
}
