import Foundation
import KeyCatalog
import Testing

@Suite("Observation: callbacks and async sequences on every store")
struct ObservationTests {
    static let count = PersistentKey<Int>("Count", defaultValue: 0)
    static let other = PersistentKey<Int>("Other", defaultValue: 0)

    @Test(arguments: StoreKind.allCases)
    func callbackSeesEachChangeUntilCancelled(kind: StoreKind) {
        let fixture = kind.makeFixture()
        let seen = Locked<[Int]>([])
        let observation = fixture.store.observe(Self.count) { seen.append($0) }
        fixture.store.set(Self.count, to: 1)
        fixture.store.set(Self.other, to: 5)
        fixture.store.set(Self.count, to: 2)
        fixture.store.remove(Self.count)
        #expect(seen.current == [1, 2, 0], "each change, then the default after removal; not other keys")
        observation.cancel()
        observation.cancel()
        fixture.store.set(Self.count, to: 3)
        #expect(seen.current == [1, 2, 0])
        #expect(!fixture.store.keyValueChanges.hasObservers(forKey: "Count"))
    }

    @Test(arguments: StoreKind.allCases)
    func releasingTheObservationEndsIt(kind: StoreKind) {
        let fixture = kind.makeFixture()
        let seen = Locked<[Int]>([])
        do {
            let observation = fixture.store.observe(Self.count) { seen.append($0) }
            fixture.store.set(Self.count, to: 1)
            _ = observation
        }
        fixture.store.set(Self.count, to: 2)
        #expect(seen.current == [1])
    }

    @Test(arguments: StoreKind.allCases)
    func valuesStartWithTheCurrentValue(kind: StoreKind) async {
        let fixture = kind.makeFixture()
        fixture.store.set(Self.count, to: 4)
        var values = fixture.store.values(for: Self.count).makeAsyncIterator()
        #expect(await values.next() == 4)
        fixture.store.set(Self.count, to: 5)
        fixture.store.set(Self.count, to: 6)
        fixture.store.remove(Self.count)
        #expect(await values.next() == 5)
        #expect(await values.next() == 6)
        #expect(await values.next() == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func changesSkipTheCurrentValue(kind: StoreKind) async {
        let fixture = kind.makeFixture()
        fixture.store.set(Self.count, to: 4)
        var changes = fixture.store.changes(for: Self.count).makeAsyncIterator()
        fixture.store.set(Self.count, to: 5)
        #expect(await changes.next() == 5)
    }

    @Test(arguments: StoreKind.allCases)
    func consumingTaskSeesChangesAndEndingItStopsObserving(kind: StoreKind) async {
        let fixture = kind.makeFixture()
        let store = _UncheckedStore(fixture.store)
        let received = Locked<[Int]>([])
        let consumer = Task {
            for await value in store.base.changes(for: Self.count) {
                received.append(value)
                if value == 3 { break }
            }
        }
        // Wait until the stream is subscribed.
        while !fixture.store.keyValueChanges.hasObservers(forKey: "Count") { await Task.yield() }
        for value in 1...3 { fixture.store.set(Self.count, to: value) }
        await consumer.value
        #expect(received.current == [1, 2, 3])
        #expect(!fixture.store.keyValueChanges.hasObservers(forKey: "Count"), "a finished stream stops observing")
    }

    @Test(arguments: StoreKind.allCases)
    func failedWritesAreNotAnnounced(kind: StoreKind) {
        let fixture = kind.makeFixture()
        let key = PersistentKey<String>("Name", defaultValue: "")
        let seen = Locked<[String]>([])
        let observation = fixture.store.observe(key) { seen.append($0) }
        FailureRecorder().record { fixture.store.set(key, to: "bad\u{1}") }
        #expect(seen.current.isEmpty)
        observation.cancel()
    }

    @Test func twoFileStoresOnOneFileSeeEachOthersChanges() async {
        let directory = TemporaryDirectory()
        let first = FileKeyValueStore(url: directory.file("shared.plist"))
        let second = FileKeyValueStore(url: directory.file("shared.plist"))
        let seen = Locked<[Int]>([])
        let observation = second.observe(Self.count) { seen.append($0) }
        var values = second.values(for: Self.count).makeAsyncIterator()
        #expect(await values.next() == 0)
        first.set(Self.count, to: 8)
        first.remove(Self.count)
        #expect(seen.current == [8, 0])
        #expect(await values.next() == 8)
        #expect(await values.next() == 0)
        observation.cancel()
    }

    @Test func valueThatDoesNotDecodeIsAnnouncedAsTheDefaultAndReported() async {
        let store = InMemoryKeyValueStore()
        let recorder = FailureRecorder()
        let seen = Locked<[Int]>([])
        let observation = store.observe(Self.count) { seen.append($0) }
        recorder.record { store.set(PersistentKey<String>("Count", defaultValue: ""), to: "seven") }
        #expect(seen.current == [0])
        #expect(recorder.failures.count == 1)
        #expect(recorder.failures.first?.operation == .read)
        observation.cancel()
    }
}

/// Lets a test hand a store (UserDefaults is not `Sendable` on Linux) to a task it awaits.
struct _UncheckedStore: @unchecked Sendable {
    let base: any PersistentKeyValueStore
    init(_ base: any PersistentKeyValueStore) { self.base = base }
}
