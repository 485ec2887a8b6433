import Foundation

@testable import KeyCatalog

/// A device of a simulated fleet: its iCloud cache, its own local store, its own engine, and the
/// attached store the app writes through.
struct FleetDevice {
    let backend: SimulatedDevice
    let local: any PersistentKeyValueStore
    let engine: UbiquitousSyncEngine
    let store: AnyPersistentKeyValueStore
    let id: String

    /// The key's value as the app reads it.
    func get<Key: PersistentKeyProtocol>(_ key: Key) -> Key.Value { store.get(key) }

    /// The stamp of the local value of `key`.
    func stamp(_ key: String) -> UbiquitousSyncStamp? { engine._stamp(forKey: key, in: local) }

    /// What iCloud's cache on this device holds for `key`.
    func cloudEnvelope(_ key: String) -> UbiquitousSyncEnvelope? {
        UbiquitousSyncEnvelope(backend.cache.withLock { $0[UbiquitousSyncEngine.keyPrefix + key] })
    }
}

enum SyncKeys {
    static let theme = PersistentKey<String>("Theme", defaultValue: "light")
    static let fontSize = PersistentKey<Int>("FontSize", defaultValue: 12)
    static let volume = PersistentKey<Double>("Volume", defaultValue: 0.5)
    static let note = PersistentKey<String?>("Note", defaultValue: nil)
    static let localOnly = PersistentKey<Int>("LocalOnly", defaultValue: 0)
    static let synced = ["Theme", "FontSize", "Volume", "Note"]
}

extension SimulatedCloud {
    /// A device with its own local store (memory unless given) and engine, attached to the
    /// synced keys; its initial download is queued, not delivered.
    func makeDevice(
        _ id: String,
        local: any PersistentKeyValueStore = InMemoryKeyValueStore(),
        account: String = "person",
        clock: @escaping @Sendable () -> Date = ManualClock().reading(),
        keys: [String] = SyncKeys.synced,
        initialSyncTimeout: TimeInterval? = nil
    ) -> FleetDevice {
        let backend = addDevice(account: account)
        return relaunch(id, backend: backend, local: local, clock: clock, keys: keys, initialSyncTimeout: initialSyncTimeout)
    }

    /// A new engine (a new launch of the app) over an existing device's cache and local store.
    func relaunch(
        _ id: String,
        backend: SimulatedDevice,
        local: any PersistentKeyValueStore,
        clock: @escaping @Sendable () -> Date = ManualClock().reading(),
        keys: [String] = SyncKeys.synced,
        initialSyncTimeout: TimeInterval? = nil
    ) -> FleetDevice {
        let engine = UbiquitousSyncEngine(backend: backend, deviceID: id, clock: clock, initialSyncTimeout: initialSyncTimeout)
        let store = engine.attach(local, keys: keys)
        return FleetDevice(backend: backend, local: local, engine: engine, store: store, id: id)
    }
}
