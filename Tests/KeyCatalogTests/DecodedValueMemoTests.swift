import Foundation
import KeyCatalog
import Testing

/// Codable values are decoded once per stored bytes: reads of unchanged bytes reuse the value,
/// changed bytes are decoded again (never stale), and only where that is safe.
@Suite struct DecodedValueMemoTests {
    /// Counts its decodings (each test uses a type of its own: the memo is process-wide).
    struct Counted<Tag>: Codable, Equatable, Sendable {
        static var counter: DecodeCounter { DecodeCounter.for(Tag.self) }
        var name: String

        init(name: String) { self.name = name }
        init(from decoder: any Swift.Decoder) throws {
            Self.counter.increment()
            name = try decoder.singleValueContainer().decode(String.self)
        }
        func encode(to encoder: any Swift.Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(name)
        }
    }
    enum Unchanged {}
    enum Changed {}
    enum Custom {}
    enum OptionalValue {}

    @Test func unchangedBytesAreDecodedOnceInEveryStore() {
        let counter = Counted<Unchanged>.counter
        for kind in StoreKind.allCases {
            let fixture = kind.makeFixture()
            let key = PersistentKey<Counted<Unchanged>>("Profile", defaultValue: .init(name: ""), representation: CodablePersistentKeyValueRepresentation())
            let before = counter.current
            fixture.store.set(key, to: .init(name: "Ann-\(kind)"))
            for _ in 0..<100 { #expect(fixture.store.get(key).name == "Ann-\(kind)") }
            #expect(counter.current - before == 1, "\(kind): \(counter.current - before) decodings for 100 reads")
        }
    }

    /// An optional `Value` (the memo once answered `nil` for it: a miss cast to `Value?`).
    @Test func optionalValuesReadBackAndAreDecodedOnceInEveryStore() {
        typealias Value = Counted<OptionalValue>?
        let counter = Counted<OptionalValue>.counter
        for kind in StoreKind.allCases {
            let fixture = kind.makeFixture()
            let key = PersistentKey<Value>(
                "Profile", defaultValue: nil, representation: CodablePersistentKeyValueRepresentation<Value, JSONEncoder, JSONDecoder>())
            let before = counter.current
            fixture.store.set(key, to: .init(name: "Bo-\(kind)"))
            for _ in 0..<100 { #expect(fixture.store.get(key)?.name == "Bo-\(kind)") }
            #expect(counter.current - before == 1, "\(kind): \(counter.current - before) decodings for 100 reads")
            fixture.store.set(key, to: nil)
            #expect(fixture.store.get(key) == nil)
        }
    }

    @Test func changedBytesAreDecodedAgain() {
        let store = InMemoryKeyValueStore()
        let key = PersistentKey<Counted<Changed>>("Profile", defaultValue: .init(name: ""), representation: CodablePersistentKeyValueRepresentation())
        for name in ["a", "b", "a", "c"] {
            store.set(key, to: .init(name: name))
            #expect(store.get(key).name == name)
            #expect(store.get(key).name == name)
        }
        #expect(Counted<Changed>.counter.current == 3, "a, b, c decoded once each; a again from the memo")
    }

    @Test func aDecoderPassedInIsNotMemoized() {
        let store = InMemoryKeyValueStore()
        let key = PersistentKey<Counted<Custom>>(
            "Profile", defaultValue: .init(name: ""),
            representation: CodablePersistentKeyValueRepresentation(encoder: JSONEncoder(), decoder: JSONDecoder()))
        store.set(key, to: .init(name: "x"))
        for _ in 0..<3 { _ = store.get(key) }
        #expect(Counted<Custom>.counter.current == 3, "its configuration is the caller's: decoded every time")
    }

    /// Two representations made by `init()`, one of them with its decoder configured: the same
    /// bytes read as two values, each as its decoder reads them, in either order.
    @Test(arguments: [false, true])
    func aDecoderConfiguredThroughTheRepresentationIsNotMemoized(configuredFirst: Bool) throws {
        struct Event: Codable, Equatable, Sendable { var at: Date }
        let plain = CodablePersistentKeyValueRepresentation<Event, JSONEncoder, JSONDecoder>()
        let unix = CodablePersistentKeyValueRepresentation<Event, JSONEncoder, JSONDecoder>()
        unix.decoder.dateDecodingStrategy = .secondsSince1970
        let bytes = PropertyListValue.data(Data(#"{"at":1700000000}"#.utf8))
        typealias Read = (representation: CodablePersistentKeyValueRepresentation<Event, JSONEncoder, JSONDecoder>, expected: Date)
        let plainRead: Read = (plain, Date(timeIntervalSinceReferenceDate: 1_700_000_000))
        let unixRead: Read = (unix, Date(timeIntervalSince1970: 1_700_000_000))
        for _ in 0..<2 {
            for read in configuredFirst ? [unixRead, plainRead] : [plainRead, unixRead] {
                #expect(try read.representation.value(from: bytes).at == read.expected)
            }
        }
    }

    final class Reference: Codable, @unchecked Sendable {
        var name = ""
    }

    @Test func classInstancesAreNotShared() {
        let store = InMemoryKeyValueStore()
        let key = PersistentKey<Reference>("Reference", defaultValue: Reference(), representation: CodablePersistentKeyValueRepresentation())
        let value = Reference()
        value.name = "x"
        store.set(key, to: value)
        let first = store.get(key)
        first.name = "changed by one reader"
        #expect(store.get(key) !== first && store.get(key).name == "x")
    }
}

/// A decode counter per tag type.
final class DecodeCounter: @unchecked Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var counters: [ObjectIdentifier: DecodeCounter] = [:]
    private let lock = NSLock()
    private var value = 0

    static func `for`(_ tag: Any.Type) -> DecodeCounter {
        lock.withLock {
            if let counter = counters[ObjectIdentifier(tag)] { return counter }
            let counter = DecodeCounter()
            counters[ObjectIdentifier(tag)] = counter
            return counter
        }
    }

    var current: Int { lock.withLock { value } }
    func increment() { lock.withLock { value += 1 } }
}
