import Foundation

/// What the bridge's source files name: read from `Adapters/<vendor>/Sources/Bridge/*.swift` (the files the shipping
/// bridge and the over-the-mirror bridge both compile), with comments and string literals removed.
///
/// Used by the mirror-vs-surface check to decide which SDK types must be mirrored completely (every type a bridge file
/// names), and by ``BridgeReferenceCheck`` to find bridge code that uses a mirror declaration with no counterpart in
/// the SDK surface. Shared: the Square mirror tests link this file (the two test targets share no module).
struct BridgeSourceScan {
    /// One bridge file: its name and its code (comments and string literals blanked).
    struct File {
        var name: String
        var code: String
    }

    var files: [File]

    /// Reads every `.swift` file of `folder` (relative to the package root).
    static func load(folder: String, packageRoot: URL) throws -> BridgeSourceScan {
        let directory = packageRoot.appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        precondition(!names.isEmpty, "no bridge sources in \(directory.path)")
        return BridgeSourceScan(files: try names.map { name in
            File(name: name, code: code(of: try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)))
        })
    }

    /// The source with comments and string literals replaced by spaces (line structure kept).
    static func code(of source: String) -> String {
        let characters = Array(source)
        var result = ""
        var index = 0
        func blank(_ character: Character) { result.append(character == "\n" ? "\n" : " ") }
        while index < characters.count {
            let rest = characters[index...]
            if rest.starts(with: "//") {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if rest.starts(with: "/*") {
                while index < characters.count, !characters[index...].starts(with: "*/") { blank(characters[index]); index += 1 }
                index += 2
            } else if rest.starts(with: "\"\"\"") {
                index += 3
                while index < characters.count, !characters[index...].starts(with: "\"\"\"") { blank(characters[index]); index += 1 }
                index += 3
                result.append("\"\"")
            } else if characters[index] == "\"" {
                index += 1
                while index < characters.count, characters[index] != "\"", characters[index] != "\n" {
                    if characters[index] == "\\" { index += 1 }
                    index += 1
                }
                index += 1
                result.append("\"\"")
            } else {
                result.append(characters[index])
                index += 1
            }
        }
        return result
    }

    /// Every dotted chain of identifiers that starts a name in the code (`Terminal.shared`, `ErrorCode.Code.canceled`,
    /// `Reader`), with the file it is in. A chain preceded by `.` is a member access, not a name, and is skipped.
    func chains() -> [(file: String, chain: [String])] {
        var found: [(String, [String])] = []
        for file in files {
            let characters = Array(file.code)
            var index = 0
            while index < characters.count {
                let character = characters[index]
                guard Self.isIdentifierStart(character) else { index += 1; continue }
                let previous = index > 0 ? characters[index - 1] : " "
                var chain: [String] = []
                var end = index
                while true {
                    var word = ""
                    while end < characters.count, Self.isIdentifierPart(characters[end]) { word.append(characters[end]); end += 1 }
                    chain.append(word)
                    guard end + 1 < characters.count, characters[end] == ".", Self.isIdentifierStart(characters[end + 1])
                    else { break }
                    end += 1
                }
                if previous != "." && !Self.isIdentifierPart(previous) { found.append((file.name, chain)) }
                index = end
            }
        }
        return found
    }

    /// The reference types (and typealiases) the bridge names: for each chain, the longest prefix that is one.
    func namedTypes(among names: Set<String>) -> [String: Set<String>] {
        var named: [String: Set<String>] = [:]
        for (file, chain) in chains() where chain[0].first?.isUppercase == true {
            for length in stride(from: chain.count, through: 1, by: -1) {
                let candidate = chain.prefix(length).joined(separator: ".")
                if names.contains(candidate) {
                    named[candidate, default: []].insert(file)
                    break
                }
            }
        }
        return named
    }

    static func isIdentifierStart(_ character: Character) -> Bool { character.isLetter || character == "_" }
    static func isIdentifierPart(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}


/// A name a bridge file uses that only the mirror declares: it has no counterpart in the SDK surface, so the bridge
/// would compile over the mirror and not against the SDK.
struct BridgeReferenceViolation: Hashable, CustomStringConvertible {
    var file: String
    var name: String
    var reason: String

    var description: String { "\(file): `\(name)` \(reason)" }
}

/// The check that every mirror declaration a bridge file uses has a real counterpart in the surface data.
///
/// The mirror-vs-surface comparison proves that every *public* mirror declaration is the SDK's. The bridge is in the
/// same package, so it could also use the mirror's `package` declarations (a backend's initializers such as
/// `init(surface:…)`, `package(set)` setters, `SurfaceBackendSlot`…), which the SDK does not have. This check lists
/// the names only such declarations carry (declared `package` in the mirror's sources, and nowhere in the reference)
/// and fails for any bridge identifier among them, and for any assignment to a property whose setter only the mirror
/// has.
struct BridgeReferenceCheck {
    /// Names only the mirror's `package` declarations carry.
    var mirrorOnlyNames: Set<String>
    /// Properties whose setter is `package` in the mirror and that the reference never declares settable.
    var mirrorOnlySetters: Set<String>

    /// Reads the mirror's sources in `mirrorFolder` (the `Backend` subfolder is another module and is skipped).
    init(mirrorFolder: String, packageRoot: URL, referenceTexts: [String]) throws {
        let folder = packageRoot.appendingPathComponent(mirrorFolder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        let sources = try names.map { BridgeSourceScan.code(of: try String(contentsOf: folder.appendingPathComponent($0),
                                                                              encoding: .utf8)) }
        self.init(mirrorSources: sources, referenceTexts: referenceTexts)
    }

    /// From the mirror's source texts and every declaration text of the reference.
    init(mirrorSources: [String], referenceTexts: [String]) {
        var known: Set<String> = []
        var settable: Set<String> = []
        for text in referenceTexts {
            known.formUnion(Self.identifiers(in: text))
            if text.contains("{ get set }") || (text.hasPrefix("var ") && !text.contains("{")),
               let name = Self.identifiers(in: text).dropFirst().first {
                settable.insert(name)
            }
        }
        var packageNames: Set<String> = []
        var packageSetters: Set<String> = []
        let modifiers = #"(?:(?:static|class|final|override|convenience|required|nonisolated|mutating|weak|lazy|indirect|"#
            + #"@\w+)\s+)*"#
        let declaration = try! NSRegularExpression(
            pattern: #"\bpackage\s+"# + modifiers + #"(?:func|var|let|class|struct|enum|protocol|typealias|actor|case)\s+([A-Za-z_]\w*)"#)
        let initializer = try! NSRegularExpression(pattern: #"\bpackage\s+"# + modifiers + #"init[?!]?\s*\(\s*([A-Za-z_]\w*)"#)
        let setter = try! NSRegularExpression(pattern: #"\bpackage\(set\)\s+"# + modifiers + #"var\s+([A-Za-z_]\w*)"#)
        for source in mirrorSources {
            let range = NSRange(source.startIndex..., in: source)
            for regex in [declaration, initializer] {
                for match in regex.matches(in: source, range: range) {
                    if let name = Range(match.range(at: 1), in: source).map({ String(source[$0]) }), name != "_" {
                        packageNames.insert(name)
                    }
                }
            }
            for match in setter.matches(in: source, range: range) {
                if let name = Range(match.range(at: 1), in: source).map({ String(source[$0]) }) { packageSetters.insert(name) }
            }
        }
        mirrorOnlyNames = packageNames.subtracting(known)
        mirrorOnlySetters = packageSetters.subtracting(settable)
    }

    /// Every violation in `bridge`. A name the bridge declares itself (its own `value(of:)`, a lock's `withLock`, a
    /// tuple's labels) is the bridge's, not the mirror's.
    func violations(in bridge: BridgeSourceScan) -> [BridgeReferenceViolation] {
        var found: Set<BridgeReferenceViolation> = []
        let assignment = try! NSRegularExpression(pattern: #"\.([A-Za-z_]\w*)\s*=(?!=)"#)
        let own = Self.declaredNames(in: bridge.files.map(\.code).joined(separator: "\n"))
        for file in bridge.files {
            for name in Self.identifiers(in: file.code) where mirrorOnlyNames.contains(name) && !own.contains(name) {
                found.insert(.init(file: file.name, name: name,
                                   reason: "is declared only by the mirror (`package`), not by the SDK surface"))
            }
            let range = NSRange(file.code.startIndex..., in: file.code)
            for match in assignment.matches(in: file.code, range: range) {
                guard let name = Range(match.range(at: 1), in: file.code).map({ String(file.code[$0]) }),
                      mirrorOnlySetters.contains(name), !own.contains(name) else { continue }
                found.insert(.init(file: file.name, name: name,
                                   reason: "is assigned, but only the mirror has its setter (`package(set)`)"))
            }
        }
        return found.sorted { ($0.file, $0.name) < ($1.file, $1.name) }
    }

    /// Names `code` declares: after a declaration keyword, and the labels of tuple types (`(reader: Observer?, …)`).
    /// Argument labels of calls are not declarations (`Refund(surface: .backend)` declares nothing).
    static func declaredNames(in code: String) -> Set<String> {
        var names: Set<String> = []
        let range = NSRange(code.startIndex..., in: code)
        let keyword = try! NSRegularExpression(
            pattern: #"\b(?:func|var|let|case|class|struct|enum|protocol|typealias|actor)\s+([A-Za-z_]\w*)"#)
        for match in keyword.matches(in: code, range: range) {
            if let found = Range(match.range(at: 1), in: code) { names.insert(String(code[found])) }
        }
        let tupleType = try! NSRegularExpression(
            pattern: #"\((?:\s*[a-z_]\w*\s*:\s*[A-Z][\w.]*[?!]?\s*,)+\s*[a-z_]\w*\s*:\s*[A-Z][\w.]*[?!]?\s*\)"#)
        let label = try! NSRegularExpression(pattern: #"([a-z_]\w*)\s*:"#)
        for match in tupleType.matches(in: code, range: range) {
            guard let tuple = Range(match.range, in: code).map({ String(code[$0]) }) else { continue }
            for inner in label.matches(in: tuple, range: NSRange(tuple.startIndex..., in: tuple)) {
                if let found = Range(inner.range(at: 1), in: tuple) { names.insert(String(tuple[found])) }
            }
        }
        return names
    }

    /// The identifiers in `text`.
    static func identifiers(in text: String) -> [String] {
        var result: [String] = []
        var current = ""
        for character in text {
            if BridgeSourceScan.isIdentifierPart(character) {
                current.append(character)
            } else {
                if let first = current.first, BridgeSourceScan.isIdentifierStart(first) { result.append(current) }
                current = ""
            }
        }
        if let first = current.first, BridgeSourceScan.isIdentifierStart(first) { result.append(current) }
        return result
    }
}

extension BridgeSourceScan {
    /// Where `source` (a bridge file's raw text) lets the mirror build differ from the SDK build other than by its
    /// imports: a `#if` on `TENDER_SURFACE_MIRROR` alone may hold only `import` lines in every branch, and the
    /// whole-file guard (`#if <trait> || TENDER_SURFACE_MIRROR`) may have no `#else` / `#elseif`.
    static func mirrorOnlyAlternatives(in source: String) -> [String] {
        struct Block { var condition: String; var line: Int }
        var problems: [String] = []
        var stack: [Block] = []
        for (offset, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let number = offset + 1
            if line.hasPrefix("#if ") {
                stack.append(Block(condition: String(line.dropFirst(4)), line: number))
                continue
            }
            if line.hasPrefix("#endif") { _ = stack.popLast(); continue }
            if line.hasPrefix("#else") || line.hasPrefix("#elseif") {
                if let block = stack.last, block.condition.contains("TENDER_SURFACE_MIRROR"),
                   block.condition.contains("||") {
                    problems.append("line \(number): an alternative to the mirror-or-SDK guard of line \(block.line)")
                }
                continue
            }
            guard let block = stack.last(where: { $0.condition.contains("TENDER_SURFACE_MIRROR") }),
                  !block.condition.contains("||") else { continue }
            let code = line.components(separatedBy: "//")[0].trimmingCharacters(in: .whitespaces)
            if !code.isEmpty && !code.hasPrefix("import ") && !code.contains(" import ") {
                problems.append("line \(number): `\(code)` differs between the mirror build and the SDK build")
            }
        }
        return problems
    }
}
