import Foundation

/// iCloud's key-value store as a store, keeping iCloud's limits instead of crashing or losing
/// writes: `UbiquitousKeyValueStore.default.get(.theme)` on Apple platforms.
///
/// ```swift
/// let cloud = UbiquitousKeyValueStore.default            // over NSUbiquitousKeyValueStore.default
/// cloud.set(.theme, to: .dark)
/// let observation = cloud.observe(.theme) { theme in apply(theme) }   // other devices' changes too
/// ```
///
/// - A storage key longer than ``maximumKeyBytes`` bytes of UTF-8 (where
///   `NSUbiquitousKeyValueStore` raises an Objective-C exception that ends the app) is refused:
///   writes and removals throw, reads report a ``PersistentKeyValueFailure`` and give the default.
/// - A write is refused when its entry would be over ``maximumBytes``, when it would bring the
///   store over ``maximumBytes`` in all, or when it would add a key to a store that holds
///   ``maximumKeyCount`` keys. An entry's size is its key's UTF-8 bytes plus its value encoded as
///   a binary property list. Apple counts key plus value too but does not document its encoding;
///   the property list's header and trailer (about 40 bytes) make this count a little larger than
///   Apple's, so a write this store accepts fits Apple's quota. Writes made to the backend by
///   other code are counted once this store reads the backend again (after an external change).
/// - ``flushPersistentValues()`` throws when `synchronize()` returns `false` (without the iCloud
///   entitlement, for instance), so ``KeyMigrator`` keeps a moved value's source.
/// - Creating the store calls `synchronize()` once (Apple's advice for launch) and reports a
///   `false` result.
/// - External changes reach observers: server changes and the initial download post the changed
///   keys' current values; a quota violation is reported for each key involved; an account change
///   is reported and posts every observed key.
///
/// There is one store, with one ``keyValueChanges`` center, per backend object:
/// ``shared(over:)`` returns it.
public final class UbiquitousKeyValueStore: PersistentKeyValueStore, @unchecked Sendable {
    // @unchecked: the backend is required to be thread-safe, and the rest is behind `state`.

    /// The longest storage key iCloud's key-value store accepts, in bytes of UTF-8.
    public static let maximumKeyBytes = 64
    /// The most keys iCloud's key-value store holds.
    public static let maximumKeyCount = 1024
    /// The most bytes iCloud's key-value store holds per entry and in all. Apple says "1 MB"
    /// without saying which; this is the smaller reading.
    public static let maximumBytes = 1_000_000

    /// The store this one reads and writes, like `NSUbiquitousKeyValueStore.default`.
    public let backend: any UbiquitousKeyValueBackend
    public let keyValueChanges = KeyValueChangeCenter()
    public let persistentStoreDescription: String

    private struct State {
        var registered: [String: PropertyListValue] = [:]
        var hasReceivedInitialSync = false
    }

    private let state = _Locked(State())
    /// The entries' sizes, shared with every other writer of the backend (an iCloud sync engine).
    private let ledger: _UbiquitousSizeLedger

    private init(backend: any UbiquitousKeyValueBackend) {
        self.backend = backend
        ledger = .shared(for: backend)
        persistentStoreDescription = "iCloud key-value store (\(type(of: backend)))"
    }

    /// The store over `backend`: the same instance for the same backend object, created (and
    /// synchronized once, observing external changes from then on) on first use.
    ///
    /// ```swift
    /// let cloud = UbiquitousKeyValueStore.shared(over: NSUbiquitousKeyValueStore.default)
    /// ```
    ///
    /// - Parameter backend: The key-value store to read and write; it is kept for the life of the
    ///   process.
    /// - Returns: The one store over `backend`.
    public static func shared(over backend: some UbiquitousKeyValueBackend) -> UbiquitousKeyValueStore {
        let (store, isNew) = stores.withLock { stores in
            if let store = stores[ObjectIdentifier(backend)] { return (store, false) }
            let store = UbiquitousKeyValueStore(backend: backend)
            stores[ObjectIdentifier(backend)] = store
            return (store, true)
        }
        if isNew { store.start() }
        return store
    }

    /// Every store made, by backend; a store keeps its backend, so identifiers are never reused.
    private static let stores = _Locked<[ObjectIdentifier: UbiquitousKeyValueStore]>([:])

    /// Observes external changes, then synchronizes, as Apple advises for launch.
    private func start() {
        backend.observeExternalChanges { [weak self] change in
            self?.handle(change)
        }
        if !backend.synchronize() {
            PersistentKeyValueFailure.report(
                PersistentKeyValueFailure(
                    operation: .load,
                    key: nil,
                    store: persistentStoreDescription,
                    message: "synchronize() returned false at launch: iCloud is unavailable to this app (no iCloud "
                        + "key-value store entitlement, no iCloud account, or no iCloud on this platform); values "
                        + "stay on this device, and migrations into this store keep their sources"
                )
            )
        }
    }

