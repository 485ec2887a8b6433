import Foundation
import KeyCatalog

/// How soon another process's write reaches an observer, and what watching costs while nothing
/// changes: `swift run -c release keycatalog-benchmarks --external-changes [rounds]`.
///
/// For a file store and a UserDefaults suite: this process observes a key; each round a child
/// process (this executable, `--external-write`) reads the monotonic clock, writes the key through
/// KeyCatalog and makes it durable (`flushPersistentValues()`: the file store's write already is;
/// the suite synchronizes). The latency is the observer's clock minus the child's before it wrote:
/// the write itself included. Then, with both observers still attached, the process sleeps 5 s
/// and reports the CPU time it used.
enum ExternalChangeBenchmarks {
    static func run(rounds: Int) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keycatalog-external-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let suiteName = "keycatalog.benchmarks.external.\(getpid())"
        defer {
            try? FileManager.default.removeItem(at: folder)
            UserDefaultsPersistence.suite(named: suiteName)?.removePersistentDomain(forName: suiteName)
            try? FileManager.default.removeItem(at: URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".config/\(suiteName).plist"))
        }
        let file = folder.appendingPathComponent("settings.plist").path
        let stores: [(String, String, any PersistentKeyValueStore)] = [
            ("file store", file, FileKeyValueStore(url: URL(fileURLWithPath: file))),
            ("UserDefaults suite", suiteName, UserDefaultsPersistence.suite(named: suiteName)!),
        ]
        print("| Store | rounds | latency min ms | median ms | p90 ms | max ms | missed |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        var observations: [PersistentKeyObservation] = []
        for (label, target, store) in stores {
            let key = PersistentKey<Int>("external.count", defaultValue: 0)
            let seen = _SeenValues()
            observations.append(store.observe(key) { value in seen.record(value, at: monotonicNanoseconds()) })
            var latencies: [Double] = []
            var missed = 0
            for round in 1...rounds {
                let kind = label == "file store" ? "file" : "suite"
                guard let written = writeInChild(kind, target, round) else { missed += 1; continue }
                if let observed = seen.wait(for: round, timeout: 10) {
                    latencies.append(Double(observed - written) / 1e6)
                } else {
                    missed += 1
                }
            }
            latencies.sort()
            func at(_ q: Double) -> String { latencies.isEmpty ? "-" : String(format: "%.2f", latencies[min(latencies.count - 1, Int(Double(latencies.count) * q))]) }
            print("| \(label) | \(rounds) | \(at(0)) | \(at(0.5)) | \(at(0.9)) | \(at(1)) | \(missed) |")
        }
        let before = cpuMicroseconds()
        Thread.sleep(forTimeInterval: 5)
        let used = cpuMicroseconds() - before
        print("\nIdle, both keys observed, 5 s: \(used) µs of CPU (user + system, whole process)")
        withExtendedLifetime(observations) {}
    }

    /// The child: writes `value` and makes it durable; prints the monotonic clock (nanoseconds) as
    /// it was before the write.
    static func write(_ arguments: [String]) {
        guard arguments.count == 3, let value = Int(arguments[2]) else { exit(64) }
        let store: any PersistentKeyValueStore =
            arguments[0] == "file" ? FileKeyValueStore(url: URL(fileURLWithPath: arguments[1])) : UserDefaultsPersistence.suite(named: arguments[1])!
        let start = monotonicNanoseconds()
        store.set(PersistentKey<Int>("external.count", defaultValue: 0), to: value)
        try? store.flushPersistentValues()
        print(start)
    }

    private static func writeInChild(_ kind: String, _ target: String, _ value: Int) -> UInt64? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--external-write", kind, target, String(value)]
        let output = Pipe()
        process.standardOutput = output
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return UInt64(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private static func cpuMicroseconds() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000 + Int(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }
}

/// The values an observer delivered, with when.
final class _SeenValues: @unchecked Sendable {
    private let condition = NSCondition()
    private var seen: [Int: UInt64] = [:]

    func record(_ value: Int, at time: UInt64) {
        condition.withLock {
            if seen[value] == nil { seen[value] = time }
            condition.broadcast()
        }
    }

    func wait(for value: Int, timeout: TimeInterval) -> UInt64? {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while seen[value] == nil {
                if !condition.wait(until: deadline) { return nil }
            }
            return seen[value]
        }
    }
}
