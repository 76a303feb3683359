import Foundation

/// Compares the mirror's public declarations (a symbol graph) with the SDK surface reference (the whole documented
/// surface, `shared/reference/sdk-surface/full/`).
///
/// The rule: everything the mirror declares exists in the reference with exactly that shape, and every type a bridge
/// file names (``complete``, from ``BridgeSourceScan``) is mirrored completely. In detail:
/// - a mirrored type has the reference's kind, declaration, superclass and conformances, and every enum or option set
///   that is mirrored has all its cases; a type the reference does not describe may not be declared at all;
/// - every member the mirror declares is a reference member in one of its forms (`swift`, and `async` for
///   completion-block methods), with its exact spelling and deprecation;
/// - a type in ``complete`` has every reference member in each of its forms; a type no bridge names may leave members
///   out (the SDK has them; no bridge can use what the mirror does not declare), or not be mirrored at all;
/// - every typealias and global is mirrored.
/// The only exceptions are ``StripeSurfaceAllowances`` (each with its reason) and these rules:
/// - an `optional` protocol requirement is a requirement plus a default implementation (Linux has no `@objc optional`);
///   a requirement imported in two forms (completion block and `async`) has a default implementation for each form
///   (a conformer implements either one); every other requirement has none;
/// - `ErrorCode` has `static var <code>: ErrorCode.Code { get }` for each case of `ErrorCode.Code` (the reference's note
///   on that type), and an option set has `let rawValue`, `init(rawValue:)` and a `static let` per option;
/// - members that come with a listed conformance (``StripeSurfaceAllowances/impliedMembers(of:)``) are allowed.
struct SurfaceComparison {
    /// How much of the reference the mirror matched, and how.
    struct Counts {
        var typesInReference = 0
        var typesMirrored = 0
        /// Types that must be complete (a bridge names them), and how many of them are.
        var typesRequiredComplete = 0
        var typesComplete = 0
        /// Mirrored types no bridge names that leave reference members out.
        var typesPartial = 0
        var membersInReference = 0
        var membersMirrored = 0
        var membersLeftOut = 0
        var membersWithDeviation = 0
        var membersCheckedByTypedReference = 0
        var asyncFormsInReference = 0
        var asyncFormsMirrored = 0
        var uncertainMirrored = 0
        var casesInReference = 0
        var casesMirrored = 0
        var typealiasesInReference = 0
        var typealiasesMirrored = 0
        var globalsInReference = 0
        var globalsMirrored = 0
        var derivedMembers = 0
    }

    var mismatches: [SurfaceMismatch] = []
    var counts = Counts()

    let reference: SurfaceReference
    let graph: SymbolGraph
    /// The reference types that must be mirrored completely: those a bridge file names.
    let complete: Set<String>
    var symbolsByID: [String: SymbolGraph.Symbol] = [:]
    var defaultImplementations: Set<String> = []
    var conformances: [String: Set<String>] = [:]
    var superclasses: [String: [String]] = [:]

    init(reference: SurfaceReference, graph: SymbolGraph, complete: Set<String>) {
        self.reference = reference
        self.graph = graph
        self.complete = complete
        index()
        compareTypes()
        compareTopLevel()
        checkAllowancesAreCurrent()
    }

    /// Every allowance must name a member the reference has: a stale entry would hide nothing but mislead.
    private mutating func checkAllowancesAreCurrent() {
        let keys = Set(reference.types.flatMap { type in (type.members ?? []).map { "\(type.name)|\($0.swift)" } })
        let allowed = Set(StripeSurfaceAllowances.leftOut.keys).union(StripeSurfaceAllowances.deviations.keys)
            .union(StripeSurfaceAllowances.checkedByTypedReference)
        for key in allowed.subtracting(keys).sorted() {
            report(.staleAllowance, String(key.prefix { $0 != "|" }), "no reference member `\(key)`")
        }
        for type in StripeSurfaceAllowances.typeDeclarationDeviations.keys.sorted()
        where !reference.types.contains(where: { $0.name == type }) {
            report(.staleAllowance, type, "no reference type")
        }
    }

    static let typeKinds: Set<String> = ["swift.class", "swift.struct", "swift.enum", "swift.protocol"]

    // MARK: Indexing

    private mutating func index() {
        for symbol in graph.symbols where !symbol.isSynthesized {
            symbolsByID[symbol.identifier.precise] = symbol
        }
        for relationship in graph.relationships {
            let target = symbolsByID[relationship.target]?.name
                ?? relationship.targetFallback.map { String($0.split(separator: ".").last ?? "") }
                ?? relationship.target
            switch relationship.kind {
            case "defaultImplementationOf": defaultImplementations.insert(relationship.source)
            case "conformsTo": conformances[relationship.source, default: []].insert(target)
            case "inheritsFrom": superclasses[relationship.source, default: []].append(target)
            default: break
            }
        }
    }

    private var typesByPath: [String: SymbolGraph.Symbol] {
        Dictionary(symbolsByID.values.filter { Self.typeKinds.contains($0.kind.identifier) }.map { ($0.path, $0) },
                   uniquingKeysWith: { first, _ in first })
    }

    func members(of path: String) -> [SymbolGraph.Symbol] {
        symbolsByID.values.filter { $0.parentPath == path && !Self.typeKinds.contains($0.kind.identifier) }
    }

    mutating func report(_ kind: SurfaceMismatch.Kind, _ type: String, _ detail: String) {
        mismatches.append(SurfaceMismatch(kind: kind, type: type, detail: detail))
    }

    // MARK: Types

