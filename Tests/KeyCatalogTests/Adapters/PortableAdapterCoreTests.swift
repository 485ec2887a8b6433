// The portable cores of the Apple-only adapters (SwiftUI's @PersistentValue, iCloud's external
// changes, the keychain store), exercised where they compile: here, on Linux.
import Foundation
import KeyCatalog
import Observation
import Testing

@Suite("PersistentValueModel (the core of @PersistentValue)")
@MainActor
struct PersistentValueModelTests {
    let key = PersistentKey<Int>("ModelCount", defaultValue: 5)

    @Test func readsTheStoreAndWritesThrough() {
        let store = InMemoryKeyValueStore()
        let model = PersistentValueModel(key, store: store)
        #expect(model.value == 5)
        model.value = 9
        #expect(store.get(key) == 9)
        #expect(model.value == 9)
    }

    @Test func followsChangesMadeElsewhereAndNotifiesObservation() async throws {
        let store = InMemoryKeyValueStore()
        let model = PersistentValueModel(key, store: store)
        let changed = Changed()
        withObservationTracking {
            _ = model.value
        } onChange: {
            changed.fire()
        }
        store.set(key, to: 42)
        let followed = try await eventuallyAsleep { model.value == 42 }
        #expect(followed)
        #expect(changed.fired)
    }

    /// A write another thread makes just after the model's first read is heard: the model
    /// observes before it reads (found by a review: it read first, and missed such a write).
    @Test func aWriteRightAfterTheFirstReadIsNotMissed() async throws {
        let store = WriteAfterFirstReadStore()
        let key = self.key
        let base = store.base
        store.afterNextRead.withLock {
            $0 = {
                let written = DispatchSemaphore(value: 0)
                Thread {
                    base.set(key, to: 42)
                    written.signal()
                }.start()
                written.wait()
            }
        }
        let model = PersistentValueModel(key, store: store)
        #expect(store.get(key) == 42)
        let followed = try await eventuallyAsleep { model.value == 42 }
        #expect(followed)
    }

    @Test func debugKeyInReleaseKeepsItsDefault() {
        let store = InMemoryKeyValueStore()
        let debugKey = PersistentDebugKey<Bool>("ModelFlag", debugDefaultValue: true, releaseDefaultValue: false, configuration: .release)
        let model = PersistentValueModel(debugKey, store: store)
        model.value = true
        #expect(model.value == false)
        #expect(!store.contains(debugKey))
    }

    @Test func switchingStoresRereadsAndStopsFollowingTheOldOne() async throws {
        let first = InMemoryKeyValueStore()
        let second = InMemoryKeyValueStore()
        second.set(key, to: 2)
        let model = PersistentValueModel(key, store: first)
        #expect(first.keyValueChanges.hasObservers(forKey: key.id))
        model.use(second)
        #expect(model.value == 2)
        // The model re-reads its current store on any change it hears, so its value cannot tell
        // whether it still hears the old store's: its observation there must be gone.
        #expect(!first.keyValueChanges.hasObservers(forKey: key.id), "the old store is no longer followed")
        #expect(second.keyValueChanges.hasObservers(forKey: key.id))
        first.set(key, to: 100)
        second.set(key, to: 3)
        let followed = try await eventuallyAsleep { model.value == 3 }
        #expect(followed)
        #expect(model.value == 3)
    }

    private final class Changed: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var fired: Bool { lock.withLock { value } }
        func fire() { lock.withLock { value = true } }
    }
}

@Suite("External changes (the core of iCloud's didChangeExternally)")
struct ExternalChangeTests {
    @Test func observersSeeValuesWrittenOutsideKeyCatalog() {
        let store = InMemoryKeyValueStore()
        let key = PersistentKey<String>("Remote", defaultValue: "none")
        let seen = LockedValues<String>()
        let observation = store.observe(key) { seen.append($0) }
        // Another device wrote the value: the raw store changes, nothing is posted…
        store.setPersistentValue(.string("from another device"), forKey: "Remote")
        #expect(seen.values.isEmpty)
        // …until the notification's changed keys are forwarded.
        store.keyValueChanges.postExternalChanges(forKeys: ["Remote", "Unobserved"], in: store)
        #expect(seen.values == ["from another device"])
        store.removePersistentValue(forKey: "Remote")
        store.keyValueChanges.postExternalChanges(forKeys: ["Remote"], in: store)
        #expect(seen.values == ["from another device", "none"])
        observation.cancel()
    }
}

