import Foundation

// Vendor-neutral: reads a module's public symbol graph with the toolchain's `swift-symbolgraph-extract`, from the
// module the test build already produced. Shared in shape with the Stripe mirror's check; the lead may move one copy
// into test support.

/// A module's public declarations as the compiler sees them: symbols and their relationships.
struct SymbolGraph {
    /// One declaration.
    struct Symbol: Hashable {
        /// The compiler's unique symbol identifier.
        var usr: String
        /// `swift.class`, `swift.protocol`, `swift.enum`, `swift.enum.case`, `swift.method`, `swift.property`, …
        var kind: String
        /// The names from the module down: `["PaymentManager", "startPayment(_:promptParameters:from:delegate:)"]`.
        var path: [String]
        /// The declaration as the compiler prints it, e.g. `func add(_ observer: any ReaderObserver)`.
        var declaration: String
        /// `public` or `open`.
        var accessLevel: String
        /// Set for symbols read from an extension graph (`Module@Other.symbols.json`): declared on another module's type.
        var extendedModule: String?
    }

    /// One relationship, e.g. `requirementOf`, `defaultImplementationOf`, `conformsTo`, `inheritsFrom`, `memberOf`.
    struct Relationship: Hashable {
        var kind: String
        var source: String
        var target: String
        /// The target's name when it lives in another module (`Swift.Hashable`, `Foundation.NSObject`).
        var targetFallback: String?
    }

    /// Why a graph could not be produced.
    struct ExtractionError: Error, CustomStringConvertible {
        var description: String
    }

    var module: String
    var symbols: [Symbol]
    var relationships: [Relationship]

    /// Runs `swift-symbolgraph-extract` on `module`, found in `modulesDirectory`, for `target`, keeping public
    /// declarations and leaving out members synthesized from other modules' protocol extensions.
    static func extract(module: String, modulesDirectory: URL, target: String) throws -> SymbolGraph {
        guard let tool = locateExtractor() else {
            throw ExtractionError(
                description: "swift-symbolgraph-extract not found on PATH, next to swift, or in /opt/swift/usr/bin")
        }
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("symbolgraph-\(module)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }

        var arguments = [
            "-module-name", module, "-target", target, "-I", modulesDirectory.path, "-output-dir", output.path,
            "-minimum-access-level", "public", "-skip-synthesized-members",
        ]
        #if os(macOS)
        if let sdk = run("/usr/bin/xcrun", ["--show-sdk-path"])?.trimmingCharacters(in: .whitespacesAndNewlines) {
            arguments += ["-sdk", sdk]
        }
        #endif
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let diagnostics = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ExtractionError(description: "swift-symbolgraph-extract failed (\(process.terminationStatus)): "
                + (String(data: diagnostics, encoding: .utf8) ?? ""))
        }

        var graph = SymbolGraph(module: module, symbols: [], relationships: [])
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".symbols.json") }
        guard files.contains("\(module).symbols.json") else {
            throw ExtractionError(description: "no \(module).symbols.json was written (found \(files))")
        }
        for file in files.sorted() {
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            let extended = file == "\(module).symbols.json" ? nil : String(file.dropFirst(module.count + 1).dropLast(13))
            let part = try decode(data, extendedModule: extended)
            graph.symbols += part.symbols
            graph.relationships += part.relationships
        }
        return graph
    }

    /// Decodes one symbol-graph JSON file.
    static func decode(_ data: Data, extendedModule: String? = nil) throws -> SymbolGraph {
        let file = try JSONDecoder().decode(File.self, from: data)
        let symbols = file.symbols.map { symbol in
            Symbol(
                usr: symbol.identifier.precise,
                kind: symbol.kind.identifier,
                path: symbol.pathComponents,
                declaration: (symbol.declarationFragments ?? []).map(\.spelling).joined(),
                accessLevel: symbol.accessLevel,
                extendedModule: extendedModule
            )
        }
        let relationships = file.relationships.map {
            Relationship(kind: $0.kind, source: $0.source, target: $0.target, targetFallback: $0.targetFallback)
        }
        return SymbolGraph(module: file.module.name, symbols: symbols, relationships: relationships)
    }

    /// The top-level declarations (types), by name.
    var topLevel: [String: Symbol] {
        Dictionary(symbols.filter { $0.path.count == 1 && $0.extendedModule == nil }.map { ($0.path[0], $0) },
                   uniquingKeysWith: { first, _ in first })
    }

    /// The declarations directly inside the type named `typeName`.
    func members(of typeName: String) -> [Symbol] {
        symbols.filter { $0.path.count == 2 && $0.path[0] == typeName && $0.extendedModule == nil }
    }

    /// Whether `symbol` has a relationship of `kind` (to anything).
    func has(_ kind: String, from symbol: Symbol) -> Bool {
        relationships.contains { $0.kind == kind && $0.source == symbol.usr }
    }

    /// The names of what `symbol` directly `conformsTo` or `inheritsFrom`, without module qualification.
    func targets(of kind: String, from symbol: Symbol) -> Set<String> {
        let byUSR = Dictionary(symbols.map { ($0.usr, $0.path.joined(separator: ".")) }, uniquingKeysWith: { a, _ in a })
        return Set(relationships.filter { $0.kind == kind && $0.source == symbol.usr }.map { relation in
            let name = byUSR[relation.target] ?? relation.targetFallback ?? relation.target
            return String(name.split(separator: ".").last ?? Substring(name))
        })
    }

    // MARK: Tool discovery

    private static func locateExtractor() -> URL? {
        let name = "swift-symbolgraph-extract"
        var directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        directories.append("/opt/swift/usr/bin")
        for directory in directories {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            // Next to a `swift` driver that is a symlink into a toolchain.
            let swift = URL(fileURLWithPath: directory).appendingPathComponent("swift")
            if FileManager.default.isExecutableFile(atPath: swift.path) {
                let resolved = swift.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: resolved.path) { return resolved }
            }
        }
        #if os(macOS)
        if let found = run("/usr/bin/xcrun", ["--find", name])?.trimmingCharacters(in: .whitespacesAndNewlines),
           !found.isEmpty {
            return URL(fileURLWithPath: found)
        }
        #endif
        return nil
    }

    private static func run(_ executable: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(data: data, encoding: .utf8) : nil
    }

    // MARK: File format (the parts read here)

    private struct File: Decodable {
        struct Module: Decodable { var name: String }
        struct Symbol: Decodable {
            struct Identifier: Decodable { var precise: String }
            struct Kind: Decodable { var identifier: String }
            struct Fragment: Decodable { var spelling: String }
            var identifier: Identifier
            var kind: Kind
            var pathComponents: [String]
            var declarationFragments: [Fragment]?
            var accessLevel: String
        }
        struct Relationship: Decodable {
            var kind: String
            var source: String
            var target: String
            var targetFallback: String?
        }
        var module: Module
        var symbols: [Symbol]
        var relationships: [Relationship]
    }
}

