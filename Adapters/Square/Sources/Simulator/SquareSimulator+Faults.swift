package import Foundation
import Tender
package import TenderSquare
package import TenderTesting

extension SquareSimulator {
    /// A fault injected into the next payment.
    package enum Fault: Hashable, Sendable {
        /// A reader fault in the shared vocabulary: see ``SquareSimulator/injectReaderFault(_:)``.
        case reader(ReaderFault)
        /// Square's servers take the payment, but the SDK reports `timedOut` (the outcome is unknown to the app).
        case answerLostAfterCharge
        /// The SDK reports `timedOut` before anything reaches Square: the create-payment request never arrives.
        case confirmNotReceived
        /// Square's servers take the payment, but the SDK reports `didFail` with this error and a payment still
        /// `initialized` (for example `unsupportedMode`: "the user entered an unsupported mode mid-payment", or
        /// `unexpected`). Whether the SDK ever does so after Square charged is unverified; Square's sample says to
        /// handle `didFail` "the same way as didFinish" and inspect the payment, so an adapter must not read such an
        /// error as "nothing was charged".
        case errorAfterCharge(Square.PaymentError)
        /// `startPayment` fails at once with this error.
        case error(Square.PaymentError)
        /// `startPayment` fails with an error that is not a 2.5 `PaymentError` (a future SDK's code).
        case unrecognizedError(String)
        /// The next payment waits for its card until ``SquareSimulator/releaseHeld()`` (or
        /// ``SquareSimulator/presentCard(_:)``): collection is in progress and the payment can still be canceled.
        case holdNextCard
        /// The next authorization request reaches Square, which acts on it only at ``SquareSimulator/releaseHeld()``:
        /// the card has been read, the payment can no longer be canceled, and Square still charges after a relaunch.
        case holdNextAuthorization
    }

    /// A fault injected into the next upload in ``SquareSimulator/syncOfflinePayments(maxCount:)``.
    package enum UploadFault: String, Hashable, Sendable, Codable {
        /// The upload fails with an unrecoverable error: `failedToUpload`.
        case rejected
        /// The SDK cannot verify the upload: `unknown` for one step, then `uploaded`.
        case unverifiable
    }

    /// An error a future SDK might report; not a ``Square/PaymentError``.
    package struct UnrecognizedSDKError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The error's name.
        package var name: String
        /// The name.
        package var description: String { name }
    }

    /// Not an SDK error: what the simulator tells a delegate forgotten by ``relaunch()``, standing for a process
    /// that died, so that a test's task awaiting it ends (with an unknown outcome) instead of hanging.
    package struct ProcessEnded: Error, Hashable, Sendable, CustomStringConvertible {
        /// "process ended".
        package var description: String { "process ended (relaunch)" }
    }

    /// Makes `fault` happen to the next payment it applies to (faults queue up, one per payment).
    package func inject(_ fault: Fault) {
        switch fault {
        case .reader(let readerFault): injectReaderFault(readerFault)
        case .holdNextCard: holdNextCard = true
        case .holdNextAuthorization: holdNextAuthorization = true
        default: pendingFaults.append(fault)
        }
    }

    /// Makes the next `count` reads of the offline queue (`getPayments`, `getTotalStoredPaymentsAmount`) fail with
    /// `OfflinePaymentQueueError.unexpected`, an error Square documents without saying when it happens.
    package func injectQueueReadFailures(_ count: Int = 1) { queueReadFailures += count }

    /// Injects a fault into the next upload (faults queue up, one per upload).
    package func injectUploadFault(_ fault: UploadFault) { uploadFaults.append(fault) }

    /// Makes the next refund end `REJECTED` or `FAILED` when Square settles it (faults queue up, one per refund).
    package func injectRefundOutcome(_ status: Square.PaymentRefundStatus) { refundFaults.append(status) }

    /// Makes the next refund settle `COMPLETED`, then turn `FAILED` `seconds` later, giving its amount back.
    /// Unverified and harsher than Square documents (`PaymentRefund.status` goes from `PENDING` to `COMPLETED`,
    /// `REJECTED` or `FAILED`, with no change after `COMPLETED`): it exists to prove that the core follows a refund
    /// for as long as an adapter says its vendor may change it (``SquareProcessor/Configuration/refundChangeWindow``).
    package func injectCompletedRefundFailure(after seconds: TimeInterval) { completedRefundFailures.append(seconds) }

    /// Whether a held card presentation or authorization is waiting.
    public var isHolding: Bool {
        heldAuthorization != nil || !orphanedAuthorizations.isEmpty || current?.cardHeld == true
    }

    /// Lets a held authorization or card presentation proceed.
    public func releaseHeld() {
        let orphans = orphanedAuthorizations
        orphanedAuthorizations = []
        for held in orphans { authorize(held.flight, card: held.card, answerLost: held.answerLost) }
        if let held = heldAuthorization {
            heldAuthorization = nil
            authorize(held.flight, card: held.card, answerLost: held.answerLost)
        } else if current?.cardHeld == true {
            current?.cardHeld = false
            processCurrent()
        }
    }
}
