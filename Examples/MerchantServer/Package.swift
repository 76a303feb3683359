// swift-tools-version: 6.2
// merchant-server: the program a merchant runs in front of Tender's routes (issue 29). Its own package so the root
// package keeps zero dependencies. Depends on the root package's server half only (TenderServer, TenderWire), never
// on the device core.
//
// Storage: GRDB.swift 7 (rather than sqlite-nio) for the embedded SQLite store: typed rows, a DatabasePool (WAL, one
// writer at a time with readers beside it, a busy timeout so instances sharing a file wait rather than fail) and
// `inTransaction(.immediate)`, which the migrations and the one-time enrolment codes rely on; sqlite-nio would need
// that serialization written by hand. GRDB's own DatabaseMigrator is not used: the migrations are one versioned list
// shared with the PostgreSQL store (PostgresNIO), applied under each database's lock. swift-crypto hashes tokens.
import PackageDescription

let package = Package(
    name: "MerchantServer",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "merchant-server", targets: ["merchant-server"]),
        .executable(name: "merchant-bench", targets: ["merchant-bench"]),
        .library(name: "MerchantServer", targets: ["MerchantServer"]),
    ],
    dependencies: [
        .package(name: "Tender", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.60.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        .target(
            name: "MerchantServer",
            dependencies: [
                .product(name: "TenderServer", package: "Tender"),
                .product(name: "TenderWire", package: "Tender"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "merchant-server",
            dependencies: ["MerchantServer"]
        ),
        // The benchmark: capture and refund routes against a route doing only the same database write, over
        // loopback HTTP (Hummingbird's own test client).
        .executableTarget(
            name: "merchant-bench",
            dependencies: [
                "MerchantServer",
                .product(name: "TenderWire", package: "Tender"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "MerchantServerTests",
            dependencies: [
                "MerchantServer",
                // The devices of the fleet tests: a terminal over the in-memory processor reporting through the client.
                .product(name: "Tender", package: "Tender"),
                .product(name: "TenderTesting", package: "Tender"),
                .product(name: "TenderBackend", package: "Tender"),
                .product(name: "TenderServer", package: "Tender"),
                .product(name: "TenderWire", package: "Tender"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                // The webhook tests sign the vendors' payloads themselves (HMAC-SHA256), never with the server's code.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ]
)
