import Foundation
import KeyCatalog
import Testing

/// The file store's decoded values (see `KeptDecodedValueTests`, which runs on it too) go with any
/// change to the file, whoever made it: this process, another one, another program replacing the
/// list.
@Suite struct FileStoreDecodedValueTests {
    typealias Counted = KeptDecodedValueTests.Counted

    /// Stores opened on one file while another is open share its contents, and so the decoded
    /// values; a catalog's `AnyPersistentKeyValueStore` reads them too. (The first store is held:
    /// released, only its pending flush would hold the file's state, for 0.1 s, and a thread
    /// paused longer under load would open a new state, which decodes again.)
    @Test func storesOnOneFileShareDecodedValues() {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let name = "shared-file"
        let key = PersistentKey<[Counted]>("Array", defaultValue: [])
        let first = FileKeyValueStore(url: url)
        first.set(key, to: [.init(name: name)])
        #expect(FileKeyValueStore(url: url).get(key) == [.init(name: name)])
        #expect(AnyPersistentKeyValueStore(FileKeyValueStore(url: url)).get(key) == [.init(name: name)])
        #expect(Counted.decodings(of: name) == 1)
        withExtendedLifetime(first) {}
    }

    /// Another process's write is a record the store reads from the journal: it replaces the
    /// decoded value as a write of this process does.
    @Test func anotherProcesssWriteIsDecodedAgain() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        let key = PersistentKey<[Counted]>("Array", defaultValue: [])
        store.set(key, to: [.init(name: "other-process-mine")])
        #expect(store.get(key) == [.init(name: "other-process-mine")])
        for names in [["other-process-theirs"], ["other-process-theirs", "other-process-again"]] {
            #expect(try TestHelperExecutable.run(["file", url.path, "set-strings", "Array"] + names).status == 0)
            #expect(store.get(key) == names.map { .init(name: $0) })
            #expect(store.get(key) == names.map { .init(name: $0) })
        }
        #expect(Counted.decodings(of: "other-process-mine") == 1)
        #expect(Counted.decodings(of: "other-process-theirs") == 2, "once for each write")
        #expect(Counted.decodings(of: "other-process-again") == 1)
    }

    /// Another program that replaces the list makes the store read it again: every decoded value
    /// goes with the old list.
    @Test func aListReplacedByAnotherProgramIsDecodedAgain() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        let key = PersistentKey<[Counted]>("Array", defaultValue: [])
        store.set(key, to: [.init(name: "replaced-old")])
        try store.compact()
        #expect(store.get(key) == [.init(name: "replaced-old")])
        let temporary = directory.file("other-program.tmp")
        try PropertyListSerialization.data(fromPropertyList: ["Array": ["replaced-new"]], format: .binary, options: 0).write(to: temporary)
        #expect(rename(temporary.path, url.path) == 0)
        #expect(store.get(key) == [.init(name: "replaced-new")])
        #expect(store.get(key) == [.init(name: "replaced-new")])
        #expect(Counted.decodings(of: "replaced-new") == 1)
    }

    /// A compaction rewrites the list with the values the store holds: they read as they did, and
    /// are decoded at most once more, not on every read.
    @Test func aCompactedValueReadsTheSame() throws {
        let directory = TemporaryDirectory()
        let store = FileKeyValueStore(url: directory.file("settings.plist"))
        let name = "compacted"
        let key = PersistentKey<[Counted]>("Array", defaultValue: [])
        store.set(key, to: [.init(name: name)])
        #expect(store.get(key) == [.init(name: name)])
        try store.compact()
        for _ in 0..<3 { #expect(store.get(key) == [.init(name: name)]) }
        #expect(Counted.decodings(of: name) <= 2)
    }
}
