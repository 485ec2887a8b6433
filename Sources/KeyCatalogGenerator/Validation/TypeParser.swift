/// Reads a manifest `type` string into a ``ValueType``.
///
/// Grammar: `T?`, `[T]`, `[String: T]`, `Optional<T>`, `Array<T>`, `Dictionary<String, T>`, a
/// built-in scalar, a declared enum, or any other type name (dotted, with generic arguments).
///
/// ```swift
/// try TypeParser.parse("[String: Int]?", enums: []).get() // .optional(.dictionary(.int))
/// ```
struct TypeParser {
    /// Why a type string is malformed; `message` follows the house style.
    struct Failure: Error, Equatable {
        var message: String
    }

    /// Parses `text`; `enums` are the declared enum names.
    static func parse(_ text: String, enums: Set<String>) -> Result<ValueType, Failure> {
        var parser = TypeParser(scalars: Array(text.unicodeScalars), text: text, enums: enums)
        do throws(Failure) {
            parser.skipSpaces()
            let type = try parser.parseType(depth: 0)
            parser.skipSpaces()
            if parser.index < parser.scalars.count {
                throw parser.failure("unexpected '\(parser.rest)'")
            }
            return .success(type)
        } catch {
            return .failure(error)
        }
    }

    private let scalars: [Unicode.Scalar]
    private let text: String
    private let enums: Set<String>
    private var index = 0

    private init(scalars: [Unicode.Scalar], text: String, enums: Set<String>) {
        self.scalars = scalars
        self.text = text
        self.enums = enums
    }

    private var rest: String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[index...])
        return String(view)
    }

    private func failure(_ problem: String) -> Failure {
        Failure(message: "malformed type '\(text.truncatedForMessage)': \(problem); write a type such as 'Int', '[String]', '[String: Int]' or 'Date?'")
    }

    private mutating func parseType(depth: Int) throws(Failure) -> ValueType {
        guard depth < 32 else { throw failure("nested too deeply") }
        var type = try parsePrimary(depth: depth)
        skipSpaces()
        while peek == "?" {
            index += 1
            if case .optional = type {
                throw Failure(message: "nested optional '\(text.truncatedForMessage)' is not supported; a stored value is either present or absent, so use one '?'")
            }
            type = .optional(type)
            skipSpaces()
        }
        return type
    }

    private mutating func parsePrimary(depth: Int) throws(Failure) -> ValueType {
        skipSpaces()
        guard let first = peek else { throw failure(index == 0 ? "it is empty" : "expected a type at the end") }
        if first == "[" {
            index += 1
            let element = try parseType(depth: depth + 1)
            skipSpaces()
            if peek == ":" {
                index += 1
                let value = try parseType(depth: depth + 1)
                skipSpaces()
                guard peek == "]" else { throw failure("expected ']'") }
                index += 1
                return try dictionary(key: element, value: value)
            }
            guard peek == "]" else { throw failure("expected ']'") }
            index += 1
            return .array(element)
        }
        guard SwiftIdentifier.isHead(first) else {
            throw failure("unexpected '\(Character(first))'")
        }
        var name = try typeName()
        while peek == "." {
            index += 1
            guard let next = peek, SwiftIdentifier.isHead(next) else {
                throw failure("expected a name after '.'")
            }
            name += "." + (try typeName())
        }
        skipSpaces()
        var arguments: [ValueType] = []
        if peek == "<" {
            index += 1
            repeat {
                if peek == "," { index += 1 }
                arguments.append(try parseType(depth: depth + 1))
                skipSpaces()
            } while peek == ","
            guard peek == ">" else { throw failure("expected '>'") }
            index += 1
        }
        switch (name, arguments.count) {
        case ("Optional", 1), ("Swift.Optional", 1):
            if case .optional = arguments[0] {
                throw Failure(message: "nested optional '\(text.truncatedForMessage)' is not supported; a stored value is either present or absent, so use one '?'")
            }
            return .optional(arguments[0])
        case ("Array", 1), ("Swift.Array", 1): return .array(arguments[0])
        case ("Dictionary", 2), ("Swift.Dictionary", 2): return try dictionary(key: arguments[0], value: arguments[1])
        case (_, 0):
            let bare = name.hasPrefix("Swift.") || name.hasPrefix("Foundation.") ? String(name.split(separator: ".", maxSplits: 1)[1]) : name
            if let scalar = ValueType.scalar(named: bare) { return scalar }
            if enums.contains(where: { $0.isSameIdentifier(as: name) }) { return .declaredEnum(name) }
            return .custom(name)
        default:
            return .custom(name + "<" + arguments.map(\.description).joined(separator: ", ") + ">")
        }
    }

    private func dictionary(key: ValueType, value: ValueType) throws(Failure) -> ValueType {
        guard key == .string else {
            throw Failure(message: "dictionary key type '\(key)' in '\(text.truncatedForMessage)' is not supported; stores only have String keys, so use '[String: \(value)]'")
        }
        return .dictionary(value)
    }

    /// One name of a type's path: `_` alone is Swift's placeholder for a type it infers, which
    /// no declaration can be named (in backticks it can, but a key's type must say which type).
    private mutating func typeName() throws(Failure) -> String {
        let name = identifier()
        if name == "_" {
            throw failure("'_' is Swift's placeholder for a type the compiler infers, not a type's name")
        }
        return name
    }

    private mutating func identifier() -> String {
        var view = String.UnicodeScalarView()
        // Swift's own identifier characters, as a declared type's name may hold (`Café` with a
        // combining accent, `Mood😀`).
        while let scalar = peek, SwiftIdentifier.isCharacter(scalar) {
            view.append(scalar)
            index += 1
        }
        return String(view)
    }

    private var peek: Unicode.Scalar? {
        index < scalars.count ? scalars[index] : nil
    }

    private mutating func skipSpaces() {
        while peek == " " { index += 1 }
    }
}
