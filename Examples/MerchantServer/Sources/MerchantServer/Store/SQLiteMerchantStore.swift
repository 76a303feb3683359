import Foundation
import GRDB

/// The embedded store: one SQLite file through GRDB (a `DatabasePool`: WAL, one writer at a time, readers beside it,
/// a busy timeout so other processes on the same file wait rather than fail). Migrations run in one
/// `BEGIN IMMEDIATE` transaction: SQLite's write lock serializes instances, and the applied versions are re-read
/// after it is taken.
public final class SQLiteMerchantStore: MerchantStore {
    let pool: DatabasePool

    /// Opens (creating) the database at `path`.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        pool = try DatabasePool(path: path, configuration: configuration)
    }

    public func migrate() async throws {
        try await pool.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                try db.execute(sql: Migration.createTable)
                let applied = Set(try Int.fetchAll(db, sql: "SELECT version FROM schema_migrations"))
                for migration in Migration.all where !applied.contains(migration.version) {
                    for statement in migration.sqlite { try db.execute(sql: statement) }
                    try db.execute(sql: "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                                   arguments: [migration.version, migration.name, Date().storeMillis])
                }
                return .commit
            }
        }
    }

    public func schemaVersion() async throws -> Int {
        try await appliedMigrations().max() ?? 0
    }

    public func appliedMigrations() async throws -> [Int] {
        try await pool.read { db in
            guard try db.tableExists("schema_migrations") else { return [] }
            return try Int.fetchAll(db, sql: "SELECT version FROM schema_migrations ORDER BY version")
        }
    }

    public func createEnrolmentCode(_ code: EnrolmentCode) async throws {
        try await pool.write { db in
            try db.execute(sql: """
                INSERT INTO enrolment_codes (code_hash, merchant_id, location_id, role, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [code.codeHash, code.merchantID, code.locationID, code.role,
                                 code.createdAt.storeMillis, code.expiresAt.storeMillis])
        }
    }

    public func enrol(codeHash: String, deviceID: String, tokenHash: String, name: String, now: Date) async throws
        -> DeviceRecord? {
        try await pool.write { db in
            try db.execute(sql: """
                UPDATE enrolment_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?
                """, arguments: [now.storeMillis, codeHash, now.storeMillis])
            guard db.changesCount == 1,
                  let row = try Row.fetchOne(db, sql: """
                      SELECT merchant_id, location_id, role FROM enrolment_codes WHERE code_hash = ?
                      """, arguments: [codeHash]) else { return nil }
            let device = DeviceRecord(id: deviceID, merchantID: row["merchant_id"], locationID: row["location_id"],
                                      role: row["role"], name: name, tokenHash: tokenHash, createdAt: now)
            try db.execute(sql: """
                INSERT INTO devices (id, merchant_id, location_id, role, name, token_hash, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [device.id, device.merchantID, device.locationID, device.role, device.name,
                                 device.tokenHash, now.storeMillis])
            return device
        }
    }

    public func device(tokenHash: String) async throws -> DeviceRecord? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM devices WHERE token_hash = ?", arguments: [tokenHash])
                .map(Self.deviceRecord)
        }
    }

    public func devices(locationID: String?) async throws -> [DeviceRecord] {
        try await pool.read { db in
            if let locationID {
                return try Row.fetchAll(db, sql: "SELECT * FROM devices WHERE location_id = ? ORDER BY created_at, id",
                                        arguments: [locationID]).map(Self.deviceRecord)
            }
            return try Row.fetchAll(db, sql: "SELECT * FROM devices ORDER BY created_at, id").map(Self.deviceRecord)
        }
    }

    public func revokeDevice(id: String, at time: Date) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "UPDATE devices SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                           arguments: [time.storeMillis, id])
            return db.changesCount == 1
        }
    }

    public func recordAudit(_ entry: AuditEntry) async throws {
        try await pool.write { db in
            try db.execute(sql: """
                INSERT INTO audit (device_id, merchant_id, location_id, operation, processor, amount_minor, currency,
                  idempotency_key, status, result, created_at, updated_at, attempts)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
                ON CONFLICT (operation, idempotency_key) DO UPDATE SET status = excluded.status,
                  result = excluded.result, updated_at = excluded.updated_at, attempts = audit.attempts + 1
                """, arguments: [entry.deviceID, entry.merchantID, entry.locationID, entry.operation, entry.processor,
                                 entry.amountMinor, entry.currency, entry.idempotencyKey, entry.status, entry.result,
                                 entry.createdAt.storeMillis, entry.updatedAt.storeMillis])
        }
    }

    public func audit(locationID: String, from: Date, to: Date) async throws -> [AuditEntry] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM audit WHERE location_id = ? AND created_at >= ? AND created_at < ? ORDER BY created_at, id
                """, arguments: [locationID, from.storeMillis, to.storeMillis]).map(Self.auditEntry)
        }
    }

    public func refundedTotal(deviceID: String, currency: String, from: Date, to: Date, excluding: String?)
        async throws -> Int64 {
        try await pool.read { db in
            try Int64.fetchOne(db, sql: """
                SELECT COALESCE(SUM(amount_minor), 0) FROM audit WHERE device_id = ? AND operation = 'refund'
                  AND currency = ? AND created_at >= ? AND created_at < ? AND status < 300 AND result != 'failed'
                  AND (? IS NULL OR idempotency_key IS NULL OR idempotency_key != ?)
                """, arguments: [deviceID, currency, from.storeMillis, to.storeMillis, excluding, excluding]) ?? 0
        }
    }

    public func sealedSquareToken(merchantID: String) async throws -> SealedSquareToken? {
        try await pool.read { db in try Self.squareToken(db, merchantID) }
    }

    public func storeSquareToken(_ token: SealedSquareToken) async throws -> SealedSquareToken {
        try await pool.write { db in
            try db.execute(sql: """
                INSERT INTO square_tokens (merchant_id, sealed, expires_at, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (merchant_id) DO UPDATE SET sealed = excluded.sealed, expires_at = excluded.expires_at,
                  updated_at = excluded.updated_at
                WHERE excluded.expires_at > square_tokens.expires_at
                """, arguments: [token.merchantID, token.sealed, token.expiresAt.storeMillis,
                                 token.updatedAt.storeMillis])
            return try Self.squareToken(db, token.merchantID) ?? token
        }
    }

    static func squareToken(_ db: Database, _ merchantID: String) throws -> SealedSquareToken? {
        try Row.fetchOne(db, sql: "SELECT sealed, expires_at, updated_at FROM square_tokens WHERE merchant_id = ?",
                         arguments: [merchantID]).map {
            SealedSquareToken(merchantID: merchantID, sealed: $0["sealed"],
                              expiresAt: Date(storeMillis: $0["expires_at"]),
                              updatedAt: Date(storeMillis: $0["updated_at"]))
        }
    }

    static func deviceRecord(_ row: Row) -> DeviceRecord {
        DeviceRecord(id: row["id"], merchantID: row["merchant_id"], locationID: row["location_id"], role: row["role"],
                     name: row["name"], tokenHash: row["token_hash"],
                     createdAt: Date(storeMillis: row["created_at"]),
                     revokedAt: (row["revoked_at"] as Int64?).map(Date.init(storeMillis:)))
    }

    static func auditEntry(_ row: Row) -> AuditEntry {
        var entry = AuditEntry(deviceID: row["device_id"], merchantID: row["merchant_id"],
                               locationID: row["location_id"], operation: row["operation"],
                               processor: row["processor"], amountMinor: row["amount_minor"],
                               currency: row["currency"], idempotencyKey: row["idempotency_key"],
                               status: row["status"], result: row["result"],
                               at: Date(storeMillis: row["created_at"]))
        entry.updatedAt = Date(storeMillis: row["updated_at"])
        entry.attempts = row["attempts"]
        return entry
    }
}
