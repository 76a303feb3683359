public import Foundation
public import Tender

/// A ``PaymentProcessor`` that keeps everything in memory, for tests and previews. It is not a happy-path stub:
/// cards can be scripted to decline, to be declined only when forwarded, to time out before the processor received
/// the request or after it charged (the answer is lost, as with a nil Stripe intent), or to be canceled by the
/// customer; the network can be offline; its server-side search can lag; a card presentation or an authorization
/// can be held (so a task can be cancelled mid-collect or mid-confirm); it can be relaunched, forgetting everything
/// an adapter would hold in memory; stored payments are forwarded only when ``forwardStoredPayments()`` is called
/// while online.
///
/// Its "processor side" (``charges(reference:)``, ``heldPayment(reference:)``) is what a real processor's servers
/// would hold, so tests can check that every reference was charged at most once. Payments are keyed by vendor
/// attempt (``PaymentAttempt/vendorAttemptID(reference:)``), like Square's `paymentAttemptID`.
public final class InMemoryPaymentProcessor: PaymentProcessor, @unchecked Sendable {
    /// A fault of the next refund request.
    public enum RefundFault: Hashable, Sendable {
        /// The server cannot be reached: nothing is refunded, the outcome is unknown to the app.
        case unreachable
        /// The server refunds, then the answer is lost.
        case answerLost
        /// The server refuses the refund.
        case refused
    }

    /// How the next presented card behaves.
    public enum Card: Hashable, Sendable {
        /// Approved.
        case approve
        /// Declined at the reader or by the issuer while the customer waits.
        case decline
        /// Approved offline, then declined by the issuer when forwarded.
        case declineWhenForwarded
        /// Charged, but the answer is lost: the processor holds the payment, the app does not know.
        case answerLostAfterCharge
        /// Times out before anything reached the processor.
        case confirmNotReceived
        /// The customer cancels on the reader.
        case customerCancels
    }

    /// A payment as the in-memory processor holds it.
    public struct HeldPayment: Hashable, Sendable {
        /// The app's reference.
        public var reference: String
        /// The vendor attempt id (the reference, or `reference#n` for later vendor payments).
        public var attemptID: String
        /// The processor id (set when charged or forwarded).
        public var id: String?
        /// The local id of an offline payment.
        public var localID: String?
        /// The state the processor would report.
        public var state: PaymentState
        /// The amount charged or stored.
        public var amount: Money
        /// When the processor last changed it (its search index sees the change only after the search lag).
        public var changedAt: Date
        /// When it was stored offline, if it was.
        public var storedAt: Date?
        /// What a manual capture took (at most ``amount``), once captured.
        public var capturedAmount: Money?
        /// How the card behaves when forwarded.
        var declinesWhenForwarded: Bool
        /// The capture mode.
        var captureMode: CaptureMode
    }

    /// The processor's side: what survives a relaunch.
    struct State {
        var network: NetworkStatus = .online
        var offlineLimits: ProcessorOfflineLimits?
        var cards: [Card] = []
        /// A timeout injected into the next payment, whatever card is presented.
        var pendingFault: Card?
        var held: [String: HeldPayment] = [:]  // by attempt id
        var charges: [String: Int] = [:]      // by reference
        var refunds: [String: HeldRefund] = [:]  // by idempotency key
        var refunded: [String: Int64] = [:]   // by processor payment id (succeeded and pending refunds)
        var operationKeys: [String: String] = [:]  // capture and void: idempotency key → what it was used for
        var refundFailsAfter: Double?
        var refundChangeWindow: Double = 0
        /// The readers' side: what each reader would do (kept across a relaunch, like the hardware).
        var readers = ReaderSide()
        var sequence = 0
        var searchLag: Double = 0
        var refundFault: RefundFault?
        var supportsPartialCapture = true
        var supportsMetadata = true
        var reportsForwardingAsEvents = true
        var holdNextCard = false
        var holdNextAuthorization = false
        var calls: [String] = []
    }

    /// The processor name reported in capabilities and the ledger.
    public let name: String
    let state: Locked<State>
    let clock: any TenderClock
    let emitter = ProcessorEventEmitter()
    /// What this app instance holds in memory (forgotten by a relaunch).
    let session = Locked(SessionState())
    let gate = HoldGate()

    struct SessionState {
        var canceledReferences: Set<String> = []
        var reader: Reader?
    }

