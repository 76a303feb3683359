import Foundation

extension SurfaceComparison {
    // MARK: Members

    /// Every member of `entry` in each form (when `mustBeComplete`; otherwise those the mirror declares), then the
    /// derived members, then nothing else. Returns how many reference members the mirror leaves out.
    @discardableResult
    mutating func compareMembers(
        _ entry: SurfaceReference.TypeEntry, _ symbol: SymbolGraph.Symbol, mustBeComplete: Bool
    ) -> Int {
        let declared = members(of: symbol.path).filter { $0.kind.identifier != "swift.enum.case" }
        var declarations: [String: SymbolGraph.Symbol] = [:]
        var defaults: [String: SymbolGraph.Symbol] = [:]
        for member in declared {
            let key = DeclarationNormalizer.normalize(member.declaration)
            if defaultImplementations.contains(member.identifier.precise) {
                defaults[key] = member
            } else if declarations.updateValue(member, forKey: key) != nil {
                report(.duplicateMember, entry.name, member.declaration)
            }
        }
        var consumed: Set<String> = []
        var consumedDefaults: Set<String> = []
        var notMirrored = 0

        for member in entry.members ?? [] {
            counts.membersInReference += 1
            counts.asyncFormsInReference += member.async == nil ? 0 : 1
            let key = "\(entry.name)|\(member.swift)"
            if let reason = StripeSurfaceAllowances.leftOut[key] {
                counts.membersLeftOut += 1
                for form in member.forms where declarations[normalizedForm(form)] != nil {
                    report(.staleAllowance, entry.name, "`\(form)` is listed as left out (\(reason)) but is declared")
                }
                continue
            }
            if StripeSurfaceAllowances.checkedByTypedReference.contains(key) {
                counts.membersCheckedByTypedReference += 1
                counts.membersMirrored += 1
                counts.uncertainMirrored += member.uncertain == true ? 1 : 0
                continue
            }
            let deviation = StripeSurfaceAllowances.deviations[key]
            var allFormsPresent = true
            for (offset, form) in member.forms.enumerated() {
                let expected = normalizedForm(offset == 0 ? (deviation?.mirrored ?? form) : form)
                guard let found = declarations[expected] else {
                    if mustBeComplete {
                        report(.missingMember, entry.name, form + (deviation.map { " (deviation: \($0.mirrored))" } ?? ""))
                    }
                    allFormsPresent = false
                    continue
                }
                consumed.insert(expected)
                if offset == 1 { counts.asyncFormsMirrored += 1 }
                if found.isDeprecated != member.isDeprecated {
                    report(.deprecationDiffers, entry.name, "\(form): mirror \(found.isDeprecated), reference \(member.isDeprecated)")
                }
                if entry.kind == "protocol" {
                    let needsDefault = member.isOptional || member.async != nil
                    let hasDefault = defaults[expected] != nil
                    consumedDefaults.insert(expected)
                    if needsDefault && !hasDefault {
                        report(.optionalWithoutDefault, entry.name, form)
                    } else if !needsDefault && hasDefault {
                        report(.unexpectedDefault, entry.name, form)
                    }
                }
            }
            if !allFormsPresent { notMirrored += 1 }
            if allFormsPresent {
                counts.membersMirrored += 1
                counts.membersWithDeviation += deviation == nil ? 0 : 1
                counts.uncertainMirrored += member.uncertain == true ? 1 : 0
            }
        }

        for derived in derivedMembers(of: entry) {
            counts.derivedMembers += 1
            if declarations[derived] == nil {
                report(.missingMember, entry.name, derived)
            }
            consumed.insert(derived)
        }
        let implied = StripeSurfaceAllowances.impliedMembers(of: entry)
        for (key, member) in declarations.sorted(by: { $0.key < $1.key })
        where !consumed.contains(key) && !implied.contains(key) {
            report(.extraMember, entry.name, member.declaration)
        }
        for (key, member) in defaults.sorted(by: { $0.key < $1.key }) where !consumedDefaults.contains(key) {
            report(.unexpectedDefault, entry.name, member.declaration)
        }
        return notMirrored
    }

    /// A reference form as the mirror declares it: an `optional` requirement is a plain requirement (see the type doc).
    func normalizedForm(_ form: String) -> String {
        DeclarationNormalizer.normalize(form.hasPrefix("optional ") ? String(form.dropFirst("optional ".count)) : form)
    }

    /// Members the reference implies without listing them: `ErrorCode`'s static member per code, and an option set's
    /// raw value, initializer and options.
    func derivedMembers(of entry: SurfaceReference.TypeEntry) -> [String] {
        var derived: [String] = []
        if entry.name == "ErrorCode", let codes = reference.types.first(where: { $0.name == "ErrorCode.Code" }) {
            derived += (codes.cases ?? []).map { "static var \($0.name): ErrorCode.Code { get }" }
        }
        if entry.kind == "optionset", let raw = entry.rawType {
            derived += ["let rawValue: \(raw)", "init(rawValue: \(raw))"]
            derived += (entry.cases ?? []).map { "static let \($0.name): \(entry.name)" }
        }
        return derived.map(DeclarationNormalizer.normalize)
    }

    // MARK: Enum cases

    mutating func compareCases(_ entry: SurfaceReference.TypeEntry, _ symbol: SymbolGraph.Symbol) {
        guard entry.kind == "enum" else { return }
        let expected = Set((entry.cases ?? []).map(\.name))
        let declared = Set(members(of: symbol.path).filter { $0.kind.identifier == "swift.enum.case" }.map(\.name))
        counts.casesInReference += expected.count
        counts.casesMirrored += expected.intersection(declared).count
        for missing in expected.subtracting(declared).sorted() {
            report(.missingCase, entry.name, missing)
        }
        for extra in declared.subtracting(expected).sorted() {
            report(.extraCase, entry.name, extra)
        }
    }

    // MARK: Typealiases, globals, anything else at top level

    mutating func compareTopLevel() {
        let topLevel = symbolsByID.values.filter { $0.pathComponents.count == 1 && !Self.typeKinds.contains($0.kind.identifier) }
        var declared = Dictionary(topLevel.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        counts.typealiasesInReference = reference.typealiases.count
        counts.globalsInReference = reference.globals.count
        let expected = reference.typealiases.map { ($0.name, $0.swift, true) }
            + reference.globals.map { (Self.globalName($0.swift), $0.swift, false) }
        for (name, swift, isTypealias) in expected {
            guard let symbol = declared.removeValue(forKey: name) else {
                report(.missingMember, "top level", swift)
                continue
            }
            if DeclarationNormalizer.normalize(symbol.declaration) != DeclarationNormalizer.normalize(swift) {
                report(.declarationDiffers, "top level", "`\(symbol.declaration)`, reference: `\(swift)`")
            } else if isTypealias {
                counts.typealiasesMirrored += 1
            } else {
                counts.globalsMirrored += 1
            }
        }
        for (_, symbol) in declared.sorted(by: { $0.key < $1.key }) {
            report(.extraMember, "top level", symbol.declaration)
        }
    }

    /// `let ErrorDomain: String` → `ErrorDomain`.
    static func globalName(_ declaration: String) -> String {
        let words = declaration.split(separator: " ")
        return words.count > 1 ? String(words[1].prefix { $0 != ":" }) : declaration
    }
}
