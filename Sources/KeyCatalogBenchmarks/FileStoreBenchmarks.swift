import Foundation
import KeyCatalog

/// What a file store write costs, and whether it grows with what else the store holds:
/// `swift run -c release keycatalog-benchmarks --file-writes [seconds]`.
///
/// One thread sets an `Int` key in a loop for `seconds` (2 by default) and records every write's
/// wall time and thread CPU time (the table of `--stalls`). Variants:
///
/// - `FileKeyValueStore set`: a new, empty store.
/// - `FileKeyValueStore set, beside 10 MB of Data`: the same after a 10 MB `Data` value was
///   stored under another key (and compacted into the list).
/// - `rewrite + fsync per set`: the whole list rewritten and fsynced on each write, as the file
///   store did before its journal (a plist of the same one key).
/// - `UserDefaults set + synchronize()`: what a crash-durable write to a UserDefaults suite costs
///   on Linux, where only `synchronize()` writes the suite's file (200 other keys in it).
enum FileStoreBenchmarks {
    static func run(seconds: Double) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keycatalog-file-writes-\(getpid())")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = PersistentKey<Int>("count", defaultValue: 0)

        print("| Variant | writes | wall median µs | wall p99.9 µs | wall max µs | wall p99.9 / median | wall > 5 ms | CPU median µs | CPU p99.9 µs | CPU max µs | CPU p99.9 / median | CPU > 5 ms |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        let empty = FileKeyValueStore(url: directory.appendingPathComponent("empty.plist"))
        StallBenchmarks.report("FileKeyValueStore set", StallBenchmarks.measure(seconds: seconds) { i in empty.set(key, to: i) })

        let large = FileKeyValueStore(url: directory.appendingPathComponent("large.plist"))
        large.set(PersistentKey<Data>("blob", defaultValue: Data()), to: Data(repeating: 0x5A, count: 10_000_000))
        try! large.compact()
        StallBenchmarks.report(
            "FileKeyValueStore set, beside 10 MB of Data",
            StallBenchmarks.measure(seconds: seconds) { i in large.set(key, to: i) }
        )

        let raw = RawPropertyListFile(url: directory.appendingPathComponent("raw.plist"))
        StallBenchmarks.report("rewrite + fsync per set", StallBenchmarks.measure(seconds: seconds) { i in raw.set(i, "count") })

        let suiteName = "keycatalog.benchmarks.durable.\(getpid())"
        let defaults = UserDefaultsPersistence.suite(named: suiteName)!
        defer { removeScratchSuite(named: suiteName) }
        for index in 0..<200 { defaults.set("value \(index)", forKey: "filler.\(index)") }
        StallBenchmarks.report(
            "UserDefaults set + synchronize()",
            StallBenchmarks.measure(seconds: seconds) { i in
                defaults.set(key, to: i)
                try! defaults.flushPersistentValues()
            }
        )
    }
}
