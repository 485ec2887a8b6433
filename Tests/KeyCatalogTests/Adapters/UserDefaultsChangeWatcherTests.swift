// The core of observing other writers on Apple platforms, driven here by calling its triggers as
// KVO and UserDefaults.didChangeNotification would. Writes are plain UserDefaults calls on real suites.
import Foundation
import KeyCatalog
import Observation
import Testing

@Suite("_UserDefaultsChangeWatcher (changes made outside KeyCatalog)")
struct UserDefaultsChangeWatcherTests {
    static let count = PersistentKey<Int>("Count", defaultValue: 0)
    static let dotted = PersistentKey<String>("com.example.theme", defaultValue: "light")

    let suite = TemporarySuite()
    /// An instance of the suite that KeyCatalog did not open by name, so its center has no watcher
    /// until a test attaches one (a suite opened by name gets the Linux file watch, which would
    /// also deliver whenever any test's synchronization rewrites this suite's file, at any point
    /// of a test). Each trigger here is the test's own.
    var defaults: UserDefaults { instance.defaults }
    private let instance: UnopenedSuiteInstance

    init() {
        instance = UnopenedSuiteInstance(suite)
    }

    @Test func aPlainWriteReachesObserveAfterTheTrigger() {
        let watcher = _UserDefaultsChangeWatcher.attach(to: defaults)
        let seen = Locked<[Int]>([])
        let observation = defaults.observe(Self.count) { seen.append($0) }
        #expect(watcher.watchedKeys == ["Count"])

        defaults.set(7, forKey: "Count")
        #expect(seen.current.isEmpty, "Foundation on Linux announces nothing")
        watcher.defaultsDidChange()
        #expect(seen.current == [7])

        defaults.removeObject(forKey: "Count")
        watcher.defaultsDidChange()
        #expect(seen.current == [7, 0])
        observation.cancel()
        #expect(watcher.watchedKeys.isEmpty)
    }

    @Test func aPlainWriteReachesValuesForAfterTheTrigger() async {
        let watcher = _UserDefaultsChangeWatcher.attach(to: defaults)
        var values = defaults.values(for: Self.count).makeAsyncIterator()
        #expect(await values.next() == 0)
        UserDefaults(suiteName: suite.name)!.set(3, forKey: "Count")  // another instance of the suite
        watcher.defaultsDidChange()
        #expect(await values.next() == 3)
    }

    @Test func equalValuesAreNotPostedAgain() {
        let watcher = _UserDefaultsChangeWatcher.attach(to: defaults)
        let seen = Locked<[Int]>([])
        let observation = defaults.observe(Self.count) { seen.append($0) }

        defaults.set(1, forKey: "Count")
        watcher.defaultsDidChange()
        watcher.defaultsDidChange()
        watcher.keyValueObservingDidFire(forKey: "Count")
        #expect(seen.current == [1], "one change, announced three times")

        // KeyCatalog's own write, then Foundation's announcement of it (as on Apple platforms).
        defaults.set(Self.count, to: 2)
        watcher.keyValueObservingDidFire(forKey: "Count")
        #expect(seen.current == [1, 2])
        // Foundation's announcement first, then KeyCatalog's post.
        defaults.set(3, forKey: "Count")
        watcher.keyValueObservingDidFire(forKey: "Count")
        defaults.keyValueChanges.post(key: "Count", value: .int(3))
        #expect(seen.current == [1, 2, 3])
        // Writing the same value again changes nothing.
        defaults.set(Self.count, to: 3)
        #expect(seen.current == [1, 2, 3])
        observation.cancel()
    }

    @Test func aValueWrittenBeforeTheFirstObserverIsNotAChange() {
        defaults.set(5, forKey: "Count")
        let watcher = _UserDefaultsChangeWatcher.attach(to: defaults)
        let seen = Locked<[Int]>([])
        let observation = defaults.observe(Self.count) { seen.append($0) }
        watcher.defaultsDidChange()
        #expect(seen.current.isEmpty)
        observation.cancel()
    }

