import Foundation
import Observation
import Testing

@testable import KeyCatalog

/// The stores of one file in a process share its state (its contents, its open files, its change
/// center). That state lasts while something holds it: a store, an observer of one of its keys,
/// a pending flush. Then its files are closed, so an app may open one store per document, by the
/// thousand, one after another.
@Suite("File store: a file's state lasts while something holds it")
struct FileStoreLifetimeTests {
    let count = PersistentKey<Int>("count", defaultValue: 0)

    /// A reference that does not keep its object.
    struct Weak<Object: AnyObject> {
        weak var object: Object?

        init(_ object: Object) {
            self.object = object
        }
    }

    /// Opens a store at `url` and sets `count` to `value` in it; returns the file's state, weakly,
    /// once the store is released. (A pending flush holds the state for about 0.1 s more.)
    func write(_ value: Int, at url: URL) -> Weak<PropertyListFile> {
        let store = FileKeyValueStore(url: url)
        store.set(count, to: value)
        return Weak(store.file)
    }

    /// A file `count` was set to `value` in, by a store released since, whose state has ended.
    func writtenAndReleased(_ value: Int) -> (directory: TemporaryDirectory, url: URL) {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let state = write(value, at: url)
        #expect(eventually { state.object == nil })
        return (directory, url)
    }

