import Foundation
import KeyCatalog

/// `KeyCatalogTestHelper defaults <suite> write-large-after-other-sync <key>`: a write to a large
/// suite after a synchronization that did not write it is kept, and handed to Foundation by the
/// next synchronization, not made on the writer's thread.
///
/// Foundation on Linux synchronizes every suite of the process at once, and drops what it read of
/// each suite it finds unchanged: the next write to that suite read its whole file again on the
/// writer's thread (about 100 ms for 2 MB). Fills the suite with 64 KB of other keys, sets the
/// key to 1 and writes it out; then sets a key of another suite and writes that out. Then sets
/// the key to 2 and prints what KeyCatalog and UserDefaults itself read (`read 2 defaults 1`:
/// kept). Meanwhile a write through KeyCatalog to the other suite goes to Foundation at once
/// (`other 6`), and the app then sets 9 there itself. Writes everything pending and prints what
/// UserDefaults holds (`defaults 2 other 9`: the app's own write not overwritten). That
/// synchronization wrote the suite, so a write of 3 then goes to Foundation at once (`then 3`),
/// and the exit hook writes it to disk.
enum LargeSuiteWriteAfterOtherSync {
    static func run(_ defaults: UserDefaults, suiteName: String, key: String) {
        let intKey = PersistentKey<Int>(key, defaultValue: 0)
        TestHelper.fillLarge(defaults)
        defaults.synchronize()
        defaults.set(intKey, to: 1)
        TestHelper.flush(defaults)
        let other = TestHelper.otherSuite(of: suiteName)
        other.set(intKey, to: 5)
        TestHelper.flush(other)
        defaults.set(intKey, to: 2)
        print("read \(defaults.get(intKey)) defaults \(defaults.integer(forKey: key))")
        // The other suite's writes meanwhile go to Foundation at once: a value the app then sets
        // there itself is not overwritten by the hand-over of the kept one.
        other.set(intKey, to: 6)
        print("other \(other.integer(forKey: key))")
        other.set(9, forKey: key)
        UserDefaultsPersistence.synchronizePendingWrites()
        print("defaults \(defaults.integer(forKey: key)) other \(other.integer(forKey: key))")
        defaults.set(intKey, to: 3)
        print("then \(defaults.integer(forKey: key))")
    }
}
