/// iCloud's key-value store where there is none (Linux): values in memory, and `synchronize()`
/// returns `false` as it does without the iCloud entitlement, so nothing counts as durable.
///
/// Behind ``UbiquitousKeyValueStore``, it keeps iCloud's limits where the app's tests run.
final class InMemoryUbiquitousBackend: UbiquitousKeyValueBackend, @unchecked Sendable {
    // @unchecked: every value is behind `values`' lock.
    private let values = _Locked<[String: PropertyListValue]>([:])

    /// The process's one stand-in, as `NSUbiquitousKeyValueStore.default` is one store.
    static let shared = InMemoryUbiquitousBackend()

    func object(forKey aKey: String) -> Any? {
        values.withLock { $0[aKey]?.foundationObject }
    }

    func set(_ anObject: Any?, forKey aKey: String) {
        let value = anObject.flatMap(PropertyListValue.init(foundationObject:))
        values.withLock { $0[aKey] = value }
    }

    func removeObject(forKey aKey: String) {
        values.withLock { $0[aKey] = nil }
    }

    func synchronize() -> Bool { false }

    var dictionaryRepresentation: [String: Any] {
        values.withLock { $0.mapValues(\.foundationObject) }
    }

    func observeExternalChanges(_ handler: @escaping @Sendable (UbiquitousExternalChange) -> Void) {}
}
