import Foundation
import Testing

@testable import KeyCatalog

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

    /// A value type holding a class instance: kept, every reader would share the instance.
    struct Holder: Codable, Sendable, KeyValuePersistible {
        var reference = Reference()
        var tags: [String] = []
        static var persistentKeyValueRepresentation: CodablePersistentKeyValueRepresentation<Self, JSONEncoder, JSONDecoder> { .init() }
    }

    /// A class whose mirror is its own: reflecting it says nothing of a class.
    final class Mirrored: Codable, CustomReflectable, @unchecked Sendable {
        var name = ""
        var customMirror: Mirror { Mirror(self, children: ["name": name]) }
    }

    struct MirroredHolder: Codable, Sendable {
        var box = Mirrored()
    }

    enum Carrier: Codable, Sendable {
        case none
        case some([Int: Reference?])
    }

    @Test func classInstancesInsideValuesAreNotSharedInAnyStore() {
        for kind in StoreKind.allCases {
            let fixture = kind.makeFixture()
            let holder = PersistentKey<Holder>("Holder", defaultValue: Holder())
            let holders = PersistentKey<[Holder]>("Holders", defaultValue: [])
            let carrier = PersistentKey<Carrier>("Carrier", defaultValue: .none, representation: CodablePersistentKeyValueRepresentation())
            let value = Holder()
            value.reference.name = "x"
            fixture.store.set(holder, to: value)
            fixture.store.set(holders, to: [value])
            let one = Reference()
            one.name = "x"
            fixture.store.set(carrier, to: .some([1: one]))

            for _ in 0..<2 {
                fixture.store.get(holder).reference.name = "changed by one reader"
                fixture.store.get(holders)[0].reference.name = "changed by one reader"
                if case .some(let members) = fixture.store.get(carrier) { members[1]??.name = "changed by one reader" }
            }
            #expect(fixture.store.get(holder).reference.name == "x", "\(kind)")
            #expect(fixture.store.get(holders).map(\.reference.name) == ["x"], "\(kind)")
            guard case .some(let members) = fixture.store.get(carrier) else {
                Issue.record("\(kind): the carrier did not read back")
                continue
            }
            #expect(members[1]??.name == "x", "\(kind)")
        }
    }

    /// Values that hold no class instance are still kept, whatever Foundation types use inside.
    @Test func foundationValuesAreKept() {
        struct Visit: Codable, Sendable {
            var site = URL(string: "https://example.com/a")!
            var at = Date(timeIntervalSinceReferenceDate: 1)
            var id = UUID()
            var payload = Data([1, 2, 3])
            var counts: [String: Int?] = ["a": 1, "b": nil]
            var locale = Locale(identifier: "fr_FR")
            var zone = TimeZone(identifier: "Europe/Paris")!
        }
        let memo = DecodedValueMemo(capacity: 4, maximumBytes: 1024)
        memo.keep(Visit(), decodedFrom: Data("visit".utf8))
        #expect(memo.count == 1)
        memo.keep(Holder(), decodedFrom: Data("holder".utf8))
        #expect(memo.count == 1, "a value holding a class instance is not kept")
        memo.keep(MirroredHolder(), decodedFrom: Data("mirrored".utf8))
        #expect(memo.count == 1, "nor one holding a class with a custom mirror")
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
