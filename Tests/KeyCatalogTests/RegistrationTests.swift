import Foundation
import KeyCatalog
import Testing

@Suite("Registration: defaults that reads fall back to, not stored values")
struct RegistrationTests {
    // UserDefaults' registration domain is process-wide (on Linux it is shared by every suite), so
    // registered storage keys are unique to this run: other tests use "Count" too.
    static let prefix = "Registration.\(UUID().uuidString)."
    static let count = PersistentKey<Int>(prefix + "Count", defaultValue: 3)
    static let names = PersistentKey<[String]>(prefix + "Names", defaultValue: ["a", "b"])
    static let scheme = PersistentKey<MatrixSuit>(prefix + "Suit", defaultValue: .spades)
    static let missing = PersistentKey<String?>(prefix + "Missing", defaultValue: nil)

    @Test(arguments: StoreKind.allCases)
    func registeredDefaultsAreReadButNotStored(kind: StoreKind) throws {
        let fixture = kind.makeFixture()
        let store = fixture.store
        let recorder = FailureRecorder()
        try recorder.record {
            store.register(Self.count, Self.names, Self.scheme, Self.missing)
            #expect(store.persistentValue(forKey: Self.prefix + "Count") == .int(3))
            #expect(store.persistentValue(forKey: Self.prefix + "Names") == .array([.string("a"), .string("b")]))
            #expect(store.persistentValue(forKey: Self.prefix + "Suit") == .string("spades"))
            #expect(store.persistentValue(forKey: Self.prefix + "Missing") == nil, "a nil default registers nothing")
            #expect(!store.contains(Self.count))
            #expect(!store.contains(Self.names))
            #expect(!store.contains(Self.missing))

            // A key with another default for the same storage key sees the registered value.
            #expect(store.get(PersistentKey<Int>(Self.prefix + "Count", defaultValue: 0)) == 3)

            store.set(Self.count, to: 10)
            #expect(store.contains(Self.count))
            #expect(store.get(Self.count) == 10)
            store.remove(Self.count)
            #expect(!store.contains(Self.count))
            #expect(store.get(PersistentKey<Int>(Self.prefix + "Count", defaultValue: 0)) == 3, "removal falls back to the registered value")

            if let persisted = try fixture.persistedStore() {
                #expect(persisted.storedValues.isEmpty, "registered defaults are never written to disk")
            }
        }
        #expect(recorder.failures.isEmpty)
    }

    @Test func registeredDefaultsAreVisibleToRawUserDefaults() {
        let suite = TemporarySuite()
        suite.defaults.register(Self.count, Self.names)
        #expect(suite.defaults.integer(forKey: Self.prefix + "Count") == 3)
        #expect(suite.defaults.stringArray(forKey: Self.prefix + "Names") == ["a", "b"])
    }

    @Test func registrationThroughAnotherUserDefaultsInstanceIsNotAStoredValue() {
        // UserDefaults' registration domain is process-wide: registering through any instance (or
        // through `standard`) makes the value readable in every suite, and it is still no stored value.
        let suite = TemporarySuite()
        let key = PersistentKey<Int>(Self.prefix + "Elsewhere", defaultValue: 4)
        UserDefaults(suiteName: "\(suite.name).other")!.register(key)
        #expect(suite.defaults.integer(forKey: key.id) == 4)
        #expect(suite.defaults.get(PersistentKey<Int>(key.id, defaultValue: 0)) == 4)
        #expect(!suite.defaults.contains(key))
        suite.defaults.set(key, to: 5)
        #expect(suite.defaults.contains(key))
    }

    /// An instance the app made (`UserDefaults(suiteName:)`, whose domain UserDefaults does not
    /// name): `contains` counts a value equal to what the suite reads beneath its own values as
    /// not stored, also for a default registered with UserDefaults' own `register(defaults:)`
    /// (Foundation on Linux keeps those to itself: such a value counted as stored). In a child
    /// process: the registration domain is the process's.
    @Test func anInstanceTheAppMadeCountsAValueEqualToAForeignRegistrationAsNotStored() async {
        await #expect(processExitsWith: .success) {
            let suite = TemporarySuite()
            let defaults = try #require(UserDefaults(suiteName: suite.name))
            let key = PersistentKey<Int>("Level", defaultValue: 0)
            defaults.register(defaults: [key.id: 3])
            #expect(!defaults.contains(key))
            defaults.set(3, forKey: key.id)
            #expect(!defaults.contains(key), "equal to the registered default")
            defaults.set(4, forKey: key.id)
            #expect(defaults.contains(key))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func unencodableDefaultIsReportedAndTheOthersAreRegistered(kind: StoreKind) {
        let fixture = kind.makeFixture()
        let bad = PersistentKey<String>(Self.prefix + "Bad", defaultValue: "\u{1}")
        let recorder = FailureRecorder()
        recorder.record { fixture.store.register(bad, Self.count) }
        #expect(recorder.failures.count == 1)
        #expect(recorder.failures.first?.key == Self.prefix + "Bad")
        #expect(fixture.store.persistentValue(forKey: Self.prefix + "Bad") == nil)
        #expect(fixture.store.get(PersistentKey<Int>(Self.prefix + "Count", defaultValue: 0)) == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func containsSaysWhetherAValueIsStored(kind: StoreKind) {
        let fixture = kind.makeFixture()
        #expect(!fixture.store.contains(Self.names))
        fixture.store.set(Self.names, to: [])
        #expect(fixture.store.contains(Self.names), "an empty array is a stored value")
        #expect(fixture.store.get(Self.names) == [])
        fixture.store.remove(Self.names)
        #expect(!fixture.store.contains(Self.names))
    }
}