    /// Whether iCloud's initial download (an external change for
    /// ``UbiquitousExternalChange/Reason/initialSync``) arrived since this store was created.
    ///
    /// ```swift
    /// if UbiquitousKeyValueStore.default.hasReceivedInitialSync { … }
    /// ```
    ///
    /// - Important: iCloud sends the initial download only the first time a device uses an
    ///   account, so on later launches this stays `false` although the local values are current.
    public var hasReceivedInitialSync: Bool {
        state.withLock { $0.hasReceivedInitialSync }
    }

    // MARK: - PersistentKeyValueStore

    public func persistentValue(forKey key: String) -> PropertyListValue? {
        if let failure = keyLengthFailure(key, .read) {
            PersistentKeyValueFailure.report(failure)
            return nil
        }
        if let object = backend.object(forKey: key), let value = PropertyListValue(foundationObject: object) {
            return value
        }
        return state.withLock { $0.registered[key] }
    }

    public func hasPersistentValue(forKey key: String) -> Bool {
        if let failure = keyLengthFailure(key, .read) {
            PersistentKeyValueFailure.report(failure)
            return false
        }
        return backend.object(forKey: key) != nil
    }

    public func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
        if let failure = keyLengthFailure(key, .write) { throw failure }
        let object = value.foundationObject
        let size: Int
        do {
            size = try _UbiquitousSizeLedger.size(key: key, value: value, object: object)
        } catch {
            throw failure(.write, key, "value not written: its size could not be measured as a property list: \(error)")
        }
        do throws(_UbiquitousSizeLedger.Refusal) {
            try ledger.write(key, size: size) { backend.set(object, forKey: key) }
        } catch {
            switch error {
            case .entryTooLarge(let size):
                throw failure(.write, key, "value not written: it takes \(size) bytes (key plus value as a binary property list); iCloud's key-value store allows \(Self.maximumBytes) per value, so store less, or keep large data in a file")
            case .tooManyKeys(let count):
                throw failure(.write, key, "value not written: the store holds \(count) keys, iCloud's key-value store's maximum; remove a key first, or keep this one in a local store")
            case .totalTooLarge(let total):
                throw failure(.write, key, "value not written: the store would hold \(total) bytes; iCloud's key-value store allows \(Self.maximumBytes) in all, so remove values or keep large ones in a local store")
            }
        }
    }

    public func removePersistentValue(forKey key: String) throws {
        if let failure = keyLengthFailure(key, .remove) { throw failure }
        ledger.remove(key) { backend.removeObject(forKey: key) }
    }

    public func registerPersistentValues(_ values: [String: PropertyListValue]) {
        state.withLock { $0.registered.merge(values) { _, new in new } }
    }

    /// Calls the backend's `synchronize()`.
    ///
    /// - Throws: ``PersistentKeyValueFailure`` when it returns `false`: the values written may
    ///   never reach iCloud, so a migration must keep its source.
    public func flushPersistentValues() throws {
        guard backend.synchronize() else {
            throw failure(.write, nil, "synchronize() returned false: iCloud is unavailable to this app (no iCloud key-value store entitlement, or no iCloud account), so the values written may not be kept")
        }
    }

    // MARK: - External changes

    private func handle(_ change: UbiquitousExternalChange) {
        ledger.invalidate()
        state.withLock { state in
            if change.reason == .initialSync { state.hasReceivedInitialSync = true }
        }
        switch change.reason {
        case .serverChange, .initialSync:
            keyValueChanges.postExternalChanges(forKeys: change.changedKeys, in: self)
        case .quotaViolation:
            let limits = "iCloud's key-value store refused a write over its quota (\(Self.maximumKeyCount) keys, 1 MB per value and in all)"
            if change.changedKeys.isEmpty {
                PersistentKeyValueFailure.report(failure(.write, nil, limits + "; remove values, or keep large ones in a local store"))
            }
            for key in change.changedKeys {
                PersistentKeyValueFailure.report(failure(.write, key, limits + "; this key's value did not reach iCloud, so remove values or keep large ones in a local store"))
            }
            keyValueChanges.postExternalChanges(forKeys: change.changedKeys, in: self)
        case .accountChange:
            PersistentKeyValueFailure.report(
                failure(.load, nil, "the iCloud account changed: values now come from the new account, and the previous account's values are gone from this device")
            )
            keyValueChanges.postExternalChanges(forKeys: keyValueChanges.observedKeys, in: self)
        }
    }

    // MARK: - Limits

    private func keyLengthFailure(_ key: String, _ operation: PersistentKeyValueFailure.Operation) -> PersistentKeyValueFailure? {
        let bytes = key.utf8.count
        guard bytes > Self.maximumKeyBytes else { return nil }
        return failure(operation, key, "the storage key is \(bytes) bytes of UTF-8; iCloud's key-value store allows \(Self.maximumKeyBytes) (a longer key raises an exception that ends the app), so shorten it")
    }

    private func failure(_ operation: PersistentKeyValueFailure.Operation, _ key: String?, _ message: String) -> PersistentKeyValueFailure {
        PersistentKeyValueFailure(operation: operation, key: key, store: persistentStoreDescription, message: message)
    }
}
