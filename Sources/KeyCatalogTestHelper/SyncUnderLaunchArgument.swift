import Foundation
import KeyCatalog

/// `KeyCatalogTestHelper defaults <suite> sync-under-argument <key> -<key> argument`, and
/// `… sync-under-argument-unnamed …`: iCloud sync
/// of a key that a launch argument overrides. The argument is read instead of the stored value,
/// but it was never written, so it must never reach iCloud, and it must not hide what iCloud
/// brings from the suite.
///
/// Stores `stored` in the suite, attaches it to an engine whose iCloud holds nothing, and prints
/// what was pushed (`first stored`); sets `written` through the attached store and prints what
/// was pushed and what a read gives (`pushed written read argument`); lets another device write
/// `argument` (a newer stamp), then drops the launch argument and prints what the suite holds
/// (`applied argument`).
///
/// `unnamed` does the same through a `UserDefaults(suiteName:)` of its own, whose domain name
/// KeyCatalog does not know, so it cannot read beneath the argument: nothing is pushed (`first
/// nothing`, `pushed nothing read argument`), and when the iCloud account changes (the new one
/// holding `other`) the stored value is left alone (`stored written`, once the argument is
/// dropped). The next change from iCloud adopts it as an account change would have: kept aside,
/// replaced by the new account's, and not pushed (`adopted other cloud other previous written`).
enum SyncUnderLaunchArgument {
    static func run(_ defaults: UserDefaults, key: String) {
        let (cloud, _, synced, stringKey) = storeThenWrite(defaults, key: key)
        let newer: PropertyListValue = .dictionary(["t": .int(Int.max / 2), "d": .string("other device"), "v": .string("argument")])
        cloud.receive(UbiquitousSyncEngine.keyPrefix + key, newer)
        defaults.removeVolatileDomain(forName: UserDefaults.argumentDomain)
        print("applied", synced.get(stringKey))
    }

    static func runUnnamed(suiteName: String, key: String) {
        guard let defaults = UserDefaults(suiteName: suiteName) else { TestHelper.fail("bad suite \(suiteName)") }
        let (cloud, engine, synced, stringKey) = storeThenWrite(defaults, key: key)
        let newAccount: PropertyListValue = .dictionary(["t": .int(1), "d": .string("other device"), "v": .string("other")])
        cloud.receive(UbiquitousSyncEngine.keyPrefix + key, newAccount, reason: .accountChange)
        defaults.removeVolatileDomain(forName: UserDefaults.argumentDomain)
        print("stored", synced.get(stringKey))

        cloud.receive(UbiquitousSyncEngine.keyPrefix + key, newAccount)
        let previous = engine.previousAccountValues(in: defaults)[key].map { "\($0)" } ?? "none"
        print("adopted", synced.get(stringKey), "cloud", cloud.pushedValue(forKey: key) ?? "nothing", "previous", previous)
    }

    /// Stores `stored` beneath the argument, attaches the suite to an engine over an empty iCloud
    /// (printing what was pushed), writes `written` through it (printing what was pushed and read).
    private static func storeThenWrite(
        _ defaults: UserDefaults, key: String
    ) -> (cloud: Cloud, engine: UbiquitousSyncEngine, synced: AnyPersistentKeyValueStore, key: PersistentKey<String>) {
        let stringKey = PersistentKey<String>(key, defaultValue: "default")
        guard defaults.object(forKey: key) as? String == "argument" else { TestHelper.fail("launch with -\(key) argument") }
        defaults.set(stringKey, to: "stored")

        let cloud = Cloud()
        let engine = UbiquitousSyncEngine(backend: cloud, deviceID: "child", initialSyncTimeout: nil)
        engine.assumeInitialSyncComplete()
        let synced = engine.attach(defaults, keys: [key])
        print("first", cloud.pushedValue(forKey: key) ?? "nothing")

        synced.set(stringKey, to: "written")
        print("pushed", cloud.pushedValue(forKey: key) ?? "nothing", "read", synced.get(stringKey))
        return (cloud, engine, synced, stringKey)
    }

    /// iCloud's key-value store, in memory, with one other device.
    private final class Cloud: UbiquitousKeyValueBackend, @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String: Any] = [:]
        private var handler: (@Sendable (UbiquitousExternalChange) -> Void)?

        /// The value the engine pushed under `key` (`"removed"` for a tombstone).
        func pushedValue(forKey key: String) -> String? {
            guard let envelope = object(forKey: UbiquitousSyncEngine.keyPrefix + key) as? [String: Any] else { return nil }
            return envelope["v"].map { "\($0)" } ?? "removed"
        }

        /// Another device writes `value` under `cloudKey` (or the account changes to one that holds
        /// it), and iCloud announces it.
        func receive(_ cloudKey: String, _ value: PropertyListValue, reason: UbiquitousExternalChange.Reason = .serverChange) {
            set(value.foundationObject, forKey: cloudKey)
            lock.withLock { handler }?(UbiquitousExternalChange(reason: reason, changedKeys: [cloudKey]))
        }

        func object(forKey aKey: String) -> Any? { lock.withLock { values[aKey] } }
        func set(_ anObject: Any?, forKey aKey: String) { lock.withLock { values[aKey] = anObject } }
        func removeObject(forKey aKey: String) { lock.withLock { values[aKey] = nil } }
        func synchronize() -> Bool { true }
        var dictionaryRepresentation: [String: Any] { lock.withLock { values } }

        func observeExternalChanges(_ handler: @escaping @Sendable (UbiquitousExternalChange) -> Void) {
            lock.withLock { self.handler = handler }
        }
    }
}