/// Where the test build put the modules, and the target triple it built for.
enum BuildProducts {
    /// The `Modules` directory holding `<module>.swiftmodule`, found next to the running test executable (so a
    /// custom `--scratch-path` or a sanitizer build works) or else under the package's `.build`.
    static func modulesDirectory(containing module: String, packageRoot: URL) -> URL? {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(directory.appendingPathComponent("Modules"))
            candidates.append(directory)
            directory.deleteLastPathComponent()
        }
        let build = packageRoot.appendingPathComponent(".build")
        for triple in (try? fileManager.contentsOfDirectory(atPath: build.path)) ?? [] {
            candidates.append(build.appendingPathComponent(triple).appendingPathComponent("debug/Modules"))
        }
        candidates.append(build.appendingPathComponent("debug/Modules"))
        return candidates.first { fileManager.fileExists(atPath: $0.appendingPathComponent("\(module).swiftmodule").path) }
    }

    /// The triple the modules were built for: the build directory's name when SwiftPM named it after the triple
    /// (`.build/x86_64-unknown-linux-gnu/debug/Modules`), otherwise the host's.
    static func targetTriple(modulesDirectory: URL) -> String {
        let candidate = modulesDirectory.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
        if candidate.split(separator: "-").count >= 3 {
            // SwiftPM names Apple build directories without the deployment target the package declares.
            return candidate.hasSuffix("-macosx") ? candidate + "13.0" : candidate
        }
        #if os(Linux) && arch(x86_64)
        return "x86_64-unknown-linux-gnu"
        #elseif os(Linux) && arch(arm64)
        return "aarch64-unknown-linux-gnu"
        #elseif os(macOS) && arch(arm64)
        return "arm64-apple-macosx13.0"
        #else
        return "x86_64-apple-macosx13.0"
        #endif
    }
}
