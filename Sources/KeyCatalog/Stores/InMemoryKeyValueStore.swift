/// A store that keeps values in memory, for tests and previews.
///
/// Values go through the same representations, property-list checks and debug-key rules as in the
/// persistent stores, so a value that would fail to encode in UserDefaults fails here too, and a
/// debug key in Release cannot be written.
///
/// ```swift
/// let store = InMemoryKeyValueStore()
/// store.set(.launchCount, to: 3)
/// store.get(.launchCount) // 3
/// ```
public final class InMemoryKeyValueStore: PersistentKeyValueStore, Sendable {
    private struct Contents {
        var stored: [String: PropertyListValue]
        var registered: [String: PropertyListValue] = [:]
    }

    private let contents: _Locked<Contents>
    public let keyValueChanges = KeyValueChangeCenter()

    /// A store holding `values` (none by default).
    public init(_ values: [String: PropertyListValue] = [:]) {
        contents = _Locked(Contents(stored: values))
    }

    /// Everything stored, by storage key.
    public var storedValues: [String: PropertyListValue] {
        contents.withLock { $0.stored }
    }

    public var persistentStoreDescription: String { "in-memory store" }

    public func persistentValue(forKey key: String) -> PropertyListValue? {
        contents.withLock { $0.stored[key] ?? $0.registered[key] }
    }

    public func hasPersistentValue(forKey key: String) -> Bool {
        contents.withLock { $0.stored[key] != nil }
    }

    public func setPersistentValue(_ value: PropertyListValue, forKey key: String) {
        contents.withLock { $0.stored[key] = value }
    }

    public func removePersistentValue(forKey key: String) {
        contents.withLock { $0.stored[key] = nil }
    }

    public func registerPersistentValues(_ values: [String: PropertyListValue]) {
        contents.withLock { $0.registered.merge(values) { _, new in new } }
    }
}
