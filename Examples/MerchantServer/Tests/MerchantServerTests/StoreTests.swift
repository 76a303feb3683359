import Foundation
import Testing
@testable import MerchantServer

/// The same suite against SQLite and PostgreSQL.
@Suite("Stores")
struct StoreTests {
    @Test("migrations: eight instances starting at once apply each migration once", arguments: StoreKind.available)
    func racingMigrations(kind: StoreKind) async throws {
        let stores = try await kind.makeStores(8)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores { group.addTask { try await store.migrate() } }
            try await group.waitForAll()
        }
        let expected = Migration.all.map(\.version)
        for store in stores {
            #expect(try await store.appliedMigrations() == expected)
            #expect(try await store.schemaVersion() == expected.last)
        }
        // Again: nothing to do.
        try await stores[0].migrate()
        #expect(try await stores[0].appliedMigrations() == expected)
    }

    @Test("a fresh database has no migrations until migrated", arguments: StoreKind.available)
    func freshDatabase(kind: StoreKind) async throws {
        let store = try await kind.makeStores(1)[0]
        #expect(try await store.appliedMigrations() == [])
        try await store.migrate()
        #expect(try await store.schemaVersion() == Migration.all.count)
    }

    @Test("codes, devices, revocation", arguments: StoreKind.available)
    func registry(kind: StoreKind) async throws {
        let store = try await kind.makeStore()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try await store.createEnrolmentCode(EnrolmentCode(codeHash: "c1", merchantID: "m", locationID: "L1",
                                                          role: "cashier", createdAt: now,
                                                          expiresAt: now.addingTimeInterval(60)))
        #expect(try await store.enrol(codeHash: "nope", deviceID: "d0", tokenHash: "t0", name: "x", now: now) == nil)
        let device = try #require(try await store.enrol(codeHash: "c1", deviceID: "d1", tokenHash: "t1", name: "till",
                                                        now: now))
        #expect(device.locationID == "L1" && device.role == "cashier" && device.merchantID == "m")
        #expect(try await store.enrol(codeHash: "c1", deviceID: "d2", tokenHash: "t2", name: "x", now: now) == nil)
        #expect(try await store.device(tokenHash: "t1") == device)
        #expect(try await store.device(tokenHash: "t2") == nil)
        #expect(try await store.devices(locationID: "L2").isEmpty)
        #expect(try await store.revokeDevice(id: "d1", at: now))
        #expect(try await !store.revokeDevice(id: "d1", at: now))
        #expect(try await store.device(tokenHash: "t1")?.revokedAt == now)
    }

    @Test("the audit: one row per operation and key, totals by device and day", arguments: StoreKind.available)
    func audit(kind: StoreKind) async throws {
        let store = try await kind.makeStore()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func refund(_ key: String?, _ minor: Int64, status: Int = 200, result: String = "succeeded",
                    at time: Date? = nil) -> AuditEntry {
            let time = time ?? now
            return AuditEntry(deviceID: "d1", merchantID: "m", locationID: "L1", operation: "refund", processor: "stripe",
                       amountMinor: minor, currency: "USD", idempotencyKey: key, status: status, result: result,
                       at: time)
        }
        try await store.recordAudit(refund("k1", 1_000, result: "pending"))
        try await store.recordAudit(refund("k1", 1_000, at: now.addingTimeInterval(5)))
        try await store.recordAudit(refund("k2", 500, status: 403, result: "not_authorized"))
        try await store.recordAudit(refund("k3", 300, result: "failed"))
        try await store.recordAudit(refund("k4", 200, at: now.addingTimeInterval(86_400)))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 { group.addTask { try await store.recordAudit(refund("k5", 50)) } }
            try await group.waitForAll()
        }
        let day = try await store.audit(locationID: "L1", from: now, to: now.addingTimeInterval(86_400))
        #expect(day.map(\.idempotencyKey) == ["k1", "k2", "k3", "k5"])
        #expect(day[0].attempts == 2 && day[0].result == "succeeded" && day[0].createdAt == now
            && day[0].updatedAt == now.addingTimeInterval(5))
        #expect(day[3].attempts == 10)
        let total = try await store.refundedTotal(deviceID: "d1", currency: "USD", from: now,
                                                  to: now.addingTimeInterval(86_400), excluding: nil)
        #expect(total == 1_050)
        #expect(try await store.refundedTotal(deviceID: "d1", currency: "USD", from: now,
                                              to: now.addingTimeInterval(86_400), excluding: "k1") == 50)
        #expect(try await store.refundedTotal(deviceID: "d1", currency: "EUR", from: now,
                                              to: now.addingTimeInterval(86_400), excluding: nil) == 0)
    }
}
