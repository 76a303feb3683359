import Foundation

/// The offline limits a processor imposes (Stripe's 10,000 USD offline maximum; Square's per-seller
/// `offlineTransactionAmountLimit`, `offlineTotalStoredAmountLimit` and 24-hour window). Merged with Tender's own
/// limits by ``OfflineRiskLimits/merged(with:source:)``; the tighter wins.
public struct ProcessorOfflineLimits: Hashable, Sendable {
    /// The largest single offline payment per currency, in minor units. A currency missing here has no processor
    /// per-payment limit (Tender's still applies).
    public var perPaymentMaximum: [Currency: Int64]
    /// The largest stored total per currency, in minor units.
    public var storedTotalMaximum: [Currency: Int64]
    /// The largest number of stored payments.
    public var storedCountMaximum: Int?
    /// How long a payment may stay stored, in seconds (Square's 24 hours).
    public var storedAgeMaximum: Double?

    /// Creates processor limits.
    public init(perPaymentMaximum: [Currency: Int64] = [:], storedTotalMaximum: [Currency: Int64] = [:],
                storedCountMaximum: Int? = nil, storedAgeMaximum: Double? = nil) {
        self.perPaymentMaximum = perPaymentMaximum
        self.storedTotalMaximum = storedTotalMaximum
        self.storedCountMaximum = storedCountMaximum
        self.storedAgeMaximum = storedAgeMaximum
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

    /// Creates a capability description.
    public init(processorName: String, offlineLimits: ProcessorOfflineLimits?, supportedCurrencies: Set<Currency>?,
                supportsManualCapture: Bool = true, supportsTips: Bool = true) {
        self.processorName = processorName
        self.offlineLimits = offlineLimits
        self.supportedCurrencies = supportedCurrencies
        self.supportsManualCapture = supportsManualCapture
        self.supportsTips = supportsTips
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

    /// Creates an update.
    public init(reference: String, state: PaymentState, route: PaymentRoute? = nil, processorPaymentID: String? = nil,
                localID: String? = nil, card: CardDetails? = nil, error: PaymentError? = nil) {
        self.reference = reference
        self.state = state
        self.route = route
        self.processorPaymentID = processorPaymentID
        self.localID = localID
        self.card = card
        self.error = error
    }
}

/// Receives an adapter's intermediate updates during ``PaymentProcessor/startPayment(_:routing:attempt:updates:)``.
/// The core validates and durably records each one before it returns, so an adapter should `await` it before
/// taking the next step. If it throws (the ledger could not record), the adapter should stop and rethrow.
public typealias PaymentUpdateHandler = @Sendable (ProcessorPaymentUpdate) async throws -> Void

/// What the core knows of a payment it asks an adapter to start or retry.
public struct PaymentAttempt: Hashable, Sendable {
    /// 1 for the first attempt; more when the same reference is retried (after a timeout, a crash, a decline at
    /// collection).
    public var number: Int
    /// The processor id recorded from an earlier attempt, if any.
    public var processorPaymentID: String?
    /// The device-local id recorded from an earlier attempt, if any.
    public var localID: String?
    /// The state the earlier attempt left the session in, if any.
    public var previousState: PaymentState?

    /// Creates an attempt description.
    public init(number: Int = 1, processorPaymentID: String? = nil, localID: String? = nil,
                previousState: PaymentState? = nil) {
        self.number = number
        self.processorPaymentID = processorPaymentID
        self.localID = localID
        self.previousState = previousState
    }
}

/// What a processor knows of a payment, for recovery after a restart.
public enum ProcessorLookup: Hashable, Sendable {
    /// The processor holds the payment in this state.
    case found(ProcessorPaymentUpdate)
    /// The processor certainly never received the payment: nothing was charged.
    case notFound
    /// The processor cannot tell now (offline, or its records are incomplete). The session stays as it is.
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
    /// A stored payment was forwarded, declined after forwarding, or failed to forward.
    case paymentForwarded(ProcessorPaymentUpdate)
    /// Forwarding failed for a reason not tied to one payment (credentials, account mismatch).
    case forwardingError(PaymentError)
    /// The offline queue changed (counts or amounts).
    case offlineQueueChanged
}

/// The seam between Tender's core and one processor: an adapter conforms to it, translating its vendor SDK's
/// calls, states and errors. Adapters are stateless translators; the core owns the session state machine, the
/// offline policy, the ledger and reconciliation. An adapter never decides whether a payment may be taken
/// offline: it is told (``RoutingDecision``) and reports what its vendor did.
///
/// Errors thrown by every method are ``PaymentError``s carrying the vendor's raw error.
public protocol PaymentProcessor: Sendable {
    /// The processor's name, e.g. `"stripe"`; stored in the ledger with each session.
    var name: String { get }

    /// What the processor can do now, including its offline limits.
    func capabilities() async -> ProcessorCapabilities

    /// Looks for readers for at most `timeout` seconds.
    func discoverReaders(timeout: Double) async throws -> [Reader]

    /// Connects a reader at a location. Reports software-update progress through ``events()``.
    func connectReader(_ reader: Reader, locationID: String) async throws -> Reader

    /// Disconnects the connected reader.
    func disconnectReader() async throws

    /// Takes the in-person part of a payment: creates it, collects the card, authorizes or stores it.
    ///
    /// Report each intermediate state (``PaymentState/collecting``, ``PaymentState/processing``) through
    /// `updates`, awaiting each. Return the final state of the in-person part: authorized, succeeded, stored
    /// offline, declined, failed, canceled, or outcome unknown. Throw only when you cannot tell what happened; the
    /// core then records ``PaymentState/outcomeUnknown`` and reconciles later.
    ///
    /// When `attempt.number > 1` the same reference was tried before: continue the earlier vendor payment (Stripe:
    /// the same PaymentIntent; Square: the same `paymentAttemptID`), never create a new charge.
    func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                      updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate

    /// Cancels the payment in progress with this reference, if it can still be canceled.
    func cancelPayment(reference: String) async throws

    /// Captures an authorized payment (manual capture), through the app's ``PaymentCaptureService``.
    func capturePayment(reference: String, processorPaymentID: String, amount: Money) async throws
        -> ProcessorPaymentUpdate

    /// Voids an authorized, uncaptured payment, through the app's ``PaymentCaptureService``.
    func voidPayment(reference: String, processorPaymentID: String) async throws -> ProcessorPaymentUpdate

    /// The processor's view of its offline queue now.
    func queueSnapshot() async throws -> OfflineQueueSnapshot

    /// What the processor knows of a payment, for recovery (match by reference, local id or processor id).
    func lookUpPayment(reference: String, localID: String?, processorPaymentID: String?) async throws
        -> ProcessorLookup

    /// The processor's events. Called once by the core, which consumes the stream for the processor's lifetime.
    func events() -> AsyncStream<ProcessorEvent>
}

/// The app's server-side capture and void: both vendors capture on the server on iOS (Stripe
/// `POST /v1/payment_intents/:id/capture`; Square `CompletePayment` / `CancelPayment`). Adapters take one at
/// initialization and call it from ``PaymentProcessor/capturePayment(reference:processorPaymentID:amount:)``.
public protocol PaymentCaptureService: Sendable {
    /// Captures `amount` of the processor payment `processorPaymentID`, whose app reference is `reference`. Make
    /// it idempotent (derive the vendor's idempotency key from the reference and the operation): a retried capture
    /// must be the same request.
    func capture(processor: String, reference: String, processorPaymentID: String, amount: Money) async throws
    /// Voids (cancels) the processor payment `processorPaymentID`, idempotently.
    func void(processor: String, reference: String, processorPaymentID: String) async throws
}

extension PaymentCaptureService {
    /// Captures through the service and returns the update an adapter reports (``PaymentState/succeeded``). A
    /// failure becomes a ``PaymentError`` (``PaymentError/init(capturing:phase:)``): capture is idempotent on both
    /// vendors' servers, so it is retryable. Adapters call this rather than
    /// ``capture(processor:reference:processorPaymentID:amount:)`` directly.
    public func captured(reference: String, processor: String, processorPaymentID: String, amount: Money)
        async throws(PaymentError) -> ProcessorPaymentUpdate {
        do { try await capture(processor: processor, reference: reference, processorPaymentID: processorPaymentID, amount: amount) }
        catch { throw PaymentError(capturing: error) }
        return ProcessorPaymentUpdate(reference: reference, state: .succeeded, processorPaymentID: processorPaymentID)
    }

    /// Voids through the service and returns the update an adapter reports (``PaymentState/canceled``), converting
    /// a failure as ``captured(reference:processor:processorPaymentID:amount:)`` does.
    public func voided(reference: String, processor: String, processorPaymentID: String)
        async throws(PaymentError) -> ProcessorPaymentUpdate {
        do { try await void(processor: processor, reference: reference, processorPaymentID: processorPaymentID) }
        catch { throw PaymentError(capturing: error) }
        return ProcessorPaymentUpdate(reference: reference, state: .canceled, processorPaymentID: processorPaymentID)
    }
}

extension PaymentError {
    /// A capture service's failure: its own ``PaymentError`` if it threw one, otherwise
    /// ``PaymentError/Code/captureFailed`` with recovery ``PaymentError/Recovery/retrySamePayment``.
    public init(capturing error: any Error, phase: Phase = .capture) {
        self = (error as? PaymentError) ?? PaymentError(.captureFailed, recovery: .retrySamePayment, phase: phase,
                                                        message: "The app's capture service failed: \(error).")
    }
}