    /// Creates a processor.
    /// - Parameters:
    ///   - name: the name (default `"memory"`).
    ///   - offlineLimits: the processor's offline limits; `nil` means it cannot take payments offline.
    ///   - clock: the time source for stored times and search lag.
    public init(name: String = "memory", offlineLimits: ProcessorOfflineLimits? = ProcessorOfflineLimits(),
                clock: any TenderClock = SystemClock()) {
        self.name = name
        self.clock = clock
        state = Locked(State(offlineLimits: offlineLimits))
    }

    private init(relaunching other: InMemoryPaymentProcessor) {
        name = other.name
        clock = other.clock
        state = other.state
    }

    // MARK: Test controls

    /// A new adapter instance over the same processor side, as after an app relaunch: everything this instance
    /// held in memory (cancellation requests, the connected reader, a held card or authorization) is forgotten;
    /// what the processor and the device's store hold is kept.
    public func relaunched() -> InMemoryPaymentProcessor {
        gate.releaseAll()
        return InMemoryPaymentProcessor(relaunching: self)
    }

    /// Sets the network status and reports it as an event.
    public func setNetwork(_ status: NetworkStatus) {
        state.withLock { $0.network = status }
        emitter.emit(.networkStatusChanged(status))
    }

    /// Queues the behaviour of the next presented cards, in order. When the queue is empty, cards approve.
    public func present(_ cards: Card...) { state.withLock { $0.cards.append(contentsOf: cards) } }

    /// Makes the next payment time out (``Card/confirmNotReceived`` or ``Card/answerLostAfterCharge``) whatever card
    /// is presented.
    public func injectTimeout(_ fault: Card) {
        precondition(fault == .confirmNotReceived || fault == .answerLostAfterCharge, "only timeouts can be injected")
        state.withLock { $0.pendingFault = fault }
    }

    /// Makes the next refund request fail as `fault` says.
    public func injectRefundFault(_ fault: RefundFault) { state.withLock { $0.refundFault = fault } }

    /// Changes what ``capabilities()`` reports: partial capture (Square cannot) and metadata (kept or not).
    public func setCapabilities(partialCapture: Bool = true, metadata: Bool = true) {
        state.withLock {
            $0.supportsPartialCapture = partialCapture
            $0.supportsMetadata = metadata
        }
    }

    /// With `false`, forwarding results are not sent as events: like Square, the processor reports them only in
    /// its queue (``queueSnapshot()``), so they are seen only if someone reads it.
    public func setReportsForwardingAsEvents(_ value: Bool) { state.withLock { $0.reportsForwardingAsEvents = value } }

    /// Makes the processor's search lag: a payment appears in lookups (or changes there) only `seconds` after it
    /// was created or changed.
    public func setSearchLag(seconds: Double) { state.withLock { $0.searchLag = seconds } }

    /// Holds the next card presentation until ``releaseHeld()`` (or a cancellation).
    public func holdNextCard() { state.withLock { $0.holdNextCard = true } }

    /// Holds the next authorization until ``releaseHeld()``; a cancellation does not stop it.
    public func holdNextAuthorization() { state.withLock { $0.holdNextAuthorization = true } }

    /// Lets a held card or authorization proceed.
    public func releaseHeld() { gate.releaseAll() }

    /// Whether a card or authorization is held now.
    public var isHolding: Bool { gate.isHolding }

    /// How many times the processor has charged (authorized online, or accepted when forwarded) this reference,
    /// over every vendor payment of it.
    public func charges(reference: String) -> Int { state.withLock { $0.charges[reference] ?? 0 } }

    /// How much the processor has refunded of a reference's payments, in minor units.
    public func refunded(reference: String) -> Int64 {
        state.withLock { s in
            s.held.values.filter { $0.reference == reference }.compactMap(\.id).reduce(Int64(0)) { $0 + (s.refunded[$1] ?? 0) }
        }
    }

    /// How much the processor has captured of a reference's payments, in minor units: what a manual capture took,
    /// and the whole of a payment captured automatically (online, or once forwarded).
    public func captured(reference: String) -> Int64 {
        state.withLock { s in
            s.held.values.filter { $0.reference == reference }.reduce(Int64(0)) { sum, held in
                let isCaptured = held.state == .succeeded || (held.state == .forwarded && held.captureMode == .automatic)
                return isCaptured ? sum + (held.capturedAmount ?? held.amount).minorUnits : sum
            }
        }
    }

