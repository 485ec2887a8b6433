import Foundation
import KeyCatalog

/// The child process of KeyCatalogTests' durability tests.
///
/// ```
/// KeyCatalogTestHelper defaults <suite> set <key> <int> [<string-key> <string>]
/// KeyCatalogTestHelper defaults <suite> get <key>
/// KeyCatalogTestHelper defaults <suite> remove <key>          (`standard` as the suite: UserDefaults.standard)
/// KeyCatalogTestHelper file <path> set <key> <int> [<string-key> <string>]
/// KeyCatalogTestHelper file <path> get <key>
/// KeyCatalogTestHelper file <path> write-forever <key>
/// ```
///
/// `set` writes through KeyCatalog and returns from `main` (a normal exit, no explicit
/// synchronize); `get` prints the integer; `write-forever` writes `[n, n, …]` arrays of growing
/// length, printing `ready` after the first, until it is killed.
enum TestHelper {
    static func main(_ arguments: [String]) {
        guard arguments.count >= 4 else { fail("usage: (defaults <suite> | file <path>) (set | get | write-forever) <key> …") }
        let store: any PersistentKeyValueStore
        switch arguments[0] {
        case "defaults" where arguments[1] == "standard":
            store = UserDefaults.standard
        case "defaults":
            guard let defaults = UserDefaultsPersistence.suite(named: arguments[1]) else { fail("bad suite \(arguments[1])") }
            store = defaults
        case "file":
            store = FileKeyValueStore(url: URL(filePath: arguments[1]))
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
        case "get":
            print(store.get(PersistentKey<Int>(key, defaultValue: -1)))
        case "remove":
            store.remove(PersistentKey<Int>(key, defaultValue: 0))
        case "write-forever":
            let arrayKey = PersistentKey<[Int]>(key, defaultValue: [])
            var round = 1
            while true {
                store.set(arrayKey, to: Array(repeating: round, count: round % 200 + 1))
                if round == 1 {
                    FileHandle.standardOutput.write(Data("ready\n".utf8))
                }
                round += 1
            }
        default:
            fail("unknown command \(arguments[2])")
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("KeyCatalogTestHelper: \(message)\n".utf8))
        exit(2)
    }
}
