public import Foundation

/// The offline limits a processor imposes (Stripe's 10,000 USD offline maximum; Square's per-seller
/// `offlineTransactionAmountLimit`, `offlineTotalStoredAmountLimit` and 24-hour window). Merged with Tender's own
/// limits by `OfflineRiskLimits/merged(with:source:)`; the tighter wins.
public struct ProcessorOfflineLimits: Hashable, Sendable {
    /// The largest single offline payment per currency, in minor units. A currency missing here has no processor
    /// per-payment limit (Tender's still applies).
    public var perPaymentMaximum: [Currency: Int64]
    /// The largest stored total per currency, in minor units.
    public var storedTotalMaximum: [Currency: Int64]
    /// The largest number of stored payments.
    public var storedCountMaximum: Int?
    /// How long a payment may stay stored, in seconds, counted from the oldest stored payment.
    public var storedAgeMaximum: Double?
    /// The largest number of payments stored on the device for every account and location together (Square's
    /// 1,000 per device), compared with ``OfflineQueueSnapshot/deviceStoredCount``.
    public var deviceStoredCountMaximum: Int?
    /// How long, in seconds, the device may keep taking offline payments counted from when it was last online
    /// (Square's 24 hours), compared with ``OfflineQueueSnapshot/lastOnlineAt``.
    public var offlineWindowMaximum: Double?

    /// Creates processor limits.
    public init(perPaymentMaximum: [Currency: Int64] = [:], storedTotalMaximum: [Currency: Int64] = [:],
                storedCountMaximum: Int? = nil, storedAgeMaximum: Double? = nil, deviceStoredCountMaximum: Int? = nil,
                offlineWindowMaximum: Double? = nil) {
        self.perPaymentMaximum = perPaymentMaximum
        self.storedTotalMaximum = storedTotalMaximum
        self.storedCountMaximum = storedCountMaximum
        self.storedAgeMaximum = storedAgeMaximum
        self.deviceStoredCountMaximum = deviceStoredCountMaximum
        self.offlineWindowMaximum = offlineWindowMaximum
    }
}

/// The largest single payment a processor accepts, per currency, as its vendor documents it. The core refuses a
/// larger payment before the processor is called (``PaymentError/Code/invalidAmount``, naming the limit), instead
/// of a late failure at the vendor.
public struct ProcessorAmountLimits: Hashable, Sendable {
    /// The largest total (amount plus tip) per currency, in minor units.
    public var maximumPerCurrency: [Currency: Int64]
    /// The largest total for currencies not in ``maximumPerCurrency``, in minor units; `nil` when none is known.
    public var maximumForOtherCurrencies: Int64?
    /// Where the figures come from, quoted in the error (e.g. Stripe's "an amount has at most eight digits").
    package var source: String
    /// Whether the vendor documents the figures. `false` when the vendor documents none and the figures are the
    /// adapter's configuration (UNVERIFIED as a vendor fact).
    package var isDocumented: Bool

    /// Creates amount limits.
    public init(maximumPerCurrency: [Currency: Int64] = [:], maximumForOtherCurrencies: Int64? = nil, source: String,
                isDocumented: Bool) {
        self.maximumPerCurrency = maximumPerCurrency
        self.maximumForOtherCurrencies = maximumForOtherCurrencies
        self.source = source
        self.isDocumented = isDocumented
    }

    /// The largest total accepted in `currency`, in minor units, or `nil` when no limit is known.
    package func maximum(for currency: Currency) -> Int64? {
        maximumPerCurrency[currency] ?? maximumForOtherCurrencies
    }
}

