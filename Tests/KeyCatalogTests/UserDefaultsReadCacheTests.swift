import Foundation
import Testing

@testable import KeyCatalog

/// Reads of a suite opened by name return the value read before while Foundation holds the same
/// object for the key (Linux: `UserDefaultsReadCache`); whatever replaces that object is read.
@Suite("UserDefaults reads: the value read before, never a stale one")
struct UserDefaultsReadCacheTests {
    @Test func aWriteOutsideKeyCatalogIsReadAtOnce() {
        let suite = TemporarySuite()
        let count = PersistentKey<Int>("Count", defaultValue: 0)
        let names = PersistentKey<[String]>("Names", defaultValue: [])
        suite.defaults.set(count, to: 1)
        suite.defaults.set(names, to: ["a"])
        #expect(suite.defaults.get(count) == 1 && suite.defaults.get(names) == ["a"])
        #expect(suite.defaults.get(count) == 1 && suite.defaults.get(names) == ["a"])
        suite.defaults.set(2, forKey: "Count")
        suite.defaults.set(["b", "c"], forKey: "Names")
        #expect(suite.defaults.get(count) == 2)
        #expect(suite.defaults.get(names) == ["b", "c"])
        suite.defaults.removeObject(forKey: "Count")
        #expect(suite.defaults.get(count) == 0)
        #expect(!suite.defaults.contains(count))
    }