    /// The most advanced payment the processor holds for a reference, if any.
    public func heldPayment(reference: String) -> HeldPayment? {
        state.withLock { s in s.held.values.filter { $0.reference == reference }.max { $0.changedAt < $1.changedAt } }
    }

    /// Every call made to the processor, in order (method names with the reference).
    public var calls: [String] { state.withLock { $0.calls } }

    /// Forwards every stored payment if online, reporting each result as a ``ProcessorEvent/paymentForwarded(_:)``
    /// event. Returns how many were forwarded (approved or declined).
    @discardableResult
    public func forwardStoredPayments() -> Int {
        let now = clock.now()
        let results: [ProcessorPaymentUpdate] = state.withLock { s in
            guard s.network == .online else { return [] }
            var out: [ProcessorPaymentUpdate] = []
            for key in s.held.keys.sorted() where s.held[key]!.state == .storedOffline {
                var payment = s.held[key]!
                payment.changedAt = now
                if payment.declinesWhenForwarded {
                    payment.state = .declinedAfterForwarding
                    out.append(ProcessorPaymentUpdate(
                        reference: payment.reference, state: .declinedAfterForwarding, route: .offline,
                        localID: payment.localID,
                        error: PaymentError(.cardDeclined, recovery: .collectAnotherCard, phase: .forwarding,
                                            message: "The card was declined when the stored payment was forwarded.",
                                            vendor: .init(processor: name, name: "declinedWhenForwarded")),
                        storedAt: payment.storedAt))
                } else {
                    s.sequence += 1
                    payment.id = "mem_\(s.sequence)"
                    payment.state = .forwarded
                    s.charges[payment.reference, default: 0] += 1
                    out.append(ProcessorPaymentUpdate(reference: payment.reference, state: .forwarded, route: .offline,
                                                      processorPaymentID: payment.id, localID: payment.localID,
                                                      storedAt: payment.storedAt))
                }
                s.held[key] = payment
            }
            return out
        }
        if state.withLock({ $0.reportsForwardingAsEvents }) {
            for update in results { emitter.emit(.paymentForwarded(update)) }
            if !results.isEmpty { emitter.emit(.offlineQueueChanged) }
        }
        return results.count
    }

    // MARK: PaymentProcessor: readers and status

    /// Reports the offline limits given at creation; refunds are supported (followed for
    /// ``setRefundChangeWindow(_:)`` after they succeed).
    public func capabilities() async -> ProcessorCapabilities {
        let s = state.current
        return ProcessorCapabilities(processorName: name, offlineLimits: s.offlineLimits, supportedCurrencies: nil,
                                     supportsPartialCapture: s.supportsPartialCapture,
                                     supportsMetadata: s.supportsMetadata, supportsRefunds: true,
                                     refundChangeWindow: s.refundChangeWindow)
    }

    /// The simulated network's status.
    public func networkStatus() async -> NetworkStatus { state.withLock { $0.network } }

    /// The event stream.
    public func events() -> AsyncStream<ProcessorEvent> { emitter.stream }
}

/// Holds a simulated card presentation or authorization until released. Waiting ignores task cancellation, as a
/// vendor SDK's completion does: only a release (or a vendor-side cancellation) ends it.
final class HoldGate: Sendable {
    private let waiters = Locked<[CheckedContinuation<Bool, Never>]>([])

    /// Waits until released; returns `true` when released, `false` when canceled through ``cancelAll()``.
    func hold() async -> Bool {
        await withCheckedContinuation { continuation in waiters.withLock { $0.append(continuation) } }
    }

    /// Whether anything waits.
    var isHolding: Bool { !waiters.current.isEmpty }

    /// Releases every waiter.
    func releaseAll() {
        for waiter in waiters.withLock({ w -> [CheckedContinuation<Bool, Never>] in defer { w = [] }; return w }) {
            waiter.resume(returning: true)
        }
    }

    /// Cancels every waiter (a vendor-side cancellation of a held card).
    func cancelAll() {
        for waiter in waiters.withLock({ w -> [CheckedContinuation<Bool, Never>] in defer { w = [] }; return w }) {
            waiter.resume(returning: false)
        }
    }
}
