import Foundation

/// A store in the keychain: one generic-password item per key, under one service.
///
/// ```swift
/// let secrets = KeychainKeyValueStore(service: "com.example.app", accessibility: .afterFirstUnlockThisDeviceOnly)
/// secrets.set(.apiToken, to: token)
/// ```
///
/// - Items go to the data-protection keychain (also on macOS), are encoded by
///   ``KeychainItemCoding``, and get the store's ``accessibility`` whenever they are written, so
///   changing the class of a store re-classes its items on their next write.
/// - An item other code wrote under the store's service (KeychainAccess, SAMKeychain: a password
///   as its bytes) reads as those bytes, ``PropertyListValue/data(_:)``: a `Data` key reads it,
///   and a migration with `fromType: "Data"` and a transform turns it into the key's type (a key
///   of another type reports it and reads its default, leaving the item).
/// - A read the keychain refuses (the device is locked before its first unlock, a missing
///   entitlement, any other status) gives the registered default, or the key's default, and is
///   reported to ``PersistentKeyValueFailure/handler``. Writes that fail throw a
///   ``KeychainError`` (reported by ``PersistentKeyValueStore/set(_:to:)``); the old item stays.
/// - Stores on the same backend, service and access group share their change announcements,
///   registered defaults and reads, whatever their accessibility (the class is not part of an
///   item's identity): a write through one is observed through the other. A write is also
///   announced to the stores of the service's other groups that see it: through a group, to the
///   stores without one (their searches reach every group); without a group, to every group's.
/// - Reads are cached in memory, so that repeated reads (SwiftUI reads on the main actor) do not
///   call the keychain each time. Writes and removals through any store of this process update
///   the cache, so it is never stale for them. Writes by other processes (an app extension
///   sharing the access group) to items read before are not seen until ``discardCachedValues()``
///   is called, for example when the app becomes active; with an access group, `contains` looks
///   again for an item found missing (another process may have added it, and "set if missing"
///   must not overwrite it), while reads use what they found. A read that fails is not cached: the next one asks again.
/// - The first read of each key, and every write, calls the keychain synchronously.
public final class KeychainKeyValueStore: PersistentKeyValueStore, Sendable {
    /// The service items are filed under (`kSecAttrService`).
    public let service: String
    /// The access group items are shared through (`kSecAttrAccessGroup`), or `nil` for the app's
    /// default one.
    public let accessGroup: String?
    /// The class items get when written.
    public let accessibility: KeychainAccessibility
    /// What makes the keychain calls.
    public let backend: any KeychainBackend
    public let keyValueChanges: KeyValueChangeCenter
    private let state: KeychainServiceState

    /// A store on `backend`: your own (tests), or `SecItemKeychainBackend.shared` on Apple platforms.
    ///
    /// ```swift
    /// let store = KeychainKeyValueStore(service: "com.example.tests", backend: FakeKeychain())
    /// ```
    ///
    /// - Parameters:
    ///   - service: The keychain service the values are filed under.
    ///   - accessGroup: The keychain access group shared with other apps, if any.
    ///   - accessibility: The class items get when written.
    ///   - backend: What makes the keychain calls.
    public init(
        service: String,
        accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .default,
        backend: any KeychainBackend
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.backend = backend
        self.state = KeychainServiceState.shared(backend: backend, service: service)
        self.keyValueChanges = state.changeCenter(accessGroup: accessGroup)
    }

    /// Whether `other` files items under the same service on the same backend: an item of one
    /// account may then be found through both (a store without an access group finds every
    /// group's items).
    func sharesItems(with other: KeychainKeyValueStore) -> Bool {
        state === other.state
    }

    #if canImport(Security)
    /// A store in the system keychain.
    ///
    /// ```swift
    /// let secrets = KeychainKeyValueStore(service: "com.example.app")
    /// ```
    ///
    /// - Parameters:
    ///   - service: The keychain service the values are filed under.
    ///   - accessGroup: The keychain access group shared with other apps, if any.
    ///   - accessibility: The class items get when written.
    public convenience init(service: String, accessGroup: String? = nil, accessibility: KeychainAccessibility = .default) {
        self.init(service: service, accessGroup: accessGroup, accessibility: accessibility, backend: SecItemKeychainBackend.shared)
    }
    #endif

    public var persistentStoreDescription: String {
        if let accessGroup { return "keychain (service \"\(service)\", access group \"\(accessGroup)\")" }
        return "keychain (service \"\(service)\")"
    }

    /// Forgets every cached read of this service, so that the next reads ask the keychain: call it
    /// when other processes may have written (an app extension sharing the access group).
    ///
    /// ```swift
    /// .onChange(of: scenePhase) { if $0 == .active { secrets.discardCachedValues() } }
    /// ```
    public func discardCachedValues() {
        state.discardCache()
    }

    /// The query that finds the item of `key`, whatever its class.
    func searchQuery(_ key: String) -> KeychainItemQuery {
        KeychainItemQuery(service: service, account: key, accessGroup: accessGroup, accessibility: nil, usesDataProtectionKeychain: true)
    }

    /// What the keychain holds for a key.
    private enum Lookup {
        case stored(PropertyListValue)
        case absent
        /// There is an item, but it does not decode (reported).
        case unreadable
        /// The keychain refused to say (reported).
        case unavailable
    }

