import Foundation
import KeyCatalog
import Testing

/// The goldens that the manifest fuzz of issue 10 produced: each compiled warning-free here
/// (Swift 6) and in a Swift 5 client, and each key reads back what the manifest says.
@Suite("Generated catalog: names and literals the fuzz found")
struct HardeningCatalogTests {
    @Test("transforms named like keys, catalog members, keywords, parameters and hidden types migrate")
    func transforms() {
        let stores = TransformKeys.Stores.inMemory()
        let keys = TransformKeys(stores: stores)
        let standard = stores.standard
        standard.set(PersistentKey<Int>("ModeIndex", defaultValue: 0), to: 1)
        standard.set(PersistentKey<Int>("Percent", defaultValue: 0), to: 42)
        standard.set(PersistentKey<Int>("M", defaultValue: 0), to: 7)
        standard.set(PersistentKey<Int>("OnFlag", defaultValue: 0), to: 1)
        standard.set(PersistentKey<String>("OldMode", defaultValue: ""), to: "dark")
        let report = keys.migrate()
        #expect(report.failed.isEmpty)
        #expect(keys.mode == .dark)
        #expect(keys.percent == 0.42)
        #expect(keys.fromEntries == 7.4, "the first source holding a value is 'M', through migrations(_:)")
        #expect(keys.isOn)
        #expect(keys.GoldenMode == 1)

        standard.set(PersistentKey<String>("oldScore_3", defaultValue: ""), to: "12")
        #expect(keys.migrateScore(level: 3).failed.isEmpty)
        #expect(keys.score(level: 3) == 12)
    }

    @Test("a catalog named 'get' holding a key named 'get' beside a deprecated key")
    func catalogNamedLikeAnAccessor() {
        let keys = get(stores: .inMemory())
        #expect(keys.get == 1)
        keys.get = 5
        #expect(keys.get == 5 && keys.stores.standard.get(keys.$get.key) == 5)
        #expect(get.entries.map(\.name) == ["get", "oldCount"])
        #expect(get.entries[1].deprecationMessage == "Use get.")
        #expect(get.entries[1].defaultDescription == "2")
    }

    @Test("defaults read back exactly: 'none' in optional contexts, subnormals, inexact integers")
    func literals() {
        let keys = LiteralKeys(stores: .inMemory())
        #expect(keys.switches == [GoldenSwitch.none, nil, .naïve])
        #expect(keys.switchByName == ["a": GoldenSwitch.none])
        #expect(keys.level == .top && GoldenLevel.top.rawValue == Int.max)
        #expect(keys.tinyFloat == Float.leastNonzeroMagnitude)
        #expect(keys.tinyDouble == Double.leastNonzeroMagnitude)
        #expect(keys.floats == [Float("1e-40")!, 16_777_216, -Float.leastNonzeroMagnitude])
        #expect(keys.hugeDouble == Double(UInt64.max))
        #expect(keys.largestFloat == Float.greatestFiniteMagnitude && keys.largestDouble == Double.greatestFiniteMagnitude)
        #expect(keys.größe == 3)
        #expect(keys.inSuite == "tab\tand\nline")
        #expect(keys.inVault == nil && keys.inPlist == 0)
        #expect(keys.limits == [10, 20] && keys.limitByName == ["day": 10, "week": 70], "Swift elements holding a comment")
        #expect(keys.café == .open && keys.café.rawValue == "open", "a type named with a combining accent")
        #expect(LiteralKeys.entries.first { $0.name == "größe" }?.doc == "A doc with a NUL \u{0} and a bell \u{7}.")
    }

    @Test("large defaults are built statement by statement and read back whole")
    func largeDefaults() {
        let keys = LargeKeys(stores: .inMemory())
        let holidays = keys.holidays
        #expect(holidays["fr"]?.count == 40 && holidays["de"]?.count == 30)
        #expect(holidays["fr"]?.first == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(keys.links.count == 4 && keys.links[3]["g2"]?["u1"] == URL(string: "https://example.com/2/1"))
        #expect(keys.bigLimits == Array(1...66), "a Swift element holding a comment")
        #expect(keys.bigOffsets == [Array(1...66), [1]], "Swift elements name the app's globals, not the builder's variables")
        let sparse = keys.sparseScores
        #expect(sparse.count == 70 && sparse.keys.contains("k0") && sparse["k0"] == Optional<Int?>.some(nil) && sparse["k1"] == 1, "nil values are entries: \(sparse.count)")
        #if DEBUG
        #expect(keys.flags == Array(repeating: true, count: 70))
        #else
        #expect(keys.flags == [false, false, false])
        #endif
        keys.holidays = [:]
        #expect(keys.holidays.isEmpty)
        keys.reset()
        #expect(keys.holidays == holidays)
    }
}
