import Foundation
import KeyCatalog
import Observation
import Testing

@Suite("Observation: callbacks and async sequences on every store")
struct ObservationTests {
    static let count = PersistentKey<Int>("Count", defaultValue: 0)
    static let other = PersistentKey<Int>("Other", defaultValue: 0)

    @Test(arguments: StoreKind.allCases)
    func callbackSeesEachChangeUntilCancelled(kind: StoreKind) {
        let fixture = kind.makeFixture(watchingOtherProcesses: false)
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

    /// Found by a review: a change to other bits that compare equal (`-0.0` over `0.0`, a string
    /// in its other Unicode normalization) was taken for no change, and observers kept the old
    /// value while the store held the new one. (A suite: see the next test; one made with
    /// `UserDefaults(suiteName:)` keeps the first spelling, and on Linux refuses `-0.0`.)
    @Test(arguments: [StoreKind.inMemory, .file])
    func aChangeToEqualButOtherBitsIsDelivered(kind: StoreKind) {
        let fixture = kind.makeFixture(watchingOtherProcesses: false)
        let number = PersistentKey<Double>("Number", defaultValue: 1)
        let word = PersistentKey<String>("Word", defaultValue: "")
        let numbers = Locked<[UInt64]>([])
        let words = Locked<[[UInt8]]>([])
        let observations = [
            fixture.store.observe(number) { numbers.append($0.bitPattern) },
            fixture.store.observe(word) { words.append(Array($0.utf8)) },
        ]
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        fixture.store.set(word, to: composed)
        fixture.store.set(word, to: decomposed)
        #expect(words.current == [Array(composed.utf8), Array(decomposed.utf8)])
        fixture.store.set(number, to: 0.0)
        fixture.store.set(number, to: -0.0)
        #expect(numbers.current == [(0.0 as Double).bitPattern, (-0.0 as Double).bitPattern])
        withExtendedLifetime(observations) {}
    }

    /// The same through a suite opened by name, which stores each spelling as written.
    @Test func aSuiteOpenedByNameDeliversAStringInItsOtherNormalization() {
        let suite = TemporarySuite()
        let word = PersistentKey<String>("Word", defaultValue: "")
        let words = Locked<[[UInt8]]>([])
        let observation = suite.defaults.observe(word) { words.append(Array($0.utf8)) }
        suite.defaults.set(word, to: "caf\u{E9}")
        suite.defaults.set(word, to: "cafe\u{301}")
        #expect(Array(suite.defaults.get(word).utf8) == Array("cafe\u{301}".utf8))
        #expect(eventually { words.current.last == Array("cafe\u{301}".utf8) }, "\(words.current)")
        withExtendedLifetime(observation) {}
    }

    /// And when another process writes it: the file store reads its record, and announces it.
    @Test func anotherProcessWritingAStringInItsOtherNormalizationIsDelivered() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        let words = PersistentKey<[String]>("Words", defaultValue: [])
        store.set(words, to: ["caf\u{E9}"])
        let seen = Locked<[[UInt8]]>([])
        let observation = store.observe(words) { seen.append(Array($0.joined().utf8)) }
        let child = try TestHelperExecutable.run(["file", url.path, "set-strings", "Words", "cafe\u{301}"])
        #expect(child.status == 0)
        #expect(eventually { seen.current.last == Array("cafe\u{301}".utf8) }, "\(seen.current)")
        withExtendedLifetime(observation) {}
    }

