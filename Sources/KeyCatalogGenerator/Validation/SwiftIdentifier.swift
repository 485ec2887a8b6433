/// What the manifest accepts as a Swift name.
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

    /// `true` for a letter or `_` followed by letters, digits or `_`.
    ///
    /// ```swift
    /// SwiftIdentifier.isValid("launchCount") // true
    /// SwiftIdentifier.isValid("launch-count") // false
    /// ```
    static func isValid(_ name: String) -> Bool {
        // ASCII names (nearly all) are checked byte by byte, without Unicode properties.
        let utf8 = name.utf8
        if let first = utf8.first, utf8.allSatisfy({ $0 < 0x80 }) {
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
            func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
            let underscore = UInt8(ascii: "_")
            return (first == underscore || isLetter(first)) && utf8.allSatisfy { $0 == underscore || isLetter($0) || isDigit($0) }
        }
        guard let first = name.first, first == "_" || first.isLetter else { return false }
        return name.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber && $0.isASCII }
    }

    /// A camel-cased identifier made from `name`, to suggest as a fix (`launch-count` -> `launchCount`).
    static func suggestion(for name: String) -> String? {
        var result = ""
        var upperNext = false
        for character in name {
            if character.isLetter || (character.isNumber && character.isASCII) || character == "_" {
                result.append(upperNext && !result.isEmpty ? Character(character.uppercased()) : character)
                upperNext = false
            } else {
                upperNext = true
            }
        }
        if let first = result.first, first.isNumber { result = "_" + result }
        return result.isEmpty || result == name ? nil : result
    }
}
