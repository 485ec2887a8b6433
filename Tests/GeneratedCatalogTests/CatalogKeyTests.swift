import Foundation
import KeyCatalog
import Observation
import Testing

/// The generated catalog as the whole API: each key bound to its declared store (`keys.$name`,
/// `keys.nameKey(params)`), Observation tracking of catalog reads, several keys observed at once,
/// and the catalogs a SwiftUI tree reads from. Through the `stores` and `parameterized` goldens.
@Suite("Generated catalog: bound keys")
struct CatalogKeyTests {
    /// A catalog over one real UserDefaults suite per declared store.
    private static func suiteCatalog(_ suites: [TemporarySuite]) -> StoreKeys {
        StoreKeys(
            stores: .init(
                standard: suites[0].store, shared: suites[1].store, cloud: suites[2].store, secrets: suites[3].store,
                groupSecrets: suites[4].store, settingsFile: suites[5].store, scratch: suites[6].store
            ))
    }

    @Test("a bound key gets, sets, resets and reports stored-ness in its declared store only")
    func boundAccess() {
        let suites = (0..<7).map { TemporarySuite("bound\($0)") }
        let keys = Self.suiteCatalog(suites)
        let counter = keys.$sharedCounter
        #expect(counter.name == "sharedCounter" && counter.storeName == "shared" && counter.store === keys.stores.shared)
        #expect(counter.value == 0 && !counter.isStored)
        counter.value = 4
        #expect(keys.sharedCounter == 4 && counter.isStored)
        // Persistent domains: other tests register defaults, and the registration domain is per process.
        func stored(_ suite: TemporarySuite) -> Any? { suite.defaults.persistentDomain(forName: suite.name)?["sharedCounter"] }
        #expect(stored(suites[1]) as? Int == 4, "written to the 'shared' suite")
        #expect(stored(suites[0]) == nil, "and not to 'standard'")
        counter.reset()
        #expect(keys.sharedCounter == 0 && !counter.isStored && stored(suites[1]) == nil)

        let document = UUID()
        let flag = keys.perDocumentFlagKey(id: document)
        #expect(flag.key.id == "doc.\(document.uuidString)" && flag.storeName == "settingsFile")
        flag.value = false
        #expect(!keys.perDocumentFlag(id: document) && flag.isStored && keys.perDocumentFlag(id: UUID()))
        flag.reset()
        #expect(keys.perDocumentFlag(id: document) && !flag.isStored)
    }

    @Test("values and changes streams and observe() follow the key in its declared store")
    func observation() async {
        let keys = StoreKeys(stores: .inMemory())
        let seen = Recorded<Int>()
        let observation = keys.$sharedCounter.observe { seen.append($0) }
        var values = keys.$sharedCounter.values.makeAsyncIterator()
        var changes = keys.$sharedCounter.changes.makeAsyncIterator()
        #expect(await values.next() == 0, "values starts with the current value")
        keys.sharedCounter = 1
        keys.stores.standard.set(PersistentKey<Int>("sharedCounter", defaultValue: 0), to: 99)  // another store: not seen
        keys.$sharedCounter.reset()
        #expect(await values.next() == 1)
        #expect(await values.next() == 0)
        #expect(await changes.next() == 1)
        #expect(await changes.next() == 0)
        #expect(seen.values == [1, 0])
        observation.cancel()
        keys.sharedCounter = 2
        #expect(seen.values == [1, 0], "a cancelled observation hears nothing")

        let flag = keys.perDocumentFlagKey(id: UUID())
        var flags = flag.changes.makeAsyncIterator()
        flag.value = false
        #expect(await flags.next() == false)
    }

    @Test("reading a catalog property inside withObservationTracking tracks it; any writer the store sees triggers it")
    func observationTracking() {
        let suites = (0..<7).map { TemporarySuite("tracking\($0)") }
        let keys = Self.suiteCatalog(suites)
        let fired = Recorded<String>()
        withObservationTracking {
            _ = keys.sharedCounter
        } onChange: {
            fired.append("sharedCounter")
        }
        keys.standardFlag = true
        #expect(fired.values.isEmpty, "another key does not trigger")
        // Another catalog over the same stores, and a hand-written store write, are writers it sees.
        let other = StoreKeys(stores: keys.stores)
        other.sharedCounter = 7
        #expect(fired.values == ["sharedCounter"])
        // A later read of the same key (its tracking known by then: the fast path) tracks it again.
        withObservationTracking {
            _ = keys.sharedCounter
        } onChange: {
            fired.append("again")
        }
        other.sharedCounter = 8
        #expect(fired.values == ["sharedCounter", "again"])

        withObservationTracking {
            _ = keys.perDocumentFlag(id: Self.document)
            _ = keys.$fileVolume.isStored
        } onChange: {
            fired.append("document")
        }
        keys.stores.settingsFile.set(keys.perDocumentFlagKey(id: Self.document).key, to: false)
        #expect(fired.values == ["sharedCounter", "again", "document"])
        // A parameterized key's binding keeps no tracking object: each read finds its tracking by
        // storage key, the same one the first read made.
        withObservationTracking {
            _ = keys.perDocumentFlag(id: Self.document)
        } onChange: {
            fired.append("document again")
        }
        keys.setPerDocumentFlag(true, id: UUID())
        #expect(fired.values == ["sharedCounter", "again", "document"], "another document's key does not trigger")
        keys.setPerDocumentFlag(true, id: Self.document)
        #expect(fired.values == ["sharedCounter", "again", "document", "document again"])
        // The suites live to the end: in an optimized build their last use above would end them,
        // and their deinit would remove each suite while later writes still go to it.
        withExtendedLifetime(suites) {}
    }