    /// Found by a review: the value was decoded after the check of the cancellation, so a
    /// cancellation during a slow decode on another thread did not stop the call, every time.
    @Test(arguments: StoreKind.allCases)
    func aCancellationDuringTheDecodeOfADeliveryStopsItsCall(kind: StoreKind) {
        let fixture = kind.makeFixture(watchingOtherProcesses: false)
        let decoding = DispatchSemaphore(value: 0)
        let cancelled = DispatchSemaphore(value: 0)
        let blocksNextDecode = Locked(false)
        let key = PersistentKey<Int>(
            "Slow", defaultValue: 0,
            representation: ProxyPersistentKeyValueRepresentation<Int, Int>(
                to: { $0 },
                from: { value in
                    let blocks = blocksNextDecode.withLock { blocks in
                        defer { blocks = false }
                        return blocks
                    }
                    if blocks {
                        decoding.signal()
                        cancelled.wait()
                    }
                    return value
                }))
        let calls = Locked(0)
        let observation = fixture.store.observe(key) { _ in calls.withLock { $0 += 1 } }
        blocksNextDecode.withLock { $0 = true }
        let written = DispatchSemaphore(value: 0)
        // Every store of the fixture is safe to use from any thread.
        nonisolated(unsafe) let store = fixture.store
        Thread {
            store.set(key, to: 1)
            written.signal()
        }.start()
        #expect(decoding.wait(timeout: .now() + 10) == .success)
        observation.cancel()
        cancelled.signal()
        #expect(written.wait(timeout: .now() + 10) == .success)
        #expect(calls.current == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func releasingTheObservationEndsIt(kind: StoreKind) {
        let fixture = kind.makeFixture(watchingOtherProcesses: false)
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
        let fixture = kind.makeFixture(watchingOtherProcesses: false)
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
        let fixture = kind.makeFixture(watchingOtherProcesses: false)
        fixture.store.set(Self.count, to: 4)
        var changes = fixture.store.changes(for: Self.count).makeAsyncIterator()
        fixture.store.set(Self.count, to: 5)
        #expect(await changes.next() == 5)
    }

