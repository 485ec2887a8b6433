import Foundation
import KeyCatalog

/// `KeyCatalogTestHelper defaults <suite> hear-other-process <key>`: an observer of a suite's key
/// hears another process's write, wherever this process's environment puts the suite's file (an
/// empty or relative `XDG_CONFIG_HOME`, which Foundation ignores).
///
/// Sets the key to 1 and writes it out, observes it, then runs a grandchild (with this process's
/// environment and working folder) that sets it to 42. Prints `heard 42` when the observer hears
/// 42, else, after 60 s, `missed` and what a read gives.
enum OtherProcessWriteHeard {
    static func run(_ defaults: UserDefaults, suiteName: String, key: String) {
        let intKey = PersistentKey<Int>(key, defaultValue: 0)
        defaults.set(intKey, to: 1)
        TestHelper.flush(defaults)
        let heard = DispatchSemaphore(value: 0)
        let observation = defaults.observe(intKey) { if $0 == 42 { heard.signal() } }
        let grandchild = Process()
        grandchild.executableURL = Bundle.main.executableURL
        grandchild.arguments = ["defaults", suiteName, "set", key, "42"]
        do { try grandchild.run() } catch { TestHelper.fail("grandchild: \(error)") }
        grandchild.waitUntilExit()
        // 60 s: a loaded machine; a missed change never arrives.
        if heard.wait(timeout: .now() + 60) == .success {
            print("heard 42")
        } else {
            print("missed", defaults.get(intKey))
        }
        observation.cancel()
    }
}
