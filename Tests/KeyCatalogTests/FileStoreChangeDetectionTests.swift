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

    /// A store whose journal holds `count` = 1 (no list), read once: its files are held open.
    func journalStore(at url: URL) -> FileKeyValueStore {
        let store = FileKeyValueStore(url: url)
        store.set(count, to: 1)
        #expect(store.get(count) == 1)
        return store
    }

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

    func linkCount(_ url: URL) -> Int {
        var info = stat()
        #expect(stat(url.path, &info) == 0)
        return Int(info.st_nlink)
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

    /// Found: a read that caught another program's in-place write half done (truncated, the first
    /// part written) took the list for damaged and moved it aside, so the store lost its values
    /// and the program wrote the rest of its edit into the file moved aside.
    /// The read comes after the list was truncated and its first part (none, or half) written.
    @Test(arguments: [0, 2])
    func aListReadWhileAnotherProgramWritesItInPlaceWaitsForTheWholeList(firstPartDivisor: Int) throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = try compactedStore(at: url)
        let edit = try propertyList(["count": 3, "other": 4])
        let written = firstPartDivisor == 0 ? 0 : edit.count / firstPartDivisor
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: edit.prefix(written))
        // The rest, 50 ms later: the read below comes between.
        let rest = Thread {
            Thread.sleep(forTimeInterval: 0.05)
            try? handle.write(contentsOf: edit.suffix(from: written))
            try? handle.close()
        }
        rest.start()
        let failures = FailureRecorder()

        let read = failures.record { (store.get(count), store.get(other)) }

        #expect(read == (3, 4))
        #expect(failures.failures.isEmpty, "\(failures.failures)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!files.contains { $0.contains(".corrupt-") }, "\(files)")
    }

    /// Found by a review of the wait: every change seen while waiting used up one of a few
    /// readings, so a list written in 40 parts was moved aside half written after all.
    @Test func aListWrittenInPlaceInManyPartsIsReadWhole() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = try compactedStore(at: url)
        let edit = try propertyList(Dictionary(uniqueKeysWithValues: (0..<3_000).map { ("key\($0)", $0) }).merging(["count": 3]) { $1 })
        let parts = 40
        let size = (edit.count + parts - 1) / parts
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: edit.prefix(size))
        let started = DispatchSemaphore(value: 0)
        let rest = Thread {
            started.signal()
            for start in stride(from: size, to: edit.count, by: size) {
                Thread.sleep(forTimeInterval: 0.015)
                try? handle.write(contentsOf: edit[start..<min(start + size, edit.count)])
            }
            try? handle.close()
        }
        rest.start()
        started.wait()
        let failures = FailureRecorder()

        let read = failures.record { store.get(count) }

        #expect(read == 3)
        #expect(failures.failures.isEmpty, "\(failures.failures)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!files.contains { $0.contains(".corrupt-") }, "\(files)")
    }

    /// A list that does not parse and was left unchanged is moved aside, as before, and reported
    /// with what is wrong with it (found by a review: every damaged binary list was reported as
    /// Foundation's text parser saw it, "Unexpected character b at line 1").
    @Test(arguments: [
        (PropertyListSerialization.PropertyListFormat.binary, "a binary property list cut short: 33 bytes, fewer than its header and trailer (40)"),
        (.xml, "an XML property list cut short: it ends at byte"),
    ])
    func aDamagedListLeftUnchangedIsMovedAside(format: PropertyListSerialization.PropertyListFormat, problem: String) throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let whole = try PropertyListSerialization.data(fromPropertyList: ["count": 3, "other": 4], format: format, options: 0)
        try whole.prefix(whole.count / 2).write(to: url)
        let failures = FailureRecorder()

        let read = failures.record { FileKeyValueStore(url: url).get(count) }

        #expect(read == 0)
        #expect(failures.failures.count == 1)
        #expect(failures.failures.first?.message.contains("is not a valid property list (\(problem)") == true, "\(failures.failures)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(files.contains { $0.hasPrefix("settings.plist.corrupt-") }, "\(files)")
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
        #expect(linkCount(directory.file("backup.plist")) == 1, "the file the store read has one name again, as when it was read")
        #expect(store.get(count) == 5)
    }

    /// The same for the journal, which every store has: a backup gives it a second name, then
    /// another process compacts the store (a new list, a new journal) and writes again.
    @Test func aReplacedJournalThatKeptAnotherNameIsRead() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = journalStore(at: url)
        Thread.sleep(forTimeInterval: 0.05)
        let journal = url.path + ".journal"
        #expect(link(journal, directory.file("backup.journal").path) == 0)
        #expect(try TestHelperExecutable.run(["file", url.path, "compact-set", "count", "5"]).status == 0)
        #expect(linkCount(directory.file("backup.journal")) == 1, "the journal the store read has one name again, as when it was read")
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

    /// Longer than reads trust the files they hold open, since the paths were last looked up.
    static let trustedTimeAndMore = Double(PropertyListFile.openFilesTrusted) / 1e9 + 0.05

    /// The store's folder moved aside (to the trash, by a reset), and a new store written at the
    /// path by another process: nothing changes in the files the store holds open, and reads see
    /// the new store once they look the paths up again.
    @Test(arguments: [false, true])
    func aStoreWrittenWhereTheFolderWasMovedFromIsRead(compacted: Bool) throws {
        let directory = TemporaryDirectory()
        let folder = directory.file("app")
        let url = folder.appendingPathComponent("settings.plist")
        let store = FileKeyValueStore(url: url)
        store.set(count, to: 1)
        if compacted { try store.compact() }
        #expect(store.get(count) == 1)
        #expect(rename(folder.path, directory.file("app.moved").path) == 0)
        #expect(try TestHelperExecutable.run(["file", url.path, compacted ? "compact-set" : "set", "count", "7"]).status == 0)
        Thread.sleep(forTimeInterval: Self.trustedTimeAndMore)
        #expect(store.get(count) == 7)
    }

    /// A list another program puts beside a journal-only store is read once the paths are looked
    /// up again, and announced to observers at once (the folder's watcher looks them up).
    @Test func aListPutBesideTheJournalIsReadAndAnnounced() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = journalStore(at: url)
        let seen = Locked<[Int]>([])
        let observation = store.observe(other) { seen.append($0) }
        defer { observation.cancel() }
        try replace(url, with: ["other": 2])
        #expect(eventually { seen.current.contains(2) }, "announced")
        try await Task.sleep(for: .seconds(Self.trustedTimeAndMore))
        #expect(store.get(other) == 2)
        #expect(store.get(count) == 1, "the journal's records still apply")
    }

    /// The journal renamed away, not removed (it keeps its one name), and a new one written by
    /// another process: the rename moves the old journal's change time.
    @Test func aJournalRenamedAwayIsSeen() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = journalStore(at: url)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(rename(url.path + ".journal", directory.file("old.journal").path) == 0)
        #expect(try TestHelperExecutable.run(["file", url.path, "set", "count", "9"]).status == 0)
        #expect(store.get(count) == 9)
    }

    /// A write goes to the journal at the path, never to the one the store holds open if that one
    /// left: after the folder moved (a new one made), and after the journal was renamed away.
    @Test(arguments: [false, true])
    func aWriteGoesToTheJournalAtThePath(folderMoved: Bool) throws {
        let directory = TemporaryDirectory()
        let folder = directory.file("app")
        let url = folder.appendingPathComponent("settings.plist")
        let store = journalStore(at: url)
        if folderMoved {
            #expect(rename(folder.path, directory.file("app.moved").path) == 0)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } else {
            #expect(rename(url.path + ".journal", directory.file("app.journal").path) == 0)
        }
        #expect(try TestHelperExecutable.run(["file", url.path, "set", "other", "2"]).status == 0)
        store.set(count, to: 3)
        #expect(try FileStoreOnDisk.read(url) == ["count": .int(3), "other": .int(2)])
    }

    /// A signature taken after the file lost its last name (a reload that met a compaction) never
    /// changes again: the file it describes is not trusted to be the one at the path.
    @Test func aFileSeenAfterItsRemovalIsNotTrusted() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("journal").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data([1])))
        let file = OpenFile(open(path, O_RDONLY))
        #expect(unlink(path) == 0)
        let lastSeen = try #require(FileSignature(descriptor: file.descriptor))
        #expect(lastSeen.links == 0)
        #expect(FileManager.default.createFile(atPath: path, contents: Data([2, 3])))
        let now = try #require(FileSignature(of: file, lastSeen: lastSeen, path: path))
        #expect(!now.isSameFile(as: lastSeen))
        #expect(now.size == 2)
    }

    /// Another process's writes are appended to the journal the store holds open: each read sees
    /// them, and so does a read after that process compacted (a new list and journal).
    @Test func anotherProcesssAppendsAndCompactionAreRead() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = journalStore(at: url)
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