    private mutating func compareTypes() {
        let types = typesByPath
        let referenceTypes = Dictionary(reference.types.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        counts.typesInReference = reference.types.count
        for entry in reference.types {
            let mustBeComplete = complete.contains(entry.name)
            counts.typesRequiredComplete += mustBeComplete ? 1 : 0
            guard let symbol = types[entry.name] else {
                if mustBeComplete { report(.missingType, entry.name, "a bridge names it: \(entry.declaration)") }
                counts.membersInReference += entry.members?.count ?? 0
                continue
            }
            let before = mismatches.count
            if compareTypeDeclaration(entry, symbol, referenceTypes: referenceTypes) { counts.typesMirrored += 1 }
            let missing = compareMembers(entry, symbol, mustBeComplete: mustBeComplete)
            compareCases(entry, symbol)
            if mustBeComplete && mismatches.count == before { counts.typesComplete += 1 }
            if !mustBeComplete && missing > 0 { counts.typesPartial += 1 }
        }
        for (path, symbol) in types.sorted(by: { $0.key < $1.key }) where referenceTypes[path] == nil {
            report(.extraType, path, symbol.declaration)
        }
    }

    /// Kind, declaration, superclass and conformances. True when the type is present with the right kind.
    private mutating func compareTypeDeclaration(
        _ entry: SurfaceReference.TypeEntry, _ symbol: SymbolGraph.Symbol,
        referenceTypes: [String: SurfaceReference.TypeEntry]
    ) -> Bool {
        let id = symbol.identifier.precise
        let expectedKind = ["class": "swift.class", "protocol": "swift.protocol", "enum": "swift.enum",
                            "struct": "swift.struct", "optionset": "swift.struct"][entry.kind]
        guard symbol.kind.identifier == expectedKind else {
            report(.kindDiffers, entry.name, "\(symbol.kind.identifier), reference: \(entry.kind)")
            return false
        }
        let expectedDeclaration = StripeSurfaceAllowances.typeDeclarationDeviations[entry.name]?.mirrored
            ?? Self.typeDeclaration(entry)
        if DeclarationNormalizer.normalize(symbol.declaration) != DeclarationNormalizer.normalize(expectedDeclaration) {
            report(.declarationDiffers, entry.name, "`\(symbol.declaration)`, reference: `\(entry.declaration)`")
        }
        let expectedSuper = entry.superclass.map { String($0.prefix { $0 != "<" }) }
        let actualSuper = superclasses[id]?.first
        if expectedSuper != actualSuper {
            report(.superclassDiffers, entry.name, "\(actualSuper ?? "none"), reference: \(expectedSuper ?? "none")")
        }
        let required = Self.requiredConformances(entry, referenceTypes: referenceTypes)
        let actual = conformances[id] ?? []
        for missing in required.subtracting(actual).sorted() {
            report(.missingConformance, entry.name, missing)
        }
        let kindKey = entry.kind == "class" ? (inheritsFromNSError(entry, referenceTypes) ? "errorClass" : "class")
            : entry.kind
        let implied = StripeSurfaceAllowances.impliedConformances[kindKey] ?? []
        for extra in actual.subtracting(required).subtracting(implied).sorted() {
            report(.extraConformance, entry.name, extra)
        }
        return true
    }

    private func inheritsFromNSError(
        _ entry: SurfaceReference.TypeEntry, _ referenceTypes: [String: SurfaceReference.TypeEntry]
    ) -> Bool {
        guard let superclass = entry.superclass else { return false }
        return superclass == "NSError" || referenceTypes[superclass].map { inheritsFromNSError($0, referenceTypes) } == true
    }

    /// The reference's declaration as the graph prints a type: protocols with their inheritance clause, other types
    /// without it (the graph gives superclass and conformances as relationships), nested types by their own name.
    static func typeDeclaration(_ entry: SurfaceReference.TypeEntry) -> String {
        var text = entry.declaration
        if let note = text.range(of: " (nested in") { text = String(text[..<note.lowerBound]) }
        guard entry.kind != "protocol", let colon = text.range(of: " : ") else { return text }
        let whereClause = text.range(of: " where ", range: colon.upperBound..<text.endIndex)
        return String(text[..<colon.lowerBound]) + (whereClause.map { String(text[$0.lowerBound...]) } ?? "")
    }

    /// The reference's conformances as the graph names them: `@unchecked` dropped; underscored bridging protocols and
    /// notes left out (a symbol graph never shows them); a protocol's inherited protocols added.
    static func requiredConformances(
        _ entry: SurfaceReference.TypeEntry, referenceTypes: [String: SurfaceReference.TypeEntry]
    ) -> Set<String> {
        var result: Set<String> = []
        for conformance in entry.conformances ?? [] {
            let name = conformance.replacingOccurrences(of: "@unchecked ", with: "")
            if name.hasPrefix("_") || name.contains("(") { continue }
            result.insert(name)
            if entry.kind == "protocol", let parent = referenceTypes[name], parent.kind == "protocol" {
                result.formUnion(requiredConformances(parent, referenceTypes: referenceTypes))
            }
        }
        return result
    }
}

/// One difference between the mirror and the reference.
struct SurfaceMismatch: Hashable, CustomStringConvertible {
    enum Kind: String, Hashable {
        case missingType, extraType, kindDiffers, declarationDiffers, superclassDiffers
        case missingConformance, extraConformance, missingCase, extraCase
        case missingMember, extraMember, duplicateMember, deprecationDiffers
        case optionalWithoutDefault, unexpectedDefault, staleAllowance
    }

    var kind: Kind
    /// The type (or `top level`).
    var type: String
    var detail: String

    var description: String { "\(kind.rawValue) \(type): \(detail)" }
}
