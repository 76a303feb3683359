import Foundation
public import Tender

// MARK: - 4. The adapter: translates, decides nothing

/// House accounts as a Tender `PaymentProcessor`.
///
/// The house account needs no card reader; `readerDiscovery` reports one "virtual" reader so apps can treat every
/// processor alike. What makes it safe is the vendor's idempotency: a charge is keyed by its order number, which
/// the adapter takes from Tender (`PaymentAttempt.vendorAttemptID`: derived from the merchant, location, reference
/// and payment attempt, never random), so continuing an unfinished payment re-sends the same order number and can
/// never charge twice, and two shops selling order "1001" never share one. The reference travels separately.
public final class HouseAccountProcessor: PaymentProcessor {
    /// `"house"`.
    public let name = "house"
    private let client: any HouseAccountClient
    private let clock: any TenderClock
    private let searchConsistencyWindow: Double
    /// The account the next payment is charged to (in a real app: chosen by the cashier).
    private let accountForNextPayment: Locked<String>
    /// The location the virtual reader was "connected" at; `nil` before.
    private let connectedLocation = Locked<String?>(nil)
    private let emitter = ProcessorEventEmitter()
    private let canceled = Locked<Set<String>>([])

    /// Creates the adapter over a client (the simulator in tests, a network client in an app).
    /// - Parameters:
    ///   - searchConsistencyWindow: how long the server's search by order number may lag behind its writes; an
    ///     empty search is "unknown", not "never charged", until this long after the payment was first recorded.
    public init(client: any HouseAccountClient, account: String, clock: any TenderClock = SystemClock(),
                searchConsistencyWindow: Double = 60) {
        self.client = client
        self.clock = clock
        self.searchConsistencyWindow = searchConsistencyWindow
        accountForNextPayment = Locked(account)
    }

    /// Chooses the account the next payment is charged to.
    public func chargeNextPaymentTo(account: String) { accountForNextPayment.withLock { $0 = account } }

    /// Reports the network as seen by the client, so the core's routing uses it.
    public func reportNetwork() async {
        emitter.emit(.networkStatusChanged(await client.isReachable() ? .online : .offline))
    }

    /// Sends held charges and reports each result as a forwarding event: the core records it.
    public func forwardHeldCharges() async {
        for charge in await client.sendHeldCharges() {
            var update = ProcessorPaymentUpdate(reference: charge.reference, state: .forwarded,
                                                route: .offline, processorPaymentID: charge.serverID,
                                                storedAt: charge.heldAt)
            if charge.status == .refused {
                update.state = .declinedAfterForwarding
                update.error = HouseAccountErrors.error(.overCreditLimit).inPhase(.forwarding)
            }
            emitter.emit(.paymentForwarded(update))
        }
        emitter.emit(.offlineQueueChanged)
    }

    /// The app's reference of an order number (`order-7#2` → `order-7`).
    static func reference(of orderNumber: String) -> String {
        orderNumber.split(separator: "#", maxSplits: 1).first.map(String.init) ?? orderNumber
    }

    /// Offline is possible (the device holds charges), with a house rule: at most 200.00 per held charge. Settling
    /// takes no amount (it settles the whole charge), so no partial capture. The vendor's documented maximum per
    /// charge (``HouseAccountSimulator/maximumCharge``) is declared, so the core refuses more before calling.
    public func capabilities() async -> ProcessorCapabilities {
        ProcessorCapabilities(processorName: name,
                              offlineLimits: ProcessorOfflineLimits(perPaymentMaximum: [.usd: 20_000]),
                              supportedCurrencies: [.usd], supportsPartialCapture: false,
                              amountLimits: ProcessorAmountLimits(
                                maximumPerCurrency: [.usd: HouseAccountSimulator.maximumCharge],
                                source: "the house account takes at most 50,000.00 per charge", isDocumented: true))
    }

    /// The server's reachability.
    public func networkStatus() async -> NetworkStatus { await client.isReachable() ? .online : .offline }

    /// The one "reader" a house account has: its server, reached over the network, so an ``ReaderKind/internet``
    /// reader with no features (no screen, no offline, no in-person refunds). Other kinds are refused.
    public static let virtualReader = Reader(id: "house-ledger", model: "house account", kind: .internet,
                                             isSimulated: true)