    @Test func keysWithDotsAreCheckedOnTheNotificationAndNeverRegisteredForKeyValueObserving() {
        // `defaults` has no watcher yet, so this one, with KVO, attaches.
        let registrar = RecordingRegistrar()
        let watcher = _UserDefaultsChangeWatcher.attach(to: defaults, keyValueObserving: registrar)
        let themes = Locked<[String]>([])
        let counts = Locked<[Int]>([])
        let themeObservation = defaults.observe(Self.dotted) { themes.append($0) }
        let countObservation = defaults.observe(Self.count) { counts.append($0) }
        let secondCountObservation = defaults.observe(Self.count) { _ in }
        #expect(registrar.events.current == ["start Count"], "KVO for the plain key only, once")
        #expect(!_UserDefaultsChangeWatcher.canObserveWithKeyValueObserving("com.example.theme"))
        #expect(!_UserDefaultsChangeWatcher.canObserveWithKeyValueObserving("@count"))

        defaults.set("dark", forKey: "com.example.theme")
        defaults.set(4, forKey: "Count")
        watcher.defaultsDidChange()
        #expect(themes.current == ["dark"], "the notification covers the dotted key")
        #expect(counts.current.isEmpty, "KVO covers the plain key")
        watcher.keyValueObservingDidFire(forKey: "Count")
        #expect(counts.current == [4])

        countObservation.cancel()
        #expect(registrar.events.current == ["start Count"])
        secondCountObservation.cancel()
        themeObservation.cancel()
        #expect(registrar.events.current == ["start Count", "stop Count"], "KVO stops with the last observer")
    }

    /// Another writer's change while the watch of a key starts (here, as KVO registers it: after
    /// the watcher's first read) reaches an observer that takes the value, at once.
    @Test func aChangeWhileTheWatchStartsIsNotLost() {
        let writer = UnopenedSuiteInstance(suite)  // another instance of the suite
        let registrar = WritingRegistrar { key in writer.defaults.set(8, forKey: key) }
        _ = _UserDefaultsChangeWatcher.attach(to: defaults, keyValueObserving: registrar)
        let seen = Locked<[Int]>([])
        let observation = defaults.observe(Self.count) { seen.append($0) }
        #expect(seen.current == [8])
        observation.cancel()
    }

    /// A key watched for a tracking of its read alone is not read as its watch starts: the tracked
    /// read, after it, sees a change made meanwhile. A later change, even back to the value the
    /// key had before, fires the tracking (found by a review: with the key read as its watch
    /// started, the change back compared equal to that stale read, and was lost).
    @Test func aTrackedKeyChangedBackIsHeard() {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let writer = UnopenedSuiteInstance(suite)
        let registrar = WritingRegistrar { key in writer.defaults.set(8, forKey: key) }
        let watcher = _UserDefaultsChangeWatcher.attach(to: defaults, keyValueObserving: registrar)
        let other = CatalogKey(
            PersistentKey<Int>("Other", defaultValue: 0), name: "other", store: AnyPersistentKeyValueStore(defaults), storeName: "test")
        let fired = Locked<[String]>([])
        let read = withObservationTracking {
            other.value
        } onChange: {
            fired.append("other")
        }
        #expect(read == 8)
        #expect(fired.current.isEmpty)
        writer.defaults.removeObject(forKey: "Other")
        watcher.keyValueObservingDidFire(forKey: "Other")
        #expect(fired.current == ["other"])
    }

