import Foundation

// The Stripe mirror's reference, read with the shared bridge-source scan (BridgeSourceScan.swift).

extension SurfaceReference {
    /// The Stripe bridge's sources.
    static func bridgeSources() throws -> BridgeSourceScan {
        try BridgeSourceScan.load(folder: "Adapters/Stripe/Sources/Bridge", packageRoot: packageRoot())
    }

    /// The reference's type and typealias names.
    var typeNames: Set<String> { Set(types.map(\.name)).union(typealiases.map(\.name)) }

    /// The reference types a bridge file names: these must be mirrored completely.
    func typesNamedByTheBridge() throws -> Set<String> {
        Set(try Self.bridgeSources().namedTypes(among: Set(types.map(\.name))).keys)
    }
}
