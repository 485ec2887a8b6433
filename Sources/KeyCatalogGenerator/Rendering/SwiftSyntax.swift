/// Spelling Swift: identifiers escaped when they are keywords, string literals escaped so
/// nothing in the manifest can interpolate or break out, and text split into comment lines.
enum SwiftSyntax {
    /// Words that must be written in backticks to be used as a name.
    ///
    /// The linter already rejects the names that stay unusable even in backticks (`self`, `init`,
    /// `Type`...); everything else here is escaped wherever the name appears.
    /// (`isolated`, `__owned`, `__shared` and `_const` as a type at the end of a line, as in
    /// `var theme: isolated`, are read as specifiers of the next line's declaration.)
    static let keywords: Set<String> = SwiftIdentifier.keywords.union([
        "actor", "async", "borrowing", "consuming", "each", "macro", "nonisolated", "sending",
        "isolated", "__owned", "__shared", "_const",
    ])

    /// `name`, in backticks when it is a keyword: `` `default` ``, `launchCount`.
    static func identifier(_ name: String) -> String {
        isKeyword(name) ? "`\(name)`" : name
    }

    /// `true` for a name in ``keywords``. Every keyword is 15 ASCII letters and `_` or fewer, so
    /// most names (`key12`, long ones) are told apart without hashing.
    static func isKeyword(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard utf8.count <= 15, utf8.allSatisfy({ $0 == UInt8(ascii: "_") || ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }) else { return false }
        return keywords.contains(name)
    }

    /// `name` as an argument label at a call site: keywords need no backticks there (the
    /// compiler warns about them), except `inout`.
    static func argumentLabel(_ name: String) -> String {
        name == "inout" ? "`inout`" : name
    }

    /// A Swift string literal with the exact contents of `text`: `"a \"b\"\n"`.
    ///
    /// Backslashes are doubled (so a manifest's `\(` stays text), quotes and control characters
    /// are escaped, and invisible or direction-changing characters are written as `\u{…}` so
    /// the generated file shows what it stores.
    static func stringLiteral(_ text: String) -> String {
        "\"" + escaped(text) + "\""
    }

    /// Writes ``stringLiteral(_:)`` of `text` into `writer`'s current line.
    static func writeStringLiteral(_ text: String, into writer: inout CodeWriter) {
        writer.write("\"")
        writer.write(escaped(text))
        writer.write("\"")
    }

    /// The contents of a string literal for `text`, without the quotes.
    static func escaped(_ text: String) -> String {
        // Most text is plain printable ASCII and needs nothing.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"") }) {
            return text
        }
        var result = ""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if needsEscape(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `true` for scalars that are not plain visible text: controls, format characters (direction
    /// overrides, zero-width joiners), line and paragraph separators, private use and unassigned.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate:
            return true
        default:
            return false
        }
    }

    /// The lines of `text` (split at `\n`, `\r\n` and `\r`), for `///` and `//` comments; other
    /// control characters are written as `\u{0}`, so a comment never holds one.
    static func lines(of text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" && previousWasCarriageReturn {
                previousWasCarriageReturn = false
                continue
            }
            previousWasCarriageReturn = scalar == "\r"
            if scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}" {
                lines.append(current)
                current = ""
            } else if scalar.properties.generalCategory == .control, scalar != "\t" {
                // A control character (NUL above all) breaks the comment or the compiler: show it.
                current += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        lines.append(current)
        return lines
    }

    /// `text` with its first character uppercased, for derived names: `selectedLayoutID` ->
    /// `SelectedLayoutID`.
    static func capitalized(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}
