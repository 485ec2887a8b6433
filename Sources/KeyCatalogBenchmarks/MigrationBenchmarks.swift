import Foundation
import KeyCatalog

/// What running a catalog's migrations costs at a launch with nothing to do: every key already
/// migrated, every source gone. `swift run -c release keycatalog-benchmarks --migrations`
enum MigrationBenchmarks {
    static func run() {
        print("| Store | Keys × sources | µs per run | µs per source |")
        print("|---|---|---:|---:|")
        let suiteName = "keycatalog.benchmarks.migrations.\(getpid())"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keycatalog-migration-bench-\(getpid())")
        defer {
            UserDefaults(suiteName: suiteName)?.removePersistentDomain(forName: suiteName)
            try? FileManager.default.removeItem(at: folder)
        }
        let stores: [(String, any PersistentKeyValueStore)] = [
            ("UserDefaults", UserDefaultsPersistence.suite(named: suiteName)!),
            ("file", FileKeyValueStore(url: folder.appendingPathComponent("settings.plist"))),
            ("in-memory", InMemoryKeyValueStore()),
        ]
        for (name, store) in stores {
            for (keys, sources) in [(10, 1), (100, 1), (100, 2)] {
                let migrations = (0..<keys).map { index in
                    let key = PersistentKey<Int>("key\(index)", defaultValue: 0)
                    store.set(key, to: index)
                    return KeyMigration(
                        name: "key\(index)",
                        key: key,
                        store: "store",
                        sources: (0..<sources).map { source in
                            KeyMigrationSource(fromKey: "old\(source).key\(index)", store: "store", representationOf: key)
                        }
                    )
                }
                let nanoseconds = measure(runs: 7, targetRun: 20_000_000, maxIterations: 20_000) { iterations in
                    for _ in 0..<iterations {
                        blackHole(KeyMigrator.run(migrations) { _ in store })
                    }
                }
                let perRun = nanoseconds / 1_000
                print("| \(name) | \(keys) × \(sources) | \(String(format: "%.1f", perRun)) | \(String(format: "%.2f", perRun / Double(keys * sources))) |")
                fflush(nil)
            }
        }
    }
}
