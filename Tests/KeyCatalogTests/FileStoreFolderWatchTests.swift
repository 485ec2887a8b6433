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

    /// Whether `condition` holds within 10 s.
    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 10)
        while !condition() {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    /// What another program does: replaces the list, and takes the journal away.
    func writeListExternally(_ url: URL, _ values: [String: Int]) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
        let temporary = url.deletingLastPathComponent().appendingPathComponent("external.tmp")
        try data.write(to: temporary)
        unlink(url.path + ".journal")
        #expect(rename(temporary.path, url.path) == 0)
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
        try writeListExternally(url, ["count": 5])
        #expect(eventually { heard.current.last == 5 }, "heard: \(heard.current)")
        observation.cancel()
        keep.cancel()
    }

    @Test func aFolderMadeAgainByTheStoresWriteIsWatched() throws {
        let folder = directory.file("documents")
        let url = folder.appendingPathComponent("s.plist")
        let store = FileKeyValueStore(url: url)
        store.set(count, to: 1)
        let heard = Locked<[Int]>([])
        let observation = store.observe(count) { heard.append($0) }
        try FileManager.default.removeItem(at: folder)
        // Removed: the observer is told, and reads the key's default.
        #expect(eventually { heard.current.last == 0 }, "heard: \(heard.current)")

        store.set(count, to: 2)
        try writeListExternally(url, ["count": 5])
        #expect(eventually { heard.current.last == 5 }, "heard: \(heard.current)")
        observation.cancel()
    }

    @Test func aFolderMadeAgainByAnotherProgramIsWatchedOnceAKeyGainsAnObserver() throws {
        let folder = directory.file("documents")
        let url = folder.appendingPathComponent("s.plist")
        let store = FileKeyValueStore(url: url)
        store.set(count, to: 1)
        let heard = Locked<[Int]>([])
        let observation = store.observe(count) { heard.append($0) }
        try FileManager.default.removeItem(at: folder)
        #expect(eventually { heard.current.last == 0 })
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        let heardOther = Locked<[Int]>([])
        let otherObservation = store.observe(other) { heardOther.append($0) }
        try writeListExternally(url, ["count": 6, "other": 3])
        #expect(eventually { heardOther.current.last == 3 }, "heard: \(heardOther.current)")
        #expect(eventually { heard.current.last == 6 }, "heard: \(heard.current)")
        observation.cancel()
        otherObservation.cancel()
    }
}
