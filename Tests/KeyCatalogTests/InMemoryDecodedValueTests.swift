import Foundation
import KeyCatalog
import Testing

/// The in-memory store keeps the value a collection decoded to beside what it stores: reads of an
/// unchanged value reuse it, a write replaces it, and only representations that decode by their
/// type alone share one.
@Suite struct InMemoryDecodedValueTests {
    /// An element that counts its decodings (each test has a tag of its own).
    struct Tally<Tag>: KeyValuePersistible, Equatable, Sendable {
        var name: String

        static var persistentKeyValueRepresentation: ProxyPersistentKeyValueRepresentation<Self, String> {
            ProxyPersistentKeyValueRepresentation(
                to: \.name,
                from: { name in
                    DecodeCounter.for(Tag.self).increment()
                    return Self(name: name)
                })
        }
    }

    enum Arrays {}
    enum Dictionaries {}
    enum Optionals {}
    enum Writes {}
    enum ThroughCatalog {}

    @Test func unchangedCollectionsAreDecodedOnce() {
        let store = InMemoryKeyValueStore()
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

    /// Catalogs hold their stores as `AnyPersistentKeyValueStore`, which reads and writes the
    /// in-memory store's decoded values as a key on the store itself does.
    @Test func aCatalogsStoreDecodesOnceToo() {
        let memory = InMemoryKeyValueStore()
        let store = AnyPersistentKeyValueStore(memory)
        let key = PersistentKey<[Tally<ThroughCatalog>]>("Array", defaultValue: [])
        memory.setPersistentValue(.array([.string("a"), .string("b")]), forKey: "Array")
        for _ in 0..<100 { #expect(store.get(key) == [.init(name: "a"), .init(name: "b")]) }
        #expect(DecodeCounter.for(ThroughCatalog.self).current == 2, "two elements, decoded once")
        store.set(PersistentKey<[String]>("Strings", defaultValue: []), to: ["x"])
        #expect(memory.get(PersistentKey<[String]>("Strings", defaultValue: [])) == ["x"])
        #expect(memory.persistentValue(forKey: "Strings") == .array([.string("x")]))
    }

    @Test func aWriteIsReadAtOnceAndDecodedAgain() {
        let store = InMemoryKeyValueStore()
        let key = PersistentKey<[Tally<Writes>]>("Array", defaultValue: [])
        for name in ["a", "b", "a", "c"] {
            store.set(key, to: [.init(name: name)])
            #expect(store.get(key) == [.init(name: name)])
            #expect(store.get(key) == [.init(name: name)])
            // Written around the typed API too.
            store.setPersistentValue(.array([.string(name + "!")]), forKey: "Array")
            #expect(store.get(key) == [.init(name: name + "!")])
        }
        #expect(DecodeCounter.for(Writes.self).current == 8, "every write decoded once, never a stale value")
        store.remove(key)
        #expect(store.get(key) == [])
    }

    @Test func keysWithOtherRepresentationsOfTheSameValueDecodeTheirOwnWay() {
        let store = InMemoryKeyValueStore()
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

    @Test func anUnreadableValueIsReportedOnEveryRead() {
        let store = InMemoryKeyValueStore()
        let key = PersistentKey<[Int]>("Numbers", defaultValue: [7])
        store.setPersistentValue(.array([.string("not a number")]), forKey: "Numbers")
        let recorder = FailureRecorder()
        recorder.record {
            for _ in 0..<3 { #expect(store.get(key) == [7]) }
        }
        #expect(recorder.failures.count == 3, "\(recorder.failures)")
        #expect(recorder.failures.allSatisfy { $0.operation == .read })
    }

    @Test func registeredDefaultsAreRead() {
        let store = InMemoryKeyValueStore()
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

    @Test func classElementsAreNotShared() {
        let store = InMemoryKeyValueStore()
        let key = PersistentKey<[Shared]>("Objects", defaultValue: [])
        store.set(key, to: [Shared(name: "a")])
        let first = store.get(key), second = store.get(key)
        #expect(first[0] !== second[0])
        first[0].name = "changed"
        #expect(store.get(key)[0].name == "a")
    }

    /// Readers racing a writer see whole values only, each one that was written, and the last one
    /// once the writer is done.
    @Test func readersRacingAWriterSeeWrittenValuesOnly() {
        let store = InMemoryKeyValueStore()
        let key = PersistentKey<[Int]>("Numbers", defaultValue: [0, 0])
        let writes = 5_000
        let torn = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            if worker == 0 {
                for value in 1...writes { store.set(key, to: [value, value]) }
            } else {
                for _ in 0..<writes {
                    let read = store.get(key)
                    if read.count != 2 || read[0] != read[1] { torn.withLock { $0 += 1 } }
                }
            }
        }
        #expect(torn.withLock { $0 } == 0)
        #expect(store.get(key) == [writes, writes])
    }
}
