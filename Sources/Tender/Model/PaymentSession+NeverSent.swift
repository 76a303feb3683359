import Foundation

extension PaymentSession {
    /// Whether the ledger proves that the session's current vendor payment never left the device, so that a new one
    /// may replace it without closing it first (no abandonment, no call to the vendor's server: offline, there is
    /// none to make). The proof is what the adapter reported and the ledger recorded as the attempt's end: it
    /// **failed** with ``PaymentError/Code/cardNotSupportedOffline`` — the reader refused the card offline (Stripe
    /// 6900 / 6901 / 6905, Square's offline `didCancel` of a swiped or Interac card), which both adapters report only
    /// when nothing was stored and nothing sent — and the vendor never gave it an id of its own (an attempt with a
    /// vendor id may have left something at the vendor, and is closed as usual). Read from the history (the
    /// session must be read with it): the failure must be this attempt's own, not an earlier attempt's error.
    /// Decided here, in the core, for every adapter alike.
    package var currentAttemptProvenNeverSent: Bool {
        guard state == .failed, processorPaymentID == nil,
              let end = transitions.last(where: { $0.to == .failed && $0.from != .failed }),
              end.attempt == paymentAttempt else { return false }
        return end.error?.code == .cardNotSupportedOffline
    }
}

extension PaymentTerminal {
    /// ``PaymentSession/currentAttemptProvenNeverSent`` for a session read without its history: checked on the
    /// session first (most sessions fail the cheap part), then on its history.
    func provenNeverSent(_ session: PaymentSession) async throws -> Bool {
        guard session.state == .failed, session.processorPaymentID == nil,
              session.lastError?.code == .cardNotSupportedOffline else { return false }
        let full = try await ledger.session(reference: session.reference, scope: session.scope) ?? session
        return full.paymentAttempt == session.paymentAttempt && full.currentAttemptProvenNeverSent
    }
}
