/// A JSON value as written in the manifest, with the position of its first character.
///
/// This is the raw decoded form: no manifest meaning yet. Objects keep every member in order,
/// duplicates included, so the linter can report them.
///
/// ```swift
/// let (value, _) = JSONParser.parse(Array(#"{"a": [1, true]}"#.utf8), file: "keys.json")
/// value?.member("a")?.location // keys.json:1:7
/// ```
struct JSONValue: Sendable, Equatable {
    /// What the value is.
    enum Kind: Sendable, Equatable {
        case null
        case bool(Bool)
        /// A number, as its literal text (`-1.5e3`), checked against JSON's grammar only.
        case number(String)
        case string(String)
        case array([JSONValue])
        case object([JSONMember])
    }

    var kind: Kind
    /// The position of the value's first character.
    var location: SourceLocation

    /// The string, if this is a string.
    var string: String? {
        if case .string(let value) = kind { value } else { nil }
    }

    /// The members, if this is an object.
    var members: [JSONMember]? {
        if case .object(let members) = kind { members } else { nil }
    }

    /// The elements, if this is an array.
    var elements: [JSONValue]? {
        if case .array(let elements) = kind { elements } else { nil }
    }

    /// The boolean, if this is `true` or `false`.
    var bool: Bool? {
        if case .bool(let value) = kind { value } else { nil }
    }

    /// The number's literal text, if this is a number.
    var number: String? {
        if case .number(let text) = kind { text } else { nil }
    }

    /// `true` for `null`.
    var isNull: Bool { kind == .null }

    /// The first member with this name, if this is an object that has one.
    func member(_ name: String) -> JSONMember? {
        memberIndex(name).map { members![$0] }
    }

    /// The value of the first member with this name.
    subscript(_ name: String) -> JSONValue? {
        guard case .object(let members) = kind, let index = memberIndex(name) else { return nil }
        return members[index].value
    }

    /// Where the first member with this name is, among ``members``. By index, so that no other
    /// member is copied on the way (rules look members up about 30 times a key).
    private func memberIndex(_ name: String) -> Int? {
        guard case .object(let members) = kind else { return nil }
        // Comparing lengths first is cheap and rules out most other members' names.
        let length = name.utf8.count
        for index in members.indices where members[index].name.utf8.count == length && members[index].name == name {
            return index
        }
        return nil
    }

    /// A phrase for messages: `a string`, `an object`, `the number 12`, `null`.
    var summary: String {
        switch kind {
        case .null: "null"
        case .bool(let value): "'\(value)'"
        case .number(let text): "the number \(text)"
        case .string(let text): "the string '\(text.truncatedForMessage)'"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One `"name": value` member of a JSON object.
struct JSONMember: Sendable, Equatable {
    /// The member's name, unescaped.
    var name: String
    /// The position of the name's opening quote.
    var nameLocation: SourceLocation
    /// The member's value.
    var value: JSONValue
}

/// The JSON kinds, for field schemas and messages.
enum JSONKind: String, Sendable {
    case null, bool = "boolean", number, string, array, object

    init(_ kind: JSONValue.Kind) {
        switch kind {
        case .null: self = .null
        case .bool: self = .bool
        case .number: self = .number
        case .string: self = .string
        case .array: self = .array
        case .object: self = .object
        }
    }

    /// `a string`, `an object`, `a boolean`.
    var phrase: String {
        switch self {
        case .null: "null"
        case .array, .object: "an \(rawValue)"
        default: "a \(rawValue)"
        }
    }
}

extension Unicode.Scalar {
    /// The scalar as messages name it: `U+00E9`.
    var codePoint: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

extension String {
    /// The string cut to 60 characters with `…`, control characters escaped (`\n`, `\u{0}`), so
    /// a message stays one readable line.
    var truncatedForMessage: String {
        let flat = escapedForMessage
        return flat.count <= 60 ? flat : String(flat.prefix(57)) + "…"
    }

    /// Whether `scalar` may end a line where a message is read: a control character, or U+2028
    /// LINE SEPARATOR or U+2029 PARAGRAPH SEPARATOR (found by a review: printed raw, they cut a
    /// diagnostic in two for line-based readers).
    static func breaksALine(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// The string with control characters and line separators written as escapes: `\n`, `\r`,
    /// `\t`, `\u{0}`, `\u{2028}`.
    var escapedForMessage: String {
        guard unicodeScalars.contains(where: Self.breaksALine) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where Self.breaksALine(scalar):
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A diagnostic message made safe to print: one line, and every quoted value ('…' or "…")
    /// longer than 60 characters cut with `…`, so a huge token is not echoed whole.
    var sanitizedForDiagnostic: String {
        let flat = escapedForMessage
        guard flat.utf8.count > 200 else { return flat }
        func cut(_ value: Substring) -> String { value.count <= 60 ? String(value) : String(value.prefix(57)) + "…" }
        func isWordy(_ character: Character?) -> Bool { character.map { $0.isLetter || $0.isNumber } ?? false }
        var result = ""
        var open: (quote: Character, start: String.Index)?
        var previous: Character?
        var index = flat.startIndex
        while index < flat.endIndex {
            let character = flat[index]
            let next = flat.index(after: index)
            let following = next < flat.endIndex ? flat[next] : nil
            if let current = open {
                // An apostrophe inside a word ("key's") neither opens nor closes a quote.
                if character == current.quote, current.quote == "\"" || !isWordy(following) {
                    result += cut(flat[current.start..<index]) + String(character)
                    open = nil
                }
            } else {
                result.append(character)
                if character == "\"" || character == "'" && !isWordy(previous) {
                    open = (character, next)
                }
            }
            previous = character
            index = next
        }
        if let current = open { result += cut(flat[current.start...]) }
        return result
    }
}
