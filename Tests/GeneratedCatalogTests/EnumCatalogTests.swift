import Foundation
import KeyCatalog
import Testing

/// The `enums` golden: String and Int enums with explicit and implied raw values, a keyword
/// case, enums in optionals, arrays and dictionaries.
@Suite("Generated catalog: enums")
struct EnumCatalogTests {
    @Test("enums carry the manifest's cases and raw values")
    func declarations() {
        #expect(Appearance.allCases == [.system, .light, .dark, .default])
        #expect(Appearance.allCases.map(\.rawValue) == ["system", "light", "Dark Mode", "default"])
        #expect(Priority.allCases.map(\.rawValue) == [0, 1, 10, 11, -1])
    }

    @Test("enum keys round-trip and store raw values", arguments: StoreSetup.allCases)
    func roundTrip(_ setup: StoreSetup) {
        let suite = TemporarySuite()
        let keys = EnumKeys(stores: setup == .inMemory ? .inMemory() : .init(standard: suite.store))
        checkRoundTrip("appearance", get: { keys.appearance }, set: { keys.appearance = $0 }, default: .dark, sample: .light)
        checkRoundTrip("defaultAppearance", get: { keys.defaultAppearance }, set: { keys.defaultAppearance = $0 }, default: .default, sample: .system)
        checkRoundTrip("priority", get: { keys.priority }, set: { keys.priority = $0 }, default: .urgent, sample: .negative)
        checkRoundTrip("optionalPriority", get: { keys.optionalPriority }, set: { keys.optionalPriority = $0 }, default: nil, sample: .high)
        checkRoundTrip("favoriteAppearances", get: { keys.favoriteAppearances }, set: { keys.favoriteAppearances = $0 }, default: [.light, .dark], sample: [])
        checkRoundTrip(
            "priorityByList", get: { keys.priorityByList }, set: { keys.priorityByList = $0 },
            default: ["inbox": .high, "later": .low], sample: ["today": .urgent]
        )
        if setup == .userDefaults {
            #expect(suite.defaults.string(forKey: "appearance") == "light")
            #expect(suite.defaults.integer(forKey: "priority") == -1)
            #expect(suite.defaults.integer(forKey: "optionalPriority") == 10)
        }
        keys.reset()
        #expect(keys.appearance == .dark && keys.optionalPriority == nil)
    }

    @Test("an unknown stored raw value reads as the default and is reported")
    func unknownRawValue() throws {
        let keys = EnumKeys(stores: .inMemory())
        try keys.stores.standard.setPersistentValue(.string("sepia"), forKey: "appearance")
        let (value, failures) = recordFailures { keys.appearance }
        #expect(value == .dark)
        #expect(failures.count == 1 && failures.first?.key == "appearance")
    }

    @Test("entries parse enum cases by name")
    func entries() throws {
        let keys = EnumKeys(stores: .inMemory())
        checkEntries(
            EnumKeys.entries,
            names: ["appearance", "defaultAppearance", "priority", "optionalPriority", "favoriteAppearances", "priorityByList"],
            store: { keys.stores[$0] }
        )
        try EnumKeys.entries[0].setValue(parsing: "system", in: keys.stores.standard)
        #expect(keys.appearance == .system)
        #expect(EnumKeys.entries[0].defaultDescription == "dark")
    }
}
