import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL store, through PostgresNIO's `PostgresClient` (a connection pool). Migrations run in one
/// transaction holding a transaction-level advisory lock (`pg_advisory_xact_lock`): a second instance waits, then
/// re-reads what was applied and finds nothing left to do.
public final class PostgresMerchantStore: MerchantStore {
    let client: PostgresClient
    let logger: Logger
    private let runner: Task<Void, Never>

    /// The lock every instance's migration takes (any constant shared by all instances of this schema).
    static let migrationLock: Int64 = 29_029_029

    /// Connects to `url` (`postgres://user[:password]@host[:port]/database`); `password` when not in the URL.
    public init(url: String, password: String? = nil, logger: Logger) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme),
              let host = components.host, let user = components.user else {
            throw StoreError("The PostgreSQL URL must look like postgres://user@host:port/database.")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        let configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user,
            password: components.password ?? password, database: database.isEmpty ? user : database, tls: .disable)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        runner = Task { await client.run() }
    }

    deinit { runner.cancel() }

    /// Runs `body` in one transaction on one connection.
    func transaction<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let logger = logger
        return try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let value = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    public func migrate() async throws {
        let logger = logger
        try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
            try await connection.query(PostgresQuery(unsafeSQL: Migration.createTable), logger: logger)
            var applied: Set<Int> = []
            for try await version in try await connection.query("SELECT version FROM schema_migrations",
                                                                logger: logger).decode(Int.self) {
                applied.insert(version)
            }
            for migration in Migration.all where !applied.contains(migration.version) {
                for statement in migration.postgres {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("""
                    INSERT INTO schema_migrations (version, name, applied_at)
                    VALUES (\(migration.version), \(migration.name), \(Date().storeMillis))
                    """, logger: logger)
            }
        }
    }

    public func schemaVersion() async throws -> Int { try await appliedMigrations().max() ?? 0 }

    public func appliedMigrations() async throws -> [Int] {
        var versions: [Int] = []
        let exists = try await client.query("SELECT to_regclass('schema_migrations') IS NOT NULL", logger: logger)
        for try await found in exists.decode(Bool.self) where !found { return [] }
        for try await version in try await client.query("SELECT version FROM schema_migrations ORDER BY version",
                                                         logger: logger).decode(Int.self) {
            versions.append(version)
        }
        return versions
    }

    public func createEnrolmentCode(_ code: EnrolmentCode) async throws {
        try await client.query("""
            INSERT INTO enrolment_codes (code_hash, merchant_id, location_id, role, created_at, expires_at)
            VALUES (\(code.codeHash), \(code.merchantID), \(code.locationID), \(code.role),
                    \(code.createdAt.storeMillis), \(code.expiresAt.storeMillis))
            """, logger: logger)
    }

    public func enrol(codeHash: String, deviceID: String, tokenHash: String, name: String, now: Date) async throws
        -> DeviceRecord? {
        let logger = logger
        let time = now.storeMillis
        return try await transaction { connection in
            let rows = try await connection.query("""
                UPDATE enrolment_codes SET used_at = \(time)
                WHERE code_hash = \(codeHash) AND used_at IS NULL AND expires_at > \(time)
                RETURNING merchant_id, location_id, role
                """, logger: logger)
            var device: DeviceRecord?
            for try await (merchant, location, role) in rows.decode((String, String, String).self) {
                device = DeviceRecord(id: deviceID, merchantID: merchant, locationID: location, role: role,
                                      name: name, tokenHash: tokenHash, createdAt: now)
            }
            guard let device else { return nil }
            try await connection.query("""
                INSERT INTO devices (id, merchant_id, location_id, role, name, token_hash, created_at)
                VALUES (\(device.id), \(device.merchantID), \(device.locationID), \(device.role), \(device.name),
                        \(device.tokenHash), \(time))
                """, logger: logger)
            return device
        }
    }

    static let deviceColumns = "id, merchant_id, location_id, role, name, token_hash, created_at, revoked_at"
    typealias DeviceRow = (String, String, String, String, String, String, Int64, Int64?)

    static func deviceRecord(_ row: DeviceRow) -> DeviceRecord {
        DeviceRecord(id: row.0, merchantID: row.1, locationID: row.2, role: row.3, name: row.4, tokenHash: row.5,
                     createdAt: Date(storeMillis: row.6), revokedAt: row.7.map(Date.init(storeMillis:)))
    }

    public func device(tokenHash: String) async throws -> DeviceRecord? {
        let rows = try await client.query("""
            SELECT id, merchant_id, location_id, role, name, token_hash, created_at, revoked_at
            FROM devices WHERE token_hash = \(tokenHash)
            """, logger: logger)
        for try await row in rows.decode(DeviceRow.self) { return Self.deviceRecord(row) }
        return nil
    }

    public func devices(locationID: String?) async throws -> [DeviceRecord] {
        let rows = try await client.query("""
            SELECT id, merchant_id, location_id, role, name, token_hash, created_at, revoked_at
            FROM devices WHERE location_id = \(locationID ?? "") OR \(locationID == nil) ORDER BY created_at, id
            """, logger: logger)
        var devices: [DeviceRecord] = []
        for try await row in rows.decode(DeviceRow.self) { devices.append(Self.deviceRecord(row)) }
        return devices
    }

    public func revokeDevice(id: String, at time: Date) async throws -> Bool {
        let rows = try await client.query("""
            UPDATE devices SET revoked_at = \(time.storeMillis) WHERE id = \(id) AND revoked_at IS NULL RETURNING id
            """, logger: logger)
        for try await _ in rows.decode(String.self) { return true }
        return false
    }

    public func recordAudit(_ entry: AuditEntry) async throws {
        try await client.query("""
            INSERT INTO audit (device_id, merchant_id, location_id, operation, processor, amount_minor, currency,
              idempotency_key, status, result, created_at, updated_at, attempts)
            VALUES (\(entry.deviceID), \(entry.merchantID), \(entry.locationID), \(entry.operation),
                    \(entry.processor), \(entry.amountMinor), \(entry.currency), \(entry.idempotencyKey),
                    \(entry.status), \(entry.result), \(entry.createdAt.storeMillis), \(entry.updatedAt.storeMillis), 1)
            ON CONFLICT (operation, idempotency_key) DO UPDATE SET status = excluded.status,
              result = excluded.result, updated_at = excluded.updated_at, attempts = audit.attempts + 1
            """, logger: logger)
    }

    public func audit(locationID: String, from: Date, to: Date) async throws -> [AuditEntry] {
        let rows = try await client.query("""
            SELECT device_id, merchant_id, location_id, operation, processor, amount_minor, currency,
              idempotency_key, status, result, created_at, updated_at, attempts
            FROM audit WHERE location_id = \(locationID) AND created_at >= \(from.storeMillis)
              AND created_at < \(to.storeMillis) ORDER BY created_at, id
            """, logger: logger)
        var entries: [AuditEntry] = []
        for try await row in rows {
            let c = row.makeRandomAccess()
            var entry = AuditEntry(
                deviceID: try c[0].decode(String.self), merchantID: try c[1].decode(String.self),
                locationID: try c[2].decode(String.self), operation: try c[3].decode(String.self),
                processor: try c[4].decode(String?.self), amountMinor: try c[5].decode(Int64?.self),
                currency: try c[6].decode(String?.self), idempotencyKey: try c[7].decode(String?.self),
                status: try c[8].decode(Int.self), result: try c[9].decode(String.self),
                at: Date(storeMillis: try c[10].decode(Int64.self)))
            entry.updatedAt = Date(storeMillis: try c[11].decode(Int64.self))
            entry.attempts = try c[12].decode(Int.self)
            entries.append(entry)
        }
        return entries
    }

    public func refundedTotal(deviceID: String, currency: String, from: Date, to: Date, excluding: String?)
        async throws -> Int64 {
        let rows = try await client.query("""
            SELECT COALESCE(SUM(amount_minor), 0)::BIGINT FROM audit WHERE device_id = \(deviceID)
              AND operation = 'refund' AND currency = \(currency) AND created_at >= \(from.storeMillis)
              AND created_at < \(to.storeMillis) AND status < 300 AND result != 'failed'
              AND (\(excluding)::TEXT IS NULL OR idempotency_key IS NULL OR idempotency_key != \(excluding))
            """, logger: logger)
        for try await total in rows.decode(Int64.self) { return total }
        return 0
    }

    public func sealedSquareToken(merchantID: String) async throws -> SealedSquareToken? {
        let rows = try await client.query("""
            SELECT sealed, expires_at, updated_at FROM square_tokens WHERE merchant_id = \(merchantID)
            """, logger: logger)
        for try await (sealed, expires, updated) in rows.decode((String, Int64, Int64).self) {
            return SealedSquareToken(merchantID: merchantID, sealed: sealed, expiresAt: Date(storeMillis: expires),
                                     updatedAt: Date(storeMillis: updated))
        }
        return nil
    }

    public func storeSquareToken(_ token: SealedSquareToken) async throws -> SealedSquareToken {
        try await client.query("""
            INSERT INTO square_tokens (merchant_id, sealed, expires_at, updated_at)
            VALUES (\(token.merchantID), \(token.sealed), \(token.expiresAt.storeMillis),
                    \(token.updatedAt.storeMillis))
            ON CONFLICT (merchant_id) DO UPDATE SET sealed = excluded.sealed, expires_at = excluded.expires_at,
              updated_at = excluded.updated_at
            WHERE excluded.expires_at > square_tokens.expires_at
            """, logger: logger)
        return try await sealedSquareToken(merchantID: token.merchantID) ?? token
    }
}

/// A store's own failure (its message names no credential).
public struct StoreError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
