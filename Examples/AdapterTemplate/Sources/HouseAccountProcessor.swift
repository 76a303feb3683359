// An adapter template: a third processor written against Tender's public API only.
//
// The "processor" here is a house account: regular customers sign for purchases against a credit line that the shop
// settles at the end of the month. It is small, but it has everything a card processor adapter has:
//
//   1. a client protocol (`HouseAccountClient`), named in the vendor's terms (accounts, charges, holds);
//   2. a mapping from the vendor's errors and statuses to Tender's, table-driven (`HouseAccountErrors`);
//   3. a simulator (`HouseAccountSimulator`) that also knows the unhappy paths: unknown accounts, credit limits,
//      a server that is unreachable, charges held on the device while offline and rejected later;
//   4. the adapter (`HouseAccountProcessor`), which translates and decides nothing.
//
// Read it top to bottom, then `Tests/HouseAccountConformanceTests.swift`, which runs Tender's conformance kit.
import Foundation
import Tender

// MARK: - 1. The client protocol: the vendor's calls, in the vendor's words

/// A charge as the house-account server knows it.
public struct HouseCharge: Hashable, Sendable {
    /// The server's id, once the server has it (`nil` while held on the device).
    public var serverID: String?
    /// The account charged.
    public var account: String
    /// The shop's order number: the adapter passes Tender's reference here, which is what makes retries safe.
    public var orderNumber: String
    /// The amount in minor units.
    public var amount: Int64
    /// The currency code.
    public var currency: String
    /// The server's status, in its own words.
    public var status: Status

    /// The vendor's statuses.
    public enum Status: String, Hashable, Sendable, CaseIterable {
        /// Held on the device, not yet sent (the server was unreachable).
        case heldOnDevice
        /// Approved; will be settled at month end unless released.
        case onHold
        /// Settled at month end (captured).
        case settled
        /// Released (voided).
        case released
        /// Refused by the server.
        case refused
    }
}

/// The vendor's errors, by name (the vendor publishes no numbers).
public enum HouseAccountError: String, Error, Hashable, Sendable, CaseIterable {
    /// The account does not exist or is closed.
    case unknownAccount
    /// The charge would exceed the account's credit line.
    case overCreditLimit
    /// The server could not be reached.
    case serverUnreachable
    /// The order number was already charged on another amount.
    case orderNumberReused
    /// The charge is not on hold, so it cannot be settled or released.
    case notOnHold
}

/// When the device may hold a charge instead of sending it now: the vendor's version of an offline policy.
public enum HoldMode: Hashable, Sendable {
    /// Send now; fail if the server is unreachable.
    case never
    /// Send now if the server is reachable, otherwise hold on the device.
    case ifUnreachable
    /// Hold on the device and send later, even if the server is reachable.
    case always
}

/// The calls the adapter needs from the house-account system.
public protocol HouseAccountClient: Sendable {
    /// Charges an account now, or holds the charge on the device as `hold` allows.
    func charge(account: String, orderNumber: String, amount: Int64, currency: String, hold: HoldMode,
                settleImmediately: Bool) async throws(HouseAccountError) -> HouseCharge
    /// Settles (captures) a charge on hold.
    func settle(serverID: String) async throws(HouseAccountError) -> HouseCharge
    /// Releases (voids) a charge on hold.
    func release(serverID: String) async throws(HouseAccountError) -> HouseCharge
    /// Every charge the device and server know for an order number.
    func charges(orderNumber: String) async -> [HouseCharge]
    /// Whether the server is reachable.
    func isReachable() async -> Bool
    /// Sends the charges held on the device; returns what the server made of each.
    func sendHeldCharges() async -> [HouseCharge]
    /// The charges held on the device, not yet sent.
    func heldCharges() async -> [HouseCharge]
}

// MARK: - 2. The mapping: vendor errors and statuses to Tender, by name

/// The error table, built with Tender's `VendorErrorTable` so it is documented and tested like the big adapters'.
public enum HouseAccountErrors {
    /// Every vendor error, mapped.
    public static let table = VendorErrorTable(processor: "house", vendorType: "HouseAccountError", rows: [
        VendorErrorMapping("unknownAccount", nil, .cardDeclined, .collectAnotherCard, .processing,
                           "This house account does not exist or is closed."),
        VendorErrorMapping("overCreditLimit", nil, .cardDeclined, .collectAnotherCard, .processing,
                           "This purchase is over the account's credit line."),
        VendorErrorMapping("serverUnreachable", nil, .networkUnavailable, .goOnline, .processing,
                           "The house-account server cannot be reached."),
        VendorErrorMapping("orderNumberReused", nil, .duplicateReference, .fixRequest, .processing,
                           "This order number was already charged for another amount."),
        VendorErrorMapping("notOnHold", nil, .invalidState, .none, .capture,
                           "This charge is not on hold, so it cannot be settled or released."),
    ])

    /// The Tender error for a vendor error (by case name, never by position).
    public static func error(_ error: HouseAccountError) -> PaymentError { table.error(named: error.rawValue) }

    /// The Tender state for a vendor status. A `switch`, so a new vendor status will not compile until mapped.
    public static func state(_ status: HouseCharge.Status, settleImmediately: Bool) -> PaymentState {
        switch status {
        case .heldOnDevice: .storedOffline
        case .onHold: settleImmediately ? .succeeded : .authorized
        case .settled: .succeeded
        case .released: .canceled
        case .refused: .declined
        }
    }
}

// MARK: - 4. The adapter: translates, decides nothing

