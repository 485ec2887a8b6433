import Foundation
import KeyCatalog
import Testing

/// Export and import of settings documents (`KeyCatalogSettings`), on real suites and a keychain
/// store over a fake backend: secrets stay out, invalid documents write nothing, and a store that
/// refuses a write midway gets the earlier writes undone.
@Suite struct KeyCatalogSettingsTests {
    let suite = TemporarySuite(#function)
    let keychain = KeychainKeyValueStore(service: "keycatalog.tests.settings.\(UUID().uuidString)", backend: FakeKeychain())

    var entries: [KeyCatalogEntry] {
        [
            KeyCatalogEntry(name: "count", key: PersistentKey<Int>("Count", defaultValue: 0), store: "suite", typeName: "Int"),
            KeyCatalogEntry(name: "ratio", key: PersistentKey<Double>("Ratio", defaultValue: 1), store: "suite", typeName: "Double"),
            KeyCatalogEntry(name: "homepage", key: PersistentKey<URL?>("Homepage", defaultValue: nil), store: "suite", typeName: "URL?"),
            KeyCatalogEntry(name: "password", key: PersistentKey<String?>("Password", defaultValue: nil), store: "suite", typeName: "String?", isSecret: true),
            KeyCatalogEntry(name: "token", key: PersistentKey<String>("Token", defaultValue: ""), store: "keychain", typeName: "String"),
            KeyCatalogEntry(name: "perList", storageKeyTemplate: "List.{id}", parameters: ["id"], store: "suite", typeName: "Bool", defaultDescription: "false"),
        ]
    }

    func store(_ name: String) -> AnyPersistentKeyValueStore? {
        ["suite": AnyPersistentKeyValueStore(suite.defaults), "keychain": AnyPersistentKeyValueStore(keychain)][name]
    }

    func document(_ values: String) -> Data {
        Data(#"{ "format": "keycatalog-settings", "version": 1, "catalog": "Keys", "values": \#(values) }"#.utf8)
    }

    @Test func secretsKeychainKeysAndDefaultsAreNotExported() throws {
        suite.defaults.set(PersistentKey<Int>("Count", defaultValue: 0), to: 3)
        suite.defaults.set(PersistentKey<Double>("Ratio", defaultValue: 1), to: 1)  // the default: not exported
        suite.defaults.set(PersistentKey<String?>("Password", defaultValue: nil), to: "hunter2")
        keychain.set(PersistentKey<String>("Token", defaultValue: ""), to: "secret-token")
        let data = try KeyCatalogSettings.export(catalog: "Keys", entries: entries, store: store)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["format"] as? String == "keycatalog-settings" && object["version"] as? Int == 1 && object["catalog"] as? String == "Keys")
        #expect((object["values"] as? [String: Any])?.keys.sorted() == ["count"])
        #expect(!String(decoding: data, as: UTF8.self).contains("hunter2") && !String(decoding: data, as: UTF8.self).contains("secret-token"))
    }

    /// A dictionary member named like a marker (`$date`, `$data`, `$double`) comes back as itself
    /// (found by a review: it was read as a date, data or double, and the whole import failed).
    @Test(arguments: ["$date", "$data", "$double", "$$data", "$"])
    func aDictionaryMemberNamedLikeAMarkerComesBack(_ name: String) throws {
        let counts = PersistentKey<[String: Int]>("Counts", defaultValue: [:])
        let labels = PersistentKey<[String: [String: String]]>("Labels", defaultValue: [:])
        let entries = [
            KeyCatalogEntry(name: "counts", key: counts, store: "suite", typeName: "[String: Int]"),
            KeyCatalogEntry(name: "labels", key: labels, store: "suite", typeName: "[String: [String: String]]"),
        ]
        suite.defaults.set(counts, to: [name: 5, "plain": 1])
        suite.defaults.set(labels, to: ["outer": [name: "inf"]])
        let data = try KeyCatalogSettings.export(catalog: "Keys", entries: entries, store: store)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["version"] as? Int == 2, "a member is escaped")
        let destination = TemporarySuite()
        try KeyCatalogSettings.importSettings(from: data, entries: entries) { _ in AnyPersistentKeyValueStore(destination.defaults) }
        #expect(destination.defaults.get(counts) == [name: 5, "plain": 1])
        #expect(destination.defaults.get(labels) == ["outer": [name: "inf"]])
    }

