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

    @Test func everyValueReadsBackExactly() throws {
        let keys = ["k", "", "\u{FEFF}", "clé 🎉"]
        var bytes: [UInt8] = []
        var expected: [FileStoreJournal.Record] = []
        for (index, value) in Self.values.enumerated() {
            let key = keys[index % keys.count]
            bytes += try FileStoreJournal.record(key: key, value: value)
            expected.append(FileStoreJournal.Record(key: key, value: value))
        }
        let scan = Self.scan(bytes)
        #expect(scan.records == expected)
        #expect(scan.length == bytes.count)
        #expect(!scan.hasDamagedTail)
        // Equality of doubles would hide a sign or a payload: compare the bits.
        let nan = Double(bitPattern: 0x7FF8_0000_0000_1234)
        let record = Self.scan(try FileStoreJournal.record(key: "x", value: .double(nan))).records.first
        guard case .double(let read)? = record?.value else {
            Issue.record("no double in \(String(describing: record))")
            return
        }
        #expect(read.bitPattern == nan.bitPattern)
    }

    @Test func aRecordCutAnywhereEndsTheJournalAtTheRecordBefore() throws {
        let first = try FileStoreJournal.record(key: "a", value: .int(1))
        let second = try FileStoreJournal.record(key: "b", value: .array([.string("two"), .data(Data(repeating: 7, count: 40))]))
        for cut in 0..<second.count {
            let scan = Self.scan(first + second.prefix(cut))
            #expect(scan.records == [FileStoreJournal.Record(key: "a", value: .int(1))], "cut at \(cut)")
            #expect(scan.length == first.count)
            #expect(scan.hasDamagedTail == (cut > 0))
        }
    }

    @Test func aChangedByteFailsTheRecord() throws {
        let record = try FileStoreJournal.record(key: "key", value: .string("value"))
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
        let first = try FileStoreJournal.record(key: "a", value: .int(1))
        let last = try FileStoreJournal.record(key: "b", value: .int(2))
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
    /// laid over it, they would undo that write. In a child process: the seam it goes through
    /// (`PropertyListFile._journalOpenedForReload`) is process-wide.
    @Test func aReloadBetweenTwoCompactionsOfAnotherProcessReadsTheNewestValues() async {
        await #expect(processExitsWith: .success) {
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
            #expect(store.get(key) == 2, "\(store.get(key))")
            #expect(compacted.current, "the reload went through the seam")
        }
    }

    /// A folder removed since a rename in it (a test's temporary folder, removed with the store's
    /// files while a compaction finished) has no name left to make durable: flushing it is no
    /// failure (found: a full run printed "the compacted journal's new name may not survive a
    /// power loss … No such file or directory").
    @Test func flushingAFolderRemovedSinceIsNoFailure() throws {
        let directory = TemporaryDirectory()
        try PropertyListFile.syncFolder(of: directory.file("settings.plist"))
        let removed = directory.file("removed")
        try FileManager.default.createDirectory(at: removed, withIntermediateDirectories: false)
        try FileManager.default.removeItem(at: removed)
        #expect(throws: Never.self) { try PropertyListFile.syncFolder(of: removed.appendingPathComponent("settings.plist.journal")) }
    }

    @Test func aTornTailIsIgnoredByReadersThenMovedAsideAndCutOffByTheNextWriter() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let journal = URL(fileURLWithPath: url.path + ".journal")
        let store = FileKeyValueStore(url: url)
        let key = PersistentKey<Int>("n", defaultValue: 0)
        store.set(key, to: 1)
        // A write cut short: the first half of a record.
        let torn = Array(try FileStoreJournal.record(key: "n", value: .int(2)).prefix(9))
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

    /// The journal's bytes at `url`'s journal.
    static func journalBytes(_ url: URL) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: url.path + ".journal"))
    }

    /// Found by a review: a compaction wrote the list from the records it read and started the
    /// journal again, so a whole record it skipped (a newer version's) was in neither file.
    @Test func aJournalHoldingARecordThisVersionCannotReadIsNotCompacted() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let store = FileKeyValueStore(url: url)
        let a = PersistentKey<Int>("a", defaultValue: 0)
        store.set(a, to: 1)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: url.path + ".journal"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Self.unreadableRecord)
        try handle.close()
        let recorder = FailureRecorder()
        #expect(recorder.record { store.get(a) } == 1)
        #expect(recorder.failures.first?.message.contains("the journal is not compacted while it holds it") == true, "\(recorder.failures)")

        let refusal = #expect(throws: FileStoreUnavailable.self) { try recorder.record { try store.compact() } }
        #expect(refusal?.description.contains("cannot read (written by a newer one?), which a compaction would lose") == true, "\(String(describing: refusal))")
        #expect(try Self.journalBytes(url).range(of: Data(Self.unreadableRecord)) != nil, "the record is kept")
        recorder.record { store.set(a, to: 2) }
        #expect(try Self.journalBytes(url).range(of: Data(Self.unreadableRecord)) != nil, "writes keep it too")
        #expect(try FileStoreOnDisk.read(url) == ["a": .int(2)])
    }

    /// Makes `folder` refuse new files while the files in it stay writable: read-only for a user,
    /// immutable (`chattr +i`) for root, whom permissions do not stop. Returns what undoes it, or
    /// `nil` where neither works.
    static func refusingNewFiles(_ folder: URL) -> (() -> Void)? {
        let probe = folder.appendingPathComponent("probe")
        func refuses() -> Bool {
            guard FileManager.default.createFile(atPath: probe.path, contents: nil) else { return true }
            try? FileManager.default.removeItem(at: probe)
            return false
        }
        func chattr(_ flag: String) -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            process.arguments = [flag, folder.path]
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
        chmod(folder.path, 0o555)
        if refuses() { return { chmod(folder.path, 0o755) } }
        chmod(folder.path, 0o755)
        if chattr("+i"), refuses() { return { _ = chattr("-i") } }
        _ = chattr("-i")
        return nil
    }

    /// Found by a review: a writer cut off the bytes after the last record that read, also when it
    /// could not save them; one damaged record makes every whole record after it such bytes.
    @Test func damagedBytesThatCannotBeSavedAsideAreNotCutOff() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        var damaged = try FileStoreJournal.record(key: "b", value: .int(2))
        damaged[damaged.count - 1] ^= 1
        let whole = try FileStoreJournal.record(key: "c", value: .string("a whole write after the damaged one"))
        let journal = FileStoreJournal.header + (try FileStoreJournal.record(key: "a", value: .int(1))) + damaged + whole
        try Data(journal).write(to: URL(fileURLWithPath: url.path + ".journal"))
        // The lock file a writer opens, there before the folder refuses new files.
        #expect(FileManager.default.createFile(atPath: url.path + ".lock", contents: nil))
        let store = FileKeyValueStore(url: url)
        let d = PersistentKey<Int>("d", defaultValue: 0)
        #expect(store.get(PersistentKey<Int>("a", defaultValue: 0)) == 1)

        let restore = try #require(Self.refusingNewFiles(directory.url), "this test needs a folder that refuses new files")
        let refused = FailureRecorder()
        refused.record { store.set(d, to: 4) }
        restore()
        let message = try #require(refused.failures.first?.message)
        #expect(message.contains("could not be moved aside") && message.contains("writes, which would cut them off, are refused"), "\(message)")
        #expect(try Self.journalBytes(url) == Data(journal), "nothing is cut off, nothing appended")

        let saved = FailureRecorder()
        saved.record { store.set(d, to: 4) }
        #expect(saved.failures.first?.message.contains("moved aside to") == true, "\(saved.failures)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains(".journal.damaged-") }
        #expect(try Data(contentsOf: directory.file(try #require(aside.first))) == Data(damaged + whole), "the bytes are saved before they are cut off")
        #expect(try FileStoreOnDisk.read(url) == ["a": .int(1), "d": .int(4)])
    }

    /// Found by a review: a reader ignored a journal whose header it did not know without a word,
    /// and a writer moved a newer format's journal aside, hiding its writes.
    @Test func aJournalOfANewerFormatIsReportedAndKeptFromWrites() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        var newer = FileStoreJournal.header + (try FileStoreJournal.record(key: "n", value: .int(42)))
        newer[4] = 2
        try Data(newer).write(to: URL(fileURLWithPath: url.path + ".journal"))
        let n = PersistentKey<Int>("n", defaultValue: 0)
        let recorder = FailureRecorder()
        let (store, read) = recorder.record { () -> (FileKeyValueStore, Int) in
            let store = FileKeyValueStore(url: url)
            return (store, store.get(n))
        }
        #expect(read == 0)
        #expect(recorder.failures.first?.message.contains("is of format version 2 (its header, at offset 0)") == true, "\(recorder.failures)")
        let write = FailureRecorder()
        write.record { store.set(n, to: 1) }
        #expect(write.failures.first?.message.contains("writes are refused, so that a new journal does not hide them") == true, "\(write.failures)")
        // Found by a review: `compact()` returned as if it had compacted.
        #expect {
            try store.compact()
        } throws: { error in
            "\(error)".contains("not compacted, to keep the file that is there: its journal") && "\(error)".contains("is of format version 2")
        }
        #expect(try Self.journalBytes(url) == Data(newer), "the journal is kept as it is")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains(".corrupt-") }.isEmpty)
    }

    /// Found by a review of 1be06b6: writes refused because a damaged tail could not be saved stayed
    /// refused after another process's writer saved and cut it off.
    @Test func writesResumeOnceAnotherWriterCutTheDamagedTailOff() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let journalURL = URL(fileURLWithPath: url.path + ".journal")
        var damaged = try FileStoreJournal.record(key: "b", value: .int(2))
        damaged[damaged.count - 1] ^= 1
        let intact = FileStoreJournal.header + (try FileStoreJournal.record(key: "a", value: .int(1)))
        try Data(intact + damaged).write(to: journalURL)
        #expect(FileManager.default.createFile(atPath: url.path + ".lock", contents: nil))
        let store = FileKeyValueStore(url: url)
        let a = PersistentKey<Int>("a", defaultValue: 0)
        let d = PersistentKey<Int>("d", defaultValue: 0)
        #expect(store.get(a) == 1)

        let restore = try #require(Self.refusingNewFiles(directory.url))
        let refused = FailureRecorder()
        refused.record { store.set(d, to: 4) }
        restore()
        #expect(refused.failures.first?.message.contains("could not be moved aside") == true, "\(refused.failures)")

        // Another process's writer, which could save the bytes, cut them off (as catchUp does).
        #expect(truncate(journalURL.path, off_t(intact.count)) == 0)
        let later = FailureRecorder()
        later.record { store.set(d, to: 5) }
        #expect(later.failures.isEmpty, "\(later.failures.map(\.message))")
        #expect(try FileStoreOnDisk.read(url) == ["a": .int(1), "d": .int(5)])
    }

    /// A newer format's journal that its process appends to stays whole: a writer here reads it
    /// again (it never reads its bytes as records, which would be cut off as a damaged tail).
    @Test func aJournalOfANewerFormatStaysWholeAsItGrows() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        let journalURL = URL(fileURLWithPath: url.path + ".journal")
        var newer = FileStoreJournal.header + (try FileStoreJournal.record(key: "n", value: .int(42)))
        newer[4] = 2
        try Data(newer).write(to: journalURL)
        let recorder = FailureRecorder()
        let n = PersistentKey<Int>("n", defaultValue: 0)
        let (store, read) = recorder.record { () -> (FileKeyValueStore, Int) in
            let store = FileKeyValueStore(url: url)
            return (store, store.get(n))
        }
        #expect(read == 0)
        // The newer version appends.
        newer += try FileStoreJournal.record(key: "m", value: .int(7))
        try Data(newer).write(to: journalURL)
        recorder.record { store.set(n, to: 1) }
        #expect(recorder.failures.contains { $0.message.contains("writes are refused, so that a new journal does not hide them") }, "\(recorder.failures.map(\.message))")
        #expect(try Self.journalBytes(url) == Data(newer), "nothing is cut off or moved aside")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains(".damaged-") || $0.contains(".corrupt-") }.isEmpty)
    }

    /// Found by a review: a value of 4 GiB or more trapped in the record's length field.
    @Test func aRecordLongerThanItsLengthFieldHoldsIsRefused() throws {
        let refusal = #expect(throws: FileStoreUnavailable.self) {
            try FileStoreJournal.record(key: "k", value: .data(Data(count: 64)), maximumPayloadLength: 63)
        }
        #expect(refusal?.description.contains("more than a file store's journal record holds (63)") == true, "\(String(describing: refusal))")
        let fits = try FileStoreJournal.record(key: "k", value: .data(Data(count: 64)), maximumPayloadLength: 1 + 2 + 1 + 1 + 1 + 64)
        #expect(Self.scan(fits).records == [.init(key: "k", value: .data(Data(count: 64)))])
        #expect(FileStoreJournal.maximumPayloadLength == Int(UInt32.max))
    }

    @Test func aFileThatIsNotAJournalIsMovedAsideByTheFirstWrite() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("settings.plist")
        try PropertyListSerialization.data(fromPropertyList: ["n": 1], format: .binary, options: 0).write(to: url)
        try Data("not a journal".utf8).write(to: URL(fileURLWithPath: url.path + ".journal"))
        let key = PersistentKey<Int>("n", defaultValue: 0)
        let recorder = FailureRecorder()
        // The report comes with the first load: at the store's opening, or at its first read.
        let (store, read) = recorder.record { () -> (FileKeyValueStore, Int) in
            let store = FileKeyValueStore(url: url)
            return (store, store.get(key))
        }
        #expect(read == 1, "the list is read; the foreign journal adds nothing")
        #expect(recorder.failures.count == 1, "a reader is told")
        #expect(recorder.failures.first?.message.contains("does not start with a KeyCatalog journal's header (offset 0") == true, "\(recorder.failures)")

        let writeRecorder = FailureRecorder()
        writeRecorder.record { store.set(key, to: 2) }
        #expect(writeRecorder.failures.count == 1)
        #expect(writeRecorder.failures.first?.message.contains("is not a KeyCatalog journal (its header, at offset 0, does not read); moved aside") == true, "\(recorder.failures)")
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
        // Opening it reports the journal it cannot read (and the write moves it aside, reported).
        let opening = FailureRecorder()
        let store = opening.record { FileKeyValueStore(url: url) }
        #expect(opening.failures.first?.message.contains("does not start with a KeyCatalog journal's header") == true, "\(opening.failures)")
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
        let record = try FileStoreJournal.record(key: "n", value: .int(1))
        #expect(grown == journalSize.map { $0 + record.count })
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
