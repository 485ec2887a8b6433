import Foundation
import KeyCatalog
import Testing

/// The file store keeps the value a collection decoded to beside what it holds, as the in-memory
/// store does: reads of an unchanged value reuse it, and any change replaces it, whoever made it
/// (this process, another one, another program replacing the file).
@Suite struct FileStoreDecodedValueTests {
    typealias Tally = InMemoryDecodedValueTests.Tally

    enum Arrays {}
    enum Dictionaries {}
    enum Optionals {}
    enum SharedFile {}
    enum Writes {}
    enum OtherProcess {}
    enum ReplacedList {}
    enum Compacted {}

    @Test func unchangedCollectionsAreDecodedOnce() {
        let directory = TemporaryDirectory()
        let store = FileKeyValueStore(url: directory.file("settings.plist"))
        let array = PersistentKey<[Tally<Arrays>]>("Array", defaultValue: [])
        let dictionary = PersistentKey<[String: Tally<Dictionaries>]>("Dictionary", defaultValue: [:])
        let optional = PersistentKey<[Tally<Optionals>]?>("Optional", defaultValue: nil)
        store.set(array, to: [.init(name: "a"), .init(name: "b")])
        store.set(dictionary, to: ["x": .init(name: "a")])
        store.set(optional, to: [.init(name: "c")])
        for _ in 0..<100 {
            #expect(store.get(array) == [.init(name: "a"), .init(name: "b")])
            #expect(store.get(dictionary) == ["x": .init(name: "a")])
            #expect(store.get(optional) == [.init(name: "c")])
        }
        #expect(DecodeCounter.for(Arrays.self).current == 2, "two elements, decoded once")
        #expect(DecodeCounter.for(Dictionaries.self).current == 1)
        #expect(DecodeCounter.for(Optionals.self).current == 1)
    }

    /// Stores opened on one file share its contents, and so the decoded values; a catalog's
    /// `AnyPersistentKeyValueStore` reads them too.
    @Test func storesOnOneFileShareDecodedValues() {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let key = PersistentKey<[Tally<SharedFile>]>("Array", defaultValue: [])
        FileKeyValueStore(url: url).set(key, to: [.init(name: "a")])
        #expect(FileKeyValueStore(url: url).get(key) == [.init(name: "a")])
        #expect(AnyPersistentKeyValueStore(FileKeyValueStore(url: url)).get(key) == [.init(name: "a")])
        #expect(DecodeCounter.for(SharedFile.self).current == 1)
    }

    @Test func aWriteIsReadAtOnceAndDecodedAgain() throws {
        let directory = TemporaryDirectory()
        let store = FileKeyValueStore(url: directory.file("settings.plist"))
        let key = PersistentKey<[Tally<Writes>]>("Array", defaultValue: [])
        for name in ["a", "b", "a", "c"] {
            store.set(key, to: [.init(name: name)])
            #expect(store.get(key) == [.init(name: name)])
            #expect(store.get(key) == [.init(name: name)])
            // Written around the typed API too.
            try store.setPersistentValue(.array([.string(name + "!")]), forKey: "Array")
            #expect(store.get(key) == [.init(name: name + "!")])
        }
        #expect(DecodeCounter.for(Writes.self).current == 8, "every write decoded once, never a stale value")
        store.remove(key)
        #expect(store.get(key) == [])
    }

