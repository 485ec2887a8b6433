import Foundation
import KeyCatalog

/// What one check of a UserDefaults suite's watched keys costs (Linux): the work that follows each
/// synchronization of the suite's file, KeyCatalog's own or another process's.
/// `swift run -c release keycatalog-benchmarks --watch-checks`
///
/// A catalog reads N parameterized keys (each is then watched for Observation, as a list's
/// first display leaves them), stored or at their default; then the suite's watcher checks them,
/// as after a synchronization that changed nothing. `KEYCATALOG_CHECK_KEYS=<N>` runs one count
/// only (for callgrind).
enum WatchCheckBenchmarks {
    static func run() {
        print("| Keys read through a catalog | stored | µs per check | µs per key |")
        print("|---:|---|---:|---:|")
        for stored in [false, true] {
            for count in (ProcessInfo.processInfo.environment["KEYCATALOG_CHECK_KEYS"].flatMap(Int.init).map { [$0] } ?? [100, 1_000, 4_000]) {
                let suiteName = "keycatalog.benchmarks.checks.\(getpid()).\(count).\(stored)"
                let defaults = UserDefaultsPersistence.suite(named: suiteName)!
                defer {
                    defaults.removePersistentDomain(forName: suiteName)
                    try? FileManager.default.removeItem(at: URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".config/\(suiteName).plist"))
                }
                let catalog = BenchmarkCatalog(store: AnyPersistentKeyValueStore(defaults))
                for index in 0..<count {
                    if stored { defaults.set(index, forKey: "bench.count.list\(index)") }
                    blackHole(catalog.count(for: "list\(index)"))
                }
                let watcher = _UserDefaultsChangeWatcher.attach(to: defaults)
                let nanoseconds = measure(runs: 7, targetRun: 50_000_000, maxIterations: 1_000) { iterations in
                    for _ in 0..<iterations { watcher.defaultsDidChange() }
                }
                let perCheck = nanoseconds / 1_000
                print("| \(count) | \(stored ? "yes" : "no") | \(String(format: "%.1f", perCheck)) | \(String(format: "%.2f", perCheck / Double(count))) |")
                fflush(nil)
            }
        }
    }
}
