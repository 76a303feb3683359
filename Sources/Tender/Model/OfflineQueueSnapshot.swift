public import Foundation

/// Where one offline payment stands, in one model for both processors.
///
/// | Tender | Stripe | Square `OfflineStatus` |
/// |---|---|---|
/// | ``stored`` | `offlineDetails.requiresUpload == true` | `queued` |
/// | ``uploaded`` | — | `uploaded` |
/// | ``forwarded`` | `didForwardPaymentIntent` without error | `processed` |
/// | ``failedToForward`` | forwarding error not tied to a decline | `failedToUpload` |
/// | ``declinedAfterForwarding`` | `didForwardPaymentIntent` with a decline | `failedToProcess` |
/// | ``unknown`` | — | `unknown` |
public enum OfflinePaymentStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// On the device, waiting to be forwarded.
    case stored
    /// Received by the processor, not yet processed.
    case uploaded
    /// Processed by the processor.
    case forwarded
    /// Could not be forwarded.
    case failedToForward
    /// Forwarded and declined.
    case declinedAfterForwarding
    /// The processor could not say.
    case unknown

    /// Still counts against the stored-offline limits: not yet secured by the processor.
    package var countsAsStored: Bool { self == .stored || self == .unknown }
}

/// One payment in the offline queue.
public struct QueuedPayment: Hashable, Sendable, Codable {
    /// The app's reference.
    public var reference: String
    /// The processor's device-local id (Square `localID`), when it has one.
    public var localID: String?
    /// The processor's id once forwarded (Stripe `stripeId`, Square `id`).
    public var processorPaymentID: String?
    /// The total stored (amount plus tip).
    public var amount: Money
    /// When the card was taken.
    public var storedAt: Date
    /// Where it stands.
    public var status: OfflinePaymentStatus
    /// The vendor payment of the reference (``PaymentSession/paymentAttempt``) the vendor's record names (Stripe
    /// the intent's `tender_attempt` metadata), when it records one: the core applies the entry's status only to a
    /// session on that vendor payment. `nil` when the vendor does not record it (Square's offline payments carry
    /// only the reference; the core then attributes them by ``localID`` and ``amount``).
    public var paymentAttempt: Int?

    /// Creates a queue entry.
    public init(reference: String, localID: String? = nil, processorPaymentID: String? = nil, amount: Money,
                storedAt: Date, status: OfflinePaymentStatus, paymentAttempt: Int? = nil) {
        self.reference = reference
        self.localID = localID
        self.processorPaymentID = processorPaymentID
        self.amount = amount
        self.storedAt = storedAt
        self.status = status
        self.paymentAttempt = paymentAttempt
    }
}

/// The offline queue at one moment: network status, stored count and amounts, and each payment's status.
///
/// ``storedCount``, ``storedAmounts`` and ``oldestStoredAt`` cover only payments that still count as stored
/// (`OfflinePaymentStatus/countsAsStored`): those are what the risk limits are measured against.
public struct OfflineQueueSnapshot: Hashable, Sendable {
    /// Whether the device can reach the processor.
    public var networkStatus: NetworkStatus
    /// How many payments are stored and not yet forwarded.
    public var storedCount: Int
    /// Stored, unforwarded totals per currency, in minor units (Stripe's `paymentAmountsByCurrency`).
    public var storedAmounts: [Currency: Int64]
    /// When the oldest stored payment was taken.
    public var oldestStoredAt: Date?
    /// Per-payment status. A snapshot built from aggregates alone (the fast path) may leave this empty.
    public var payments: [QueuedPayment]
    /// Payments stored on the whole device, every account and location together, when the vendor counts them that
    /// way (Square's 1,000 per device); `nil` when not reported.
    public var deviceStoredCount: Int?
    /// When the device was last online as the vendor sees it (Square's 24-hour window runs from it); `nil` when not
    /// reported or when online now.
    public var lastOnlineAt: Date?

    /// Creates a snapshot.
    public init(networkStatus: NetworkStatus, storedCount: Int = 0, storedAmounts: [Currency: Int64] = [:],
                oldestStoredAt: Date? = nil, payments: [QueuedPayment] = [], deviceStoredCount: Int? = nil,
                lastOnlineAt: Date? = nil) {
        self.networkStatus = networkStatus
        self.storedCount = storedCount
        self.storedAmounts = storedAmounts
        self.oldestStoredAt = oldestStoredAt
        self.payments = payments
        self.deviceStoredCount = deviceStoredCount
        self.lastOnlineAt = lastOnlineAt
    }

    /// The larger view of two snapshots of the same queue (the ledger's and the vendor's): for each figure the
    /// larger count, amount and the older stored time, so a risk decision or a destructive-action guard never
    /// trusts the smaller one, device count included (a vendor may see only part of the device: Square's SDK lists
    /// only the authorized account's queue). Network status, per-payment entries and last-online time come from
    /// `vendor` when it has them.
    package func atRisk(combinedWith vendor: OfflineQueueSnapshot) -> OfflineQueueSnapshot {
        var amounts = storedAmounts
        for (currency, amount) in vendor.storedAmounts { amounts[currency] = max(amounts[currency] ?? 0, amount) }
        let oldest = [oldestStoredAt, vendor.oldestStoredAt].compactMap { $0 }.min()
        return OfflineQueueSnapshot(
            networkStatus: vendor.networkStatus == .unknown ? networkStatus : vendor.networkStatus,
            storedCount: max(storedCount, vendor.storedCount), storedAmounts: amounts, oldestStoredAt: oldest,
            payments: vendor.payments.isEmpty ? payments : vendor.payments,
            deviceStoredCount: [vendor.deviceStoredCount, deviceStoredCount].compactMap { $0 }.max(),
            lastOnlineAt: vendor.lastOnlineAt ?? lastOnlineAt)
    }

    /// Builds a snapshot from per-payment entries, computing the aggregates.
    /// - Throws: ``PaymentError/Code/amountOverflow`` if a currency's total overflows.
    public init(networkStatus: NetworkStatus, payments: [QueuedPayment]) throws(PaymentError) {
        var amounts: [Currency: Int64] = [:]
        var count = 0
        var oldest: Date?
        for payment in payments where payment.status.countsAsStored {
            count += 1
            let (sum, overflow) = amounts[payment.amount.currency, default: 0]
                .addingReportingOverflow(payment.amount.minorUnits)
            if overflow {
                throw PaymentError(.amountOverflow, recovery: .none, phase: .reconciliation,
                                   message: "Stored \(payment.amount.currency.code) payments overflow 64-bit minor units.")
            }
            amounts[payment.amount.currency] = sum
            oldest = min(oldest ?? payment.storedAt, payment.storedAt)
        }
        self.init(networkStatus: networkStatus, storedCount: count, storedAmounts: amounts, oldestStoredAt: oldest,
                  payments: payments)
    }

    /// An empty queue with the given network status.
    package static func empty(_ networkStatus: NetworkStatus) -> OfflineQueueSnapshot {
        OfflineQueueSnapshot(networkStatus: networkStatus)
    }

    /// The stored amount in one currency as `Money`.
    public func storedAmount(in currency: Currency) -> Money {
        Money(minorUnits: storedAmounts[currency] ?? 0, currency: currency)
    }
}
