// swift-tools-version: 6.1
// Tender: one API over Stripe Terminal and Square Mobile Payments, with offline payments first-class.
// Zero package dependencies by default: the library products use only the toolchain and the system SQLite.
import PackageDescription


let package = Package(
    name: "Tender",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        // The core: money, requests, policy, the session state machine, the ledgers, the `PaymentTerminal` facade.
        .library(name: "Tender", targets: ["Tender"]),
        // The adapters (client protocol, mapping, error table, processor).
        .library(name: "TenderStripe", targets: ["TenderStripe"]),
        .library(name: "TenderSquare", targets: ["TenderSquare"]),
        // The server half: Stripe's and Square's REST APIs for capture, void, refunds, lookups and connection tokens.
        .library(name: "TenderServer", targets: ["TenderServer"]),
        // The simulators: faithful models of each vendor SDK for tests, previews and the demo. Not for shipping apps.
        .library(name: "TenderStripeSimulator", targets: ["TenderStripeSimulator"]),
        .library(name: "TenderSquareSimulator", targets: ["TenderSquareSimulator"]),
        // Test support: the conformance kit every adapter must pass, crash checks, fault injection.
        .library(name: "TenderTestKit", targets: ["TenderTestKit"]),
        .executable(name: "tender-demo", targets: ["TenderDemo"]),
        .executable(name: "tender-bench", targets: ["tender-bench"]),
        .executable(name: "tender-chaos", targets: ["tender-chaos"]),
        .executable(name: "tender-docgen", targets: ["tender-docgen"]),
    ],
    dependencies: [],
    targets: [
        // MARK: Core
        // The system SQLite on every platform (on Apple platforms the SDK's, whose `SQLite3` module the header
        // resolves to), with small C wrappers for what Swift cannot call (the variadic `sqlite3_db_config`). No
        // pkg-config: it would point an iOS build at a host library.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(
            name: "Tender",
            dependencies: ["CSQLite"],
            path: "Sources/Tender"
        ),

        // MARK: Stripe Terminal (Adapters/Stripe)
        .target(name: "TenderStripe", dependencies: ["Tender"], path: "Adapters/Stripe/Sources/Adapter"),
        .target(
            name: "TenderStripeSimulator",
            dependencies: ["Tender", "TenderStripe"],
            path: "Adapters/Stripe/Sources/Simulator"
        ),
        .testTarget(
            name: "TenderStripeTests",
            dependencies: ["TenderStripe", "TenderStripeSimulator", "Tender", "TenderTestKit"],
            path: "Adapters/Stripe/Tests/AdapterTests"
        ),
        // The surface mirror: Stripe Terminal iOS 5.5.0's API (`Terminal.shared`, its delegates, `PaymentIntent`,
        // `ErrorCode`…) declared as Swift imports it, so the bridge compiles on Linux; its behaviour comes from a
        // backend installed at run time (`SurfaceBackend`). Test support: no product, never linked by a shipping app.
        // Its tests compare its symbol graph with reference/sdk-surface/stripe-terminal-ios.json.
        .target(name: "StripeTerminalSurface", path: "Adapters/Stripe/Sources/Mirror"),
        .testTarget(
            name: "StripeTerminalSurfaceTests",
            dependencies: ["StripeTerminalSurface"],
            path: "Adapters/Stripe/Tests/MirrorTests"
        ),

        // MARK: Square Mobile Payments (Adapters/Square)
        .target(name: "TenderSquare", dependencies: ["Tender"], path: "Adapters/Square/Sources/Adapter"),
        .target(
            name: "TenderSquareSimulator",
            dependencies: ["Tender", "TenderSquare"],
            path: "Adapters/Square/Sources/Simulator"
        ),
        .testTarget(
            name: "TenderSquareTests",
            dependencies: ["TenderSquare", "TenderSquareSimulator", "Tender", "TenderTestKit"],
            path: "Adapters/Square/Tests/AdapterTests"
        ),
        // The surface mirror: Square's SDK API (MobilePaymentsSDK.shared, its managers, protocols, classes, enums)
        // declared as Swift imports it, so the bridge compiles on Linux. Test support: no product, never linked by a
        // shipping app. One module stands for both SquareMobilePaymentsSDK and the MobilePaymentsSDKAPI it re-exports.
        // Its tests compare its symbol graph with reference/sdk-surface/square-mobile-payments-ios.json.
        .target(name: "SquareMobilePaymentsSurface", path: "Adapters/Square/Sources/Mirror"),
        .testTarget(
            name: "SquareMobilePaymentsSurfaceTests",
            dependencies: ["SquareMobilePaymentsSurface"],
            path: "Adapters/Square/Tests/MirrorTests"
        ),

        // MARK: Server (Stripe and Square REST, URLSession only)
        .target(name: "TenderServer", dependencies: ["Tender", "TenderStripe", "TenderSquare"], path: "Sources/TenderServer"),
        .testTarget(
            name: "TenderServerTests",
            dependencies: ["TenderServer", "Tender", "TenderStripe", "TenderSquare"],
            path: "Tests/TenderServerTests"
        ),

        // MARK: Test support
        .target(name: "TenderTestKit", dependencies: ["Tender"], path: "Sources/TestSupport/TenderTestKit"),

        // MARK: Tools
        .executableTarget(
            name: "tender-docgen",
            dependencies: ["Tender", "TenderStripe", "TenderSquare"],
            path: "Sources/Tools/tender-docgen"
        ),
        .executableTarget(
            name: "tender-bench",
            dependencies: [
                "Tender", "TenderStripe", "TenderStripeSimulator", "TenderSquare", "TenderSquareSimulator",
                "CSQLite",
            ],
            path: "Sources/Tools/tender-bench"
        ),
        .executableTarget(
            name: "tender-chaos",
            dependencies: [
                "Tender", "TenderStripe", "TenderSquare", "TenderStripeSimulator", "TenderSquareSimulator",
                "TenderTestKit",
            ],
            path: "Sources/Tools/tender-chaos"
        ),

        // MARK: Examples
        .executableTarget(
            name: "TenderDemo",
            dependencies: ["Tender", "TenderStripe", "TenderSquare", "TenderStripeSimulator", "TenderSquareSimulator"],
            path: "Examples/Demo"
        ),
        .target(name: "HouseAccountAdapter", dependencies: ["Tender"], path: "Examples/AdapterTemplate/Sources"),
        .testTarget(
            name: "HouseAccountAdapterTests",
            dependencies: ["HouseAccountAdapter", "TenderTestKit"],
            path: "Examples/AdapterTemplate/Tests"
        ),

        // MARK: Core tests
        .testTarget(name: "TenderTests", dependencies: ["Tender"], path: "Tests/TenderTests"),
        .testTarget(name: "TenderTestKitTests", dependencies: ["TenderTestKit"], path: "Tests/TenderTestKitTests"),
    ],
    swiftLanguageModes: [.v6]
)
