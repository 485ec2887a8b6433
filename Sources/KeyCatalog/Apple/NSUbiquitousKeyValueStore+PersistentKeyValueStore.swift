#if canImport(Darwin) || KEYCATALOG_APPLE_TYPECHECK
import Foundation

/// iCloud's key-value store is a store: `NSUbiquitousKeyValueStore.default.get(.key)`.
///
/// Changes from other devices (`didChangeExternallyNotification`) reach observers through
/// ``KeyValueChangeCenter/postExternalChanges(forKeys:in:)``. There is no registration domain:
/// defaults come from keys.
extension NSUbiquitousKeyValueStore: PersistentKeyValueStore {
    public func persistentValue(forKey key: String) -> PropertyListValue? {
        object(forKey: key).flatMap(PropertyListValue.init(foundationObject:))
    }

    public func hasPersistentValue(forKey key: String) -> Bool {
        object(forKey: key) != nil
    }

    public func setPersistentValue(_ value: PropertyListValue, forKey key: String) {
        set(value.foundationObject, forKey: key)
    }

    public func removePersistentValue(forKey key: String) {
        removeObject(forKey: key)
    }

    public func registerPersistentValues(_ values: [String: PropertyListValue]) {}

    public func flushPersistentValues() throws {
        synchronize()
    }

    public var keyValueChanges: KeyValueChangeCenter {
        UbiquitousChanges.center(for: self)
    }

    public var persistentStoreDescription: String { "NSUbiquitousKeyValueStore" }
}

/// One change center per iCloud store, fed by its external-change notification.
private enum UbiquitousChanges {
    private static let centers = _Locked<[ObjectIdentifier: KeyValueChangeCenter]>([:])

    static func center(for store: NSUbiquitousKeyValueStore) -> KeyValueChangeCenter {
        centers.withLock { centers in
            if let center = centers[ObjectIdentifier(store)] { return center }
            let center = KeyValueChangeCenter()
            centers[ObjectIdentifier(store)] = center
            let boxed = _UncheckedSendable(store)
            NotificationCenter.default.addObserver(
                forName: NSUbiquitousKeyValueStore.didChangeExternallyNotification,
                object: store,
                queue: nil
            ) { notification in
                let keys = notification.userInfo?[NSUbiquitousKeyValueStoreChangedKeysKey] as? [String] ?? []
                center.postExternalChanges(forKeys: keys, in: boxed.value)
            }
            return center
        }
    }
}
#endif