    @Test(arguments: StoreKind.allCases)
    func consumingTaskSeesChangesAndEndingItStopsObserving(kind: StoreKind) async {
        let fixture = kind.makeFixture(watchingOtherProcesses: false)
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
        let fixture = kind.makeFixture(watchingOtherProcesses: false)
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

    /// Reads `key` inside `withObservationTracking`; the flag is set when the tracking fires.
    private func tracking(_ key: CatalogKey<Int>) -> Flag {
        let changed = Flag()
        withObservationTracking {
            _ = key.value
        } onChange: {
            changed.set()
        }
        return changed
    }

    /// A catalog key read once stays tracked for Observation; its changes then wake trackers
    /// without reading the store (also where a watcher compares values: the file store), and
    /// value observers beside them still get each value.
    @Test(arguments: [false, true])
    func aKeyOnlyObservationTracksIsNotReadOnItsChanges(inFile: Bool) {
        let directory = TemporaryDirectory()
        let store = CountingStore(base: inFile ? FileKeyValueStore(url: directory.file("tracked.plist")) : InMemoryKeyValueStore())
        let key = CatalogKey(Self.count, name: "count", store: AnyPersistentKeyValueStore(store), storeName: "test")
        let changed = tracking(key)
        let reads = store.reads
        try? store.setPersistentValue(.int(1), forKey: "Count")
        store.keyValueChanges.postCurrentValue(forKey: "Count", in: store)
        #expect(changed.isSet)
        #expect(store.reads == reads, "nothing uses the value")

        let seen = Locked<[Int]>([])
        let observation = store.observe(Self.count) { seen.append($0) }
        let again = tracking(key)
        try? store.setPersistentValue(.int(2), forKey: "Count")
        store.keyValueChanges.postCurrentValue(forKey: "Count", in: store)
        #expect(again.isSet && seen.current == [2])
        observation.cancel()
        try? store.setPersistentValue(.int(3), forKey: "Count")
        let readsAfterCancel = store.reads
        store.keyValueChanges.postCurrentValue(forKey: "Count", in: store)
        #expect(store.reads == readsAfterCancel && seen.current == [2], "the value observer is gone")
    }

    /// Catalog keys under two spellings of one name, equal as a `String`, read in trackings in
    /// either order (the first reading of each spelling registers it): a write under either
    /// spelling wakes both trackings, on the in-memory store, where the two are one key.
    @Test(arguments: namesEqualAsStrings)
    func trackingsOfTwoSpellingsOfOneKeyAreBothWoken(first: String, second: String) {
        let store = AnyPersistentKeyValueStore(InMemoryKeyValueStore())
        let firstKey = CatalogKey(PersistentKey<Int>(first, defaultValue: 0), name: "first", store: store, storeName: "test")
        let secondKey = CatalogKey(PersistentKey<Int>(second, defaultValue: 0), name: "second", store: store, storeName: "test")
        for (spelling, writtenKey, value) in [("second", secondKey, 1), ("first", firstKey, 2)] {
            let (firstChanged, secondChanged) = (tracking(firstKey), tracking(secondKey))
            writtenKey.value = value
            #expect(firstChanged.isSet && secondChanged.isSet, "written under the \(spelling) spelling")
            #expect(firstKey.value == value && secondKey.value == value)
        }
    }

    /// Observation's tracking of a catalog key holds nothing that holds the store: a store is
    /// freed with its last user.
    @Test func aStoreTrackedThroughACatalogKeyIsFreedWithItsLastUser() {
        weak var freedStore: InMemoryKeyValueStore?
        weak var freedCenter: KeyValueChangeCenter?
        do {
            let store = InMemoryKeyValueStore()
            let key = CatalogKey(Self.count, name: "count", store: AnyPersistentKeyValueStore(store), storeName: "test")
            let changed = tracking(key)
            key.value = 1
            #expect(changed.isSet)
            freedStore = store
            freedCenter = store.keyValueChanges
        }
        #expect(freedStore == nil)
        #expect(freedCenter == nil)
    }

    /// Where a watcher compares each value with the last one delivered, changes that only
    /// Observation's trackers heard do not count as delivered: a value observer that comes later
    /// gets a change back to the value delivered before them.
    @Test func aValueObserverAfterTrackedOnlyChangesGetsAChangeBackToAnEarlierValue() {
        let directory = TemporaryDirectory()
        let store = FileKeyValueStore(url: directory.file("tracked.plist"))
        let key = CatalogKey(Self.count, name: "count", store: AnyPersistentKeyValueStore(store), storeName: "test")
        _ = key.value  // tracked from now on
        let first = Locked<[Int]>([])
        let observation = store.observe(Self.count) { first.append($0) }
        store.set(Self.count, to: 1)
        observation.cancel()
        store.set(Self.count, to: 2)  // heard by the tracker only
        let second = Locked<[Int]>([])
        let again = store.observe(Self.count) { second.append($0) }
        store.set(Self.count, to: 1)
        #expect(first.current == [1])
        #expect(second.current == [1])
        again.cancel()
    }

    /// A round that reads the value for its value observers, whose last one leaves while it
    /// reads: the value is not recorded as delivered, so an observer that comes later gets a
    /// change back to it.
    @Test func aValueReadWhileTheLastValueObserverLeavesIsNotRecordedAsDelivered() {
        let directory = TemporaryDirectory()
        let file = FileKeyValueStore(url: directory.file("gated.plist"))
        let gated = CountingStore(base: file)
        let key = CatalogKey(Self.count, name: "count", store: AnyPersistentKeyValueStore(file), storeName: "test")
        _ = key.value  // tracked from now on: the key stays observed
        file.set(Self.count, to: 1)
        let leaving = file.observe(Self.count) { _ in }
        let readStarted = DispatchSemaphore(value: 0), continueRead = DispatchSemaphore(value: 0)
        gated.beforeNextRead {
            readStarted.signal()
            continueRead.wait()
        }
        let roundEnded = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            gated.keyValueChanges.postCurrentValue(forKey: "Count", in: gated)
            roundEnded.signal()
        }
        // The round is reading 1 for `leaving`.
        let reading = readStarted.wait(timeout: .now() + 60)
        leaving.cancel()
        continueRead.signal()
        #expect(reading == .success, "the round reads the value for its value observer")
        #expect(roundEnded.wait(timeout: .now() + 60) == .success)

        file.set(Self.count, to: 2)  // heard by the tracker only
        let seen = Locked<[Int]>([])
        let later = file.observe(Self.count) { seen.append($0) }
        file.set(Self.count, to: 1)
        #expect(seen.current == [1])
        later.cancel()
    }

