import Foundation

// The Square mirror's reference, read with the shared bridge-source scan (BridgeSourceScan.swift, a link to the
// Stripe mirror tests' file: the two test targets share no module).

extension SurfaceReference {
    /// The Square bridge's sources.
    static func bridgeSources(packageRoot: URL) throws -> BridgeSourceScan {
        try BridgeSourceScan.load(folder: "Adapters/Square/Sources/Bridge", packageRoot: packageRoot)
    }

    /// The reference types a bridge file names: these must be mirrored completely.
    func typesNamedByTheBridge(packageRoot: URL) throws -> Set<String> {
        Set(try Self.bridgeSources(packageRoot: packageRoot).namedTypes(among: Set(types.map(\.name))).keys)
    }
}
