/// A key and the older places its value may be found: renamed keys, changed types, other stores.
///
/// Generated catalogs build these from the `migrations` of keys.json; ``KeyMigrator`` runs them.
///
/// ```swift
/// KeyMigration(
///     name: "launchCount",
///     key: PersistentKey<Int>("LaunchCount", defaultValue: 0),
///     store: "standard",
///     sources: [KeyMigrationSource(fromKey: "launches", store: "standard", representation: Int.persistentKeyValueRepresentation)]
/// )
/// ```
public struct KeyMigration: Sendable {
    /// The key's name in the catalog.
    public let name: String
    /// The key's storage key.
    public let storageKey: String
    /// The name of the key's store.
    public let store: String
    /// The sources, as (old storage key, store name), in the order they are tried.
    public let sourceLocations: [(fromKey: String, store: String)]

    let sources: [ErasedSource]

    /// Whether a stored value already reads as the key's type through the key's representation.
    ///
    /// A source at the key's own storage key in the key's own store (a type or representation
    /// changed in place) is converted only when this is false: a value the key can read is taken
    /// to be migrated already, which keeps a rerun from converting it twice.
    let isCurrent: @Sendable (PropertyListValue) -> Bool

    /// What the migrator needs of a source, without its type.
    struct ErasedSource: Sendable {
        let fromKey: String
        let store: String
        /// The old stored value, read, transformed and encoded as the key stores it.
        let convert: @Sendable (PropertyListValue) -> Conversion
    }

    /// What became of a source's stored value.
    enum Conversion {
        /// Read, transformed and encoded as the key stores it.
        case converted(PropertyListValue)
        /// The transform returned `nil`.
        case rejected
        /// The old type's representation could not read it.
        case unreadable(any Error)
        /// The transformed value could not be encoded as the key stores it.
        case unstorable(any Error)
    }

    /// A migration of `key` (in the store named `store`) from `sources`, tried in order; `name` is the key's name in reports.
    public init<Key: PersistentKeyProtocol>(name: String, key: Key, store: String, sources: [KeyMigrationSource<Key.Value>]) {
        self.name = name
        self.storageKey = key.id
        self.store = store
        self.sourceLocations = sources.map { ($0.fromKey, $0.store) }
        self.isCurrent = { stored in (try? key.representation.value(from: stored)) != nil }
        self.sources = sources.map { source in
            ErasedSource(fromKey: source.fromKey, store: source.store) { stored in
                let value: Key.Value
                do {
                    guard let read = try source.read(stored) else { return .rejected }
                    value = read
                } catch {
                    return .unreadable(error)
                }
                do {
                    guard let encoded = try key.representation.persistentValue(for: value) else {
                        throw PersistentKeyValueEncodingError("the key stores the transformed value as nothing (nil)")
                    }
                    try encoded.validateForPropertyList()
                    return .converted(encoded)
                } catch {
                    return .unstorable(error)
                }
            }
        }
    }
}
