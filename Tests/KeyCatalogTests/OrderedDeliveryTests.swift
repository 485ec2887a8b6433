import Foundation
import KeyCatalog
import Testing

/// After a burst of writes from several threads, every observer ends on the store's final value.
@Suite("Ordered change delivery: observers end on the final value")
struct OrderedDeliveryTests {
    static let key = PersistentKey<Int>("Burst", defaultValue: 0)
    /// Posted after each burst so that a `values(for:)` consumer knows what came before it.
    static let sentinel = -1

    /// Trials of bursts on one store: writing threads, writes per thread. File writes flush to
    /// disk, so the file store gets fewer.
    static func shape(_ kind: StoreKind) -> (trials: Int, threads: Int, writes: Int) {
        kind == .file ? (1_000, 3, 1) : (2_000, 4, 3)
    }

    @Test(.timeLimit(.minutes(10)), arguments: StoreKind.allCases)
    func everyObserverEndsOnTheFinalValue(kind: StoreKind) async throws {
        let fixture = kind.makeFixture()
        let store = _UncheckedStore(fixture.store)
        let (trials, threads, writes) = Self.shape(kind)
        let recorder = FailureRecorder()
        var staleObserve: [String] = []
        var staleValues: [String] = []
        await recorder.record {
            for trial in 0..<trials {
                let last = Locked<Int?>(nil)
                // Every call, with the delivering thread: what a failure shows.
                let calls = Locked<[String]>([])
                let observation = store.base.observe(Self.key) { value in
                    last.withLock { $0 = value }
                    calls.withLock { $0.append("\(value) on thread \(pthread_self() % 10_007)") }
                }
                var stream = store.base.values(for: Self.key).makeAsyncIterator()

                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    for write in 0..<writes {
                        store.base.set(Self.key, to: trial * 100 + thread * 10 + write + 1)
                    }
                }
                // Every writer returned; a round may still be under way on a thread that is not a
                // writer's (a UserDefaults suite's file watch delivers when another suite's
                // synchronization rewrote this one's file), and it ends on the final value.
                let final = store.base.get(Self.key)
                if !eventually({ last.current == final }) { staleObserve.append("trial \(trial): observe ended on \(String(describing: last.current)), store holds \(final); calls \(calls.current)") }
                observation.cancel()

                store.base.keyValueChanges.post(key: Self.key.id, value: .int(Self.sentinel))
                var beforeSentinel: Int?
                while let value = await stream.next(), value != Self.sentinel {
                    beforeSentinel = value
                }
                if beforeSentinel != final { staleValues.append("trial \(trial): values(for:) ended on \(String(describing: beforeSentinel)), store holds \(final)") }
            }
        }
        #expect(staleObserve.isEmpty, "\(staleObserve.count) of \(trials): \(staleObserve.prefix(3))")
        #expect(staleValues.isEmpty, "\(staleValues.count) of \(trials): \(staleValues.prefix(3))")
        #expect(recorder.failures.isEmpty, "\(recorder.failures.prefix(3))")
    }

    /// A handler that writes the key it observes is called again with that write, after it returns.
    @Test(arguments: StoreKind.allCases)
    func aHandlerMayWriteTheKeyItObserves(kind: StoreKind) throws {
        let fixture = kind.makeFixture(watchingOtherProcesses: false)
        let store = _UncheckedStore(fixture.store)
        let seen = Locked<[Int]>([])
        let observation = store.base.observe(Self.key) { value in
            seen.append(value)
            if value < 3 { store.base.set(Self.key, to: value + 1) }
        }
        defer { observation.cancel() }
        store.base.set(Self.key, to: 1)
        #expect(seen.current == [1, 2, 3])
        #expect(store.base.get(Self.key) == 3)
    }

    /// The race made deterministic: writer A's write lands first but its announcement comes last,
    /// after writer B has written and announced. Observers must still end on B's value.
    @Test func aLateAnnouncementOfAnOlderWriteDoesNotWin() throws {
        let store = PausingStore()
        let last = Locked<Int?>(nil)
        let observation = store.observe(Self.key) { value in last.withLock { $0 = value } }
        defer { observation.cancel() }
        let aWrote = DispatchSemaphore(value: 0)
        let bDone = DispatchSemaphore(value: 0)
        let aDone = DispatchSemaphore(value: 0)
        store.pauseAfterWriting = { value in
            guard value == .int(1) else { return }
            aWrote.signal()
            bDone.wait()
        }
        Thread.detachNewThread {
            store.set(Self.key, to: 1)
            aDone.signal()
        }
        aWrote.wait()
        store.set(Self.key, to: 2)
        bDone.signal()
        aDone.wait()
        #expect(store.get(Self.key) == 2)
        #expect(last.current == 2, "A's announcement, delivered last, carries the current value")
    }
}

/// An in-memory store that can stop a writer between its write and its announcement.
final class PausingStore: PersistentKeyValueStore, @unchecked Sendable {
    let base = InMemoryKeyValueStore()
    nonisolated(unsafe) var pauseAfterWriting: @Sendable (PropertyListValue) -> Void = { _ in }
    var keyValueChanges: KeyValueChangeCenter { base.keyValueChanges }
    var persistentStoreDescription: String { "pausing store" }
    func persistentValue(forKey key: String) -> PropertyListValue? { base.persistentValue(forKey: key) }
    func hasPersistentValue(forKey key: String) -> Bool { base.hasPersistentValue(forKey: key) }
    func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws {
        base.setPersistentValue(value, forKey: key)
        pauseAfterWriting(value)
    }
    func removePersistentValue(forKey key: String) throws { base.removePersistentValue(forKey: key) }
    func registerPersistentValues(_ values: [String: PropertyListValue]) { base.registerPersistentValues(values) }
}