    /// A key watched for trackings alone, written through KeyCatalog and then set back by other
    /// code to the value the watcher read before: the change back fires the tracking of the read
    /// that saw KeyCatalog's write (found by a review: the watcher compared it with its own last
    /// read, equal, and posted nothing). The watcher's own post is no change it has yet to see.
    @Test func aTrackedKeyChangedBackAfterAWriteThroughKeyCatalogIsHeard() {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let watcher = _UserDefaultsChangeWatcher.attach(to: defaults)
        let writer = UnopenedSuiteInstance(suite)
        let theme = CatalogKey(
            PersistentKey<String>("Theme", defaultValue: "light"), name: "theme", store: AnyPersistentKeyValueStore(defaults),
            storeName: "test")
        let fired = Locked<[String]>([])
        let track = { (label: String) in
            withObservationTracking {
                theme.value
            } onChange: {
                fired.append(label)
            }
        }
        writer.defaults.set("light", forKey: "Theme")
        #expect(track("first check") == "light")
        watcher.defaultsDidChange()  // the key's first check posts what it reads, "light"
        #expect(fired.current == ["first check"])

        #expect(track("dark") == "light")
        theme.value = "dark"
        #expect(fired.current == ["first check", "dark"])

        #expect(track("light again") == "dark")
        writer.defaults.set("light", forKey: "Theme")
        watcher.defaultsDidChange()
        #expect(fired.current == ["first check", "dark", "light again"], "the change back to \"light\" is not heard")

        #expect(track("unchanged") == "light")
        watcher.defaultsDidChange()
        #expect(fired.current == ["first check", "dark", "light again"], "nothing changed since the watcher's post")
    }

    /// Keys first tracked after a check (so after every key observed then was given what it last
    /// read) are checked too, whether others are tracked before them or not: without KVO, a key
    /// watched for trackings alone is found among the keys that gained observers since the last
    /// check, not among those read before.
    @Test func aKeyFirstTrackedAfterACheckIsCheckedAtTheNext() {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let watcher = _UserDefaultsChangeWatcher.attach(to: defaults)
        let writer = UnopenedSuiteInstance(suite)
        let store = AnyPersistentKeyValueStore(defaults)
        let keys = ["A", "B", "C"].map { CatalogKey(PersistentKey<Int>($0, defaultValue: 0), name: $0, store: store, storeName: "test") }
        let fired = Locked<[String]>([])
        func track(_ index: Int) {
            withObservationTracking {
                _ = keys[index].value
            } onChange: {
                fired.append(keys[index].name)
            }
        }
        track(0)
        watcher.defaultsDidChange()  // A's first check posts what it reads
        #expect(fired.current == ["A"])
        #expect(watcher.watchedKeys == ["A"])

        track(0)
        track(1)
        writer.defaults.set(2, forKey: "B")
        watcher.defaultsDidChange()
        #expect(fired.current == ["A", "B"], "B, first tracked after A's check, is checked")

        track(1)
        track(2)
        writer.defaults.set(3, forKey: "C")
        writer.defaults.set(1, forKey: "A")
        watcher.defaultsDidChange()
        #expect(fired.current.sorted() == ["A", "A", "B", "C"], "C too, and A as before; B unchanged")
        #expect(watcher.watchedKeys == ["A", "B", "C"])
    }

    /// An observer that takes the value, added to a key watched for a tracking alone, hears the
    /// next change, even back to the value the key had when the tracking was made.
    @Test func aValueObserverOfATrackedKeyHearsTheNextChange() {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let writer = UnopenedSuiteInstance(suite)
        let registrar = WritingRegistrar { key in writer.defaults.set(8, forKey: key) }
        let watcher = _UserDefaultsChangeWatcher.attach(to: defaults, keyValueObserving: registrar)
        let key = PersistentKey<Int>("Other", defaultValue: 0)
        let other = CatalogKey(key, name: "other", store: AnyPersistentKeyValueStore(defaults), storeName: "test")
        _ = withObservationTracking {
            other.value
        } onChange: {
        }
        let seen = Locked<[Int]>([])
        let observation = defaults.observe(key) { seen.append($0) }
        #expect(defaults.get(key) == 8)
        watcher.keyValueObservingDidFire(forKey: "Other")
        #expect(seen.current.isEmpty, "nothing changed since it was added")
        writer.defaults.removeObject(forKey: "Other")
        watcher.keyValueObservingDidFire(forKey: "Other")
        #expect(seen.current == [0])
        observation.cancel()
    }

