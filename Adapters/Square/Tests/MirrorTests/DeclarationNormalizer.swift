import Foundation

// Vendor-neutral: brings a declaration as a reference file records it (DocC or jazzy text, with Objective-C
// attributes) and as the Swift compiler prints it for a mirror (with `any`, without `@objc`) to one comparable form.
// Only spelling noise is removed; every name, label, type, optionality, `static`, `@discardableResult`, `throws` and
// get/set stays significant.

/// Normalizes Swift declarations for comparison.
struct DeclarationNormalizer {
    /// Module names whose qualification is dropped (`MobilePaymentsSDKAPI.Environment` → `Environment`).
    var modulesToUnqualify: [String]

    /// Leading modifiers, put in one order so that `convenience override init()` equals `override convenience init()`.
    /// `optional` is dropped: an `@objc optional` requirement is mirrored as a requirement with a default
    /// implementation, which the comparison checks separately.
    private static let modifierOrder = [
        "@discardableResult", "public", "open", "final", "required", "override", "convenience", "static", "class",
        "mutating", "nonmutating", "nonisolated", "dynamic", "lazy", "weak", "unowned",
    ]
    private static let droppedModifiers: Set<String> = ["optional", "public", "open"]
    private static let declarationKeywords: Set<String> = [
        "func", "var", "let", "init", "init?", "init!", "subscript", "case", "protocol", "enum", "struct",
        "typealias", "associatedtype", "deinit",
    ]

    /// The comparable form of `declaration`, a member of (or the declaration of) `enclosingType`.
    func normalize(_ declaration: String, enclosingType: String? = nil) -> String {
        var text = declaration
        // Objective-C attributes: `@objc`, `@objc(SQMPThing)`, `@objc(getPayments:)`.
        text = text.replacingOccurrences(of: #"@objc(\([^)]*\))?"#, with: " ", options: .regularExpression)
        // Existential `any` (the compiler prints it; references written for Swift 5 omit it).
        text = text.replacingOccurrences(of: #"\bany\s+(?=[A-Za-z_(\[])"#, with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: "`", with: "")
        for module in modulesToUnqualify {
            text = text.replacingOccurrences(of: #"\b\#(module)\.(?=[A-Za-z_])"#, with: "", options: .regularExpression)
        }
        if let enclosingType {
            // The compiler qualifies a type's own associated types: `CardInputMethods.RawValue` → `RawValue`.
            text = text.replacingOccurrences(
                of: #"\b\#(enclosingType)\.(?=[A-Z])"#, with: "", options: .regularExpression)
        }
        text = text.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
            .trimmingCharacters(in: .whitespaces)
        text = Self.canonicalModifiers(text)
        // Spaces next to punctuation carry no meaning: `[String : Any]` = `[String: Any]`, `X : Y` = `X: Y`.
        text = text.replacingOccurrences(of: #"\s*([:,()\[\]?!=])\s*"#, with: "$1", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\s*->\s*"#, with: "->", options: .regularExpression)
        // `(Error)?` left by removing `any` from `(any Error)?` is `Error?`.
        while let range = text.range(of: #"\(([A-Za-z_][A-Za-z_0-9.]*)\)\?"#, options: .regularExpression) {
            let inner = text[range].dropFirst().dropLast(2)
            text.replaceSubrange(range, with: inner + "?")
        }
        return text
    }

    /// Puts the leading modifiers of `text` in ``modifierOrder`` and drops ``droppedModifiers``.
    private static func canonicalModifiers(_ text: String) -> String {
        var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var modifiers: [String] = []
        while let first = words.first, !declarationKeywords.contains(first) {
            // `class` is a modifier only before a member keyword (`class func`), else it declares a class.
            if first == "class", words.count > 1, !declarationKeywords.contains(words[1]) { break }
            guard modifierOrder.contains(first) || droppedModifiers.contains(first) else { break }
            modifiers.append(first)
            words.removeFirst()
        }
        let kept = modifiers.filter { !droppedModifiers.contains($0) }
            .sorted { modifierOrder.firstIndex(of: $0)! < modifierOrder.firstIndex(of: $1)! }
        return (kept + words).joined(separator: " ")
    }
}
