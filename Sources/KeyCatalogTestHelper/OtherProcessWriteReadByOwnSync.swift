import Foundation
import KeyCatalog

/// `KeyCatalogTestHelper defaults <suite> hear-write-read-by-own-sync <key>`: an observer of a
/// suite's key hears another process's write that this process's own coalesced synchronization
/// read before the suite's file watch reported it. (The watch took the file for this process's
/// own write and checked nothing, and the observer never heard.)
///
/// Sets the key to 1 and writes it out, observes it, and writes another key, which schedules a
/// coalesced synchronization. That synchronization, once it holds the lock the watch waits for,
/// runs a grandchild that sets the key to 3 in the suite's file, then reads it (`synchronize()`
/// merges the file's values under its own). Prints `heard 3` when the observer hears 3, else,
/// after 60 s, `missed` and what a read gives.
enum OtherProcessWriteReadByOwnSync {
    static func run(_ defaults: UserDefaults, suiteName: String, key: String) {
        let intKey = PersistentKey<Int>(key, defaultValue: 0)
        defaults.set(intKey, to: 1)
        TestHelper.flush(defaults)
        let heard = DispatchSemaphore(value: 0)
        let observation = defaults.observe(intKey) { if $0 == 3 { heard.signal() } }
        let hasRun = Flag()
        UserDefaultsPersistence._synchronizationWillWrite = {
            // The coalesced synchronization only (the exit hook's runs on the main thread), once.
            guard !Thread.isMainThread, hasRun.set() else { return }
            let grandchild = Process()
            grandchild.executableURL = Bundle.main.executableURL
            grandchild.arguments = ["defaults", suiteName, "set", key, "3"]
            do { try grandchild.run() } catch { TestHelper.fail("grandchild: \(error)") }
            grandchild.waitUntilExit()
        }
        defaults.set(PersistentKey<Int>("\(key).other", defaultValue: 0), to: 1)
        // 60 s: launching the grandchild on a loaded machine; a missed change never arrives.
        if heard.wait(timeout: .now() + 60) == .success {
            print("heard 3")
        } else {
            print("missed", defaults.get(intKey))
        }
        observation.cancel()
    }
}

/// A flag set once, from any thread.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false

    /// Sets the flag; returns whether this call set it.
    func set() -> Bool {
        lock.withLock {
            defer { isSet = true }
            return !isSet
        }
    }
}
