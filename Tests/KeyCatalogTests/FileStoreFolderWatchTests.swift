import Foundation
import Testing

@testable import KeyCatalog

/// A file store's observers keep hearing other programs' changes when the store's folder is
/// replaced, or removed and made again (an app's reset): the file's watch moves to the folder at
/// the path (found by a review: on Linux new watches joined the old folder's inotify watch, and a
/// removed folder's watch was dropped for good).
@Suite("File store: the watch follows the store's folder")
struct FileStoreFolderWatchTests {
    let directory = TemporaryDirectory()
    let count = PersistentKey<Int>("count", defaultValue: 0)
    let other = PersistentKey<Int>("other", defaultValue: 0)

    /// A store at `<folder>/s.plist` whose `count` is 1, and an observer of it: what it heard.
    func observedStore(in folder: String = "documents") -> (folder: URL, url: URL, store: FileKeyValueStore, heard: Locked<[Int]>, observation: PersistentKeyObservation) {
        let folder = directory.file(folder)
        let url = folder.appendingPathComponent("s.plist")
        let store = FileKeyValueStore(url: url)
        store.set(count, to: 1)
        let heard = Locked<[Int]>([])
        let observation = store.observe(count) { heard.append($0) }
        return (folder, url, store, heard, observation)
    }

    @Test func aStoreInAFolderMadeAtAReplacedFoldersPathHearsChanges() throws {
        let folder = directory.file("documents")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let first = FileKeyValueStore(url: folder.appendingPathComponent("a.plist"))
        let keep = first.observe(count) { _ in }
        #expect(rename(folder.path, directory.file("documents.old").path) == 0)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        let url = folder.appendingPathComponent("b.plist")
        let second = FileKeyValueStore(url: url)
        second.set(count, to: 1)
        let heard = Locked<[Int]>([])
        let observation = second.observe(count) { heard.append($0) }
        try FileStoreOnDisk.replaceList(url, with: ["count": 5])
        #expect(eventually { heard.current.last == 5 }, "heard: \(heard.current)")
        observation.cancel()
        keep.cancel()
    }

    @Test func aFolderMadeAgainByTheStoresWriteIsWatched() throws {
        let (folder, url, store, heard, observation) = observedStore()
        try FileManager.default.removeItem(at: folder)
        // Removed: the observer is told, and reads the key's default.
        #expect(eventually { heard.current.last == 0 }, "heard: \(heard.current)")

        store.set(count, to: 2)
        try FileStoreOnDisk.replaceList(url, with: ["count": 5])
        #expect(eventually { heard.current.last == 5 }, "heard: \(heard.current)")
        observation.cancel()
    }

    @Test func aFolderMadeAgainByAnotherProgramIsWatchedOnceAKeyGainsAnObserver() throws {
        let (folder, url, store, heard, observation) = observedStore()
        try FileManager.default.removeItem(at: folder)
        #expect(eventually { heard.current.last == 0 })
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        let heardOther = Locked<[Int]>([])
        let otherObservation = store.observe(other) { heardOther.append($0) }
        try FileStoreOnDisk.replaceList(url, with: ["count": 6, "other": 3])
        #expect(eventually { heardOther.current.last == 3 }, "heard: \(heardOther.current)")
        #expect(eventually { heard.current.last == 6 }, "heard: \(heard.current)")
        observation.cancel()
        otherObservation.cancel()
    }

