import Foundation

/// UserDefaults, any suite, is a store: `UserDefaults.standard.get(.launchCount)`.
///
/// On Linux, Foundation writes a suite's file only on `synchronize()`; KeyCatalog schedules one
/// shortly after each write and once more when the process exits normally (see
/// ``UserDefaultsPersistence``).
///
/// - Important: On Linux, a subclass of `UserDefaults` whose override of `set(_:forKey:)`,
///   `removeObject(forKey:)` or `synchronize()` writes through KeyCatalog again traps: KeyCatalog
///   calls those methods while it holds the lock that keeps its writes in order.
extension UserDefaults: PersistentKeyValueStore {
    public func persistentValue(forKey key: String) -> PropertyListValue? {
        #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
        if let deferred = UserDefaultsPersistence.deferredValue(forKey: key, in: self) {
            // What `object(forKey:)` reads first: the argument domain, which overrides the suite.
            guard !isOverriddenByLaunchArgument(key) else { return readValue(forKey: key) }
            if let deferred { return deferred }
            // A removal kept: what `object(forKey:)` reads once it is handed over.
            return valueBeneathOwnValues(forKey: key).flatMap { propertyListValue(of: $0, forKey: key) }
        }
        if let cache = UserDefaultsPersistence.readCacheReference(of: self) {
            return cache._withUnsafeGuaranteedRef { $0.value(forKey: key, in: self) { readValue(forKey: key) } }
        }
        #endif
        return readValue(forKey: key)
    }

    /// The value `object(forKey:)` gives for `key`, as a property-list value (reported when it is
    /// not one).
    @inline(__always)
    private func readValue(forKey key: String) -> PropertyListValue? {
        // A `switch`, not `guard let`: that destroyed the empty `Any?` through the runtime's
        // generic witness, about 60 instructions a read of a key at its default (callgrind).
        switch object(forKey: key) {
        case .none: return nil
        case .some(let object): return propertyListValue(of: object, forKey: key)
        }
    }

    private func propertyListValue(of object: Any, forKey key: String) -> PropertyListValue? {
        guard let value = PropertyListValue(foundationObject: object) else {
            PersistentKeyValueFailure.report(
                PersistentKeyValueFailure(
                    operation: .read,
                    key: key,
                    store: persistentStoreDescription,
                    message: "stored object of type '\(type(of: object))' is not a property-list value; default used"
                )
            )
            return nil
        }
        return value
    }

    /// Whether a value is stored for `key` in the instance's persistent domain; a registered
    /// default does not count, nor a value only in the global domain (which reads still find, as
    /// `object(forKey:)` does).
    ///
    /// Exact for suites opened through ``UserDefaultsPersistence/suite(named:)`` (catalogs open theirs
    /// so) and for `.standard` (on Linux; on Apple platforms in a process with a bundle identifier). For
    /// other instances, whose domain name UserDefaults does not tell, a value equal to the
    /// registered default counts as not stored.
    public func hasPersistentValue(forKey key: String) -> Bool {
        #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
        if let deferred = UserDefaultsPersistence.deferredValue(forKey: key, in: self) { return deferred != nil }
        // Asked of CoreFoundation by the key's exact name, as it stores keys: the domain as a Swift
        // dictionary takes another key equal to it as a `String` (a composed and a decomposed
        // accent) for it. Registered defaults are Foundation's, not CoreFoundation's; the global
        // domain is CoreFoundation's, and not the suite's.
        if let domain = UserDefaultsPersistence.preferencesDomain(of: self) {
            return domain.storesObject(forName: PreferencesDomain.name(key))
        }
        #endif
        // Nothing in any domain: the common case (a migration's source that is long gone), and
        // cheaper than asking the persistent domain.
        guard let object = object(forKey: key) else { return false }
        if let domain = UserDefaultsPersistence.persistentDomainName(of: self) {
            return storesPersistentValue(forKey: key, inDomainNamed: domain)
        }
        guard let beneath = valueBeneathOwnValues(forKey: key).flatMap(PropertyListValue.init(foundationObject:)) else { return true }
        return PropertyListValue(foundationObject: object) != beneath
    }

