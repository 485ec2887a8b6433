import Foundation

/// What the manifest accepts as a Swift name: exactly the identifier grammar of The Swift
/// Programming Language (Lexical Structure), compared by Unicode scalars as the compiler does.
enum SwiftIdentifier {
    /// Keywords that cannot name a type, even escaped.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "package", "Type", "Protocol", "some", "any",
    ]

    /// Names that stay unusable as members even in backticks.
    static let reservedMemberNames: Set<String> = ["self", "Self", "Type", "Protocol", "init", "_"]

    /// The scalars that may begin an identifier (`identifier-head`), besides `A`–`Z`, `a`–`z`
    /// and `_`: the grammar's, but U+FFF9–U+FFFD (interlinear annotations, the object and the
    /// replacement characters), which the compiler refuses as "invalid character in source file".
    static let headRanges: [ClosedRange<UInt32>] =
        [
            0xA8...0xA8, 0xAA...0xAA, 0xAD...0xAD, 0xAF...0xAF, 0xB2...0xB5, 0xB7...0xBA,
            0xBC...0xBE, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF,
            0x100...0x2FF, 0x370...0x167F, 0x1681...0x180D, 0x180F...0x1DBF,
            0x1E00...0x1FFF,
            0x200B...0x200D, 0x202A...0x202E, 0x203F...0x2040, 0x2054...0x2054, 0x2060...0x206F,
            0x2070...0x20CF, 0x2100...0x218F, 0x2460...0x24FF, 0x2776...0x2793,
            0x2C00...0x2DFF, 0x2E80...0x2FFF,
            0x3004...0x3007, 0x3021...0x302F, 0x3031...0x303F, 0x3040...0xD7FF,
            0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFDF0...0xFE1F, 0xFE30...0xFE44,
            0xFE47...0xFFF8,
        ] + (1...14).map { plane in (plane << 16)...((plane << 16) | 0xFFFD) }

    /// The scalars that may follow the first (`identifier-character`), besides `0`–`9` and the
    /// head scalars: combining marks.
    static let continuationRanges: [ClosedRange<UInt32>] = [0x300...0x36F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F]

    /// `true` for a scalar that may begin an identifier.
    static func isHead(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 {
            return value == 0x5F || (value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A
        }
        return headRanges.contains { $0.contains(value) }
    }

    /// `true` for a scalar that may appear after the first.
    static func isCharacter(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value >= 0x30 && value <= 0x39 { return true }
        return isHead(scalar) || continuationRanges.contains { $0.contains(value) }
    }

    /// `true` when `name` is an identifier by Swift's grammar: an `identifier-head` scalar
    /// followed by `identifier-character` scalars.
    ///
    /// ```swift
    /// SwiftIdentifier.isValid("launchCount") // true
    /// SwiftIdentifier.isValid("café")        // true
    /// SwiftIdentifier.isValid("launch-count") // false
    /// SwiftIdentifier.isValid("a\u{2E2F}")   // false: U+2E2F is lexed as an operator
    /// ```
    static func isValid(_ name: String) -> Bool {
        var scalars = name.unicodeScalars.makeIterator()
        guard let first = scalars.next(), isHead(first) else { return false }
        while let scalar = scalars.next() {
            guard isCharacter(scalar) else { return false }
        }
        return true
    }

    /// Why `name` is not an identifier when the culprit is not ASCII (an ASCII one is plain to
    /// see), for messages: `'ͅ' (U+0345) cannot begin a Swift identifier`; otherwise `nil`.
    static func problem(in name: String) -> String? {
        for (offset, scalar) in name.unicodeScalars.enumerated() {
            let allowed = offset == 0 ? isHead(scalar) : isCharacter(scalar)
            guard !allowed else { continue }
            guard !scalar.isASCII else { return nil }
            let code = scalar.codePoint
            let shown = scalar.properties.generalCategory == .spaceSeparator || scalar.value < 0x21 || scalar.value == 0x7F ? code : "'\(scalar)' (\(code))"
            return offset == 0 && isCharacter(scalar) ? "\(shown) cannot begin a Swift identifier" : "\(shown) cannot appear in a Swift identifier"
        }
        return nil
    }

    /// The identifier grammar as an ECMA-262 regular expression with the `u` flag (as JSON
    /// Schema validators use), for the published schema: `^[A-Z_a-z\u00A8…][0-9A-Z_a-z…]*$`.
    static var pattern: String {
        func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return value > 0xFFFF ? "\\u{\(digits)}" : "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        func set(_ ranges: [ClosedRange<UInt32>]) -> String {
            ranges.map { $0.lowerBound == $0.upperBound ? hex($0.lowerBound) : hex($0.lowerBound) + "-" + hex($0.upperBound) }.joined()
        }
        let head = "A-Z_a-z" + set(headRanges)
        return "^[\(head)][0-9\(head)\(set(continuationRanges))]*$"
    }

    /// A camel-cased identifier made from `name`, to suggest as a fix (`launch-count` -> `launchCount`).
    static func suggestion(for name: String) -> String? {
        var result = String.UnicodeScalarView()
        var upperNext = false
        for scalar in name.unicodeScalars {
            if result.isEmpty ? isHead(scalar) : isCharacter(scalar) {
                if upperNext, !result.isEmpty {
                    result.append(contentsOf: String(scalar).uppercased().unicodeScalars)
                } else {
                    result.append(scalar)
                }
                upperNext = false
            } else if result.isEmpty, isCharacter(scalar), ("0"..."9").contains(scalar) {
                result.append("_")
                result.append(scalar)
            } else {
                upperNext = true
            }
        }
        let suggestion = String(result)
        return suggestion.isEmpty || suggestion.unicodeScalars.elementsEqual(name.unicodeScalars) ? nil : suggestion
    }
}

extension String {
    /// `true` when both strings hold the same Unicode scalars: how Swift compares identifiers
    /// (`String`'s `==` treats `café` in NFC and NFD as equal; the compiler does not).
    func isSameIdentifier(as other: String) -> Bool {
        unicodeScalars.elementsEqual(other.unicodeScalars)
    }

    /// The hint for a name that matches one of `declared` only after Unicode normalization:
    /// `'café' is declared with other Unicode scalars (U+0063 U+0061 U+0066 U+00E9); Swift tells them apart, so copy the declared spelling`.
    func normalizationHint(among declared: [String]) -> String? {
        guard let match = declared.first(where: { $0 == self && !$0.isSameIdentifier(as: self) }) else { return nil }
        let scalars = match.unicodeScalars.prefix(12).map(\.codePoint).joined(separator: " ")
        return "'\(match)' is declared with other Unicode scalars (\(scalars)); Swift tells them apart, so copy the declared spelling"
    }

    /// The name as a dictionary key that distinguishes what Swift distinguishes: its scalars.
    var identifierKey: [Unicode.Scalar] { Array(unicodeScalars) }
}
