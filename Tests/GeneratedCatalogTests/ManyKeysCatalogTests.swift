import Foundation
import KeyCatalog
import Testing

/// The `many-keys` golden: more keys than one initializer binds (100), so `init(stores:)` binds
/// them in `_bindKeys0(to:)` and `_bindKeys1(to:)`; `public` access, three stores, a parameterized,
/// a deprecated and a debug key.
@Suite("Generated catalog: many keys")
struct ManyKeysCatalogTests {
    @Test("keys bound by either function live in their declared store, and only there")
    func separation() {
        let stores = ManyKeys.Stores.inMemory()
        let keys = ManyKeys(stores: stores)
        keys.firstLaunch = false  // the first key, bound by _bindKeys0
        keys.setting98 = false  // in 'scratch'
        keys.setting99 = 99  // the last key _bindKeys0 binds, in 'standard'
        keys.showsDebugMenu = false  // bound by _bindKeys1, in 'shared'
        keys.lastOpened = "doc"  // the last key, bound by _bindKeys1, in 'scratch'
        keys.setDraft("text", documentID: "d1")

        #expect(stores.standard.get(keys.$firstLaunch.key) == false && !stores.shared.contains(keys.$firstLaunch.key))
        #expect(stores.scratch.get(keys.$setting98.key) == false && !stores.standard.contains(keys.$setting98.key))
        #expect(stores.standard.get(keys.$setting99.key) == 99 && !stores.scratch.contains(keys.$setting99.key))
        #expect(stores.shared.get(keys.$showsDebugMenu.key) == false && !stores.standard.contains(keys.$showsDebugMenu.key))
        #expect(stores.scratch.get(keys.$lastOpened.key) == "doc" && !stores.standard.contains(keys.$lastOpened.key))
        #expect(stores.scratch.get(keys.draftKey(documentID: "d1").key) == "text")

        let bound: [(name: String, storeName: String, store: AnyPersistentKeyValueStore)] = [
            (keys.$firstLaunch.name, keys.$firstLaunch.storeName, keys.$firstLaunch.store),
            (keys.$setting1.name, keys.$setting1.storeName, keys.$setting1.store),
            (keys.$setting2.name, keys.$setting2.storeName, keys.$setting2.store),
            (keys.$setting99.name, keys.$setting99.storeName, keys.$setting99.store),
            (keys.$showsDebugMenu.name, keys.$showsDebugMenu.storeName, keys.$showsDebugMenu.store),
            (keys.$lastOpened.name, keys.$lastOpened.storeName, keys.$lastOpened.store),
        ]
        #expect(bound.map(\.name) == ["firstLaunch", "setting1", "setting2", "setting99", "showsDebugMenu", "lastOpened"])
        #expect(bound.map(\.storeName) == ["standard", "shared", "scratch", "standard", "shared", "scratch"])
        #expect(bound.allSatisfy { stores[$0.storeName] === $0.store }, "every key is bound to its declared store")
    }

    @Test("keys of both binding functions read their defaults and round-trip", arguments: StoreSetup.allCases)
    func roundTrips(_ setup: StoreSetup) {
        let suites = (0..<3).map { TemporarySuite("manyKeys\($0)") }
        let stores: ManyKeys.Stores =
            switch setup {
            case .inMemory: .inMemory()
            case .userDefaults: .init(standard: suites[0].store, shared: suites[1].store, scratch: suites[2].store)
            }
        let keys = ManyKeys(stores: stores)
        checkRoundTrip("firstLaunch", get: { keys.firstLaunch }, set: { keys.firstLaunch = $0 }, default: true, sample: false)
        checkRoundTrip("setting97", get: { keys.setting97 }, set: { keys.setting97 = $0 }, default: "value 97", sample: "x")
        checkRoundTrip("lastOpened", get: { keys.lastOpened }, set: { keys.lastOpened = $0 }, default: nil, sample: "y")
        keys.$setting97.reset()
        #expect(keys.setting97 == "value 97" && !keys.$setting97.isStored)
        #if DEBUG
        #expect(keys.showsDebugMenu)
        #else
        #expect(!keys.showsDebugMenu)
        #endif
        // The suites live to the end: in an optimized build their last use above would end them,
        // and their deinit would remove each suite while later writes still go to it.
        withExtendedLifetime(suites) {}
    }

    @Test("the registration table lists every key in manifest order, and reset() reaches both halves")
    func entries() {
        let names = ManyKeys.entries.map(\.name)
        #expect(names.count == 104)
        #expect(names.prefix(3) == ["firstLaunch", "setting1", "setting2"])
        #expect(names.suffix(4) == ["draft", "legacyCount", "showsDebugMenu", "lastOpened"])

        let keys = ManyKeys(stores: .inMemory())
        keys.setting1 = "changed"
        keys.lastOpened = "changed"
        keys.reset()
        #expect(keys.setting1 == "value 1" && keys.lastOpened == nil)
        #expect(!keys.$setting1.isStored && !keys.$lastOpened.isStored)
    }
}
