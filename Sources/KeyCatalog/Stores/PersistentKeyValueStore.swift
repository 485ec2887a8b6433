/// A key-value store that typed keys read and write: UserDefaults, a file, memory, or one of yours.
///
/// A store only moves ``PropertyListValue``s; keys and representations do the typing. To add a
/// store (the Keychain, a database), implement these requirements and every key and
/// representation works with it:
///
/// ```swift
/// final class LoggingStore: PersistentKeyValueStore {
///     let base = InMemoryKeyValueStore()
///     var keyValueChanges: KeyValueChangeCenter { base.keyValueChanges }
///     var persistentStoreDescription: String { "logging store" }
///     func persistentValue(forKey key: String) -> PropertyListValue? { base.persistentValue(forKey: key) }
///     func hasPersistentValue(forKey key: String) -> Bool { base.hasPersistentValue(forKey: key) }
///     func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
///         print("set \(key)")
///         try base.setPersistentValue(value, forKey: key)
///     }
///     func removePersistentValue(forKey key: String) throws { try base.removePersistentValue(forKey: key) }
///     func registerPersistentValues(_ values: [String: PropertyListValue]) { base.registerPersistentValues(values) }
/// }
/// ```
///
/// Use stores through ``get(_:)``, ``set(_:to:)``, ``remove(_:)``, ``contains(_:)`` and
/// ``register(_:)``.
public protocol PersistentKeyValueStore: AnyObject {
    /// The value stored for `key`, or else the one registered for it.
    func persistentValue(forKey key: String) -> PropertyListValue?

    /// Whether a value is stored for `key`; a registered default does not count.
    func hasPersistentValue(forKey key: String) -> Bool

    /// Stores `value` under `key`. On failure the old value must stay.
    func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws

    /// Removes the value stored under `key`, if any.
    func removePersistentValue(forKey key: String) throws

    /// Registers defaults that reads fall back to; they are not stored.
    func registerPersistentValues(_ values: [String: PropertyListValue])

    /// Makes every write so far durable before returning (migrations call it before removing a
    /// moved value's source). Stores that write through need do nothing: the default does nothing.
    func flushPersistentValues() throws

    /// Where changes made through this store are announced: one center for the store's whole
    /// life (catalog keys find it once, to register their reads with Observation).
    var keyValueChanges: KeyValueChangeCenter { get }

    /// A short description for failure reports, like `UserDefaults(suiteName: "group.app")`.
    var persistentStoreDescription: String { get }

    /// Whether the store keeps decoded values beside what it holds (``InMemoryKeyValueStore``
    /// does), so that ``get(_:)`` reads through ``_decodedValue(forKey:representation:decode:)``.
    /// `false` by default.
    var _keepsDecodedValues: Bool { get }

    /// The value decoded from what the store holds for `key`: one kept from an earlier read of
    /// that very value when `representation` (a type whose ``PersistentKeyValueRepresentation/_decodesByTypeAlone``)
    /// decoded it, else `decode`'s, which the store may keep until the value changes. `nil` when
    /// nothing is stored or `decode` failed (it reports). Only called when ``_keepsDecodedValues``.
    func _decodedValue(forKey key: String, representation: ObjectIdentifier, decode: (PropertyListValue) -> _AnyDecodedValue?) -> _AnyDecodedValue?

    /// Stores `value` under `key` as it is, building its stored form only when that is read;
    /// ``get(_:)`` through a representation of the same type then returns `value` without
    /// decoding. On failure the old value must stay.
    ///
    /// Only called when ``_keepsDecodedValues``, for a representation that
    /// ``PersistentKeyValueRepresentation/_keepsUnencoded(_:)`` `value` (so its stored form is
    /// valid). By default, the stored form is built and given to ``setPersistentValue(_:forKey:)``.
    func _setUnencodedValue<Value: Sendable>(_ value: Value, representation: any PersistentKeyValueRepresentation<Value>, forKey key: String) throws

    /// Whether a value is stored for `key`, or `nil` when the store cannot tell now (a locked
    /// device's keychain): what a migration asks before it decides its source is gone. By default
    /// ``hasPersistentValue(forKey:)``.
    func _hasPersistentValueIfKnown(forKey key: String) -> Bool?
}

/// A decoded value as a store keeps it (see ``PersistentKeyValueStore/_decodedValue(forKey:representation:decode:)``).
/// A class, so that the value comes back out by a cast the representation's type already proved,
/// without a dynamic cast from `Any`.
public class _AnyDecodedValue: @unchecked Sendable {
    @usableFromInline init() {}

    /// The stored form of a value kept as it was set
    /// (``PersistentKeyValueStore/_setUnencodedValue(_:representation:forKey:)``), built now.
    func storedForm() -> PropertyListValue {
        fatalError("only a value kept as it was set has a stored form to build")
    }

