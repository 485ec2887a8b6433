import Foundation
import KeyCatalog
import Models

enum ClientChecks {
    static func run() -> Bool {
        var failures: [String] = []
        func check(_ condition: Bool, _ message: String) {
            if !condition { failures.append(message) }
        }

        // A real UserDefaults suite and a real file, both removed afterwards.
        let suite = "keycatalog.plugin-client.\(UUID().uuidString)"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-client-\(UUID().uuidString)")
        defer {
            UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite)
            try? FileManager.default.removeItem(at: folder)
        }
        let stores = ClientKeys.Stores(
            standard: .userDefaults(suite: suite),
            file: .file(path: folder.appendingPathComponent("settings.plist").path),
            scratch: .memory()
        )
        let keys = ClientKeys(stores: stores)

        // Defaults, from the manifest.
        check(keys.counter == 7, "counter default")
        check(keys.mode == .simple, "mode default")
        check(keys.tags == ["a", "b"], "tags default")
        check(keys.homepage == URL(string: "https://example.com/x"), "homepage default")
        check(keys.nickname == nil, "nickname default")
        check(keys.layout == Layout(columns: 2), "a type of another module: default")
        #if DEBUG
        check(keys.verboseLogging == true, "debug key: Debug default")
        #else
        check(keys.verboseLogging == false, "debug key: Release default")
        #endif

        // Writes round-trip through each declared store.
        keys.counter = 8
        keys.mode = .advanced
        keys.tags = ["x"]
        keys.homepage = URL(string: "https://swift.org/keycatalog")!
        keys.nickname = "kc"
        keys.verboseLogging = false
        check(stores.standard.get(keys.$counter.key) == 8 && keys.$counter.value == 8, "counter via the bound key")
        check(keys.mode == .advanced, "mode round-trip")
        check(FileKeyValueStore(url: folder.appendingPathComponent("settings.plist")).get(keys.$tags.key) == ["x"], "tags persisted in the file")
        check(keys.homepage.absoluteString == "https://swift.org/keycatalog", "https URL survives")
        check(keys.nickname == "kc", "memory store round-trip")
        check(keys.verboseLogging == false, "debug key written in Debug, ignored in Release")
        keys.layout = Layout(columns: 3)
        check(keys.layout == Layout(columns: 3), "a type of another module: round-trip")

        // Parameterized keys.
        let document = UUID()
        keys.setDraft("hello", documentID: document)
        check(keys.draft(documentID: document) == "hello", "parameterized round-trip")
        check(stores.standard.persistentValue(forKey: "\(document.uuidString)_Draft") == .string("hello"), "parameterized storage key")

        // The registration table and reset.
        check(ClientKeys.entries.map(\.name) == ["counter", "mode", "tags", "homepage", "nickname", "verboseLogging", "draft", "renamedCounter", "layout"], "entries in manifest order")
        keys.reset()
        check(keys.counter == 7 && keys.tags == ["a", "b"], "reset restores defaults")

        // Migrations: a renamed key.
        stores.standard.set(PersistentKey<Int>("OldCounter", defaultValue: 0), to: 41)
        let report = keys.migrate()
        check(keys.renamedCounter == 41, "renamed key migrated")
        check(report.migrated.count == 1, "migration reported")
        check(!stores.standard.hasPersistentValue(forKey: "OldCounter"), "old key removed")

        if failures.isEmpty {
            print("PluginClient: all checks passed")
            return true
        }
        for failure in failures {
            FileHandle.standardError.write(Data("PluginClient: check failed: \(failure)\n".utf8))
        }
        return false
    }
}