    /// A version 1 document (every document before version 2) is read as it was written: a member
    /// named `$$x` stays `$$x`.
    @Test func aVersionOneDocumentIsNotUnescaped() throws {
        let counts = PersistentKey<[String: Int]>("Counts", defaultValue: [:])
        let entries = [KeyCatalogEntry(name: "counts", key: counts, store: "suite", typeName: "[String: Int]")]
        try KeyCatalogSettings.importSettings(from: document(#"{ "counts": { "$$x": 1, "$y": 2 } }"#), entries: entries, store: store)
        #expect(suite.defaults.get(counts) == ["$$x": 1, "$y": 2])
    }

    @Test func importSkipsSecretsUnknownAndParameterizedKeysAndSaysSo() throws {
        let report = try KeyCatalogSettings.importSettings(
            from: document(#"{ "count": 7, "password": "x", "token": "y", "perList": true, "fromANewerApp": 1 }"#),
            entries: entries, store: store
        )
        #expect(report.applied == ["count"])
        #expect(
            report.skipped.map(\.description) == [
                "fromANewerApp: no key of that name in this catalog",
                "password: a secret; not imported",
                "perList: a parameterized key; not imported",
                "token: a secret; not imported",
            ])
        #expect(suite.defaults.get(PersistentKey<Int>("Count", defaultValue: 0)) == 7)
        #expect(suite.defaults.get(PersistentKey<String?>("Password", defaultValue: nil)) == nil)
        #expect(keychain.get(PersistentKey<String>("Token", defaultValue: "")) == "")
    }

    /// Exactly what was stored comes back: a double JSONSerialization read to a neighbouring one
    /// on Linux, and a URL without a scheme, which the store holds and export writes.
    @Test func exportThenImportGivesBackExactlyWhatWasStored() throws {
        let ratio = PersistentKey<Double>("Ratio", defaultValue: 1)
        let homepage = PersistentKey<URL?>("Homepage", defaultValue: nil)
        suite.defaults.set(ratio, to: 0.1 + 0.2)
        suite.defaults.set(homepage, to: URL(string: "/just/path"))
        let data = try KeyCatalogSettings.export(catalog: "Keys", entries: entries, store: store)
        suite.defaults.remove(ratio)
        suite.defaults.remove(homepage)
        let report = try KeyCatalogSettings.importSettings(from: data, entries: entries, store: store)
        #expect(report.applied == ["homepage", "ratio"])
        #expect(suite.defaults.get(ratio) == 0.1 + 0.2)
        #expect(suite.defaults.get(homepage) == URL(string: "/just/path"))
    }

    /// A debug key in a Release build reads its release default whatever is stored: it is neither
    /// exported nor imported (an import once reported it applied and wrote nothing).
    @Test func aDebugKeyFixedInThisBuildIsNeitherExportedNorImported() throws {
        let flag = PersistentDebugKey("Flag", debugDefaultValue: 1, releaseDefaultValue: 2, configuration: .release)
        let entries = [KeyCatalogEntry(name: "flag", key: flag, store: "suite", typeName: "Int", isDebugKey: true)]
        suite.defaults.set(99, forKey: "Flag")
        let data = try KeyCatalogSettings.export(catalog: "Keys", entries: entries, store: store)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((object["values"] as? [String: Any])?.isEmpty == true)
        let error = try #require(throws: KeyCatalogSettings.ImportError.self) {
            try KeyCatalogSettings.importSettings(from: document(#"{ "flag": 7 }"#), entries: entries, store: store)
        }
        #expect(error.invalidValues.map(\.reason) == ["a debug key, fixed at its release default in this build"])
        #expect(suite.defaults.integer(forKey: "Flag") == 99)
    }

    @Test func anInvalidValueRefusesTheWholeImportAndNamesEachBadKey() throws {
        let count = PersistentKey<Int>("Count", defaultValue: 0)
        suite.defaults.set(count, to: 5)
        let error = try #require(throws: KeyCatalogSettings.ImportError.self) {
            try KeyCatalogSettings.importSettings(
                from: document(#"{ "count": "many", "ratio": 0.5, "homepage": "not a url" }"#),
                entries: entries, store: store
            )
        }
        #expect(error.invalidValues.map(\.name) == ["count", "homepage"], "\(error)")
        #expect(error.description.hasPrefix("settings not imported, nothing written: 'count': "), "\(error)")
        #expect(suite.defaults.get(count) == 5, "kept")
        #expect(suite.defaults.get(PersistentKey<Double>("Ratio", defaultValue: 1)) == 1, "the valid value was not written either")
    }

    @Test(arguments: [
        ("{ \"format\": \"keycatalog-settings\", \"version\": 1, \"values\": { \"count\": 1, } ", "not JSON ("),
        (#"{ "format": "something-else", "values": {} }"#, "not a settings document"),
        (#"{ "format": "keycatalog-settings", "version": 3, "values": {} }"#, "version 3 is not supported"),
        (#"{ "format": "keycatalog-settings", "version": 1, "values": [] }"#, "\"values\" must be an object"),
    ])
    func aDocumentThatIsNotOneIsRefusedWithWhy(text: String, expected: String) throws {
        let error = try #require(throws: KeyCatalogSettings.ImportError.self) {
            try KeyCatalogSettings.importSettings(from: Data(text.utf8), entries: entries, store: store)
        }
        #expect(error.description.contains(expected), "\(error)")
        #expect(suite.defaults.get(PersistentKey<Int>("Count", defaultValue: 0)) == 0)
    }

    #if !canImport(Darwin)
    /// UserDefaults on Linux refuses a negative zero (its XML would lose the sign): the import's
    /// write of `ratio` fails after `count` was written, and `count` gets its old value back.
    @Test func aStoreRefusingAWriteMidwayUndoesTheEarlierWrites() throws {
        let count = PersistentKey<Int>("Count", defaultValue: 0)
        suite.defaults.set(count, to: 5)
        let recorder = FailureRecorder()
        #expect(throws: PersistentKeyValueFailure.self) {
            try recorder.record {
                try KeyCatalogSettings.importSettings(from: document(#"{ "count": 9, "ratio": -0.0 }"#), entries: entries, store: store)
            }
        }
        #expect(suite.defaults.get(count) == 5)
        #expect(suite.defaults.get(PersistentKey<Double>("Ratio", defaultValue: 1)) == 1)
    }
    #endif
}
