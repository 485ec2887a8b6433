/// How a value is written to its store (`representation` in the manifest).
///
/// When a key names none, its type's own `KeyValuePersistible` conformance decides
/// (`native` for primitives and collections of them, `rawValue` for declared enums).
///
/// ```json
/// { "name": "lastSync", "type": "Date", "default": "2024-01-01T00:00:00Z", "representation": "iso8601" }
/// ```
public enum Representation: String, Sendable, Hashable, CaseIterable {
    /// The store's own property-list types (Bool, numbers, String, Data, Date, arrays, dictionaries).
    case native
    /// A `RawRepresentable`'s raw value.
    case rawValue
    /// JSON through `Codable`.
    case codable
    /// `LosslessStringConvertible`: `description` out, `init(_:)` back.
    case string
    /// A `Date` as ISO 8601 text.
    case iso8601
    /// A `Date` as seconds since 2001-01-01 (`timeIntervalSinceReferenceDate`, a `Double`): `Date`'s usual representation.
    case timeInterval
}