    private static let document = UUID()

    @Test("changes(of:) and observe(_:onChange:) report each changed key among several, ending after the last write of a burst")
    func severalKeys() async throws {
        let keys = StoreKeys(stores: .inMemory())
        let seen = Recorded<CatalogKeyID>()
        let observation = keys.observe(keys.$sharedCounter, keys.$cloudNote, keys.$scratchItems) { seen.append($0) }
        var stream = keys.changes(of: keys.$sharedCounter, keys.$cloudNote).makeAsyncIterator()
        keys.cloudNote = "a"
        keys.standardFlag = true  // not among them
        keys.sharedCounter = 1
        #expect(await stream.next() == keys.$cloudNote.id)
        #expect(await stream.next() == keys.$sharedCounter.id)
        #expect(seen.values.map(\.name) == ["cloudNote", "sharedCounter"])
        observation.cancel()

        // A burst from several threads: the last element of each key comes after its last write.
        for round in 0..<200 {
            let burst = StoreKeys(stores: .inMemory())
            let lastSeen = Recorded<Int>()
            let watch = burst.observe(burst.$sharedCounter, burst.$cloudNote) { changed in
                if changed == burst.$sharedCounter.id { lastSeen.append(burst.sharedCounter) }
            }
            await withTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        for write in 0..<3 { burst.sharedCounter = round * 100 + writer * 10 + write }
                        burst.cloudNote = "\(writer)"
                    }
                }
            }
            #expect(lastSeen.values.last == burst.sharedCounter, "round \(round): ends on the final value")
            watch.cancel()
        }
    }

    @Test("observe(_:onChange:) is not called again for a write of the value a key holds, where the store compares values (a file store)")
    func observeSkipsAWriteOfAnUnchangedValue() {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keycatalog-observe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var stores = StoreKeys.Stores.inMemory()
        stores.standard = AnyPersistentKeyValueStore(FileKeyValueStore(url: directory.appendingPathComponent("standard.plist")))
        let keys = StoreKeys(stores: stores)
        let seen = Recorded<CatalogKeyID>()
        let observation = keys.observe(keys.$standardFlag) { seen.append($0) }
        keys.standardFlag = true
        keys.standardFlag = true
        keys.standardFlag = false
        #expect(seen.values.count == 2)
        observation.cancel()
    }

    @Test("KeyCatalogs gives the catalog set for a type, else one live catalog per type")
    func catalogs() {
        var catalogs = KeyCatalogs()
        let memory = Keys(stores: .inMemory())
        catalogs[Keys.self] = memory
        let launchCount = catalogs.key(\Keys.$launchCount)
        #expect(launchCount.store === memory.stores.standard, "the environment's catalog, the key's declared store in it")
        launchCount.value = 3
        #expect(memory.launchCount == 3)

        let parameterized = ParameterizedKeys(stores: .inMemory())
        catalogs[ParameterizedKeys.self] = parameterized
        #expect(catalogs[ParameterizedKeys.self].stores.standard === parameterized.stores.standard)
        #expect(catalogs[Keys.self].stores.standard === memory.stores.standard, "one catalog per type")
    }

    @MainActor
    @Test("a view's model follows a catalog key to the catalog the environment swaps in")
    func modelFollowsCatalog() {
        let first = Keys(stores: .inMemory())
        let second = Keys(stores: .inMemory())
        first.launchCount = 1
        second.launchCount = 2
        let box = _PersistentValueBox<AnyPersistentKey<Int>>()
        var catalogs = KeyCatalogs()
        catalogs[Keys.self] = first
        var key = catalogs.key(\Keys.$launchCount)
        let model = box.model(for: key.key, explicitStore: key.store, environmentStore: .memory())
        #expect(model.value == 1)
        catalogs[Keys.self] = second
        key = catalogs.key(\Keys.$launchCount)
        #expect(box.model(for: key.key, explicitStore: key.store, environmentStore: .memory()) === model)
        #expect(model.value == 2, "the same model, now over the second catalog's store")
        model.value = 5
        #expect(second.launchCount == 5 && first.launchCount == 1)
    }
}

/// A thread-safe list of what handlers saw.
final class Recorded<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Element] = []
    func append(_ element: Element) { lock.withLock { recorded.append(element) } }
    var values: [Element] { lock.withLock { recorded } }
}
