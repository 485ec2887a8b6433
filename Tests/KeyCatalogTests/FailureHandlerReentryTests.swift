import Foundation
import Testing

@testable import KeyCatalog

/// A failure handler may use the store, or the engine, whose failure it is told of: KeyCatalog
/// reports after releasing the lock it held (each lock traps or deadlocks when taken again on its
/// own thread). Each test here makes a report under such a lock, with a handler that takes it again
/// (the file store's and the UserDefaults watcher's cases are beside their own tests).
@Suite("Failure handlers may use the store that reports")
struct FailureHandlerReentryTests {
    let first = PersistentKey<Int>("first", defaultValue: 0)
    let second = PersistentKey<Int>("second", defaultValue: 0)

    /// Runs `body` with a handler that records each failure's message and, on the first one only,
    /// runs `reenter`.
    func withHandler(reentering reenter: @escaping @Sendable () -> Void, _ body: () -> Void) -> [String] {
        let messages = Locked<[String]>([])
        PersistentKeyValueFailure.withTaskHandler({ failure in
            let isFirst = messages.withLock { messages in
                messages.append(failure.message)
                return messages.count == 1
            }
            if isFirst { reenter() }
        }) {
            body()
        }
        return messages.current
    }

    /// A new engine synchronizes its backend, which reports when that fails; the handler asks for
    /// the same shared engine.
    @Test func aHandlerMayAskForTheSharedEngineThatReports() {
        let backend = FakeUbiquitousBackend(synchronizes: false)
        let messages = withHandler(reentering: { _ = UbiquitousSyncEngine.shared(over: backend).isSyncing }) {
            _ = UbiquitousSyncEngine.shared(over: backend)
        }
        #expect(messages.count == 1, "\(messages)")
        #expect(UbiquitousSyncEngine.shared(over: backend) === UbiquitousSyncEngine.shared(over: backend))
    }

    /// A synced write reads its local store under the engine's lock; a file store replaced by a
    /// corrupt file reports that, and the handler writes another synced key.
    @Test func aHandlerMayWriteASyncedKeyWhileTheEngineWrites() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        let engine = UbiquitousSyncEngine(backend: FakeUbiquitousBackend(), initialSyncTimeout: nil)
        let synced = engine.attach(store, keys: ["first", "second"])
        engine.assumeInitialSyncComplete()
        synced.set(first, to: 1)
        try store.compact()
        let corrupt = directory.file("corrupt")
        try Data("not a property list".utf8).write(to: corrupt)
        #expect(rename(corrupt.path, url.path) == 0, "another process left a corrupt list")
        let messages = withHandler(reentering: { synced.set(second, to: 2) }) {
            synced.set(first, to: 3)
        }
        #expect(!messages.isEmpty)
        #expect(synced.get(first) == 3)
        #expect(synced.get(second) == 2)
    }

    /// A subscription reads the key as it starts, under its lock; a value that does not decode is
    /// reported, and the handler writes the key, which delivers to the subscription.
    @Test func aHandlerMayWriteTheKeyASubscriptionStartsOn() {
        let store = InMemoryKeyValueStore(["first": .string("not an int")])
        let received = Locked<[Int]>([])
        let subscription = _PersistentValueSubscription(key: first, store: store) { value in
            received.append(value)
            return .none
        }
        let messages = withHandler(reentering: { store.set(first, to: 5) }) {
            subscription.request(.unlimited)
        }
        #expect(messages.count == 1, "\(messages)")
        #expect(received.current.last == 5)
        subscription.cancel()
    }

    /// A stream decodes the values delivered while it subscribes; one that does not decode is
    /// reported, and the handler writes the key, which delivers to the stream again.
    @Test func aHandlerMayWriteTheKeyAStreamSubscribesTo() async {
        let store = PostingWhileRead()
        let messages = withHandler(reentering: { store.set(first, to: 7) }) {
            _ = store.values(for: first)
        }
        #expect(messages.count == 1, "\(messages)")
        #expect(store.get(first) == 7)
    }
}

/// What holds the reports (``_HeldCallbacks``): they reach the handler in order once the body
/// returned or threw; a task the body started reports from its own thread, at once.
@Suite("Failure reports held while a lock is held")
struct HeldFailureReportsTests {
    struct Stop: Error {}

    func fail(_ message: String) {
        PersistentKeyValueFailure.report(PersistentKeyValueFailure(operation: .read, key: nil, store: "test", message: message))
    }

    @Test func heldReportsReachTheHandlerAfterTheBodyInOrder() {
        let seen = Locked<[String]>([])
        PersistentKeyValueFailure.withTaskHandler({ seen.append($0.message) }) {
            _HeldCallbacks.holding {
                fail("one")
                fail("two")
                #expect(seen.current.isEmpty, "held while the body runs")
            }
            #expect(seen.current == ["one", "two"])
            #expect(throws: Stop.self) {
                try _HeldCallbacks.holding {
                    fail("three")
                    throw Stop()
                }
            }
            #expect(seen.current == ["one", "two", "three"], "also when the body throws")
        }
    }

    @Test func aReportMadeAfterTheBodyReachesTheHandlerAtOnce() async {
        let seen = Locked<[String]>([])
        let (go, release) = AsyncStream.makeStream(of: Void.self)
        await PersistentKeyValueFailure.withTaskHandler({ seen.append($0.message) }) {
            let task = _HeldCallbacks.holding {
                // Runs on another thread, which holds nothing.
                Task {
                    for await _ in go {}
                    fail("late")
                }
            }
            release.finish()
            await task.value
            #expect(seen.current == ["late"])
        }
    }
}

/// A store whose first read posts a value that does not decode for the key read, as another
/// thread's write would land while a stream subscribes.
private final class PostingWhileRead: PersistentKeyValueStore, @unchecked Sendable {
    let base = InMemoryKeyValueStore()
    private let armed = Locked(true)
    var keyValueChanges: KeyValueChangeCenter { base.keyValueChanges }
    var persistentStoreDescription: String { "posting store" }

    func persistentValue(forKey key: String) -> PropertyListValue? {
        let isArmed = armed.withLock { armed in
            defer { armed = false }
            return armed
        }
        if isArmed { base.keyValueChanges.post(key: key, value: .string("not an int")) }
        return base.persistentValue(forKey: key)
    }

    func hasPersistentValue(forKey key: String) -> Bool { base.hasPersistentValue(forKey: key) }
    func setPersistentValue(_ value: PropertyListValue, forKey key: String) throws { base.setPersistentValue(value, forKey: key) }
    func removePersistentValue(forKey key: String) throws { base.removePersistentValue(forKey: key) }
    func registerPersistentValues(_ values: [String: PropertyListValue]) {}
}
