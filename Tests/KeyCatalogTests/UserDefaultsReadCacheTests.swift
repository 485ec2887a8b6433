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
        func read(_ key: String) -> PropertyListValue? {
            small.value(forKey: key, in: suite.defaults) { suite.defaults.object(forKey: key).flatMap(PropertyListValue.init(foundationObject:)) }
        }
        var sizes: [Int] = []
        for index in 0..<20 {
            suite.defaults.set(index, forKey: "List.\(index)")
            #expect(read("List.\(index)") == .int(index))
            #expect(read("List.\(index)") == .int(index))
            sizes.append(small.count)
        }
        #expect(sizes.max() == 8 && sizes.last! < 8, "\(sizes)")

        // A key read missing while the cache is full does not empty it.
        let full = _UserDefaultsReadCache(suiteName: suite.name, capacity: 4)
        for index in 0..<4 {
            _ = full.value(forKey: "List.\(index)", in: suite.defaults) { suite.defaults.object(forKey: "List.\(index)").flatMap(PropertyListValue.init(foundationObject:)) }
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

    @Test func aRegisteredDefaultIsReadWhenTheSuiteHoldsNothing() {
        let suite = TemporarySuite()
        let key = PersistentKey<String>("Greeting.\(UUID().uuidString)", defaultValue: "none")
        suite.defaults.set(key, to: "stored")
        #expect(suite.defaults.get(key) == "stored")
        suite.defaults.register(defaults: [key.id: "registered"])
        suite.defaults.remove(key)
        #expect(suite.defaults.get(key) == "registered")
        suite.defaults.set(key, to: "again")
        #expect(suite.defaults.get(key) == "again")
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
