// The state logic of SwiftUI's @PersistentValue, driven as SwiftUI drives it: a new view struct
// (and a new, discarded box) on every render, `update()` on the box SwiftUI kept.
import Foundation
import KeyCatalog
import Observation
import Testing

@Suite("_PersistentValueBox (the state of @PersistentValue)")
@MainActor
struct PersistentValueBoxTests {
    static func document(_ id: String) -> PersistentKey<String> {
        PersistentKey("\(id)::Title", defaultValue: "Untitled")
    }

    let suite = TemporarySuite()
    let otherSuite = TemporarySuite()
    var store: AnyPersistentKeyValueStore { AnyPersistentKeyValueStore(suite.defaults) }
    var otherStore: AnyPersistentKeyValueStore { AnyPersistentKeyValueStore(otherSuite.defaults) }

    /// A default holding a NaN is not equal to itself: the same key made a new model on every
    /// render (found by a review). Another default is still another key.
    @Test func aKeyWhoseDefaultHoldsANaNKeepsItsModel() {
        let box = _PersistentValueBox<PersistentKey<[Double]>>()
        let first = box.model(for: PersistentKey("Scales", defaultValue: [1, .nan]), explicitStore: nil, environmentStore: store)
        for _ in 0..<5 {
            #expect(box.model(for: PersistentKey("Scales", defaultValue: [1, .nan]), explicitStore: nil, environmentStore: store) === first)
        }
        #expect(box.model(for: PersistentKey("Scales", defaultValue: [2, .nan]), explicitStore: nil, environmentStore: store) !== first)
    }

    @Test func theModelIsCreatedOnceNotOnEveryRender() {
        let counting = CountingStore(base: suite.defaults)
        let environment = AnyPersistentKeyValueStore(counting)
        let kept = _PersistentValueBox<PersistentKey<String>>()
        var models: [ObjectIdentifier] = []
        for _ in 0..<20 {
            // What `@State private var box = _PersistentValueBox()` evaluates on each init of the
            // view struct; SwiftUI drops it and keeps the first.
            _ = _PersistentValueBox<PersistentKey<String>>()
            // Each render rebuilds the key value and the environment's wrapper too.
            let model = kept.model(for: Self.document("a"), explicitStore: nil, environmentStore: AnyPersistentKeyValueStore(environment))
            models.append(ObjectIdentifier(model))
        }
        #expect(Set(models).count == 1, "one model created for 20 renders")
        #expect(counting.reads == 1, "the store is read once, when the model is created")
        #expect(suite.defaults.keyValueChanges.hasObservers(forKey: "a::Title"))
    }

    @Test func aViewRecreatedForAnotherKeyFollowsThatKey() {
        suite.defaults.set(Self.document("a"), to: "Alpha")
        suite.defaults.set(Self.document("b"), to: "Beta")
        let box = _PersistentValueBox<PersistentKey<String>>()
        #expect(box.model(for: Self.document("a"), explicitStore: nil, environmentStore: store).value == "Alpha")

        let second = box.model(for: Self.document("b"), explicitStore: nil, environmentStore: store)
        #expect(second.value == "Beta")
        second.value = "Beta 2"
        #expect(suite.defaults.get(Self.document("b")) == "Beta 2")
        #expect(suite.defaults.get(Self.document("a")) == "Alpha", "the old key is not written")
        #expect(!suite.defaults.keyValueChanges.hasObservers(forKey: "a::Title"), "the old key's model is gone")
        #expect(box.model(for: Self.document("b"), explicitStore: nil, environmentStore: store) === second)
    }

    @Test func aKeyWithTheSameIDButAnotherDefaultIsAnotherKey() {
        let box = _PersistentValueBox<PersistentKey<Int>>()
        let first = box.model(for: PersistentKey("Zoom", defaultValue: 100), explicitStore: nil, environmentStore: store)
        let second = box.model(for: PersistentKey("Zoom", defaultValue: 150), explicitStore: nil, environmentStore: store)
        #expect(first !== second)
        #expect(second.value == 150)
        #expect(box.model(for: PersistentKey("Zoom", defaultValue: 150), explicitStore: nil, environmentStore: store) === second)
    }

    @Test func aDebugKeyInAnotherConfigurationIsAnotherKey() {
        let box = _PersistentValueBox<PersistentDebugKey<Bool>>()
        let debug = PersistentDebugKey<Bool>("Flag", debugDefaultValue: true, releaseDefaultValue: false, configuration: .debug)
        let release = PersistentDebugKey<Bool>("Flag", debugDefaultValue: true, releaseDefaultValue: false, configuration: .release)
        let first = box.model(for: debug, explicitStore: nil, environmentStore: store)
        #expect(first.value == true)
        let second = box.model(for: release, explicitStore: nil, environmentStore: store)
        #expect(first !== second)
        #expect(second.value == false)
    }