/// What a processor can do, as its adapter reports it.
public struct ProcessorCapabilities: Hashable, Sendable {
    /// The processor's name, e.g. `"stripe"`. Used as the ``LimitSource`` of its limits.
    public var processorName: String
    /// The processor's offline limits, or `nil` when it cannot take payments offline now (feature off, account
    /// not opted in, sandbox).
    public var offlineLimits: ProcessorOfflineLimits?
    /// The currencies it accepts; `nil` for any.
    public var supportedCurrencies: Set<Currency>?
    /// Whether manual capture is supported.
    public var supportsManualCapture: Bool
    /// Whether it accepts a tip on the request.
    public var supportsTips: Bool
    /// Whether a manual capture may take less than the authorized amount (Stripe `amount_to_capture`). Square's
    /// `CompletePayment` takes no amount: it captures exactly what was authorized.
    public var supportsPartialCapture: Bool
    /// Whether the request's ``PaymentRequest/metadata`` is kept by the processor. When `false`, a request with
    /// metadata is refused before the processor is called rather than silently dropped.
    public var supportsMetadata: Bool
    /// Whether the adapter can refund captured payments (through the app's server or the reader).
    public var supportsRefunds: Bool
    /// The largest single payment per currency (``ProcessorAmountLimits``), or `nil` when the processor declares
    /// none (only Tender's own sanity ceiling, `PaymentRequest/maximumMajorUnits`, applies then).
    public var amountLimits: ProcessorAmountLimits?
    /// How long, in seconds after a refund was recorded ``RefundStatus/succeeded``, the processor may still change
    /// it to ``RefundStatus/failed`` (Stripe documents refunds that fail after succeeding): the core looks such
    /// refunds up again until then (``QueuePolling/refundCheckInterval``). `0` when the processor's succeeded
    /// refunds are final.
    public var refundChangeWindow: Double
    /// Whether the processor refunds in-person Interac payments through the reader, the card presented again
    /// (``ReaderFeature/refundsOnReader``: Stripe's `collectRefundPaymentMethod`, which Stripe requires for them).
    /// `false` (the default): every refund goes through the app's server (Square has no in-person refund).
    package var refundsInteracOnReader = false

    /// Creates a capability description.
    public init(processorName: String, offlineLimits: ProcessorOfflineLimits?, supportedCurrencies: Set<Currency>?,
                supportsManualCapture: Bool = true, supportsTips: Bool = true, supportsPartialCapture: Bool = true,
                supportsMetadata: Bool = true, supportsRefunds: Bool = false,
                amountLimits: ProcessorAmountLimits? = nil, refundChangeWindow: Double = 0) {
        self.processorName = processorName
        self.offlineLimits = offlineLimits
        self.supportedCurrencies = supportedCurrencies
        self.supportsManualCapture = supportsManualCapture
        self.supportsTips = supportsTips
        self.supportsPartialCapture = supportsPartialCapture
        self.supportsMetadata = supportsMetadata
        self.supportsRefunds = supportsRefunds
        self.amountLimits = amountLimits
        self.refundChangeWindow = max(0, refundChangeWindow)
    }
}

/// What an adapter tells the core about one payment: a state it reached and what it learned on the way.
public struct ProcessorPaymentUpdate: Hashable, Sendable {
    /// The app's reference of the payment.
    public var reference: String
    /// The state the processor reports.
    public var state: PaymentState
    /// The route, once known (a `preferOnline` payment may fall back to offline).
    public var route: PaymentRoute?
    /// The processor's id (Stripe `stripeId`, Square `id`), once known.
    public var processorPaymentID: String?
    /// The processor's device-local id (Square `localID`), once known.
    public var localID: String?
    /// Card details for the receipt, once known.
    public var card: CardDetails?
    /// The error, for failed, declined or unknown outcomes.
    public var error: PaymentError?
    /// When the vendor stored the payment offline (Stripe `offlineDetails.storedAt`, Square `createdAt`), if known.
    /// The core keeps it as ``PaymentSession/storedAt``; the stored-age limit uses it.
    public var storedAt: Date?
    /// The vendor's deadline for capturing an authorized payment, if known.
    public var captureBefore: Date?
    /// The total (amount plus tip) the vendor's own record of the payment carries (Stripe the intent's `amount`,
    /// Square `total_money`), when the adapter read one. The core attributes the update to a session only when it
    /// equals the session's ``PaymentSession/total``: a payment for another amount under the same reference is
    /// another sale's (a reused reference), recorded as ``PaymentError/Code/duplicateReference``, never as this
    /// session's outcome. `nil`: not reported (the adapter reports its own payment in progress).
    public var amount: Money?
    /// The vendor payment of the reference (``PaymentSession/paymentAttempt``) the vendor's own record names (Stripe
    /// the intent's `tender_attempt` metadata), when the vendor records it. The core applies the update only to a
    /// session on that vendor payment: a forwarding result of an earlier attempt never lands on a later one.
    public var paymentAttempt: Int?
    /// What the vendor captured of a manual-capture payment, when it says (Stripe's `amount_received`): the core
    /// records it as ``PaymentSession/capturedAmount``. A capture through ``PaymentTerminal/capture(reference:amount:)``
    /// records the amount asked when the adapter leaves this `nil`.
    public var capturedAmount: Money?
    /// The tip the customer chose on the reader (``PaymentRequest/tipEligibleAmount``; Stripe's `amountTip`), once
    /// the vendor reports it: the core records it as the session's ``PaymentSession/tip``, so its total and
    /// refundable amount include it, and ``amount`` is then compared with the amount plus this tip.
    public var tip: Money?