    /// Among many observed keys every change is delivered, also after some of them lose their
    /// observers; keys nobody observes are not (the center's filter of observed keys, rebuilt
    /// when a key loses its last observer, never hides one that has some).
    @Test func everyObservedKeyAmongManyIsDeliveredAfterOthersLeave() {
        let store = InMemoryKeyValueStore()
        let keys = (0..<400).map { PersistentKey<Int>("key.\($0)" + String(repeating: "x", count: $0 % 9), defaultValue: 0) }
        let seen = Locked<[String]>([])
        let observations = keys.map { key in store.observe(key) { _ in seen.append(key.id) } }
        let unobserved = (0..<400).map { PersistentKey<Int>("other.\($0)", defaultValue: 0) }
        for key in keys + unobserved { store.set(key, to: 1) }
        #expect(seen.current == keys.map(\.id))

        for index in stride(from: 0, to: keys.count, by: 2) { observations[index].cancel() }
        seen.withLock { $0 = [] }
        for key in keys + unobserved { store.set(key, to: 2) }
        #expect(seen.current == keys.indices.filter { $0 % 2 == 1 }.map { keys[$0].id })
        for observation in observations { observation.cancel() }
    }

    /// A key's fingerprint in the filter of observed keys is the same whether its string is small
    /// (up to 15 bytes of UTF-8, held in the `String` value, whose bytes the filter reads there)
    /// or kept in storage: an observer added with one form hears writes made with the other.
    @Test func anObservedKeyIsHeardWhicheverFormItsStringTakes() {
        let store = InMemoryKeyValueStore()
        // Lengths 0, 1, 7, 8, 9, 15 and 16 bytes; "clé.été" is 10 bytes in 7 characters.
        let names = ["", "k", "key.123", "key.1234", "key.12345", "key.1234567890a", "key.1234567890ab", "clé.été"]
        for name in names {
            var stored = String()
            stored.reserveCapacity(64)
            stored.append(name)
            #if (arch(x86_64) || arch(arm64)) && !os(Android)
            // The discriminator's small-string bit, in the top byte of the value's second word.
            #expect(unsafeBitCast(stored, to: (UInt64, UInt64).self).1 >> 56 & 0x20 == 0, "\(name.debugDescription) is in storage")
            #endif
            for (observed, written) in [(name, stored), (stored, name)] {
                let seen = Locked<[Int]>([])
                let observation = store.observe(PersistentKey<Int>(observed, defaultValue: 0)) { seen.append($0) }
                let value = (store.get(PersistentKey<Int>(written, defaultValue: 0))) + 1
                store.set(PersistentKey<Int>(written, defaultValue: 0), to: value)
                #expect(seen.current == [value], "\(name.debugDescription)")
                observation.cancel()
            }
        }
    }

    /// The center finds keys by `String` equality, canonical equivalence: names spelled with other
    /// bytes (a composed and a decomposed accent; KELVIN SIGN and `K`) are one key of the
    /// in-memory store and one key to the center. A write under either spelling is heard by the
    /// observers of both, whichever was observed first, also after one of them leaves (the
    /// center's filter of observed keys reads bytes, and must not drop the other spelling).
    static let namesEqualAsStrings = [
        ("caf\u{E9}.count", "cafe\u{301}.count"), ("cafe\u{301}.count", "caf\u{E9}.count"),
        ("Kelvin.count", "\u{212A}elvin.count"), ("\u{212A}elvin.count", "Kelvin.count"),
    ]

    @Test(arguments: namesEqualAsStrings)
    func namesEqualAsStringsAreOneObservedKey(first: String, second: String) {
        #expect(first == second && Array(first.utf8) != Array(second.utf8))
        let store = InMemoryKeyValueStore()
        let (firstKey, secondKey) = (PersistentKey<Int>(first, defaultValue: 0), PersistentKey<Int>(second, defaultValue: 0))
        let seen = Locked<[String]>([])
        let firstObservation = store.observe(firstKey) { seen.append("first=\($0)") }
        let secondObservation = store.observe(secondKey) { seen.append("second=\($0)") }
        store.set(secondKey, to: 1)
        store.set(firstKey, to: 2)
        #expect(seen.current == ["first=1", "second=1", "first=2", "second=2"])

        firstObservation.cancel()
        seen.withLock { $0 = [] }
        store.set(firstKey, to: 3)
        store.set(secondKey, to: 4)
        #expect(seen.current == ["second=3", "second=4"])
        secondObservation.cancel()
    }

