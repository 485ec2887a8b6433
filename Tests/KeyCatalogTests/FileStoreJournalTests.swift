import Foundation
import Testing

@testable import KeyCatalog

@Suite("File store journal: records, torn tails, compaction")
struct FileStoreJournalTests {
    static let values: [PropertyListValue?] = [
        nil,
        .bool(false), .bool(true),
        .int(0), .int(.min), .int(.max), .uint(.max),
        .double(0), .double(-0.0), .double(.leastNonzeroMagnitude), .double(.infinity), .double(-.greatestFiniteMagnitude),
        .string(""), .string("\u{FEFF}bom"), .string("tab\tnew\nline \u{1} 🎉 é"),
        .data(Data()), .data(Data((0...255).map { UInt8($0) })),
        .date(.distantPast), .date(Date(timeIntervalSinceReferenceDate: 123_456.789_012_345)),
        .array([]), .array([.int(1), .string("a"), .array([.bool(true)])]),
        .dictionary([:]), .dictionary(["": .int(1), "\u{FEFF}k": .dictionary(["n": .data(Data([1, 2]))])]),
    ]

    static func scan(_ bytes: [UInt8]) -> FileStoreJournal.Scan {
        bytes.withUnsafeBytes { FileStoreJournal.scan($0) }
    }

    @Test func everyValueReadsBackExactly() {
        let keys = ["k", "", "\u{FEFF}", "clé 🎉"]
        var bytes: [UInt8] = []
        var expected: [FileStoreJournal.Record] = []
        for (index, value) in Self.values.enumerated() {
            let key = keys[index % keys.count]
            bytes += FileStoreJournal.record(key: key, value: value)
            expected.append(FileStoreJournal.Record(key: key, value: value))
        }
        let scan = Self.scan(bytes)
        #expect(scan.records == expected)
        #expect(scan.length == bytes.count)
        #expect(!scan.hasDamagedTail)
        // Equality of doubles would hide a sign or a payload: compare the bits.
        let nan = Double(bitPattern: 0x7FF8_0000_0000_1234)
        let record = Self.scan(FileStoreJournal.record(key: "x", value: .double(nan))).records.first
        guard case .double(let read)? = record?.value else {
            Issue.record("no double in \(String(describing: record))")
            return
        }
        #expect(read.bitPattern == nan.bitPattern)
    }

    @Test func aRecordCutAnywhereEndsTheJournalAtTheRecordBefore() {
        let first = FileStoreJournal.record(key: "a", value: .int(1))
        let second = FileStoreJournal.record(key: "b", value: .array([.string("two"), .data(Data(repeating: 7, count: 40))]))
        for cut in 0..<second.count {
            let scan = Self.scan(first + second.prefix(cut))
            #expect(scan.records == [FileStoreJournal.Record(key: "a", value: .int(1))], "cut at \(cut)")
            #expect(scan.length == first.count)
            #expect(scan.hasDamagedTail == (cut > 0))
        }
    }

    @Test func aChangedByteFailsTheRecord() {
        let record = FileStoreJournal.record(key: "key", value: .string("value"))
        for index in record.indices {
            for bit in [0x01, 0x80] as [UInt8] {
                var damaged = record
                damaged[index] ^= bit
                let scan = Self.scan(damaged)
                #expect(scan.records.isEmpty, "byte \(index), bit \(bit): \(scan.records)")
                #expect(scan.hasDamagedTail)
            }
        }
    }

    /// A record whose checksum holds but whose payload does not read (an operation this version
    /// does not know): whole, so the records after it are still read.
    static let unreadableRecord: [UInt8] = {
        let payload: [UInt8] = [7, 1, 0x6B]
        let checksum = payload.withUnsafeBytes { CRC32.checksum($0) }
        return withUnsafeBytes(of: UInt32(payload.count).littleEndian, Array.init)
            + withUnsafeBytes(of: checksum.littleEndian, Array.init) + payload
    }()

