import Foundation

/// Default values as Swift expressions, exactly as the manifest wrote them.
///
/// ```swift
/// SwiftLiterals.expression(for: .array([.string("a\"b"), .string("\\(x)")])) // ["a\"b", "\\(x)"]
/// SwiftLiterals.expression(for: .date(iso8601: "2026-01-01T00:00:00Z", secondsSince1970: 1767225600))
/// // Foundation.Date(timeIntervalSinceReferenceDate: 788918400)
/// ```
enum SwiftLiterals {
    /// The Swift expression for a default value of `type`. The key's type is always spelled out
    /// where the expression is used, so literals need no type annotations.
    ///
    /// The type decides what the compiler could otherwise misread: a case named `none` or `some`
    /// in an optional context is written `.some(.none)` (`.none` alone would be `nil`), and a
    /// `Float` or `Double` is written so it converts exactly, without a warning.
    ///
    /// `isElement`: the expression is followed by more code on its line (a collection's next
    /// element, a closing parenthesis), so a Swift expression holding `//` ends its line, lest a
    /// comment in it swallow that code: `[10 // per day` then `, 20]`.
    static func expression(for value: DefaultValue, type: ValueType, isElement: Bool = false) -> String {
        switch value {
        case .bool(let flag):
            return flag ? "true" : "false"
        case .integer(let text):
            return text
        case .floating(let text):
            return floatingLiteral(text, isFloat: type.nonOptional == .float)
        case .string(let text):
            return SwiftSyntax.stringLiteral(text)
        case .data(let base64):
            return "Foundation.Data(base64Encoded: \(SwiftSyntax.stringLiteral(base64)))!"
        case .date(let text, let seconds):
            return "Foundation.Date(timeIntervalSinceReferenceDate: \(dateLiteral(text, secondsSince1970: seconds)))"
        case .url(let text):
            return "Foundation.URL(string: \(SwiftSyntax.stringLiteral(text)))!"
        case .uuid(let text):
            return "Foundation.UUID(uuidString: \(SwiftSyntax.stringLiteral(text)))!"
        case .enumCase(let name):
            guard case .optional(let wrapped) = type else { return "." + SwiftSyntax.identifier(name) }
            let inner = expression(for: value, type: wrapped)
            // `.none` and `.some` would name Optional's own cases.
            return name == "none" || name == "some" ? ".some(\(inner))" : inner
        case .null:
            return "nil"
        case .array(let elements):
            let element = type.nonOptional.elementType ?? type
            return "[" + elements.map { expression(for: $0, type: element, isElement: true) }.joined(separator: ", ") + "]"
        case .dictionary(let entries):
            if entries.isEmpty { return "[:]" }
            let valueType = type.nonOptional.elementType ?? type
            return "[" + entries.map { SwiftSyntax.stringLiteral($0.key) + ": " + expression(for: $0.value, type: valueType, isElement: true) }.joined(separator: ", ") + "]"
        case .swift(let source):
            return isElement && source.contains("//") ? source + "\n" : source
        }
    }

    /// A `Float` or `Double` the compiler converts exactly and silently: the manifest's text
    /// when it does; `Float(bitPattern: 0x00000001)` for a subnormal value, and for the smallest
    /// normal one, which a literal just below it reaches by rounding up, as a literal (decimal,
    /// and hexadecimal too) makes the compiler warn "underflows and loses precision"; `-0.0` for
    /// a negative zero (the integer literal `-0` is a positive zero), and `0.0` for a literal that
    /// rounds to zero; and the shortest decimal that reads back the same value
    /// (`1.8446744073709552e+19`) for an integer literal the type cannot hold exactly, which would
    /// warn "not exactly representable".
    static func floatingLiteral(_ text: String, isFloat: Bool) -> String {
        let isInteger = !text.contains { $0 == "." || $0 == "e" || $0 == "E" }
        func exactly<F: BinaryFloatingPoint>(_: F.Type) -> Bool {
            if let integer = Int64(text) { return F(exactly: integer) != nil }
            if let integer = UInt64(text) { return F(exactly: integer) != nil }
            return false
        }
        func zero<F: BinaryFloatingPoint>(_ value: F) -> String? {
            guard value.isZero else { return nil }
            if value.sign == .minus { return "-0.0" }
            return isInteger ? text : "0.0"
        }
        if isFloat {
            guard let value = Float(text) else { return text }
            let bitPattern = "Swift.Float(bitPattern: 0x" + hex(UInt64(value.bitPattern), digits: 8) + ")"
            if value.isSubnormal || value.magnitude == .leastNormalMagnitude { return bitPattern }
            if let zero = zero(value) { return zero }
            return readable(isInteger && !exactly(Float.self) ? "\(value)" : text, of: value, else: bitPattern)
        }
        guard let value = Double(text) else { return text }
        let bitPattern = "Swift.Double(bitPattern: 0x" + hex(value.bitPattern, digits: 16) + ")"
        if value.isSubnormal || value.magnitude == .leastNormalMagnitude { return bitPattern }
        if let zero = zero(value) { return zero }
        return readable(isInteger && !exactly(Double.self) ? "\(value)" : text, of: value, else: bitPattern)
    }

