import Foundation
import KeyCatalog

/// The child process of the migration crash tests: runs a migration of many keys on file stores,
/// so that a test can kill it with SIGKILL at any point and check what a rerun makes of it.
///
/// ```
/// KeyCatalogMigrationHelper move <from.plist> <to.plist> <count> [--stop-after <n>]
/// KeyCatalogMigrationHelper rename <file.plist> <count> [--stop-after <n>]
/// KeyCatalogMigrationHelper standard <name> (registered-only | stored-equal-to-default)
/// ```
///
/// Key `i` (an `Int` stored under `new.<i>`) migrates from `old.<i>`, a `String` holding its
/// decimal digits. `move` moves the values from one file to another, `rename` within one file.
/// The helper prints `started` before the first migration, `wrote <n>` after the n-th write or
/// removal of either file returned (so that a test can kill it right after a given one), and
/// `done <report summary>` after. With `--stop-after <n>` it stops itself (SIGSTOP) right after
/// printing `wrote <n>` (`started` for 0), so that a test's SIGKILL lands exactly there, however
/// long the test takes to send it.
/// It sets nothing up: the test writes the old values before starting it.
///
/// `standard` migrates `<name>.old` (42) into `<name>.count` in `UserDefaults.standard` after
/// registering the key's default 0 (and, for `stored-equal-to-default`, storing 0 explicitly),
/// then prints `contains`, `outcome`, `value` and `source` lines. The registration domain and
/// `.standard` are process-wide, so tests run this in a child process with a `XDG_CONFIG_HOME`
/// of their own.
enum MigrationHelper {
    static func main(_ arguments: [String]) {
        if arguments.first == "standard" {
            guard arguments.count == 3 else { fail("usage: standard <name> (registered-only | stored-equal-to-default)") }
            migrateInStandard(name: arguments[1], storingTheDefault: arguments[2] == "stored-equal-to-default")
            return
        }
        var arguments = arguments
        var stopAfter: Int?
        if arguments.count >= 2, arguments[arguments.count - 2] == "--stop-after" {
            guard let count = Int(arguments[arguments.count - 1]), count >= 0 else { fail("bad --stop-after '\(arguments[arguments.count - 1])'") }
            stopAfter = count
            arguments.removeLast(2)
        }
        let stores: [String: AnyPersistentKeyValueStore]
        let countArgument: String
        let writes = WriteCounter(stopAfter: stopAfter)
        func store(_ path: String) -> AnyPersistentKeyValueStore {
            AnyPersistentKeyValueStore(CountingStore(base: FileKeyValueStore(url: URL(fileURLWithPath: path)), writes: writes))
        }
        switch arguments.first {
        case "move" where arguments.count == 4:
            stores = ["from": store(arguments[1]), "to": store(arguments[2])]
            countArgument = arguments[3]
        case "rename" where arguments.count == 3:
            let store = store(arguments[1])
            stores = ["from": store, "to": store]
            countArgument = arguments[2]
        default:
            fail("usage: move <from.plist> <to.plist> <count> | rename <file.plist> <count>")
        }
        guard let count = Int(countArgument), count > 0 else { fail("bad count '\(countArgument)'") }

        FileHandle.standardOutput.write(Data("started\n".utf8))
        if stopAfter == 0 { raise(SIGSTOP) }
        let report = KeyMigrator.run(migrations(count: count)) { stores[$0] }
        FileHandle.standardOutput.write(
            Data("done \(report.migrated.count) migrated, \(report.skipped.count) skipped, \(report.failed.count) failed\n".utf8)
        )
    }

    /// Key `i`: `new.<i>` in store "to", from the string `old.<i>` in store "from".
    static func migrations(count: Int) -> [KeyMigration] {
        (0..<count).map { index in
            KeyMigration(
                name: "value\(index)",
                key: PersistentKey<Int>("new.\(index)", defaultValue: -1),
                store: "to",
                sources: [
                    KeyMigrationSource(
                        fromKey: "old.\(index)",
                        store: "from",
                        representation: String.persistentKeyValueRepresentation,
                        transform: { Int($0) }
                    )
                ]
            )
        }
    }

    static func migrateInStandard(name: String, storingTheDefault: Bool) {
        let standard = UserDefaults.standard
        let key = PersistentKey<Int>("\(name).count", defaultValue: 0)
        let migration = KeyMigration(
            name: "count", key: key, store: "standard",
            sources: [
                KeyMigrationSource(fromKey: "\(name).old", store: "standard", representationOf: key)
            ])
        standard.register(key)
        if storingTheDefault {
            standard.set(key, to: 0)
        }
        standard.set(42, forKey: "\(name).old")
        print("contains \(standard.contains(key))")
        let report = KeyMigrator.run([migration]) { _ in standard }
        for entry in report.entries {
            print("outcome \(entry.outcome)")
        }
        print("value \(standard.get(key))")
        print("source \(standard.object(forKey: "\(name).old").map { "\($0)" } ?? "nil")")
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("KeyCatalogMigrationHelper: \(message)\n".utf8))
        exit(2)
    }
}

/// The writes both files of a migration have made, printed as each returns; the process stops
/// itself after the `stopAfter`-th.
final class WriteCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private let stopAfter: Int?

    init(stopAfter: Int?) {
        self.stopAfter = stopAfter
    }

    func wrote() {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        FileHandle.standardOutput.write(Data("wrote \(count)\n".utf8))
        if count == stopAfter { raise(SIGSTOP) }
    }
}

/// A file store that counts its writes and removals once they return.
final class CountingStore: PersistentKeyValueStore {
    let base: FileKeyValueStore
    let writes: WriteCounter

    init(base: FileKeyValueStore, writes: WriteCounter) {
        self.base = base
        self.writes = writes
    }

    var keyValueChanges: KeyValueChangeCenter { base.keyValueChanges }
    var persistentStoreDescription: String { base.persistentStoreDescription }
    func persistentValue(forKey key: String) -> PropertyListValue? { base.persistentValue(forKey: key) }
    func hasPersistentValue(forKey key: String) -> Bool { base.hasPersistentValue(forKey: key) }
    func registerPersistentValues(_ values: [String: PropertyListValue]) { base.registerPersistentValues(values) }
    func flushPersistentValues() throws { try base.flushPersistentValues() }

    func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
        try base.setPersistentValue(value, forKey: key)
        writes.wrote()
    }

    func removePersistentValue(forKey key: String) throws {
        try base.removePersistentValue(forKey: key)
        writes.wrote()
    }
}
