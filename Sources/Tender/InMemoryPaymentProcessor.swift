import Foundation

/// A ``PaymentProcessor`` that keeps everything in memory, for tests and previews. It is not a happy-path stub:
/// cards can be scripted to decline, to be declined only when forwarded, to time out after the charge was made
/// (the answer is lost, as with a nil Stripe intent), or to be canceled by the customer; the network can be
/// offline; stored payments are forwarded only when ``forwardStoredPayments()`` is called while online.
///
/// Its "processor side" (``charges(reference:)``, ``heldPayment(reference:)``) is what a real processor's servers
/// would hold, so tests can check that every reference was charged exactly once.
public final class InMemoryPaymentProcessor: PaymentProcessor, @unchecked Sendable {
    /// How the next presented card behaves.
    public enum Card: Hashable, Sendable {
        /// Approved.
        case approve
        /// Declined at the reader or by the issuer while the customer waits.
        case decline
        /// Approved offline, then declined by the issuer when forwarded.
        case declineWhenForwarded
        /// Charged, but the answer is lost: the processor holds the payment, the app does not know.
        case timeOutAfterCharge
        /// Times out before anything reached the processor.
        case timeOutBeforeCharge
        /// The customer cancels on the reader.
        case customerCancels
    }

    /// A payment as the in-memory processor holds it.
    public struct HeldPayment: Hashable, Sendable {
        /// The app's reference.
        public var reference: String
        /// The processor id (set when charged or forwarded).
        public var id: String?
        /// The local id of an offline payment.
        public var localID: String?
        /// The state the processor would report.
        public var state: PaymentState
        /// The amount charged or stored.
        public var amount: Money
        /// How the card behaves when forwarded.
        var declinesWhenForwarded: Bool
        /// The capture mode.
        var captureMode: CaptureMode
    }

    private struct State {
        var network: NetworkStatus = .online
        var offlineLimits: ProcessorOfflineLimits?
        var cards: [Card] = []
        var held: [String: HeldPayment] = [:]
        var charges: [String: Int] = [:]
        var sequence = 0
        var reader: Reader?
        var canceledReferences: Set<String> = []
        var calls: [String] = []
    }

    /// The processor name reported in capabilities and the ledger.
    public let name: String
    private let state: Locked<State>
    private let emitter = ProcessorEventEmitter()

    /// Creates a processor.
    /// - Parameters:
    ///   - name: the name (default `"memory"`).
    ///   - offlineLimits: the processor's offline limits; `nil` means it cannot take payments offline.
    public init(name: String = "memory", offlineLimits: ProcessorOfflineLimits? = ProcessorOfflineLimits()) {
        self.name = name
        state = Locked(State(offlineLimits: offlineLimits))
    }

    // MARK: Test controls

    /// Sets the network status and reports it as an event.
    public func setNetwork(_ status: NetworkStatus) {
        state.withLock { $0.network = status }
        emitter.emit(.networkStatusChanged(status))
    }

    /// Queues the behaviour of the next presented cards, in order. When the queue is empty, cards approve.
    public func present(_ cards: Card...) { state.withLock { $0.cards.append(contentsOf: cards) } }

    /// How many times the processor has charged (authorized online, or accepted when forwarded) this reference.
    public func charges(reference: String) -> Int { state.withLock { $0.charges[reference] ?? 0 } }

    /// The payment the processor holds for a reference, if any.
    public func heldPayment(reference: String) -> HeldPayment? { state.withLock { $0.held[reference] } }

    /// Every call made to the processor, in order (method names with the reference).
    public var calls: [String] { state.withLock { $0.calls } }

