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
        members?.first { $0.name == name }
    }

    /// The value of the first member with this name.
    subscript(_ name: String) -> JSONValue? {
        member(name)?.value
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

extension String {
    /// The string cut to 60 characters with `…`, so a message stays one readable line.
    var truncatedForMessage: String {
        let flat = self.replacing("\n", with: "\\n")
        return flat.count <= 60 ? flat : String(flat.prefix(57)) + "…"
    }
}