    /// `literal` if the compiler reads it as `value`, else the shortest decimal that it does, else
    /// `bitPattern`. The compiler reads a float literal as its widest built-in type (`Float80` on
    /// x86, `Double` on arm64), then rounds that to the key's type: rounded twice, a decimal just
    /// beside a halfway point between two values can land on it, then go the other way
    /// (`340282356779733661637539395458142568447.0`, a `Float` just under the largest's
    /// halfway point to the next power of two, became infinity, with a warning). Both readings
    /// are checked on every host (``DoubleRounding``), so the output does not depend on it.
    private static func readable<F: BinaryFloatingPoint & LosslessStringConvertible>(_ literal: String, of value: F, else bitPattern: String) -> String {
        func readsBack(_ literal: String) -> Bool {
            F(literal) == value && Double(literal).map { F($0) } == value && !DoubleRounding.changes(literal, value: value)
        }
        if readsBack(literal) { return literal }
        if readsBack("\(value)") { return "\(value)" }
        return bitPattern
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
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
    static func argument(_ label: String, _ value: DefaultValue, type: ValueType) -> (text: String, comment: String?) {
        let text = "\(label): \(expression(for: value, type: type))"
        // Most defaults hold no date: told without collecting an array of comments.
        guard holdsDate(value) else { return (text, nil) }
        return (text, dateComments(for: value).joined(separator: ", "))
    }

    /// Whether `value` is or holds a date (so ``dateComments(for:)`` is not empty).
    private static func holdsDate(_ value: DefaultValue) -> Bool {
        switch value {
        case .date: true
        case .array(let elements): elements.contains(where: holdsDate)
        case .dictionary(let entries): entries.contains { holdsDate($0.value) }
        default: false
        }
    }

    /// The seconds since 2001 of a date default, as a literal the compiler reads as the `Double`
    /// nearest the instant `text` names: its whole seconds and its fraction's digits written out
    /// (`794293567.123` for `2026-03-04T05:06:07.123Z`, `-1993.923` for `2000-12-31T23:26:46.077Z`),
    /// never summed or converted from seconds since 1970 in floating point, which rounds again
    /// (1772600767.123 - 978307200 is 794293567.1229999, a date the `iso8601` representation's
    /// `.123` does not read back equal to); a bit pattern where the compiler would round the
    /// decimal twice (``DoubleRounding``). `secondsSince1970` only for a text that is no ISO 8601
    /// date, which the manifest's checks never let through.
    static func dateLiteral(_ text: String, secondsSince1970: Double) -> String {
        guard let instant = ISO8601Date.instant(text) else {
            return secondsLiteral(secondsSince1970 - 978_307_200)
        }
        let literal = instant.secondsSinceReferenceDate
        // Whole seconds (most dates): an integer under 2^53, which every reader takes exactly.
        guard !instant.fractionDigits.isEmpty else { return literal }
        guard let value = Double(literal), value.isFinite, !value.isZero else { return literal }
        return readable(literal, of: value, else: "Swift.Double(bitPattern: 0x" + hex(value.bitPattern, digits: 16) + ")")
    }

    /// Seconds as a literal: `1767225600`, `1767225600.5`.
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

extension ValueType {
    /// The element type of an array, the value type of a dictionary; `nil` otherwise.
    fileprivate var elementType: ValueType? {
        switch self {
        case .array(let element), .dictionary(let element): element
        default: nil
        }
    }
}
