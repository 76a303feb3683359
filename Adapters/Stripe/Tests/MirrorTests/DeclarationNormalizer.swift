import Foundation

/// Brings a reference declaration (`swift` / `async` fields) and a symbol-graph declaration to one comparable spelling.
///
/// Only differences that cannot change what a caller may write are removed:
/// - whitespace (`[String : Any]` and `[String: Any]` are the same),
/// - `any` (the reference prints `(any Error)?` in some places and `Error` in others; the graph always prints `any`),
/// - `@discardableResult` (Swift imports every Objective-C method as discardable; the mirror says so explicitly),
/// - `override` (imported subclasses override silently; Swift source must say it),
/// - `@NSCopying` (it only changes a setter; no mirrored `@NSCopying` property has a public setter),
/// - a stored `var` that the graph prints without accessors is settable: `var x: T` reads `var x: T { get set }`.
/// The `optional` of an optional protocol requirement is not normalized away here: the comparison strips it and checks
/// for the default implementation that stands for it.
enum DeclarationNormalizer {
    static func normalize(_ declaration: String) -> String {
        var text = declaration
        for attribute in ["@discardableResult", "@NSCopying"] {
            text = text.replacingOccurrences(of: attribute, with: " ")
        }
        text = replacingWord("override", in: text)
        text = replacingWord("any", in: text)
        text = collapseWhitespace(text)
        if isStoredSettableVariable(text) { text += " { get set }" }
        return tightenPunctuation(text)
    }

    /// `weak var x: T` / `var x: T` with no accessor block and no initial value.
    private static func isStoredSettableVariable(_ text: String) -> Bool {
        let body = text.hasPrefix("weak ") ? String(text.dropFirst(5)) : text
        return body.hasPrefix("var ") && !text.contains("{") && !text.contains("=")
    }

    /// Removes `word` where it stands as a whole word followed by a space.
    private static func replacingWord(_ word: String, in text: String) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let rest = text[index...]
            let previous = index == text.startIndex ? nil : text[text.index(before: index)]
            let atWordStart = previous.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true
            if atWordStart, rest.hasPrefix(word + " ") {
                index = text.index(index, offsetBy: word.count + 1)
                continue
            }
            result.append(text[index])
            index = text.index(after: index)
        }
        return result
    }

    private static func collapseWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Drops spaces next to punctuation, keeping those between two words (`func build`, `throws -> T` → `throws->T`).
    private static func tightenPunctuation(_ text: String) -> String {
        let characters = Array(text)
        var result = ""
        for (offset, character) in characters.enumerated() {
            if character == " " {
                let before = offset > 0 ? characters[offset - 1] : " "
                let after = offset + 1 < characters.count ? characters[offset + 1] : " "
                if isWordCharacter(before) && isWordCharacter(after) { result.append(" ") }
                continue
            }
            result.append(character)
        }
        return result
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "@"
    }
}
