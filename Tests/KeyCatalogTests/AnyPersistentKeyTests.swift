import Foundation
import KeyCatalog
import Testing

/// An erased key keeps what it erased: `base` is the key itself, of its own type, whatever kind.
@Suite struct AnyPersistentKeyTests {
    struct Point: Codable, Equatable, Sendable {
        var x: Int
    }

    @Test func aPersistentKeyErasedIsItsBase() throws {
        let key = PersistentKey<Point>("Point", defaultValue: Point(x: 1), representation: CodablePersistentKeyValueRepresentation())
        let erased = AnyPersistentKey(key)
        let base = try #require(erased.base as? PersistentKey<Point>)
        #expect(base.id == "Point" && base.defaultValue == Point(x: 1))
        #expect(base.representation is CodablePersistentKeyValueRepresentation<Point, JSONEncoder, JSONDecoder>)

        let store = InMemoryKeyValueStore()
        store.set(base, to: Point(x: 2))
        #expect(store.get(erased) == Point(x: 2))
        #expect(store.persistentValue(forKey: "Point") == (try key.representation.persistentValue(for: Point(x: 2))))
    }

    @Test func anOptionalPersistentKeyErasedIsItsBase() throws {
        let key = PersistentKey<Int?>("Limit", defaultValue: nil)
        let base = try #require(AnyPersistentKey(key).base as? PersistentKey<Int?>)
        #expect(base.id == "Limit" && base.defaultValue == nil)
        #expect(type(of: base.representation) == type(of: key.representation))
        let store = InMemoryKeyValueStore()
        store.set(base, to: 4)
        #expect(store.get(AnyPersistentKey(key)) == 4)
        store.set(base, to: nil)
        #expect(store.get(AnyPersistentKey(key)) == nil && store.persistentValue(forKey: "Limit") == nil)
    }

    @Test func anyOtherKeyErasedIsItsBaseAlsoErasedTwice() throws {
        let key = PersistentDebugKey<Int>("Limit", debugDefaultValue: 1, releaseDefaultValue: 2, configuration: .release)
        for erased in [AnyPersistentKey(key), AnyPersistentKey(AnyPersistentKey(key))] {
            let base = try #require(erased.base as? PersistentDebugKey<Int>)
            #expect(base.releaseDefaultValue == 2 && base.configuration == .release)
            #expect(erased.defaultValue == 2 && !erased.isStoreAccessEnabled)
        }
        let plain = AnyPersistentKey(AnyPersistentKey(PersistentKey<Int>("Count", defaultValue: 3)))
        #expect((plain.base as? PersistentKey<Int>)?.defaultValue == 3)
    }
}