    /// What `object(forKey:)` reads for `key` when the instance's own domain stores nothing for
    /// it (and no launch argument gives it): the registered default, whoever registered it
    /// (KeyCatalog, or `register(defaults:)` called directly), and on Linux, before it, the global
    /// domain's value. Foundation on Linux keeps its registrations to itself
    /// (`volatileDomain(forName: UserDefaults.registrationDomain)` is empty there), so they are
    /// read through a suite that stores nothing (``UserDefaultsPersistence/suiteStoringNothing``).
    private func valueBeneathOwnValues(forKey key: String) -> Any? {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        volatileDomain(forName: UserDefaults.registrationDomain)[key]
        #else
        UserDefaultsPersistence.suiteStoringNothing.object(forKey: key)
        #endif
    }

    /// Stores `value` under `key`.
    ///
    /// - Throws: On Linux, where a suite's file is an XML property list, a value or key with a
    ///   string that XML cannot hold exactly (a leading U+FEFF, which Foundation drops when it
    ///   reads the file back, in a later process): refused instead of changed silently.
    public func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        set(value.foundationObject, forKey: key)
        #else
        if let problem = PropertyListFileDecoding.xmlProblem(key) ?? value.firstXMLProblem {
            throw PersistentKeyValueEncodingError(
                "UserDefaults on Linux writes an XML property list, which cannot hold \(problem) exactly; not written"
            )
        }
        // The object is made before the write takes its turn (see `UserDefaultsPersistence.write`),
        // unless every write is kept: then the hand-over makes it (made and dropped, it cost a
        // kept write about 900 of its 2,200 instructions).
        let defersEveryWrite = UserDefaultsPersistence.defersEveryWrite
        if let domain = UserDefaultsPersistence.preferencesDomain(of: self) {
            let object = defersEveryWrite ? nil : value.preferencesObject
            UserDefaultsPersistence.write(value, forKey: key, in: self, defersEveryWrite: defersEveryWrite) {
                domain.set(object ?? value.preferencesObject, forKey: key)
            }
        } else {
            let object = defersEveryWrite ? nil : value.userDefaultsObject
            UserDefaultsPersistence.write(value, forKey: key, in: self, defersEveryWrite: defersEveryWrite) {
                set(object ?? value.userDefaultsObject, forKey: key)
            }
        }
        #endif
    }

    public func removePersistentValue(forKey key: String) {
        #if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
        removeObject(forKey: key)
        #else
        let domain = UserDefaultsPersistence.preferencesDomain(of: self)
        UserDefaultsPersistence.write(nil, forKey: key, in: self) {
            if let domain { domain.set(nil, forKey: key) } else { removeObject(forKey: key) }
        }
        #endif
    }

    public func registerPersistentValues(_ values: [String: PropertyListValue]) {
        register(defaults: values.mapValues(\.foundationObject))
    }

    /// Writes the suite to disk now (`synchronize()`), instead of at the next coalesced flush.
    public func flushPersistentValues() throws {
        #if !(canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK)
        let file = UserDefaultsPersistence.domainFileURL(of: self)
        let synchronized = UserDefaultsPersistence.withSynchronizationLock {
            UserDefaultsPersistence.synchronizeDeferringWrites(of: [self]) {
                UserDefaultsPersistence.synchronizeNotingOwnWrite(self, file: file)
            }
        }
        guard synchronized else {
            throw PersistentKeyValueEncodingError("UserDefaults.synchronize() failed; the suite's file could not be written")
        }
        #endif
    }

    public var keyValueChanges: KeyValueChangeCenter {
        UserDefaultsPersistence.changeCenter(for: self)
    }

    public var persistentStoreDescription: String {
        if self === UserDefaults.standard { return "UserDefaults.standard" }
        if let name = UserDefaultsPersistence.persistentDomainName(of: self) { return "UserDefaults(suiteName: \"\(name)\")" }
        return "UserDefaults(\(ObjectIdentifier(self)))"
    }
}
