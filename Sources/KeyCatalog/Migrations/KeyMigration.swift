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

    /// What the migrator needs of a source, without its type.
    struct ErasedSource: Sendable {
        let fromKey: String
        let store: String
        /// The old stored value, read, transformed and encoded as the key stores it; `nil` when rejected.
        let migratedValue: @Sendable (PropertyListValue) throws -> PropertyListValue?
    }

    public init<Key: PersistentKeyProtocol>(name: String, key: Key, store: String, sources: [KeyMigrationSource<Key.Value>]) {
        self.name = name
        self.storageKey = key.id
        self.store = store
        self.sourceLocations = sources.map { ($0.fromKey, $0.store) }
        self.sources = sources.map { source in
            ErasedSource(fromKey: source.fromKey, store: source.store) { stored in
                guard let value = try source.read(stored) else { return nil }
                guard let encoded = try key.representation.persistentValue(for: value) else {
                    throw PersistentKeyValueEncodingError("the transformed value is nil, which the key cannot store")
                }
                try encoded.validateForPropertyList()
                return encoded
            }
        }
    }
}
