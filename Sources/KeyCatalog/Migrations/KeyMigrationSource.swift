/// Where a key's value may have lived before: an old storage key in some store, with its old
/// type and representation, and the conversion to the key's current type.
///
/// ```swift
/// // The value was an Int under "ThemeIndex"; it is a Theme now.
/// KeyMigrationSource<Theme>(
///     fromKey: "ThemeIndex",
///     store: "standard",
///     representation: Int.persistentKeyValueRepresentation,
///     transform: { index in Theme.allCases.indices.contains(index) ? Theme.allCases[index] : nil }
/// )
/// ```
public struct KeyMigrationSource<Value: Sendable>: Sendable {
    /// The old storage key.
    public let fromKey: String
    /// The name of the store the old value is in.
    public let store: String
    /// Reads the old stored value into the new type; `nil` when the transform rejects it.
    let read: @Sendable (PropertyListValue) throws -> Value?

    /// A source of another type: the old value is decoded with `representation`, then converted by
    /// `transform`, which returns `nil` to reject a value (it then stays where it is, reported).
    public init<OldRepresentation: PersistentKeyValueRepresentation>(
        fromKey: String,
        store: String,
        representation: OldRepresentation,
        transform: @escaping @Sendable (OldRepresentation.Value) -> Value?
    ) {
        self.fromKey = fromKey
        self.store = store
        self.read = { stored in transform(try representation.value(from: stored)) }
    }

    /// A source of the same type, perhaps stored through another representation.
    public init<OldRepresentation: PersistentKeyValueRepresentation>(
        fromKey: String,
        store: String,
        representation: OldRepresentation
    ) where OldRepresentation.Value == Value {
        self.fromKey = fromKey
        self.store = store
        self.read = { stored in try representation.value(from: stored) }
    }

    /// A source of the same type stored the way `key` stores it: a renamed key, or a key moved
    /// from another store.
    public init<Key: PersistentKeyProtocol>(fromKey: String, store: String, representationOf key: Key) where Key.Value == Value {
        self.fromKey = fromKey
        self.store = store
        let representation = key.representation
        self.read = { stored in try representation.value(from: stored) }
    }
}