/// House accounts as a Tender `PaymentProcessor`.
///
/// The house account needs no card reader; `discoverReaders` reports one "virtual" reader so apps can treat every
/// processor alike.
public final class HouseAccountProcessor: PaymentProcessor {
    /// `"house"`.
    public let name = "house"
    private let client: any HouseAccountClient
    /// The account the next payment is charged to (in a real app: chosen by the cashier).
    private let accountForNextPayment: Locked<String>
    private let emitter = ProcessorEventEmitter()
    private let canceled = Locked<Set<String>>([])

    /// Creates the adapter over a client (the simulator in tests, a network client in an app).
    public init(client: any HouseAccountClient, account: String) {
        self.client = client
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
            var update = ProcessorPaymentUpdate(reference: charge.orderNumber, state: .forwarded, route: .offline,
                                                processorPaymentID: charge.serverID)
            if charge.status == .refused {
                update.state = .declinedAfterForwarding
                update.error = HouseAccountErrors.error(.overCreditLimit).inPhase(.forwarding)
            }
            emitter.emit(.paymentForwarded(update))
        }
        emitter.emit(.offlineQueueChanged)
    }

    /// Offline is possible (the device holds charges), with a house rule: at most 200.00 per held charge.
    public func capabilities() async -> ProcessorCapabilities {
        ProcessorCapabilities(processorName: name,
                              offlineLimits: ProcessorOfflineLimits(perPaymentMaximum: [.usd: 20_000]),
                              supportedCurrencies: [.usd])
    }

    /// One virtual reader.
    public func discoverReaders(timeout: Double) async throws -> [Reader] {
        [Reader(id: "house-ledger", model: "house account", isSimulated: true)]
    }

    /// Nothing to connect; echoes the reader with its location.
    public func connectReader(_ reader: Reader, locationID: String) async throws -> Reader {
        var connected = reader
        connected.locationID = locationID
        emitter.emit(.readerConnectionChanged(.connected))
        return connected
    }

    /// Nothing to disconnect.
    public func disconnectReader() async throws { emitter.emit(.readerDisconnected(.requested)) }

    /// Charges the account. The core already chose the route; the adapter only tells the client.
    public func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                             updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate {
        let reference = request.reference
        // A retry: ask the vendor what it already has for this order number before charging anything.
        if attempt.number > 1, let existing = await client.charges(orderNumber: reference).first {
            return translate(existing, request: request)
        }
        try await updates(ProcessorPaymentUpdate(reference: reference, state: .collecting))
        if canceled.withLock({ $0.remove(reference) != nil }) {
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
                account: accountForNextPayment.current, orderNumber: reference, amount: total.minorUnits,
                currency: total.currency.code, hold: hold, settleImmediately: request.captureMode == .automatic)
            return translate(charge, request: request)
        } catch {
            let mapped = HouseAccountErrors.error(error)
            let state: PaymentState = mapped.code == .cardDeclined ? .declined : .failed
            return ProcessorPaymentUpdate(reference: reference, state: state, error: mapped)
        }
    }

    private func translate(_ charge: HouseCharge, request: PaymentRequest) -> ProcessorPaymentUpdate {
        ProcessorPaymentUpdate(
            reference: request.reference,
            state: HouseAccountErrors.state(charge.status, settleImmediately: request.captureMode == .automatic),
            route: charge.status == .heldOnDevice ? .offline : .online, processorPaymentID: charge.serverID,
            error: charge.status == .refused ? HouseAccountErrors.error(.overCreditLimit) : nil)
    }

    /// Cancels before the account is charged.
    public func cancelPayment(reference: String) async throws { canceled.withLock { _ = $0.insert(reference) } }

    /// Settles a charge on hold (month-end capture, done now).
    public func capturePayment(reference: String, processorPaymentID: String, amount: Money) async throws
        -> ProcessorPaymentUpdate {
        do {
            let charge = try await client.settle(serverID: processorPaymentID)
            return ProcessorPaymentUpdate(reference: reference, state: HouseAccountErrors.state(charge.status, settleImmediately: false),
                                          processorPaymentID: processorPaymentID)
        } catch { throw HouseAccountErrors.error(error) }
    }

    /// Releases a charge on hold.
    public func voidPayment(reference: String, processorPaymentID: String) async throws -> ProcessorPaymentUpdate {
        do {
            let charge = try await client.release(serverID: processorPaymentID)
            return ProcessorPaymentUpdate(reference: reference, state: HouseAccountErrors.state(charge.status, settleImmediately: false),
                                          processorPaymentID: processorPaymentID)
        } catch { throw HouseAccountErrors.error(error) }
    }

    /// The vendor's own view of the charges held on the device.
    public func queueSnapshot() async throws -> OfflineQueueSnapshot {
        let held = await client.heldCharges().map { charge in
            QueuedPayment(reference: charge.orderNumber,
                          amount: Money(minorUnits: charge.amount, currency: (try? Currency(code: charge.currency)) ?? .usd),
                          storedAt: Date(timeIntervalSince1970: 0), status: .stored)
        }
        return try OfflineQueueSnapshot(networkStatus: await client.isReachable() ? .online : .offline, payments: held)
    }

    /// What the vendor has for the order number. `notFound` only when neither device nor server knows it.
    public func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup {
        let reference = query.reference
        guard let charge = await client.charges(orderNumber: reference).first else { return .notFound }
        let settleImmediately = charge.status == .settled
        return .found(ProcessorPaymentUpdate(
            reference: reference, state: HouseAccountErrors.state(charge.status, settleImmediately: settleImmediately),
            route: charge.status == .heldOnDevice ? .offline : nil, processorPaymentID: charge.serverID))
    }

    /// The events.
    public func events() -> AsyncStream<ProcessorEvent> { emitter.stream }
}
