import Observation

/// A key's value in a store, kept current and observable: the core of SwiftUI's `@PersistentValue`,
/// usable on its own wherever Observation is (Linux included).
///
/// ```swift
/// let model = PersistentValueModel(.launchCount, store: UserDefaults.standard)
/// withObservationTracking { _ = model.value } onChange: { print("changed") }
/// model.value += 1   // writes through to the store
/// ```
///
/// It follows the changes the store's observers see (``PersistentKeyValueStore/observe(_:_:)``):
/// those made through KeyCatalog, and on Apple platforms UserDefaults writes by other code and
/// processes and iCloud changes from other devices. It updates on the main actor.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@Observable
public final class PersistentValueModel<Key: PersistentKeyProtocol> {
    /// The value last read from the store.
    private var storedValue: Key.Value

    /// The key this model reads and writes.
    @ObservationIgnored public let key: Key
    /// The store the key lives in.
    @ObservationIgnored public private(set) var store: AnyPersistentKeyValueStore
    @ObservationIgnored private var observation: PersistentKeyObservation?

    /// A model of `key` in `store`: it observes the store for changes, then reads the value once
    /// (in that order, as ``use(_:)`` does: a write in between is read, or heard).
    public init(_ key: Key, store: some PersistentKeyValueStore) {
        let store = AnyPersistentKeyValueStore(store)
        self.key = key
        self.store = store
        self.storedValue = key.defaultValue
        self.observation = subscribe()
        self.storedValue = store.get(key)
    }

    /// The key's value; setting it writes to the store (a debug key in Release keeps its default).
    public var value: Key.Value {
        get { storedValue }
        set {
            store.set(key, to: newValue)
            storedValue = store.get(key)
        }
    }

    /// Follows another store from now on, if it differs from the current one.
    public func use(_ newStore: some PersistentKeyValueStore) {
        let newStore = AnyPersistentKeyValueStore(newStore)
        guard newStore.base !== store.base else { return }
        store = newStore
        observation = subscribe()
        storedValue = store.get(key)
    }

    private func subscribe() -> PersistentKeyObservation {
        let expectedStore = ObjectIdentifier(store.base)
        return store.observe(key) { [weak self] _ in
            // Re-read on the main actor, so the last hop always shows the latest value.
            Task { @MainActor in
                guard let self, ObjectIdentifier(self.store.base) == expectedStore else { return }
                self.storedValue = self.store.get(self.key)
            }
        }
    }
}