    /// Creates an update.
    public init(reference: String, state: PaymentState, route: PaymentRoute? = nil, processorPaymentID: String? = nil,
                localID: String? = nil, card: CardDetails? = nil, error: PaymentError? = nil, storedAt: Date? = nil,
                captureBefore: Date? = nil, amount: Money? = nil, paymentAttempt: Int? = nil,
                capturedAmount: Money? = nil, tip: Money? = nil) {
        self.reference = reference
        self.state = state
        self.route = route
        self.processorPaymentID = processorPaymentID
        self.localID = localID
        self.card = card
        self.error = error
        self.storedAt = storedAt
        self.captureBefore = captureBefore
        self.amount = amount
        self.paymentAttempt = paymentAttempt
        self.capturedAmount = capturedAmount
        self.tip = tip
    }
}

/// Receives an adapter's intermediate updates during ``PaymentProcessor/startPayment(_:routing:attempt:updates:)``.
/// The core validates and durably records each one before it returns, so an adapter should `await` it before
/// taking the next step. If it throws (the ledger could not record), the adapter should stop and rethrow.
public typealias PaymentUpdateHandler = @Sendable (ProcessorPaymentUpdate) async throws -> Void

/// What the core knows of a payment it asks an adapter to start or retry.
///
/// Two numbers matter. ``number`` counts the calls for the reference. ``paymentAttempt`` names the vendor payment:
/// it stays the same while an outcome is not definite (a timeout, a nil intent, a crash, a lookup that cannot
/// answer), so the adapter continues the same vendor payment (Stripe: the same PaymentIntent, following seed 002's
/// processing-failure table; Square: the same `paymentAttemptID`); it grows only after a definite decline, failure
/// or cancellation with nothing charged, when the adapter starts a new vendor payment.
public struct PaymentAttempt: Hashable, Sendable {
    /// 1 for the first call for this reference; more when the same reference is taken again.
    public var number: Int
    /// Which vendor payment of the reference this is (``PaymentSession/paymentAttempt``): 1 for the first.
    public var paymentAttempt: Int
    /// The processor id recorded from an earlier call for this vendor payment, if any.
    public var processorPaymentID: String?
    /// The device-local id recorded from an earlier call for this vendor payment, if any.
    public var localID: String?
    /// The state the earlier call left the session in, if any (``PaymentState/created`` for a new vendor payment
    /// after a definite ending).
    public var previousState: PaymentState?
    /// When the ledger last recorded a change of state of this vendor payment before this call (retries that
    /// changed nothing do not count), if an earlier call exists: a request an earlier call sent may still reach the
    /// vendor for a while after it, which an adapter whose vendor cannot continue the same payment object (Square)
    /// must wait out before sending the attempt again.
    public var lastRecordedAt: Date?
    /// The merchant and location the vendor attempt id is qualified with (``IdempotencyKey/vendorAttemptID(reference:paymentAttempt:scope:)``):
    /// the ledger's scope for sessions recorded since ledger schema 6, `nil` for older ones (and for adapter calls
    /// made outside a ``PaymentTerminal``), whose ids are the reference alone.
    public var idScope: LedgerScope?
    /// The ledger scope the payment is taken in (the terminal's), for every session, also those recorded before
    /// ledger schema 6 whose ``idScope`` is nil: an adapter tags the vendor payment with its location (Stripe's
    /// `tender_location`, which the server's routes check ownership by). nil for adapter calls made outside a
    /// ``PaymentTerminal``.
    package var scope: LedgerScope?

