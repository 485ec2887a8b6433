import KeyCatalog
import Testing

@Suite("AnyPersistentKeyValueStore.ubiquitous() on Linux")
struct UbiquitousStandInTests {
    #if !canImport(Darwin)
    /// In a child process: the stand-in is one per process, and what it reports, it reports at
    /// the process's first call.
    @Test("one stand-in store per process, keeping iCloud's limits")
    func standIn() async {
        await #expect(processExitsWith: .success) {
            let recorder = FailureRecorder()
            let (first, second) = recorder.record { (AnyPersistentKeyValueStore.ubiquitous(), AnyPersistentKeyValueStore.ubiquitous()) }
            let store = try #require(first.base as? UbiquitousKeyValueStore)
            #expect(second.base === store)
            // iCloud is unavailable, and the launch synchronize() is false: at the first call only.
            #expect(recorder.failures.count == 2, "\(recorder.failures)")
            #expect(recorder.failures.allSatisfy { $0.message.contains("iCloud") }, "\(recorder.failures)")
            let long = String(repeating: "k", count: 65)
            #expect(throws: PersistentKeyValueFailure.self) { try store.setPersistentValue(.int(1), forKey: long) }
            #expect(throws: PersistentKeyValueFailure.self) { try store.flushPersistentValues() }
        }
    }
    #endif
}
