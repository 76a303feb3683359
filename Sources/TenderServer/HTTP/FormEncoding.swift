import Foundation

/// A value in a Stripe form body: Stripe takes `application/x-www-form-urlencoded` with brackets for nesting
/// (`metadata[tender_reference]=order-1`, `expand[0]=latest_charge`, `card[exp_month]=12`).
package indirect enum FormValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral {
    /// A scalar.
    case string(String)
    /// A nested object: each key becomes `parent[key]`, in key order.
    case object([String: FormValue])
    /// A list: each element becomes `parent[index]`.
    case array([FormValue])

    /// A string.
    package init(stringLiteral value: String) { self = .string(value) }
    /// An integer, in decimal.
    package init(integerLiteral value: Int64) { self = .string(String(value)) }
    /// `true` or `false`.
    package init(booleanLiteral value: Bool) { self = .string(value ? "true" : "false") }

    /// A string map, e.g. metadata.
    package static func map(_ values: [String: String]) -> FormValue { .object(values.mapValues(FormValue.string)) }
}

/// Stripe's form encoding: nested values flattened with brackets, keys sorted for a stable body (so a retried
/// request under the same idempotency key is byte-for-byte the same request).
package enum FormEncoding {
    /// The `name=value` pairs of `parameters`, flattened and sorted by top-level key.
    package static func pairs(_ parameters: [String: FormValue]) -> [(String, String)] {
        var result: [(String, String)] = []
        for key in parameters.keys.sorted() { flatten(parameters[key]!, name: key, into: &result) }
        return result
    }

    /// The body: the pairs, percent-encoded and joined with `&`.
    package static func encode(_ parameters: [String: FormValue]) -> String {
        pairs(parameters).map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// A query string from plain pairs (already flat), percent-encoded.
    package static func query(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    private static func flatten(_ value: FormValue, name: String, into result: inout [(String, String)]) {
        switch value {
        case .string(let text):
            result.append((name, text))
        case .object(let fields):
            for key in fields.keys.sorted() { flatten(fields[key]!, name: "\(name)[\(key)]", into: &result) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { flatten(element, name: "\(name)[\(index)]", into: &result) }
        }
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// RFC 3986 unreserved characters stay; everything else (brackets, spaces, `&`, `=`, `+`, quotes) is
    /// percent-encoded, as form bodies require.
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
