import Foundation

/// Default values as Swift expressions, exactly as the manifest wrote them.
///
/// ```swift
/// SwiftLiterals.expression(for: .array([.string("a\"b"), .string("\\(x)")])) // ["a\"b", "\\(x)"]
/// SwiftLiterals.expression(for: .date(iso8601: "2026-01-01T00:00:00Z", secondsSince1970: 1767225600))
/// // Foundation.Date(timeIntervalSince1970: 1767225600)
/// ```
enum SwiftLiterals {
    /// The Swift expression for a default value. The key's type is always spelled out where the
    /// expression is used, so literals need no type annotations.
    static func expression(for value: DefaultValue) -> String {
        switch value {
        case .bool(let flag):
            return flag ? "true" : "false"
        case .integer(let text), .floating(let text):
            return text
        case .string(let text):
            return SwiftSyntax.stringLiteral(text)
        case .data(let base64):
            return "Foundation.Data(base64Encoded: \(SwiftSyntax.stringLiteral(base64)))!"
        case .date(_, let seconds):
            return "Foundation.Date(timeIntervalSince1970: \(secondsLiteral(seconds)))"
        case .url(let text):
            return "Foundation.URL(string: \(SwiftSyntax.stringLiteral(text)))!"
        case .uuid(let text):
            return "Foundation.UUID(uuidString: \(SwiftSyntax.stringLiteral(text)))!"
        case .enumCase(let name):
            return "." + SwiftSyntax.identifier(name)
        case .null:
            return "nil"
        case .array(let elements):
            return "[" + elements.map(expression(for:)).joined(separator: ", ") + "]"
        case .dictionary(let entries):
            if entries.isEmpty { return "[:]" }
            return "[" + entries.map { SwiftSyntax.stringLiteral($0.key) + ": " + expression(for: $0.value) }.joined(separator: ", ") + "]"
        case .swift(let source):
            return source
        }
    }

    /// The ISO 8601 texts of the dates in a default, in order, for a trailing `// …` comment
    /// (a `Date` literal in seconds says little to a reader).
    static func dateComments(for value: DefaultValue) -> [String] {
        switch value {
        case .date(let text, _):
            return [SwiftSyntax.lines(of: text).joined(separator: " ")]
        case .array(let elements):
            return elements.flatMap(dateComments(for:))
        case .dictionary(let entries):
            return entries.flatMap { dateComments(for: $0.value) }
        default:
            return []
        }
    }

    /// A default as a call argument: `defaultValue: Foundation.Date(…)` with the dates it holds
    /// as the argument's comment (`2026-01-01T00:00:00Z`).
    static func argument(_ label: String, _ value: DefaultValue) -> (text: String, comment: String?) {
        let dates = dateComments(for: value)
        return ("\(label): \(expression(for: value))", dates.isEmpty ? nil : dates.joined(separator: ", "))
    }

    /// Seconds since 1970 as a literal: `1767225600`, `1767225600.5`.
    static func secondsLiteral(_ seconds: Double) -> String {
        if seconds == seconds.rounded(), abs(seconds) < 1e15 {
            return String(Int64(seconds))
        }
        return "\(seconds)"
    }

    /// How the runtime describes a default (``KeyCatalogEntry/defaultDescription``), computed
    /// from the manifest for parameterized keys, whose entries hold no key to describe:
    /// `"inbox"` quoted, `nil`, `3`, `dark`, `2026-01-01 00:00:00 +0000`.
    static func description(of value: DefaultValue) -> String {
        describe(value, nested: false)
    }

    private static func describe(_ value: DefaultValue, nested: Bool) -> String {
        switch value {
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let text): return text
        case .floating(let text): return Double(text).map { "\($0)" } ?? text
        case .string(let text): return nested ? text.debugDescription : "\"\(text)\""
        case .data(let base64): return "\(Data(base64Encoded: base64)?.count ?? 0) bytes"
        case .date(_, let seconds): return "\(Date(timeIntervalSince1970: seconds))"
        case .url(let text): return text
        case .uuid(let text): return text.uppercased()
        case .enumCase(let name): return name
        case .null: return "nil"
        case .array(let elements):
            return "[" + elements.map { describe($0, nested: true) }.joined(separator: ", ") + "]"
        case .dictionary(let entries):
            if entries.isEmpty { return "[:]" }
            return "[" + entries.map { $0.key.debugDescription + ": " + describe($0.value, nested: true) }.joined(separator: ", ") + "]"
        case .swift(let source): return source
        }
    }
}
