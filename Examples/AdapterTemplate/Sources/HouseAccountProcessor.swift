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
public import Foundation
public import Tender

// MARK: - 1. The client protocol: the vendor's calls, in the vendor's words

/// A charge as the house-account server knows it.
public struct HouseCharge: Hashable, Sendable {
    /// The server's id, once the server has it (`nil` while held on the device).
    public var serverID: String?
    /// The account charged.
    public var account: String
    /// The charge's order number, the vendor's idempotency key: the adapter passes Tender's vendor attempt id
    /// (``Tender/PaymentAttempt/vendorAttemptID(reference:)``), unique per merchant, location, reference and
    /// attempt, which is what makes retries safe and keeps two shops' order "1001" apart.
    public var orderNumber: String
    /// The sale's reference as the shop knows it (Tender's reference), shown on the customer's statement.
    public var reference: String
    /// The amount in minor units.
    public var amount: Int64
    /// The currency code.
    public var currency: String
    /// The server's status, in its own words.
    public var status: Status
    /// When the device held it (for a charge held on the device): the vendor's own stored time.
    public var heldAt: Date?

    /// Creates a charge record.
    public init(serverID: String?, account: String, orderNumber: String, reference: String, amount: Int64,
                currency: String, status: Status, heldAt: Date? = nil) {
        self.serverID = serverID
        self.account = account
        self.orderNumber = orderNumber
        self.reference = reference
        self.amount = amount
        self.currency = currency
        self.status = status
        self.heldAt = heldAt
    }

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
    /// The request timed out: the server may or may not have charged.
    case timedOut
    /// The amount is more than the vendor takes in one charge (``HouseAccountSimulator/maximumCharge``).
    case amountTooLarge
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
    func charge(account: String, orderNumber: String, reference: String, amount: Int64, currency: String,
                hold: HoldMode, settleImmediately: Bool) async throws(HouseAccountError) -> HouseCharge
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
    /// Waits while the customer presents the card; `false` if the presentation was canceled on the device.
    func presentCard() async -> Bool
    /// Cancels a card presentation in progress; `false` if there was none to cancel.
    func cancelHeldCard() async -> Bool
    /// Releases an unsettled charge left by an abandoned order number; `nil` if none is live.
    func releaseUnsettled(orderNumber: String) async -> HouseCharge?
}

// MARK: - 2. The mapping: vendor errors and statuses to Tender, by name

/// The error table, built with Tender's `VendorErrorTable` so it is documented and tested like the big adapters'.
public enum HouseAccountErrors {
    /// Every vendor error, mapped.
    package static let table = VendorErrorTable(processor: "house", vendorType: "HouseAccountError", rows: [
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
        VendorErrorMapping("timedOut", nil, .outcomeUnknown, .retrySamePayment, .processing,
                           "The house-account server did not answer; the charge may or may not have been made."),
        VendorErrorMapping("amountTooLarge", nil, .invalidAmount, .fixRequest, .processing,
                           "The amount is more than the house account takes in one charge."),
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