    /// Forwards every stored payment if online, reporting each result as a ``ProcessorEvent/paymentForwarded(_:)``
    /// event. Returns how many were forwarded (approved or declined).
    @discardableResult
    public func forwardStoredPayments() -> Int {
        let results: [ProcessorPaymentUpdate] = state.withLock { s in
            guard s.network == .online else { return [] }
            var out: [ProcessorPaymentUpdate] = []
            for reference in s.held.keys.sorted() where s.held[reference]!.state == .storedOffline {
                var payment = s.held[reference]!
                if payment.declinesWhenForwarded {
                    payment.state = .declinedAfterForwarding
                    out.append(ProcessorPaymentUpdate(
                        reference: reference, state: .declinedAfterForwarding, route: .offline, localID: payment.localID,
                        error: PaymentError(.cardDeclined, recovery: .collectAnotherCard, phase: .forwarding,
                                            message: "The card was declined when the stored payment was forwarded.",
                                            vendor: .init(processor: name, name: "declinedWhenForwarded"))))
                } else {
                    s.sequence += 1
                    payment.id = "mem_\(s.sequence)"
                    payment.state = .forwarded
                    s.charges[reference, default: 0] += 1
                    out.append(ProcessorPaymentUpdate(reference: reference, state: .forwarded, route: .offline,
                                                      processorPaymentID: payment.id, localID: payment.localID))
                }
                s.held[reference] = payment
            }
            return out
        }
        for update in results { emitter.emit(.paymentForwarded(update)) }
        if !results.isEmpty { emitter.emit(.offlineQueueChanged) }
        return results.count
    }

    // MARK: PaymentProcessor

    /// Reports the offline limits given at creation.
    public func capabilities() async -> ProcessorCapabilities {
        ProcessorCapabilities(processorName: name, offlineLimits: state.withLock { $0.offlineLimits },
                              supportedCurrencies: nil)
    }

    /// One simulated reader.
    public func discoverReaders(timeout: Double) async throws -> [Reader] {
        [Reader(id: "memory-reader-1", serialNumber: "MEM-0001", model: "memory", isSimulated: true)]
    }

    /// Connects the reader.
    public func connectReader(_ reader: Reader, locationID: String) async throws -> Reader {
        var connected = reader
        connected.locationID = locationID
        state.withLock { $0.reader = connected }
        emitter.emit(.readerConnectionChanged(.connected))
        return connected
    }

    /// Disconnects the reader.
    public func disconnectReader() async throws {
        state.withLock { $0.reader = nil }
        emitter.emit(.readerDisconnected(.requested))
    }

    /// Takes the payment as scripted.
    public func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                             updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate {
        let reference = request.reference
        state.withLock { $0.calls.append("startPayment \(reference) #\(attempt.number)") }
        if let held = heldPayment(reference: reference), held.state != .processing {
            // A retry of a payment the processor already holds: report it, never charge again.
            return ProcessorPaymentUpdate(reference: reference, state: held.state,
                                          route: held.localID == nil ? .online : .offline,
                                          processorPaymentID: held.id, localID: held.localID)
        }
        try await updates(ProcessorPaymentUpdate(reference: reference, state: .collecting))
        let card: Card = state.withLock { s in s.cards.isEmpty ? .approve : s.cards.removeFirst() }
        if state.withLock({ $0.canceledReferences.remove(reference) != nil }) || card == .customerCancels {
            return ProcessorPaymentUpdate(reference: reference, state: .canceled,
                                          error: PaymentError(.canceled, recovery: .none, phase: .collection,
                                                              message: "The payment was canceled."))
        }
        try await updates(ProcessorPaymentUpdate(reference: reference, state: .processing))
        let network = state.withLock { $0.network }
        let total = try request.total()
        let goesOffline: Bool
        switch routing {
        case .refused(let error): throw error
        case .offline: goesOffline = true
        case .onlineWithOfflineFallback: goesOffline = network == .offline
        case .online:
            guard network != .offline else {
                return ProcessorPaymentUpdate(reference: reference, state: .failed, route: .online,
                                              error: PaymentError(.networkUnavailable, recovery: .goOnline,
                                                                  phase: .processing, message: "The device is offline."))
            }
            goesOffline = false
        }
        if card == .timeOutBeforeCharge {
            throw PaymentError(.timedOut, recovery: .retrySamePayment, phase: .processing,
                               message: "The request timed out before reaching the processor.")
        }
        if card == .decline {
            return ProcessorPaymentUpdate(reference: reference, state: .declined, route: goesOffline ? .offline : .online,
                                          error: PaymentError(.cardDeclined, recovery: .collectAnotherCard,
                                                              phase: .processing, message: "The card was declined.",
                                                              vendor: .init(processor: name, name: "declined")))
        }
        let details = CardDetails(brand: .visa, last4: "4242", entryMethod: .contactless)
        let update: ProcessorPaymentUpdate = state.withLock { s in
            s.sequence += 1
            if goesOffline {
                let localID = "local_\(s.sequence)"
                s.held[reference] = HeldPayment(reference: reference, localID: localID, state: .storedOffline,
                                                amount: total, declinesWhenForwarded: card == .declineWhenForwarded,
                                                captureMode: request.captureMode)
                return ProcessorPaymentUpdate(reference: reference, state: .storedOffline, route: .offline,
                                              localID: localID, card: details)
            }
            let id = "mem_\(s.sequence)"
            let final: PaymentState = request.captureMode == .manual ? .authorized : .succeeded
            s.held[reference] = HeldPayment(reference: reference, id: id, state: final, amount: total,
                                            declinesWhenForwarded: false, captureMode: request.captureMode)
            s.charges[reference, default: 0] += 1
            return ProcessorPaymentUpdate(reference: reference, state: final, route: .online,
                                          processorPaymentID: id, card: details)
        }
        if goesOffline { emitter.emit(.offlineQueueChanged) }
        if card == .timeOutAfterCharge {
            throw PaymentError(.timedOut, recovery: .retrySamePayment, phase: .processing,
                               message: "The answer was lost after the processor charged the card.")
        }
        return update
    }

