import KeyCatalog
import Testing

@Suite("AnyPersistentKeyValueStore.ubiquitous() on Linux")
struct UbiquitousStandInTests {
    #if !canImport(Darwin)
    @Test("one stand-in store per process, keeping iCloud's limits")
    func standIn() throws {
        let recorder = FailureRecorder()
        let (first, second) = recorder.record { (AnyPersistentKeyValueStore.ubiquitous(), AnyPersistentKeyValueStore.ubiquitous()) }
        let store = try #require(first.base as? UbiquitousKeyValueStore)
        #expect(second.base === store)
        #expect(recorder.failures.allSatisfy { $0.message.contains("iCloud") }, "reported on the process's first call only")
        let long = String(repeating: "k", count: 65)
        #expect(throws: PersistentKeyValueFailure.self) { try store.setPersistentValue(.int(1), forKey: long) }
        #expect(throws: PersistentKeyValueFailure.self) { try store.flushPersistentValues() }
    }
    #endif
}
