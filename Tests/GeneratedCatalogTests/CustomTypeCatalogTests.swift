import Foundation
import KeyCatalog
import Testing

/// The `custom-types` golden: the app's own types (Support/GoldenTypes.swift) with
/// `{ "swift": … }` defaults, and Swift defaults for built-in types.
@Suite("Generated catalog: custom types")
struct CustomTypeCatalogTests {
    @Test("custom types round-trip through their representations", arguments: StoreSetup.allCases)
    func roundTrip(_ setup: StoreSetup) {
        let suite = TemporarySuite()
        let keys = CustomKeys(stores: setup == .inMemory ? .inMemory() : .init(standard: suite.store))
        checkRoundTrip(
            "windowFrame", get: { keys.windowFrame }, set: { keys.windowFrame = $0 },
            default: GoldenWindowFrame(x: 0, y: 0, width: 800, height: 600), sample: GoldenWindowFrame(x: 1, y: 2, width: 3, height: 4)
        )
        checkRoundTrip(
            "contact", get: { keys.contact }, set: { keys.contact = $0 },
            default: GoldenContact(nickname: "anon", age: 0), sample: GoldenContact(nickname: "ada", age: 36)
        )
        checkRoundTrip("optionalContact", get: { keys.optionalContact }, set: { keys.optionalContact = $0 }, default: nil, sample: GoldenContact(nickname: "b", age: 1))
        checkRoundTrip("accountKind", get: { keys.accountKind }, set: { keys.accountKind = $0 }, default: GoldenAccountKind(rawValue: "free"), sample: GoldenAccountKind(rawValue: "pro"))
        checkRoundTrip("temperature", get: { keys.temperature }, set: { keys.temperature = $0 }, default: GoldenCelsius(21.5), sample: GoldenCelsius(-3))
        checkRoundTrip("locale", get: { keys.locale }, set: { keys.locale = $0 }, default: Locale(identifier: "en_US"), sample: Locale(identifier: "fr_FR"))
        checkRoundTrip("maxCount", get: { keys.maxCount }, set: { keys.maxCount = $0 }, default: Int(Int16.max), sample: 1)
        checkRoundTrip("sinceForever", get: { keys.sinceForever }, set: { keys.sinceForever = $0 }, default: .distantPast, sample: Date(timeIntervalSince1970: 0))
        checkRoundTrip("recentFrames", get: { keys.recentFrames }, set: { keys.recentFrames = $0 }, default: [], sample: [GoldenWindowFrame(x: 0, y: 0, width: 1, height: 1)])
        #expect(keys.stores.standard.persistentValue(forKey: "accountKind") == .string("pro"))
        #expect(keys.stores.standard.persistentValue(forKey: "temperature") == .string("-3.0"))
        keys.reset()
        #expect(keys.contact.nickname == "anon" && keys.temperature == GoldenCelsius(21.5))
    }

    @Test("entries describe Swift defaults")
    func entries() {
        let keys = CustomKeys(stores: .inMemory())
        checkEntries(
            CustomKeys.entries,
            names: ["windowFrame", "contact", "optionalContact", "accountKind", "temperature", "locale", "maxCount", "sinceForever", "recentFrames", "reservedTypeName"],
            store: { keys.stores[$0] }
        )
        #expect(CustomKeys.entries[1].typeName == "GoldenContact")
        #expect(CustomKeys.entries[6].defaultDescription == "32767")
    }
}