    /// Creates an attempt description.
    package init(number: Int = 1, paymentAttempt: Int = 1, processorPaymentID: String? = nil, localID: String? = nil,
                previousState: PaymentState? = nil, lastRecordedAt: Date? = nil, idScope: LedgerScope? = nil,
                scope: LedgerScope? = nil) {
        self.number = number
        self.paymentAttempt = paymentAttempt
        self.processorPaymentID = processorPaymentID
        self.localID = localID
        self.previousState = previousState
        self.lastRecordedAt = lastRecordedAt
        self.idScope = idScope
        self.scope = scope ?? idScope
    }

    /// Whether an earlier call may have started this vendor payment: the adapter must find and continue it,
    /// never create a second one.
    public var continuesEarlierPayment: Bool {
        guard number > 1, let previousState else { return false }
        return previousState != .created || processorPaymentID != nil || localID != nil
    }

    /// The identifier of this vendor payment, derived (never random) and unique per merchant, location, reference
    /// and vendor payment: with ``idScope``, the ``IdempotencyKey/Operation/payment`` key
    /// (`<merchant>/<location>/<reference>/<n>/payment`); without it (sessions recorded before keys were scoped),
    /// the reference itself for the first vendor payment and `"<reference>#<n>"` after. Square's `paymentAttemptID`
    /// uses it: Square's SDK keeps its idempotency key for the payment under it on the device, whatever location the
    /// device is signed in to, so the same order number at two locations must not share it.
    public func vendorAttemptID(reference: String) -> String {
        IdempotencyKey.vendorAttemptID(reference: reference, paymentAttempt: paymentAttempt, scope: idScope)
    }

    /// ``vendorAttemptID(reference:)`` for a given vendor payment number, without a scope (the reference-only
    /// form of sessions recorded before keys were scoped).
    package static func vendorAttemptID(reference: String, paymentAttempt: Int) -> String {
        IdempotencyKey.vendorAttemptID(reference: reference, paymentAttempt: paymentAttempt, scope: nil)
    }
}

/// What the core asks a processor about one payment during recovery, reconciliation or an abandonment.
public struct PaymentLookupQuery: Hashable, Sendable {
    /// The app's reference.
    public var reference: String
    /// The vendor payment of the reference (``PaymentSession/paymentAttempt``).
    public var paymentAttempt: Int
    /// The device-local id, if recorded.
    public var localID: String?
    /// The processor id, if recorded.
    public var processorPaymentID: String?
    /// The state the ledger has.
    public var recordedState: PaymentState
    /// The route recorded, if any.
    public var route: PaymentRoute?
    /// Automatic or manual capture.
    public var captureMode: CaptureMode
    /// When the current vendor payment was first recorded: a processor with an eventually consistent search
    /// answers ``ProcessorLookup/unknown`` for an empty search until its consistency window has passed since then.
    public var since: Date
    /// The session's total (amount plus tip), when known. A payment the vendor holds under the reference for another
    /// amount or currency is not this one (a reused reference): an adapter searching by reference attributes only
    /// payments of this total, and reports one for another total with its ``ProcessorPaymentUpdate/amount`` so that
    /// the core records ``PaymentError/Code/duplicateReference``.
    public var amount: Money?
    /// The scope the vendor attempt id is qualified with (``PaymentAttempt/idScope``).
    public var idScope: LedgerScope?