    /// Marks the payment canceled if it has not reached processing.
    public func cancelPayment(reference: String) async throws {
        state.withLock { _ = $0.canceledReferences.insert(reference) }
    }

    /// Captures an authorized or forwarded payment.
    public func capturePayment(reference: String, processorPaymentID: String, amount: Money) async throws
        -> ProcessorPaymentUpdate {
        try settle(reference: reference, processorPaymentID: processorPaymentID, to: .succeeded)
    }

    /// Voids an authorized or forwarded payment.
    public func voidPayment(reference: String, processorPaymentID: String) async throws -> ProcessorPaymentUpdate {
        try settle(reference: reference, processorPaymentID: processorPaymentID, to: .canceled)
    }

    private func settle(reference: String, processorPaymentID: String, to target: PaymentState) throws
        -> ProcessorPaymentUpdate {
        try state.withLock { s in
            guard var held = s.held[reference], held.id == processorPaymentID,
                  held.state == .authorized || held.state == .forwarded
            else {
                throw PaymentError(.invalidState, recovery: .none, phase: .capture,
                                   message: "Payment \(reference) cannot be captured or voided now.")
            }
            held.state = target
            s.held[reference] = held
            return ProcessorPaymentUpdate(reference: reference, state: target, processorPaymentID: processorPaymentID)
        }
    }

    /// The stored payments, as the processor sees them.
    public func queueSnapshot() async throws -> OfflineQueueSnapshot {
        let (network, held) = state.withLock { ($0.network, Array($0.held.values)) }
        return try OfflineQueueSnapshot(networkStatus: network, payments: held.filter { $0.localID != nil }.map {
            QueuedPayment(reference: $0.reference, localID: $0.localID, processorPaymentID: $0.id, amount: $0.amount,
                          storedAt: Date(timeIntervalSince1970: 0),
                          status: $0.state == .storedOffline ? .stored
                              : $0.state == .declinedAfterForwarding ? .declinedAfterForwarding : .forwarded)
        })
    }

    /// What the processor holds for the reference.
    public func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup {
        let reference = query.reference
        guard let held = heldPayment(reference: reference) else { return .notFound }
        return .found(ProcessorPaymentUpdate(reference: reference, state: held.state,
                                             route: held.localID == nil ? .online : .offline,
                                             processorPaymentID: held.id, localID: held.localID))
    }

    /// The event stream.
    public func events() -> AsyncStream<ProcessorEvent> { emitter.stream }
}
