import Foundation
import KeyCatalog

/// iCloud's key-value store for the benchmarks: a dictionary behind a lock, announcing nothing.
final class BenchmarkCloud: UbiquitousKeyValueBackend, @unchecked Sendable {
    // @unchecked: `values` is only used behind `lock`.
    private let lock = NSLock()
    private var values: [String: Any] = [:]

    func object(forKey aKey: String) -> Any? { lock.withLock { values[aKey] } }
    func set(_ anObject: Any?, forKey aKey: String) { lock.withLock { values[aKey] = anObject } }
    func removeObject(forKey aKey: String) { set(nil, forKey: aKey) }
    func synchronize() -> Bool { true }
    var dictionaryRepresentation: [String: Any] { lock.withLock { values } }
    func observeExternalChanges(_ handler: @escaping @Sendable (UbiquitousExternalChange) -> Void) {}
}

/// A suite of its own whose keys are synced, made on first use: the other rows' suite stays as it
/// was.
final class SyncedSuite {
    let defaults: UserDefaults
    let cloud = BenchmarkCloud()
    let keys: [PersistentKey<Int>]
    let store: AnyPersistentKeyValueStore

    init(named name: String, keyCount: Int) {
        keys = (0..<keyCount).map { PersistentKey<Int>("bench.synced.\($0)", defaultValue: 0) }
        defaults = UserDefaultsPersistence.suite(named: name)!
        let engine = UbiquitousSyncEngine(backend: cloud, deviceID: "bench", initialSyncTimeout: nil)
        store = engine.attach(defaults, keys: keys.map(\.id))
        engine.assumeInitialSyncComplete()
        for (index, key) in keys.enumerated() { store.set(key, to: index) }
    }
}

extension BenchmarkFixture {
    /// How many keys the suites of ``syncedWriteCases`` sync: a few, and about as many as iCloud's
    /// key-value store holds (1,024).
    static let syncedKeyCounts = [20, 1_000]

    /// The suite of ``syncedWriteCases`` that syncs `keyCount` keys.
    func syncedSuiteName(keyCount: Int) -> String { suiteName + ".synced\(keyCount)" }

    /// For a suite of 20 synced keys, and one of 1,000: a write of a synced key
    /// (``UbiquitousSyncEngine``), that is the value, its stamp saved in the suite, and the push
    /// (the raw side writes the value to the suite and a dictionary holding it and a time to
    /// iCloud's store); and a launch's `attach` of the keys.
    var syncedWriteCases: [BenchmarkCase] {
        Self.syncedKeyCounts.flatMap { keyCount in
            let name = syncedSuiteName(keyCount: keyCount)
            let suite = madeOnFirstUse { SyncedSuite(named: name, keyCount: keyCount) }
            let label = keyCount == 1_000 ? "1,000" : "\(keyCount)"
            let write = BenchmarkCase(
                store: "UserDefaults", operation: "set", type: "Int (synced, \(label) keys)",
                typed: { n in
                    let suite = suite()
                    for i in 0..<n { suite.store.set(suite.keys[i % keyCount], to: i) }
                },
                raw: { n in
                    let suite = suite()
                    for i in 0..<n {
                        let key = suite.keys[i % keyCount].id
                        suite.defaults.set(i, forKey: key)
                        suite.cloud.set(["v": i, "t": i], forKey: "kc:" + key)
                    }
                },
                maxIterations: 500
            )
            // What a launch does: an engine (new each time) takes the suite's synced keys, whose
            // stamps and values it and iCloud already agree on. Raw: a read of each key.
            let attach = BenchmarkCase(
                store: "UserDefaults", operation: "attach", type: "\(label) synced keys",
                typed: { n in
                    let suite = suite()
                    let ids = suite.keys.map(\.id)
                    for _ in 0..<n {
                        let engine = UbiquitousSyncEngine(backend: suite.cloud, deviceID: "bench", initialSyncTimeout: nil)
                        blackHole(engine.attach(suite.defaults, keys: ids))
                    }
                },
                raw: { n in
                    let suite = suite()
                    for _ in 0..<n {
                        for key in suite.keys { blackHole(suite.defaults.integer(forKey: key.id)) }
                    }
                },
                maxIterations: 20
            )
            return [write, attach]
        }
    }
}