    /// Reads `count` through a catalog key made on the spot on the file store at `url` (as a view
    /// whose body makes its catalog), inside `withObservationTracking`, whose change sets `changed`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    func trackedRead(at url: URL, onChange changed: Locked<Bool>) -> Int {
        withObservationTracking {
            CatalogKey(count, name: "count", store: .file(path: url.path), storeName: "document").value
        } onChange: {
            changed.withLock { $0 = true }
        }
    }

    /// How many of this process's open descriptors are files in `directory` (Linux: `/proc/self/fd`).
    func openDescriptors(in directory: TemporaryDirectory) throws -> Int {
        let folder = try #require(realpath(directory.url.path, nil))
        defer { free(folder) }
        let prefix = String(cString: folder) + "/"
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        return descriptors.count { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"))?.hasPrefix(prefix) == true
        }
    }

    @Test func aFilesOpenFilesAreClosedOnceItsLastStoreIsReleased() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        do {
            let store = FileKeyValueStore(url: url)
            store.set(count, to: 3)
            #expect(try openDescriptors(in: directory) == 2, "the journal and the lock file, while the store is open")
        }
        #expect(eventually { (try? openDescriptors(in: directory)) == 0 })

        // Opened again, the file is read from the disk.
        let reopened = FileKeyValueStore(url: url)
        #expect(reopened.get(count) == 3)
    }

    @Test func storesOpenedOneAfterAnotherKeepNoFilesOpen() throws {
        let directory = TemporaryDirectory()
        var states: [Weak<PropertyListFile>] = []
        for document in 0..<300 {
            states.append(write(document, at: directory.file("document-\(document).plist")))
        }
        #expect(eventually { states.allSatisfy { $0.object == nil } })
        // A state's files close at the end of its `deinit`, which may still run on the thread of
        // its last flush once the state reads as gone.
        #expect(eventually { (try? openDescriptors(in: directory)) == 0 })
        #expect(FileKeyValueStore(url: directory.file("document-299.plist")).get(count) == 299)
    }

    @Test func aStoreOpenedWhileAnotherIsOpenSharesItsState() {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let first = FileKeyValueStore(url: url)
        let second = FileKeyValueStore(url: url)
        #expect(first.file === second.file)
        let state = Weak(first.file)
        _ = consume first
        #expect(state.object === second.file)
        #expect(FileKeyValueStore(url: url).file === second.file)
    }

    /// Threads that open stores on one file and release them, over and over: a store opened
    /// while the last state goes (its `deinit` under way) makes a new one, which the old one's
    /// `deinit` must not remove from the open files (two stores opened together would then have
    /// two states, and each write would drop the other's values).
    @Test func storesOpenedAndReleasedOnManyThreadsShareOneState() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        FileKeyValueStore(url: url).set(count, to: 1)
        let apart = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 {
                let first = FileKeyValueStore(url: url)
                let second = FileKeyValueStore(url: url)
                if first.file !== second.file || second.get(count) != 1 { apart.withLock { $0 += 1 } }
            }
        }
        #expect(apart.current == 0)
    }

    @Test func registeredValuesOutliveTheFilesState() {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let state: Weak<PropertyListFile>
        do {
            let store = FileKeyValueStore(url: url)
            store.registerPersistentValues(["count": .int(7)])
            state = Weak(store.file)
        }
        #expect(state.object == nil, "no store, observer or flush holds the state")

        let reopened = FileKeyValueStore(url: url)
        #expect(reopened.persistentValue(forKey: "count") == .int(7))
        #expect(!reopened.contains(count))
        #expect(reopened.get(count) == 7)
        // Registrations are the file's: another file has none.
        #expect(FileKeyValueStore(url: directory.file("other.plist")).persistentValue(forKey: "count") == nil)
    }

    /// A file that cannot be read is found so by each state's first load: reported once while
    /// its files stay as they were, not each time a store is opened on it again.
    @Test func aLoadFailureIsReportedOnceWhileItsFilesAreUnchanged() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        // A folder where the list should be cannot be read (nor moved aside, nor written over).
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let recorder = FailureRecorder()
        /// Opens a store and releases it with its state (no store, observer or flush holds it).
        func openAndRelease() {
            let state = recorder.record { Weak(FileKeyValueStore(url: url).file) }
            #expect(state.object == nil, "the state is released, so the next store makes a new one")
        }
        for _ in 0..<3 { openAndRelease() }
        #expect(recorder.failures.map(\.operation) == [.load])

        // Changed since (as another program would, or a user): found again, so reported again.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: url.path)
        openAndRelease()
        openAndRelease()
        #expect(recorder.failures.map(\.operation) == [.load, .load])
        #expect(recorder.failures.allSatisfy { $0.message == recorder.failures[0].message })

        // Readable again, then broken again the same way: reported again.
        try FileManager.default.removeItem(at: url)
        openAndRelease()
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        openAndRelease()
        #expect(recorder.failures.map(\.operation) == [.load, .load, .load])
    }

    /// Observation's tracking of a key read through a catalog observes it for the center's life:
    /// it must not keep the center's file open once the catalog and its stores are gone, and it
    /// must still hear of the key's changes made through the file's later states (found by a
    /// review: a catalog made in a SwiftUI body, per document, left its view stale).
    @Test func aKeyReadThroughACatalogIsToldOfChangesMadeThroughLaterStates() throws {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let state: Weak<PropertyListFile>
        let changed = Locked(0)
        do {
            let store = FileKeyValueStore(url: url)
            store.set(count, to: 4)
            let key = CatalogKey(count, name: "count", store: AnyPersistentKeyValueStore(store), storeName: "document")
            withObservationTracking {
                #expect(key.value == 4)
            } onChange: {
                changed.withLock { $0 += 1 }
            }
            state = Weak(store.file)
        }
        #expect(eventually { state.object == nil })
        #expect(eventually { (try? openDescriptors(in: directory)) == 0 })
        #expect(changed.current == 0)

        // A later state of the file: its write fires the tracking of the read made before.
        FileKeyValueStore(url: url).set(count, to: 5)
        #expect(changed.current == 1)

        // And a read tracked through a catalog made on the spot, as a SwiftUI body would.
        let later = Locked(false)
        #expect(trackedRead(at: url, onChange: later) == 5)
        #expect(eventually { (try? openDescriptors(in: directory)) == 0 })
        FileKeyValueStore(url: url).set(count, to: 6)
        #expect(later.current)
    }

    /// A later state of the file tells the trackers of reads made before of nothing that did not
    /// change (found by a review: every stored key counted as changed, so a view reading through
    /// a catalog made in its body re-rendered for ever), and of a change made while no state was
    /// open, once.
    @Test func aLaterStateTellsEarlierReadsOfChangesOnly() throws {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let (directory, url) = writtenAndReleased(4)
        let dirty = Locked(false)
        func render() {
            _ = trackedRead(at: url, onChange: dirty)
        }
        render()
        // Opening a store, and rendering again (as SwiftUI may, for another reason), tells nothing.
        #expect(FileKeyValueStore(url: url).get(count) == 4)
        #expect(!dirty.current)
        render()
        var renders = 2
        while dirty.current, renders < 20 {
            dirty.withLock { $0 = false }
            render()
            renders += 1
        }
        #expect(renders == 2)

        // Changed by another program while no state is open: the next state tells the tracking.
        #expect(eventually { (try? openDescriptors(in: directory)) == 0 })
        try FileStoreOnDisk.replaceList(url, with: ["count": 9])
        #expect(FileKeyValueStore(url: url).get(count) == 9)
        #expect(dirty.current)
    }

    /// A change a read found (another program's), whose announcement came after the state
    /// ended, is told by the file's next state (found by a third review: the state's end recorded
    /// the new value as heard).
    @Test func aChangeFoundButNotAnnouncedWhenAStateEndsIsToldLater() throws {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let (directory, url) = writtenAndReleased(4)
        let dirty = Locked(false)
        #expect(trackedRead(at: url, onChange: dirty) == 4)
        // The file monitor's thread held: the state's watch cannot announce the change.
        try holdingFileWatches(in: directory) {
            let state: Weak<PropertyListFile>
            do {
                let store = FileKeyValueStore(url: url)
                state = Weak(store.file)
                try FileStoreOnDisk.replaceList(url, with: ["count": 9])
                #expect(store.get(count) == 9)
            }
            #expect(eventually { state.object == nil })
            #expect(!dirty.current)
        }
        #expect(FileKeyValueStore(url: url).get(count) == 9)
        #expect(dirty.current)
    }

    /// The same, when a store is opened on the file while its last state is ending: the new state
    /// waits for the old one's `deinit` to record what it leaves (before, it read the record
    /// first, and the change went untold).
    @Test func aStateOpenedWhileTheLastOneEndsTellsWhatThatOneLeft() throws {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let (directory, url) = writtenAndReleased(4)
        let dirty = Locked(false)
        try holdingFileWatches(in: directory) {
            let store = Locked<FileKeyValueStore?>(FileKeyValueStore(url: url))
            let state = Weak(try #require(store.current).file)
            // The first tracked read of the file, in this state: nothing is recorded yet.
            #expect(trackedRead(at: url, onChange: dirty) == 4)
            try FileStoreOnDisk.replaceList(url, with: ["count": 9])
            #expect(store.current?.get(count) == 9)

            // The state's end held at its record, by its contents' lock.
            let (held, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let contents = try #require(state.object).contents
            DispatchQueue.global().async {
                contents.withLock { _ in
                    held.signal()
                    _ = release.wait(timeout: .now() + 30)
                }
            }
            #expect(held.wait(timeout: .now() + 30) == .success)
            let ended = DispatchGroup()
            DispatchQueue.global().async(group: ended) { store.withLock { $0 = nil } }
            #expect(eventually { state.object == nil })

            // A store opened meanwhile, on another thread.
            let (opening, opened) = (DispatchSemaphore(value: 0), DispatchGroup())
            let read = Locked<Int?>(nil)
            DispatchQueue.global().async(group: opened) {
                opening.signal()
                let value = FileKeyValueStore(url: url).get(count)
                read.withLock { $0 = value }
            }
            #expect(opening.wait(timeout: .now() + 30) == .success)
            Thread.sleep(forTimeInterval: 0.1)
            release.signal()
            #expect(ended.wait(timeout: .now() + 30) == .success)
            #expect(opened.wait(timeout: .now() + 30) == .success)
            #expect(read.current == 9)
            #expect(dirty.current)
        }
    }

    /// A post made while its key is delivered waits as pending, and holds the store it names: it
    /// may be the file's last. A later post replaces it, or a round that reads no value
    /// (Observation's trackers alone) drops it: after the center's lock, which the state's `deinit`
    /// takes (found by a review: the process stopped, "Recursive call to lock Mutex").
    @Test(arguments: [false, true])
    func aStateReleasedByAPendingPostEnds(replacedByALaterPost: Bool) throws {
        guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return }
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = Locked<FileKeyValueStore?>(FileKeyValueStore(url: url))
        let center = try #require(store.current).keyValueChanges
        let state = Weak(try #require(store.current).file)
        let (entered, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        _ = withObservationTracking {
            CatalogKey(count, name: "count", store: .file(path: url.path), storeName: "document").value
        } onChange: {
            entered.signal()
            _ = release.wait(timeout: .now() + 30)
        }
        let delivered = DispatchGroup()
        DispatchQueue.global().async(group: delivered) { center.post(key: "count", value: .int(1)) }
        #expect(entered.wait(timeout: .now() + 30) == .success)
        do {
            let other = FileKeyValueStore(url: url)
            center.postCurrentValue(forKey: "count", in: other)
        }
        store.withLock { $0 = nil }
        #expect(state.object != nil, "held by the pending post alone")
        if replacedByALaterPost {
            center.post(key: "count", value: .int(3))
            #expect(state.object == nil)
        }
        release.signal()
        #expect(delivered.wait(timeout: .now() + 30) == .success)
        #expect(state.object == nil)
    }

    /// A fresh state's first observer is not called for a value that did not change (found by a
    /// review: the first load counted every stored key as another process's change).
    @Test func aFreshStatesFirstObserverHearsNothingUnchanged() throws {
        let (directory, url) = writtenAndReleased(4)
        let store = FileKeyValueStore(url: url)
        let heard = Locked<[Int]>([])
        let observation = store.observe(count) { heard.append($0) }
        store.set(count, to: 5)
        #expect(heard.current == [5])
        observation.cancel()
        withExtendedLifetime(directory) {}
    }

    /// A file store's change center held without a store: an observer added to it once the
    /// file's state is gone is added to the file's state now, and hears later writes (found by a
    /// review: it heard nothing).
    @Test func anObserverOfAFileStoresCenterHeldAloneHearsLaterWrites() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let center = FileKeyValueStore(url: url).keyValueChanges
        let heard = Locked<[PropertyListValue?]>([])
        let observation = center.addObserver(forKey: "count") { value in heard.append(value) }
        FileKeyValueStore(url: url).set(count, to: 2)
        #expect(eventually { heard.current == [.int(2)] })
        observation.cancel()
    }

    /// Threads open stores on one file, read it whole and release them, while another writes:
    /// states come and go (compactions too), and no write is lost to any reader.
    @Test func noWriteIsLostWhileStatesComeAndGo() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("churn.plist")
        let written = Locked(0)
        let missing = Locked(0)
        let done = Locked(false)
        let group = DispatchGroup()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                while !done.current {
                    let upTo = written.current
                    let values = FileKeyValueStore(url: url).storedValues
                    for index in 0..<upTo where values["k\(index)"] != .int(index) { missing.withLock { $0 += 1 } }
                }
            }
        }
        for index in 0..<25 {
            let store = FileKeyValueStore(url: url)
            try store.setPersistentValue(.int(index), forKey: "k\(index)")
            // Large enough that the journal soon outgrows the list: compactions.
            if index % 5 == 0 { try store.setPersistentValue(.data(Data(count: 300_000)), forKey: "big") }
            written.withLock { $0 = index + 1 }
            // Longer than a pending flush: the state goes between writes.
            Thread.sleep(forTimeInterval: 0.12)
        }
        done.withLock { $0 = true }
        group.wait()
        #expect(missing.current == 0)
    }

    @Test func anObserverKeepsTheFilesStateUntilItIsCancelled() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let heard = Locked<[Int]>([])
        var observation: PersistentKeyObservation?
        let state: Weak<PropertyListFile>
        do {
            let store = FileKeyValueStore(url: url)
            store.set(count, to: 1)
            observation = store.observe(count) { heard.append($0) }
            state = Weak(store.file)
        }
        // Longer than a pending flush holds it.
        Thread.sleep(forTimeInterval: 0.3)
        #expect(state.object != nil)

        // A store opened now is the observed one's: its write is heard.
        let writer = FileKeyValueStore(url: url)
        #expect(writer.file === state.object)
        writer.set(count, to: 2)
        #expect(eventually { heard.current == [2] })
        _ = consume writer

        observation?.cancel()
        observation = nil
        #expect(eventually { state.object == nil })
        #expect(eventually { (try? openDescriptors(in: directory)) == 0 })
    }
}
