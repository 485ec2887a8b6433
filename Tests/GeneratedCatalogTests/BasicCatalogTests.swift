import Foundation
import KeyCatalog
import Testing

/// The `basic` golden: the default catalog name `Keys` and the `standard` store only.
@Suite("Generated catalog: basic")
struct BasicCatalogTests {
    @Test("every key round-trips through the catalog and resets", arguments: StoreSetup.allCases)
    func roundTrip(_ setup: StoreSetup) {
        let suite = TemporarySuite()
        let keys = Keys(stores: setup == .inMemory ? .inMemory() : Keys.Stores(standard: suite.store))
        checkRoundTrip("launchCount", get: { keys.launchCount }, set: { keys.launchCount = $0 }, default: 0, sample: 3)
        checkRoundTrip("hasSeenOnboarding", get: { keys.hasSeenOnboarding }, set: { keys.hasSeenOnboarding = $0 }, default: false, sample: true)
        checkRoundTrip("username", get: { keys.username }, set: { keys.username = $0 }, default: "", sample: "ada")

        // The same values through the bound keys, in their declared store.
        #expect(keys.stores.standard.get(keys.$launchCount.key) == 3 && keys.$launchCount.store === keys.stores.standard)
        #expect(keys.$username.value == "ada" && keys.$username.storeName == "standard")
        if setup == .userDefaults {
            #expect(suite.defaults.integer(forKey: "LaunchCount") == 3)
            #expect(suite.defaults.bool(forKey: "HasSeenOnboarding"))
        }

        keys.reset()
        #expect(keys.launchCount == 0)
        #expect(!keys.hasSeenOnboarding)
        #expect(keys.username == "")
        #expect(!keys.$launchCount.isStored)
    }

    @Test("the registration table lists every key in manifest order")
    func entries() {
        let keys = Keys(stores: .inMemory())
        checkEntries(Keys.entries, names: ["launchCount", "hasSeenOnboarding", "username"], store: { keys.stores[$0] })
        let launchCount = Keys.entries[0]
        #expect(launchCount.storageKey == "LaunchCount")
        #expect(launchCount.store == "standard")
        #expect(launchCount.typeName == "Int")
        #expect(launchCount.defaultDescription == "0")
        #expect(launchCount.doc == "How many times the app was launched.")
        #expect(!launchCount.isSecret && !launchCount.isDebugKey && launchCount.deprecationMessage == nil)
        #expect(Keys.entries[2].storageKey == "username")
        #expect(Keys.entries[2].defaultDescription == "\"\"")
    }

    @Test("register() and register(in:) fill the registration domain")
    func registration() async {
        // The registration domain is process-wide: the golden's fixed storage keys registered here
        // would be read by every other test's suite. So this runs in a child process of its own.
        await #expect(processExitsWith: .success) {
            let suite = TemporarySuite()
            let keys = Keys(stores: Keys.Stores(standard: suite.store))
            keys.register()
            #expect(suite.defaults.object(forKey: "LaunchCount") as? Int == 0)
            #expect(suite.defaults.object(forKey: "username") as? String == "")
            #expect(!keys.$launchCount.isStored, "registered defaults are not stored values")

            let other = TemporarySuite()
            Keys.register(in: other.defaults)
            #expect(other.defaults.object(forKey: "HasSeenOnboarding") as? Bool == false)
            withExtendedLifetime((suite, other)) {}
        }
    }

    /// In a child process: `.standard` is process-wide.
    @Test("live stores are UserDefaults.standard")
    func live() async {
        await #expect(processExitsWith: .success) {
            #expect(Keys.Stores.live.standard.base as? UserDefaults === UserDefaults.standard)
            #expect(Keys().stores.standard.base as? UserDefaults === UserDefaults.standard)
        }
    }
}
