import Foundation

/// The part of a `swift-symbolgraph-extract` symbol graph the check reads.
struct SymbolGraph: Codable {
    struct Symbol: Codable {
        struct Kind: Codable {
            var identifier: String
        }

        struct Identifier: Codable {
            var precise: String
        }

        struct Fragment: Codable {
            var spelling: String
        }

        struct Availability: Codable {
            var isUnconditionallyDeprecated: Bool?
        }

        var kind: Kind
        var identifier: Identifier
        var pathComponents: [String]
        var declarationFragments: [Fragment]
        var availability: [Availability]?

        var path: String { pathComponents.joined(separator: ".") }
        var declaration: String { declarationFragments.map(\.spelling).joined() }
        var parentPath: String { pathComponents.dropLast().joined(separator: ".") }
        var name: String { pathComponents.last ?? "" }
        /// Members Swift adds from protocol extensions of other modules (`::SYNTHESIZED::` identifiers): not declared by
        /// the mirror, and present on iOS too.
        var isSynthesized: Bool { identifier.precise.contains("::SYNTHESIZED::") }
        var isDeprecated: Bool { availability?.contains { $0.isUnconditionallyDeprecated == true } ?? false }
    }

    struct Relationship: Codable {
        var kind: String
        var source: String
        var target: String
        var targetFallback: String?
    }

    var symbols: [Symbol]
    var relationships: [Relationship]
}

/// Runs the toolchain's `swift-symbolgraph-extract` on the built `StripeTerminalSurface` module.
enum SymbolGraphExtractor {
    enum ExtractError: Error, CustomStringConvertible {
        case moduleNotFound([String])
        case toolNotFound
        case failed(Int32, String)

        var description: String {
            switch self {
            case .moduleNotFound(let searched):
                "StripeTerminalSurface.swiftmodule not found in: \(searched.joined(separator: ", "))"
            case .toolNotFound:
                "swift-symbolgraph-extract not found on PATH or next to swift"
            case .failed(let status, let output):
                "swift-symbolgraph-extract exited \(status): \(output)"
            }
        }
    }

    static let moduleName = "StripeTerminalSurface"

    /// The `Modules` folder of the build that produced the running tests (so `--scratch-path` builds work), else the
    /// package's default build folder.
    static func modulesDirectory() throws -> URL {
        var candidates: [URL] = []
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent("Modules"))
            folder.deleteLastPathComponent()
        }
        candidates.append(SurfaceReference.packageRoot().appendingPathComponent(".build/debug/Modules"))
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("\(moduleName).swiftmodule").path) {
            return candidate
        }
        throw ExtractError.moduleNotFound(candidates.map(\.path))
    }

    static func toolURL() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        var folders = path.split(separator: ":").map(String.init)
        folders.append("/opt/swift/usr/bin")
        folders.append("/usr/bin")
        for folder in folders {
            let tool = URL(fileURLWithPath: folder).appendingPathComponent("swift-symbolgraph-extract")
            if FileManager.default.isExecutableFile(atPath: tool.path) { return tool }
        }
        throw ExtractError.toolNotFound
    }

    /// Extracts the module's public symbols (synthesized members skipped) and decodes the graph.
    static func extract() throws -> SymbolGraph {
        let modules = try modulesDirectory()
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("stripe-terminal-surface-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }

        var arguments = [
            "-module-name", moduleName, "-I", modules.path, "-output-dir", output.path,
            "-minimum-access-level", "public", "-skip-synthesized-members",
            // The module's test backend (`Backend/`) imports the simulator, hence Tender, which imports the system
            // SQLite's module on Linux: the extractor must find its module map to load the module at all.
            "-I", SurfaceReference.packageRoot().appendingPathComponent("Sources/CSQLite").path,
        ]
        #if os(macOS)
        // On macOS the extractor needs the SDK and a target matching the build (the package's minimum is macOS 13).
        arguments += ["-sdk", try run(URL(fileURLWithPath: "/usr/bin/xcrun"), ["--show-sdk-path"])]
        let triple = modules.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
        arguments += ["-target", triple.hasSuffix("macosx") ? triple + "13.0" : triple]
        #endif
        _ = try run(try toolURL(), arguments)
        let graph = output.appendingPathComponent("\(moduleName).symbols.json")
        return try JSONDecoder().decode(SymbolGraph.self, from: Data(contentsOf: graph))
    }

    private static func run(_ tool: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0 else { throw ExtractError.failed(process.terminationStatus, text) }
        return text
    }
}