    /// Whether the value holds a class instance (see `_ClassInstanceScan`): then a store must not
    /// keep it for later reads.
    var holdsClassInstance: Bool { false }
}

/// A decoded value of one type.
///
/// A store may replace `value` while it holds the only reference to the box (under its lock,
/// after `isKnownUniquelyReferenced`): every reader has a reference of its own while it reads.
public final class _DecodedValue<Value>: _AnyDecodedValue, @unchecked Sendable {
    // Unchecked: replaced only when nobody else can reach the box (see above); dynamic
    // exclusivity checks would cost every read about 40 instructions.
    @exclusivity(unchecked) @usableFromInline var value: Value
    /// The representation the value came through: a value kept as it was set has its stored
    /// form built with it. A store reuses the box only for a value of the same type of
    /// representation, whose instances all store a value alike (``PersistentKeyValueRepresentation/_keepsUnencoded(_:)``).
    let representation: any PersistentKeyValueRepresentation<Value>

    @usableFromInline init(_ value: Value, representation: any PersistentKeyValueRepresentation<Value>) {
        self.value = value
        self.representation = representation
    }

    override var holdsClassInstance: Bool { _ClassInstanceScan.holdsClassInstance(value) }

    override func storedForm() -> PropertyListValue {
        // `_keepsUnencoded(_:)` said, when the value was set, that this cannot fail.
        guard let stored = try? representation.persistentValue(for: value) else {
            fatalError("\(Value.self) was kept as it was set, but its stored form cannot be built")
        }
        return stored
    }
}

extension PersistentKeyValueStore {
    public func flushPersistentValues() throws {}

    public var _keepsDecodedValues: Bool { false }

    public func _decodedValue(forKey key: String, representation: ObjectIdentifier, decode: (PropertyListValue) -> _AnyDecodedValue?) -> _AnyDecodedValue? {
        persistentValue(forKey: key).flatMap(decode)
    }

    public func _setUnencodedValue<Value: Sendable>(_ value: Value, representation: any PersistentKeyValueRepresentation<Value>, forKey key: String) throws {
        guard let stored = try representation.persistentValue(for: value) else { return try removePersistentValue(forKey: key) }
        try stored.validateForPropertyList()
        try setPersistentValue(stored, forKey: key)
    }

    public func _hasPersistentValueIfKnown(forKey key: String) -> Bool? {
        hasPersistentValue(forKey: key)
    }
}

extension PersistentKeyValueStore {
    /// The key's value: the stored one, or the key's default when nothing (or nothing readable) is stored.
    ///
    /// A stored value that does not decode is reported to ``PersistentKeyValueFailure/handler``
    /// and left in place.
    @inlinable
    public func get<Key: PersistentKeyProtocol>(_ key: Key) -> Key.Value {
        guard key.isStoreAccessEnabled else { return key.defaultValue }
        // `key.representation` is asked, not copied into a local: the copy of the existential
        // cost every other read about 40 instructions (300 for a Codable value).
        if _keepsDecodedValues, key.representation._decodesByTypeAlone {
            return _getKeptDecodedValue(key)
        }
        guard let stored = persistentValue(forKey: key.id) else { return key.defaultValue }
        return _decode(stored, for: key)
    }

    /// ``get(_:)`` of a key whose representation decodes by its type alone, from a store that
    /// keeps decoded values.
    @inlinable
    func _getKeptDecodedValue<Key: PersistentKeyProtocol>(_ key: Key) -> Key.Value {
        let representation = key.representation
        let decoded = _decodedValue(forKey: key.id, representation: _typeIdentifier(of: representation)) { stored in
            do {
                return _DecodedValue(try representation.value(from: stored), representation: representation)
            } catch {
                _reportUnreadable(key: key.id, store: persistentStoreDescription, error)
                return nil
            }
        }
        guard let decoded else { return key.defaultValue }
        // Kept under the representation's type, whose `Value` is `Key.Value`.
        return unsafeDowncast(decoded, to: _DecodedValue<Key.Value>.self).value
    }

    /// Stores a value for the key; setting an optional key to `nil` removes it.
    ///
    /// A value that cannot be encoded, or that a property list cannot hold, is not written: the old
    /// value stays and the failure is reported. Writes to a debug key in Release are ignored.
    @inlinable
    public func set<Key: PersistentKeyProtocol>(_ key: Key, to value: Key.Value) {
        do {
            try _set(key, to: value)
        } catch {
            PersistentKeyValueFailure.report(error)
        }
    }

    /// Removes the key's stored value, so that reads give its default.
    public func remove<Key: PersistentKeyProtocol>(_ key: Key) {
        guard key.isStoreAccessEnabled else { return }
        do {
            try removePersistentValue(forKey: key.id)
            keyValueChanges.postCurrentValue(forKey: key.id, in: self)
        } catch {
            PersistentKeyValueFailure.report(_failure(.remove, key: key.id, error))
        }
    }

