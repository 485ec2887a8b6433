/// Stores a value as the `String` of its `LosslessStringConvertible` conformance.
///
/// ```swift
/// extension Character: KeyValuePersistible {
///     static var persistentKeyValueRepresentation: some PersistentKeyValueRepresentation<Self> {
///         LosslessStringConvertiblePersistentKeyValueRepresentation()
///     }
/// }
/// ```
public struct LosslessStringConvertiblePersistentKeyValueRepresentation<Value: LosslessStringConvertible>: PersistentKeyValueRepresentation {
    /// Creates the representation; it has no settings.
    @inlinable
    public init() {}

    @inlinable
    public func persistentValue(for value: Value) throws -> PropertyListValue? {
        .string(value.description)
    }

    @inlinable
    public func value(from persistentValue: PropertyListValue) throws -> Value {
        let string = try String(primitivePersistentValue: persistentValue)
        // `Character.init(_:)` traps on anything but one grapheme cluster instead of returning nil.
        if Value.self == Character.self, string.count != 1 {
            throw PersistentKeyValueDecodingError(expectedType: "Character", found: "string '\(string)' that is not one character")
        }
        guard let value = Value(string) else {
            throw PersistentKeyValueDecodingError(
                expectedType: String(describing: Value.self),
                found: "string '\(string)' that does not parse"
            )
        }
        return value
    }
}