    @Test func anotherEnvironmentStoreSwitchesTheModel() async throws {
        let key = Self.document("a")
        suite.defaults.set(key, to: "in the first suite")
        otherSuite.defaults.set(key, to: "in the second suite")
        let box = _PersistentValueBox<PersistentKey<String>>()
        let model = box.model(for: key, explicitStore: nil, environmentStore: store)
        #expect(model.value == "in the first suite")

        let changed = Flag()
        withObservationTracking {
            _ = model.value
        } onChange: {
            changed.set()
        }
        #expect(box.model(for: key, explicitStore: nil, environmentStore: otherStore) === model, "same model, another store")
        #expect(model.value == "in the second suite")
        #expect(changed.isSet, "the view re-renders")
        // The model re-reads its current store on any change it hears: only the observations tell
        // which store it follows.
        #expect(!suite.defaults.keyValueChanges.hasObservers(forKey: key.id), "the first suite is no longer followed")
        #expect(otherSuite.defaults.keyValueChanges.hasObservers(forKey: key.id))

        model.value = "written"
        #expect(otherSuite.defaults.get(key) == "written")
        #expect(suite.defaults.get(key) == "in the first suite")
        suite.defaults.set(key, to: "ignored now")
        otherSuite.defaults.set(key, to: "followed")
        let followed = try await eventuallyAsleep { model.value == "followed" }
        #expect(followed)
        #expect(model.value == "followed")
    }

    @Test func anExplicitStoreWinsAndSwitchesByIdentity() {
        let key = Self.document("a")
        suite.defaults.set(key, to: "explicit")
        otherSuite.defaults.set(key, to: "environment")
        let scratch = InMemoryKeyValueStore()
        scratch.set(key, to: "scratch")
        let box = _PersistentValueBox<PersistentKey<String>>()
        let model = box.model(for: key, explicitStore: store, environmentStore: otherStore)
        #expect(model.value == "explicit")
        // The environment changes; the explicit store still wins.
        #expect(box.model(for: key, explicitStore: store, environmentStore: .memory()).value == "explicit")
        // A new wrapper around the same suite is the same store.
        #expect(box.model(for: key, explicitStore: AnyPersistentKeyValueStore(suite.defaults), environmentStore: otherStore).value == "explicit")
        // Another explicit store is followed.
        let switched = box.model(for: key, explicitStore: AnyPersistentKeyValueStore(scratch), environmentStore: otherStore)
        #expect(switched === model)
        #expect(switched.value == "scratch")
        // No explicit store any more: the environment's.
        #expect(box.model(for: key, explicitStore: nil, environmentStore: otherStore).value == "environment")
    }
}

/// A store that counts its reads, around a real one; a test can run code at the start of its
/// next read (to hold it there).
final class CountingStore: PersistentKeyValueStore, @unchecked Sendable {
    let base: any PersistentKeyValueStore
    private let count = Locked(0)
    private let nextReadAction = Locked<(@Sendable () -> Void)?>(nil)

    init(base: any PersistentKeyValueStore) {
        self.base = base
    }

    var reads: Int { count.current }

    /// Runs `action` at the start of the next read only.
    func beforeNextRead(_ action: @escaping @Sendable () -> Void) {
        nextReadAction.withLock { $0 = action }
    }

    func persistentValue(forKey key: String) -> PropertyListValue? {
        count.withLock { $0 += 1 }
        let action = nextReadAction.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
        return base.persistentValue(forKey: key)
    }

    func hasPersistentValue(forKey key: String) -> Bool { base.hasPersistentValue(forKey: key) }
    func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws { try base.setPersistentValue(value, forKey: key) }
    func removePersistentValue(forKey key: String) throws { try base.removePersistentValue(forKey: key) }
    func registerPersistentValues(_ values: [String: PropertyListValue]) { base.registerPersistentValues(values) }
    var keyValueChanges: KeyValueChangeCenter { base.keyValueChanges }
    var persistentStoreDescription: String { "counting \(base.persistentStoreDescription)" }
}

/// A flag set from any thread.
final class Flag: Sendable {
    private let value = Locked(false)
    var isSet: Bool { value.current }
    func set() { value.withLock { $0 = true } }
}
