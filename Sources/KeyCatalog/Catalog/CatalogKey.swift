/// A key bound to the store its manifest declares: everything a generated catalog can do with
/// one key, without naming a store again.
///
/// Generated catalogs declare each key as a `CatalogKey` property, so `keys.theme` is the value
/// and `keys.$theme` the bound key:
///
/// ```swift
/// let keys = AppKeys()
/// keys.theme = .dark                          // set, in the key's declared store
/// keys.$theme.reset()                         // remove the stored value: reads give the default
/// if keys.$theme.isStored { … }
/// let observation = keys.$theme.observe { theme in apply(theme) }
/// for await theme in keys.$theme.values { apply(theme) }
/// keys.documentScaleKey(documentID: id).value = 2   // a parameterized key, bound on each call
/// ```
///
/// Where the frameworks exist: `keys.$theme.publisher` (Combine) and `keys.$theme.binding`
/// (SwiftUI). Reading ``value`` inside `withObservationTracking` (or a SwiftUI body) registers
/// the key, and any change the store's observers see triggers the tracking.
///
/// A generated key is not visible outside its generated file as a bare `PersistentKey`, so it
/// cannot be passed to a store it was not declared for: `UserDefaults.standard.get(.theme)` does
/// not compile. ``key`` and ``store`` are there for the explicit cases (a migration, a test).
@propertyWrapper
public struct CatalogKey<Value: Sendable>: Sendable {
    /// The key, as a store reads it.
    public let key: AnyPersistentKey<Value>
    /// The store the manifest declares for the key (or its replacement, in a catalog made with
    /// other stores).
    public let store: AnyPersistentKeyValueStore
    /// The key's name in the catalog, like `theme`.
    public let name: String
    /// The manifest name of the key's store, like `standard`.
    public let storeName: String
    /// Registers the key's reads with Observation (`withObservationTracking`, SwiftUI); `nil` in
    /// a parameterized key's binding, whose reads are registered by storage key.
    @usableFromInline let readTracking: _ReadTracking?

    /// Binds `key` to `store`; generated catalogs call this for each key.
    ///
    /// ```swift
    /// let launchCount = CatalogKey(PersistentKey<Int>("LaunchCount", defaultValue: 0),
    ///                              name: "launchCount", store: .userDefaults(), storeName: "standard")
    /// ```
    @inlinable
    public init<Key: PersistentKeyProtocol>(
        _ key: Key,
        name: String,
        store: AnyPersistentKeyValueStore,
        storeName: String
    ) where Key.Value == Value {
        self.init(key, name: name, store: store, storeName: storeName, readTracking: _ReadTracking(key: key.id))
    }

    /// Binds a key made from parameters, for the few reads and writes of one call: what a
    /// parameterized key's accessor returns.
    ///
    /// ```swift
    /// func documentScaleKey(documentID: String) -> CatalogKey<Double> {
    ///     CatalogKey(parameterized: PersistentKey<Double>.documentScale(documentID: documentID),
    ///                name: "documentScale", store: stores.standard, storeName: "standard")
    /// }
    /// ```
    ///
    /// It keeps nothing for Observation: each of its reads, tracked or not, finds the key's
    /// registration by storage key (about 500 instructions on Linux), so that a binding made for
    /// a single read does not make and free a tracking object (about 1,000). (Inlinable:
    /// specialized for the key's type where the accessor is compiled.)
    @inlinable
    public init<Key: PersistentKeyProtocol>(
        parameterized key: Key,
        name: String,
        store: AnyPersistentKeyValueStore,
        storeName: String
    ) where Key.Value == Value {
        self.init(key, name: name, store: store, storeName: storeName, readTracking: nil)
    }

    @inlinable
    init<Key: PersistentKeyProtocol>(
        _ key: Key,
        name: String,
        store: AnyPersistentKeyValueStore,
        storeName: String,
        readTracking: _ReadTracking?
    ) where Key.Value == Value {
        self.key = AnyPersistentKey(key)
        self.store = store
        self.name = name
        self.storeName = storeName
        self.readTracking = readTracking
    }

    /// Registers a read of the key with Observation.
    @inlinable
    func trackRead() {
        // Optional chaining, not `if let`: a binding copies the reference, a retain and a release
        // on every read (about 40 instructions, measured).
        if readTracking != nil {
            readTracking?.track(in: store)
        } else {
            _ReadTracking.track(key.id, in: store)
        }
    }

    /// The key's value in its store; setting it writes there. Same as ``value``.
    @inlinable
    public var wrappedValue: Value {
        get { value }
        nonmutating set { value = newValue }
    }

    /// The bound key itself: `keys.$theme`.
    public var projectedValue: CatalogKey<Value> { self }

    /// The key's value in its store: the stored one, or the default. Setting it writes (setting an
    /// optional key to `nil` removes it); failures are reported, as by ``PersistentKeyValueStore/set(_:to:)``.
    ///
    /// Reading it inside `withObservationTracking` makes the tracking fire on the key's next change.
    /// (Inlinable: a catalog's accessor is then specialized for the key's type, as a key read on
    /// its store is.)
    @inlinable
    public var value: Value {
        get {
            trackRead()
            return store.get(key)
        }
        nonmutating set { store.set(key, to: newValue) }
    }

    /// Whether the store holds a value for the key (a registered default does not count).
    public var isStored: Bool {
        trackRead()
        return store.contains(key)
    }

    /// Removes the key's stored value, so reads give its default; observers are told.
    public func reset() {
        store.remove(key)
    }

    /// The key's current value, then its value after each change.
    ///
    /// ```swift
    /// for await theme in keys.$theme.values { apply(theme) }
    /// ```
    public var values: AsyncStream<Value> { store.values(for: key) }

    /// The key's value after each change, without the current value.
    public var changes: AsyncStream<Value> { store.changes(for: key) }

    /// Calls `onChange` with the key's new value after each change, until the observation is
    /// cancelled or released. See ``PersistentKeyValueStore/observe(_:_:)`` for what is seen.
    ///
    /// ```swift
    /// let observation = keys.$theme.observe { theme in apply(theme) }
    /// ```
    public func observe(_ onChange: @escaping @Sendable (Value) -> Void) -> PersistentKeyObservation {
        store.observe(key, onChange)
    }

    /// What identifies the key among others: in ``PersistentKeyCatalog/changes(of:)``.
    public var id: CatalogKeyID {
        CatalogKeyID(name: name, storageKey: key.id, changes: store.keyValueChanges)
    }
}

/// Which catalog key changed: its name and storage key, and the change center of its store.
///
/// ```swift
/// for await changed in keys.changes(of: keys.$theme, keys.$fontSize) {
///     if changed == keys.$theme.id { applyTheme() }
/// }
/// ```
public struct CatalogKeyID: Hashable, Sendable, CustomStringConvertible {
    /// The key's name in the catalog, like `theme`.
    public let name: String
    /// The storage key.
    public let storageKey: String
    /// The change center of the key's store, held: while an ID lives, no other store's center
    /// can take its center's address (a center compared by address alone could be released with
    /// its `UserDefaults` instance, and a new instance's center made at the same address).
    let changes: KeyValueChangeCenter

    public var description: String { name }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.changes === rhs.changes && lhs.storageKey == rhs.storageKey && lhs.name == rhs.name
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(storageKey)
        hasher.combine(ObjectIdentifier(changes))
    }
}
