import Foundation

/// Checks a JSON default against a key's type and converts it to a ``DefaultValue``.
///
/// ```swift
/// let checker = DefaultChecker(keyName: "volume", field: "default", enums: [:])
/// let (value, problems) = checker.check(json, as: .int8) // problems for 300: out of range
/// ```
struct DefaultChecker {
    /// One mismatch, at the JSON value at fault.
    struct Problem: Equatable {
        var message: String
        var location: SourceLocation
    }

    /// The key's name, for messages.
    var keyName: String
    /// `default`, `debugDefault` or `releaseDefault`.
    var field: String
    /// Declared enums by name: their case names in order.
    var enums: [String: [String]]

    /// Checks `value` against `type`; the value is `nil` when there are problems.
    func check(_ value: JSONValue, as type: ValueType) -> (DefaultValue?, [Problem]) {
        var problems: [Problem] = []
        let result = convert(value, as: type, path: "", problems: &problems)
        return (problems.isEmpty ? result : nil, problems)
    }

    private func subject(_ path: String) -> String {
        "\(field)\(path) for key '\(keyName)'"
    }

    /// `default[2] 'text' for key 'k'`.
    private func subject(_ path: String, quoting text: String) -> String {
        "\(field)\(path) '\(text.truncatedForMessage)' for key '\(keyName)'"
    }

