/// A type that can be kept in a key-value store.
///
/// Conform by naming the representation that stores the type:
///
/// ```swift
/// enum RuntimeColorScheme: String {
///     case dark, light, system
/// }
///
/// extension RuntimeColorScheme: KeyValuePersistible {
///     static var persistentKeyValueRepresentation: some PersistentKeyValueRepresentation<Self> {
///         RawRepresentablePersistentKeyValueRepresentation()
///     }
/// }
/// ```
///
/// The primitives (`Bool`, the integers, `Double`, `Float`, `String`, `Data`) are stored as
/// themselves; `Date`, `URL`, `UUID`, `Optional`, `Array` and `Dictionary` are stored through
/// representations built on them.
public protocol KeyValuePersistible: Sendable {
    /// The type of this type's usual representation.
    associatedtype PersistentKeyValueRepresentationType: PersistentKeyValueRepresentation<Self>

    /// How values of this type are stored unless a key names another representation.
    static var persistentKeyValueRepresentation: PersistentKeyValueRepresentationType { get }
}

/// A type that every store keeps natively: a property-list primitive.
///
/// Conforming a type of your own is possible but rarely wise: there is no proxy then, and the
/// value must convert to a ``PropertyListValue`` by hand.
public protocol PrimitiveKeyValuePersistible: KeyValuePersistible {
    /// The stored form of this value.
    var primitivePersistentValue: PropertyListValue { get }

    /// Reads a stored value, or throws ``PersistentKeyValueDecodingError``.
    init(primitivePersistentValue: PropertyListValue) throws

    /// Whether ``primitivePersistentValue`` is certainly a valid property-list value that reads
    /// back as this very value, decided cheaply (see
    /// ``PersistentKeyValueRepresentation/_encodesExactly(_:)``). `false` by default; the
    /// library's primitives say `true`, a string unless it may hold a character a property list
    /// refuses.
    var _encodesExactly: Bool { get }
}

extension PrimitiveKeyValuePersistible {
    public var _encodesExactly: Bool { false }

    /// Stores the value natively, as its ``PrimitiveKeyValuePersistible/primitivePersistentValue``.
    @inlinable
    public static var persistentKeyValueRepresentation: PrimitivePersistentKeyValueRepresentation<Self> {
        PrimitivePersistentKeyValueRepresentation()
    }
}
