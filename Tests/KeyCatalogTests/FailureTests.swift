import Foundation
import KeyCatalog
import Testing

/// A stored value that a key cannot read: the read must give the key's default, report once, and
/// leave the stored value alone.
struct UnreadableCase: Sendable, CustomTestStringConvertible {
    let name: String
    let stored: PropertyListValue
    let messageFragment: String
    /// Reads the key "value" and says whether it gave the key's default.
    let readsDefault: @Sendable (any PersistentKeyValueStore) -> Bool

    var testDescription: String { name }

    static func reading<Key: PersistentKeyProtocol>(
        _ name: String, _ stored: PropertyListValue, as key: Key, message: String
    ) -> UnreadableCase where Key.Value: Equatable {
        UnreadableCase(name: name, stored: stored, messageFragment: message) { store in
            store.get(key) == key.defaultValue
        }
    }

    static let all: [UnreadableCase] = [
        reading("String read as Int", .string("seven"), as: PersistentKey<Int>("value", defaultValue: 5), message: "expected a value of type 'Int', found a string"),
        reading("300 read as UInt8", .int(300), as: PersistentKey<UInt8>("value", defaultValue: 5), message: "out of range"),
        reading("-1 read as UInt64", .int(-1), as: PersistentKey<UInt64>("value", defaultValue: 5), message: "out of range"),
        reading("1.5 read as Int", .double(1.5), as: PersistentKey<Int>("value", defaultValue: 5), message: "out of range"),
        reading("2 read as Bool", .int(2), as: PersistentKey<Bool>("value", defaultValue: true), message: "expected a value of type 'Bool'"),
        reading("Int read as String", .int(1), as: PersistentKey<String>("value", defaultValue: "d"), message: "expected a value of type 'String', found an integer"),
        reading("Int read as Data", .int(1), as: PersistentKey<Data>("value", defaultValue: Data([1])), message: "expected a value of type 'Data'"),
        reading("array read as dictionary", .array([.int(1)]), as: PersistentKey<[String: Int]>("value", defaultValue: ["d": 1]), message: "found an array"),
        reading("mixed array read as [Int]", .array([.int(1), .string("x")]), as: PersistentKey<[Int]>("value", defaultValue: [9]), message: "expected a value of type 'Int', found a string"),
        reading("String read as Date", .string("yesterday"), as: PersistentKey<Date>("value", defaultValue: .distantPast), message: "expected a value of type 'Double'"),
        reading("bad ISO 8601 string", .string("yesterday"), as: PersistentKey<Date>("value", defaultValue: .distantPast, representation: ISO8601DatePersistentKeyValueRepresentation()), message: "not ISO 8601"),
        reading("bad UUID string", .string("not-a-uuid"), as: PersistentKey<UUID?>("value", defaultValue: nil), message: "does not convert"),
        // Character.init(_:) traps on these: the representation must check first.
        reading("two characters read as Character", .string("ab"), as: PersistentKey<Character>("value", defaultValue: "d"), message: "not one character"),
        reading("empty string read as Character", .string(""), as: PersistentKey<Character?>("value", defaultValue: nil), message: "not one character"),
        reading("unparsable LosslessString Int", .string("12a"), as: PersistentKey<Int>("value", defaultValue: 0, representation: LosslessStringConvertiblePersistentKeyValueRepresentation<Int>()), message: "does not parse"),
        reading("raw value with no case", .string("clubs"), as: PersistentKey<MatrixSuit>("value", defaultValue: .hearts), message: "raw value 'clubs' that matches no case"),
        reading("raw Int with no case", .int(5), as: PersistentKey<MatrixPriority>("value", defaultValue: .low), message: "matches no case"),
        reading("undecodable JSON", .data(Data("garbage".utf8)), as: PersistentKey<MatrixProfile>("value", defaultValue: .bob), message: "stored value ignored, default used"),
        reading("JSON of another shape", .data(Data(#"{"name":"Ann"}"#.utf8)), as: PersistentKey<MatrixProfile?>("value", defaultValue: nil), message: "stored value ignored"),
        reading(
            "JSON read by a PropertyList decoder", .data(Data(#"{"name":"Ann"}"#.utf8)),
            as: PersistentKey<MatrixProfile>("value", defaultValue: .bob, representation: CodablePersistentKeyValueRepresentation(encoder: PropertyListEncoder(), decoder: PropertyListDecoder())),
            message: "stored value ignored"
        ),
        reading("String read as Codable", .string("{}"), as: PersistentKey<MatrixProfile>("value", defaultValue: .bob), message: "expected a value of type 'Data'"),
    ]
}

/// A value that cannot be stored: the write must not happen, the old value stays, one report.
struct UnwritableCase: Sendable, CustomTestStringConvertible {
    let name: String
    let messageFragment: String
    /// Writes a good value to "value", then a bad one; returns whether the good one is still read.
    let writeGoodThenBad: @Sendable (any PersistentKeyValueStore) -> Bool
    /// The stores the case runs on. (A UserDefaults suite written 511 levels deep is an XML file of
    /// 300 KB: its synchronization would keep every other test's writes out of Foundation while it
    /// runs. Foundation reading such a file back was checked by hand; the refusal is the same for
    /// every store.)
    var kinds: [StoreKind] = StoreKind.allCases

    var testDescription: String { name }

    static func writing<Key: PersistentKeyProtocol>(
        _ name: String, _ key: Key, good: Key.Value, bad: Key.Value, message: String, kinds: [StoreKind] = StoreKind.allCases
    ) -> UnwritableCase where Key.Value: Equatable {
        UnwritableCase(
            name: name, messageFragment: message,
            writeGoodThenBad: { store in
                store.set(key, to: good)
                store.set(key, to: bad)
                return store.get(key) == good
            },
            kinds: kinds)
    }

    struct Measurement: Codable, Equatable, Sendable {
        var value: Double
    }

    /// A number n stored as n arrays nested around it.
    struct NestedArrays: PersistentKeyValueRepresentation {
        func persistentValue(for value: Int) throws -> PropertyListValue? {
            (0..<value).reduce(.int(value)) { nested, _ in .array([nested]) }
        }
        func value(from persistentValue: PropertyListValue) throws -> Int {
            var value = persistentValue
            while case .array(let elements) = value, let first = elements.first { value = first }
            guard case .int(let int) = value else { throw PersistentKeyValueEncodingError("not nested arrays") }
            return int
        }
        var _decodesByTypeAlone: Bool { true }
    }

    static let all: [UnwritableCase] = [
        writing(
            "Double.nan through JSONEncoder",
            PersistentKey<Measurement>("value", defaultValue: Measurement(value: 0), representation: CodablePersistentKeyValueRepresentation()),
            good: Measurement(value: 1), bad: Measurement(value: .nan), message: "value not written"
        ),
        writing(
            "infinity through JSONEncoder",
            PersistentKey<Measurement?>("value", defaultValue: nil, representation: CodablePersistentKeyValueRepresentation()),
            good: Measurement(value: 1), bad: Measurement(value: .infinity), message: "value not written"
        ),
        writing("[Int?] holding nil", PersistentKey<[Int?]>("value", defaultValue: []), good: [1, 2], bad: [1, nil], message: "array element 1 is nil"),
        writing("[String: Int?] holding nil", PersistentKey<[String: Int?]>("value", defaultValue: [:]), good: ["a": 1], bad: ["a": nil], message: "dictionary value for 'a' is nil"),
        writing("String with U+0001", PersistentKey<String>("value", defaultValue: ""), good: "fine", bad: "a\u{1}b", message: "control character U+0001"),
        writing("String with U+0000", PersistentKey<String?>("value", defaultValue: nil), good: "fine", bad: "a\u{0}b", message: "control character U+0000"),
        writing("[String] with U+001F", PersistentKey<[String]>("value", defaultValue: []), good: ["ok"], bad: ["ok", "\u{1F}"], message: "at [1]"),
        writing("dictionary key with U+0002", PersistentKey<[String: Int]>("value", defaultValue: [:]), good: ["ok": 1], bad: ["k\u{2}": 1], message: "dictionary key contains control character U+0002"),
        // Foundation writes it, and cannot read the file back (every value in it lost).
        writing(
            "arrays nested 512 deep", PersistentKey<Int>("value", defaultValue: 0, representation: NestedArrays()),
            good: 511, bad: 512, message: "nest more than 511 deep", kinds: [.inMemory, .file]
        ),
        writing("Character U+0007", PersistentKey<Character>("value", defaultValue: "d"), good: "g", bad: "\u{7}", message: "U+0007"),
        writing(
            "URL with U+0001 in its string",
            PersistentKey<URL?>("value", defaultValue: nil, representation: ProxyPersistentKeyValueRepresentation<URL, String>(to: { _ in "https://x.example/\u{1}" }, from: { URL(string: $0) })),
            good: nil, bad: URL(string: "https://x.example/")!, message: "U+0001"
        ),
    ]
}

@Suite("Failures: the default or the old value is kept, and the handler hears of it")
struct FailureTests {
    @Test(arguments: StoreKind.allCases, UnreadableCase.all)
    func unreadableValueGivesDefaultAndIsReported(kind: StoreKind, row: UnreadableCase) throws {
        let fixture = kind.makeFixture()
        try fixture.store.setPersistentValue(row.stored, forKey: "value")
        let recorder = FailureRecorder()
        let gaveDefault = recorder.record { row.readsDefault(fixture.store) }
        #expect(gaveDefault)
        #expect(recorder.failures.count == 1)
        let failure = try #require(recorder.failures.first)
        #expect(failure.operation == .read)
        #expect(failure.key == "value")
        #expect(failure.store == fixture.store.persistentStoreDescription)
        #expect(failure.message.contains(row.messageFragment), "\(failure.message)")
        // Nothing lost: the stored value is still there for a key that can read it.
        #expect(fixture.store.persistentValue(forKey: "value") == row.stored)
        #expect(fixture.store.hasPersistentValue(forKey: "value"))
    }

    /// Each row on each of its stores only: a combination that was skipped would pass unchecked.
    @Test(arguments: UnwritableCase.all.flatMap { row in row.kinds.map { (kind: $0, row: row) } })
    func unwritableValueIsNotWrittenAndIsReported(kind: StoreKind, row: UnwritableCase) throws {
        let fixture = kind.makeFixture()
        let notified = Locked(0)
        let observation = fixture.store.keyValueChanges.addObserver(forKey: "value") { _ in notified.withLock { $0 += 1 } }
        defer { observation.cancel() }
        let recorder = FailureRecorder()
        let keptOldValue = recorder.record { row.writeGoodThenBad(fixture.store) }
        #expect(keptOldValue)
        #expect(recorder.failures.count == 1)
        let failure = try #require(recorder.failures.first)
        #expect(failure.operation == .write)
        #expect(failure.key == "value")
        #expect(failure.message.contains(row.messageFragment), "\(failure.message)")
        #expect(notified.current <= 1, "only the good write is announced")
        // The file on disk still parses (a control character would make an XML plist unreadable)
        // and holds the old value.
        if let persisted = try fixture.persistedStore() {
            #expect(persisted.persistentValue(forKey: "value") == fixture.store.persistentValue(forKey: "value"))
        }
    }

    @Test func setReportsThroughTheProcessWideHandlerWhenNoTaskHandlerIsSet() async throws {
        // The task handler is what tests use; check that `set` and `get` go through `report`, which
        // picks the task handler first. (The process-wide handler is not replaced: tests run in parallel.)
        let store = InMemoryKeyValueStore()
        let recorder = FailureRecorder()
        await recorder.record {
            store.set(PersistentKey<String>("value", defaultValue: ""), to: "\u{1}")
            await Task { _ = store.get(PersistentKey<Int>("missing", defaultValue: 0)) }.value
        }
        #expect(recorder.failures.count == 1)
        #expect(store.storedValues.isEmpty)
    }

    @Test func throwingSetThrowsTheFailureInsteadOfReporting() {
        let store = InMemoryKeyValueStore()
        let recorder = FailureRecorder()
        _ = recorder.record {
            #expect(throws: PersistentKeyValueFailure.self) {
                try store._set(PersistentKey<String>("value", defaultValue: ""), to: "\u{1}")
            }
        }
        #expect(recorder.failures.isEmpty)
    }
}

@Suite("File store: atomic, private, shared, and careful with corrupt files")
struct FileStoreTests {
    let directory = TemporaryDirectory()
    var url: URL { directory.file("settings.plist") }

    static let corruptContents: [(String, Data)] = [
        ("not a property list", Data("not a plist \u{0} at all".utf8)),
        ("truncated XML", Data(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>a</key><integer>1</int"#.utf8)),
        ("an array at the top level", try! PropertyListSerialization.data(fromPropertyList: [1, 2], format: .xml, options: 0)),
        ("invalid UTF-8", Data([0xFF, 0xFE, 0x00, 0x3C])),
        ("a binary list cut short, one of whose strings is XML", damagedBinaryListHoldingXML()),
        ("text, then an XML list", Data(#"log: <plist version="1.0"><dict><key>x</key><integer>99999999999999999999999</integer></dict></plist>"#.utf8)),
    ]

    /// A binary list cut short (its offsets and trailer gone), one of whose values is the text of
    /// an XML property list with an entry that does not parse: not a list to read entry by entry.
    private static func damagedBinaryListHoldingXML() -> Data {
        let document = #"<plist version="1.0"><dict><key>x</key><integer>99999999999999999999999</integer></dict></plist>"#
        let values: [String: Any] = ["exported": document, "important": String(repeating: "precious ", count: 200), "count": 42]
        let whole = try! PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
        return whole.prefix(whole.count - 40)
    }

    @Test(arguments: corruptContents.map(\.0))
    func corruptFileIsMovedAsideAndReported(label: String) throws {
        let original = Self.corruptContents.first { $0.0 == label }!.1
        try original.write(to: url)
        let recorder = FailureRecorder()
        let store = recorder.record { FileKeyValueStore(url: url) }

        #expect(recorder.failures.count == 1)
        let failure = try #require(recorder.failures.first)
        #expect(failure.operation == .load)
        #expect(failure.key == nil)
        #expect(failure.message.contains("moved aside"), "\(failure.message)")

        #expect(store.storedValues.isEmpty, "the store starts empty")
        #expect(store.get(PersistentKey<Int>("a", defaultValue: 7)) == 7)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            .filter { $0.hasPrefix("settings.plist.corrupt-") }
        #expect(aside.count == 1)
        let asideURL = directory.file(try #require(aside.first))
        #expect(try Data(contentsOf: asideURL) == original, "the corrupt file keeps its bytes")
        #expect(failure.message.contains(asideURL.lastPathComponent))

        // Writing afterwards makes a new, valid file and leaves the corrupt one alone.
        recorder.record { store.set(PersistentKey<Int>("a", defaultValue: 7), to: 8) }
        #expect(recorder.failures.count == 1)
        #expect(try FileStoreOnDisk.read(url) == ["a": .int(8)])
        #expect(try Data(contentsOf: asideURL) == original)
    }

    @Test func fileIsCreatedReadableByItsOwnerOnly() throws {
        let store = FileKeyValueStore(url: url)
        store.set(PersistentKey<String>("token", defaultValue: ""), to: "secret")
        var info = stat()
        for file in [url.path + ".journal", url.path + ".lock"] {
            #expect(stat(file, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600, "\(file)")
        }
        store.set(PersistentKey<String>("token", defaultValue: ""), to: "rotated")
        try store.compact()
        for file in [url.path, url.path + ".journal"] {
            #expect(stat(file, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600, "every rewrite keeps the mode: \(file)")
        }
    }

    @Test func writesLeaveNoTemporaryFilesBehind() throws {
        let store = FileKeyValueStore(url: url)
        for index in 0..<20 {
            store.set(PersistentKey<Int>("n", defaultValue: 0), to: index)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(names.sorted() == ["settings.plist.journal", "settings.plist.lock"], "the journal and the lock writers take, nothing else")
        try store.compact()
        let compacted = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(compacted.sorted() == ["settings.plist", "settings.plist.journal", "settings.plist.lock"])
        #expect(try StoreFixture.readPropertyListFile(url) == ["n": .int(19)], "the file alone holds every write once compacted")
        #expect(try FileStoreOnDisk.journalRecordCount(url) == 0, "the journal starts again")
    }

    @Test func twoStoresOnOneFileAgree() throws {
        let first = FileKeyValueStore(url: url)
        // The same file, spelled differently.
        let second = FileKeyValueStore(url: directory.url.appendingPathComponent("./sub/../settings.plist"))
        let key = PersistentKey<[String]>("list", defaultValue: [])
        first.set(key, to: ["a"])
        #expect(second.get(key) == ["a"])
        second.set(PersistentKey<Int>("n", defaultValue: 0), to: 2)
        #expect(first.get(PersistentKey<Int>("n", defaultValue: 0)) == 2)
        #expect(first.get(key) == ["a"], "the second store's write kept the first store's value")
        second.remove(key)
        #expect(first.get(key) == [])
        #expect(try FileStoreOnDisk.read(url) == ["n": .int(2)])
    }

    @Test func storesThroughASymlinkShareTheFile() throws {
        let linkDirectory = directory.file("link")
        try FileManager.default.createSymbolicLink(at: linkDirectory, withDestinationURL: directory.url)
        let first = FileKeyValueStore(url: url)
        let second = FileKeyValueStore(url: linkDirectory.appendingPathComponent("settings.plist"))
        first.set(PersistentKey<Int>("n", defaultValue: 0), to: 1)
        second.set(PersistentKey<Int>("m", defaultValue: 0), to: 2)
        #expect(first.get(PersistentKey<Int>("m", defaultValue: 0)) == 2)
        #expect(try FileStoreOnDisk.read(url) == ["n": .int(1), "m": .int(2)])
    }

    @Test func fileWrittenByOtherCodeIsRead() throws {
        let object: [String: Any] = ["n": 3, "s": "x", "d": Date(timeIntervalSinceReferenceDate: 5), "a": ["p", "q"]]
        try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0).write(to: url)
        let store = FileKeyValueStore(url: url)
        #expect(store.get(PersistentKey<Int>("n", defaultValue: 0)) == 3)
        #expect(store.get(PersistentKey<String>("s", defaultValue: "")) == "x")
        #expect(store.get(PersistentKey<Date>("d", defaultValue: .distantPast)) == Date(timeIntervalSinceReferenceDate: 5))
        #expect(store.get(PersistentKey<[String]>("a", defaultValue: [])) == ["p", "q"])
    }

    @Test func directoryReplacedByAFileMakesWritesFailAndKeepsTheOldValue() throws {
        let folder = directory.file("folder")
        let store = FileKeyValueStore(url: folder.appendingPathComponent("settings.plist"))
        let key = PersistentKey<Int>("n", defaultValue: 0)
        store.set(key, to: 1)
        try FileManager.default.removeItem(at: folder)
        try Data("in the way".utf8).write(to: folder)

        let recorder = FailureRecorder()
        recorder.record { store.set(key, to: 2) }
        #expect(recorder.failures.count == 1)
        #expect(recorder.failures.first?.operation == .write)
        #expect(recorder.failures.first?.key == "n")
        // A read notices that the file cannot be opened any more: reported once, the values last
        // read are kept.
        #expect(recorder.record { store.get(key) } == 1, "the old value stays")
        #expect(recorder.record { store.get(key) } == 1)
        #expect(recorder.failures.map(\.operation) == [.write, .load])
        #expect(recorder.failures.last?.message.contains("Not a directory") == true, "\(recorder.failures)")
    }

    @Test func targetThatIsADirectoryMakesWritesFailAndKeepsTheOldValue() throws {
        // Works even as root, for whom permissions do not stop writes.
        let store = FileKeyValueStore(url: url)
        let key = PersistentKey<Int>("n", defaultValue: 0)
        store.set(key, to: 1)
        try store.compact()
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url.appendingPathComponent("occupied"), withIntermediateDirectories: true)

        let recorder = FailureRecorder()
        recorder.record {
            store.set(key, to: 2)
            store.remove(key)
        }
        #expect(store.get(key) == 1, "the old value stays")
        #expect(store.contains(key))
        #expect(recorder.failures.map(\.operation) == [.write, .remove])
        #expect(recorder.failures.first?.message.contains("not written, to keep the file that is there") == true, "\(recorder.failures)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(leftovers.sorted() == ["settings.plist", "settings.plist.journal", "settings.plist.lock"], "no temporary file is left")
    }

    @Test func unreadableFileIsReportedAndLeftInPlace() throws {
        // A directory where the file should be cannot be read: reported, not moved aside.
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let recorder = FailureRecorder()
        let store = recorder.record { FileKeyValueStore(url: url) }
        #expect(recorder.failures.count == 1)
        #expect(recorder.failures.first?.operation == .load)
        #expect(store.storedValues.isEmpty)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }
}