    private func convert(_ value: JSONValue, as type: ValueType, path: String, problems: inout [Problem]) -> DefaultValue? {
        func fail(_ message: String) -> DefaultValue? {
            problems.append(Problem(message: message, location: value.location))
            return nil
        }
        func mismatch(_ expected: String, example: String) -> DefaultValue? {
            fail("\(subject(path)) is \(value.summary), expected \(expected) for type '\(type)'; write it like \(example)")
        }

        if let members = value.members, members.count == 1, members[0].name == "swift" {
            guard let expression = members[0].value.string else {
                return fail("'swift' in the \(subject(path)) is \(members[0].value.summary), expected a string of Swift source; write it like { \"swift\": \"Locale(identifier: \\\"en\\\")\" }")
            }
            guard !expression.allSatisfy(\.isWhitespace) else {
                // Reported by the empty-swift-expression rule.
                problems.append(Problem(message: "", location: members[0].value.location))
                return nil
            }
            return .swift(expression)
        }

        switch type {
        case .optional(let wrapped):
            if value.isNull { return .null }
            return convert(value, as: wrapped, path: path, problems: &problems)
        case _ where value.isNull:
            return fail("\(subject(path)) is null but type '\(type)' is not optional; make the type '\(type)?' or give a value")
        case .bool:
            guard let bool = value.bool else { return mismatch("true or false", example: "false") }
            return .bool(bool)
        case .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64:
            guard let text = value.number else { return mismatch("an integer", example: "0") }
            guard !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else {
                return fail("\(subject(path)) is \(text.truncatedForMessage), expected an integer for type '\(type)'; write it without a fraction or exponent, or use 'Double'")
            }
            guard let range = Self.integerRange(type), Self.integer(text, fitsIn: range) else {
                let range = Self.integerRange(type)!
                return fail("\(subject(path)) is \(text.truncatedForMessage), out of range for type '\(type)' (\(range.min)...\(range.max)); use a value in range or a wider type")
            }
            return .integer(text)
        case .double, .float:
            guard let text = value.number else { return mismatch("a number", example: "0.5") }
            let parsed = type == .float ? Float(text).map(Double.init) : Double(text)
            guard let parsed, parsed.isFinite else {
                return fail("\(subject(path)) is \(text.truncatedForMessage), too large for type '\(type)'; use a smaller number")
            }
            // A nonzero literal too small for the type would silently read as 0.
            let mantissa = text.prefix { $0 != "e" && $0 != "E" }
            guard parsed != 0 || !mantissa.contains(where: { ("1"..."9").contains($0) }) else {
                let wider = type == .float ? ", a larger number or 'Double'" : " or a larger number"
                return fail("\(subject(path)) is \(text.truncatedForMessage), too small for type '\(type)', which would store 0; use 0\(wider)")
            }
            return .floating(text)
        case .string:
            guard let text = value.string else { return mismatch("a string", example: "\"\"") }
            return .string(text)
        case .data:
            guard let text = value.string else { return mismatch("a base64 string", example: "\"AAEC\"") }
            guard Data(base64Encoded: text) != nil else {
                return fail("\(subject(path, quoting: text)) is not valid base64 for type 'Data'; encode the bytes as base64 with padding, as in \"AAEC\"")
            }
            return .data(base64: text)
        case .date:
            guard let text = value.string else { return mismatch("an ISO 8601 string", example: "\"2024-01-01T00:00:00Z\"") }
            guard let seconds = ISO8601Date.secondsSince1970(text) else {
                return fail("\(subject(path, quoting: text)) is not an ISO 8601 date with a time and a zone; write it like \"2024-01-01T00:00:00Z\"")
            }
            return .date(iso8601: text, secondsSince1970: seconds)
        case .url:
            guard let text = value.string else { return mismatch("a URL string", example: "\"https://example.com\"") }
            // Checked here, not by the host's `URL(string:)`: newer Foundations encode what older
            // ones (an app's minimum OS) refuse, where the generated `URL(string:)!` would crash.
            if let problem = Self.urlProblem(text) {
                return fail("\(subject(path, quoting: text)) \(problem)")
            }
            guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else {
                return fail("\(subject(path, quoting: text)) is not an absolute URL; include the scheme, as in \"https://example.com\"")
            }
            return .url(text)
        case .uuid:
            guard let text = value.string else { return mismatch("a UUID string", example: "\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"") }
            guard UUID(uuidString: text) != nil else {
                return fail("\(subject(path, quoting: text)) is not a UUID; write it like \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"")
            }
            return .uuid(text)
        case .array(let element):
            guard let elements = value.elements else { return mismatch("an array", example: "[]") }
            var converted: [DefaultValue] = []
            for (offset, item) in elements.enumerated() {
                if let value = convert(item, as: element, path: path + "[\(offset)]", problems: &problems) {
                    converted.append(value)
                }
            }
            return .array(converted)
        case .dictionary(let valueType):
            guard let members = value.members else { return mismatch("an object", example: "{}") }
            var entries: [DefaultValue.Entry] = []
            for member in members {
                let path = path + "[\"\(member.name.truncatedForMessage)\"]"
                if let value = convert(member.value, as: valueType, path: path, problems: &problems) {
                    entries.append(DefaultValue.Entry(key: member.name, value: value))
                }
            }
            return .dictionary(entries)
        case .declaredEnum(let name):
            let cases = enums[name] ?? []
            guard let text = value.string else {
                return mismatch("a case name of \(name)", example: cases.first.map { "\"\($0)\"" } ?? "\"caseName\"")
            }
            guard cases.isEmpty || cases.contains(where: { $0.isSameIdentifier(as: text) }) else {
                let hint =
                    text.normalizationHint(among: cases) ?? NearMiss.suggestion(for: text, among: cases).map { "did you mean '\($0)'?" }
                    ?? "expected one of " + cases.prefix(8).map { "'\($0)'" }.joined(separator: ", ")
                return fail("\(subject(path, quoting: text)) is not a case of \(name); \(hint)")
            }
            return .enumCase(text)
        case .custom(let name):
            // The root cause of a literal here is usually an enum never declared, not the literal.
            // (A misspelled declared enum is the type rule's, which suppresses this check.)
            let isIdentifier = name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            if isIdentifier, let text = value.string ?? value.number {
                let literal = value.string != nil ? JSONText.quoted(text) : text
                let caseName = value.string.flatMap { SwiftIdentifier.isValid($0) ? $0 : nil }
                let swift = JSONText.quoted(caseName.map { "\(name).\($0)" } ?? "\(name)(…)")
                return fail(
                    "\(subject(path)) is \(literal.truncatedForMessage), but type '\(name)' is not declared in \"types\" (so it is taken as a Swift type of yours); "
                        + "declare it there as an enum with that case, or write the default as Swift, like { \"swift\": \(swift.truncatedForMessage) }"
                )
            }
            return fail("\(subject(path)) of custom type '\(name)' must be Swift source; write it like { \"swift\": \"\(name)()\" }")
        }
    }

    /// The bounds of an integer type as text-comparable values.
    static func integerRange(_ type: ValueType) -> (min: String, max: String)? {
        switch type {
        case .int, .int64: ("\(Int64.min)", "\(Int64.max)")
        case .int8: ("\(Int8.min)", "\(Int8.max)")
        case .int16: ("\(Int16.min)", "\(Int16.max)")
        case .int32: ("\(Int32.min)", "\(Int32.max)")
        case .uint, .uint64: ("0", "\(UInt64.max)")
        case .uint8: ("0", "\(UInt8.max)")
        case .uint16: ("0", "\(UInt16.max)")
        case .uint32: ("0", "\(UInt32.max)")
        default: nil
        }
    }

    /// `true` when the integer literal `text` lies within `range` (both given as decimal text).
    static func integer(_ text: String, fitsIn range: (min: String, max: String)) -> Bool {
        if text.hasPrefix("-") {
            guard let value = Int64(text), let minimum = Int64(range.min) else { return text == "-0" }
            return value >= minimum
        }
        guard let value = UInt64(text), let maximum = UInt64(range.max) else { return false }
        return value <= maximum
    }

    /// Why `text` is no URL every Foundation reads (RFC 3986: a character outside its set, a `%`
    /// not followed by two hexadecimal digits, a second `#`, or a `[` or `]` outside the host,
    /// where only an IP address takes them); `nil` when it is one.
    static func urlProblem(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        // The host: from the "//" after the scheme to the path, query or fragment that follows.
        let authority: Range<Int>? = {
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[(colon + 1)...].starts(with: Array("//".utf8)) else { return nil }
            let start = colon + 3
            let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
            return start..<end
        }()
        var fragment = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "#") {
                guard !fragment else { return "has a second '#' (the first starts the fragment); write it as %23" }
                fragment = true
            }
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]"), authority?.contains(index) != true {
                return "holds '\(Character(UnicodeScalar(byte)))' outside the host (only an IP address there takes brackets); write it as \(byte == UInt8(ascii: "[") ? "%5B" : "%5D")"
            }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return "has a '%' not followed by two hexadecimal digits; write a '%' itself as %25"
                }
                index += 3
                continue
            }
            if byte >= 0x80 || !urlCharacters[Int(byte)] {
                // Every byte before is ASCII, so a scalar starts here.
                let scalar = String(decoding: bytes[index...], as: UTF8.self).unicodeScalars.first!
                let encoded = String(scalar).utf8.map { "%" + String($0, radix: 16, uppercase: true).leftPaddedHex }.joined()
                return "holds '\(scalar.properties.isWhitespace ? " " : String(scalar))' (\(scalar.codePoint)), which a URL must percent-encode; write it as \(encoded)"
            }
            index += 1
        }
        return nil
    }

    /// By ASCII byte: whether RFC 3986 lets a URL hold it as itself (unreserved and reserved
    /// characters; `%` starts an escape).
    private static let urlCharacters: [Bool] = {
        var table = [Bool](repeating: false, count: 128)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=".utf8 { table[Int(byte)] = true }
        return table
    }()

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}

extension String {
    /// A one-digit hexadecimal byte with its leading zero.
    fileprivate var leftPaddedHex: String { count == 1 ? "0" + self : self }
}
