import Foundation
public import Tender

extension InMemoryPaymentProcessor {
    /// Takes the payment as scripted. A continuation of a vendor payment the processor already holds reports it and
    /// never charges again; a new vendor payment (``PaymentAttempt/paymentAttempt`` > 1) is keyed by its own attempt
    /// id.
    public func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                             updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate {
        let reference = request.reference
        let attemptID = attempt.vendorAttemptID(reference: reference)
        state.withLock { $0.calls.append("startPayment \(reference) #\(attempt.number)") }
        if let held = state.withLock({ $0.held[attemptID] }) {
            // The processor already holds this vendor payment: report it, never charge again.
            return update(for: held)
        }
        session.withLock { _ = $0.canceledReferences.remove(reference) }
        try await updates(ProcessorPaymentUpdate(reference: reference, state: .collecting))
        let (presented, holdCard, fault) = state.withLock { s -> (Card, Bool, Card?) in
            defer {
                s.holdNextCard = false
                s.pendingFault = nil
            }
            return (s.cards.isEmpty ? .approve : s.cards.removeFirst(), s.holdNextCard, s.pendingFault)
        }
        let card = fault ?? presented
        if holdCard, await !gate.hold() {
            return canceled(reference)
        }
        if session.withLock({ $0.canceledReferences.remove(reference) != nil }) || card == .customerCancels {
            return canceled(reference)
        }
        // A reader that asks for tips asks when the request wants one: the customer's choice is reported with the
        // collection, and charged on top of the amount.
        var onReaderTip: Money?
        if request.tipEligibleAmount != nil, session.current.reader?.features.contains(.onReaderTipping) == true {
            onReaderTip = Money(minorUnits: state.current.readers.nextOnReaderTip, currency: request.amount.currency)
        }
        try await updates(ProcessorPaymentUpdate(reference: reference, state: .processing, tip: onReaderTip))
        if state.withLock({ s -> Bool in defer { s.holdNextAuthorization = false }; return s.holdNextAuthorization }) {
            _ = await gate.hold()  // an authorization in flight cannot be canceled
        }
        let network = state.withLock { $0.network }
        let total = try onReaderTip.map { try request.amount.adding($0) } ?? request.total()
        let goesOffline: Bool
        switch routing {
        case .refused(let error): throw error
        case .offline: goesOffline = true
        case .onlineWithOfflineFallback: goesOffline = network == .offline
        case .online:
            guard network != .offline else {
                return ProcessorPaymentUpdate(reference: reference, state: .failed, route: .online,
                                              error: PaymentError(.networkUnavailable, recovery: .goOnline,
                                                                  phase: .processing, message: "The device is offline; nothing was charged."))
            }
            goesOffline = false
        }
        if card == .confirmNotReceived {
            throw PaymentError(.timedOut, recovery: .retrySamePayment, phase: .processing,
                               message: "The request timed out before reaching the processor.")
        }
        let now = clock.now()
        if card == .decline {
            state.withLock { s in
                s.held[attemptID] = HeldPayment(reference: reference, attemptID: attemptID, state: .declined,
                                                amount: total, changedAt: now, declinesWhenForwarded: false,
                                                captureMode: request.captureMode)
            }
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
                s.held[attemptID] = HeldPayment(reference: reference, attemptID: attemptID, localID: localID,
                                                state: .storedOffline, amount: total, changedAt: now, storedAt: now,
                                                declinesWhenForwarded: card == .declineWhenForwarded,
                                                captureMode: request.captureMode)
                return ProcessorPaymentUpdate(reference: reference, state: .storedOffline, route: .offline,
                                              localID: localID, card: details, storedAt: now)
            }
            let id = "mem_\(s.sequence)"
            let final: PaymentState = request.captureMode == .manual ? .authorized : .succeeded
            s.held[attemptID] = HeldPayment(reference: reference, attemptID: attemptID, id: id, state: final,
                                            amount: total, changedAt: now, declinesWhenForwarded: false,
                                            captureMode: request.captureMode)
            s.charges[reference, default: 0] += 1
            return ProcessorPaymentUpdate(reference: reference, state: final, route: .online,
                                          processorPaymentID: id, card: details)
        }
        if goesOffline { emitter.emit(.offlineQueueChanged) }
        if card == .answerLostAfterCharge {
            throw PaymentError(.timedOut, recovery: .retrySamePayment, phase: .processing,
                               message: "The answer was lost after the processor charged the card.")
        }
        return update
    }

    private func canceled(_ reference: String) -> ProcessorPaymentUpdate {
        ProcessorPaymentUpdate(reference: reference, state: .canceled,
                               error: PaymentError(.canceled, recovery: .none, phase: .collection,
                                                   message: "The payment was canceled; nothing was charged."))
    }

    func update(for held: HeldPayment) -> ProcessorPaymentUpdate {
        ProcessorPaymentUpdate(reference: held.reference, state: held.state,
                               route: held.localID == nil ? .online : .offline, processorPaymentID: held.id,
                               localID: held.localID, storedAt: held.storedAt, capturedAmount: held.capturedAmount)
    }

    /// Cancels a payment still collecting (a held card is released as canceled); an authorization already sent is
    /// not stopped.
    public func cancelPayment(reference: String) async throws {
        session.withLock { _ = $0.canceledReferences.insert(reference) }
        if gate.isHolding, state.withLock({ !$0.holdNextAuthorization }) { gate.cancelAll() }
    }

    /// Captures an authorized or forwarded payment: `amount` at most what was authorized (all of it when partial
    /// capture is turned off), reported and kept as the captured amount. Its idempotency key, reused for another
    /// payment or amount, is refused as a vendor's server refuses it (``PaymentError/Code/duplicateReference``).
    public func capturePayment(_ request: CaptureRequest) async throws -> ProcessorPaymentUpdate {
        try useKey(request.idempotencyKey, for: "capture \(request.processorPaymentID) \(request.amount.minorUnits)")
        return try settle(reference: request.reference, processorPaymentID: request.processorPaymentID, to: .succeeded,
                          capturing: request.amount)
    }

    /// Voids an authorized or forwarded payment, under its idempotency key like ``capturePayment(_:)``.
    public func voidPayment(_ request: VoidRequest) async throws -> ProcessorPaymentUpdate {
        try useKey(request.idempotencyKey, for: "void \(request.processorPaymentID)")
        return try settle(reference: request.reference, processorPaymentID: request.processorPaymentID, to: .canceled)
    }

    /// Records what an idempotency key is used for; refuses it when it was used for something else.
    private func useKey(_ key: String, for operation: String) throws {
        try state.withLock { s in
            if let earlier = s.operationKeys[key], earlier != operation {
                throw PaymentError(.duplicateReference, recovery: .fixRequest, phase: .capture,
                                   message: "Idempotency key \(key) was used for another request (\(earlier)).",
                                   vendor: .init(processor: name, name: "idempotencyKeyReused"))
            }
            s.operationKeys[key] = operation
        }
    }

    private func settle(reference: String, processorPaymentID: String, to target: PaymentState,
                        capturing amount: Money? = nil) throws -> ProcessorPaymentUpdate {
        let now = clock.now()
        return try state.withLock { s in
            guard let key = s.held.first(where: { $0.value.id == processorPaymentID })?.key,
                  var held = s.held[key], held.state == .authorized || held.state == .forwarded
            else {
                throw PaymentError(.invalidState, recovery: .none, phase: .capture,
                                   message: "Payment \(reference) cannot be captured or voided now.")
            }
            if let amount {
                guard amount.currency == held.amount.currency, amount.minorUnits > 0,
                      amount.minorUnits <= held.amount.minorUnits,
                      s.supportsPartialCapture || amount == held.amount else {
                    throw PaymentError(.invalidAmount, recovery: .fixRequest, phase: .capture,
                                       message: "\(amount) cannot be captured of the \(held.amount) authorized.")
                }
                held.capturedAmount = amount
            }
            held.state = target
            held.changedAt = now
            s.held[key] = held
            return ProcessorPaymentUpdate(reference: reference, state: target, processorPaymentID: processorPaymentID,
                                          capturedAmount: held.capturedAmount)
        }
    }

    /// The payments stored on the device, as the processor sees them, with their stored times.
    public func queueSnapshot() async throws -> OfflineQueueSnapshot {
        let (network, held) = state.withLock { ($0.network, Array($0.held.values)) }
        return try OfflineQueueSnapshot(networkStatus: network, payments: held.filter { $0.localID != nil }.map {
            QueuedPayment(reference: $0.reference, localID: $0.localID, processorPaymentID: $0.id, amount: $0.amount,
                          storedAt: $0.storedAt ?? $0.changedAt,
                          status: $0.state == .storedOffline ? .stored
                              : $0.state == .declinedAfterForwarding ? .declinedAfterForwarding : .forwarded)
        })
    }

    /// What the processor holds for the vendor payment. Its search lags (``setSearchLag(seconds:)``): a payment
    /// changed within the lag is not visible yet, and an empty answer is ``ProcessorLookup/unknown`` until the lag
    /// has passed since the payment was first recorded (`query.since`); only then is it ``ProcessorLookup/notFound``.
    public func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup {
        let now = clock.now()
        let (held, lag) = state.withLock { ($0.held[query.vendorAttemptID], $0.searchLag) }
        if let held, now.timeIntervalSince(held.changedAt) >= lag { return .found(update(for: held)) }
        if held != nil || now.timeIntervalSince(query.since) < lag { return .unknown }
        return .notFound
    }
}
