/// Stores a `RawRepresentable` value as its raw value.
///
/// ```swift
/// enum NotificationFrequency: String {
///     case daily, weekly, monthly
/// }
///
/// extension NotificationFrequency: KeyValuePersistible {
///     static var persistentKeyValueRepresentation: some PersistentKeyValueRepresentation<Self> {
///         RawRepresentablePersistentKeyValueRepresentation()
///     }
/// }
/// ```
///
/// A stored raw value with no matching case reads as the key's default and is reported.
public struct RawRepresentablePersistentKeyValueRepresentation<Value: RawRepresentable>: PersistentKeyValueRepresentation
where Value.RawValue: KeyValuePersistible {
    /// Creates the representation; it has no settings.
    @inlinable
    public init() {}

    @inlinable
    public func persistentValue(for value: Value) throws -> PropertyListValue? {
        try Value.RawValue.persistentKeyValueRepresentation.persistentValue(for: value.rawValue)
    }

    @inlinable
    public func value(from persistentValue: PropertyListValue) throws -> Value {
        let rawValue = try Value.RawValue.persistentKeyValueRepresentation.value(from: persistentValue)
        guard let value = Value(rawValue: rawValue) else {
            throw PersistentKeyValueDecodingError(
                expectedType: String(describing: Value.self),
                found: "raw value '\(rawValue)' that matches no case"
            )
        }
        return value
    }

    /// As the raw value's representation decodes.
    public var _decodesAlike: Bool { Value.RawValue.persistentKeyValueRepresentation._decodesAlike }
}