    /// Creates a query.
    package init(reference: String, paymentAttempt: Int = 1, localID: String? = nil, processorPaymentID: String? = nil,
                recordedState: PaymentState = .outcomeUnknown, route: PaymentRoute? = nil,
                captureMode: CaptureMode = .automatic, since: Date = .distantPast, amount: Money? = nil,
                idScope: LedgerScope? = nil) {
        self.reference = reference
        self.paymentAttempt = paymentAttempt
        self.localID = localID
        self.processorPaymentID = processorPaymentID
        self.recordedState = recordedState
        self.route = route
        self.captureMode = captureMode
        self.since = since
        self.amount = amount
        self.idScope = idScope
    }

    /// The query for a recorded session.
    package init(_ session: PaymentSession) {
        let started = session.transitions.last { $0.to == .created }?.at ?? session.createdAt
        self.init(reference: session.reference, paymentAttempt: session.paymentAttempt, localID: session.localID,
                  processorPaymentID: session.processorPaymentID, recordedState: session.state, route: session.route,
                  captureMode: session.captureMode, since: started, amount: session.total,
                  idScope: session.keyScheme.attemptIDScope(session.scope))
    }

    /// ``PaymentAttempt/vendorAttemptID(reference:)`` of this vendor payment.
    public var vendorAttemptID: String {
        IdempotencyKey.vendorAttemptID(reference: reference, paymentAttempt: paymentAttempt, scope: idScope)
    }
}

/// What a processor knows of a payment, for recovery after a restart.
public enum ProcessorLookup: Hashable, Sendable {
    /// The processor holds the payment in this state. A state that is not an outcome (``PaymentState/collecting``,
    /// ``PaymentState/processing``) means "it exists and is not finished": a retry continues it.
    case found(ProcessorPaymentUpdate)
    /// The processor can prove it never received the payment (for example an id it issued that it reports missing
    /// after its consistency window): nothing was charged and nothing can be. Never answer this for an empty search
    /// inside the consistency window, or when the device may still hold the payment: a server search cannot see a
    /// payment the vendor's SDK stores on the device (Stripe's offline store is invisible to its server until
    /// forwarded), and after a power loss the ledger's write-ahead state (``PaymentState/created``, no ids) proves
    /// nothing about how far the payment got. The core reads this answer as ``unknown`` for a session that may have
    /// been stored offline while the processor's queue holds stored payments it does not name.
    case notFound
    /// The processor cannot tell now (offline, a lagging search, records it cannot read). The session stays as it
    /// is, unknown, and is reconciled later; never read as "not charged".
    case unknown
}

/// An event a processor reports outside any one call.
public enum ProcessorEvent: Hashable, Sendable {
    /// The device's connection to the processor changed.
    case networkStatusChanged(NetworkStatus)
    /// The reader asks the customer to present a card in one of these ways.
    case readerInputRequested(ReaderInputOptions)
    /// The reader asks the app to show a message.
    case readerMessage(ReaderDisplayMessage)
    /// The reader connection changed.
    case readerConnectionChanged(ReaderConnectionStatus)
    /// The reader disconnected.
    case readerDisconnected(ReaderDisconnectReason)
    /// Automatic reconnection started after an unexpected disconnect.
    case readerReconnectStarted(ReaderDisconnectReason)
    /// Automatic reconnection succeeded.
    case readerReconnectSucceeded
    /// Automatic reconnection failed; the reader is disconnected.
    case readerReconnectFailed
    /// A software update is available (optional or required).
    case softwareUpdateAvailable(ReaderSoftwareUpdate)
    /// A software update is installing; progress 0...1.
    case softwareUpdateProgress(Double)
    /// A software update finished; `nil` on success.
    case softwareUpdateFinished(PaymentError?)
    /// The reader's battery level changed (0...1).
    case batteryLevelChanged(level: Double, isCharging: Bool)
    /// The reader warned that its battery is low (Stripe's `readerDidReportLowBatteryWarning`): charge it before it
    /// stops taking payments.
    case readerBatteryLow
    /// A stored payment was forwarded, declined after forwarding, or failed to forward.
    case paymentForwarded(ProcessorPaymentUpdate)
    /// Forwarding failed for a reason not tied to one payment (credentials, account mismatch).
    case forwardingError(PaymentError)
    /// The offline queue changed (counts or amounts).
    case offlineQueueChanged
}