    /// Whether the store holds a value for the key (a registered default does not count).
    public func contains<Key: PersistentKeyProtocol>(_ key: Key) -> Bool {
        key.isStoreAccessEnabled && hasPersistentValue(forKey: key.id)
    }

    /// Registers the keys' defaults in the store's registration domain, for code that reads the
    /// store without KeyCatalog.
    ///
    /// ```swift
    /// userDefaults.register(.launchCount, .isAppStoreRatingEnabled)
    /// ```
    public func register<each Key: PersistentKeyProtocol>(_ keys: repeat each Key) {
        var values: [String: PropertyListValue] = [:]
        for key in repeat each keys {
            do {
                if let stored = try key.representation.persistentValue(for: key.defaultValue) {
                    try stored.validateForPropertyList()
                    values[key.id] = stored
                }
            } catch {
                PersistentKeyValueFailure.report(_failure(.write, key: key.id, error))
            }
        }
        registerPersistentValues(values)
    }

    /// Stores a value or throws, announcing the change; `set(_:to:)` reports instead of throwing.
    ///
    /// Observers get the store's current value when the change is delivered (see
    /// ``KeyValueChangeCenter``), so after concurrent writes they end on the value that won.
    ///
    /// - Throws: ``PersistentKeyValueFailure`` when the value cannot be encoded or written.
    @inlinable
    public func _set<Key: PersistentKeyProtocol>(_ key: Key, to value: Key.Value) throws(PersistentKeyValueFailure) {
        guard key.isStoreAccessEnabled else { return }
        // A collection the store can keep as it is: its stored form is built when first read,
        // and reads through the same type of representation return it without decoding.
        // (`key.representation` is named each time, not copied into a local: the copy of the
        // existential cost every write about 70 instructions.)
        if _keepsDecodedValues, key.representation._keepsUnencoded(value) {
            do {
                try _setUnencodedValue(value, representation: key.representation, forKey: key.id)
            } catch {
                throw _failure(.write, key: key.id, error)
            }
            keyValueChanges.postCurrentValue(forKey: key.id, in: self)
            return
        }
        let stored: PropertyListValue?
        do {
            stored = try key.representation.persistentValue(for: value)
            try stored?.validateForPropertyList()
        } catch {
            throw _failure(.write, key: key.id, error, prefix: "value not written: ")
        }
        do {
            if let stored {
                try setPersistentValue(stored, forKey: key.id)
            } else {
                try removePersistentValue(forKey: key.id)
            }
        } catch {
            throw _failure(.write, key: key.id, error)
        }
        // The value is read again when delivered: a post that arrives after a later write's post
        // then cannot leave observers on this, older value.
        keyValueChanges.postCurrentValue(forKey: key.id, in: self)
    }

    /// Decodes a stored value for a key, reporting and falling back to the default on failure.
    @inlinable
    public func _decode<Key: PersistentKeyProtocol>(_ stored: PropertyListValue, for key: Key) -> Key.Value {
        _decodeOrDefault(stored, for: key, store: persistentStoreDescription)
    }

    @usableFromInline
    func _failure(
        _ operation: PersistentKeyValueFailure.Operation,
        key: String,
        _ error: any Error,
        prefix: String = ""
    ) -> PersistentKeyValueFailure {
        if let failure = error as? PersistentKeyValueFailure { return failure }
        return PersistentKeyValueFailure(
            operation: operation,
            key: key,
            store: persistentStoreDescription,
            message: prefix + String(describing: error)
        )
    }
}

/// A stored value as the key's value; on failure, the failure is reported and the default returned.
/// Reads and change announcements both decode through this.
@inlinable
func _decodeOrDefault<Key: PersistentKeyProtocol>(
    _ stored: PropertyListValue,
    for key: Key,
    store: @autoclosure () -> String
) -> Key.Value {
    do {
        return try key.representation.value(from: stored)
    } catch {
        _reportUnreadable(key: key.id, store: store(), error)
        return key.defaultValue
    }
}

/// The type of a key's representation, which its decoded values are kept under: the existential
/// opened, its type taken as the generic parameter. (`type(of:)` on the existential, or on the
/// generic value, is a runtime call of about 50 instructions.)
@inlinable
func _typeIdentifier<Representation: PersistentKeyValueRepresentation>(of _: Representation) -> ObjectIdentifier {
    ObjectIdentifier(Representation.self)
}

@usableFromInline
func _reportUnreadable(key: String, store: String, _ error: any Error) {
    PersistentKeyValueFailure.report(
        PersistentKeyValueFailure(operation: .read, key: key, store: store, message: "stored value ignored, default used: \(error)")
    )
}
