import Foundation

/// What `store` itself stores for `key`, which is what moves and syncs: `.some(nil)` when it
/// stores nothing. Never a registered default, nor a launch argument's value (`-Theme dark`:
/// UserDefaults reads it ahead of the stored one, but it was never written), nor another store's
/// (a catalog's wrapping, iCloud sync's local store is the one asked).
///
/// `nil` when the store cannot tell: beneath a launch argument in a suite whose domain
/// KeyCatalog does not know (``UserDefaults/storedValueBeneathLaunchArguments(forKey:)``), or a
/// file store's entry that cannot be read (kept in the file until the key is written; its reads
/// give the registered default).
func _storedValue(forKey key: String, in store: any PersistentKeyValueStore) -> PropertyListValue?? {
    let base = (store as? AnyPersistentKeyValueStore)?.base ?? store
    let store = (base as? SyncedKeyValueStore)?.local ?? base
    if let defaults = store as? UserDefaults, defaults.isOverriddenByLaunchArgument(key) {
        return defaults.storedValueBeneathLaunchArguments(forKey: key)
    }
    if let file = store as? FileKeyValueStore {
        return file.storedValueIfReadable(forKey: key)
    }
    return .some(store.hasPersistentValue(forKey: key) ? store.persistentValue(forKey: key) : nil)
}
