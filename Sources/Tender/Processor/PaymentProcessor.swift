import Foundation

/// The seam between Tender's core and one processor: an adapter conforms to it, translating its vendor SDK's
/// calls, states and errors. Adapters are stateless translators; the core owns the session state machine, the
/// offline policy, the ledger and reconciliation. An adapter never decides whether a payment may be taken
/// offline: it is told (``RoutingDecision``) and reports what its vendor did.
///
/// Errors thrown by every method are ``PaymentError``s carrying the vendor's raw error.
///
/// ## Unknown outcomes
/// An adapter reports what its vendor said and nothing more: an outcome it cannot prove is
/// ``PaymentState/outcomeUnknown`` (or ``ProcessorLookup/unknown``), never ``PaymentState/failed``. "The vendor has
/// not seen it yet" (a lagging search, a confirm that never arrived) is not a failure.
///
/// ## Cancellation
/// The Swift task running ``startPayment(_:routing:attempt:updates:)`` may be cancelled (a SwiftUI `.task` that
/// disappears). The core then calls ``cancelPayment(reference:)`` from another task; the adapter must keep waiting
/// for its vendor's answer (never trap, never treat the task's cancellation as the vendor's) and report
/// ``PaymentState/canceled`` only when the vendor confirms the cancellation. If it cannot wait, it throws and the
/// core records ``PaymentState/outcomeUnknown`` for reconciliation.
public protocol PaymentProcessor: Sendable {
    /// The processor's name, e.g. `"stripe"`; stored in the ledger with each session.
    var name: String { get }

    /// What the processor can do now, including its offline limits.
    func capabilities() async -> ProcessorCapabilities

    /// Whether the device can reach the processor now, as the vendor SDK sees it. The core asks before routing a
    /// payment and at launch, so no sale is routed on ``NetworkStatus/unknown`` when the processor knows better.
    func networkStatus() async -> NetworkStatus

    /// Looks for readers of one kind for at most `timeout` seconds, reporting each as it is found: a reader found
    /// again with more detail (Stripe's Bluetooth proximity reports the serial number first) is reported again
    /// with the same ``Reader/id``, to be updated in place. The sequence ends at the timeout (or when the vendor's
    /// discovery ends), throws the vendor's error, and stops the vendor's discovery when the consuming task is
    /// cancelled (Stripe `Cancelable.cancel`, Square `PairingHandle.stop`). A kind the vendor does not offer throws
    /// ``PaymentError/Code/featureUnavailable``.
    func readerDiscovery(_ kind: ReaderKind, timeout: Double) -> AsyncThrowingStream<Reader, any Error>

    /// Connects a reader at a location, whatever its ``Reader/kind``: Tap to Pay set-up (Stripe's terms of service,
    /// Square's Apple account linking) happens here. A reader saved from an earlier launch is looked for first.
    /// Reports software-update progress through ``events()``; a required update installs during the connection.
    func connectReader(_ reader: Reader, locationID: String) async throws -> Reader

    /// Disconnects the connected reader.
    func disconnectReader() async throws

    /// The connected reader, with its ``Reader/features`` and any update it has not installed; `nil` when none is
    /// connected.
    func connectedReader() async -> Reader?

    /// Installs the update the connected reader reported (``Reader/availableUpdate``), reporting progress through
    /// ``events()``. Returns when it is installed; throws when it failed.
    func installReaderUpdate() async throws

    /// Reboots the connected reader (it disconnects, and reconnects if the vendor reconnects automatically).
    func rebootReader() async throws

    /// Shows `cart` on the connected reader's screen, or clears it with `nil`. Only for readers with
    /// ``ReaderFeature/cartDisplay``; others throw ``PaymentError/Code/featureUnavailable``.
    func setReaderDisplay(_ cart: ReaderCart?) async throws

    /// Takes the in-person part of a payment: creates it, collects the card, authorizes or stores it.
    ///
    /// Report each intermediate state (``PaymentState/collecting``, ``PaymentState/processing``) through
    /// `updates`, awaiting each. Return the final state of the in-person part: authorized, succeeded, stored
    /// offline, declined, failed, canceled, or outcome unknown. Throw only when you cannot tell what happened; the
    /// core then records ``PaymentState/outcomeUnknown`` and reconciles later.
    ///
    /// When ``PaymentAttempt/continuesEarlierPayment`` is true an earlier call may have started this vendor
    /// payment: find and continue it (Stripe: the same PaymentIntent; Square: the same `paymentAttemptID`), never
    /// create a second one — even when the earlier call's confirm never reached the vendor, and even after a
    /// relaunch that forgot every object the SDK handed out. When ``PaymentAttempt/paymentAttempt`` is greater
    /// than 1 and the previous state is ``PaymentState/created``, the earlier vendor payment ended definitely with
    /// nothing charged: start a new one (``PaymentAttempt/vendorAttemptID(reference:)``).
    func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                      updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate

    /// Cancels the payment in progress with this reference, through the vendor (Stripe `Cancelable.cancel`,
    /// Square `PaymentHandle.cancelPayment`), if it can still be canceled. The payment reports
    /// ``PaymentState/canceled`` only when the vendor confirms.
    func cancelPayment(reference: String) async throws

