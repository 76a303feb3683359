import Foundation

/// The part of `Tests/Reference/sdk-surface/stripe-terminal-ios.json` the mirror is checked against.
struct SurfaceReference: Decodable {
    struct Global: Decodable {
        var swift: String
        var objcName: String
    }

    struct Typealias: Decodable {
        var name: String
        var swift: String
    }

    struct Member: Decodable {
        var swift: String
        var async: String?
        var objc: String?
        var optional: Bool?
        var deprecated: Bool?
        var uncertain: Bool?
        var swiftOverlay: Bool?
        var refinedForSwift: Bool?

        /// The declaration's forms: the `swift` one and, for a completion-block method, the `async` one.
        var forms: [String] { [swift] + (async.map { [$0] } ?? []) }
        var isOptional: Bool { optional ?? false }
        var isDeprecated: Bool { deprecated ?? false }
    }

    struct Case: Decodable {
        var name: String
        var rawValue: Int
    }

    struct TypeEntry: Decodable {
        var name: String
        var kind: String
        var declaration: String
        var superclass: String?
        var conformances: [String]?
        var rawType: String?
        var members: [Member]?
        var cases: [Case]?
    }

    var sdk: String
    var version: String
    var globals: [Global]
    var types: [TypeEntry]
    var typealiases: [Typealias]
    var referencedButNotDescribed: [String]

    enum LoadError: Error, CustomStringConvertible {
        case missing(String)

        var description: String {
            switch self {
            case .missing(let path):
                "the SDK surface reference is missing at \(path): the mirror cannot be checked without it"
            }
        }
    }

    /// The reference file in the repository: `<package root>/Tests/Reference/sdk-surface/` (a copy of the workspace's
    /// `shared/reference/sdk-surface/`, kept in step by `Scripts/reference/refresh.py --check`), the package root
    /// found from this file's path. `TENDER_SDK_SURFACE_DIR` may name another folder holding the same file. Missing is
    /// an error: the check must not pass without its reference.
    static func referenceURL(
        file: String = #filePath, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        if let folder = environment["TENDER_SDK_SURFACE_DIR"], !folder.isEmpty {
            return URL(fileURLWithPath: folder).appendingPathComponent("stripe-terminal-ios.json")
        }
        return packageRoot(file: file)
            .appendingPathComponent("Tests/Reference/sdk-surface/stripe-terminal-ios.json")
    }

    /// The nearest folder above `file` that holds `Package.swift`.
    static func packageRoot(file: String = #filePath) -> URL {
        var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        preconditionFailure("no Package.swift above \(file)")
    }

    static func load(from url: URL = referenceURL()) throws -> SurfaceReference {
        guard FileManager.default.fileExists(atPath: url.path) else { throw LoadError.missing(url.path) }
        return try JSONDecoder().decode(SurfaceReference.self, from: Data(contentsOf: url))
    }
}