    @Test func aWholeRecordThatDoesNotReadIsSkippedAndCounted() throws {
        let first = FileStoreJournal.record(key: "a", value: .int(1))
        let last = FileStoreJournal.record(key: "b", value: .int(2))
        let scan = Self.scan(first + Self.unreadableRecord + last)
        #expect(scan.records == [.init(key: "a", value: .int(1)), .init(key: "b", value: .int(2))])
        #expect(scan.unreadable == 1)
        #expect(scan.length == first.count + Self.unreadableRecord.count + last.count)
        #expect(!scan.hasDamagedTail)

        // In a store: the write after it is read, and the skipped record is reported.
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        store.set(PersistentKey<Int>("a", defaultValue: 0), to: 1)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: url.path + ".journal"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Self.unreadableRecord + last)
        try handle.close()
        let recorder = FailureRecorder()
        #expect(recorder.record { store.get(PersistentKey<Int>("b", defaultValue: 0)) } == 2)
        #expect(recorder.failures.count == 1)
        let message = try #require(recorder.failures.first?.message)
        #expect(message.contains("1 whole record") && message.contains("skipped"), "\(message)")
    }

    /// A reload opens the journal, then reads the list. Another process that compacts twice in
    /// between, with a write between, leaves a list newer than the records of the journal opened:
    /// laid over it, they would undo that write.
    @Test func aReloadBetweenTwoCompactionsOfAnotherProcessReadsTheNewestValues() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let key = PersistentKey<Int>("n", defaultValue: -1)
        @Sendable func child(_ arguments: String...) {
            #expect((try? TestHelperExecutable.run(["file", url.path] + arguments))?.status == 0, "\(arguments)")
        }
        child("set", "n", "0")
        let store = FileKeyValueStore(url: url)
        #expect(store.get(key) == 0)
        // A new list (n = 0) and a journal holding n = 1: the next read reloads both.
        child("compact-set", "n", "1")
        let path = PropertyListFile.canonicalPath(of: url)
        let compacted = Locked(false)
        PropertyListFile._journalOpenedForReload.withLock { hook in
            hook = { opened in
                guard PropertyListFile.canonicalPath(of: opened) == path, !compacted.current else { return }
                compacted.withLock { $0 = true }
                // The list then holds n = 2; the journal opened still says n = 1.
                child("compact-set", "n", "2")
                child("compact-set", "other", "0")
            }
        }
        defer { PropertyListFile._journalOpenedForReload.withLock { $0 = nil } }
        #expect(store.get(key) == 2)
        #expect(compacted.current, "the reload went through the seam")
    }

    @Test func aTornTailIsIgnoredByReadersThenMovedAsideAndCutOffByTheNextWriter() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let journal = URL(fileURLWithPath: url.path + ".journal")
        let store = FileKeyValueStore(url: url)
        let key = PersistentKey<Int>("n", defaultValue: 0)
        store.set(key, to: 1)
        // A write cut short: the first half of a record.
        let torn = Array(FileStoreJournal.record(key: "n", value: .int(2)).prefix(9))
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: torn)
        try handle.close()

        let recorder = FailureRecorder()
        #expect(recorder.record { store.get(key) } == 1, "a reader stops before the torn record")
        #expect(recorder.failures.isEmpty, "a reader without the lock may be seeing a write in progress")

        recorder.record { store.set(PersistentKey<Int>("m", defaultValue: 0), to: 3) }
        #expect(recorder.failures.count == 1)
        let message = try #require(recorder.failures.first?.message)
        #expect(message.contains("9 bytes at offset") && message.contains("moved aside"), "\(message)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains(".journal.damaged-") }
        #expect(aside.count == 1)
        let asideURL = directory.file(try #require(aside.first))
        #expect(try Data(contentsOf: asideURL) == Data(torn), "the cut bytes are kept")
        #expect(try FileManager.default.attributesOfItem(atPath: asideURL.path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileStoreOnDisk.journalRecords(url).hasDamagedTail == false)
        #expect(try FileStoreOnDisk.read(url) == ["n": .int(1), "m": .int(3)])
    }

    @Test func aFileThatIsNotAJournalIsMovedAsideByTheFirstWrite() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        try PropertyListSerialization.data(fromPropertyList: ["n": 1], format: .binary, options: 0).write(to: url)
        try Data("not a journal".utf8).write(to: URL(fileURLWithPath: url.path + ".journal"))
        let store = FileKeyValueStore(url: url)
        let key = PersistentKey<Int>("n", defaultValue: 0)
        #expect(store.get(key) == 1, "the list is read; the foreign journal adds nothing")

        let recorder = FailureRecorder()
        recorder.record { store.set(key, to: 2) }
        #expect(recorder.failures.count == 1)
        #expect(recorder.failures.first?.message.contains("is not a KeyCatalog journal; moved aside") == true, "\(recorder.failures)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains(".journal.corrupt-") }
        #expect(try Data(contentsOf: directory.file(try #require(aside.first))) == Data("not a journal".utf8))
        #expect(try FileStoreOnDisk.read(url) == ["n": .int(2)])
    }

    /// A write reports what it found once it released the store's lock: the failure handler may
    /// use the store (here, it reads the key being written).
    @Test func aFailureHandlerMayReadTheStoreThatReportsAWrite() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        try Data("not a journal".utf8).write(to: URL(fileURLWithPath: url.path + ".journal"))
        let store = FileKeyValueStore(url: url)
        let key = PersistentKey<Int>("n", defaultValue: 0)
        let readByHandler = Locked<[Int]>([])
        PersistentKeyValueFailure.withTaskHandler({ _ in readByHandler.append(store.get(key)) }) {
            store.set(key, to: 2)
        }
        #expect(readByHandler.current == [2], "told once, after the write")
    }

    @Test(.timeLimit(.minutes(10)))
    func theJournalIsCompactedOnceItOutgrowsTheListAndLaterWritesOnlyAppend() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        let large = PersistentKey<Data>("large", defaultValue: Data())
        let blob = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        store.set(large, to: blob)
        // Compaction runs in the background after the flush delay: wait for the list to appear.
        while try !FileManager.default.fileExists(atPath: url.path) || FileStoreOnDisk.journalRecordCount(url) > 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try StoreFixture.readPropertyListFile(url) == ["large": .data(blob)])

        // A small write now appends its record and leaves the 300 KB list alone.
        var before = stat()
        #expect(stat(url.path, &before) == 0)
        let journalSize = try FileManager.default.attributesOfItem(atPath: url.path + ".journal")[.size] as? Int
        store.set(PersistentKey<Int>("n", defaultValue: 0), to: 1)
        var after = stat()
        #expect(stat(url.path, &after) == 0)
        #expect(after.st_ino == before.st_ino && after.st_size == before.st_size, "the list is not rewritten")
        let grown = try FileManager.default.attributesOfItem(atPath: url.path + ".journal")[.size] as? Int
        #expect(grown == journalSize.map { $0 + FileStoreJournal.record(key: "n", value: .int(1)).count })
        #expect(try FileStoreOnDisk.read(url) == ["large": .data(blob), "n": .int(1)])
    }

    @Test func compactionKeepsWhatAnotherProcessAppendedMeanwhile() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        store.set(PersistentKey<Int>("mine", defaultValue: 0), to: 1)
        let child = try TestHelperExecutable.run(["file", url.path, "set", "theirs", "2"])
        #expect(child.status == 0)
        try store.compact()
        #expect(try StoreFixture.readPropertyListFile(url) == ["mine": .int(1), "theirs": .int(2)])
        #expect(try FileStoreOnDisk.journalRecordCount(url) == 0)
        let reader = try TestHelperExecutable.run(["file", url.path, "get", "theirs"])
        #expect(reader.output == "2\n", "another process reads the compacted store")
        // That process's next write goes on from the new journal.
        #expect(try TestHelperExecutable.run(["file", url.path, "set", "theirs", "3"]).status == 0)
        #expect(store.get(PersistentKey<Int>("theirs", defaultValue: 0)) == 3)
    }
}

/// A store whose folder was removed under it starts again: the next write makes the folder and a
/// new journal, which hold that write (what the removed files held is gone with them).
@Suite struct FileStoreRemovedFolderTests {
    @Test func aWriteAfterTheFolderWasRemovedMakesItAgain() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        store.set(PersistentKey<Int>("old", defaultValue: 0), to: 1)
        try FileManager.default.removeItem(at: directory.url)
        let recorder = FailureRecorder()
        recorder.record { store.set(PersistentKey<Int>("new", defaultValue: 0), to: 2) }
        #expect(recorder.failures.isEmpty, "\(recorder.failures)")
        #expect(try FileStoreOnDisk.read(url) == ["new": .int(2)])
        #expect(store.get(PersistentKey<Int>("old", defaultValue: 0)) == 0)
    }
}
