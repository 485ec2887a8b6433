/// The Swift type of a key's value (`type` in the manifest).
///
/// ```json
/// { "name": "retryCount", "type": "Int", "default": 3 }
/// { "name": "recentSearches", "type": "[String]", "default": [] }
/// { "name": "lastOpened", "type": "Date?", "default": null }
/// ```
///
/// `description` gives the manifest's spelling back: `[String: Int]?`.
public indirect enum ValueType: Sendable, Hashable, CustomStringConvertible {
    /// `Bool`.
    case bool
    /// `Int`, `Int8`, `Int16`, `Int32`, `Int64`.
    case int, int8, int16, int32, int64
    /// `UInt`, `UInt8`, `UInt16`, `UInt32`, `UInt64`.
    case uint, uint8, uint16, uint32, uint64
    /// `Double`, `Float`.
    case double, float
    /// `String`, `Data`, `Date`, `URL`, `UUID`.
    case string, data, date, url, uuid
    /// `[Element]`.
    case array(ValueType)
    /// `[String: Value]`; keys are always `String`.
    case dictionary(ValueType)
    /// `Wrapped?`.
    case optional(ValueType)
    /// An enum declared under `types`, by name.
    case declaredEnum(String)
    /// Any other Swift type, spelled as written (`Locale`, `Foundation.Locale`, `Set<String>`).
    /// It must conform to `KeyValuePersistible` or name a representation, and its default is a
    /// `{ "swift": "..." }` expression.
    case custom(String)

    /// The built-in scalar types by manifest spelling, in documentation order.
    public static let scalars: [(name: String, type: ValueType)] = [
        ("Bool", .bool),
        ("Int", .int), ("Int8", .int8), ("Int16", .int16), ("Int32", .int32), ("Int64", .int64),
        ("UInt", .uint), ("UInt8", .uint8), ("UInt16", .uint16), ("UInt32", .uint32), ("UInt64", .uint64),
        ("Double", .double), ("Float", .float),
        ("String", .string), ("Data", .data), ("Date", .date), ("URL", .url), ("UUID", .uuid),
    ]

    /// The built-in scalar type with this manifest spelling (`"Int8"` -> ``int8``).
    public static func scalar(named name: String) -> ValueType? {
        scalars.first { $0.name == name }?.type
    }

    /// The Swift spelling, as in the manifest: `Int`, `[String]`, `[String: Date]?`, `Theme`.
    public var description: String {
        switch self {
        case .array(let element): "[\(element)]"
        case .dictionary(let value): "[String: \(value)]"
        case .optional(let wrapped):
            if case .optional = wrapped { "(\(wrapped))?" } else { "\(wrapped)?" }
        case .declaredEnum(let name), .custom(let name): name
        default: Self.scalars.first { $0.type == self }!.name
        }
    }

    /// `true` for `Optional`.
    public var isOptional: Bool {
        if case .optional = self { true } else { false }
    }

    /// The wrapped type of an optional; the type itself otherwise.
    public var nonOptional: ValueType {
        if case .optional(let wrapped) = self { wrapped } else { self }
    }

    /// `true` for the fixed-width and word-sized integer types.
    public var isInteger: Bool {
        switch self {
        case .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64: true
        default: false
        }
    }

    /// `true` for `Double` and `Float`.
    public var isFloatingPoint: Bool {
        self == .double || self == .float
    }
}
