import Foundation

// Vendor-neutral: compares a mirror module's symbol graph with a surface reference, both ways, under a short list of
// allowances the vendor-specific file states with reasons.

/// What a mirror may legitimately differ by from its reference. Each entry carries its reason.
struct SurfaceAllowances {
    /// A type the mirror may declare although the SDK has none, with the member declarations it may have.
    struct ExtraType {
        var reason: String
        var members: [String]
    }

    /// Types the mirror may add.
    var extraTypes: [String: ExtraType] = [:]
    /// Member declarations a type may have beyond the reference's list because it conforms to the key, which the
    /// reference lists among the type's conformances (the reference leaves such witnesses out).
    var conformanceWitnesses: [String: [String]] = [:]
    /// Conformances the reference lists that the mirror does not declare, with the reason.
    var conformancesNotMirrored: [String: String] = [:]
    /// Conformances the mirror adds to a type, with the reason.
    var extraConformances: [String: (conformances: Set<String>, reason: String)] = [:]
    /// `@objc` protocols are class-bound; a reference `@objc` protocol that refines nothing is mirrored `: AnyObject`.
    var objcProtocolsAreClassBound = true
    /// Ignore `override` on protocol requirements. Source never writes it there; the compiler prints it for a
    /// requirement that restates one of a refined protocol declared in Swift, which `NSObjectProtocol` is on Linux
    /// (swift-corelibs-foundation) and is not on Apple platforms (Objective-C), e.g. `MoneyAmount.description`.
    var ignoreOverrideOnProtocolRequirements = true
    /// How declarations are made comparable.
    var normalizer: DeclarationNormalizer
}

/// One difference between the mirror and the reference.
struct SurfaceMismatch: Hashable, CustomStringConvertible {
    /// What kind of difference.
    enum Kind: String, Hashable {
        case missingType, extraType, kindDiffers, declarationDiffers, superclassDiffers
        case missingConformance, extraConformance, missingCase, extraCase
        case missingMember, extraMember, notARequirement, unexpectedRequirement, optionalWithoutDefault
    }

    var kind: Kind
    var type: String
    var detail: String

    var description: String { "\(kind.rawValue) \(type): \(detail)" }
}

/// The comparison of one mirror with one reference: everything the mirror declares is in the reference with exactly
/// that shape (kind, declaration, superclass, conformances, all enum cases; every member it declares is a reference
/// member), and every type in ``complete`` (the types a bridge file names) has every reference member. A type no
/// bridge names may leave members out or not be mirrored at all. Where the reference records two spellings of a
/// member (`alternateSpelling`: Square's compiled sample's, beside DocC's `swift`), the mirror must have the sample's.
struct SurfaceComparison {
    var reference: SurfaceReference
    var graph: SymbolGraph
    var allowances: SurfaceAllowances
    /// The reference types that must be mirrored completely: those a bridge file names.
    var complete: Set<String>

    /// How much of the reference the mirror matched.
    struct Summary: Equatable {
        var types = 0
        var members = 0
        var cases = 0
        /// Members the mirror declares as witnesses of listed conformances (allowed, not in the reference's lists).
        var witnesses = 0
        /// Reference members mirrored with the compiled sample's spelling (`alternateSpelling`).
        var overridden = 0
        /// Types no bridge names that the mirror leaves out or declares with fewer members.
        var partial = 0
    }

    private enum Role { case requirement, defaultImplementation, other }

