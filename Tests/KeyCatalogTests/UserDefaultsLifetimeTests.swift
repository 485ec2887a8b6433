import Foundation
import Observation
import Testing

@testable import KeyCatalog

/// KeyCatalog keeps no instance of UserDefaults it did not open: one made with
/// `UserDefaults(suiteName:)` (or `UserDefaults()`) and written, read or observed through
/// KeyCatalog is released once the app drops it and the writes made through it are synchronized,
/// as Foundation alone releases it; its change center goes soon after. (`standard` and the suites
/// opened with `UserDefaultsPersistence.suite(named:)` are kept for the life of the process.)
@Suite("UserDefaults: an instance KeyCatalog did not open lasts while the app holds it")
struct UserDefaultsLifetimeTests {
    static let count = PersistentKey<Int>("Count", defaultValue: 0)

    let suite = TemporarySuite()

    /// A reference that does not keep its object.
    final class Weak<Object: AnyObject>: @unchecked Sendable {
        weak var object: Object?

        init(_ object: Object) {
            self.object = object
        }
    }

    /// What the app does with an instance through KeyCatalog before it drops it.
    enum Use: String, CaseIterable, CustomTestStringConvertible {
        case set, remove, flush, observeAndCancel, keyValueChanges, trackedCatalogRead

        var testDescription: String { rawValue }

        func apply(to defaults: UserDefaults) throws {
            switch self {
            case .set:
                defaults.set(UserDefaultsLifetimeTests.count, to: 2)
                #expect(defaults.get(UserDefaultsLifetimeTests.count) == 2)
            case .remove:
                defaults.remove(UserDefaultsLifetimeTests.count)
            case .flush:
                defaults.set(UserDefaultsLifetimeTests.count, to: 3)
                try defaults.flushPersistentValues()
            case .observeAndCancel:
                let heard = Locked<[Int]>([])
                let observation = defaults.observe(UserDefaultsLifetimeTests.count) { heard.append($0) }
                defaults.set(UserDefaultsLifetimeTests.count, to: 4)
                observation.cancel()
                #expect(heard.current == [4])
            case .keyValueChanges:
                _ = defaults.keyValueChanges
            case .trackedCatalogRead:
                guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
                let key = CatalogKey(
                    UserDefaultsLifetimeTests.count, name: "count", store: AnyPersistentKeyValueStore(defaults), storeName: "settings")
                let fired = Locked(false)
                _ = withObservationTracking {
                    key.value
                } onChange: {
                    fired.withLock { $0 = true }
                }
                key.value = 5
                #expect(fired.current)
            }
        }
    }

    /// Makes an instance of the suite `name`, uses it, drops it; returns it and its center, weakly.
    static func used(_ use: Use, inSuiteNamed name: String) throws -> (defaults: Weak<UserDefaults>, center: Weak<KeyValueChangeCenter>) {
        let defaults = UserDefaults(suiteName: name)!
        try use.apply(to: defaults)
        return (Weak(defaults), Weak(defaults.keyValueChanges))
    }

    func used(_ use: Use) throws -> (defaults: Weak<UserDefaults>, center: Weak<KeyValueChangeCenter>) {
        try Self.used(use, inSuiteNamed: suite.name)
    }

    /// Whether `instance` is released once the writes made so far are synchronized (the coalesced
    /// synchronization holds the instances written until it ran).
    func isReleased(_ instance: Weak<UserDefaults>) -> Bool {
        eventually {
            UserDefaultsPersistence.synchronizePendingWrites()
            return instance.object == nil
        }
    }

    @Test func foundationAloneReleasesAnInstance() {
        let instance = {
            let defaults = UserDefaults(suiteName: suite.name)!
            defaults.set(1, forKey: "Count")
            return Weak(defaults)
        }()
        #expect(instance.object == nil, "the control: what KeyCatalog's use must not change")
    }

    /// Found by a review: every instance given a change center was kept, with its center, for the
    /// life of the process.
    @Test(arguments: Use.allCases)
    func anInstanceUsedThroughKeyCatalogIsReleased(_ use: Use) throws {
        let (instance, _) = try used(use)
        #expect(isReleased(instance), "an instance used through KeyCatalog (\(use.rawValue)) is kept after the app dropped it")
    }

