import Foundation
import KeyCatalog

/// Write latency while background synchronizations run:
/// `swift run -c release keycatalog-benchmarks --stalls [seconds]`.
///
/// One thread writes an `Int` key of a UserDefaults suite in a loop for `seconds` (4 by
/// default) and records every write's wall time and thread CPU time. The variants:
///
/// - `KeyCatalog set`: `store.set(key, to:)`, which schedules KeyCatalog's coalesced
///   `synchronize()` (every 100 ms while writes go on).
/// - `raw set + background synchronize()`: `set(_:forKey:)`, with another thread calling
///   `synchronize()` every 100 ms, as KeyCatalog did before it serialized the two.
/// - `raw set, no synchronize`: the floor this machine's scheduler allows.
/// - `KeyCatalog set, keptWritesFileSize 0`: the first variant with every write made during a
///   synchronization kept by KeyCatalog rather than waiting (by default only for suites of 32 KB
///   and more).
/// - `KeyCatalog set, defersEveryWrite`: the first variant with every write kept by KeyCatalog and
///   handed to Foundation by the coalesced synchronization; then the same over 1,000 keys in turn,
///   so that each synchronization hands over 1,000 writes.
/// - `locked dictionary set, no synchronize`: the floor of a write that calls nothing (a lock and a
///   dictionary store, ``LockedDictionary``): the tail this machine allows such a write.
/// - `KeyCatalog set, 2 MB suite`: the first variant after 2,000 keys of 1 KB were added, so that
///   each synchronization rewrites 2 MB; then the same over 1,000 keys in turn, so that 1,000
///   writes kept during each synchronization are handed to Foundation after it.
/// - `KeyCatalog set, 2 MB suite once a second, a small suite otherwise`: a write to the 2 MB suite
///   once a second, and between them writes to a small suite, whose synchronizations (Foundation
///   synchronizes every suite of the process) find the large one unchanged and drop what
///   Foundation had read of it.
enum StallBenchmarks {
    static func run(seconds: Double) {
        print("| Variant | writes | wall median µs | wall p99.9 µs | wall max µs | wall p99.9 / median | wall > 5 ms | CPU median µs | CPU p99.9 µs | CPU max µs | CPU p99.9 / median | CPU > 5 ms | wall > 5 ms: blocked | wall > 5 ms: preempted only |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        let suiteName = "keycatalog.benchmarks.stalls.\(getpid())"
        let defaults = UserDefaultsPersistence.suite(named: suiteName)!
        defer { removeScratchSuite(named: suiteName) }
        // A suite of realistic size: 200 keys of short strings and numbers.
        for index in 0..<200 {
            defaults.set("value \(index)", forKey: "filler.\(index)")
        }
        defaults.synchronize()
        let key = PersistentKey<Int>("stall.int", defaultValue: 0)

        report("KeyCatalog set", measure(seconds: seconds) { i in defaults.set(key, to: i) })
        UserDefaultsPersistence.synchronizePendingWrites()

        let stop = _StallFlag()
        let shared = _StallDefaults(defaults)
        let syncer = Thread {
            while !stop.isSet {
                usleep(100_000)
                shared.defaults.synchronize()
            }
        }
        syncer.start()
        report("raw set + background synchronize()", measure(seconds: seconds) { i in defaults.set(i, forKey: "stall.raw") })
        stop.set()
        usleep(150_000)

        report("raw set, no synchronize", measure(seconds: seconds) { i in defaults.set(i, forKey: "stall.raw") })

        // Every write kept while KeyCatalog synchronizes, small suite included.
        UserDefaultsPersistence.keptWritesFileSize = 0
        report("KeyCatalog set, keptWritesFileSize 0", measure(seconds: seconds) { i in defaults.set(key, to: i) })
        UserDefaultsPersistence.synchronizePendingWrites()
        UserDefaultsPersistence.keptWritesFileSize = 32 * 1024

        UserDefaultsPersistence.defersEveryWrite = true
        report("KeyCatalog set, defersEveryWrite", measure(seconds: seconds) { i in defaults.set(key, to: i) })
        let manyKeys = (0..<1_000).map { PersistentKey<Int>("stall.many.\($0)", defaultValue: 0) }
        report("KeyCatalog set, defersEveryWrite, 1,000 keys in turn", measure(seconds: seconds) { i in defaults.set(manyKeys[(i & Int.max) % 1_000], to: i) })
        UserDefaultsPersistence.defersEveryWrite = false
        UserDefaultsPersistence.synchronizePendingWrites()
        let dictionary = LockedDictionary()
        report("locked dictionary set, no synchronize", measure(seconds: seconds) { i in dictionary.set(i, "stall.int") })

        // A large suite: 2,000 more keys of 1 KB each, so that each synchronization rewrites 2 MB.
        for index in 0..<2_000 {
            defaults.set(String(repeating: "x", count: 1_000) + "\(index)", forKey: "large.\(index)")
        }
        defaults.synchronize()
        report("KeyCatalog set, 2 MB suite", measure(seconds: seconds) { i in defaults.set(key, to: i) })
        report("KeyCatalog set, 2 MB suite, 1,000 keys in turn", measure(seconds: seconds) { i in defaults.set(manyKeys[(i & Int.max) % 1_000], to: i) })
        UserDefaultsPersistence.synchronizePendingWrites()

        // The 2 MB suite written now and then (once a second), another, small suite otherwise: each
        // synchronization of the small one finds the large one unchanged.
        let otherName = "keycatalog.benchmarks.stalls.other.\(getpid())"
        let other = UserDefaultsPersistence.suite(named: otherName)!
        defer { removeScratchSuite(named: otherName) }
        var lastLargeWrite: UInt64 = 0
        report(
            "KeyCatalog set, 2 MB suite once a second, a small suite otherwise",
            measure(seconds: seconds) { i in
                if now() - lastLargeWrite >= 1_000_000_000 {
                    lastLargeWrite = now()
                    defaults.set(key, to: i)
                } else {
                    other.set(key, to: i)
                }
            }
        )
        UserDefaultsPersistence.synchronizePendingWrites()
    }

    struct Samples {
        var wall: [UInt64] = []
        var cpu: [UInt64] = []
        /// Per write: whether the thread gave up the CPU during it (a lock wait, I/O), and whether
        /// it was preempted, from `getrusage(RUSAGE_THREAD)` read between writes (a switch in
        /// that gap counts for the next write; rare, and only ever an overcount).
        var blocked: [Bool] = []
        var preempted: [Bool] = []
    }

    static func measure(seconds: Double, _ write: (Int) -> Void) -> Samples {
        // One write first, untimed: the first write through a store sets it up (its change center,
        // the exit hook, the file watch) once per process.
        write(-1)
        var samples = Samples()
        samples.wall.reserveCapacity(2_000_000)
        samples.cpu.reserveCapacity(2_000_000)
        samples.blocked.reserveCapacity(2_000_000)
        samples.preempted.reserveCapacity(2_000_000)
        let end = now() + UInt64(seconds * 1e9)
        var i = 0
        var switches = contextSwitches()
        while true {
            let cpu0 = threadCPU(), wall0 = now()
            write(i)
            let wall1 = now(), cpu1 = threadCPU()
            samples.wall.append(wall1 - wall0)
            samples.cpu.append(cpu1 - cpu0)
            let after = contextSwitches()
            samples.blocked.append(after.voluntary != switches.voluntary)
            samples.preempted.append(after.involuntary != switches.involuntary)
            switches = after
            i += 1
            if wall1 >= end { break }
        }
        return samples
    }

    /// The calling thread's voluntary and involuntary context switches so far.
    static func contextSwitches() -> (voluntary: Int, involuntary: Int) {
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD (Linux), which Glibc does not export to Swift
        return (usage.ru_nvcsw, usage.ru_nivcsw)
    }

    static func threadCPU() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Wall time is what a caller waits, preemption included (on a loaded machine the scheduler
    /// alone makes writes of tens of ms: compare the no-synchronize floor); the thread's CPU time
    /// is what the write itself burned, spinning included, and preemption does not inflate it.
    static func report(_ name: String, _ samples: Samples) {
        let wall = samples.wall.sorted(), cpu = samples.cpu.sorted()
        func percentile(_ values: [UInt64], _ p: Double) -> Double { Double(values[min(values.count - 1, Int(Double(values.count) * p))]) / 1_000 }
        func row(_ values: [UInt64]) -> String {
            let median = percentile(values, 0.5), p999 = percentile(values, 0.999)
            let maximum = Double(values.last ?? 0) / 1_000
            let over = values.count(where: { $0 > 5_000_000 })
            return "\(String(format: "%.1f", median)) | \(String(format: "%.1f", p999)) | \(String(format: "%.0f", maximum)) | \(String(format: "%.1fx", p999 / median)) | \(over)"
        }
        let slow = samples.wall.indices.filter { samples.wall[$0] > 5_000_000 }
        let blocked = slow.count { samples.blocked[$0] }
        let preemptedOnly = slow.count { samples.preempted[$0] && !samples.blocked[$0] }
        print("| \(name) | \(wall.count) | \(row(wall)) | \(row(cpu)) | \(blocked) | \(preemptedOnly) |")
        fflush(nil)
    }
}

/// A flag one thread sets and another polls.
final class _StallFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// UserDefaults is thread-safe but not `Sendable` on Linux.
final class _StallDefaults: @unchecked Sendable {
    let defaults: UserDefaults
    init(_ defaults: UserDefaults) { self.defaults = defaults }
}