    /// Another process's write is a record the store reads from the journal: it replaces the
    /// decoded value as a write of this process does.
    @Test func anotherProcesssWriteIsDecodedAgain() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        let key = PersistentKey<[Tally<OtherProcess>]>("Array", defaultValue: [])
        store.set(key, to: [.init(name: "mine")])
        #expect(store.get(key) == [.init(name: "mine")])
        for names in [["theirs"], ["theirs", "again"]] {
            #expect(try TestHelperExecutable.run(["file", url.path, "set-strings", "Array"] + names).status == 0)
            #expect(store.get(key) == names.map { .init(name: $0) })
            #expect(store.get(key) == names.map { .init(name: $0) })
        }
        #expect(DecodeCounter.for(OtherProcess.self).current == 4, "each value decoded once")
    }

    /// Another program that replaces the list makes the store read it again: every decoded value
    /// goes with the old list.
    @Test func aListReplacedByAnotherProgramIsDecodedAgain() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        let key = PersistentKey<[Tally<ReplacedList>]>("Array", defaultValue: [])
        store.set(key, to: [.init(name: "old")])
        try store.compact()
        #expect(store.get(key) == [.init(name: "old")])
        let temporary = directory.file("other-program.tmp")
        try PropertyListSerialization.data(fromPropertyList: ["Array": ["new"]], format: .binary, options: 0).write(to: temporary)
        #expect(rename(temporary.path, url.path) == 0)
        #expect(store.get(key) == [.init(name: "new")])
        #expect(store.get(key) == [.init(name: "new")])
        #expect(DecodeCounter.for(ReplacedList.self).current == 2)
    }

    /// A compaction rewrites the list with the values the store holds: they are read again once,
    /// and hold what they held.
    @Test func aCompactedValueReadsTheSame() throws {
        let directory = TemporaryDirectory()
        let store = FileKeyValueStore(url: directory.file("settings.plist"))
        let key = PersistentKey<[Tally<Compacted>]>("Array", defaultValue: [])
        store.set(key, to: [.init(name: "a"), .init(name: "b")])
        #expect(store.get(key) == [.init(name: "a"), .init(name: "b")])
        try store.compact()
        for _ in 0..<3 { #expect(store.get(key) == [.init(name: "a"), .init(name: "b")]) }
        #expect(DecodeCounter.for(Compacted.self).current <= 4, "decoded at most once more after the compaction, not on every read")
    }

    /// An element whose decoding first runs what a test set up for the name it decodes.
    struct Interloping: KeyValuePersistible, Equatable, Sendable {
        var name: String

        /// Run once, by the next decoding of the name.
        static let duringDecoding = Locked<[String: @Sendable () -> Void]>([:])

        static var persistentKeyValueRepresentation: ProxyPersistentKeyValueRepresentation<Self, String> {
            ProxyPersistentKeyValueRepresentation(
                to: \.name,
                from: { name in
                    duringDecoding.withLock { $0.removeValue(forKey: name) }?()
                    return Self(name: name)
                })
        }
    }

    /// A write that lands while a read decodes the value before it: that read returns the value it
    /// decoded, which is not kept for the new one (both stores that keep decoded values).
    @Test(arguments: ["in-memory", "file"])
    func aWriteDuringADecodingIsReadNext(storeKind: String) {
        let directory = TemporaryDirectory()
        let store =
            storeKind == "file"
            ? AnyPersistentKeyValueStore(FileKeyValueStore(url: directory.file("settings.plist"))) : AnyPersistentKeyValueStore(InMemoryKeyValueStore())
        let key = PersistentKey<[Interloping]>("Array", defaultValue: [])
        let (old, new) = ("old-\(storeKind)", "new-\(storeKind)")
        store.set(key, to: [.init(name: old)])
        Interloping.duringDecoding.withLock { $0[old] = { store.set(key, to: [.init(name: new)]) } }
        #expect(store.get(key) == [.init(name: old)])
        #expect(store.get(key) == [.init(name: new)])
        #expect(store.get(key) == [.init(name: new)])
    }

    @Test func anUnreadableValueIsReportedOnEveryRead() throws {
        let directory = TemporaryDirectory()
        let store = FileKeyValueStore(url: directory.file("settings.plist"))
        let key = PersistentKey<[Int]>("Numbers", defaultValue: [7])
        try store.setPersistentValue(.array([.string("not a number")]), forKey: "Numbers")
        let recorder = FailureRecorder()
        recorder.record {
            for _ in 0..<3 { #expect(store.get(key) == [7]) }
        }
        #expect(recorder.failures.count == 3, "\(recorder.failures)")
        #expect(recorder.failures.allSatisfy { $0.operation == .read })
    }

    @Test func registeredDefaultsAreRead() {
        let directory = TemporaryDirectory()
        let store = FileKeyValueStore(url: directory.file("settings.plist"))
        let key = PersistentKey<[String]>("Registered", defaultValue: [])
        store.registerPersistentValues(["Registered": .array([.string("r")])])
        #expect(store.get(key) == ["r"])
        store.set(key, to: ["s"])
        #expect(store.get(key) == ["s"])
        store.remove(key)
        #expect(store.get(key) == ["r"])
    }

    @Test func classElementsAreNotShared() {
        let directory = TemporaryDirectory()
        let store = FileKeyValueStore(url: directory.file("settings.plist"))
        let key = PersistentKey<[InMemoryDecodedValueTests.Shared]>("Objects", defaultValue: [])
        store.set(key, to: [.init(name: "a")])
        let first = store.get(key), second = store.get(key)
        #expect(first[0] !== second[0])
        first[0].name = "changed"
        #expect(store.get(key)[0].name == "a")
    }

    /// Readers racing a writer see whole values only, each one that was written, and the last one
    /// once the writer is done.
    @Test func readersRacingAWriterSeeWrittenValuesOnly() {
        let directory = TemporaryDirectory()
        let store = FileKeyValueStore(url: directory.file("settings.plist"))
        let key = PersistentKey<[Int]>("Numbers", defaultValue: [0, 0])
        let writes = 500
        let torn = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            if worker == 0 {
                for value in 1...writes { store.set(key, to: [value, value]) }
            } else {
                for _ in 0..<writes * 4 {
                    let read = store.get(key)
                    if read.count != 2 || read[0] != read[1] { torn.withLock { $0 += 1 } }
                }
            }
        }
        #expect(torn.withLock { $0 } == 0)
        #expect(store.get(key) == [writes, writes])
    }
}
