import Foundation

// Vendor-neutral reader of `reference/sdk-surface/*.json` (the shape its README describes): the SDK's types, their
// declarations, conformances, members and cases.

/// A reference file describing an SDK's Swift-visible surface.
struct SurfaceReference: Decodable {
    /// One type.
    struct TypeEntry: Decodable {
        var name: String
        /// `class`, `protocol`, `enum`, `struct` or `optionset`.
        var kind: String
        var declaration: String?
        var superclass: String?
        var conformances: [String]?
        var rawType: String?
        var members: [Member]
        var cases: [Case]?
    }

    /// One member.
    struct Member: Decodable {
        /// The declaration as Swift prints it.
        var swift: String
        /// An `@objc optional` protocol requirement.
        var optional: Bool?
        /// Implemented in a protocol extension, not a requirement.
        var protocolExtension: Bool?
        /// The spelling does not come from the SDK's own generated documentation.
        var uncertain: Bool?
        /// The spelling Square's compiled sample uses where it differs from DocC's (`swift`).
        var alternateSpelling: String?
    }

    /// One enum case.
    struct Case: Decodable {
        var name: String
    }

    var sdk: String
    var version: String
    var types: [TypeEntry]
    var referencedButNotDescribed: [String]?

    /// Why a reference could not be read.
    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads `Tests/Reference/sdk-surface/<fileName>` in the repository (a copy of the workspace's
    /// `shared/reference/sdk-surface/`, kept in step by `Scripts/reference/refresh.py --check`), or the same file in
    /// `TENDER_SDK_SURFACE_DIR` when set. Throws, so a test that needs it fails, when it is absent.
    static func load(fileName: String, packageRoot: URL) throws -> SurfaceReference {
        let folder = ProcessInfo.processInfo.environment["TENDER_SDK_SURFACE_DIR"].map { URL(fileURLWithPath: $0) }
            ?? packageRoot.appendingPathComponent("Tests/Reference/sdk-surface")
        let url = folder.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw LoadError(description: "the surface reference \(url.path) is missing")
        }
        return try JSONDecoder().decode(SurfaceReference.self, from: Data(contentsOf: url))
    }

    /// The package root: the nearest directory above `filePath` holding `Package.swift`.
    static func packageRoot(from filePath: String) throws -> URL {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        throw LoadError(description: "no Package.swift above \(filePath)")
    }
}
