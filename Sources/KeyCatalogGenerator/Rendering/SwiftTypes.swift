/// How manifest types are spelled in generated Swift: fully qualified standard types, so a user
/// type named `String` or `Data` cannot shadow them.
///
/// ```swift
/// SwiftTypes.name(of: .dictionary(.optional(.date))) // [Swift.String: Foundation.Date?]
/// ```
enum SwiftTypes {
    /// The Swift spelling of a value type.
    static func name(of type: ValueType) -> String {
        switch type {
        case .bool: "Swift.Bool"
        case .int: "Swift.Int"
        case .int8: "Swift.Int8"
        case .int16: "Swift.Int16"
        case .int32: "Swift.Int32"
        case .int64: "Swift.Int64"
        case .uint: "Swift.UInt"
        case .uint8: "Swift.UInt8"
        case .uint16: "Swift.UInt16"
        case .uint32: "Swift.UInt32"
        case .uint64: "Swift.UInt64"
        case .double: "Swift.Double"
        case .float: "Swift.Float"
        case .string: "Swift.String"
        case .data: "Foundation.Data"
        case .date: "Foundation.Date"
        case .url: "Foundation.URL"
        case .uuid: "Foundation.UUID"
        case .array(let element): "[\(name(of: element))]"
        case .dictionary(let value): "[Swift.String: \(name(of: value))]"
        case .optional(let wrapped): "\(name(of: wrapped))?"
        case .declaredEnum(let name): SwiftSyntax.identifier(name)
        case .custom(let name): typePath(name)
        }
    }

    /// A type of the app's own, each name in it in backticks when it is a keyword
    /// (`` `default` ``, `Outer.`class``, `Box<Outer.`default`>`); `Any`, `Self`, `Type` and
    /// `Protocol` keep their meaning. Generic arguments are otherwise written as the manifest
    /// spells them (`Box<Int>`).
    static func typePath(_ name: String) -> String {
        // Most names hold no keyword: a name is rebuilt only when one of its words is one.
        var words: [(range: Range<String.Index>, escaped: String)] = []
        var start: String.Index?
        func endWord(at end: String.Index) {
            guard let first = start else { return }
            start = nil
            let word = String(name[first..<end])
            guard !keptWords.contains(word), SwiftSyntax.isKeyword(word) else { return }
            words.append((first..<end, SwiftSyntax.identifier(word)))
        }
        let scalars = name.unicodeScalars
        for index in scalars.indices {
            if SwiftIdentifier.isCharacter(scalars[index]) {
                if start == nil { start = index }
            } else {
                endWord(at: index)
            }
        }
        endWord(at: name.endIndex)
        guard !words.isEmpty else { return name }
        var result = ""
        var last = name.startIndex
        for word in words {
            result += name[last..<word.range.lowerBound] + word.escaped
            last = word.range.upperBound
        }
        return result + name[last...]
    }

    /// Words of a type that keep their meaning unescaped.
    private static let keptWords: Set<String> = ["Any", "Self", "Type", "Protocol"]

    /// The manifest's spelling of a type, as `ValueType.description` gives it (`[String: Int]?`),
    /// without its table lookup: the registration table spells every key's type.
    static func manifestSpelling(of type: ValueType) -> String {
        switch type {
        case .bool: "Bool"
        case .int: "Int"
        case .int8: "Int8"
        case .int16: "Int16"
        case .int32: "Int32"
        case .int64: "Int64"
        case .uint: "UInt"
        case .uint8: "UInt8"
        case .uint16: "UInt16"
        case .uint32: "UInt32"
        case .uint64: "UInt64"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .data: "Data"
        case .date: "Date"
        case .url: "URL"
        case .uuid: "UUID"
        case .array(let element): "[" + manifestSpelling(of: element) + "]"
        case .dictionary(let value): "[String: " + manifestSpelling(of: value) + "]"
        case .optional(.optional(let wrapped)): "(" + manifestSpelling(of: .optional(wrapped)) + ")?"
        case .optional(let wrapped): manifestSpelling(of: wrapped) + "?"
        case .declaredEnum(let name), .custom(let name): name
        }
    }

    /// The Swift spelling of a storage-key parameter's type.
    static func name(of type: ParameterType) -> String {
        switch type {
        case .string: "Swift.String"
        case .int: "Swift.Int"
        case .uuid: "Foundation.UUID"
        }
    }

    /// The key type of a declaration: `KeyCatalog.PersistentKey<Swift.Int>` or, for a key with
    /// debug and release defaults, `KeyCatalog.PersistentDebugKey<Swift.Bool>`.
    static func keyType(of key: KeyDeclaration) -> String {
        keyType(of: key.type, isDebugKey: key.isDebugKey)
    }

    /// ``keyType(of:)`` of a key of `type`, with debug and release defaults or not.
    static func keyType(of type: ValueType, isDebugKey: Bool) -> String {
        let kind = isDebugKey ? "KeyCatalog.PersistentDebugKey" : "KeyCatalog.PersistentKey"
        return "\(kind)<\(name(of: type))>"
    }

    /// Writes ``keyType(of:)`` into `writer`'s current line.
    static func writeKeyType(of key: KeyDeclaration, into writer: inout CodeWriter) {
        writer.write(key.isDebugKey ? "KeyCatalog.PersistentDebugKey<" : "KeyCatalog.PersistentKey<")
        writer.write(name(of: key.type))
        writer.write(">")
    }

    /// The representation a key names, as an expression for its value type (for an optional,
    /// its wrapped type); `nil` when the key uses its type's own conformance (`native` or none).
    static func representation(_ representation: Representation?, for type: ValueType) -> String? {
        let valueType = name(of: type.nonOptional)
        switch representation {
        case nil, .native?:
            return nil
        case .rawValue?:
            return "KeyCatalog.RawRepresentablePersistentKeyValueRepresentation<\(valueType)>()"
        case .codable?:
            return "KeyCatalog.CodablePersistentKeyValueRepresentation<\(valueType), Foundation.JSONEncoder, Foundation.JSONDecoder>()"
        case .string?:
            return "KeyCatalog.LosslessStringConvertiblePersistentKeyValueRepresentation<\(valueType)>()"
        case .iso8601?:
            return "KeyCatalog.ISO8601DatePersistentKeyValueRepresentation()"
        case .timeInterval?:
            return "KeyCatalog.TimeIntervalDatePersistentKeyValueRepresentation()"
        }
    }
}

extension KeyDeclaration {
    /// `true` for a key with `debugDefault` and `releaseDefault`.
    var isDebugKey: Bool {
        if case .debugRelease = self.default { true } else { false }
    }
}
