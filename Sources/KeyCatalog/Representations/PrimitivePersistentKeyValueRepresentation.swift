/// Stores a primitive as itself.
///
/// This is the representation of `Bool`, the integers, `Double`, `Float`, `String` and `Data`.
///
/// ```swift
/// let launchCount = PersistentKey("LaunchCount", defaultValue: 0,
///                                 representation: PrimitivePersistentKeyValueRepresentation<Int>())
/// ```
@frozen
public struct PrimitivePersistentKeyValueRepresentation<Value: PrimitiveKeyValuePersistible>: PersistentKeyValueRepresentation {
    /// Creates the representation; it has no settings.
    @inlinable
    public init() {}

    @inlinable
    public func persistentValue(for value: Value) throws -> PropertyListValue? {
        value.primitivePersistentValue
    }

    @inlinable
    public func value(from persistentValue: PropertyListValue) throws -> Value {
        try Value(primitivePersistentValue: persistentValue)
    }

    @inlinable
    public func _encodesExactly(_ value: Value) -> Bool {
        value._encodesExactly
    }
}
