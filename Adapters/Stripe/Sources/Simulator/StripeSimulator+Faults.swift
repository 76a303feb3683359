import Foundation
import Tender
import TenderStripe
public import TenderTesting

extension StripeSimulator {
    /// A fault the real SDK and Stripe have, made to happen once, on demand.
    public enum Fault: Hashable, Sendable {
        /// The next confirmation sent to Stripe times out before Stripe receives it: nothing is charged, and the
        /// SDK reports a timeout with a nil intent.
        case confirmNotReceived
        /// The next confirmation sent to Stripe is processed (the card is authorized) and its answer is lost: a
        /// timeout with a nil intent.
        case answerLostAfterCharge
        /// The next in-person refund confirmation is processed and its answer lost (a nil refund).
        case refundAnswerLost
        /// The next card presentation (payment or refund) waits for ``StripeSimulator/releaseHeld()``.
        case holdNextCard
        /// The next confirmation waits for ``StripeSimulator/releaseHeld()`` before Stripe acts on it. It has left
        /// the device: canceling it fails (`cancelFailedUnavailable`), and Stripe still acts when released.
        case holdNextAuthorization
        /// A reader fault in the shared vocabulary (Tap to Pay on an unsupported device or with the terms not
        /// accepted, a smart reader the local network cannot reach, an update required): see
        /// ``StripeSimulator/injectReaderFault(_:)``.
        case reader(ReaderFault)
    }

    /// Makes `fault` happen to the next command it applies to.
    public func inject(_ fault: Fault) {
        if case .reader(let readerFault) = fault {
            injectReaderFault(readerFault)
        } else if fault == .holdNextCard {
            holdNextCard = true
        } else {
            faults.append(fault)
        }
    }

    /// Lets a held card presentation or confirmation proceed. Returns whether something was held.
    @discardableResult
    public func releaseHeld() async -> Bool {
        normalize()
        var released = presentCard()
        if let pending = pendingConfirm {
            pendingConfirm = nil
            released = true
            let (intent, error) = process(pending.local)
            pending.cancelable.markCompleted()
            pending.completion.fire((intent, error))
        }
        // Confirmations orphaned by a relaunch reach Stripe now; Stripe refuses any whose intent it already
        // confirmed or canceled. They take no injected fault (those are for the new process's requests).
        let orphans = orphanedConfirms
        orphanedConfirms = []
        for local in orphans {
            released = true
            let (_, error) = process(local, takingFaults: false)
            log("a confirmation sent before the relaunch reached Stripe: \(error.map { "\($0.code.name)" } ?? "processed")")
        }
        return released
    }

    /// Whether a card presentation or a confirmation is being held (or a reader waits for a card).
    public var isHolding: Bool {
        normalize()
        return pendingCollection != nil || pendingRefundCollection != nil || pendingConfirm != nil
            || !orphanedConfirms.isEmpty
    }

    /// Takes a pending fault of this kind, if any.
    func takeFault(_ fault: Fault) -> Bool {
        guard let index = faults.firstIndex(of: fault) else { return false }
        faults.remove(at: index)
        return true
    }

    /// Takes whichever confirmation fault is pending first.
    func takeConfirmationFault() -> Fault? {
        guard let index = faults.firstIndex(where: { $0 == .confirmNotReceived || $0 == .answerLostAfterCharge }) else {
            return nil
        }
        return faults.remove(at: index)
    }
}