    /// A suite's `Data` is read from its bytes at once, not through `object(forKey:)`, whose copy
    /// goes a byte at a time: the same bytes, for data KeyCatalog wrote and data other code did,
    /// empty and large, and what replaces them. In a child process: a synchronization of any
    /// suite (another test's) while the 100 KB value is set writes this suite's file at that size,
    /// and while a suite of 32 KB or more synchronizes, KeyCatalog keeps every write of the
    /// process out of Foundation (`keptWritesFileSize`): other tests that read a write through
    /// Foundation, another instance or the read cache would then not see it.
    @Test func dataIsReadAsTheSuiteHoldsIt() async {
        await #expect(processExitsWith: .success) {
            let suite = TemporarySuite()
            let blob = PersistentKey<Data>("Blob", defaultValue: Data([9]))
            let large = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            suite.defaults.set(blob, to: large)
            #expect(suite.defaults.get(blob) == large)
            suite.defaults.set(Data(), forKey: "Blob")
            #expect(suite.defaults.get(blob) == Data())
            suite.defaults.set(Data([1, 2, 3]), forKey: "Blob")
            #expect(suite.defaults.get(blob) == Data([1, 2, 3]))
            #expect(suite.defaults.persistentValue(forKey: "Blob") == .data(Data([1, 2, 3])))
            suite.defaults.removeObject(forKey: "Blob")
            #expect(suite.defaults.get(blob) == Data([9]))
        }
    }

    #if !canImport(Darwin)
    /// A key removed is dropped from the cache, and the cache keeps at most `capacity` keys: keys
    /// made from a parameter do not grow it without end.
    @Test func removedKeysAreDroppedAndTheCacheIsBounded() throws {
        let suite = TemporarySuite()
        let count = PersistentKey<Int>("Count", defaultValue: 0)
        // Through Foundation: a write through KeyCatalog may be kept while another test's large
        // suite synchronizes, and read back without the cache.
        suite.defaults.set(1, forKey: "Count")
        #expect(suite.defaults.get(count) == 1)
        let cache = try #require(UserDefaultsPersistence.readCache(of: suite.defaults))
        #expect(cache.count == 1)
        suite.defaults.removeObject(forKey: "Count")
        #expect(suite.defaults.get(count) == 0)
        #expect(cache.count == 0)

        let small = _UserDefaultsReadCache(suiteName: suite.name, capacity: 8)
        var sizes: [Int] = []
        for index in 0..<20 {
            suite.defaults.set(index, forKey: "List.\(index)")
            #expect(small.read("List.\(index)", in: suite.defaults) == .int(index))
            #expect(small.read("List.\(index)", in: suite.defaults) == .int(index))
            sizes.append(small.count)
        }
        #expect(sizes.max() == 8 && sizes.last! < 8, "\(sizes)")

        // A key read missing while the cache is full does not empty it.
        let full = _UserDefaultsReadCache(suiteName: suite.name, capacity: 4)
        for index in 0..<4 {
            _ = full.read("List.\(index)", in: suite.defaults)
        }
        #expect(full.count == 4)
        #expect(full.value(forKey: "Missing", in: suite.defaults) { nil } == nil)
        #expect(full.count == 4)
    }
    #endif

    /// A key read missing is read through `object(forKey:)` from then on: a value other code
    /// stores is read at once; one KeyCatalog writes is kept again.
    @Test func aKeyReadMissingSeesEveryLaterWrite() throws {
        let suite = TemporarySuite()
        let key = PersistentKey<Int>("Missing.\(UUID().uuidString)", defaultValue: -1)
        #expect(suite.defaults.get(key) == -1)
        #expect(suite.defaults.get(key) == -1)
        suite.defaults.set(5, forKey: key.id)
        #expect(suite.defaults.get(key) == 5, "stored by other code")
        suite.defaults.set(6, forKey: key.id)
        #expect(suite.defaults.get(key) == 6, "stored again by other code")
        suite.defaults.set(key, to: 7)
        #expect(suite.defaults.get(key) == 7, "written through KeyCatalog")
        #if !canImport(Darwin)
        let cache = try #require(UserDefaultsPersistence.readCache(of: suite.defaults))
        #expect(cache.count == 1, "kept again once KeyCatalog wrote it")
        #endif
    }

    #if !canImport(Darwin)
    /// Keys declared in code (literals, and small strings) read missing are found without a hash;
    /// whatever makes the cache ask CoreFoundation again for such a key also forgets that: a
    /// write through KeyCatalog, another process's write, and the cache filling up.
    @Test func aKeyDeclaredInCodeReadMissingIsKeptAgainOnceItIsStored() throws {
        let suite = TemporarySuite()
        let long = PersistentKey<Int>("Settings.Reading.FontSize", defaultValue: -1)
        let small = PersistentKey<Int>("Absent", defaultValue: -2)
        // Each checked after its own reads: the slots are found by the words, which hold a
        // literal's address, so two keys share a slot in one run of 64 and the later one holds it.
        #expect(suite.defaults.get(long) == -1)
        #expect(suite.defaults.get(long) == -1)
        let cache = try #require(UserDefaultsPersistence.readCache(of: suite.defaults))
        #expect(cache.findsMissingWithoutHashing(long.id))
        #expect(suite.defaults.get(small) == -2)
        #expect(suite.defaults.get(small) == -2)
        #expect(cache.findsMissingWithoutHashing(small.id))
        suite.defaults.set(5, forKey: long.id)
        #expect(suite.defaults.get(long) == 5, "stored by other code")
        suite.defaults.set(long, to: 6)
        suite.defaults.set(small, to: 7)
        #expect(suite.defaults.get(long) == 6)
        #expect(suite.defaults.get(small) == 7)

        // A write through KeyCatalog (which tells its suite's cache to forget the key). A cache
        // of its own: a write through KeyCatalog may be kept while another test's large suite
        // synchronizes, and read back without the suite's cache.
        let own = _UserDefaultsReadCache(suiteName: suite.name, capacity: 8)
        #expect(own.read("Settings.Layout.Grid", in: suite.defaults) == nil)
        #expect(own.read("Settings.Layout.Grid", in: suite.defaults) == nil)
        #expect(own.findsMissingWithoutHashing("Settings.Layout.Grid"))
        let built = "Settings.\(["Layout"].joined()).Grid"
        #expect(own.read(built, in: suite.defaults) == nil)
        #expect(!own.findsMissingWithoutHashing(built), "a string with storage of its own has no identity")
        suite.defaults.set(4, forKey: "Settings.Layout.Grid")
        #expect(own.read("Settings.Layout.Grid", in: suite.defaults) == .int(4))
        #expect(own.count == 0, "read through object(forKey:), not kept")
        own.forget("Settings.Layout.Grid")
        #expect(!own.findsMissingWithoutHashing("Settings.Layout.Grid"))
        #expect(own.read("Settings.Layout.Grid", in: suite.defaults) == .int(4))
        #expect(own.count == 1)

        // Another process's write (the suite's watch forgets the keys read missing).
        let other = _UserDefaultsReadCache(suiteName: suite.name, capacity: 8)
        #expect(other.read("Unset", in: suite.defaults) == nil)
        #expect(other.read("Unset", in: suite.defaults) == nil)
        #expect(other.findsMissingWithoutHashing("Unset"))
        suite.defaults.set(8, forKey: "Unset")
        #expect(other.read("Unset", in: suite.defaults) == .int(8))
        #expect(other.count == 0)
        other.forgetMissingKeys()
        #expect(!other.findsMissingWithoutHashing("Unset"))
        #expect(other.read("Unset", in: suite.defaults) == .int(8))
        #expect(other.count == 1)

        // The cache filling up.
        let full = _UserDefaultsReadCache(suiteName: suite.name, capacity: 2)
        #expect(full.read("Later", in: suite.defaults) == nil)
        #expect(full.read("Later", in: suite.defaults) == nil)
        #expect(full.findsMissingWithoutHashing("Later"))
        suite.defaults.set(1, forKey: "Kept.1")
        suite.defaults.set(2, forKey: "Kept.2")
        #expect(full.read("Kept.1", in: suite.defaults) == .int(1))
        #expect(full.read("Kept.2", in: suite.defaults) == .int(2), "fills the cache, which is emptied")
        #expect(!full.findsMissingWithoutHashing("Later"))
        suite.defaults.set(3, forKey: "Later")
        #expect(full.read("Later", in: suite.defaults) == .int(3))
        #expect(full.count == 2, "\(full.count): Kept.2 and Later")
    }

    /// A key declared in code that holds a value is found by its words, without a hash, and
    /// whatever replaces its object is read at once: another write, a removal, another key that
    /// takes its slot.
    @Test func aKeyDeclaredInCodeWithAValueIsFoundByItsWords() throws {
        let suite = TemporarySuite()
        // A cache of its own: a write through KeyCatalog may be kept while another test's large
        // suite synchronizes, and read back without the suite's cache.
        let cache = _UserDefaultsReadCache(suiteName: suite.name, capacity: 64)
        suite.defaults.set(1, forKey: "Settings.Reading.FontSize")
        #expect(cache.read("Settings.Reading.FontSize", in: suite.defaults) == .int(1))
        #expect(cache.findsEntryWithoutHashing("Settings.Reading.FontSize"))
        #expect(cache.read("Settings.Reading.FontSize", in: suite.defaults) == .int(1))
        suite.defaults.set(2, forKey: "Settings.Reading.FontSize")
        #expect(cache.read("Settings.Reading.FontSize", in: suite.defaults) == .int(2))
        #expect(cache.read("Settings.Reading.FontSize", in: suite.defaults) == .int(2))
        suite.defaults.removeObject(forKey: "Settings.Reading.FontSize")
        #expect(cache.read("Settings.Reading.FontSize", in: suite.defaults) == nil)
        #expect(!cache.findsEntryWithoutHashing("Settings.Reading.FontSize"), "read missing")
        #expect(cache.findsMissingWithoutHashing("Settings.Reading.FontSize"))

        // Small strings have words too, also when built at run time: two that share a slot.
        var bySlot: [Int: String] = [:]
        var pair: (String, String)?
        for index in 0..<1_000 where pair == nil {
            let name = "k\(index)"
            let slot = try #require(_StringIdentity(name)).slot(amongPowerOfTwo: 6)
            if let other = bySlot[slot] { pair = (other, name) } else { bySlot[slot] = name }
        }
        let (first, second) = try #require(pair)
        suite.defaults.set(10, forKey: first)
        suite.defaults.set(20, forKey: second)
        for _ in 0..<2 {
            #expect(cache.read(first, in: suite.defaults) == .int(10))
            #expect(cache.read(second, in: suite.defaults) == .int(20))
        }
        #expect(cache.findsEntryWithoutHashing(second) && !cache.findsEntryWithoutHashing(first), "the last one read holds the slot")
        suite.defaults.set(11, forKey: first)
        #expect(cache.read(first, in: suite.defaults) == .int(11))
        #expect(cache.read(second, in: suite.defaults) == .int(20))
    }

    /// A value read while an argument for the key was given (set on another thread after the
    /// cache looked for one) is not kept as the suite's: once the argument is gone, the suite's is
    /// read (found by a review: the argument's value was read for good). In a child process: the
    /// argument domain is process-wide on Apple platforms.
    @Test func aValueAnArgumentGaveDuringTheReadIsNotKept() async {
        await #expect(processExitsWith: .success) {
            let suite = TemporarySuite()
            suite.defaults.set(5, forKey: "Count")
            let cache = try #require(UserDefaultsPersistence.readCache(of: suite.defaults))
            let read = cache.value(forKey: "Count", in: suite.defaults) {
                suite.defaults.setVolatileDomain(["Count": 9], forName: UserDefaults.argumentDomain)
                return suite.defaults.object(forKey: "Count").flatMap(PropertyListValue.init(foundationObject:))
            }
            #expect(read == .int(9), "\(String(describing: read))")
            suite.defaults.removeVolatileDomain(forName: UserDefaults.argumentDomain)
            let after = cache.read("Count", in: suite.defaults)
            #expect(after == .int(5), "\(String(describing: after))")
        }
    }

    /// The cache found last is checked against the instance asked about: another instance of the
    /// same suite, which KeyCatalog did not open, has none.
    @Test func aReadCacheIsOnlyTheInstancesItWasMadeFor() throws {
        let suite = TemporarySuite()
        let key = PersistentKey<Int>("Count", defaultValue: 0)
        suite.defaults.set(key, to: 3)
        #expect(suite.defaults.get(key) == 3)
        let cache = try #require(UserDefaultsPersistence.readCache(of: suite.defaults))
        let unopened = UnopenedSuiteInstance(suite).defaults
        #expect(UserDefaultsPersistence.readCache(of: unopened) == nil)
        #expect(unopened.get(key) == 3)
        #expect(UserDefaultsPersistence.readCache(of: suite.defaults) === cache)
        // Another suite's cache in between (not `.standard`'s: process-wide state).
        let other = TemporarySuite()
        let otherCache = try #require(UserDefaultsPersistence.readCache(of: other.defaults))
        #expect(otherCache !== cache)
        #expect(UserDefaultsPersistence.readCache(of: suite.defaults) === cache)
        #expect(UserDefaultsPersistence.readCache(of: other.defaults) === otherCache)
    }
    #endif

    /// In a child process: the registration domain is process-wide, shared by every suite.
    @Test func aRegisteredDefaultIsReadWhenTheSuiteHoldsNothing() async {
        await #expect(processExitsWith: .success) {
            let suite = TemporarySuite()
            let key = PersistentKey<String>("Greeting", defaultValue: "none")
            suite.defaults.set(key, to: "stored")
            #expect(suite.defaults.get(key) == "stored")
            suite.defaults.register(defaults: [key.id: "registered"])
            suite.defaults.remove(key)
            #expect(suite.defaults.get(key) == "registered", "\(suite.defaults.get(key))")
            suite.defaults.set(key, to: "again")
            #expect(suite.defaults.get(key) == "again", "\(suite.defaults.get(key))")
        }
    }

    /// A removal KeyCatalog keeps out of Foundation for now (`defersEveryWrite`, or a large
    /// suite synchronizing) reads what UserDefaults will read once it is handed over: the
    /// registration domain's value, whoever registered it (found by a review: only what was
    /// registered through KeyCatalog's `registerPersistentValues` was read, so a default
    /// registered with `register(defaults:)`, or registered again that way, read as the key's
    /// default, or as the old registration, until the next synchronization). In a child process:
    /// `defersEveryWrite` and the registration domain are process-wide.
    @Test func aKeptRemovalReadsTheRegisteredDefault() async {
        await #expect(processExitsWith: .success) {
            UserDefaultsPersistence.defersEveryWrite = true
            let suite = TemporarySuite()
            let greeting = PersistentKey<String>("Greeting", defaultValue: "none")
            let color = PersistentKey<String>("Color", defaultValue: "none")
            suite.defaults.register(defaults: [greeting.id: "registered"])
            suite.defaults.registerPersistentValues([color.id: .string("first")])
            suite.defaults.register(defaults: [color.id: "second"])
            for key in [greeting, color] {
                suite.defaults.set(key, to: "stored")
                #expect(suite.defaults.get(key) == "stored")
                suite.defaults.remove(key)
            }
            let kept = (suite.defaults.get(greeting), suite.defaults.get(color))
            UserDefaultsPersistence.synchronizePendingWrites()
            let handedOver = (suite.defaults.get(greeting), suite.defaults.get(color))
            #expect(handedOver == ("registered", "second"), "\(handedOver)")
            #expect(kept == handedOver, "kept \(kept), handed over \(handedOver)")
        }
    }

    @Test func aCodableValueWrittenOutsideKeyCatalogIsDecodedAgain() throws {
        struct Point: Codable, Equatable, Sendable { var x: Int }
        let suite = TemporarySuite()
        let key = PersistentKey<Point>("Point", defaultValue: Point(x: 0), representation: CodablePersistentKeyValueRepresentation())
        suite.defaults.set(key, to: Point(x: 1))
        #expect(suite.defaults.get(key) == Point(x: 1))
        suite.defaults.set(try JSONEncoder().encode(Point(x: 2)), forKey: "Point")
        #expect(suite.defaults.get(key) == Point(x: 2))
    }

    /// In a child process: the argument domain is process-wide. It overrides the suite, also when
    /// it changes after the key was read.
    @Test func theArgumentDomainOverridesAValueReadBefore() throws {
        let home = TemporaryDirectory()
        let environment = TestHelperExecutable.environment(configurationIn: home)
        let child = try TestHelperExecutable.run(["defaults", "keycatalog.tests.arguments.\(UUID().uuidString)", "argument-override", "Count"], environment: environment)
        #expect(child.status == 0)
        #expect(child.output == "5 9 5\n")
    }
}

#if !canImport(Darwin)
extension _UserDefaultsReadCache {
    /// `key`'s value in `defaults` read through this cache, as `UserDefaults.persistentValue(forKey:)` reads it.
    func read(_ key: String, in defaults: UserDefaults) -> PropertyListValue? {
        value(forKey: key, in: defaults) { defaults.object(forKey: key).flatMap(PropertyListValue.init(foundationObject:)) }
    }
}
#endif
