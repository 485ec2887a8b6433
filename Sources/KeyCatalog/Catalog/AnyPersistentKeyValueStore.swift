import Foundation

/// Any store, as one `Sendable` type: what generated catalogs hold their stores in.
///
/// ```swift
/// let stores = [
///     "standard": AnyPersistentKeyValueStore(UserDefaults.standard),
///     "scratch": AnyPersistentKeyValueStore(InMemoryKeyValueStore()),
/// ]
/// stores["standard"]!.set(.launchCount, to: 3)
/// ```
///
/// UserDefaults is thread-safe but not marked `Sendable` on Linux; this wrapper vouches for it.
/// Wrap only stores that are safe to use from any thread (every built-in store is).
public final class AnyPersistentKeyValueStore: PersistentKeyValueStore, @unchecked Sendable {
    /// The wrapped store.
    public let base: any PersistentKeyValueStore
    /// Whether the store is a keychain, or its file stand-in where there is none (Linux): settings
    /// export leaves its keys out.
    let isKeychain: Bool
    /// The base's ``_keepsDecodedValues``, read once: every `get` asks.
    public let _keepsDecodedValues: Bool
    /// Observation's view of the keys of the base's change center (an `_ObservationTracking`,
    /// whose type needs macOS 14), once a catalog key read through this store was tracked: the
    /// center is one for the store's life, so that each tracked read finds it with a load, not
    /// with a call to the base and a retain of its center (about 270 instructions a read).
    let observationTracking = _SetOnceReference<AnyObject & Sendable>()

    /// Wraps `base`; wrapping an `AnyPersistentKeyValueStore` wraps its base instead of nesting.
    public init(_ base: any PersistentKeyValueStore) {
        if let wrapped = base as? AnyPersistentKeyValueStore {
            self.base = wrapped.base
            isKeychain = wrapped.isKeychain
        } else {
            self.base = base
            isKeychain = base is KeychainKeyValueStore
        }
        _keepsDecodedValues = self.base._keepsDecodedValues
    }

    /// Wraps the store that stands in for a keychain where there is none.
    init(keychainStandIn base: any PersistentKeyValueStore) {
        self.base = base
        isKeychain = true
        _keepsDecodedValues = base._keepsDecodedValues
    }

    public func persistentValue(forKey key: String) -> PropertyListValue? {
        base.persistentValue(forKey: key)
    }

    public func hasPersistentValue(forKey key: String) -> Bool {
        base.hasPersistentValue(forKey: key)
    }

    public func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
        try base.setPersistentValue(value, forKey: key)
    }

    public func removePersistentValue(forKey key: String) throws {
        try base.removePersistentValue(forKey: key)
    }

    public func registerPersistentValues(_ values: [String: PropertyListValue]) {
        base.registerPersistentValues(values)
    }

    public func flushPersistentValues() throws {
        try base.flushPersistentValues()
    }

    // The base's decoded values (an in-memory store's), so that a catalog reads and writes them
    // as a key on the store itself does.

    public func _decodedValue(forKey key: String, representation: ObjectIdentifier, decode: (PropertyListValue) -> _AnyDecodedValue?) -> _AnyDecodedValue? {
        base._decodedValue(forKey: key, representation: representation, decode: decode)
    }

    public func _setUnencodedValue<Value: Sendable>(_ value: Value, representation: any PersistentKeyValueRepresentation<Value>, forKey key: String) throws {
        try base._setUnencodedValue(value, representation: representation, forKey: key)
    }

    public func _hasPersistentValueIfKnown(forKey key: String) -> Bool? {
        base._hasPersistentValueIfKnown(forKey: key)
    }

    public var keyValueChanges: KeyValueChangeCenter { base.keyValueChanges }

    public var persistentStoreDescription: String { base.persistentStoreDescription }
}

extension AnyPersistentKeyValueStore {
    /// `UserDefaults.standard`, or the suite with the given name.
    public static func userDefaults(suite: String? = nil) -> AnyPersistentKeyValueStore {
        guard let suite else { return AnyPersistentKeyValueStore(UserDefaults.standard) }
        guard let defaults = UserDefaultsPersistence.suite(named: suite) else {
            PersistentKeyValueFailure.report(
                PersistentKeyValueFailure(
                    operation: .load, key: nil, store: "UserDefaults(suiteName: \"\(suite)\")",
                    message: "Foundation refused the suite name; using UserDefaults.standard instead"
                )
            )
            return AnyPersistentKeyValueStore(UserDefaults.standard)
        }
        return AnyPersistentKeyValueStore(defaults)
    }

    /// A property-list file store. A relative path is resolved in the Application Support folder
    /// (`~/.local/share` on Linux); `~/` is the home folder: `$HOME` when it is set, as for
    /// Foundation's other user folders, else the account's.
    public static func file(path: String) -> AnyPersistentKeyValueStore {
        AnyPersistentKeyValueStore(FileKeyValueStore(url: resolveFilePath(path)))
    }

    /// A store that lives in memory only.
    public static func memory() -> AnyPersistentKeyValueStore {
        AnyPersistentKeyValueStore(InMemoryKeyValueStore())
    }

    static func resolveFilePath(_ path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        if path == "~" || path.hasPrefix("~/") {
            return _homeDirectory().appendingPathComponent(String(path.dropFirst(2)))
        }
        let support =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? _homeDirectory().appendingPathComponent(".local/share")
        return support.appendingPathComponent(path)
    }
}
