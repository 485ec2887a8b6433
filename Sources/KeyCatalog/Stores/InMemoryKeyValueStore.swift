/// A store that keeps values in memory, for tests and previews.
///
/// Values go through the same representations, property-list checks and debug-key rules as in the
/// persistent stores, so a value that would fail to encode in UserDefaults fails here too, and a
/// debug key in Release cannot be written. A collection (an array or dictionary of values that are
/// not class instances) is decoded once per stored value: later reads of it return that value
/// until the next write.
///
/// ```swift
/// let store = InMemoryKeyValueStore()
/// store.set(.launchCount, to: 3)
/// store.get(.launchCount) // 3
/// ```
public final class InMemoryKeyValueStore: PersistentKeyValueStore, Sendable {
    /// A stored value, and the value last decoded from it for reads whose representation decodes
    /// by its type alone (collections): a read of an unchanged value returns that one instead of
    /// decoding again. A write replaces the whole entry, so the decoded value is never stale.
    private struct Entry {
        var value: PropertyListValue
        /// Which write made this entry: a decoded value is kept only for the entry it came from.
        var generation: UInt64
        var decoded: Decoded?
    }

    private struct Decoded {
        var representation: ObjectIdentifier
        var value: _AnyDecodedValue
    }

    /// What a read found, taken out of the lock.
    private enum Lookup {
        case decoded(_AnyDecodedValue)
        case stored(PropertyListValue, generation: UInt64?)
        case none
    }

    private struct Contents {
        var stored: [String: Entry] = [:]
        var registered: [String: PropertyListValue] = [:]
        var generation: UInt64 = 0

        mutating func store(_ value: PropertyListValue, forKey key: String) {
            generation &+= 1
            stored[key] = Entry(value: value, generation: generation)
        }
    }

    private let contents: _Locked<Contents>
    public let keyValueChanges = KeyValueChangeCenter()

    /// A store holding `values` (none by default).
    public init(_ values: [String: PropertyListValue] = [:]) {
        var contents = Contents()
        for (key, value) in values { contents.store(value, forKey: key) }
        self.contents = _Locked(contents)
    }

    /// Everything stored, by storage key.
    public var storedValues: [String: PropertyListValue] {
        contents.withLock { $0.stored.mapValues(\.value) }
    }

    public var persistentStoreDescription: String { "in-memory store" }

    public func persistentValue(forKey key: String) -> PropertyListValue? {
        contents.withLock { contents in
            guard let index = contents.stored.index(forKey: key) else { return contents.registered[key] }
            return contents.stored.values[index].value
        }
    }

    public func hasPersistentValue(forKey key: String) -> Bool {
        contents.withLock { $0.stored[key] != nil }
    }

    public func setPersistentValue(_ value: PropertyListValue, forKey key: String) {
        contents.withLock { $0.store(value, forKey: key) }
    }

    public func removePersistentValue(forKey key: String) {
        contents.withLock { $0.stored[key] = nil }
    }

    public func registerPersistentValues(_ values: [String: PropertyListValue]) {
        contents.withLock { $0.registered.merge(values) { _, new in new } }
    }

    public var _keepsDecodedValues: Bool { true }

    public func _decodedValue(forKey key: String, representation: ObjectIdentifier, decode: (PropertyListValue) -> _AnyDecodedValue?) -> _AnyDecodedValue? {
        let lookup = contents.withLock { contents -> Lookup in
            guard let index = contents.stored.index(forKey: key) else {
                return contents.registered[key].map { .stored($0, generation: nil) } ?? .none
            }
            let entry = contents.stored.values[index]
            if let decoded = entry.decoded, decoded.representation == representation { return .decoded(decoded.value) }
            return .stored(entry.value, generation: entry.generation)
        }
        switch lookup {
        case .decoded(let value):
            return value
        case .none:
            return nil
        case .stored(let stored, let generation):
            guard let value = decode(stored) else { return nil }
            if let generation {
                let decoded = Decoded(representation: representation, value: value)
                contents.withLock { contents in
                    // Kept only if no write came in between.
                    guard let index = contents.stored.index(forKey: key), contents.stored.values[index].generation == generation else { return }
                    contents.stored.values[index].decoded = decoded
                }
            }
            return value
        }
    }
}
