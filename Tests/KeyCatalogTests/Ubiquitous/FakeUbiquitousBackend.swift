import Foundation
import KeyCatalog

/// iCloud's key-value store as the tests need it on Linux, where NSUbiquitousKeyValueStore does
/// not exist: values in memory, a `synchronize()` result to choose, and external changes to send.
final class FakeUbiquitousBackend: UbiquitousKeyValueBackend, @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: PropertyListValue]
    private var synchronizeResultValue: Bool
    private var synchronizeCountValue = 0
    private var handler: (@Sendable (UbiquitousExternalChange) -> Void)?

    init(_ values: [String: PropertyListValue] = [:], synchronizes: Bool = true) {
        self.values = values
        self.synchronizeResultValue = synchronizes
    }

    /// What `synchronize()` returns from now on.
    var synchronizeResult: Bool {
        get { lock.withLock { synchronizeResultValue } }
        set { lock.withLock { synchronizeResultValue = newValue } }
    }

    /// How often `synchronize()` was called.
    var synchronizeCount: Int { lock.withLock { synchronizeCountValue } }

    var storedValues: [String: PropertyListValue] { lock.withLock { values } }

    /// Another device (or iCloud) changes the values, then the change is announced.
    func receive(_ reason: UbiquitousExternalChange.Reason, _ changes: [String: PropertyListValue?]) {
        let handler = lock.withLock {
            for (key, value) in changes { values[key] = value }
            return self.handler
        }
        handler?(UbiquitousExternalChange(reason: reason, changedKeys: changes.keys.sorted()))
    }

    func object(forKey aKey: String) -> Any? {
        lock.withLock { values[aKey]?.foundationObject }
    }

    func set(_ anObject: Any?, forKey aKey: String) {
        let value = anObject.flatMap(PropertyListValue.init(foundationObject:))
        lock.withLock { values[aKey] = value }
    }

    func removeObject(forKey aKey: String) {
        lock.withLock { values[aKey] = nil }
    }

    func synchronize() -> Bool {
        lock.withLock {
            synchronizeCountValue += 1
            return synchronizeResultValue
        }
    }

    var dictionaryRepresentation: [String: Any] {
        lock.withLock { values.mapValues(\.foundationObject) }
    }

    func observeExternalChanges(_ handler: @escaping @Sendable (UbiquitousExternalChange) -> Void) {
        lock.withLock { self.handler = handler }
    }
}
