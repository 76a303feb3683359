import Foundation
import Logging
import PostgresNIO
import Testing
@testable import MerchantServer

/// The stores every suite runs against: SQLite always; PostgreSQL when `MERCHANT_TEST_POSTGRES_URL` names a server
/// (`Scripts/postgres.sh start`), and always under `CI=true`, where its absence FAILS the PostgreSQL cases.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    static var available: [StoreKind] {
        let environment = ProcessInfo.processInfo.environment
        if environment["MERCHANT_TEST_POSTGRES_URL"] != nil || environment["CI"] == "true" { return allCases }
        print("merchant-server store tests: PostgreSQL not started (Scripts/postgres.sh start; "
            + ". .build/postgres/env): SQLite only")
        return [.sqlite]
    }

    static let logger: Logger = {
        var logger = Logger(label: "merchant-server-tests")
        logger.logLevel = .warning
        return logger
    }()

    /// A new, empty database of this kind, not yet migrated; `instances` stores open on the same database (as
    /// several server instances would).
    func makeStores(_ instances: Int = 1) async throws -> [any MerchantStore] {
        switch self {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("merchant-\(UUID().uuidString).sqlite").path
            return try (0..<instances).map { _ in try SQLiteMerchantStore(path: path) }
        case .postgres:
            let url = try await Self.newPostgresDatabase()
            return try (0..<instances).map { _ in try PostgresMerchantStore(url: url, logger: Self.logger) }
        }
    }

    /// The URL of a new, empty PostgreSQL database on the test cluster (`MERCHANT_TEST_POSTGRES_URL`).
    static func newPostgresDatabase() async throws -> String {
        guard let url = ProcessInfo.processInfo.environment["MERCHANT_TEST_POSTGRES_URL"] else {
            throw StoreError("CI=true and MERCHANT_TEST_POSTGRES_URL is not set: start PostgreSQL with "
                + "Examples/MerchantServer/Scripts/postgres.sh start")
        }
        let database = "merchant_\(UUID().uuidString.prefix(8).lowercased())"
        let admin = try PostgresMerchantStore(url: url, logger: Self.logger)
        try await admin.client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(database)"), logger: Self.logger)
        var components = URLComponents(string: url)!
        components.path = "/" + database
        return components.string!
    }

    func makeStore() async throws -> any MerchantStore {
        let store = try await makeStores(1)[0]
        try await store.migrate()
        return store
    }
}
