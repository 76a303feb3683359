import Foundation
public import Tender

extension StripeProcessor {
    /// The SDK's queue as it has it now: `offlineStatus.sdk` (network status, count and amounts: the vendor's
    /// truth), with the per-payment entries this launch knows of (payments it stored, and every
    /// `didForwardPaymentIntent` since launch), each with the SDK's `offlineDetails.storedAt`.
    ///
    /// Honestly partial: the SDK lists nothing it stores, so after a relaunch the count and amounts cover payments
    /// the entries do not, and ``OfflineQueueSnapshot/oldestStoredAt`` covers only the entries (nil when none is
    /// known). When the SDK's count is unknown (nil after `clearCachedCredentials`), the entries still stored are
    /// counted. Stripe reports no device-wide count and no last-online time.
    public func queueSnapshot() async throws -> OfflineQueueSnapshot {
        let status = await client.offlineStatus.sdk
        bridge.observeStoredCount(status.paymentsCount)
        var amounts: [Currency: Int64] = [:]
        for (code, minorUnits) in status.paymentAmountsByCurrency {
            if let currency = try? Currency(code: code) { amounts[currency] = minorUnits }
        }
        let payments = bridge.queuedPayments
        let stored = payments.filter(\.status.countsAsStored)
        if status.paymentsCount == nil {
            amounts = [:]
            for payment in stored { amounts[payment.amount.currency, default: 0] += payment.amount.minorUnits }
        }
        return OfflineQueueSnapshot(networkStatus: StripeMapping.networkStatus(status.networkStatus),
                                    storedCount: status.paymentsCount ?? stored.count, storedAmounts: amounts,
                                    oldestStoredAt: stored.map(\.storedAt).min(), payments: payments)
    }
}

// MARK: - Forwarding

extension StripeMapping {
    /// What the SDK does with a stored payment whose forwarding failed, by error (Stripe's documentation and the reference's
    /// error list; which codes keep the payment is an inference from their messages, and the simulator's
    /// ``Stripe/ErrorCode`` table of kept codes follows the same reading).
    package enum ForwardingDisposition: Hashable, Sendable {
        /// The SDK keeps it stored and forwards it later (1938 "reconnect with live keys to resume", token and
        /// network errors, 1930, encryption keys still unavailable).
        case keptStored
        /// Forwarded and declined by the issuer.
        case declined
        /// The SDK gave up on it (1937 "the test transaction will be deleted", Stripe refused it): failed to forward.
        case dropped
    }

    /// The disposition of a forwarding error.
    package static func forwardingDisposition(_ error: Stripe.ErrorCode) -> ForwardingDisposition {
        switch error.code.name {
        case Stripe.ErrorCode.Code.forwardingLiveModePaymentInTestMode.name,
             Stripe.ErrorCode.Code.accountIdMismatchWhileForwarding.name,
             Stripe.ErrorCode.Code.connectionTokenProviderCompletedWithErrorWhileForwarding.name,
             Stripe.ErrorCode.Code.connectionTokenProviderCompletedWithNothingWhileForwarding.name,
             Stripe.ErrorCode.Code.notConnectedToInternet.name, Stripe.ErrorCode.Code.requestTimedOut.name,
             Stripe.ErrorCode.Code.internalNetworkError.name, Stripe.ErrorCode.Code.encryptionKeyFailure.name,
             "encryptionKeyStillInitializing", "offlineEncryptionKeysUnavailable", "sessionExpired":
            return .keptStored
        default:
            let code = paymentError(error).code
            return code == .cardDeclined || code == .cardExpired ? .declined : .dropped
        }
    }

    /// What `didForwardPaymentIntent(intent, error)` means for the payment with the reference in the intent's
    /// metadata, or nil when the intent carries no reference (it was not created by Tender).
    ///
    /// No error: what the forwarded intent says (``PaymentState/forwarded``, or
    /// ``PaymentState/declinedAfterForwarding`` when it came back `requiresPaymentMethod` with a failed charge, or
    /// still ``PaymentState/storedOffline`` when it came back `requiresPaymentMethod` with neither a charge nor an
    /// error: iOS's first callback of a decline, whose outcome follows).
    /// An error: by ``forwardingDisposition(_:)``: still ``PaymentState/storedOffline`` (with the error) when the SDK
    /// keeps it, ``PaymentState/declinedAfterForwarding``, or ``PaymentState/failedToForward``.
    package static func forwardingUpdate(_ intent: Stripe.PaymentIntent, error: Stripe.ErrorCode?)
        -> ProcessorPaymentUpdate? {
        guard let reference = intent.metadata[referenceMetadataKey] else { return nil }
        var update = self.update(for: intent, reference: reference)
        update.route = .offline
        update.storedAt = intent.offlineDetails?.storedAt
        guard let error else {
            switch update.state {
            case .storedOffline, .processing: update.state = .forwarded
            case .collecting:
                // `requiresPaymentMethod` with no charge and no error is no outcome: on iOS a forwarded decline is
                // "a failed charge, sometimes preceded by requiresPaymentMethod" (stripe-terminal-react-native#1061).
                // The payment stays stored until the real outcome arrives.
                update.state = .storedOffline
            default: break
            }
            return update
        }
        let mapped = paymentError(error, phase: .forwarding)
        update.error = mapped
        switch forwardingDisposition(error) {
        case .keptStored: update.state = .storedOffline
        case .declined:
            update.state = .declinedAfterForwarding
            update.error = forwardedDecline(mapped)
        case .dropped: update.state = .failedToForward
        }
        return update
    }
}