    /// - Parameter trustsCachedAbsence: `false` to ask the keychain again about an item found
    ///   missing before: `contains`, with a shared access group, where an app extension may have
    ///   added it since (and "set if missing" would overwrite it).
    private func lookup(_ key: String, trustsCachedAbsence: Bool = true) -> Lookup {
        let (cached, generation) = state.cachedItem(account: key, accessGroup: accessGroup)
        switch cached {
        case .stored(let value)?: return .stored(value)
        case .absent? where trustsCachedAbsence: return .absent
        case .absent?, nil: break
        }
        let (status, data) = backend.copyData(matching: searchQuery(key))
        switch status {
        case KeychainStatus.success:
            do {
                guard let data else { throw PersistentKeyValueDecodingError(expectedType: "keychain item", found: "no data") }
                // An item other code wrote reads as its bytes (see `KeychainItemCoding.storedValue(from:)`).
                let value = try KeychainItemCoding.storedValue(from: data)
                state.cache(.stored(value), account: key, accessGroup: accessGroup, readAt: generation)
                return .stored(value)
            } catch {
                _reportUnreadable(key: key, store: persistentStoreDescription, error)
                return .unreadable
            }
        case KeychainStatus.itemNotFound:
            state.cache(.absent, account: key, accessGroup: accessGroup, readAt: generation)
            return .absent
        default:
            let error = KeychainError(operation: "SecItemCopyMatching", status: status, systemMessage: backend.message(for: status))
            PersistentKeyValueFailure.report(
                PersistentKeyValueFailure(
                    operation: .read,
                    key: key,
                    store: persistentStoreDescription,
                    message: "\(error); default used, the stored item is kept"
                )
            )
            return .unavailable
        }
    }

    public func persistentValue(forKey key: String) -> PropertyListValue? {
        if case .stored(let value) = lookup(key) { return value }
        return state.registeredValue(forKey: key, accessGroup: accessGroup)
    }

    public func hasPersistentValue(forKey key: String) -> Bool {
        _hasPersistentValueIfKnown(forKey: key) ?? false
    }

    /// The item's value: `.some(nil)` when there is none, `nil` when it does not decode or the
    /// keychain refuses to say (a locked device).
    func storedValueIfReadable(forKey key: String) -> PropertyListValue?? {
        switch lookup(key, trustsCachedAbsence: accessGroup == nil) {
        case .stored(let value): .some(value)
        case .absent: .some(nil)
        case .unreadable, .unavailable: nil
        }
    }

    /// `nil` when the keychain refuses to say (a locked device): not the same as no item.
    public func _hasPersistentValueIfKnown(forKey key: String) -> Bool? {
        switch lookup(key, trustsCachedAbsence: accessGroup == nil) {
        case .stored, .unreadable: true
        case .absent: false
        case .unavailable: nil
        }
    }

    /// Updates the item, or adds it when there is none; when another thread or process adds it
    /// in between (the add finds a duplicate), updates the one it added.
    ///
    /// - Throws: ``KeychainError`` when the keychain refuses; the old item stays.
    public func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
        let data = try KeychainItemCoding.data(for: value)
        let stored = try KeychainItemCoding.value(from: data)
        try state.write(account: key, accessGroup: accessGroup, leaving: .stored(stored)) {
            let search = searchQuery(key)
            var operation = "SecItemUpdate"
            var status = backend.update(matching: search, data: data, accessibility: accessibility)
            if status == KeychainStatus.itemNotFound {
                var item = search
                item.accessibility = accessibility
                operation = "SecItemAdd"
                status = backend.add(item, data: data)
                if status == KeychainStatus.duplicateItem {
                    operation = "SecItemUpdate"
                    status = backend.update(matching: search, data: data, accessibility: accessibility)
                }
            }
            guard status == KeychainStatus.success else {
                throw KeychainError(operation: operation, status: status, systemMessage: backend.message(for: status))
            }
        }
        announceToOtherAccessGroups(key)
    }

    /// Deletes the item, if there is one.
    ///
    /// - Throws: ``KeychainError`` when the keychain refuses.
    public func removePersistentValue(forKey key: String) throws {
        try state.write(account: key, accessGroup: accessGroup, leaving: .absent) {
            let status = backend.delete(matching: searchQuery(key))
            guard status == KeychainStatus.success || status == KeychainStatus.itemNotFound else {
                throw KeychainError(operation: "SecItemDelete", status: status, systemMessage: backend.message(for: status))
            }
        }
        announceToOtherAccessGroups(key)
    }

    /// Tells the observers of the service's stores of other access groups that see a write
    /// through this one (``KeychainServiceState/centersSeeingWrites(through:)``); this store's
    /// own are told by whoever wrote (``PersistentKeyValueStore/set(_:to:)``).
    private func announceToOtherAccessGroups(_ key: String) {
        for (group, center) in state.centersSeeingWrites(through: accessGroup) where center.hasObservers(forKey: key) {
            center.postCurrentValue(forKey: key, in: KeychainKeyValueStore(service: service, accessGroup: group, accessibility: accessibility, backend: backend))
        }
    }

    public func registerPersistentValues(_ values: [String: PropertyListValue]) {
        state.register(values, accessGroup: accessGroup)
    }
}
