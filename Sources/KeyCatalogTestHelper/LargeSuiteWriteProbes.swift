import Foundation
import KeyCatalog

#if canImport(Glibc)
import Glibc
#endif

/// Probes of writes to a large suite whose values Foundation may have dropped (see
/// LargeSuiteWriteAfterOtherSync.swift): each sets the key to 2 through KeyCatalog and prints what
/// UserDefaults itself holds then (`defaults 1`, or 3 after `after-two-suite-pass`: the write was
/// kept, for a synchronization to hand over; `defaults 2`: it was made in Foundation at once) and, on Linux, whether the suite's file
/// was opened while the write ran (`opened true`: Foundation read it again on the writer's
/// thread). `skipped`: a synchronization of KeyCatalog's began meanwhile (the probe cannot tell).
///
/// `KeyCatalogTestHelper defaults <suite> large-suite-probe <key> fill`: fills the suite with
/// 64 KB of other keys, sets the key to 1 and writes it out with UserDefaults' own
/// `synchronize()`, as a previous launch left it.
///
/// `... large-suite-probe <key> after-launch`: a new launch of a suite filled so. Sets a key of
/// another suite and writes that out (`flushPersistentValues()`, a synchronization of every
/// suite in Foundation), then probes.
///
/// `... large-suite-probe <key> after-two-suite-pass`: fills the suite, sets the key to 1 and
/// writes it out through KeyCatalog; sets it to 3 and a key of another suite, so that the
/// next pass synchronizes both suites, this one first; the pass's hook reads the key through
/// UserDefaults before the second suite's `synchronize()` (as any thread may); then probes.
enum LargeSuiteWriteProbes {
    static func run(_ defaults: UserDefaults, suiteName: String, key: String, mode: String) {
        let intKey = PersistentKey<Int>(key, defaultValue: 0)
        let file = defaultsFile(suiteName)
        switch mode {
        case "fill":
            TestHelper.fillLarge(defaults)
            defaults.set(1, forKey: key)
            defaults.synchronize()
            print("filled")
            return
        case "after-launch":
            let other = TestHelper.otherSuite(of: suiteName)
            other.set(intKey, to: 5)
            TestHelper.flush(other)
        case "after-two-suite-pass":
            TestHelper.fillLarge(defaults)
            defaults.synchronize()
            defaults.set(intKey, to: 1)
            TestHelper.flush(defaults)
            let calls = Counter()
            // UserDefaults is thread-safe, though not `Sendable` on Linux.
            nonisolated(unsafe) let reader = defaults
            UserDefaultsPersistence._synchronizationWillWrite = {
                if calls.increment() == 2 { _ = reader.object(forKey: "filler.0") }
            }
            // Foundation holds 1 already: another value, so that the suite has a changed key.
            defaults.set(intKey, to: 3)
            TestHelper.otherSuite(of: suiteName).set(intKey, to: 5)
            UserDefaultsPersistence.synchronizePendingWrites()
            UserDefaultsPersistence._synchronizationWillWrite = nil
            guard calls.value == 2 else { TestHelper.fail("the pass synchronized \(calls.value) suites, not 2") }
        default:
            TestHelper.fail("unknown probe \(mode)")
        }
        let began = Counter()
        UserDefaultsPersistence._synchronizationWillWrite = { _ = began.increment() }
        let watch = FileOpenWatch(file)
        defaults.set(intKey, to: 2)
        let opened = watch?.opened()
        let defaultsValue = defaults.integer(forKey: key)
        guard began.value == 0 else {
            print("skipped")
            return
        }
        print("defaults \(defaultsValue) opened \(opened.map(String.init) ?? "unknown")")
    }

    /// Where swift-corelibs-foundation keeps the suite: `$XDG_CONFIG_HOME/<suite>.plist`, and
    /// `standard` as `<process name>.plist`.
    private static func defaultsFile(_ suiteName: String) -> String {
        let configuration = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? (NSHomeDirectory() + "/.config")
        let name = suiteName == "standard" ? ProcessInfo.processInfo.processName : suiteName
        return configuration + "/\(name).plist"
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// Whether a file was opened since the watch began (inotify's `IN_OPEN`, Linux only).
private final class FileOpenWatch {
    #if canImport(Glibc)
    private let descriptor: Int32

    init?(_ path: String) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK))
        guard descriptor >= 0 else { return nil }
        guard inotify_add_watch(descriptor, path, UInt32(IN_OPEN)) >= 0 else {
            close(descriptor)
            return nil
        }
    }

    func opened() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return count > 0
    }

    deinit { close(descriptor) }
    #else
    init?(_ path: String) { return nil }
    func opened() -> Bool { false }
    #endif
}
