import Foundation
import KeyCatalog
import Testing

/// The `debug-keys` golden: keys with a Debug and a Release default, chosen by `#if DEBUG` in
/// this module. Tests build in Debug, so the debug defaults apply and writes are kept.
@Suite("Generated catalog: debug keys")
struct DebugCatalogTests {
    @Test("Debug builds use the debug defaults", .debugBuildsOnly)
    func configuration() {
        let keys = DebugKeys(stores: .inMemory())
        let isRatingEnabled = keys.$isRatingEnabled.key.base as? PersistentDebugKey<Bool>
        #expect(isRatingEnabled?.configuration == .debug && keys.$isRatingEnabled.key.isStoreAccessEnabled)
        #expect(isRatingEnabled?.defaultValue == false && keys.$isRatingEnabled.key.defaultValue == false)
        #expect(isRatingEnabled?.releaseDefaultValue == true)
        #expect((keys.$apiBaseURL.key.base as? PersistentDebugKey<URL>)?.releaseDefaultValue.absoluteString == "https://example.com/api")
        #expect((keys.$logLevel.key.base as? PersistentDebugKey<LogLevel>)?.releaseDefaultValue == .error)
        #expect((keys.$debugFetchLimit.key.base as? PersistentDebugKey<Int?>)?.releaseDefaultValue == .some(nil))
    }

    @Test("every debug key round-trips in Debug", .debugBuildsOnly, arguments: StoreSetup.allCases)
    func roundTrip(_ setup: StoreSetup) {
        let suite = TemporarySuite()
        let keys = DebugKeys(stores: setup == .inMemory ? .inMemory() : .init(standard: suite.store))
        checkRoundTrip("isRatingEnabled", get: { keys.isRatingEnabled }, set: { keys.isRatingEnabled = $0 }, default: false, sample: true)
        checkRoundTrip(
            "apiBaseURL", get: { keys.apiBaseURL }, set: { keys.apiBaseURL = $0 },
            default: URL(string: "https://staging.example.com/api")!, sample: URL(string: "https://localhost:8080/api")!
        )
        checkRoundTrip("logLevel", get: { keys.logLevel }, set: { keys.logLevel = $0 }, default: .verbose, sample: .info)
        checkRoundTrip("debugFetchLimit", get: { keys.debugFetchLimit }, set: { keys.debugFetchLimit = $0 }, default: 5, sample: 9)
        checkRoundTrip(
            "debugSyncDate", get: { keys.debugSyncDate }, set: { keys.debugSyncDate = $0 },
            default: Date(timeIntervalSince1970: 1_767_225_600), sample: Date(timeIntervalSince1970: 86_400)
        )
        #expect(keys.debugOverride(feature: "search"))
        keys.setDebugOverride(false, feature: "search")
        #expect(!keys.debugOverride(feature: "search") && keys.debugOverride(feature: "sync"))
        if setup == .userDefaults {
            #expect(suite.defaults.string(forKey: "debugSyncDate") == "1970-01-02T00:00:00.000Z", "iso8601 representation")
            #expect(suite.defaults.string(forKey: "logLevel") == "info")
        }
        keys.reset()
        #expect(!keys.isRatingEnabled && keys.logLevel == .verbose && keys.debugFetchLimit == 5)
    }

    @Test("debug entries are marked, with this build's default", .debugBuildsOnly)
    func entries() {
        let keys = DebugKeys(stores: .inMemory())
        checkEntries(
            DebugKeys.entries,
            names: ["isRatingEnabled", "apiBaseURL", "logLevel", "debugFetchLimit", "debugSyncDate", "debugOverride"],
            store: { keys.stores[$0] }
        )
        #expect(DebugKeys.entries.allSatisfy { $0.isDebugKey })
        #expect(DebugKeys.entries[0].defaultDescription == "false")
        #expect(DebugKeys.entries[5].defaultDescription == "true", "a parameterized debug key's entry follows #if DEBUG too")
    }
}