    /// Two folder paths name one folder (one was renamed to the other's path, where a store is
    /// then watched): a folder made again at the first path takes its watch there without
    /// removing the watch the second path still uses (found by a third review).
    @Test func aWatchTwoFolderPathsShareIsKeptForTheOther() throws {
        let first = directory.file("a")
        let second = directory.file("c")
        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: true)
        let storeA = FileKeyValueStore(url: first.appendingPathComponent("s.plist"))
        storeA.set(count, to: 1)
        let keepA = storeA.observe(count) { _ in }
        #expect(rename(first.path, second.path) == 0)
        let url = second.appendingPathComponent("t.plist")
        let storeC = FileKeyValueStore(url: url)
        storeC.set(count, to: 1)
        let heard = Locked<[Int]>([])
        let observation = storeC.observe(count) { heard.append($0) }
        try FileStoreOnDisk.replaceList(url, with: ["count": 4])
        #expect(eventually { heard.current.last == 4 })

        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: true)
        let keepA2 = storeA.observe(other) { _ in }
        try FileStoreOnDisk.replaceList(url, with: ["count": 5])
        #expect(eventually { heard.current.last == 5 }, "heard: \(heard.current)")
        observation.cancel()
        keepA.cancel()
        keepA2.cancel()
    }

    /// The handlers of a watch that moves are called on another thread: a store gaining its first
    /// observer holds its watcher's lock while it starts its watch, and a moved handler's observer
    /// may observe that store (found by a third review: "Recursive call to lock").
    @Test func handlersOfAMovedWatchRunOutsideTheWatchersLock() throws {
        let folder = directory.file("f")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let p = FileKeyValueStore(url: folder.appendingPathComponent("p.plist"))
        let q = FileKeyValueStore(url: folder.appendingPathComponent("q.plist"))
        p.set(count, to: 1)
        let heard = Locked<[Int]>([])
        let inner = Locked<[PersistentKeyObservation]>([])
        let observationP = p.observe(count) { value in
            heard.append(value)
            if value == 7 { inner.append(q.observe(other) { _ in }) }
        }
        try FileManager.default.removeItem(at: folder)
        #expect(eventually { heard.current.last == 0 }, "heard: \(heard.current)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileStoreOnDisk.replaceList(folder.appendingPathComponent("p.plist"), with: ["count": 7])
        inner.append(q.observe(count) { _ in })
        #expect(eventually { heard.current.last == 7 }, "heard: \(heard.current)")
        #expect(eventually { inner.current.count == 2 })
        observationP.cancel()
    }

    /// A store's folder moved away (to the Trash: a rename) is told as a removal is (found by a
    /// fourth review: inotify's watch followed the folder, and told nothing).
    @Test func aFolderMovedAwayIsTold() throws {
        let (folder, _, _, heard, observation) = observedStore()
        #expect(rename(folder.path, directory.file("trash").path) == 0)
        #expect(eventually { heard.current.last == 0 }, "heard: \(heard.current)")
        observation.cancel()
    }

    /// After its folder moved away, a write makes the folder again, locks the lock file made
    /// there (not the one moved away, which other processes no longer lock), and the store's
    /// watch moves there (found by a fourth review: every write failed).
    @Test func aFolderMovedAwayIsMadeAgainByAWriteAndWatched() throws {
        let (folder, url, store, heard, observation) = observedStore()
        #expect(rename(folder.path, directory.file("trash").path) == 0)
        #expect(eventually { heard.current.last == 0 })
        let recorder = FailureRecorder()
        recorder.record { store.set(count, to: 2) }
        #expect(recorder.failures.isEmpty, "\(recorder.failures)")
        #expect(FileManager.default.fileExists(atPath: url.path + ".lock"))
        #expect(store.get(count) == 2)
        try FileStoreOnDisk.replaceList(url, with: ["count": 5])
        #expect(eventually { heard.current.last == 5 }, "heard: \(heard.current)")
        observation.cancel()
    }

    /// A folder made again by another program (no write of this store, no new observer): the
    /// nearest folder above it was watched meanwhile, and the watch moves to it.
    @Test func aFolderMadeAgainByAnotherProgramIsWatched() throws {
        let (folder, url, _, heard, observation) = observedStore()
        try FileManager.default.removeItem(at: folder)
        #expect(eventually { heard.current.last == 0 }, "heard: \(heard.current)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileStoreOnDisk.replaceList(url, with: ["count": 6])
        #expect(eventually { heard.current.last == 6 }, "heard: \(heard.current)")
        observation.cancel()
    }

    /// The folder above the store's removed with it, then both made again at once (`mkdir -p`):
    /// the watch moves down to the store's folder, also when the second was made before the
    /// first was watched.
    @Test func aFolderRemovedWithTheOneAboveIsWatchedOnceBothAreMadeAgain() throws {
        let (folder, url, _, heard, observation) = observedStore(in: "documents/inner")
        let above = folder.deletingLastPathComponent()
        for round in 2...4 {
            try FileManager.default.removeItem(at: above)
            #expect(eventually { heard.current.last == 0 }, "heard: \(heard.current)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileStoreOnDisk.replaceList(url, with: ["count": round])
            #expect(eventually { heard.current.last == round }, "round \(round), heard: \(heard.current)")
        }
        observation.cancel()
    }

    /// Moved away (to the Trash), then made again by another program.
    @Test func aFolderMovedAwayThenMadeAgainByAnotherProgramIsWatched() throws {
        let (folder, url, _, heard, observation) = observedStore()
        #expect(rename(folder.path, directory.file("trash").path) == 0)
        #expect(eventually { heard.current.last == 0 }, "heard: \(heard.current)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileStoreOnDisk.replaceList(url, with: ["count": 7])
        #expect(eventually { heard.current.last == 7 }, "heard: \(heard.current)")
        observation.cancel()
    }

    /// While the store's folder is awaited, the folder above it moves away and another is made
    /// at its path: the folder is awaited from its path again, and found.
    @Test func anAwaitedFolderIsFoundAfterTheFolderAboveItMoved() throws {
        let (folder, url, _, heard, observation) = observedStore(in: "documents/inner")
        let above = folder.deletingLastPathComponent()
        try FileManager.default.removeItem(at: folder)
        #expect(eventually { heard.current.last == 0 }, "heard: \(heard.current)")
        #expect(rename(above.path, directory.file("documents.old").path) == 0)
        // Made inside the folder moved away: not the store's path any more, so not heard.
        try FileManager.default.createDirectory(at: directory.file("documents.old/inner"), withIntermediateDirectories: true)
        try FileStoreOnDisk.replaceList(directory.file("documents.old/inner/s.plist"), with: ["count": 9])
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileStoreOnDisk.replaceList(url, with: ["count": 8])
        #expect(eventually { heard.current.last == 8 }, "heard: \(heard.current)")
        #expect(!heard.current.contains(9))
        observation.cancel()
    }

    /// Once its observers are gone, another store at the path of a removed folder starts afresh
    /// (FileChangeMonitorTests count the watches left).
    @Test func aRemovedFoldersWaitEndsWithItsObservers() throws {
        let (folder, url, _, heard, observation) = observedStore()
        try FileManager.default.removeItem(at: folder)
        #expect(eventually { heard.current.last == 0 })
        observation.cancel()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileStoreOnDisk.replaceList(url, with: ["count": 3])
        let store = FileKeyValueStore(url: url)
        let heardAgain = Locked<[Int]>([])
        let again = store.observe(count) { heardAgain.append($0) }
        try FileStoreOnDisk.replaceList(url, with: ["count": 4])
        #expect(eventually { heardAgain.current.last == 4 }, "heard: \(heardAgain.current)")
        #expect(heard.current.last == 0, "the cancelled observer heard nothing more")
        again.cancel()
    }
}
