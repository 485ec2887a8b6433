import Foundation
import KeyCatalog

/// The child process of KeyCatalogTests' durability tests.
///
/// ```
/// KeyCatalogTestHelper defaults <suite> set <key> <int> [<string-key> <string>]
/// KeyCatalogTestHelper defaults <suite> get <key>
/// KeyCatalogTestHelper defaults <suite> global-domain <key> [write]
/// KeyCatalogTestHelper defaults <suite> set-exit-mid-sync <key> <int>
/// KeyCatalogTestHelper defaults <suite> write-during-sync <key> [kept-from-0]
/// KeyCatalogTestHelper defaults <suite> set-blocked <key> <int>
/// KeyCatalogTestHelper defaults <suite> argument-override <key>
/// KeyCatalogTestHelper defaults <suite> sync-under-argument[-unnamed] <key> -<key> argument   (SyncUnderLaunchArgument.swift)
/// KeyCatalogTestHelper defaults <suite> hear-write-read-by-own-sync <key>   (OtherProcessWriteReadByOwnSync.swift)
/// KeyCatalogTestHelper defaults <suite> hear-other-process <key>   (OtherProcessWriteHeard.swift)
/// KeyCatalogTestHelper defaults <suite> write-large-after-other-sync <key>   (LargeSuiteWriteAfterOtherSync.swift)
/// KeyCatalogTestHelper defaults <suite> large-suite-probe <key> (fill | after-launch | after-two-suite-pass)   (LargeSuiteWriteProbes.swift)
/// KeyCatalogTestHelper defaults <suite> write-after-exit-hook <key>   (WriteAfterExitHook.swift)
/// KeyCatalogTestHelper defaults <suite> remove <key>          (`standard` as the suite: UserDefaults.standard)
/// KeyCatalogTestHelper file <path> set <key> <int> [<string-key> <string>]
/// KeyCatalogTestHelper file <path> set-strings <key> <string>…
/// KeyCatalogTestHelper file <path> get <key>
/// KeyCatalogTestHelper file <path> write-forever <key>
/// KeyCatalogTestHelper file <path> write-many <prefix> <count>
/// KeyCatalogTestHelper file <path> write-records <prefix> <first>
/// KeyCatalogTestHelper file <path> get-scalars <key-scalars>
/// KeyCatalogTestHelper file <path> compact-set <key> <int>
/// KeyCatalogTestHelper home <service>
/// KeyCatalogTestHelper keychain-fallback <service>
/// ```
///
/// `set` writes through KeyCatalog and returns from `main` (a normal exit, no explicit
/// synchronize); `set-exit-mid-sync` does too, but only once the delayed `synchronize()` has taken
/// the suite and is held for 0.5 s before writing it; `write-during-sync` fills the suite with
/// 64 KB of other keys (or, with `kept-from-0`, sets `keptWritesFileSize` to 0 instead), sets the
/// key to 1, holds
/// the delayed `synchronize()` in that window, sets it to 2 (printing `returned` if that returned
/// within 5 s, else `blocked`, and exiting), prints what a read gives then (`read 2`), lets the
/// synchronization go on, writes everything pending and prints what UserDefaults itself holds
/// (`defaults 2`); `defer-every-write` turns on `defersEveryWrite`, sets the key and prints
/// whether a read and UserDefaults itself give the new value (`read new contains true defaults
/// old`), removes it (`removed 0 contains false`), sets it to 7 and reads it with 9 in the
/// argument domain and after (`argument 9 then 7`), sets it to 1, to 2 through a second instance
/// of the suite, to 42, and exits; `write-deferred-many`
/// does the same (or, with `kept-from-0`, sets `keptWritesFileSize` to 0 instead) for
/// `<key>.<n % 256>` = n, n in 1...count, and prints how many reads right after a write gave
/// another value (`stale 0`); `set-blocked` puts a
/// folder where the suite's file goes, sets the key, writes everything pending (which fails and is
/// reported on standard error) and prints `done`;
/// `argument-override` sets the key to 5, reads it, puts 9 for it in the argument domain, reads
/// it, takes that away and reads it again (printing `5 9 5`); `get`
/// prints the integer; `write-forever` writes `[n, n, …]` arrays of growing
/// length, printing `ready` after the first, until it is killed; `write-many` sets
/// `<prefix>.<n % 8>` to `n` for n in 1...count, printing `<key> <n>` after each `set` returned
/// (and `stale <key> <n>` on standard error if reading it back gives anything else);
/// `write-records` sets `<prefix>.<n % 16>` to ``TestHelper/record(_:)`` for n = first, first + 1, …
/// until it is killed, printing `<key> <n>` after each `set` returned;
/// `global-domain` (`write`: after putting 7 for the key in `UserDefaults.globalDomain` through
/// `setPersistentDomain`) prints what `contains`, `get` and Foundation's `object(forKey:)` give
/// (`contains false get 7 foundation 7`), then again after setting the key to 5 and after removing it;
/// `get-scalars` takes and prints strings as Unicode scalar values in hex, separated by `.`;
/// `compact-set` compacts the file store (a new list and journal), then sets the key;
/// `home` writes `1` under `Home` to `~/home.plist`, `relative.plist` and the keychain's
/// service, and prints the file stores' descriptions; `keychain-fallback`: see
/// KeychainFallback.swift.
enum TestHelper {
    static func main(_ arguments: [String]) {
        if arguments.first == "home", arguments.count == 2 {
            let key = PersistentKey<Int>("Home", defaultValue: 0)
            var stores = [AnyPersistentKeyValueStore.file(path: "~/home.plist"), .file(path: "relative.plist")]
            #if !canImport(Security)
            // The keychain's stand-in file; a real keychain (Apple platforms) is not in `HOME`.
            stores.append(.keychain(service: arguments[1]))
            #endif
            for store in stores {
                store.set(key, to: 1)
                print(store.persistentStoreDescription)
            }
            return
        }
        if arguments.first == "keychain-fallback", arguments.count == 2 {
            KeychainFallback.run(service: arguments[1])
            return
        }
        guard arguments.count >= 4 else { fail("usage: (defaults <suite> | file <path>) (set | get | write-forever) <key> …") }
        let store: any PersistentKeyValueStore
        switch arguments[0] {
        case "defaults" where arguments[1] == "standard":
            store = UserDefaults.standard
        case "defaults":
            guard let defaults = UserDefaultsPersistence.suite(named: arguments[1]) else { fail("bad suite \(arguments[1])") }
            store = defaults
        case "file":
            store = FileKeyValueStore(url: URL(fileURLWithPath: arguments[1]))
        default:
            fail("unknown store \(arguments[0])")
        }
        let key = arguments[3]
        switch arguments[2] {
        case "set":
            guard arguments.count >= 5, let value = Int(arguments[4]) else { fail("set needs an integer") }
            let intKey = PersistentKey<Int>(key, defaultValue: 0)
            // Asking first, as a migration does, must not change where the value is written.
            _ = store.contains(intKey)
            store.set(intKey, to: value)
            if arguments.count >= 7 {
                store.set(PersistentKey<String>(arguments[5], defaultValue: ""), to: arguments[6])
            }
        case "hear-write-read-by-own-sync":
            guard arguments[0] == "defaults", let defaults = store as? UserDefaults else { fail("hear-write-read-by-own-sync needs a suite") }
            OtherProcessWriteReadByOwnSync.run(defaults, suiteName: arguments[1], key: key)
        case "write-large-after-other-sync":
            guard arguments[0] == "defaults", let defaults = store as? UserDefaults else { fail("write-large-after-other-sync needs a suite") }
            LargeSuiteWriteAfterOtherSync.run(defaults, suiteName: arguments[1], key: key)
        case "write-after-exit-hook":
            guard arguments[0] == "defaults", let defaults = store as? UserDefaults else { fail("write-after-exit-hook needs a suite") }
            WriteAfterExitHook.run(defaults, key: key)
        case "large-suite-probe":
            guard arguments[0] == "defaults", arguments.count >= 5, let defaults = store as? UserDefaults else { fail("large-suite-probe needs a suite and a mode") }
            LargeSuiteWriteProbes.run(defaults, suiteName: arguments[1], key: key, mode: arguments[4])
        case "hear-other-process":
            guard arguments[0] == "defaults", let defaults = store as? UserDefaults else { fail("hear-other-process needs a suite") }
            OtherProcessWriteHeard.run(defaults, suiteName: arguments[1], key: key)
        case "set-exit-mid-sync":
            // Exits while the coalesced synchronize() has taken the suite and not yet written it:
            // the exit hook must wait for that write (it once returned at once, and the value was lost).
            guard arguments.count >= 5, let value = Int(arguments[4]) else { fail("set-exit-mid-sync needs an integer") }
            let taken = DispatchSemaphore(value: 0)
            UserDefaultsPersistence._synchronizationWillWrite = {
                guard !Thread.isMainThread else { return }  // the exit hook's own pass
                taken.signal()
                Thread.sleep(forTimeInterval: 0.5)
            }
            store.set(PersistentKey<Int>(key, defaultValue: 0), to: value)
            taken.wait()
            print("exiting while the delayed synchronize() is under way")
        case "write-during-sync":
            // A write while KeyCatalog synchronizes a large suite must neither wait for it nor be
            // lost. Large: 64 KB, over the size from which writes do not wait.
            let intKey = PersistentKey<Int>(key, defaultValue: 0)
            let defaults = store as! UserDefaults
            if arguments.count >= 5, arguments[4] == "kept-from-0" {
                UserDefaultsPersistence.keptWritesFileSize = 0
            } else {
                TestHelper.fillLarge(defaults)
                defaults.synchronize()
            }
            let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
            UserDefaultsPersistence._synchronizationWillWrite = {
                guard !Thread.isMainThread else { return }
                entered.signal()
                release.wait()
            }
            store.set(intKey, to: 1)
            entered.wait()
            let written = DispatchSemaphore(value: 0)
            // UserDefaults is thread-safe, though not `Sendable` on Linux.
            nonisolated(unsafe) let suite = store
            let writer = Thread {
                suite.set(intKey, to: 2)
                written.signal()
            }
            writer.start()
            // A write that waits for the held synchronization never returns; 30 s is for a loaded
            // machine's scheduling only.
            guard written.wait(timeout: .now() + 30) == .success else {
                print("blocked")
                fflush(nil)
                _exit(1)  // not exit(): its hook would wait for the synchronization held here
            }
            print("returned")
            print("read \(store.get(intKey))")
            UserDefaultsPersistence._synchronizationWillWrite = nil
            release.signal()
            UserDefaultsPersistence.synchronizePendingWrites()
            print("defaults \(defaults.integer(forKey: key))")
        case "set-blocked":
            // Foundation cannot write the suite's file where a folder stands: the failure is reported.
            guard arguments.count >= 5, let value = Int(arguments[4]) else { fail("set-blocked needs an integer") }
            let configuration = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? NSHomeDirectory() + "/.config"
            let file = URL(fileURLWithPath: configuration).appendingPathComponent("\(arguments[1]).plist")
            do {
                try FileManager.default.createDirectory(at: file.appendingPathComponent("blocked"), withIntermediateDirectories: true)
            } catch {
                fail("could not block \(file.path): \(error)")
            }
            store.set(PersistentKey<Int>(key, defaultValue: 0), to: value)
            UserDefaultsPersistence.synchronizePendingWrites()
            print("done")
        case "defer-every-write":
            // With every write deferred, a write returns without reaching Foundation, reads back
            // at once through KeyCatalog, and is on disk after a normal exit.
            let intKey = PersistentKey<Int>(key, defaultValue: 0)
            let defaults = store as! UserDefaults
            UserDefaultsPersistence.defersEveryWrite = true
            // The coalesced synchronization hands the write over 100 ms later: a try that took
            // 50 ms (a loaded machine) is made again with a new value, up to 20 times.
            for value in 1...20 {
                let start = DispatchTime.now().uptimeNanoseconds
                store.set(intKey, to: value)
                let direct = defaults.object(forKey: key) as? Int
                let read = store.get(intKey), contains = store.contains(intKey)
                guard DispatchTime.now().uptimeNanoseconds - start < 50_000_000 else { continue }
                print("read \(read == value ? "new" : "old") contains \(contains) defaults \(direct == value ? "new" : "old")")
                break
            }
            store.remove(intKey)
            print("removed \(store.get(intKey)) contains \(store.contains(intKey))")
            // The argument domain overrides a kept write as it overrides the suite.
            store.set(intKey, to: 7)
            defaults.setVolatileDomain([key: 9], forName: UserDefaults.argumentDomain)
            let overridden = store.get(intKey)
            defaults.removeVolatileDomain(forName: UserDefaults.argumentDomain)
            print("argument \(overridden) then \(store.get(intKey))")
            // Another instance of the suite writes to the same domain: the last write wins on disk.
            guard let other = UserDefaults(suiteName: arguments[1]) else { fail("bad suite \(arguments[1])") }
            store.set(intKey, to: 1)
            other.set(intKey, to: 2)
            store.set(intKey, to: 42)
        case "write-deferred-many":
            // Writes go on while synchronizations hand the kept ones to Foundation: each reads back
            // at once, and the last of each key is on disk after exit. Every write deferred, or
            // (`kept-from-0`) those made during a synchronization and while kept ones wait.
            guard arguments.count >= 5, let count = Int(arguments[4]) else { fail("write-deferred-many needs a count") }
            if arguments.count >= 6, arguments[5] == "kept-from-0" {
                UserDefaultsPersistence.keptWritesFileSize = 0
            } else {
                UserDefaultsPersistence.defersEveryWrite = true
            }
            let keys = (0..<256).map { PersistentKey<Int>("\(key).\($0)", defaultValue: 0) }
            var stale = 0
            for n in 1...max(count, 1) {
                let intKey = keys[n % 256]
                store.set(intKey, to: n)
                if store.get(intKey) != n { stale += 1 }
            }
            print("stale \(stale)")
        case "argument-override":
            // The argument domain overrides the suite, also when it changes after a read.
            let intKey = PersistentKey<Int>(key, defaultValue: -1)
            let defaults = store as! UserDefaults
            store.set(intKey, to: 5)
            let before = store.get(intKey)
            defaults.setVolatileDomain([key: 9], forName: UserDefaults.argumentDomain)
            let overridden = store.get(intKey)
            defaults.removeVolatileDomain(forName: UserDefaults.argumentDomain)
            print(before, overridden, store.get(intKey))
        case "sync-under-argument":
            SyncUnderLaunchArgument.run(store as! UserDefaults, key: key)
        case "sync-under-argument-unnamed":
            SyncUnderLaunchArgument.runUnnamed(suiteName: arguments[1], key: key)
        case "set-strings":
            store.set(PersistentKey<[String]>(key, defaultValue: []), to: Array(arguments.dropFirst(4)))
        case "compact-set":
            guard arguments.count >= 5, let value = Int(arguments[4]), let file = store as? FileKeyValueStore else {
                fail("compact-set needs a file store and an integer")
            }
            do {
                try file.compact()
                try file._set(PersistentKey<Int>(key, defaultValue: 0), to: value)
            } catch {
                fail("compact-set: \(error)")
            }
        case "global-domain":
            guard let defaults = store as? UserDefaults else { fail("global-domain needs a suite") }
            if arguments.count >= 5, arguments[4] == "write" {
                UserDefaults.standard.setPersistentDomain([key: 7], forName: UserDefaults.globalDomain)
            }
            let intKey = PersistentKey<Int>(key, defaultValue: 0)
            func report() {
                print("contains", defaults.contains(intKey), "get", defaults.get(intKey), "foundation", defaults.object(forKey: key).map { "\($0)" } ?? "nil")
            }
            report()
            defaults.set(intKey, to: 5)
            report()
            defaults.remove(intKey)
            report()
        case "get":
            print(store.get(PersistentKey<Int>(key, defaultValue: -1)))
        case "remove":
            store.remove(PersistentKey<Int>(key, defaultValue: 0))
        case "write-forever":
            let arrayKey = PersistentKey<[Int]>(key, defaultValue: [])
            var round = 1
            let parent = getppid()
            while true {
                stop(ifOrphanedOf: parent)
                store.set(arrayKey, to: Array(repeating: round, count: round % 200 + 1))
                if round == 1 {
                    FileHandle.standardOutput.write(Data("ready\n".utf8))
                }
                round += 1
            }
        case "write-many":
            guard arguments.count >= 5, let count = Int(arguments[4]) else { fail("write-many needs a count") }
            for n in 1...max(count, 1) {
                let intKey = PersistentKey<Int>("\(key).\(n % 8)", defaultValue: 0)
                do {
                    try store._set(intKey, to: n)
                } catch {
                    FileHandle.standardError.write(Data("failed \(intKey.id) \(n): \(error)\n".utf8))
                    continue
                }
                FileHandle.standardOutput.write(Data("\(intKey.id) \(n)\n".utf8))
                let readBack = store.get(intKey)
                if readBack != n {
                    FileHandle.standardError.write(Data("stale \(intKey.id) \(n): read \(readBack)\n".utf8))
                }
            }
        case "write-records":
            guard arguments.count >= 5, let first = Int(arguments[4]) else { fail("write-records needs a first number") }
            let parent = getppid()
            for n in first... {
                stop(ifOrphanedOf: parent)
                let recordKey = PersistentKey<[String]>("\(key).\(n % 16)", defaultValue: [])
                do {
                    try store._set(recordKey, to: record(n))
                } catch {
                    FileHandle.standardError.write(Data("failed \(recordKey.id) \(n): \(error)\n".utf8))
                    continue
                }
                FileHandle.standardOutput.write(Data("\(recordKey.id) \(n)\n".utf8))
            }
        case "get-scalars":
            let stringKey = PersistentKey<String>(fromScalars(key), defaultValue: "<default>")
            print(scalars(store.get(stringKey)))
        default:
            fail("unknown command \(arguments[2])")
        }
    }