    /// A handler that cancels its own observation while it is delivered, and observes the key
    /// again under another spelling: the key, kept while delivered, is observed under the new
    /// spelling, heard, and leaves cleanly (the filter of observed keys removes the spelling it
    /// noted).
    @Test func aKeyObservedAgainUnderAnotherSpellingWhileDeliveredIsHeardAndLeaves() {
        let store = InMemoryKeyValueStore()
        let (composed, decomposed) = (PersistentKey<Int>("caf\u{E9}.n", defaultValue: 0), PersistentKey<Int>("cafe\u{301}.n", defaultValue: 0))
        let seen = Locked<[String]>([])
        let first = Locked<PersistentKeyObservation?>(nil)
        let second = Locked<PersistentKeyObservation?>(nil)
        first.withLock { observation in
            observation = store.observe(composed) { value in
                seen.append("first=\(value)")
                first.current?.cancel()
                guard second.current == nil else { return }
                let again = store.observe(decomposed) { seen.append("second=\($0)") }
                second.withLock { $0 = again }
            }
        }
        store.set(composed, to: 1)
        store.set(decomposed, to: 2)
        #expect(seen.current == ["first=1", "second=2"])
        second.current?.cancel()
        store.set(composed, to: 3)
        #expect(seen.current == ["first=1", "second=2"])
        let third = store.observe(composed) { seen.append("third=\($0)") }
        store.set(decomposed, to: 4)
        #expect(seen.current == ["first=1", "second=2", "third=4"])
        third.cancel()
    }

    /// The center finds a key declared in code by its string's words (a literal's count and
    /// address). Once that key loses its observers, a new observer of the same name, added with
    /// a string built at run time, hears writes made with the literal: the words lead to no key
    /// that has left.
    @Test func aKeyObservedAgainUnderAnotherFormOfItsNameIsHeard() {
        let store = InMemoryKeyValueStore()
        let literal = "observation.literal.key.longer.than.fifteen"
        let built = String(literal.reversed().reversed())
        let seen = Locked<[Int]>([])
        for round in 1...3 {
            let first = store.observe(PersistentKey<Int>(literal, defaultValue: 0)) { seen.append(-$0) }
            store.set(PersistentKey<Int>(literal, defaultValue: 0), to: round)
            first.cancel()
            let second = store.observe(PersistentKey<Int>(built, defaultValue: 0)) { seen.append($0) }
            store.set(PersistentKey<Int>(literal, defaultValue: 0), to: round * 10)
            second.cancel()
        }
        #expect(seen.current == [-1, 10, -2, 20, -3, 30])
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

/// Once an observation's `cancel()` returned, its handler is not called, also by a delivery that
/// had taken the key's handlers before (found by a review: cancelled by an earlier handler of the
/// same change, or on another thread during a delivery, it was still called once; code that
/// cancels in `deinit` and captures `unowned self` would crash).
@Suite struct ObservationCancelledDuringADeliveryTests {
    static let count = PersistentKey<Int>("Count", defaultValue: 0)

    @Test(arguments: StoreKind.allCases)
    func cancelledByAnEarlierHandlerOfTheSameChange(kind: StoreKind) {
        let fixture = kind.makeFixture(watchingOtherProcesses: false)
        let second = Locked<PersistentKeyObservation?>(nil)
        let secondHeard = Locked<[Int]>([])
        let first = fixture.store.observe(Self.count) { _ in second.current?.cancel() }
        defer { first.cancel() }
        second.withLock { $0 = fixture.store.observe(Self.count) { secondHeard.append($0) } }
        fixture.store.set(Self.count, to: 1)
        #expect(secondHeard.current == [])
    }

    @Test func cancelledOnAnotherThreadDuringADelivery() {
        let store = InMemoryKeyValueStore()
        let (entered, proceed, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        // The first handler holds the delivery, which has taken both handlers, while the second is cancelled.
        let first = store.observe(Self.count) { _ in
            entered.signal()
            proceed.wait()
        }
        defer { first.cancel() }
        let calledAfterCancel = Locked(false)
        let cancelReturned = Locked(false)
        let second = store.observe(Self.count) { _ in if cancelReturned.current { calledAfterCancel.withLock { $0 = true } } }
        Thread.detachNewThread {
            store.set(Self.count, to: 1)
            done.signal()
        }
        entered.wait()
        second.cancel()
        cancelReturned.withLock { $0 = true }
        proceed.signal()
        done.wait()
        #expect(!calledAfterCancel.current)
    }
}