@Suite("Keychain item coding")
struct KeychainItemCodingTests {
    @Test(arguments: [
        PropertyListValue.string("s3cr3t"), .int(-4), .bool(true), .double(2.5), .data(Data([0, 1, 255])),
        .array([.string("a"), .int(1)]), .dictionary(["k": .array([])]), .uint(UInt64.max),
    ])
    func roundTrips(_ value: PropertyListValue) throws {
        #expect(try KeychainItemCoding.value(from: KeychainItemCoding.data(for: value)) == value)
    }

    @Test func bytesThatAreNoItemAreAnError() {
        #expect(throws: PersistentKeyValueDecodingError.self) {
            try KeychainItemCoding.value(from: Data("plain password".utf8))
        }
    }
}

/// Values appended from any thread.
final class LockedValues<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []
    var values: [Value] { lock.withLock { storage } }
    func append(_ value: Value) { lock.withLock { storage.append(value) } }
}

@Suite("Store housekeeping")
struct StoreHousekeepingTests {
    @Test func aSuiteIsOpenedOnceAndCatalogsShareItsChanges() throws {
        let suite = TemporarySuite()
        let other = try #require(UserDefaultsPersistence.suite(named: suite.name))
        #expect(other === suite.defaults, "one instance per suite name, however often catalogs open it")
        #expect(AnyPersistentKeyValueStore.userDefaults(suite: suite.name).base === suite.defaults)
        let key = PersistentKey<Int>("Shared", defaultValue: 0)
        let seen = LockedValues<Int>()
        let observation = other.observe(key) { seen.append($0) }
        suite.defaults.set(key, to: 3)
        #expect(seen.values == [3])
        #expect(other.get(key) == 3)
        observation.cancel()
    }

    @Test func optionalWrappedFoundationValuesBridge() {
        let wrapped: [String: Any?] = ["flag": Optional<Any>.some(true), "ratio": Optional<Any>.some(0.5), "none": nil]
        #expect(PropertyListValue(foundationObject: wrapped["flag"]! as Any) == .bool(true))
        #expect(PropertyListValue(foundationObject: wrapped["ratio"]! as Any) == .double(0.5))
        #expect(PropertyListValue(foundationObject: wrapped["none"]! as Any) == nil)
    }

    /// Removed by a file's first opening in the process, and by each compaction: not by every
    /// opening, which would list the folder for each store opened on a file no store holds.
    @Test func abandonedTemporaryFilesAreRemovedOnFirstOpeningAndByCompactions() throws {
        let folder = TemporaryDirectory()
        let url = folder.file("settings.plist")
        func temporary(_ name: String, age: TimeInterval) throws -> URL {
            let file = folder.file(".\(name).\(UUID().uuidString).tmp")
            try Data("partial".utf8).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: file.path)
            return file
        }
        let abandoned = try temporary("settings.plist", age: 3600)
        let recent = try temporary("settings.plist", age: 0)
        let unrelated = try temporary("other.plist", age: 3600)
        do {
            _ = FileKeyValueStore(url: url)
        }
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(FileManager.default.fileExists(atPath: recent.path), "a writer may still own a recent one")
        #expect(FileManager.default.fileExists(atPath: unrelated.path))

        // Opened again once its state is gone: not listed again; the next compaction cleans.
        let later = try temporary("settings.plist", age: 3600)
        let store = FileKeyValueStore(url: url)
        #expect(FileManager.default.fileExists(atPath: later.path))
        store.set(PersistentKey<Int>("n", defaultValue: 0), to: 1)
        try store.compact()
        #expect(!FileManager.default.fileExists(atPath: later.path))
        #expect(FileManager.default.fileExists(atPath: recent.path))
    }
}

/// An in-memory store that runs an action once, right after its next read returns its value: a
/// write by another thread between a reader's read and what it does next.
private final class WriteAfterFirstReadStore: PersistentKeyValueStore, Sendable {
    let base = InMemoryKeyValueStore()
    let afterNextRead = Locked<(@Sendable () -> Void)?>(nil)

    func persistentValue(forKey key: String) -> PropertyListValue? {
        let value = base.persistentValue(forKey: key)
        let action = afterNextRead.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
        return value
    }

    func hasPersistentValue(forKey key: String) -> Bool { base.hasPersistentValue(forKey: key) }
    func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws { base.setPersistentValue(value, forKey: key) }
    func removePersistentValue(forKey key: String) throws { base.removePersistentValue(forKey: key) }
    func registerPersistentValues(_ values: [String: PropertyListValue]) { base.registerPersistentValues(values) }
    var keyValueChanges: KeyValueChangeCenter { base.keyValueChanges }
    var persistentStoreDescription: String { "an in-memory store that writes after its next read" }
}
