// swift-tools-version: 6.2
// A SwiftUI point-of-sale sample over TenderUI's TerminalModel: a checkout screen, a reader screen, the offline queue
// and refunds. Its own package, so the root package's build (Linux CI) never compiles it: SwiftUI exists only on
// Apple platforms. Open this folder in Xcode (or `swift build` on macOS) to run it; it is not compiled on Linux.
import PackageDescription

let package = Package(
    name: "CheckoutApp",
    platforms: [.iOS(.v17), .macOS(.v14)],
    dependencies: [.package(name: "Tender", path: "../..")],
    targets: [
        .executableTarget(
            name: "CheckoutApp",
            dependencies: [
                .product(name: "TenderUI", package: "Tender"),
                .product(name: "TenderPreviews", package: "Tender"),
            ],
            path: "Sources/CheckoutApp"
        ),
    ],
    swiftLanguageModes: [.v6]
)
