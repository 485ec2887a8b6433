import Foundation

/// What `store` itself stores for `key`, which is what moves and syncs: `.some(nil)` when it
/// stores nothing. Never a registered default, nor a launch argument's value (`-Theme dark`:
/// UserDefaults reads it ahead of the stored one, but it was never written), nor another store's
/// (a catalog's wrapping, iCloud sync's local store is the one asked).
///
/// `nil` when the store cannot tell: beneath a launch argument in a suite whose domain
/// KeyCatalog does not know (``UserDefaults/storedValueBeneathLaunchArguments(forKey:)``), an
/// entry that cannot be read (a file store's that does not parse, kept in the file until the key
/// is written; a keychain item that does not decode), whose reads give the registered default,
/// or a store that refuses to say (a locked keychain).
func _storedValue(forKey key: String, in store: any PersistentKeyValueStore) -> PropertyListValue?? {
    let store = _unwrappedStore(store)
    if let defaults = store as? UserDefaults, defaults.isOverriddenByLaunchArgument(key) {
        return defaults.storedValueBeneathLaunchArguments(forKey: key)
    }
    if let file = store as? FileKeyValueStore {
        return file.storedValueIfReadable(forKey: key)
    }
    if let keychain = store as? KeychainKeyValueStore {
        return keychain.storedValueIfReadable(forKey: key)
    }
    guard let isStored = store._hasPersistentValueIfKnown(forKey: key) else { return nil }
    return .some(isStored ? store.persistentValue(forKey: key) : nil)
}

/// What a removal of a value that must still be the one read found.
enum _ConditionalRemoval {
    /// The store held it, and no longer does.
    case removed
    /// The store holds nothing for the key: another thread or process removed it (a migration
    /// of the same key that finished first).
    case absent
    /// The store holds another value, written since (kept).
    case changed
}

/// Removes what `store` itself stores for `key` (as ``_storedValue(forKey:in:)`` reads it) if that
/// is still `expected`, bit for bit (``PropertyListValue/isIdentical(to:)``).
///
/// A file store checks and removes under its file's lock, so no write comes between. Other stores
/// are read again just before the removal: a write landing in between (microseconds) is removed.
/// A store that cannot tell what it holds (a locked keychain) is asked to remove the value, as an
/// unconditional removal would: it fails then, and says so.
func _removeStoredValue(forKey key: String, in store: any PersistentKeyValueStore, ifItHolds expected: PropertyListValue) throws -> _ConditionalRemoval {
    // A store iCloud syncs is not a file store here: its removal goes through the sync engine.
    if let file = ((store as? AnyPersistentKeyValueStore)?.base ?? store) as? FileKeyValueStore {
        return try file.removePersistentValue(forKey: key, ifStored: expected)
    }
    switch _storedValue(forKey: key, in: store) {
    case .some(nil): return .absent
    case .some(let held?) where !held.isIdentical(to: expected): return .changed
    default:
        try store.removePersistentValue(forKey: key)
        return .removed
    }
}

/// The store that holds the values: `store` without any ``AnyPersistentKeyValueStore`` wrapping,
/// and for a store iCloud syncs, its local store.
func _unwrappedStore(_ store: any PersistentKeyValueStore) -> any PersistentKeyValueStore {
    let base = (store as? AnyPersistentKeyValueStore)?.base ?? store
    return (base as? SyncedKeyValueStore)?.local ?? base
}
