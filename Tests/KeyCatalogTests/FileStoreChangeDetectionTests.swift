import Foundation
import Testing

@testable import KeyCatalog

/// A file store's reads ask the files they hold open whether those changed (`fstat`), and look
/// up the paths only when they did. These are the changes other programs make that reads must
/// still see, and that writes must never overwrite.
@Suite("File store: reads see the files change under them")
struct FileStoreChangeDetectionTests {
    let count = PersistentKey<Int>("count", defaultValue: 0)
    let other = PersistentKey<Int>("other", defaultValue: 0)

    /// A store whose list holds `count` = 1 and whose journal is empty.
    func compactedStore(at url: URL) throws -> FileKeyValueStore {
        let store = FileKeyValueStore(url: url)
        store.set(count, to: 1)
        try store.compact()
        #expect(try FileStoreOnDisk.journalRecordCount(url) == 0)
        #expect(store.get(count) == 1)
        return store
    }

    func propertyList(_ values: [String: Int]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
    }

    /// What another program does to replace a file: write a new one beside it, and rename it over.
    func replace(_ url: URL, with values: [String: Int]) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent("other-program.tmp")
        try propertyList(values).write(to: temporary)
        #expect(rename(temporary.path, url.path) == 0)
    }

    @Test func aListReplacedByAnotherProgramIsRead() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = try compactedStore(at: url)
        try replace(url, with: ["count": 2])
        #expect(store.get(count) == 2)
    }

    @Test func aListEditedInPlaceByAnotherProgramIsRead() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = try compactedStore(at: url)
        var before = stat()
        #expect(stat(url.path, &before) == 0)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: propertyList(["count": 3, "other": 4]))
        try handle.close()
        var after = stat()
        #expect(stat(url.path, &after) == 0)
        #expect(after.st_ino == before.st_ino, "edited in place")
        #expect(store.get(count) == 3)
        #expect(store.get(other) == 4)
    }

    /// A backup that gives the list a second name (a hard link) and a replace of the list, both
    /// between two reads: the file the store holds open has as many names as when it was read,
    /// but its inode changed meanwhile.
    @Test func aReplacedListThatKeptAnotherNameIsRead() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = try compactedStore(at: url)
        // The change time moves by clock ticks (up to 10 ms): let one pass since the list was written.
        Thread.sleep(forTimeInterval: 0.05)
        #expect(link(url.path, directory.file("backup.plist").path) == 0)
        try replace(url, with: ["count": 5])
        var old = stat()
        #expect(stat(directory.file("backup.plist").path, &old) == 0)
        #expect(old.st_nlink == 1, "the file the store read has one name again, as when it was read")
        #expect(store.get(count) == 5)
    }

    /// The same for the journal, which every store has: a backup gives it a second name, then
    /// another process compacts the store (a new list, a new journal) and writes again.
    @Test func aReplacedJournalThatKeptAnotherNameIsRead() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        store.set(count, to: 1)
        #expect(store.get(count) == 1)
        Thread.sleep(forTimeInterval: 0.05)
        let journal = url.path + ".journal"
        #expect(link(journal, directory.file("backup.journal").path) == 0)
        #expect(try TestHelperExecutable.run(["file", url.path, "compact-set", "count", "5"]).status == 0)
        var old = stat()
        #expect(stat(directory.file("backup.journal").path, &old) == 0)
        #expect(old.st_nlink == 1, "the journal the store read has one name again, as when it was read")
        #expect(store.get(count) == 5)
    }

    /// A list another program puts where there was none, beside a journal: the next write reads
    /// it first, and keeps its values when it is compacted.
    @Test func aListPutWhereThereWasNoneIsKeptByTheNextWrite() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        store.set(count, to: 1)
        #expect(!FileManager.default.fileExists(atPath: url.path), "only a journal")
        #expect(store.get(count) == 1)
        try replace(url, with: ["other": 2])
        store.set(count, to: 3)
        #expect(store.get(other) == 2)
        try store.compact()
        #expect(try StoreFixture.readPropertyListFile(url) == ["count": .int(3), "other": .int(2)])
    }

    /// Another process's writes are appended to the journal the store holds open: each read sees
    /// them, and so does a read after that process compacted (a new list and journal).
    @Test func anotherProcesssAppendsAndCompactionAreRead() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        store.set(count, to: 1)
        #expect(store.get(count) == 1)
        for value in 2...4 {
            #expect(try TestHelperExecutable.run(["file", url.path, "set", "count", "\(value)"]).status == 0)
            #expect(store.get(count) == value)
        }
        #expect(try TestHelperExecutable.run(["file", url.path, "compact-set", "count", "5"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: url.path), "the other process compacted")
        #expect(store.get(count) == 5)
        #expect(try TestHelperExecutable.run(["file", url.path, "set", "count", "6"]).status == 0)
        #expect(store.get(count) == 6)
    }
}