    /// 200 instances, each written once and dropped: none stays once the writes are synchronized.
    @Test func instancesWrittenOneAfterAnotherDoNotAccumulate() throws {
        var released: [Weak<UserDefaults>] = []
        for _ in 0..<200 { released.append(try used(.set).defaults) }
        #expect(
            eventually {
                UserDefaultsPersistence.synchronizePendingWrites()
                return released.allSatisfy { $0.object == nil }
            })
        let alive = released.count { $0.object != nil }
        #expect(alive == 0, "\(alive) of 200 instances are still alive")
    }

    /// The centers of released instances are pruned as other instances are given one: the
    /// entries kept reach at most twice those left by the last pruning (at least 16), so of 1,000
    /// instances made and dropped one after another at most the last 16 centers remain. In a
    /// child process: the table of centers is the process's, and instances other tests hold
    /// meanwhile raise the bound (the fresh-clone CI at 3088cee: 106 alive in the shared process).
    @Test func theCentersOfReleasedInstancesDoNotAccumulate() async {
        await #expect(processExitsWith: .success) {
            let suite = TemporarySuite()
            var centers: [Weak<KeyValueChangeCenter>] = []
            for _ in 0..<1000 { centers.append(try UserDefaultsLifetimeTests.used(.keyValueChanges, inSuiteNamed: suite.name).center) }
            let alive = centers.count { $0.object != nil }
            #expect(alive <= 16, "\(alive) of 1,000 centers are still alive")
            // The last one is still in the table: the pruning had not yet come to it.
            #expect(centers.last?.object != nil, "no center was kept: nothing was tested")
        }
    }

    /// A catalog key's ID holds its store's center: a center released with its instance could
    /// otherwise be followed by another instance's at the same address, and a kept ID would then
    /// equal a key of another suite with the same name. In a child process: centers are released
    /// by the pruning of the process's table, which other tests' instances drive too.
    @Test func aKeptCatalogKeyIDNeverEqualsAnotherSuitesKey() async {
        await #expect(processExitsWith: .success) {
            guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
            func id(inSuiteNamed name: String) -> (id: CatalogKeyID, center: Weak<KeyValueChangeCenter>) {
                let defaults = UserDefaults(suiteName: name)!
                let key = CatalogKey(
                    UserDefaultsLifetimeTests.count, name: "count", store: AnyPersistentKeyValueStore(defaults), storeName: "settings")
                return (key.id, Weak(defaults.keyValueChanges))
            }
            let first = TemporarySuite("first"), other = TemporarySuite("other")
            let (kept, keptCenter) = id(inSuiteNamed: first.name)
            var equal = 0
            for _ in 0..<200 where id(inSuiteNamed: other.name).id == kept { equal += 1 }
            #expect(equal == 0, "\(equal) of 200 keys of another suite equal the kept ID")
            #expect(keptCenter.object != nil, "the kept ID holds its center")
        }
    }

    /// An instance the app holds keeps its center and its observers while others come and go.
    @Test func aLiveInstanceKeepsItsCenterAndObservers() {
        let live = UnopenedSuiteInstance(suite)
        let center = live.defaults.keyValueChanges
        let heard = Locked<[Int]>([])
        let observation = live.defaults.observe(Self.count) { heard.append($0) }
        defer { observation.cancel() }
        for index in 0..<200 {
            UserDefaults(suiteName: suite.name)!.set(Self.count, to: index)
        }
        UserDefaultsPersistence.synchronizePendingWrites()
        #expect(live.defaults.keyValueChanges === center)
        live.defaults.set(Self.count, to: 1000)
        #expect(heard.current == [1000], "an instance has observers of its own")
    }

    /// A new instance may take the address of a released one: it gets a center of its own, which
    /// the released instance's observers do not hear.
    @Test func anInstanceAtAReleasedInstancesAddressHasACenterOfItsOwn() {
        let heard = Locked<[Int]>([])
        var observations: [PersistentKeyObservation] = []
        defer { for observation in observations { observation.cancel() } }
        var reused = 0
        for index in 0..<50 {
            let releasedID: ObjectIdentifier
            do {
                let released = UserDefaults(suiteName: suite.name)!
                releasedID = ObjectIdentifier(released)
                observations.append(released.observe(Self.count) { heard.append($0) })
            }
            let defaults = UserDefaults(suiteName: suite.name)!
            if ObjectIdentifier(defaults) == releasedID { reused += 1 }
            #expect(!defaults.keyValueChanges.hasObservers(forKey: Self.count.id))
            defaults.set(Self.count, to: index)
        }
        #expect(reused > 0, "no instance was made at a released one's address: nothing was tested")
        #expect(heard.current.isEmpty, "a released instance's observers heard \(heard.current)")
    }
}