    /// The value `write-records` writes for `n`: its digits, then one letter repeated up to 9,000
    /// times (so records span pages, and a torn one shows), then the digits again.
    static func record(_ n: Int) -> [String] {
        let letter = Character(Unicode.Scalar(UInt8(97 + n % 26)))
        return [String(n), String(repeating: letter, count: n * 7919 % 9000), String(n)]
    }

    /// `"feff.61"` as `"\u{FEFF}a"`.
    static func fromScalars(_ hex: String) -> String {
        String(String.UnicodeScalarView(hex.split(separator: ".").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }))
    }

    static func scalars(_ string: String) -> String {
        string.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ".")
    }

    /// Ends a writer that runs until it is killed once the test that started it (`parent`) is
    /// gone (a test process that crashed kills no child): otherwise it would write, and load the
    /// machine, for good (found: three such writers, 45 minutes after a crashed run).
    static func stop(ifOrphanedOf parent: pid_t) {
        if getppid() != parent { exit(0) }
    }

    /// Sets 64 keys `filler.<n>` of 1 KB each in `defaults` through Foundation: a suite over the
    /// size (32 KB) from which KeyCatalog keeps writes rather than wait, once written out.
    static func fillLarge(_ defaults: UserDefaults) {
        for index in 0..<64 { defaults.set(String(repeating: "x", count: 1_000), forKey: "filler.\(index)") }
    }

    /// `flushPersistentValues()`, failing the helper if it throws.
    static func flush(_ defaults: UserDefaults) {
        do { try defaults.flushPersistentValues() } catch { fail("flush: \(error)") }
    }

    /// The suite `<suiteName>.other`, opened by name: a second suite beside the one a scenario is about.
    static func otherSuite(of suiteName: String) -> UserDefaults {
        guard let other = UserDefaultsPersistence.suite(named: "\(suiteName).other") else { fail("bad suite \(suiteName).other") }
        return other
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("KeyCatalogTestHelper: \(message)\n".utf8))
        exit(2)
    }
}
