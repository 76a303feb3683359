// swift-tools-version: 6.0
// Tender: one API over Stripe Terminal and Square Mobile Payments, with offline payments first-class.
// Zero package dependencies: the library products use only the toolchain and the system SQLite.
import PackageDescription

let package = Package(
    name: "Tender",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "Tender", targets: ["Tender"]),
        .library(name: "TenderStripe", targets: ["TenderStripe"]),
        .library(name: "TenderSquare", targets: ["TenderSquare"]),
        .library(name: "TenderTestKit", targets: ["TenderTestKit"]),
        .executable(name: "tender-demo", targets: ["TenderDemo"]),
    ],
    dependencies: [],
    targets: [
        // The system SQLite. On Apple platforms the SDK's `SQLite3` module is used instead.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(
            name: "Tender",
            dependencies: [.target(name: "CSQLite", condition: .when(platforms: [.linux]))],
            path: "Sources/Tender"
        ),
        .target(name: "TenderTestKit", dependencies: ["Tender"], path: "Sources/TenderTestKit"),
        .target(name: "TenderStripe", dependencies: ["Tender"], path: "Adapters/Stripe/Sources"),
        .target(name: "TenderSquare", dependencies: ["Tender"], path: "Adapters/Square/Sources"),
        .executableTarget(
            name: "tender-docgen",
            dependencies: ["Tender", "TenderStripe", "TenderSquare"],
            path: "Sources/TenderDocGen"
        ),
        .executableTarget(
            name: "tender-bench",
            dependencies: [
                "Tender", "TenderStripe",
                .target(name: "CSQLite", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/TenderBench"
        ),
        .executableTarget(
            name: "tender-chaos",
            dependencies: ["Tender", "TenderStripe", "TenderSquare", "TenderTestKit"],
            path: "Sources/TenderChaos"
        ),
        .executableTarget(
            name: "TenderDemo",
            dependencies: ["Tender", "TenderStripe", "TenderSquare"],
            path: "Examples/Demo"
        ),
        .target(name: "HouseAccountAdapter", dependencies: ["Tender"], path: "Examples/AdapterTemplate/Sources"),
        .testTarget(
            name: "HouseAccountAdapterTests",
            dependencies: ["HouseAccountAdapter", "TenderTestKit"],
            path: "Examples/AdapterTemplate/Tests"
        ),
        .testTarget(name: "TenderTests", dependencies: ["Tender"], path: "Tests/TenderTests"),
        .testTarget(name: "TenderTestKitTests", dependencies: ["TenderTestKit"], path: "Tests/TenderTestKitTests"),
        .testTarget(
            name: "TenderStripeTests",
            dependencies: ["TenderStripe", "Tender", "TenderTestKit"],
            path: "Adapters/Stripe/Tests"
        ),
        .testTarget(
            name: "TenderSquareTests",
            dependencies: ["TenderSquare", "Tender", "TenderTestKit"],
            path: "Adapters/Square/Tests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
