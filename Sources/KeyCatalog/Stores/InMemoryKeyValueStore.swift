/// A store that keeps values in memory, for tests and previews.
///
/// Values go through the same representations, property-list checks and debug-key rules as in the
/// persistent stores, so a value that would fail to encode in UserDefaults fails here too, and a
/// debug key in Release cannot be written. A collection (an array or dictionary of values that
/// hold no class instance) is decoded once per stored value: later reads of it return that value
/// until the next write. A collection of the library's primitives is kept as it was set (its
/// strings checked then) and turned into a ``PropertyListValue`` only when one is read.
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
        /// What is stored, unless `isUnencoded`.
        var value: PropertyListValue
        /// Whether the value was kept as it was set (``_setUnencodedValue(_:representation:forKey:)``):
        /// `decoded` holds it, and `value` (a placeholder till then) is built from it, under the
        /// lock, when first read. Only the library's own representations keep values so, so
        /// building runs no code that could use the store.
        var isUnencoded = false
        /// Which write made this entry: a decoded value is kept only for the entry it came from.
        var generation: UInt64
        var decoded: KeptDecodedValue?

        /// The placeholder `value` of an entry that `isUnencoded`: nothing to release.
        static let unencodedPlaceholder = PropertyListValue.bool(false)

        /// Makes this the entry of `value`, kept as it was set, in the box of the decoded value
        /// if that was made for the same type of representation and nothing else holds it (no
        /// reader is reading it; readers take a reference under the lock). `false` otherwise.
        mutating func reuseDecoded<Value>(for value: Value, representation: ObjectIdentifier, generation: UInt64) -> Bool {
            guard decoded?.representation == representation, isKnownUniquelyReferenced(&decoded!.value) else { return false }
            // Made for this representation's type, whose `Value` is `Value`.
            let box = unsafeDowncast(decoded.unsafelyUnwrapped.value, to: _DecodedValue<Value>.self)
            box.value = value
            self.value = Self.unencodedPlaceholder
            isUnencoded = true
            self.generation = generation
            return true
        }

        /// The stored form, built now if the value was kept as it was set.
        mutating func storedValue() -> PropertyListValue {
            guard isUnencoded else { return value }
            // Kept as set: `decoded` holds the value.
            value = decoded.unsafelyUnwrapped.value.storedForm()
            isUnencoded = false
            return value
        }
    }

    private struct Contents {
        var stored: [String: Entry] = [:]
        var registered: [String: PropertyListValue] = [:]
        var generation: UInt64 = 0

        mutating func store(_ value: PropertyListValue, forKey key: String) {
            generation &+= 1
            stored[key] = Entry(value: value, generation: generation)
        }

        /// The stored form of the entry for `key`, which has one, built now if its value was kept
        /// as it was set. Out of line: reads of a value written as a `PropertyListValue` stay
        /// small.
        @inline(never)
        mutating func buildStoredValue(forKey key: String) -> PropertyListValue {
            stored[key]!.storedValue()
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
        contents.withLock { contents in
            for (key, entry) in contents.stored where entry.isUnencoded {
                _ = contents.buildStoredValue(forKey: key)
            }
            return contents.stored.mapValues(\.value)
        }
    }

    public var persistentStoreDescription: String { "in-memory store" }

    public func persistentValue(forKey key: String) -> PropertyListValue? {
        contents.withLock { contents in
            guard let entry = contents.stored[key] else { return contents.registered[key] }
            if !entry.isUnencoded { return entry.value }
            return contents.buildStoredValue(forKey: key)
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

    /// Keeps `value` as the entry's decoded value, with no stored form until one is read. The box
    /// of the value it replaces is reused when nothing else holds it (no reader is reading it): a
    /// write of a collection then allocates nothing.
    public func _setUnencodedValue<Value: Sendable>(_ value: Value, representation: any PersistentKeyValueRepresentation<Value>, forKey key: String) {
        let representationType = _typeIdentifier(of: representation)
        contents.withLock { contents in
            contents.generation &+= 1
            // Through `values[index]`, which yields the entry in place: `stored[key]?.reuseDecoded`
            // moves a copy out, so the box never looked unique (1,693 instructions a write, not 970).
            if let index = contents.stored.index(forKey: key),
                contents.stored.values[index].reuseDecoded(for: value, representation: representationType, generation: contents.generation)
            {
                return
            }
            let decoded = KeptDecodedValue(representation: representationType, value: _DecodedValue(value, representation: representation))
            contents.stored[key] = Entry(value: Entry.unencodedPlaceholder, isUnencoded: true, generation: contents.generation, decoded: decoded)
        }
    }

    public func _decodedValue(forKey key: String, representation: ObjectIdentifier, decode: (PropertyListValue) -> _AnyDecodedValue?) -> _AnyDecodedValue? {
        let lookup = contents.withLock { contents -> KeptDecodedValue.Lookup in
            // `stored[key]`, not `index(forKey:)` then `values[index]`: about 50 instructions less.
            guard let entry = contents.stored[key] else {
                return contents.registered[key].map { .stored($0, generation: nil) } ?? .none
            }
            if let decoded = entry.decoded, decoded.representation == representation { return .kept(decoded.value) }
            let value = entry.isUnencoded ? contents.buildStoredValue(forKey: key) : entry.value
            return .stored(value, generation: entry.generation)
        }
        return lookup.value(representation: representation, decode: decode) { decoded, generation in
            contents.withLock { contents in
                // Kept only if no write came in between.
                guard let index = contents.stored.index(forKey: key), contents.stored.values[index].generation == generation else { return }
                contents.stored.values[index].decoded = decoded
            }
        }
    }
}