    @Test func observersBeforeTheWatcherAreWatched() {
        let seen = Locked<[Int]>([])
        let observation = defaults.observe(Self.count) { seen.append($0) }
        let watcher = _UserDefaultsChangeWatcher.attach(to: defaults)
        #expect(_UserDefaultsChangeWatcher.attach(to: defaults) === watcher, "one watcher per center")
        defaults.set(9, forKey: "Count")
        watcher.defaultsDidChange()
        #expect(seen.current == [9])
        observation.cancel()
    }

    @Test func aValueOfTheWrongTypeIsReportedAndObserversGetTheDefault() {
        let watcher = _UserDefaultsChangeWatcher.attach(to: defaults)
        let seen = Locked<[Int]>([])
        let observation = defaults.observe(Self.count) { seen.append($0) }
        let recorder = FailureRecorder()
        recorder.record {
            defaults.set("twelve", forKey: "Count")
            watcher.defaultsDidChange()
        }
        #expect(seen.current == [0])
        #expect(recorder.failures.map(\.operation) == [.read])
        #expect(recorder.failures.first?.key == "Count")
        observation.cancel()
    }

    @Test func theModelOfPersistentValueFollowsAPlainWrite() async throws {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let watcher = _UserDefaultsChangeWatcher.attach(to: defaults)
        let model = await PersistentValueModel(Self.count, store: defaults)
        defaults.set(11, forKey: "Count")
        watcher.keyValueObservingDidFire(forKey: "Count")
        // The model updates on the main actor: under load (a loaded CI machine, every test in one
        // process) that hop can take longer than the 200 sleeps of 5 ms that were waited here.
        let deadline = ContinuousClock.now + .seconds(30)
        while await model.value != 11, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(await model.value == 11)
    }

    /// The watcher reads a key as it starts watching it, and on each check: a value that is no
    /// property-list value is reported then, and the failure handler may use the suite (here, it
    /// observes another key, whose first observer comes back to the watcher). The watcher reads
    /// outside its locks, so the handler neither deadlocks nor traps. In a child process: the
    /// value is registered, and the registration domain is process-wide.
    @Test func aFailureHandlerMayUseTheSuiteWhileTheWatcherReads() async {
        await #expect(processExitsWith: .success) {
            let suite = TemporarySuite()
            let instance = UnopenedSuiteInstance(suite)
            let defaults = instance.defaults
            let watcher = _UserDefaultsChangeWatcher.attach(to: defaults)
            defaults.register(defaults: ["Odd": NSObject()])
            let other = PersistentKey<Int>("Other", defaultValue: 0)
            let reported = Locked<[String]>([])
            let observationsByHandler = Locked<[PersistentKeyObservation]>([])
            PersistentKeyValueFailure.withTaskHandler({ failure in
                reported.append(failure.message)
                observationsByHandler.append(instance.defaults.observe(other) { _ in })
            }) {
                let observation = defaults.observe(PersistentKey<Int>("Odd", defaultValue: 0)) { _ in }
                #expect(watcher.watchedKeys.contains("Odd"))
                watcher.defaultsDidChange()
                observation.cancel()
            }
            #expect(!reported.current.isEmpty)
            #expect(reported.current.allSatisfy { $0.contains("is not a property-list value") }, "\(reported.current)")
            #expect(watcher.watchedKeys == ["Other"], "\(watcher.watchedKeys)")
            for observation in observationsByHandler.current { observation.cancel() }
            #expect(watcher.watchedKeys.isEmpty, "\(watcher.watchedKeys)")
        }
    }
}

/// Records the KVO registrations a watcher asks for.
final class RecordingRegistrar: _KeyValueObservingRegistrar {
    let events = Locked<[String]>([])
    func startObserving(key: String) { events.append("start \(key)") }
    func stopObserving(key: String) { events.append("stop \(key)") }
}

/// Writes to the suite as KVO registers a key: another writer's change while the watch starts.
final class WritingRegistrar: _KeyValueObservingRegistrar {
    let write: @Sendable (String) -> Void
    init(write: @escaping @Sendable (String) -> Void) { self.write = write }
    func startObserving(key: String) { write(key) }
    func stopObserving(key: String) {}
}
