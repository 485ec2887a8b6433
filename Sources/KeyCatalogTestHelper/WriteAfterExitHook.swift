import Foundation
import KeyCatalog

/// `KeyCatalogTestHelper defaults <suite> write-after-exit-hook <key>`: a write made after
/// KeyCatalog's exit hook ran is on disk for the next process.
///
/// Installs an `atexit` handler before KeyCatalog's first write (which installs KeyCatalog's
/// hook), so that it runs after that hook: handlers run in the reverse order of their
/// installation. Sets the key to 1 and returns from `main`; the handler then sets it to 2 and
/// prints what it reads back (`exit handler read 2`). No delayed synchronization runs once the
/// process exits: that write is written on the handler's thread before it returns.
enum WriteAfterExitHook {
    /// What the handler writes to: set once, before the handler is installed.
    nonisolated(unsafe) private static var target: (defaults: UserDefaults, key: PersistentKey<Int>)?

    static func run(_ defaults: UserDefaults, key: String) {
        let intKey = PersistentKey<Int>(key, defaultValue: 0)
        target = (defaults, intKey)
        atexit {
            guard let (defaults, key) = WriteAfterExitHook.target else { return }
            defaults.set(key, to: 2)
            print("exit handler read \(defaults.get(key))")
        }
        defaults.set(intKey, to: 1)
    }
}
