import Foundation

/// A device enrolled at one location of one merchant, with one role. The store keeps only the SHA-256 hash of its
/// token (hex), never the token.
public struct DeviceRecord: Sendable, Codable, Equatable {
    public var id: String
    public var merchantID: String
    public var locationID: String
    public var role: String
    public var name: String
    /// SHA-256 of the device token, lowercase hex. Never leaves the server.
    public var tokenHash: String
    public var createdAt: Date
    public var revokedAt: Date?

    public init(id: String, merchantID: String, locationID: String, role: String, name: String, tokenHash: String,
                createdAt: Date, revokedAt: Date? = nil) {
        self.id = id
        self.merchantID = merchantID
        self.locationID = locationID
        self.role = role
        self.name = name
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}

/// A one-time enrolment code an administrator made for a location and a role (only its hash is stored).
public struct EnrolmentCode: Sendable, Equatable {
    public var codeHash: String
    public var merchantID: String
    public var locationID: String
    public var role: String
    public var createdAt: Date
    public var expiresAt: Date

    public init(codeHash: String, merchantID: String, locationID: String, role: String, createdAt: Date,
                expiresAt: Date) {
        self.codeHash = codeHash
        self.merchantID = merchantID
        self.locationID = locationID
        self.role = role
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// One audited operation: a capture, void, refund or sign-in hand-off, as the vendor answered it. A retried request
/// (same operation, same idempotency key) is the same entry: its result and `attempts` are updated, no row is added.
public struct AuditEntry: Sendable, Codable, Equatable {
    public var deviceID: String
    public var merchantID: String
    public var locationID: String
    /// `capture`, `void`, `refund`, `signIn`, `connectionToken`.
    public var operation: String
    public var processor: String?
    public var amountMinor: Int64?
    public var currency: String?
    public var idempotencyKey: String?
    /// The HTTP status the device received.
    public var status: Int
    /// The vendor's result: `ok`, a refund's status, or the `PaymentError` code.
    public var result: String
    public var createdAt: Date
    public var updatedAt: Date
    public var attempts: Int

    public init(deviceID: String, merchantID: String, locationID: String, operation: String, processor: String?,
                amountMinor: Int64?, currency: String?, idempotencyKey: String?, status: Int, result: String,
                at time: Date) {
        self.deviceID = deviceID
        self.merchantID = merchantID
        self.locationID = locationID
        self.operation = operation
        self.processor = processor
        self.amountMinor = amountMinor
        self.currency = currency
        self.idempotencyKey = idempotencyKey
        self.status = status
        self.result = result
        self.createdAt = time
        self.updatedAt = time
        self.attempts = 1
    }
}

/// What the merchant server stores: enrolment codes, the device registry, the audit trail. Two implementations
/// (``SQLiteMerchantStore``, ``PostgresMerchantStore``) pass the same test suite.
public protocol MerchantStore: Sendable {
    /// Applies the missing schema migrations, once even when several instances start at the same time.
    func migrate() async throws
    /// The highest applied migration.
    func schemaVersion() async throws -> Int
    /// How many times each migration was applied (for the race tests: each exactly once).
    func appliedMigrations() async throws -> [Int]

    func createEnrolmentCode(_ code: EnrolmentCode) async throws
    /// Consumes the code (unused and unexpired at `now`) and registers the device, atomically: a code enrols one
    /// device, whatever the concurrency. Nil when the code is unknown, used or expired.
    func enrol(codeHash: String, deviceID: String, tokenHash: String, name: String, now: Date) async throws
        -> DeviceRecord?
    /// The device whose token hashes to `tokenHash` (revoked ones included: the caller checks `revokedAt`).
    func device(tokenHash: String) async throws -> DeviceRecord?
    func devices(locationID: String?) async throws -> [DeviceRecord]
    /// Marks the device revoked; false when no such device (or already revoked).
    func revokeDevice(id: String, at time: Date) async throws -> Bool

    /// Records the entry, or updates the existing one of the same operation and idempotency key (a retry).
    func recordAudit(_ entry: AuditEntry) async throws
    /// The entries of a location created in `[from, to)`, oldest first.
    func audit(locationID: String, from: Date, to: Date) async throws -> [AuditEntry]
    /// The total of the device's refunds in `currency` created in `[from, to)` that did not fail, leaving out the
    /// one with `excluding` as its idempotency key (a retry is not counted against itself).
    func refundedTotal(deviceID: String, currency: String, from: Date, to: Date, excluding: String?) async throws
        -> Int64

    /// The Square seller's sealed token (``SquareTokenKeeper``), nil when none is stored.
    func sealedSquareToken(merchantID: String) async throws -> SealedSquareToken?
    /// Stores `token` unless the stored one expires later (another instance refreshed after this one); returns
    /// what the store holds afterwards.
    func storeSquareToken(_ token: SealedSquareToken) async throws -> SealedSquareToken

    /// Keeps `report` (its JSON) as the device's latest, and adds it to the device's changes when `changed`.
    func storeFleetReport(_ report: StoredFleetReport, changed: Bool) async throws
    /// A device's latest report.
    func fleetReport(deviceID: String) async throws -> StoredFleetReport?
    /// The latest report of each device (of `locationID`, or every location).
    func fleetReports(locationID: String?) async throws -> [StoredFleetReport]
    /// A device's reports that changed something, oldest first.
    func fleetReportChanges(deviceID: String) async throws -> [StoredFleetReport]

    /// Keeps a vendor's webhook event once per (vendor, event id) and applies it to its payment's state, in one
    /// transaction: a second delivery changes nothing (``VendorEventOutcome/duplicate``); a state older than the
    /// stored one (by the object's own time; a tie goes to the later stage, ``VendorEvent/rank(type:status:)``) is
    /// kept as an event but does not overwrite it; a refund updates the payment's refunded amount.
    func recordVendorEvent(_ event: VendorEvent, receivedAt: Date) async throws -> VendorEventOutcome
    /// The events received from `vendor`, in the order they arrived.
    func vendorEvents(vendor: String) async throws -> [VendorEvent]
    /// The vendors' latest word on each payment they sent events about (at `location`, or all when nil; a payment
    /// of unknown location is listed only with nil), ordered by vendor and payment id. The fleet page reconciles
    /// the devices' reports with it (``VendorPaymentState/summary``).
    func vendorPayments(location: String?) async throws -> [VendorPaymentState]
    /// When the last event (any type, duplicates aside) arrived from each vendor, by vendor (`stripe`, `square`;
    /// absent: none yet): the fleet page's "webhook feed" line.
    func lastVendorEvent() async throws -> [String: Date]
}

/// A device's fleet report as the server keeps it: who sent it, when it arrived, and the report's JSON.
public struct StoredFleetReport: Sendable, Equatable {
    /// The enrolled device that sent it (the server's id, not the app's).
    public var deviceID: String
    public var merchantID: String
    public var locationID: String
    public var receivedAt: Date
    /// The report as JSON (ISO 8601 times).
    public var json: String

    public init(deviceID: String, merchantID: String, locationID: String, receivedAt: Date, json: String) {
        self.deviceID = deviceID
        self.merchantID = merchantID
        self.locationID = locationID
        self.receivedAt = receivedAt
        self.json = json
    }
}

/// Milliseconds since 1970, the stores' time column (portable between SQLite and PostgreSQL).
extension Date {
    var storeMillis: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
    init(storeMillis: Int64) { self.init(timeIntervalSince1970: Double(storeMillis) / 1000) }
}