    /// Every difference, and what matched.
    func run() -> (mismatches: [SurfaceMismatch], matched: Summary) {
        var mismatches: [SurfaceMismatch] = []
        var summary = Summary()
        let normalizer = allowances.normalizer
        let top = graph.topLevel

        for entry in reference.types {
            func report(_ kind: SurfaceMismatch.Kind, _ detail: String) {
                mismatches.append(SurfaceMismatch(kind: kind, type: entry.name, detail: detail))
            }
            let mustBeComplete = complete.contains(entry.name)
            guard let symbol = top[entry.name] else {
                if mustBeComplete { report(.missingType, "a bridge names it; the mirror does not declare it") }
                else { summary.partial += 1 }
                continue
            }
            var leftOut = 0
            let before = mismatches.count
            let expectedKind = [
                "class": "swift.class", "protocol": "swift.protocol", "enum": "swift.enum",
                "struct": "swift.struct", "optionset": "swift.struct",
            ][entry.kind]
            if symbol.kind != expectedKind {
                report(.kindDiffers, "reference \(entry.kind), mirror \(symbol.kind)")
            }
            if let declaration = entry.declaration {
                var expected = normalizer.normalize(declaration)
                if entry.kind == "protocol", allowances.objcProtocolsAreClassBound, declaration.contains("@objc"),
                   !expected.contains(":") {
                    expected += ":AnyObject"
                }
                let actual = normalizer.normalize(symbol.declaration)
                if expected != actual {
                    report(.declarationDiffers,
                           "reference `\(declaration)` (\(expected)), mirror `\(symbol.declaration)` (\(actual))")
                }
            }
            if let superclass = entry.superclass, !graph.targets(of: "inheritsFrom", from: symbol).contains(superclass) {
                let actual = graph.targets(of: "inheritsFrom", from: symbol)
                report(.superclassDiffers, "reference \(superclass), mirror \(actual)")
            }
            if let listed = entry.conformances {
                let actual = conformances(of: symbol)
                let listedNames = Set(listed.map(Self.lastComponent))
                for conformance in listed where allowances.conformancesNotMirrored[conformance] == nil {
                    if !actual.contains(Self.lastComponent(conformance)) {
                        report(.missingConformance, conformance)
                    }
                }
                let allowedExtra = allowances.extraConformances[entry.name]?.conformances ?? []
                for conformance in actual.sorted()
                where !listedNames.contains(conformance) && !allowedExtra.contains(conformance) {
                    report(.extraConformance, conformance)
                }
            }

            let members = graph.members(of: entry.name)
            if entry.kind == "enum" {
                let referenceCases = Set((entry.cases ?? []).map(\.name))
                let mirrorCases = Set(members.filter { $0.kind == "swift.enum.case" }.map { $0.path[1] })
                for name in referenceCases.subtracting(mirrorCases).sorted() { report(.missingCase, name) }
                for name in mirrorCases.subtracting(referenceCases).sorted() { report(.extraCase, name) }
                summary.cases += referenceCases.intersection(mirrorCases).count
            }

            // Members, matched by normalized declaration and, for protocols, by role.
            let isProtocol = entry.kind == "protocol"
            func comparable(_ text: String) -> String {
                guard isProtocol, allowances.ignoreOverrideOnProtocolRequirements else { return text }
                return text.replacingOccurrences(of: #"^((?:@\S+ )*)override "#, with: "$1", options: .regularExpression)
            }
            var available: [(symbol: SymbolGraph.Symbol, text: String, role: Role)] = members
                .filter { $0.kind != "swift.enum.case" }
                .map { member in
                    let role: Role = graph.has("requirementOf", from: member) ? .requirement
                        : graph.has("defaultImplementationOf", from: member) ? .defaultImplementation : .other
                    return (member, comparable(normalizer.normalize(member.declaration, enclosingType: entry.name)), role)
                }
            func take(_ text: String, _ role: Role?) -> Bool {
                guard let index = available.firstIndex(where: { $0.text == text && (role == nil || $0.role == role) })
                else { return false }
                available.remove(at: index)
                return true
            }
            for member in entry.members {
                var spelling = member.swift
                if let sample = member.alternateSpelling {
                    spelling = sample
                    summary.overridden += 1
                }
                let text = comparable(normalizer.normalize(spelling, enclosingType: entry.name))
                var matched: Bool
                if !isProtocol {
                    matched = take(text, nil)
                } else if member.protocolExtension == true {
                    matched = take(text, .other)
                    if !matched, available.contains(where: { $0.text == text }) {
                        report(.unexpectedRequirement, "`\(spelling)` is a protocol-extension member in the SDK")
                        _ = take(text, nil)
                        continue
                    }
                } else {
                    matched = take(text, .requirement)
                    if !matched, available.contains(where: { $0.text == text && $0.role == .other }) {
                        report(.notARequirement, "`\(spelling)` is a requirement in the SDK")
                        _ = take(text, .other)
                        continue
                    }
                    if matched, member.optional == true, !take(text, .defaultImplementation) {
                        report(.optionalWithoutDefault,
                               "`\(spelling)` is optional in the SDK; the mirror needs a default implementation")
                    }
                }
                if matched {
                    summary.members += 1
                } else if mustBeComplete {
                    report(.missingMember, "`\(spelling)` (\(text))")
                } else {
                    leftOut += 1
                }
            }
            let listed = Set((entry.conformances ?? []).map(Self.lastComponent))
            for leftover in available {
                let witness = allowances.conformanceWitnesses.contains { conformance, declarations in
                    listed.contains(conformance) && declarations.contains {
                        normalizer.normalize($0, enclosingType: entry.name) == leftover.text
                    }
                }
                if witness, leftover.role == .other {
                    summary.witnesses += 1
                } else if leftover.role == .defaultImplementation {
                    report(.extraMember, "default implementation `\(leftover.symbol.declaration)` "
                           + "of a requirement the SDK does not mark optional")
                } else {
                    report(.extraMember, "`\(leftover.symbol.declaration)` (\(leftover.text))")
                }
            }
            if mismatches.count == before { summary.types += 1 }
            if leftOut > 0 { summary.partial += 1 }
        }

        // What the mirror declares beyond the reference.
        let described = Set(reference.types.map(\.name))
        for (name, symbol) in top.sorted(by: { $0.key < $1.key }) where !described.contains(name) {
            let members = graph.members(of: name)
            if let extra = allowances.extraTypes[name] {
                let allowed = Set(extra.members.map { normalizer.normalize($0, enclosingType: name) })
                for member in members
                where !allowed.contains(normalizer.normalize(member.declaration, enclosingType: name)) {
                    mismatches.append(SurfaceMismatch(kind: .extraMember, type: name, detail: "`\(member.declaration)`"))
                }
            } else {
                mismatches.append(SurfaceMismatch(kind: .extraType, type: name, detail: "`\(symbol.declaration)`"))
            }
        }
        for symbol in graph.symbols where symbol.path.count > 2 || symbol.extendedModule != nil {
            let place = symbol.extendedModule.map { "an extension of \($0)" } ?? "a nested declaration"
            mismatches.append(SurfaceMismatch(kind: .extraMember, type: symbol.path.first ?? "?",
                detail: "`\(symbol.declaration)` in \(place)"))
        }
        return (mismatches, summary)
    }

    /// What `symbol` conforms to, directly or through the protocols of its own module it conforms to or refines.
    private func conformances(of symbol: SymbolGraph.Symbol) -> Set<String> {
        let byUSR = Dictionary(graph.symbols.map { ($0.usr, $0) }, uniquingKeysWith: { first, _ in first })
        var result = Set<String>()
        var pending = [symbol.usr]
        var seen = Set<String>()
        while let usr = pending.popLast() {
            guard seen.insert(usr).inserted else { continue }
            for relation in graph.relationships where relation.kind == "conformsTo" && relation.source == usr {
                if let local = byUSR[relation.target] {
                    result.insert(local.path.last ?? "")
                    pending.append(local.usr)
                } else {
                    result.insert(Self.lastComponent(relation.targetFallback ?? relation.target))
                }
            }
        }
        return result
    }

    private static func lastComponent(_ name: String) -> String {
        String(name.split(separator: ".").last ?? Substring(name))
    }
}
