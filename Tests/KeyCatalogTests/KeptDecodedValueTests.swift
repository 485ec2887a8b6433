import Foundation
import KeyCatalog
import Testing

/// The stores that keep the value a collection decoded to beside what they hold (in memory, a
/// file): reads of an unchanged value reuse it, a write replaces it, and only representations that
/// decode by their type alone share one. Every test runs on both; the file store's own ways of
/// changing (other processes, other programs) are in `FileStoreDecodedValueTests`.
@Suite struct KeptDecodedValueTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case inMemory = "in-memory"
        case file

        var testDescription: String { rawValue }

        /// A store of this kind, with a folder of its own for a file.
        func make(in directory: TemporaryDirectory) -> any PersistentKeyValueStore & Sendable {
            switch self {
            case .inMemory: InMemoryKeyValueStore()
            case .file: FileKeyValueStore(url: directory.file("settings.plist"))
            }
        }
    }

    /// An element that counts its decodings by name: each test names its elements after itself
    /// and the store, so tests running at once count apart.
    struct Counted: KeyValuePersistible, Equatable, Sendable {
        var name: String

        private static let decodings = Locked<[String: Int]>([:])

        /// How many times an element named `name` was decoded.
        static func decodings(of name: String) -> Int { decodings.withLock { $0[name, default: 0] } }

        static var persistentKeyValueRepresentation: ProxyPersistentKeyValueRepresentation<Self, String> {
            ProxyPersistentKeyValueRepresentation(
                to: \.name,
                from: { name in
                    decodings.withLock { $0[name, default: 0] += 1 }
                    return Self(name: name)
                })
        }
    }

    @Test(arguments: Store.allCases)
    func unchangedCollectionsAreDecodedOnce(_ kind: Store) {
        let directory = TemporaryDirectory()
        let store = kind.make(in: directory)
        let (a, b, c) = ("once-a-\(kind)", "once-b-\(kind)", "once-c-\(kind)")
        let array = PersistentKey<[Counted]>("Array", defaultValue: [])
        let dictionary = PersistentKey<[String: Counted]>("Dictionary", defaultValue: [:])
        let optional = PersistentKey<[Counted]?>("Optional", defaultValue: nil)
        store.set(array, to: [.init(name: a), .init(name: b)])
        store.set(dictionary, to: ["x": .init(name: c)])
        store.set(optional, to: [.init(name: c)])
        for _ in 0..<100 {
            #expect(store.get(array) == [.init(name: a), .init(name: b)])
            #expect(store.get(dictionary) == ["x": .init(name: c)])
            #expect(store.get(optional) == [.init(name: c)])
        }
        #expect(Counted.decodings(of: a) == 1)
        #expect(Counted.decodings(of: b) == 1)
        #expect(Counted.decodings(of: c) == 2, "once in the dictionary, once in the optional array")
    }

    /// Catalogs hold their stores as `AnyPersistentKeyValueStore`, which reads and writes the
    /// store's decoded values as a key on the store itself does.
    @Test(arguments: Store.allCases)
    func aCatalogsStoreDecodesOnceToo(_ kind: Store) throws {
        let directory = TemporaryDirectory()
        let base = kind.make(in: directory)
        let store = AnyPersistentKeyValueStore(base)
        let name = "catalog-\(kind)"
        let key = PersistentKey<[Counted]>("Array", defaultValue: [])
        try base.setPersistentValue(.array([.string(name)]), forKey: "Array")
        for _ in 0..<100 { #expect(store.get(key) == [.init(name: name)]) }
        #expect(Counted.decodings(of: name) == 1)
        store.set(PersistentKey<[String]>("Strings", defaultValue: []), to: ["x"])
        #expect(base.get(PersistentKey<[String]>("Strings", defaultValue: [])) == ["x"])
        #expect(base.persistentValue(forKey: "Strings") == .array([.string("x")]))
    }

    @Test(arguments: Store.allCases)
    func aWriteIsReadAtOnceAndDecodedAgain(_ kind: Store) throws {
        let directory = TemporaryDirectory()
        let store = kind.make(in: directory)
        let key = PersistentKey<[Counted]>("Array", defaultValue: [])
        for round in 0..<4 {
            let (typed, raw) = ("write-\(kind)-\(round)", "write-\(kind)-\(round)!")
            store.set(key, to: [.init(name: typed)])
            #expect(store.get(key) == [.init(name: typed)])
            #expect(store.get(key) == [.init(name: typed)])
            // Written around the typed API too.
            try store.setPersistentValue(.array([.string(raw)]), forKey: "Array")
            #expect(store.get(key) == [.init(name: raw)])
            #expect(store.get(key) == [.init(name: raw)])
            #expect(Counted.decodings(of: raw) == 1, "every write decoded once, never a stale value")
        }
        store.remove(key)
        #expect(store.get(key) == [])
    }

    @Test(arguments: Store.allCases)
    func keysWithOtherRepresentationsOfTheSameValueDecodeTheirOwnWay(_ kind: Store) {
        let directory = TemporaryDirectory()
        let store = kind.make(in: directory)
        let plain = PersistentKey<[Int]>("Numbers", defaultValue: [])
        let doubled = PersistentKey<[Int]>(
            "Numbers", defaultValue: [],
            representation: ProxyPersistentKeyValueRepresentation<[Int], [Int]>(to: { $0.map { $0 / 2 } }, from: { $0.map { $0 * 2 } }))
        store.set(plain, to: [1, 2])
        for _ in 0..<3 {
            #expect(store.get(plain) == [1, 2])
            #expect(store.get(doubled) == [2, 4])
        }
    }

    /// An element stored through a decoder passed in, which the app configures (here, later):
    /// what the Codable memo itself refuses to memoize (`CodablePersistentKeyValueRepresentation.decoder`),
    /// since the bytes alone do not say how it decodes.
    struct Reading: Codable, KeyValuePersistible, Equatable, Sendable {
        var at: Date

        static let decoder = JSONDecoder()

        static var persistentKeyValueRepresentation: CodablePersistentKeyValueRepresentation<Self, JSONEncoder, JSONDecoder> {
            CodablePersistentKeyValueRepresentation(encoder: JSONEncoder(), decoder: decoder)
        }
    }

    /// A collection is decoded as its elements' representation decodes now: a decoded value kept
    /// from before the element's decoder changed is not what the stored value decodes to (found
    /// by a review: the array kept the dates of the old strategy, while a key of one element, on
    /// the same bytes, read the new ones). Both stores in one test, one after the other: the
    /// decoder is shared.
    @Test func aCollectionIsDecodedAsItsElementsDecodeNow() {
        let bytes = Data(#"{"at":100}"#.utf8)
        Reading.decoder.dateDecodingStrategy = .deferredToDate
        defer { Reading.decoder.dateDecodingStrategy = .deferredToDate }
        for kind in Store.allCases {
            Reading.decoder.dateDecodingStrategy = .deferredToDate
            let directory = TemporaryDirectory()
            let store = kind.make(in: directory)
            let list = PersistentKey<[Reading]>("Readings", defaultValue: [])
            let single = PersistentKey<Reading>("Reading", defaultValue: Reading(at: .distantPast))
            store.set(PersistentKey<[Data]>("Readings", defaultValue: []), to: [bytes])
            store.set(PersistentKey<Data>("Reading", defaultValue: Data()), to: bytes)
            #expect(store.get(list) == [Reading(at: Date(timeIntervalSinceReferenceDate: 100))], "\(kind)")
            #expect(store.get(single) == Reading(at: Date(timeIntervalSinceReferenceDate: 100)), "\(kind)")
            Reading.decoder.dateDecodingStrategy = .secondsSince1970
            #expect(store.get(single) == Reading(at: Date(timeIntervalSince1970: 100)), "\(kind)")
            #expect(store.get(list) == [Reading(at: Date(timeIntervalSince1970: 100))], "\(kind): the value decoded before the change")
        }
    }

    /// Runs what a test set up for a name, once, when an element of that name is next decoded.
    struct Interloping: KeyValuePersistible, Equatable, Sendable {
        var name: String

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
    /// decoded, which is not kept for the new one.
    @Test(arguments: Store.allCases)
    func aWriteDuringADecodingIsReadNext(_ kind: Store) {
        let directory = TemporaryDirectory()
        let store = kind.make(in: directory)
        let key = PersistentKey<[Interloping]>("Array", defaultValue: [])
        let (old, new) = ("old-\(kind)", "new-\(kind)")
        store.set(key, to: [.init(name: old)])
        Interloping.duringDecoding.withLock { $0[old] = { store.set(key, to: [.init(name: new)]) } }
        #expect(store.get(key) == [.init(name: old)])
        #expect(store.get(key) == [.init(name: new)])
        #expect(store.get(key) == [.init(name: new)])
    }

    @Test(arguments: Store.allCases)
    func anUnreadableValueIsReportedOnEveryRead(_ kind: Store) throws {
        let directory = TemporaryDirectory()
        let store = kind.make(in: directory)
        let key = PersistentKey<[Int]>("Numbers", defaultValue: [7])
        try store.setPersistentValue(.array([.string("not a number")]), forKey: "Numbers")
        let recorder = FailureRecorder()
        recorder.record {
            for _ in 0..<3 { #expect(store.get(key) == [7]) }
        }
        #expect(recorder.failures.count == 3, "\(recorder.failures)")
        #expect(recorder.failures.allSatisfy { $0.operation == .read })
    }

    @Test(arguments: Store.allCases)
    func registeredDefaultsAreRead(_ kind: Store) {
        let directory = TemporaryDirectory()
        let store = kind.make(in: directory)
        let key = PersistentKey<[String]>("Registered", defaultValue: [])
        store.registerPersistentValues(["Registered": .array([.string("r")])])
        #expect(store.get(key) == ["r"])
        store.set(key, to: ["s"])
        #expect(store.get(key) == ["s"])
        store.remove(key)
        #expect(store.get(key) == ["r"])
    }

    /// Elements that are class instances are decoded on every read: one reader's object is never
    /// another's.
    final class Shared: KeyValuePersistible, @unchecked Sendable {
        var name: String
        init(name: String) { self.name = name }

        static var persistentKeyValueRepresentation: ProxyPersistentKeyValueRepresentation<Shared, String> {
            ProxyPersistentKeyValueRepresentation(to: { $0.name }, from: { Shared(name: $0) })
        }
    }

    @Test(arguments: Store.allCases)
    func classElementsAreNotShared(_ kind: Store) {
        let directory = TemporaryDirectory()
        let store = kind.make(in: directory)
        let key = PersistentKey<[Shared]>("Objects", defaultValue: [])
        store.set(key, to: [Shared(name: "a")])
        let first = store.get(key), second = store.get(key)
        #expect(first[0] !== second[0])
        first[0].name = "changed"
        #expect(store.get(key)[0].name == "a")
    }

    /// Readers racing a writer see whole values only, and the last one once the writer is done.
    @Test(arguments: Store.allCases)
    func readersRacingAWriterSeeWrittenValuesOnly(_ kind: Store) {
        let directory = TemporaryDirectory()
        let store = kind.make(in: directory)
        let key = PersistentKey<[Int]>("Numbers", defaultValue: [0, 0])
        // A file store write costs about 6 µs: fewer writes, as many reads as in memory.
        let writes = kind == .file ? 500 : 5_000
        let torn = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            if worker == 0 {
                for value in 1...writes { store.set(key, to: [value, value]) }
            } else {
                for _ in 0..<5_000 {
                    let read = store.get(key)
                    if read.count != 2 || read[0] != read[1] { torn.withLock { $0 += 1 } }
                }
            }
        }
        #expect(torn.withLock { $0 } == 0)
        #expect(store.get(key) == [writes, writes])
    }
}
