/// A local store whose synced keys are written through a ``UbiquitousSyncEngine``: what
/// ``UbiquitousSyncEngine/attach(_:keys:)`` returns, wrapped. Reads, registration and observation
/// are the local store's own.
final class SyncedKeyValueStore: PersistentKeyValueStore, @unchecked Sendable {
    // @unchecked: the local store is required to be thread-safe (every built-in store is).
    let local: any PersistentKeyValueStore
    let engine: UbiquitousSyncEngine
    let keys: Set<String>

    init(local: any PersistentKeyValueStore, engine: UbiquitousSyncEngine, keys: Set<String>) {
        self.local = local
        self.engine = engine
        self.keys = keys
    }

    func persistentValue(forKey key: String) -> PropertyListValue? {
        local.persistentValue(forKey: key)
    }

    func hasPersistentValue(forKey key: String) -> Bool {
        local.hasPersistentValue(forKey: key)
    }

    func _hasPersistentValueIfKnown(forKey key: String) -> Bool? {
        local._hasPersistentValueIfKnown(forKey: key)
    }

    func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
        if keys.contains(key) {
            try engine.localWrite(value, forKey: key, in: local)
        } else {
            try local.setPersistentValue(value, forKey: key)
        }
    }

    func removePersistentValue(forKey key: String) throws {
        if keys.contains(key) {
            try engine.localWrite(nil, forKey: key, in: local)
        } else {
            try local.removePersistentValue(forKey: key)
        }
    }

    func registerPersistentValues(_ values: [String: PropertyListValue]) {
        local.registerPersistentValues(values)
    }

    func flushPersistentValues() throws {
        try local.flushPersistentValues()
    }

    var keyValueChanges: KeyValueChangeCenter { local.keyValueChanges }

    var persistentStoreDescription: String { local.persistentStoreDescription + ", synced through iCloud" }
}
