/// The schema, as versioned migrations. Each store applies the missing ones inside one transaction that holds a
/// lock every instance takes (SQLite: `BEGIN IMMEDIATE`, the database's write lock; PostgreSQL: a transaction-level
/// advisory lock), re-reading what was applied after taking it: two instances starting at once apply each once.
struct Migration: Sendable {
    var version: Int
    var name: String
    var sqlite: [String]
    var postgres: [String]

    static let all: [Migration] = [
        Migration(version: 1, name: "devices and enrolment codes", sqlite: [
            """
            CREATE TABLE enrolment_codes (code_hash TEXT PRIMARY KEY, merchant_id TEXT NOT NULL,
              location_id TEXT NOT NULL, role TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
              used_at INTEGER)
            """,
            """
            CREATE TABLE devices (id TEXT PRIMARY KEY, merchant_id TEXT NOT NULL, location_id TEXT NOT NULL,
              role TEXT NOT NULL, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL,
              revoked_at INTEGER)
            """,
        ], postgres: [
            """
            CREATE TABLE enrolment_codes (code_hash TEXT PRIMARY KEY, merchant_id TEXT NOT NULL,
              location_id TEXT NOT NULL, role TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL,
              used_at BIGINT)
            """,
            """
            CREATE TABLE devices (id TEXT PRIMARY KEY, merchant_id TEXT NOT NULL, location_id TEXT NOT NULL,
              role TEXT NOT NULL, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, created_at BIGINT NOT NULL,
              revoked_at BIGINT)
            """,
        ]),
        Migration(version: 2, name: "audit trail", sqlite: [
            """
            CREATE TABLE audit (id INTEGER PRIMARY KEY AUTOINCREMENT, device_id TEXT NOT NULL,
              merchant_id TEXT NOT NULL, location_id TEXT NOT NULL, operation TEXT NOT NULL, processor TEXT,
              amount_minor INTEGER, currency TEXT, idempotency_key TEXT, status INTEGER NOT NULL,
              result TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
              attempts INTEGER NOT NULL DEFAULT 1)
            """,
            "CREATE UNIQUE INDEX audit_operation_key ON audit (operation, idempotency_key)",
            "CREATE INDEX audit_location_time ON audit (location_id, created_at)",
            "CREATE INDEX audit_device_time ON audit (device_id, operation, created_at)",
        ], postgres: [
            """
            CREATE TABLE audit (id BIGSERIAL PRIMARY KEY, device_id TEXT NOT NULL,
              merchant_id TEXT NOT NULL, location_id TEXT NOT NULL, operation TEXT NOT NULL, processor TEXT,
              amount_minor BIGINT, currency TEXT, idempotency_key TEXT, status INTEGER NOT NULL,
              result TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
              attempts INTEGER NOT NULL DEFAULT 1)
            """,
            "CREATE UNIQUE INDEX audit_operation_key ON audit (operation, idempotency_key)",
            "CREATE INDEX audit_location_time ON audit (location_id, created_at)",
            "CREATE INDEX audit_device_time ON audit (device_id, operation, created_at)",
        ]),
        Migration(version: 3, name: "the Square seller's sealed token", sqlite: [
            """
            CREATE TABLE square_tokens (merchant_id TEXT PRIMARY KEY, sealed TEXT NOT NULL,
              expires_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)
            """,
        ], postgres: [
            """
            CREATE TABLE square_tokens (merchant_id TEXT PRIMARY KEY, sealed TEXT NOT NULL,
              expires_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)
            """,
        ]),
        Migration(version: 4, name: "fleet reports: the latest per device, and each change", sqlite: [
            """
            CREATE TABLE fleet_reports (device_id TEXT PRIMARY KEY, merchant_id TEXT NOT NULL,
              location_id TEXT NOT NULL, received_at INTEGER NOT NULL, report TEXT NOT NULL)
            """,
            """
            CREATE TABLE fleet_report_changes (id INTEGER PRIMARY KEY AUTOINCREMENT, device_id TEXT NOT NULL,
              received_at INTEGER NOT NULL, report TEXT NOT NULL)
            """,
            "CREATE INDEX fleet_report_changes_device ON fleet_report_changes (device_id, received_at)",
        ], postgres: [
            """
            CREATE TABLE fleet_reports (device_id TEXT PRIMARY KEY, merchant_id TEXT NOT NULL,
              location_id TEXT NOT NULL, received_at BIGINT NOT NULL, report TEXT NOT NULL)
            """,
            """
            CREATE TABLE fleet_report_changes (id BIGSERIAL PRIMARY KEY, device_id TEXT NOT NULL,
              received_at BIGINT NOT NULL, report TEXT NOT NULL)
            """,
            "CREATE INDEX fleet_report_changes_device ON fleet_report_changes (device_id, received_at)",
        ]),
        Migration(version: 5, name: "the vendors' webhook events; their latest word per payment and refund",
                  sqlite: [
            """
            CREATE TABLE vendor_events (id INTEGER PRIMARY KEY AUTOINCREMENT, vendor TEXT NOT NULL,
              event_id TEXT NOT NULL, type TEXT NOT NULL, kind TEXT NOT NULL, object_id TEXT, payment_id TEXT,
              reference TEXT, location_id TEXT, status TEXT, amount_minor INTEGER, currency TEXT,
              refunded_minor INTEGER, object_time INTEGER, received_at INTEGER NOT NULL, UNIQUE (vendor, event_id))
            """,
            "CREATE INDEX vendor_events_received ON vendor_events (vendor, received_at)",
            """
            CREATE TABLE vendor_payments (vendor TEXT NOT NULL, payment_id TEXT NOT NULL, reference TEXT,
              location_id TEXT, status TEXT, status_event TEXT, status_rank INTEGER NOT NULL, amount_minor INTEGER,
              currency TEXT, refunded_minor INTEGER NOT NULL, stated_refunded_minor INTEGER NOT NULL,
              stated_refunded_time INTEGER NOT NULL, object_time INTEGER NOT NULL, updated_at INTEGER NOT NULL,
              PRIMARY KEY (vendor, payment_id))
            """,
            "CREATE INDEX vendor_payments_location ON vendor_payments (location_id)",
            """
            CREATE TABLE vendor_refunds (vendor TEXT NOT NULL, refund_id TEXT NOT NULL, payment_id TEXT NOT NULL,
              status TEXT, counts INTEGER NOT NULL, amount_minor INTEGER, currency TEXT, status_rank INTEGER NOT NULL,
              object_time INTEGER NOT NULL, PRIMARY KEY (vendor, refund_id))
            """,
            "CREATE INDEX vendor_refunds_payment ON vendor_refunds (vendor, payment_id)",
        ], postgres: [
            """
            CREATE TABLE vendor_events (id BIGSERIAL PRIMARY KEY, vendor TEXT NOT NULL,
              event_id TEXT NOT NULL, type TEXT NOT NULL, kind TEXT NOT NULL, object_id TEXT, payment_id TEXT,
              reference TEXT, location_id TEXT, status TEXT, amount_minor BIGINT, currency TEXT, refunded_minor BIGINT,
              object_time BIGINT, received_at BIGINT NOT NULL, UNIQUE (vendor, event_id))
            """,
            "CREATE INDEX vendor_events_received ON vendor_events (vendor, received_at)",
            """
            CREATE TABLE vendor_payments (vendor TEXT NOT NULL, payment_id TEXT NOT NULL, reference TEXT,
              location_id TEXT, status TEXT, status_event TEXT, status_rank INTEGER NOT NULL, amount_minor BIGINT,
              currency TEXT, refunded_minor BIGINT NOT NULL, stated_refunded_minor BIGINT NOT NULL,
              stated_refunded_time BIGINT NOT NULL, object_time BIGINT NOT NULL, updated_at BIGINT NOT NULL,
              PRIMARY KEY (vendor, payment_id))
            """,
            "CREATE INDEX vendor_payments_location ON vendor_payments (location_id)",
            """
            CREATE TABLE vendor_refunds (vendor TEXT NOT NULL, refund_id TEXT NOT NULL, payment_id TEXT NOT NULL,
              status TEXT, counts INTEGER NOT NULL, amount_minor BIGINT, currency TEXT, status_rank INTEGER NOT NULL,
              object_time BIGINT NOT NULL, PRIMARY KEY (vendor, refund_id))
            """,
            "CREATE INDEX vendor_refunds_payment ON vendor_refunds (vendor, payment_id)",
        ]),
    ]

    /// The bookkeeping table (both dialects).
    static let createTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
          applied_at BIGINT NOT NULL)
        """
}
