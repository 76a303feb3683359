// swift-tools-version: 6.2
// Tender: one API over Stripe Terminal and Square Mobile Payments, with offline payments first-class.
// Zero package dependencies by default: the library products use only the toolchain and the system SQLite. A vendor SDK
// is fetched and linked only when an app enables its trait (`StripeTerminalSDK`, `SquareMobilePaymentsSDK`).
import PackageDescription


let package = Package(
    name: "Tender",
    defaultLocalization: "en",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        // The core: money, requests, policy, the session state machine, the ledgers, the `PaymentTerminal` facade.
        .library(name: "Tender", targets: ["Tender"]),
        // The wire types the device and the app's server share (money, idempotency keys, capture/void/refund requests
        // and results, lookup results, `PaymentError`): no dependencies. `Tender` re-exports it.
        .library(name: "TenderWire", targets: ["TenderWire"]),
        // The adapters (client protocol, mapping, error table, processor).
        .library(name: "TenderStripe", targets: ["TenderStripe"]),
        .library(name: "TenderSquare", targets: ["TenderSquare"]),
        // The bridges: the real vendor SDK as the adapter's client. Each is empty unless the app enables the vendor's
        // trait (see `traits` below), which links the vendor's own package.
        .library(name: "TenderStripeTerminal", targets: ["TenderStripeTerminal"]),
        .library(name: "TenderSquareMobilePayments", targets: ["TenderSquareMobilePayments"]),
        // The app's side: an observable model over `PaymentTerminal` for SwiftUI (or any Observation client).
        .library(name: "TenderUI", targets: ["TenderUI"]),
        // Previews and UI tests: a terminal and model over the simulators in a named scenario. Not for shipping apps.
        .library(name: "TenderPreviews", targets: ["TenderPreviews"]),
        // The server half: Stripe's and Square's REST APIs for capture, void, refunds, lookups and connection tokens.
        .library(name: "TenderServer", targets: ["TenderServer"]),
        // The device's half of the hop to the app's server: the adapters' server seams over URLSession, against the
        // routes TenderServer serves (TenderWire only).
        .library(name: "TenderBackend", targets: ["TenderBackend"]),
        // The simulators: faithful models of each vendor SDK for tests, previews and the demo. Not for shipping apps.
        .library(name: "TenderStripeSimulator", targets: ["TenderStripeSimulator"]),
        .library(name: "TenderSquareSimulator", targets: ["TenderSquareSimulator"]),
        // Test support: the conformance kit every adapter must pass, crash checks, fault injection.
        .library(name: "TenderTestKit", targets: ["TenderTestKit"]),
        // Test support: an SQLite VFS that simulates power loss (unsynced writes kept in memory, dropped at a cut).
        .library(name: "TenderPowerLoss", targets: ["TenderPowerLoss"]),
        // Test support: the in-memory processor, the manual clock, the simulated network and seeded generator the
        // simulators use, their state file, and the SQLite VFS that counts a ledger's syncs (bench, tests).
        .library(name: "TenderTesting", targets: ["TenderTesting"]),
        .executable(name: "tender-demo", targets: ["TenderDemo"]),
        .executable(name: "tender-bench", targets: ["tender-bench"]),
        .executable(name: "tender-chaos", targets: ["tender-chaos"]),
        .executable(name: "tender-docgen", targets: ["tender-docgen"]),
    ],
    // Opt-in vendor SDKs, off by default: a plain build fetches and links nothing. An app enables one with
    // `.package(url: "<Tender's URL>", from: "<version>", traits: ["StripeTerminalSDK"])` (or
    // "SquareMobilePaymentsSDK") and depends on the matching bridge product.
    traits: [
        .trait(
            name: "StripeTerminalSDK",
            description: "Links Stripe Terminal iOS (stripe/stripe-terminal-ios 5.5 or later, iOS 15+) and compiles the "
                + "TenderStripeTerminal bridge over it. iOS apps only."
        ),
        .trait(
            name: "SquareMobilePaymentsSDK",
            description: "Links Square's Mobile Payments SDK for iOS (square/mobile-payments-sdk-ios 2.5) and builds the "
                + "TenderSquareMobilePayments bridge over it. iOS apps only."
        ),
        .default(enabledTraits: []),
    ],
    // Used only under the traits above (fetched only when one is enabled).
    dependencies: [
        .package(url: "https://github.com/stripe/stripe-terminal-ios", from: "5.5.0"),
        // 2.5.x: Square removes API in minor releases (2.4.0 did), and the bridge is written and checked against
        // 2.5.0's.
        .package(url: "https://github.com/square/mobile-payments-sdk-ios", "2.5.0"..<"2.6.0"),
    ],
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
            dependencies: ["CSQLite", "TenderWire"],
            path: "Sources/Tender",
            // The privacy manifest: the required-reason APIs the ledger calls (file metadata, `stat`).
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // The wire types shared with the server half: Foundation only.
        .target(name: "TenderWire", path: "Sources/TenderWire"),
        // The observable, main-actor model over the facade, and its localizable cashier-facing strings.
        // The privacy manifest: the required-reason API the model calls (`UserDefaults`, for sale references).
        .target(name: "TenderUI", dependencies: ["Tender"], path: "Sources/TenderUI",
                resources: [.process("Resources"), .copy("PrivacyInfo.xcprivacy")]),
        .target(
            name: "TenderPreviews",
            dependencies: ["TenderUI", "Tender", "TenderStripe", "TenderStripeSimulator", "TenderTesting"],
            path: "Sources/TenderPreviews"
        ),
        .testTarget(name: "TenderPreviewsTests", dependencies: ["TenderPreviews", "TenderUI"],
                    path: "Tests/TenderPreviewsTests"),
        .testTarget(
            name: "TenderUITests",
            dependencies: ["TenderUI", "TenderTesting", "TenderTestKit", "TenderStripe", "TenderStripeSimulator"],
            path: "Tests/TenderUITests"
        ),

        // MARK: Stripe Terminal (Adapters/Stripe)
        .target(name: "TenderStripe", dependencies: ["Tender"], path: "Adapters/Stripe/Sources/Adapter"),
        .target(
            name: "TenderStripeSimulator",
            dependencies: ["Tender", "TenderStripe", "TenderTesting"],
            path: "Adapters/Stripe/Sources/Simulator"
        ),
        .testTarget(
            name: "TenderStripeTests",
            dependencies: ["TenderStripe", "TenderStripeSimulator", "Tender", "TenderTestKit", "TenderTesting"],
            path: "Adapters/Stripe/Tests/AdapterTests"
        ),
        // The surface mirror: Stripe Terminal iOS 5.5.0's API (`Terminal.shared`, its delegates, `PaymentIntent`,
        // `ErrorCode`…) declared as Swift imports it, so the bridge compiles on Linux; its behaviour comes from a
        // backend installed at run time (`SurfaceBackend`). Test support: no product, never linked by a shipping app.
        // Its tests compare its symbol graph with reference/sdk-surface/stripe-terminal-ios.json.
        .target(name: "StripeTerminalSurface", path: "Adapters/Stripe/Sources/Mirror", exclude: ["Backend"]),
        .testTarget(
            name: "StripeTerminalSurfaceTests",
            dependencies: ["StripeTerminalSurface", "StripeTerminalSurfaceBackend"],
            path: "Adapters/Stripe/Tests/MirrorTests"
        ),
        // The mirror's behaviour: a SurfaceBackend whose SDK objects are StripeSimulator's (test support, no product).
        .target(
            name: "StripeTerminalSurfaceBackend",
            dependencies: ["StripeTerminalSurface", "TenderStripe", "TenderStripeSimulator", "Tender"],
            path: "Adapters/Stripe/Sources/Mirror/Backend"
        ),
        // The bridge (ships): the real SDK behind the trait; without it the module is empty.
        .target(
            name: "TenderStripeTerminal",
            dependencies: [
                "TenderStripe",
                .product(name: "StripeTerminal", package: "stripe-terminal-ios",
                         condition: .when(traits: ["StripeTerminalSDK"])),
            ],
            path: "Adapters/Stripe/Sources/Bridge"
        ),
        // The same bridge files (relative symlinks) compiled against the surface mirror, for tests. Test support.
        .target(
            name: "TenderStripeTerminalOverSurface",
            dependencies: ["TenderStripe", "StripeTerminalSurface"],
            path: "Adapters/Stripe/Tests/BridgeOverSurface",
            swiftSettings: [.define("TENDER_SURFACE_MIRROR")]
        ),
        .testTarget(
            name: "TenderStripeTerminalTests",
            dependencies: [
                "TenderStripeTerminalOverSurface", "StripeTerminalSurfaceBackend", "StripeTerminalSurface", "TenderStripe",
                "TenderStripeSimulator", "Tender", "TenderTestKit", "TenderTesting",
            ],
            path: "Adapters/Stripe/Tests/BridgeTests"
        ),

        // MARK: Square Mobile Payments (Adapters/Square)
        .target(name: "TenderSquare", dependencies: ["Tender"], path: "Adapters/Square/Sources/Adapter"),
        .target(
            name: "TenderSquareSimulator",
            dependencies: ["Tender", "TenderSquare", "TenderTesting"],
            path: "Adapters/Square/Sources/Simulator"
        ),
        .testTarget(
            name: "TenderSquareTests",
            dependencies: ["TenderSquare", "TenderSquareSimulator", "Tender", "TenderTestKit", "TenderTesting"],
            path: "Adapters/Square/Tests/AdapterTests"
        ),
        // The surface mirror: Square's SDK API (MobilePaymentsSDK.shared, its managers, protocols, classes, enums)
        // declared as Swift imports it, so the bridge compiles on Linux. Test support: no product, never linked by a
        // shipping app. One module stands for both SquareMobilePaymentsSDK and the MobilePaymentsSDKAPI it re-exports.
        // Its tests compare its symbol graph with reference/sdk-surface/square-mobile-payments-ios.json.
        .target(name: "SquareMobilePaymentsSurface", path: "Adapters/Square/Sources/Mirror", exclude: ["Backend"]),
        .testTarget(
            name: "SquareMobilePaymentsSurfaceTests",
            dependencies: ["SquareMobilePaymentsSurface"],
            path: "Adapters/Square/Tests/MirrorTests"
        ),
        // The mirror's behaviour: a SurfaceBackend whose SDK objects are SquareSimulator's (test support, no product).
        .target(
            name: "SquareMobilePaymentsSurfaceBackend",
            dependencies: ["SquareMobilePaymentsSurface", "TenderSquare", "TenderSquareSimulator", "Tender"],
            path: "Adapters/Square/Sources/Mirror/Backend"
        ),
        // The bridge (ships): MobilePaymentsSDK.shared as a SquareClient. Its files compile to nothing without the
        // SquareMobilePaymentsSDK trait, so a plain build fetches and links nothing.
        .target(
            name: "TenderSquareMobilePayments",
            dependencies: [
                "TenderSquare",
                .product(name: "SquareMobilePaymentsSDK", package: "mobile-payments-sdk-ios",
                         condition: .when(traits: ["SquareMobilePaymentsSDK"])),
            ],
            path: "Adapters/Square/Sources/Bridge",
            // The privacy manifest: the required-reason API the bridge calls (`UserDefaults`).
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // The same bridge files (symbolic links) compiled against the surface mirror, for tests on any platform.
        .target(
            name: "TenderSquareMobilePaymentsOverSurface",
            dependencies: ["TenderSquare", "SquareMobilePaymentsSurface"],
            path: "Adapters/Square/Tests/BridgeOverSurface",
            swiftSettings: [.define("TENDER_SURFACE_MIRROR")]
        ),
        .testTarget(
            name: "TenderSquareMobilePaymentsTests",
            dependencies: [
                "TenderSquareMobilePaymentsOverSurface", "SquareMobilePaymentsSurfaceBackend",
                "SquareMobilePaymentsSurface", "TenderSquare", "TenderSquareSimulator", "Tender", "TenderTestKit",
                "TenderTesting",
            ],
            path: "Adapters/Square/Tests/BridgeTests"
        ),

        // MARK: Server (Stripe and Square REST, URLSession only)
        // TenderWire only: a server build needs neither the core's SQLite nor a device adapter
        // (Scripts/check-module-deps.sh checks it).
        .target(name: "TenderServer", dependencies: ["TenderWire"], path: "Sources/TenderServer"),
        // The device's client for the routes: TenderWire only (no core, no adapter), so it links anywhere.
        .target(name: "TenderBackend", dependencies: ["TenderWire"], path: "Sources/TenderBackend"),
        .testTarget(
            name: "TenderServerTests",
            dependencies: ["TenderServer", "TenderWire", "Tender", "TenderStripe", "TenderSquare", "TenderBackend"],
            path: "Tests/TenderServerTests"
        ),

        // The end-to-end tier (issue 28): each adapter's real request path → TenderBackendClient → TenderRoutes →
        // the REST clients → localstripe and the Square peer on loopback (Scripts/peers/peers.sh). `.ci/run` runs it
        // with the peers up; a missing peer fails it. Its Support/ holds symbolic links to TenderServerTests' harness.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TenderServer", "TenderBackend", "Tender", "TenderStripe", "TenderSquare", "TenderStripeSimulator",
                "TenderSquareSimulator", "TenderTesting",
            ],
            path: "Tests/EndToEndTests"
        ),

        // MARK: Test support
        .target(name: "TenderTestKit", dependencies: ["Tender", "TenderPowerLoss", "TenderTesting"],
                path: "Sources/TestSupport/TenderTestKit"),
        // The power-loss VFS: wraps SQLite's default VFS, keeps every unsynced write in this process's memory and
        // writes it to the file only when SQLite syncs it; a cut (or a SIGKILL of the process) drops the rest.
        .target(name: "TenderPowerLoss", dependencies: ["Tender", "CSQLite"], path: "Sources/TestSupport/TenderPowerLoss"),
        // What tests, tools, simulators and previews use and a shipping app must not link: the in-memory processor,
        // the manual clock, the simulated network, the simulators' state file, the sync-counting VFS.
        .target(name: "TenderTesting", dependencies: ["Tender", "CSQLite"], path: "Sources/TestSupport/TenderTesting"),
        .testTarget(
            name: "TenderPowerLossTests",
            dependencies: ["TenderPowerLoss", "Tender", "CSQLite", "TenderTesting"],
            path: "Tests/TenderPowerLossTests"
        ),

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
                "CSQLite", "TenderTesting",
            ],
            path: "Sources/Tools/tender-bench"
        ),
        .executableTarget(
            name: "tender-chaos",
            dependencies: [
                "Tender", "TenderStripe", "TenderSquare", "TenderStripeSimulator", "TenderSquareSimulator",
                "TenderTestKit", "TenderPowerLoss", "TenderTesting",
            ],
            path: "Sources/Tools/tender-chaos"
        ),

        // MARK: Examples
        .executableTarget(
            name: "TenderDemo",
            dependencies: [
                "Tender", "TenderStripe", "TenderSquare", "TenderStripeSimulator", "TenderSquareSimulator", "TenderServer",
                "TenderTesting", "TenderBackend",
                // --through-sdk-surface: the bridges compiled against the SDK surface mirrors, and the mirrors'
                // simulator-driven backends (test support; the default run uses the simulators directly).
                "TenderStripeTerminalOverSurface", "StripeTerminalSurface", "StripeTerminalSurfaceBackend",
                "TenderSquareMobilePaymentsOverSurface", "SquareMobilePaymentsSurface", "SquareMobilePaymentsSurfaceBackend",
            ],
            path: "Examples/Demo"
        ),
        .target(name: "HouseAccountAdapter", dependencies: ["Tender"], path: "Examples/AdapterTemplate/Sources"),
        .testTarget(
            name: "HouseAccountAdapterTests",
            dependencies: ["HouseAccountAdapter", "TenderTestKit", "TenderTesting"],
            path: "Examples/AdapterTemplate/Tests"
        ),

        // MARK: Core tests
        .testTarget(name: "TenderTests", dependencies: ["Tender", "TenderTesting"], path: "Tests/TenderTests"),
        .testTarget(name: "TenderTestKitTests", dependencies: ["TenderTestKit", "TenderTesting"],
                    path: "Tests/TenderTestKitTests"),
        // The adapters are twins: the same shape, configuration names, fault vocabulary, layout and API budget.
        .testTarget(
            name: "AdapterTwinsTests",
            dependencies: [
                "Tender", "TenderStripe", "TenderSquare", "TenderStripeSimulator", "TenderSquareSimulator", "TenderTestKit",
                "TenderTesting",
            ],
            path: "Tests/AdapterTwinsTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Strict settings on every Swift target, as swift-log's: existentials spelled `any`, and imports internal unless a
// file says `public import` (so no module re-exports a dependency by accident).
// The surface mirrors keep the vendors' own spelling (`Error?` in Objective-C blocks, as Swift imports them), so they
// take the import rule only.
let vendorSpelling: Set<String> = ["StripeTerminalSurface", "SquareMobilePaymentsSurface"]
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
        + (vendorSpelling.contains(target.name) ? [] : [.enableUpcomingFeature("ExistentialAny")])
}
