#if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
import Foundation

// NSUbiquitousKeyValueStore as a store, as PersistentKeyValueKit's README uses it:
// `NSUbiquitousKeyValueStore.default.get(.key)`, `store: .ubiquitous`. Everything goes through the
// one UbiquitousKeyValueStore over the same object (iCloud's limits checked, changes observed).

extension NSUbiquitousKeyValueStore: PersistentKeyValueStore {
    /// The store KeyCatalog keeps over this object.
    private var keyCatalogStore: UbiquitousKeyValueStore { .shared(over: self) }

    public func persistentValue(forKey key: String) -> PropertyListValue? {
        keyCatalogStore.persistentValue(forKey: key)
    }

    public func hasPersistentValue(forKey key: String) -> Bool {
        keyCatalogStore.hasPersistentValue(forKey: key)
    }

    public func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
        try keyCatalogStore.setPersistentValue(value, forKey: key)
    }

    public func removePersistentValue(forKey key: String) throws {
        try keyCatalogStore.removePersistentValue(forKey: key)
    }

    public func registerPersistentValues(_ values: [String: PropertyListValue]) {
        keyCatalogStore.registerPersistentValues(values)
    }

    public func flushPersistentValues() throws {
        try keyCatalogStore.flushPersistentValues()
    }

    public var keyValueChanges: KeyValueChangeCenter { keyCatalogStore.keyValueChanges }

    public var persistentStoreDescription: String { keyCatalogStore.persistentStoreDescription }
}

extension PersistentKeyValueStore where Self == NSUbiquitousKeyValueStore {
    /// The iCloud key-value store, `NSUbiquitousKeyValueStore.default`.
    ///
    /// ```swift
    /// @PersistentValue(.isAppStoreRatingEnabled, store: .ubiquitous) var isAppStoreRatingEnabled
    /// ```
    public static var ubiquitous: NSUbiquitousKeyValueStore { .default }
}
#endif
