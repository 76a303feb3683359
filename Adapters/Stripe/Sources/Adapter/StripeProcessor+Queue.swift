import Foundation
import Tender

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