    /// Captures an authorized payment (manual capture), through the app's ``PaymentCaptureService``. Pass the
    /// request on unchanged: its ``CaptureRequest/idempotencyKey`` is the key the vendor must receive.
    func capturePayment(_ request: CaptureRequest) async throws -> ProcessorPaymentUpdate

    /// Voids an authorized, uncaptured payment, through the app's ``PaymentCaptureService``, with the request's
    /// idempotency key unchanged.
    func voidPayment(_ request: VoidRequest) async throws -> ProcessorPaymentUpdate

    /// The processor's view of its offline queue now: the vendor's own counts, amounts, per-payment statuses and
    /// stored times. For vendors that report forwarding results only when their queue is read (Square), reading
    /// it is also what delivers those results (as ``ProcessorEvent/paymentForwarded(_:)`` events and in
    /// ``OfflineQueueSnapshot/payments``).
    func queueSnapshot() async throws -> OfflineQueueSnapshot

    /// What the processor knows of a payment, for recovery and reconciliation (match by reference, vendor attempt,
    /// local id or processor id). Answer ``ProcessorLookup/notFound`` only with proof (see its documentation).
    func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup

    /// Cancels at the vendor what an abandoned vendor payment left behind (a Stripe PaymentIntent that was never
    /// charged; a Square attempt whose `CreatePayment` outcome is unknown, through `CancelPaymentByIdempotencyKey`
    /// on the app's server), so that nothing is left that could still charge. Called by the core when a reference
    /// ends declined, failed or canceled, and before a new vendor payment starts.
    /// - Returns: what was canceled, for the ledger's history (e.g. `"PaymentIntent pi_123 canceled at Stripe"`),
    ///   or `nil` when the vendor holds nothing live for it.
    /// - Throws: when the vendor cannot be reached; the core tries again later.
    func abandonPayment(_ query: PaymentLookupQuery) async throws -> String?

    /// Refunds a captured payment: through the app's ``PaymentRefundService`` for most payments, through the reader
    /// for payments the vendor refunds in person (Stripe Interac). Idempotent under
    /// ``RefundRequest/idempotencyKey``: a refund the vendor holds under the key for another payment or amount is
    /// thrown as ``PaymentError/Code/duplicateReference``, never returned as this refund's result.
    /// - Throws: a ``PaymentError`` when the processor refused it (nothing refunded) or could not be reached (the
    ///   core keeps the refund pending and looks it up later).
    func refundPayment(_ request: RefundRequest, throughReader: Bool) async throws -> RefundResult

    /// What the processor holds of a refund, for recovery and to follow it until the processor can no longer change
    /// it (``ProcessorCapabilities/refundChangeWindow``): `nil` only when it certainly has none.
    func lookUpRefund(_ refund: RefundRecord, processorPaymentID: String) async throws -> RefundResult?

    /// The processor's events. Called once by the core, which consumes the stream for the processor's lifetime.
    func events() -> AsyncStream<ProcessorEvent>
}

extension PaymentProcessor {
    /// Every reader of `kind` found within `timeout` seconds, each in its latest form (a reader reported twice is
    /// listed once): a convenience over ``readerDiscovery(_:timeout:)``.
    package func discoverReaders(_ kind: ReaderKind = .bluetooth, timeout: Double) async throws -> [Reader] {
        var found: [Reader] = []
        for try await reader in readerDiscovery(kind, timeout: timeout) {
            if let index = found.firstIndex(where: { $0.id == reader.id }) { found[index] = reader } else { found.append(reader) }
        }
        return found
    }

    /// The network status from the processor's queue snapshot, or ``NetworkStatus/unknown`` when it cannot be read.
    /// Adapters whose SDK reports connectivity directly should implement ``networkStatus()`` themselves.
    public func networkStatus() async -> NetworkStatus {
        (try? await queueSnapshot().networkStatus) ?? .unknown
    }

    /// A convenience over ``lookUpPayment(_:)`` with only the identifiers (tests and tools).
    package func lookUpPayment(reference: String, localID: String?, processorPaymentID: String?) async throws
        -> ProcessorLookup {
        try await lookUpPayment(PaymentLookupQuery(reference: reference, localID: localID,
                                                   processorPaymentID: processorPaymentID))
    }

    /// The default for processors whose vendor keeps nothing live when a payment is abandoned (in-memory and
    /// house-account processors): nothing to cancel. An adapter whose vendor can leave a payment behind must
    /// implement it.
    public func abandonPayment(_ query: PaymentLookupQuery) async throws -> String? { nil }

    /// The default for processors without refunds: refused with ``PaymentError/Code/featureUnavailable``.
    public func refundPayment(_ request: RefundRequest, throughReader: Bool) async throws -> RefundResult {
        throw PaymentError(.featureUnavailable, recovery: .fixIntegration, phase: .refund,
                           message: "\(name) cannot refund payments through Tender.")
    }

    /// The default for processors without refunds: refused with ``PaymentError/Code/featureUnavailable``.
    public func lookUpRefund(_ refund: RefundRecord, processorPaymentID: String) async throws -> RefundResult? {
        throw PaymentError(.featureUnavailable, recovery: .fixIntegration, phase: .refund,
                           message: "\(name) cannot look refunds up through Tender.")
    }
}