    /// The virtual reader, for ``ReaderKind/internet``; every other kind throws
    /// ``PaymentError/Code/featureUnavailable``. A real adapter starts its vendor's discovery here, yields each
    /// reader as the vendor reports it, and stops the vendor's discovery in `onTermination` (the consuming task was
    /// cancelled) or when `timeout` passes.
    public func readerDiscovery(_ kind: ReaderKind, timeout: Double) -> AsyncThrowingStream<Reader, any Error> {
        AsyncThrowingStream { continuation in
            guard kind == .internet else {
                continuation.finish(throwing: PaymentError(.featureUnavailable, recovery: .fixIntegration,
                                                           phase: .readerConnection,
                                                           message: "House accounts have no \(kind.rawValue) readers."))
                return
            }
            continuation.yield(Self.virtualReader)
            continuation.finish()
        }
    }

    /// Nothing to connect; echoes the reader with its location.
    public func connectReader(_ reader: Reader, locationID: String) async throws -> Reader {
        guard reader.id == Self.virtualReader.id else {
            throw PaymentError(.readerConnectionFailed, recovery: .reconnectReader, phase: .readerConnection,
                               message: "House accounts have no reader \(reader.id).")
        }
        var connected = Self.virtualReader
        connected.locationID = locationID
        connectedLocation.withLock { $0 = locationID }
        emitter.emit(.readerConnectionChanged(.connected))
        return connected
    }

    /// Nothing to disconnect.
    public func disconnectReader() async throws {
        connectedLocation.withLock { $0 = nil }
        emitter.emit(.readerDisconnected(.requested))
    }

    /// The virtual reader once "connected".
    public func connectedReader() async -> Reader? {
        connectedLocation.current.map { location in
            var reader = Self.virtualReader
            reader.locationID = location
            return reader
        }
    }

    /// The server has no reader software to update: nothing to install.
    public func installReaderUpdate() async throws { emitter.emit(.softwareUpdateFinished(nil)) }

    /// Nothing to reboot.
    public func rebootReader() async throws {
        throw PaymentError(.featureUnavailable, recovery: .none, phase: .readerConnection,
                           message: "A house account has no reader to reboot.")
    }

    /// No screen to show a cart on.
    public func setReaderDisplay(_ cart: ReaderCart?) async throws {
        throw PaymentError(.featureUnavailable, recovery: .fixRequest, phase: .collection,
                           message: "A house account has no reader screen.")
    }

    /// Charges the account. The core already chose the route; the adapter only tells the client.
    public func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                             updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate {
        let reference = request.reference
        let orderNumber = attempt.vendorAttemptID(reference: reference)
        // A continuation: what the vendor already has for this order number wins. If its search does not show it
        // (it lags), re-sending the same order number is safe: the vendor returns the existing charge.
        if attempt.continuesEarlierPayment, let existing = await client.charges(orderNumber: orderNumber).first {
            return translate(existing, request: request)
        }
        canceled.withLock { _ = $0.remove(reference) }
        try await updates(ProcessorPaymentUpdate(reference: reference, state: .collecting))
        let presented = await client.presentCard()
        if !presented || canceled.withLock({ $0.remove(reference) != nil }) {
            return ProcessorPaymentUpdate(reference: reference, state: .canceled,
                                          error: PaymentError(.canceled, recovery: .none, phase: .collection,
                                                              message: "Canceled before the account was charged."))
        }
        try await updates(ProcessorPaymentUpdate(reference: reference, state: .processing))
        let total = try request.total()
        // The core already applied the policy and the limits: translate its decision, do not second-guess it.
        let hold: HoldMode = switch routing {
        case .online, .refused: .never
        case .onlineWithOfflineFallback: .ifUnreachable
        case .offline: .always
        }
        do {
            let charge = try await client.charge(
                account: accountForNextPayment.current, orderNumber: orderNumber, reference: reference,
                amount: total.minorUnits,
                currency: total.currency.code, hold: hold, settleImmediately: request.captureMode == .automatic)
            return translate(charge, request: request)
        } catch {
            let mapped = HouseAccountErrors.error(error)
            let state: PaymentState = switch error {
            case .timedOut: .outcomeUnknown
            case .unknownAccount, .overCreditLimit: .declined
            default: .failed
            }
            return ProcessorPaymentUpdate(reference: reference, state: state, error: mapped)
        }
    }

