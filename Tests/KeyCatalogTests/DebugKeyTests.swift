import Foundation
import KeyCatalog
import Testing

@Suite("Debug keys: Release reads the release default and ignores writes, on every store")
struct DebugKeyTests {
    static func key(_ configuration: BuildConfiguration) -> PersistentDebugKey<Int> {
        PersistentDebugKey("Flag", debugDefaultValue: 1, releaseDefaultValue: 2, configuration: configuration)
    }

    @Test(arguments: StoreKind.allCases)
    func releaseWritesAreIgnored(kind: StoreKind) throws {
        let fixture = kind.makeFixture()
        let release = Self.key(.release)
        let recorder = FailureRecorder()
        recorder.record {
            #expect(fixture.store.get(release) == 2)
            fixture.store.set(release, to: 9)
            #expect(fixture.store.get(release) == 2)
            #expect(!fixture.store.contains(release))
            #expect(fixture.store.persistentValue(forKey: "Flag") == nil, "nothing was written")
            #expect(throws: Never.self) { try fixture.store._set(release, to: 10) }
            #expect(fixture.store.persistentValue(forKey: "Flag") == nil)
        }
        let persisted = try fixture.persistedStore()
        #expect(persisted?.storedValues.isEmpty ?? true, "nothing on disk")
        #expect(recorder.failures.isEmpty, "ignoring a Release write is not a failure")
    }

    @Test(arguments: StoreKind.allCases)
    func releaseReadsIgnoreAStoredValue(kind: StoreKind) {
        let fixture = kind.makeFixture()
        let debug = Self.key(.debug)
        let release = Self.key(.release)
        #expect(fixture.store.get(debug) == 1)
        fixture.store.set(debug, to: 5)
        #expect(fixture.store.get(debug) == 5)
        #expect(fixture.store.get(release) == 2, "Release reads the release default even with a value stored")
        #expect(!fixture.store.contains(release))
        fixture.store.remove(release)
        #expect(fixture.store.get(debug) == 5, "a Release remove is ignored too")
        fixture.store.remove(debug)
        #expect(fixture.store.get(debug) == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func releaseObservationGivesTheReleaseDefault(kind: StoreKind) async {
        let fixture = kind.makeFixture()
        let debug = Self.key(.debug)
        let release = Self.key(.release)
        let seen = Locked<[Int]>([])
        let observation = fixture.store.observe(release) { seen.append($0) }
        var values = fixture.store.values(for: release).makeAsyncIterator()
        #expect(await values.next() == 2)
        fixture.store.set(debug, to: 7)
        #expect(await values.next() == 2, "a change made in Debug reads as the release default")
        #expect(seen.current == [2])
        observation.cancel()
    }

    /// Debug when the tests are built for debugging (`swift test`), Release when optimized.
    @Test func theCurrentConfigurationIsTheBuilds() {
        #if DEBUG
        let expected = ("debug", BuildConfiguration.debug)
        #else
        let expected = ("release", BuildConfiguration.release)
        #endif
        #expect(BuildConfiguration.current == expected.1)
        let key = PersistentDebugKey<String>("Mode", debugDefaultValue: "debug", releaseDefaultValue: "release")
        #expect(key.configuration == expected.1)
        #expect(InMemoryKeyValueStore().get(key) == expected.0)
    }

    @Test(arguments: StoreKind.allCases)
    func releaseRegistrationStillRegistersTheReleaseDefault(kind: StoreKind) {
        let fixture = kind.makeFixture()
        // Registration is process-wide in UserDefaults: a storage key of its own.
        let id = "Flag.\(UUID().uuidString)"
        let release = PersistentDebugKey<Int>(id, debugDefaultValue: 1, releaseDefaultValue: 2, configuration: .release)
        fixture.store.register(release)
        #expect(fixture.store.get(release) == 2)
        #expect(fixture.store.get(PersistentDebugKey<Int>(id, debugDefaultValue: 1, releaseDefaultValue: 2, configuration: .debug)) == 2)
        #expect(!fixture.store.contains(PersistentDebugKey<Int>(id, debugDefaultValue: 1, releaseDefaultValue: 2, configuration: .debug)))
    }
}
