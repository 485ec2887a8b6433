import Foundation
import KeyCatalog
import Testing

/// The `annotations` golden: docs, deprecations and secrets. Deprecated members are reached
/// through the registration table here, as a settings screen would, so the tests compile
/// without deprecation warnings too.
@Suite("Generated catalog: docs, deprecations, secrets")
struct AnnotationCatalogTests {
    @Test("entries carry docs, deprecation messages and secrecy")
    func entries() throws {
        let keys = AnnotatedKeys(stores: .inMemory())
        checkEntries(
            AnnotatedKeys.entries,
            names: ["documentedValue", "oldCounter", "oldTheme", "oldPerListFlag", "oldDebugFlag", "password", "pin"],
            store: { keys.stores[$0] }
        )
        let byName = Dictionary(uniqueKeysWithValues: AnnotatedKeys.entries.map { ($0.name, $0) })
        #expect(byName["documentedValue"]?.doc == "A value with a long story.\n\nIt spans paragraphs, mentions `code`, */ and \"quotes\",\r\nand Windows line ends.")
        #expect(byName["oldTheme"]?.deprecationMessage == "Themes are enums now: \"appearance\" \\ see the changelog.")
        #expect(byName["oldPerListFlag"]?.deprecationMessage == "Gone." && byName["oldPerListFlag"]?.isParameterized == true)
        #expect(byName["oldDebugFlag"]?.isDebugKey == true)
        #expect(AnnotatedKeys.entries.filter { $0.isSecret }.map(\.name) == ["password", "pin"])
        #expect(AnnotatedKeys.entries.filter { $0.deprecationMessage != nil }.map(\.name) == ["oldCounter", "oldTheme", "oldPerListFlag", "oldDebugFlag", "pin"])
    }

    @Test("deprecated keys still read, write and reset", .debugBuildsOnly, arguments: StoreSetup.allCases)
    func deprecatedValues(_ setup: StoreSetup) throws {
        let suite = TemporarySuite()
        let vault = TemporarySuite("vault")
        let keys = AnnotatedKeys(stores: setup == .inMemory ? .inMemory() : .init(standard: suite.store, vault: vault.store))
        for (name, text, expected) in [("oldCounter", "7", "7"), ("oldTheme", "dark", "\"dark\""), ("oldDebugFlag", "false", "false"), ("pin", "1234", "\"1234\"")] {
            let entry = try #require(AnnotatedKeys.entries.first { $0.name == name })
            let store = try #require(keys.stores[entry.store])
            try entry.setValue(parsing: text, in: store)
            #expect(entry.currentValueDescription(in: store) == expected, "\(name)")
        }
        checkRoundTrip("password", get: { keys.password }, set: { keys.password = $0 }, default: nil, sample: "hunter2")
        checkRoundTrip("documentedValue", get: { keys.documentedValue }, set: { keys.documentedValue = $0 }, default: 1, sample: 2)
        if setup == .userDefaults {
            #expect(vault.defaults.string(forKey: "pin") == "1234")
            #expect(suite.defaults.integer(forKey: "oldCounter") == 7)
        }
        keys.reset()
        #expect(AnnotatedKeys.entries.allSatisfy { entry in !entry.isStored(in: keys.stores[entry.store]!) })
    }
}