    private func translate(_ charge: HouseCharge, request: PaymentRequest) -> ProcessorPaymentUpdate {
        ProcessorPaymentUpdate(
            reference: request.reference,
            state: HouseAccountErrors.state(charge.status, settleImmediately: request.captureMode == .automatic),
            route: charge.status == .heldOnDevice ? .offline : .online, processorPaymentID: charge.serverID,
            error: charge.status == .refused ? HouseAccountErrors.error(.overCreditLimit) : nil,
            storedAt: charge.heldAt)
    }

    /// Cancels before the account is charged (a card presentation in progress ends canceled).
    public func cancelPayment(reference: String) async throws {
        canceled.withLock { _ = $0.insert(reference) }
        _ = await client.cancelHeldCard()
    }

    /// Settles a charge on hold (month-end capture, done now). The vendor settles by server id and takes no
    /// idempotency key (settling twice is refused as `notOnHold`), so the request's key is not needed.
    public func capturePayment(_ request: CaptureRequest) async throws -> ProcessorPaymentUpdate {
        do {
            let charge = try await client.settle(serverID: request.processorPaymentID)
            return ProcessorPaymentUpdate(reference: request.reference,
                                          state: HouseAccountErrors.state(charge.status, settleImmediately: false),
                                          processorPaymentID: request.processorPaymentID)
        } catch { throw HouseAccountErrors.error(error) }
    }

    /// Releases a charge on hold (by server id, like ``capturePayment(_:)``).
    public func voidPayment(_ request: VoidRequest) async throws -> ProcessorPaymentUpdate {
        do {
            let charge = try await client.release(serverID: request.processorPaymentID)
            return ProcessorPaymentUpdate(reference: request.reference,
                                          state: HouseAccountErrors.state(charge.status, settleImmediately: false),
                                          processorPaymentID: request.processorPaymentID)
        } catch { throw HouseAccountErrors.error(error) }
    }

    /// The vendor's own view of the charges held on the device, with the times it held them.
    public func queueSnapshot() async throws -> OfflineQueueSnapshot {
        let held = await client.heldCharges().map { charge in
            QueuedPayment(reference: charge.reference,
                          amount: Money(minorUnits: charge.amount, currency: (try? Currency(code: charge.currency)) ?? .usd),
                          storedAt: charge.heldAt ?? clock.now(), status: .stored)
        }
        return try OfflineQueueSnapshot(networkStatus: await client.isReachable() ? .online : .offline, payments: held)
    }

    /// What the vendor has for the order number. The server's search lags, so an empty answer is `unknown` until
    /// the consistency window has passed since the payment was first recorded; only then `notFound`.
    public func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup {
        guard let charge = await client.charges(orderNumber: query.vendorAttemptID).first else {
            guard await client.isReachable(),
                  clock.now().timeIntervalSince(query.since) >= searchConsistencyWindow else { return .unknown }
            return .notFound
        }
        let settleImmediately = charge.status == .settled
        var state = HouseAccountErrors.state(charge.status, settleImmediately: settleImmediately)
        if charge.heldAt != nil {
            // It was held on the device and sent later: in Tender's terms, forwarded (or declined when forwarded).
            state = switch charge.status {
            case .heldOnDevice: .storedOffline
            case .refused: .declinedAfterForwarding
            case .released: .canceled
            case .onHold, .settled: .forwarded
            }
        }
        return .found(ProcessorPaymentUpdate(
            reference: query.reference, state: state, route: charge.heldAt != nil ? .offline : .online,
            processorPaymentID: charge.serverID, storedAt: charge.heldAt))
    }

    /// Releases what an abandoned order number left on hold at the vendor.
    public func abandonPayment(_ query: PaymentLookupQuery) async throws -> String? {
        guard let released = await client.releaseUnsettled(orderNumber: query.vendorAttemptID) else { return nil }
        return "House charge \(released.serverID ?? query.vendorAttemptID) released."
    }

    /// The events.
    public func events() -> AsyncStream<ProcessorEvent> { emitter.stream }
}
