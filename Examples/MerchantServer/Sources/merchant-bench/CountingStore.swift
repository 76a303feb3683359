import Foundation
import MerchantServer

/// The store with a count of the calls each request makes (each call is one statement, or one transaction for
/// enrolment and migrations): how much database work a route does, beside how fast it is.
final class CountingStore: MerchantStore, @unchecked Sendable {
    let base: any MerchantStore
    private let lock = NSLock()
    private var count = 0

    init(_ base: any MerchantStore) { self.base = base }

    /// The calls so far, and resets the count.
    func take() -> Int { lock.withLock { defer { count = 0 }; return count } }

    private func counted() { lock.withLock { count += 1 } }

    func migrate() async throws { try await base.migrate() }
    func schemaVersion() async throws -> Int { try await base.schemaVersion() }
    func appliedMigrations() async throws -> [Int] { try await base.appliedMigrations() }
    func createEnrolmentCode(_ code: EnrolmentCode) async throws { counted(); try await base.createEnrolmentCode(code) }
    func enrol(codeHash: String, deviceID: String, tokenHash: String, name: String, now: Date) async throws
        -> DeviceRecord? {
        counted()
        return try await base.enrol(codeHash: codeHash, deviceID: deviceID, tokenHash: tokenHash, name: name, now: now)
    }
    func device(tokenHash: String) async throws -> DeviceRecord? {
        counted()
        return try await base.device(tokenHash: tokenHash)
    }
    func devices(locationID: String?) async throws -> [DeviceRecord] {
        counted()
        return try await base.devices(locationID: locationID)
    }
    func revokeDevice(id: String, at time: Date) async throws -> Bool {
        counted()
        return try await base.revokeDevice(id: id, at: time)
    }
    func recordAudit(_ entry: AuditEntry) async throws { counted(); try await base.recordAudit(entry) }
    func audit(locationID: String, from: Date, to: Date) async throws -> [AuditEntry] {
        counted()
        return try await base.audit(locationID: locationID, from: from, to: to)
    }
    func refundedTotal(deviceID: String, currency: String, from: Date, to: Date, excluding: String?) async throws
        -> Int64 {
        counted()
        return try await base.refundedTotal(deviceID: deviceID, currency: currency, from: from, to: to,
                                            excluding: excluding)
    }
    func sealedSquareToken(merchantID: String) async throws -> SealedSquareToken? {
        counted()
        return try await base.sealedSquareToken(merchantID: merchantID)
    }
    func storeSquareToken(_ token: SealedSquareToken) async throws -> SealedSquareToken {
        counted()
        return try await base.storeSquareToken(token)
    }
    func storeFleetReport(_ report: StoredFleetReport, changed: Bool) async throws {
        counted()
        try await base.storeFleetReport(report, changed: changed)
    }
    func fleetReport(deviceID: String) async throws -> StoredFleetReport? {
        counted()
        return try await base.fleetReport(deviceID: deviceID)
    }
    func fleetReports(locationID: String?) async throws -> [StoredFleetReport] {
        counted()
        return try await base.fleetReports(locationID: locationID)
    }
    func fleetReportChanges(deviceID: String) async throws -> [StoredFleetReport] {
        counted()
        return try await base.fleetReportChanges(deviceID: deviceID)
    }
    func recordVendorEvent(_ event: VendorEvent, receivedAt: Date) async throws -> VendorEventOutcome {
        counted()
        return try await base.recordVendorEvent(event, receivedAt: receivedAt)
    }
    func vendorEvents(vendor: String) async throws -> [VendorEvent] {
        counted()
        return try await base.vendorEvents(vendor: vendor)
    }
    func vendorPayments(location: String?) async throws -> [VendorPaymentState] {
        counted()
        return try await base.vendorPayments(location: location)
    }
    func lastVendorEvent() async throws -> [String: Date] {
        counted()
        return try await base.lastVendorEvent()
    }
}
