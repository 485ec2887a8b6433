import Foundation
import KeyCatalog
import Testing

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
